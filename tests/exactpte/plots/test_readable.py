"""Pictures a person can read: no two texts overlap and none is cut off by the figure's edge (text
boxes measured by matplotlib's renderer), on every built-in example, on random chains of 6 and 30
states, and on the strata pictures of one and two parameters; ``exactpte draw`` takes --dpi and --size."""

from __future__ import annotations

from typing import Any

import pytest

import exactpte

pytestmark = pytest.mark.extra("plot")




def _random(n: int, classes: int, seed: int) -> exactpte.MarkovRewardProcess:
    from exactpte.testing.random_chains import random_chain

    return random_chain(n, seed=seed, n_classes=classes)


CHAINS = {**{name: (lambda name=name: exactpte.example(name)) for name in exactpte.EXAMPLES},
          "random-6": lambda: _random(6, 2, 3), "random-30": lambda: _random(30, 4, 1)}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_chain_picture_with_edge_labels_has_no_overlapping_and_no_clipped_text(pyplot: Any, name: str) -> None:
    """draw(edge_labels=True): 0 overlapping text pairs, 0 texts outside the figure; every state written."""
    from exactpte.plots import draw
    from exactpte.plots.common import text_boxes, text_collisions

    chain = CHAINS[name]()
    ax = draw(exactpte.decompose(chain), edge_labels=True)
    assert text_collisions(ax.figure) == ([], [])
    written = {artist.get_text() for artist, _ in text_boxes(ax.figure)}
    assert {chain.label(s) for s in range(chain.n)} <= written


def test_small_chains_keep_every_edge_label_and_the_legend_says_what_shapes_mean(pyplot: Any) -> None:
    """On a chain up to 30 states every probability is written (none left out) and the legend names
    classes with their periods, transient states and anchors."""
    from exactpte.plots import draw

    chain = _random(30, 4, 1)
    ax = draw(exactpte.decompose(chain), edge_labels=True)
    edge_texts = [t for t in ax.texts if t.get_bbox_patch() is not None]  # edge labels sit on a white box
    assert len(edge_texts) == len(list(chain.edges()))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(text.startswith("F0: closed class") for text in legend)
    assert "transient state" in legend and "anchor (one per cyclic class)" in legend
    assert not any("left out" in text for text in legend)


def test_the_collision_count_sees_overlaps_and_clipping(pyplot: Any) -> None:
    """The measure itself fails a picture with two texts on one spot and one beyond the edge (a mutant layout)."""
    from exactpte.plots import draw
    from exactpte.plots.common import text_collisions

    ax = draw(exactpte.example("branching"), edge_labels=True)
    first = next(t for t in ax.texts if t.get_text())  # a state's name, centred on its node
    ax.text(*first.get_position(), first.get_text(), fontsize=first.get_fontsize(), ha="center", va="center")
    ax.annotate("outside", (1.05, 0.5), xycoords="figure fraction")
    pairs, clipped = text_collisions(ax.figure)
    assert len(pairs) >= 1 and clipped == ["outside"]


def test_figure_grows_with_the_chain(pyplot: Any) -> None:
    from exactpte.plots import draw

    def drawing_inches(ax: Any) -> tuple[float, float]:  # the graph's own area (the legend is beneath it)
        width, height = ax.figure.get_size_inches()
        return ax.get_position().width * width, ax.get_position().height * height

    small = drawing_inches(draw(exactpte.example("periodic")))
    large = drawing_inches(draw(_random(30, 4, 1)))
    assert large[0] > 2 * small[0] and large[1] > 2 * small[1]


STRATA = {
    "two-parameters": lambda: exactpte.ParametricChain([["1-p", "p", 0], [0, 0, 1], ["q", "1-q", 0]], [1, 0, 0],
                                                      params=["p", "q"], labels=["a", "b1", "b2"]),
    "two-state-pq": lambda: exactpte.example("two-state-pq"),
    "one-parameter": lambda: exactpte.example("branching-b"),
}


@pytest.mark.parametrize("name", sorted(STRATA))
def test_strata_pictures_say_what_changes_without_overlap_or_clipping(pyplot: Any, name: str) -> None:
    """plot_strata: 0 overlaps, 0 clipped texts; every lower stratum labelled by what differs from the
    generic one (never the generic stratum's structure again); titles free of the region's conditions."""
    from exactpte.plots.common import text_collisions

    strat = exactpte.stratify(STRATA[name]())
    ax = strat.plot("g_star", 0)
    assert text_collisions(ax.figure) == ([], [])
    labels = ax.get_legend_handles_labels()[1]
    assert len(labels) == len([s for s in strat.strata if s.decomposition is not None])
    assert all(":" in text for text in labels)
    assert "<" not in ax.get_title() and "!=" not in ax.get_title()
    for cbar_axes in ax.figure.axes[1:]:
        assert "<" not in cbar_axes.get_ylabel() and "!=" not in cbar_axes.get_ylabel()


def test_what_changes_names_the_transient_state_and_the_period() -> None:
    """q = 0 makes b1 and b2 a closed 2-cycle with a transient; p = 1, q = 1 gives a 3-cycle."""
    from exactpte.plots.strata import what_changes

    strat = exactpte.stratify(STRATA["two-parameters"]())
    said = {what_changes(s, strat.strata[0]) for s in strat.strata[1:]}
    assert "q = 0: a transient; period 1 → 2" in said
    assert "p = 1, q = 1: period 1 → 3" in said
    assert "p = 0: b1, b2 transient" in said
    # p = 1 drops the edge a -> a only: the generic closed forms hold there restricted (exactly), and the legend says so
    assert "p = 1: same structure and closed forms (an entry vanishes)" in said
    assert not any("other closed form" in text for text in said)


def test_draw_cli_takes_dpi_and_size(pyplot: Any, tmp_path: Any) -> None:
    """--size 6,4 --dpi 50 writes a 300 x 200 pixel PNG; bad sizes are usage errors (exit 2)."""
    from exactpte.cli.commands import main

    out = tmp_path / "b.png"
    assert main(["draw", "--example", "branching", "--edge-labels", "--size", "6,4", "--dpi", "50", "-o", str(out)]) == 0
    width, height = _png_size(out.read_bytes())
    assert (width, height) == (300, 200)
    assert main(["draw", "--example", "branching", "--dpi", "100", "-o", str(out)]) == 0
    natural = _png_size(out.read_bytes())[0]
    assert main(["draw", "--example", "branching", "--dpi", "200", "-o", str(out)]) == 0
    assert abs(_png_size(out.read_bytes())[0] - 2 * natural) <= 2
    for bad in ("6", "6,x", "0,4", "nan,4", "6,4,1"):
        assert main(["draw", "--example", "branching", "--size", bad, "-o", str(out)]) == 2


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
