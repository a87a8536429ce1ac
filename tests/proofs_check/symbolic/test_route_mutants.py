"""Every route of exactpte's engine and every structural field, broken on purpose (in the test only), makes the
proof fail (issue 41): ``proofs-check exhaustive`` reported 0 failed while users read a wrong ``v*`` on 10 of the 77
graphs with at most three states (the ``P∞ v*`` term dropped from the route that reads ``v*`` before the basis).
A crash of the engine on one graph fails that graph and the run goes on."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import pytest

import exactpte
import exactpte.model.chain as chain_module
import proofs_check
from exactpte.graph.structure import Structure
from exactpte.results.decomposition import Decomposition
from exactpte.solves.work import DecompositionWork
from proofs_check.runs.conjectures import CONJECTURES
from proofs_check.runs.exhaustive import exhaustive


def _replace(monkeypatch: pytest.MonkeyPatch, name: str, wrong: Callable[[DecompositionWork], Any]) -> None:
    prop = functools.cached_property(wrong)
    prop.__set_name__(DecompositionWork, name)
    monkeypatch.setattr(DecompositionWork, name, prop)


def _bumped(monkeypatch: pytest.MonkeyPatch, name: str, when: Callable[[DecompositionWork], bool]) -> None:
    """``name`` one more on the last transient state, on the route ``when`` selects."""
    original = DecompositionWork.__dict__[name].func

    def wrong(self: DecompositionWork) -> Any:
        out = original(self)
        if when(self) and self.S.transient:
            t = self.S.transient[-1]
            out = tuple(x + 1 if s == t else x for s, x in enumerate(out))
        return out

    _replace(monkeypatch, name, wrong)


def _before_basis(self: DecompositionWork) -> bool:
    return "basis_transient" not in vars(self)


def _v_star_without_p_inf(monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's mutant: the route reading v* before the basis forgets P∞ v* on the transient states."""
    def wrong(self: DecompositionWork) -> Any:
        v_rec = self.gauge[1]
        if self._aperiodic_without_basis():
            return tuple(v_rec[s] if s in v_rec else self.h[s] for s in range(self.S.n))
        sums = self.transient_sums
        return tuple(v_rec[s] if s in v_rec else (self.h[s] + sums["Pinf_v"][s]) - sums["psi"][s] for s in range(self.S.n))

    _replace(monkeypatch, "v_star", wrong)


def _rational_only(self: DecompositionWork) -> bool:
    return not self.field.splits_periods


def _factored_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    original = DecompositionWork.entry_parts

    def wrong(self: DecompositionWork, key: str) -> Any:
        parts = original(self, key)
        if parts and key == "v_star" and self.S.transient:
            t = self.S.transient[-1]
            one = self.field.one
            parts = {**parts, t: [*parts.get(t, []), (one.num, one.den)]}
        return parts

    monkeypatch.setattr(DecompositionWork, "entry_parts", wrong)


