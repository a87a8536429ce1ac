"""The pictures' tests share matplotlib on the Agg backend (skipped, with the reason, without the plot extra)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def pyplot() -> Iterator[Any]:
    """``matplotlib.pyplot`` on the Agg backend; every figure closed after the test."""
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")
