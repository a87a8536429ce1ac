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


def test_sweep_chains_draw_as_randint_does():
    """sweep_chain's integer source (randint_of: randint's draws without its frames) builds the same chains as
    random.Random(seed).randint, and leaves the generator in the same state."""
    import random

    from exactpte.io import chain_to_dict
    from exactpte.testing.random_chains import draw_sweep_chain, randint_of, sweep_chain

    for i in range(200):
        seed = f"7331:{i}"
        assert chain_to_dict(sweep_chain(seed, min_states=1, max_states=12)) == chain_to_dict(
            draw_sweep_chain(random.Random(seed).randint, min_states=1, max_states=12))
    a, b = random.Random(5), random.Random(5)
    fast = randint_of(a)
    assert [fast(lo, lo + w) for lo in range(-3, 3) for w in range(0, 40)] == [b.randint(lo, lo + w) for lo in range(-3, 3) for w in range(0, 40)]
    assert a.random() == b.random()
