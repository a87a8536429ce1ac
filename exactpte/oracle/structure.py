"""Structure findings: closed classes, periods, cyclic classes, communicating classes, transient
states and anchors, each judged as a set (any order) or aligned with the candidate's own classes.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> [f.status for f in structure_findings({"classes": [[0, 1]], "periods": [2]}, dec)]
['ok', 'ok']
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.errors import UsageError
from exactpte.oracle.causes import zero_edge_note
from exactpte.oracle.conventions import read_convention
from exactpte.oracle.findings import Finding
from exactpte.oracle.values import depth, few_sets, index_list, nested

if TYPE_CHECKING:
    from exactpte.certified import CertifiedDecomposition
    from exactpte.results.decomposition import Decomposition

__all__: list[str] = []


def structure_findings(cand: dict[str, Any], dec: Decomposition | CertifiedDecomposition) -> list[Finding]:
    """The structure keys the candidate gives (``classes``, ``communicating_classes``, ``periods``,
    ``cyclic_classes``, ``transient``, ``anchors``), each judged exactly against the chain's."""
    out: list[Finding] = []
    cand_classes = None
    if "classes" in cand:
        cand_classes = nested(cand["classes"], "classes", 2)
        got_classes = sorted(sorted(c) for c in cand_classes)
        exp_classes = sorted(sorted(c) for c in dec.classes)
        out.append(Finding("classes", "ok") if got_classes == exp_classes else Finding(
            "classes", "structure mismatch", detail=f"expected {exp_classes}, got {got_classes}",
            diagnosis=zero_edge_note(got_classes, sccs=[c for c, _ in _all_sccs(dec)], closed=exp_classes, what="closed class")))
    comm = _communicating_findings(cand, dec, out)
    if "periods" in cand:
        if cand_classes is None and "cyclic_classes" in cand and depth(cand["cyclic_classes"]) == 3:
            cand_classes = [sorted({s for part in cyc for s in part}) for cyc in nested(cand["cyclic_classes"], "cyclic_classes", 3)]
        out.append(_periods_finding(index_list(cand["periods"], "periods"), cand_classes, comm, dec))
    if "cyclic_classes" in cand:
        out.append(_cyclic_finding(cand["cyclic_classes"], dec))
    if "transient" in cand:
        got_transient = sorted(index_list(cand["transient"], "transient"))
        ok = got_transient == list(dec.transient)
        extra, missing = sorted(set(got_transient) - set(dec.transient)), sorted(set(dec.transient) - set(got_transient))
        out.append(Finding("transient", "ok" if ok else "structure mismatch",
                           detail="" if ok else f"claimed transient but recurrent: {extra}; transient but not claimed: {missing}"))
    if "anchors" in cand:
        out.append(_anchors_finding(cand, dec))
    return out


def _anchors_finding(cand: dict[str, Any], dec: Decomposition | CertifiedDecomposition) -> Finding:
    """``anchors`` read whole: every ``[class, phase, state]`` triple names, in the candidate's labels
    (its ``classes``, ``cyclic_classes``, or the anchors' own labels read as one class order and each
    class's cyclic order), the cyclic class its state lies in, and each cyclic class is anchored once."""
    reference = [s for _, _, s in dec.anchor_list]
    convention, problem = read_convention(cand, dec.structure, reference)
    if problem is not None:
        return Finding("anchors", "structure mismatch", detail=problem)
    if not convention.own_anchors:
        return Finding("anchors", "ok")
    return Finding("anchors", "ok", detail="valid anchors, other than the reference's: v*, g*, theta, psi and the hitting "
                   "times are judged in the candidate's anchors")


