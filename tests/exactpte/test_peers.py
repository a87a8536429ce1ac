"""Cross-validation against peers users already have: Storm (exact), QuantEcon, PyDTMC.

The peers install with ``pip install ".[peers]"`` (kept out of the ``test`` extra: PyDTMC
pins numpy < 2); where one cannot be imported the test is skipped with the reason shown in
the pytest summary (never silently).
"""

import os
import tempfile

import numpy as np
import pytest
from hypothesis import assume, given

import exactpte
from exactpte.model.to_float import float_matrix, to_floats
from exactpte.io import to_drn, to_prism
from exactpte.testing.strategies import chains
from conftest import scaled

PEER_SETTINGS = scaled(1/2)  # half the profile's examples: scales with it


def storm_lra(stormpy, path, exact=True):
    model = stormpy.build_model_from_drn[stormpy.Rational if exact else float](path)
    prop = stormpy.parse_properties('R{"r"}=? [ LRA ]')[0]
    return stormpy.model_checking(model, prop, only_initial_states=False).get_value_vector()


@pytest.mark.extra("peers")
@PEER_SETTINGS
@given(chains(max_states=14, reward_denominator=2))
def test_storm_exact_long_run_average_equals_rho(chain):
    """Storm's exact long-run average reward (DRN route, rationals) equals exactpte's rho, state by state."""
    stormpy = pytest.importorskip("stormpy", reason="stormpy (Storm's Python bindings) is not installed")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.drn")
        with open(path, "w") as fh:
            fh.write(to_drn(chain))
        values = storm_lra(stormpy, path)
    got = [f"{v.numerator}/{v.denominator}" for v in values]
    expected = [f"{x.p}/{x.q}" for x in exactpte.gain(chain)]
    assert got == expected


@pytest.mark.extra("peers")
@PEER_SETTINGS
@given(chains(max_states=14, reward_denominator=2, reward_range=(0, 3)))
def test_prism_explicit_through_storm(chain):
    """exactpte -> PRISM explicit -> Storm: Storm's explicit parser reads doubles (and only
    non-negative state rewards) and its float engine stops at its default precision 1e-6,
    so this route is compared to 1e-6; the DRN route above is the exact one."""
    stormpy = pytest.importorskip("stormpy", reason="stormpy (Storm's Python bindings) is not installed")
    tra, srew, lab = to_prism(chain, numbers="float", flavour="storm")
    with tempfile.TemporaryDirectory() as d:
        paths = {ext: os.path.join(d, f"m.{ext}") for ext in ("tra", "srew", "lab")}
        for ext, text in zip(("tra", "srew", "lab"), (tra, srew, lab)):
            with open(paths[ext], "w") as fh:
                fh.write(text)
        model = stormpy.build_model_from_explicit(paths["tra"], paths["lab"], state_rewards=paths["srew"])
        prop = stormpy.parse_properties("R=? [ LRA ]")[0]
        values = stormpy.model_checking(model, prop, only_initial_states=False).get_value_vector()
    rho = to_floats(exactpte.gain(chain))
    assert np.allclose(values, rho, atol=1e-6, rtol=0)


def _blocks(chain):
    S = chain.structure
    return S, float_matrix(chain)


@pytest.mark.extra("peers")
@PEER_SETTINGS
@given(chains(max_states=14))
def test_structure_agrees_with_quantecon(chain):
    """QuantEcon finds the same recurrent classes, periods and cyclic classes."""
    qe = pytest.importorskip("quantecon", reason="quantecon is not installed")
    S, P = _blocks(chain)
    mc = qe.MarkovChain(P)
    assert sorted(sorted(int(s) for s in c) for c in mc.recurrent_classes) == sorted(sorted(c) for c in S.classes)
    for members, d, cyc in zip(S.classes, S.periods, S.cyclic_classes):
        idx = np.array(members)
        sub = qe.MarkovChain(P[np.ix_(idx, idx)])
        assert sub.period == d
        theirs = sorted(sorted(int(idx[s]) for s in c) for c in sub.cyclic_classes)
        assert theirs == sorted(sorted(c) for c in cyc)


@PEER_SETTINGS
@given(chains(max_states=14))
def test_structure_agrees_with_pydtmc(chain):
    """PyDTMC finds the same recurrent classes, periods and cyclic classes (PyDTMC is in no extra:
    it pins numpy < 2; this test skips unless it is installed by hand)."""
    pydtmc = pytest.importorskip("pydtmc", reason="pydtmc is not installed (in no extra: it pins numpy < 2)")
    assume(chain.n >= 2)  # pydtmc only takes chains of 2 states or more
    S, P = _blocks(chain)
    names = [str(i) for i in range(chain.n)]
    mc = pydtmc.MarkovChain(P, names)
    assert sorted(sorted(int(s) for s in c) for c in mc.recurrent_classes) == sorted(sorted(c) for c in S.classes)
    for members, d, cyc in zip(S.classes, S.periods, S.cyclic_classes):
        if len(members) < 2:
            assert d == 1
            continue
        idx = np.array(members)
        sub = pydtmc.MarkovChain(P[np.ix_(idx, idx)], [str(s) for s in members])
        assert sub.period == d
        theirs = sorted(sorted(int(s) for s in c) for c in sub.cyclic_classes) if d > 1 else [sorted(members)]
        assert theirs == sorted(sorted(c) for c in cyc)
