"""What every picture shares: matplotlib on first use (the ``plot`` extra), the class colours, saving.

Without matplotlib, :func:`pyplot` raises :class:`~exactpte.errors.UsageError` naming the extra.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from exactpte.errors import UsageError

__all__ = ["CLASS_COLOURS", "pyplot", "save", "text_boxes", "text_collisions"]

CLASS_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]
"""One colour per closed class, in class order (cycled past nine classes)."""


def pyplot() -> ModuleType:
    """``matplotlib.pyplot``, or a :class:`~exactpte.errors.UsageError` naming the ``plot`` extra."""
    try:
        import matplotlib.pyplot as plt  # headless machines fall back to the Agg backend by themselves
    except ImportError:
        raise UsageError('pictures need matplotlib: pip install ".[plot]"') from None
    module: ModuleType = plt  # (typed so with and without matplotlib installed)
    return module


def save(figure_or_ax: Any, path: str, *, tight: bool = True) -> None:
    """Write a picture (``.svg``, ``.png``, ``.pdf``: by the ending) at the figure's resolution;
    ``tight`` trims it to what it shows, else the figure's own size is kept (``exactpte draw --size``)."""
    fig = figure_or_ax.figure if hasattr(figure_or_ax, "figure") and not hasattr(figure_or_ax, "savefig") else figure_or_ax
    fig.savefig(path, bbox_inches="tight" if tight else None)
    pyplot().close(fig)


def text_boxes(figure: Any) -> list[tuple[Any, Any]]:
    """``(text artist, its window extent)`` for every visible, non-empty text of a figure (axes texts,
    titles, axis labels, tick labels, legends), measured by the figure's renderer (pixels)."""
    from matplotlib.text import Text

    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    hidden = set()  # labels of ticks outside the view: matplotlib keeps them but does not draw them
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - 1e-9 * (high - low) <= tick.get_loc() <= high + 1e-9 * (high - low):
                    hidden.update({id(tick.label1), id(tick.label2)})
    out = []
    for artist in figure.findobj(Text):
        if artist.get_visible() and artist.get_text().strip() and artist.figure is figure and id(artist) not in hidden:
            out.append((artist, artist.get_window_extent(renderer)))
    return out


def text_collisions(figure: Any) -> tuple[list[tuple[str, str]], list[str]]:
    """``(overlapping pairs, clipped texts)`` of a drawn figure: the pairs of texts whose boxes
    overlap (by more than half a pixel each way) and the texts reaching outside the figure.  A
    picture a person can read has neither (what ``tests/exactpte/plots/test_readable.py`` asserts).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(2, 2)); ax.axis("off")
    (...)
    >>> _ = ax.text(0.5, 0.5, "one"); _ = ax.text(0.5, 0.5, "two"); _ = ax.text(5, 5, "far away")
    >>> pairs, clipped = text_collisions(fig); plt.close(fig)
    >>> pairs, clipped
    ([('one', 'two')], ['far away'])
    """
    boxes = text_boxes(figure)
    frame = figure.bbox
    pairs = []
    for k, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[k + 1:]:
            if min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 0.5 and min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 0.5:
                pairs.append((a.get_text(), b.get_text()))
    clipped = [a.get_text() for a, box in boxes
               if box.x0 < frame.x0 - 0.5 or box.y0 < frame.y0 - 0.5 or box.x1 > frame.x1 + 0.5 or box.y1 > frame.y1 + 0.5]
    return pairs, clipped
