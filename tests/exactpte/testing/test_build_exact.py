"""build_chain passes its drawn probabilities and rewards as exact numbers (no "w/D" text parsed back):
the same chains as the text route, still validated."""

import flint

from exactpte.model.chain import MarkovRewardProcess
from exactpte.testing.random_chains import random_small_chain, sweep_chain


def _as_text_route(chain: MarkovRewardProcess) -> MarkovRewardProcess:
    edges = [(s, t, f"{p.p}/{p.q}") for s in range(chain.n) for t, p in chain.row(s)]
    return MarkovRewardProcess.from_edges(chain.n, edges, [f"{x.p}/{x.q}" for x in chain.r])


def test_same_chain_as_the_text_route():
    for i in range(150):
        for chain in (sweep_chain(f"7331:{i}", max_states=12), random_small_chain(i)):
            again = _as_text_route(chain)
            assert chain == again and chain.r == again.r
            assert all(isinstance(p, flint.fmpq) for s in range(chain.n) for _, p in chain.row(s))
            assert all(isinstance(x, flint.fmpq) for x in chain.r)


def test_pinned_seed():
    """The seeded chains did not change with the exact route (drawn on main with the text route)."""
    c = sweep_chain("7331:5", max_states=5)
    assert [c.row(s) for s in range(c.n)] == [((0, 1),), ((0, flint.fmpq(3, 5)), (1, flint.fmpq(2, 5)))]
    assert c.r == (-3, 0)
