"""The pictures' tests share matplotlib on the Agg backend (skipped, with the reason, without the plot extra)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def pyplot() -> Iterator[Any]:
    """``matplotlib.pyplot`` on the Agg backend; every figure closed after the test.  (Every test that asks for it
    is marked ``extra("plot")``, so under EXACTPTE_REQUIRE_EXTRAS=1 its skip is a failure.)"""
    try:
        import matplotlib
    except ImportError:
        pytest.skip("matplotlib (the plot extra) is not installed")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")