def _periods_finding(periods: list[int], cand_classes: list[list[int]] | None, comm: list[list[int]] | None,
                     dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Periods of the closed classes aligned with the candidate's ``classes`` (or its per-class
    ``cyclic_classes``), or of every communicating class aligned with ``communicating_classes``.

    Without either, the periods cannot be matched to classes: :class:`~exactpte.errors.UsageError`
    naming what to add (a multiset comparison would accept swapped periods)."""
    if comm is not None:
        return _all_periods_finding(periods, comm, dec)
    if cand_classes is None:  # a list of periods alone says nothing about which class has which
        raise UsageError("periods without classes: which class has which period cannot be judged; add classes "
                         "(the closed classes, in the order of periods), or communicating_classes for the periods of "
                         "every communicating class")
    if len(cand_classes) != len(periods) or not all(cand_classes):
        return Finding("periods", "structure mismatch", detail=f"{len(periods)} periods for {len(cand_classes)} classes: "
                       "one period per class, in the order of classes (communicating_classes for every communicating class)")
    got_map = {min(c): d for c, d in zip(cand_classes, periods)}
    exp_map = {c[0]: d for c, d in zip(dec.classes, dec.periods)}
    bad = {k: (exp_map.get(k), got_map.get(k)) for k in set(got_map) | set(exp_map) if got_map.get(k) != exp_map.get(k)}
    detail = "; ".join(f"class with smallest state {k}: expected period {e}, got {g}" for k, (e, g) in sorted(bad.items()))
    return Finding("periods", "structure mismatch" if detail else "ok", detail=detail)


def _cyclic_finding(raw: Any, dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Cyclic classes per class in cyclic order (the contract), per class as an unordered partition,
    or one flat list of every class's phases (QuantEcon, PyDTMC): the partition is always judged,
    the cyclic order only where it is given per class."""
    exp_sets = sorted(tuple(sorted(ck)) for cyc in dec.cyclic_classes for ck in cyc)
    if depth(raw) == 2:
        got_sets = sorted(tuple(sorted(c)) for c in nested(raw, "cyclic_classes", 2))
        ok = got_sets == exp_sets
        return Finding("cyclic_classes", "ok" if ok else "structure mismatch",
                       detail="a flat list of phases, judged as a partition (cyclic order not given)" if ok
                       else f"the phases differ: expected {few_sets(exp_sets)}, got {few_sets(got_sets)}")
    cand_cycles = nested(raw, "cyclic_classes", 3)
    got_cycles = sorted(_rotation_canonical(c) for c in cand_cycles)
    exp_cycles = sorted(_rotation_canonical([list(ck) for ck in cyc]) for cyc in dec.cyclic_classes)
    if got_cycles == exp_cycles:
        return Finding("cyclic_classes", "ok")
    as_sets = sorted(sorted(tuple(sorted(ck)) for ck in c) for c in cand_cycles)
    if as_sets == sorted(sorted(tuple(sorted(ck)) for ck in cyc) for cyc in dec.cyclic_classes):
        return Finding("cyclic_classes", "ok", detail="the right partition of each class; its phases are not in "
                       "cyclic order (an unordered partition: the order was not judged)")
    return Finding("cyclic_classes", "structure mismatch",
                   detail=f"cyclic classes differ: expected {few_sets(exp_sets)}, got {few_sets(sorted(tuple(sorted(ck)) for c in cand_cycles for ck in c))}")


def _rotation_canonical(phases: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """A class's phase sequence up to rotation: start at the phase holding the smallest state."""
    sets = [tuple(sorted(p)) for p in phases]
    if not sets or not any(sets):
        return tuple(sets)
    start = min(range(len(sets)), key=lambda k: min(sets[k]) if sets[k] else math.inf)
    return tuple(sets[start:] + sets[:start])


def _all_sccs(dec: Decomposition | CertifiedDecomposition) -> list[tuple[tuple[int, ...], int]]:
    """Every communicating class (closed classes and transient SCCs) with its period (1 for a
    single state without a self-loop, as PyDTMC reports it)."""
    from exactpte.graph.periods import period_and_phases

    S = dec.structure
    out = [(tuple(c), int(d)) for c, d in zip(S.classes, S.periods)]
    graph = dec.chain.support_graph if S.transient_sccs else None
    for scc in S.transient_sccs:
        d, _ = period_and_phases(graph, np.array(sorted(scc)))
        out.append((tuple(sorted(scc)), int(d)))
    return out


def _communicating_findings(cand: dict[str, Any], dec: Decomposition | CertifiedDecomposition,
                            out: list[Finding]) -> list[list[int]] | None:
    """Judge ``communicating_classes`` (every SCC, any order); return them for aligning ``periods``."""
    if "communicating_classes" not in cand:
        return None
    comm = nested(cand["communicating_classes"], "communicating_classes", 2)
    got = sorted(tuple(sorted(c)) for c in comm)
    exp = sorted(c for c, _ in _all_sccs(dec))
    ok = got == exp
    out.append(Finding("communicating_classes", "ok" if ok else "structure mismatch",
                       detail="" if ok else f"expected {few_sets(exp)}, got {few_sets(got)}",
                       diagnosis="" if ok else zero_edge_note(got, sccs=exp, closed=[tuple(c) for c in dec.classes],
                                                              what="communicating class")))
    return comm


def _all_periods_finding(periods: list[int], comm: list[list[int]], dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Periods of every communicating class (PyDTMC-style, transient classes included), aligned with
    the candidate's ``communicating_classes``."""
    sccs = _all_sccs(dec)
    if len(comm) == len(periods):
        exp_map = {min(c): d for c, d in sccs}
        bad = [(min(c), exp_map.get(min(c)), d) for c, d in zip(comm, periods) if c and exp_map.get(min(c)) != d]
        detail = "; ".join(f"communicating class with smallest state {k}: expected period {e}, got {g}" for k, e, g in bad[:5])
        return Finding("periods", "structure mismatch" if bad else "ok",
                       detail=detail or "periods of every communicating class, aligned with communicating_classes")
    return Finding("periods", "structure mismatch", detail=f"{len(periods)} periods for {len(comm)} communicating classes: "
                   "one period per communicating class, in the order of communicating_classes")
