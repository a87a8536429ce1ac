"""The PyDTMC case study (PyDTMC is in no extra: it pins numpy < 2).  Runs when
EXACTPTE_PYDTMC_PYTHON names the python of an environment with pydtmc; a plain skip otherwise."""

import os
import runpy

from paths import EXAMPLES

import pytest


def test_pydtmc_periods_and_absorbing_states_are_caught():
    if not os.environ.get("EXACTPTE_PYDTMC_PYTHON"):
        pytest.skip("EXACTPTE_PYDTMC_PYTHON is not set (PyDTMC needs an environment of its own: numpy < 2)")
    studies = runpy.run_path(str(EXAMPLES / "oracle_peers.py"))
    (_, none), (_, small), (_, fifteen), (_, leak) = studies["pydtmc"]()
    assert none is None and small.ok
    assert "smallest state 6: expected period 3, got 1" in fifteen.findings[1].detail
    assert not leak.ok and leak.findings[0].detail == "expected [[2], [3]], got [[1], [2], [3]]"
