"""What every picture shares: matplotlib on first use (the ``plot`` extra), the class colours, saving.

Without matplotlib, :func:`pyplot` raises :class:`~exactpte.errors.UsageError` naming the extra.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from exactpte.errors import UsageError

__all__ = ["CLASS_COLOURS", "pyplot", "save"]

CLASS_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]
"""One colour per closed class, in class order (cycled past nine classes)."""


def pyplot() -> ModuleType:
    """``matplotlib.pyplot``, or a :class:`~exactpte.errors.UsageError` naming the ``plot`` extra."""
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to the Agg backend by themselves
    except ImportError:
        raise UsageError('pictures need matplotlib: pip install ".[plot]"') from None
    return plt


def save(figure_or_ax: Any, path: str) -> None:
    """Write a picture (``.svg``, ``.png``, ``.pdf``: by the ending)."""
    fig = figure_or_ax.figure if hasattr(figure_or_ax, "figure") and not hasattr(figure_or_ax, "savefig") else figure_or_ax
    fig.savefig(path, bbox_inches="tight")
    pyplot().close(fig)