def _public(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    original = getattr(exactpte, name)

    def wrong(*args: Any, **kwargs: Any) -> Any:
        out = original(*args, **kwargs)
        return tuple(x + 1 if k == 0 else x for k, x in enumerate(out))

    monkeypatch.setattr(exactpte, name, wrong)


ROUTES: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "v_star read first, P∞ v* dropped (the issue's)": _v_star_without_p_inf,
    "v_star read first": lambda mp: _bumped(mp, "v_star", _before_basis),
    "g_star read first": lambda mp: _bumped(mp, "g_star", _before_basis),
    "psi read first": lambda mp: _bumped(mp, "psi", _before_basis),
    "h (one route: the identities see it)": lambda mp: _bumped(mp, "h", lambda self: True),
    "rho over QQ after the basis": lambda mp: _bumped(mp, "rho", lambda self: _rational_only(self) and not _before_basis(self)),
    "rho over QQ before the basis": lambda mp: _bumped(mp, "rho", lambda self: _rational_only(self) and _before_basis(self)),
    "g_star over QQ after the basis": lambda mp: _bumped(mp, "g_star", lambda self: _rational_only(self) and not _before_basis(self)),
    "the factored output": _factored_parts,
    "exactpte.gain": lambda mp: _public(mp, "gain"),
    "exactpte.stationary_distribution": lambda mp: _public(mp, "stationary_distribution"),
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_a_broken_route_fails_the_proof(route: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ROUTES[route](monkeypatch)
    report = exhaustive(3, only=["thm:wellposed", "claim:rho", "claim:h", "claim:psi", "claim:stationary", "routes:engine",
                                 "routes:rational"])
    assert report.failed > 0, route
    failing = {k for k, row in report.checks.items() if row["failed"]}
    assert failing & ({"claim:h"} if route.startswith("h ") else {"routes:engine", "routes:rational"}), failing


def test_the_issues_mutant_fails_thm_wellposed_on_ten_graphs(monkeypatch: pytest.MonkeyPatch) -> None:
    _v_star_without_p_inf(monkeypatch)
    report = exhaustive(3, only=["thm:wellposed"])  # the check alone: the route comparison runs beneath it
    assert report.checks["thm:wellposed"]["failed"] == 10
    assert "read before the basis" in report.failures[0]["detail"]


def _structure(monkeypatch: pytest.MonkeyPatch, edit: Callable[[Structure], Structure | None]) -> None:
    original = chain_module.plain_structure

    def wrong(n: int, indptr: list[int], indices: list[int]) -> Structure:
        S = original(n, indptr, indices)
        return edit(S) or S

    monkeypatch.setattr(chain_module, "plain_structure", wrong)


def _cyclic_reversed(S: Structure) -> Structure | None:
    if not any(d >= 3 for d in S.periods):
        return None
    return dataclasses.replace(S, cyclic_classes=tuple(cyc[::-1] if len(cyc) >= 3 else cyc for cyc in S.cyclic_classes))


STRUCTURE: dict[str, Callable[[Structure], Structure | None]] = {
    "periods": lambda S: dataclasses.replace(S, periods=(S.periods[0] + 1, *S.periods[1:])),
    "transient": lambda S: dataclasses.replace(S, transient=S.transient[:-1]) if S.transient else None,
    "classes": lambda S: dataclasses.replace(S, classes=((*S.classes[0], S.transient[0]), *S.classes[1:])) if S.transient else None,
    "cyclic_classes": _cyclic_reversed,
}


@pytest.mark.parametrize("field", list(STRUCTURE))
def test_a_broken_structural_field_fails_the_proof(field: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _structure(monkeypatch, STRUCTURE[field])
    report = exhaustive(3)  # a crash on a graph fails that graph: the run goes on to the next
    assert report.failed > 0 and sum(report.support_graphs.values()) == 77 == len(report.graphs)


def test_anchors_outside_their_cyclic_class_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Structure, "canonical_anchors", lambda self: tuple(tuple(cyc[k - 1][0] for k in range(len(cyc)))
                                                                          for cyc in self.cyclic_classes))
    report = exhaustive(3, only=["structure:anchors", "thm:wellposed"])
    assert report.checks["structure:anchors"]["failed"] > 0


def test_basis_columns_out_of_order_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    original = Structure.index_set
    monkeypatch.setattr(Structure, "index_set", property(lambda self: tuple(reversed(original.fget(self)))))  # type: ignore[attr-defined]
    report = exhaustive(3, only=["structure:basis_order", "thm:wellposed"])
    assert report.failed > 0


def test_a_relabelling_that_forgets_the_gauge_loses_the_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    @proofs_check.conjecture("test:v_star_vanishes_at_the_anchors")
    def _anchored(chain, dec):
        return all(dec.v_star[a] == 0 for _i, _k, a in dec.anchor_list)

    try:
        honest = exhaustive(3, only=["test:v_star_vanishes_at_the_anchors"])
        original = Decomposition.relabelled

        def careless(self: Decomposition, order: Any, *, anchors: Any = None) -> Decomposition:
            out = original(self, order, anchors=anchors)
            inverse = sorted(range(self.n), key=lambda s: order[s])
            return Decomposition._given(out.chain, out.structure, out.anchors,  # v* only permuted, never moved
                                        type(out._work)(**{**vars(out._work), "v_star": tuple(self.v_star[inverse[t]] for t in range(self.n))}))

        monkeypatch.setattr(Decomposition, "relabelled", careless)
        broken = exhaustive(3, only=["test:v_star_vanishes_at_the_anchors"])
    finally:
        CONJECTURES.pop("test:v_star_vanishes_at_the_anchors")
    assert honest.checks["test:v_star_vanishes_at_the_anchors"]["proved"] == 77
    assert broken.checks["test:v_star_vanishes_at_the_anchors"]["proved"] < 77


def test_the_cli_only_option_is_the_route_read_before_the_basis(monkeypatch: pytest.MonkeyPatch, tmp_path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``exactpte decompose --only v_star`` (``to_dict(only=...)``) reads v* before the basis: under the issue's mutant a
    user gets another v* there than in the full output, which is why the proofs compare that route."""
    import json

    from exactpte.cli.commands import main as exactpte_main

    path = tmp_path / "c.json"
    path.write_text(json.dumps({"P": [["1/2", "1/2", "0"], ["1", "0", "0"], ["1/2", "0", "1/2"]], "r": [1, 0, 0]}))
    outputs = []
    for flags in ([], ["--only", "v_star"]):
        assert exactpte_main(["decompose", str(path), "--json", *flags]) == 0
        outputs.append(json.loads(capsys.readouterr().out)["v_star"])
    assert outputs[0] == outputs[1]
    _v_star_without_p_inf(monkeypatch)
    for flags in ([], ["--only", "v_star"]):
        assert exactpte_main(["decompose", str(path), "--json", *flags]) == 0
        outputs.append(json.loads(capsys.readouterr().out)["v_star"])
    assert outputs[2] == outputs[0] != outputs[3]  # the full output reads the basis first: only --only is wrong


def test_a_conjecture_reading_what_the_graph_run_left_unclaimed_gets_it_proved() -> None:
    """In a full run ``claim:hitting_times`` is "not claimed" (the symbolic route leaves the hitting times out); a
    conjecture that reads them gets them claimed and proved, so it is proved, not "exact"."""
    @proofs_check.conjecture("test:hitting_times_nonnegative")
    def _nonnegative(chain, dec):
        return all(t >= 0 for t in dec.hitting_times)

    try:
        report = exhaustive(2)
    finally:
        CONJECTURES.pop("test:hitting_times_nonnegative")
    assert report.checks["claim:hitting_times"]["not_claimed"] == 7
    assert report.checks["test:hitting_times_nonnegative"]["proved"] == 7


def test_a_route_that_crashes_fails_routes_engine_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ArithmeticError("a route that crashes")

    monkeypatch.setattr(exactpte, "gain", broken)
    report = exhaustive(2, only=["routes:engine", "claim:rho", "thm:wellposed"])
    assert report.checks["routes:engine"]["failed"] == 7 and "crashed" in report.failures[0]["detail"]
    assert report.checks["claim:rho"]["proved"] == report.checks["thm:wellposed"]["proved"] == 7
