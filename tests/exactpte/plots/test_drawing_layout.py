"""The chain drawing's layout: no two nodes overlap, on every built-in example (drawn, in pixels)."""

import itertools
import math

import pytest

import exactpte
from exactpte.plots.chains import layout

pytestmark = pytest.mark.extra("plot")

RATIONAL_EXAMPLES = [name for name in exactpte.EXAMPLES if not exactpte.example(name).field.is_parametric]


@pytest.mark.parametrize("name", RATIONAL_EXAMPLES)
def test_no_two_nodes_overlap_in_layout_or_picture(name, tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib (the plot extra) is not installed")
    import matplotlib

    matplotlib.use("Agg")
    from exactpte.plots import draw, save

    chain = exactpte.example(name)
    dec = exactpte.decompose(chain)
    pos = layout(chain.structure, chain.support)
    assert sorted(pos) == list(range(chain.n))
    for a, b in itertools.combinations(range(chain.n), 2):
        assert math.dist(pos[a], pos[b]) >= 0.8 - 1e-9, (name, a, b, pos[a], pos[b])
    ax = draw(dec)
    fig = ax.figure
    fig.canvas.draw()
    pixels = ax.transData.transform([pos[s] for s in range(chain.n)])
    node = math.sqrt(320 * 1.3) * fig.dpi / 72  # the largest marker (an anchor), in pixels
    closest = min(math.dist(p, q) for p, q in itertools.combinations(pixels, 2))
    assert closest > node, (name, closest, node)
    save(fig, str(tmp_path / f"{name}.png"))
