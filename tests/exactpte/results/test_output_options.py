"""Every result kind prints with the same options (``exactpte.model.interface.Output``): the exact, the
certified and the stratified result take ``only``, ``include_P_inf``, ``include_hitting_times`` (and
``indent`` for text) with the same defaults, and each option does what it says on each of them."""

import inspect
import json

import pytest

import exactpte
from exactpte.model.interface import Output

CHAIN = exactpte.example("branching")
PARAMETRIC = exactpte.ParametricChain([["1-p", "p"], ["p", "1-p"]], [1, 0], params=["p"])


def results():
    return {"exact": exactpte.decompose(CHAIN), "certified": exactpte.decompose_certified(CHAIN),
            "stratified": exactpte.stratify(PARAMETRIC)}


@pytest.mark.parametrize("method", ["to_dict", "to_json"])
def test_the_three_results_share_one_signature(method):
    expected = inspect.signature(getattr(Output, method))
    for kind, result in results().items():
        got = inspect.signature(getattr(result, method))
        assert list(got.parameters.values()) == list(expected.parameters.values())[1:], (kind, got)


def _quantity_keys(d):
    """The quantity keys of a contract dict (of each stratum, for a stratified result)."""
    bodies = d["strata"] if "strata" in d else [d]
    return [{k for k in ("rho", "h", "g_star", "P_inf", "hitting_times") if k in body} for body in bodies
            if not body.get("pointwise")]


def test_only_keeps_just_the_quantities_named_on_every_kind():
    for kind, result in results().items():
        assert all(keys == {"rho"} for keys in _quantity_keys(result.to_dict(only="rho"))), kind
        assert json.loads(result.to_json(only=["rho"])) == result.to_dict(only=["rho"]), kind


def test_P_inf_by_default_and_left_out_when_asked_on_every_kind():
    for kind, result in results().items():
        assert all("P_inf" in keys for keys in _quantity_keys(result.to_dict())), kind
        assert all("P_inf" not in keys for keys in _quantity_keys(result.to_dict(include_P_inf=False))), kind


def test_hitting_times_when_asked():
    for kind in ("exact", "stratified"):
        d = results()[kind].to_dict(include_hitting_times=True)
        assert all("hitting_times" in keys for keys in _quantity_keys(d)), kind
    with pytest.raises(exactpte.UsageError):  # no certified enclosure of hitting times: refused, not dropped
        results()["certified"].to_dict(include_hitting_times=True)
