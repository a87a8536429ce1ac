"""Every chain with at most N states: the identities proved on every support graph.

Proving each identity on each graph (:func:`~proofs_check.symbolic.proving.prove`) proves it for every chain
with at most ``N`` states and every reward.  Conjectures (``@proofs_check.conjecture``) run on the
symbolic decomposition: an equation between rational functions is decided exactly; a comparison of
non-constant functions is checked at stated rational points of the region (``witnesses``); a
refuted one gives a rational counterexample chain.

Examples
--------
>>> report = exhaustive(2, only=["claim:h", "thm:wellposed"])
>>> report.support_graphs, report.checks["claim:h"]["proved"], report.failed
({1: 1, 2: 6}, 7, 0)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

import flint

import exactpte
from exactpte.errors import UnknownNameError, UsageError
from exactpte.io import chain_to_dict
from exactpte.progress import Progress

from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.strength import Strength
from proofs_check.runs.conjectures import CONJECTURES, evaluate, load_conjectures
from proofs_check.runs.jobs import run_jobs
from proofs_check.symbolic.decided import decided_views
from proofs_check.symbolic.graphs import MAX_STATES, Graph, count_support_graphs, graph_chain, support_graphs
from proofs_check.symbolic.proving import SAMPLES, Denominators, point_text, prove
from proofs_check.symbolic.region import Region

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["GraphResult", "prove_graph", "exhaustive", "ExhaustiveReport"]


@dataclass
class GraphResult:
    """One graph's verdicts, counted: ``status[key]`` is ``proved``, ``failed``, ``witnesses``, ``exact``
    (identity, denominators not certified), ``not_provable`` or ``not_applicable``."""

    n: int
    graph: Graph
    status: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0


def prove_graph(job: tuple[Graph, tuple[str, ...] | None, tuple[str, ...], int]) -> GraphResult:
    """Decompose one graph's chain symbolically and prove every check (or ``only``) and conjecture on it.
    ``job`` is ``(graph, only, conjecture_files, seed)`` (plain data: it runs in a worker or on Dask)."""
    graph, only, files, seed = job
    t0, c0 = time.perf_counter(), time.process_time()
    for path in files:
        load_conjectures(path)
    chain, region = graph_chain(graph)
    result = GraphResult(len(graph), graph)
    dec = exactpte.decompose(chain)
    claimed = from_decomposition(dec, with_P_inf=False, with_hitting_times=False)
    denominators = Denominators(region, chain, claimed)
    keys = [k for k in only if k not in CONJECTURES] if only is not None else None
    if keys is None or keys:
        for v in prove(chain, claimed, region, only=keys, seed=seed, denominators=denominators):
            status = _status(v.holds, v.strength, v.detail)
            result.status[v.key] = status
            if status in ("not_provable", "exact", "witnesses"):
                result.reasons[v.key] = v.detail
            if v.holds is False:
                result.failures.append(_failure(chain, v.key, v.detail, v.counterexample))
    labels = [k for k in (only or CONJECTURES) if k in CONJECTURES]
    for label in labels:
        status, detail, point = _conjecture(label, chain, dec, region, denominators, seed)
        result.status[label] = status
        if status != "proved":
            result.reasons[label] = detail
        if status == "failed":
            result.failures.append(_failure(chain, label, detail, point))
    result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
    return result


def _status(holds: bool | None, strength: str, detail: str) -> str:
    if holds is None:
        return "not_provable" if detail.startswith("not provable") else "not_applicable"
    if holds is False:
        return "failed"
    return {Strength.PROVED.value: "proved", Strength.WITNESSES.value: "witnesses"}.get(strength, "exact")


def _failure(chain: ParametricChain, key: str, detail: str, point: dict[str, flint.fmpq] | None) -> dict[str, Any]:
    """A failure with its rational counterexample chain (the graph's chain at the point), when one was found."""
    out: dict[str, Any] = {"key": key, "detail": detail, "point": None if point is None else point_text(point)}
    if point is not None:
        out["chain"] = chain_to_dict(chain.at(point))
    return out


def _conjecture(label: str, chain: ParametricChain, dec: Any, region: Region, denominators: Denominators,
                seed: int) -> tuple[str, str, dict[str, flint.fmpq] | None]:
    """``(status, detail, counterexample point)`` of one conjecture on one graph: run once on the decomposition
    with every comparison decided on the whole region (:mod:`proofs_check.symbolic.decided`); when one is
    undecided, run on the rational chains at stated points of the region instead."""
    conj = CONJECTURES[label]
    view_chain, view_dec = decided_views(chain, dec, region)
    try:
        out: object = conj.func(view_chain, view_dec)
        holds = out is True or out is None or (not isinstance(out, str) and out is not False and bool(out))
        decided = True
    except Exception as e:  # a comparison undecided on the region (UsageError), or code that needs numbers: check at points
        decided, holds, out = False, False, e
    if holds:
        bad = denominators.uncertified(("basis", "g_star", "v_star", "rho", "h", "psi", "stationary",
                                                                 "absorption"))
        if bad:
            return "exact", f"holds as rational functions; denominators {', '.join(bad[:3])} not certified", None
        return "proved", "", None
    points = region.points(SAMPLES, seed=seed)
    for point in points:  # refuted on the whole region, or undecided: a rational point where it fails
        named = dict(zip(chain.params, point))
        detail = evaluate(conj, chain.at(named))
        if detail is not None:
            return "failed", detail, named
    if decided:
        return "failed", f"refuted on the whole region ({out or 'does not hold'}) but held at {len(points)} sampled points", None
    return "witnesses", f"undecided on the whole region ({str(out)[:100]}); held at {len(points)} rational points", None


@dataclass
class ExhaustiveReport:
    """Counts per size and per check over every support graph with at most ``max_states`` states."""

    max_states: int
    support_graphs: dict[int, int] = field(default_factory=dict)
    seconds_per_size: dict[int, float] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # summed over the graphs, wherever they ran (the work a cluster divides)

    def add(self, res: GraphResult) -> None:
        """Count one graph's result."""
        self.seconds_per_size[res.n] = self.seconds_per_size.get(res.n, 0.0) + res.cpu_seconds
        self.cpu_seconds += res.cpu_seconds
        for key, status in res.status.items():
            row = self.checks.setdefault(key, {"proved": 0, "failed": 0, "not_provable": 0, "witnesses": 0, "exact": 0,
                                               "not_applicable": 0, "by_size": {}, "reasons": []})
            row[status] += 1
            by = row["by_size"].setdefault(str(res.n), {})
            by[status] = by.get(status, 0) + 1
            reason = res.reasons.get(key)
            if reason and reason not in row["reasons"] and len(row["reasons"]) < 3:
                row["reasons"].append(reason)
        for f in res.failures:
            self.failures.append({"n": res.n, "graph": [list(s) for s in res.graph], **f})

    @property
    def failed(self) -> int:
        """How many (graph, check) pairs failed."""
        return sum(row["failed"] for row in self.checks.values())

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: ``support_graphs`` per size, ``checks`` per key, ``failures``, times."""
        return {"max_states": self.max_states, "support_graphs": {str(k): v for k, v in sorted(self.support_graphs.items())},
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "cpu_seconds_per_size": {str(k): round(v, 3) for k, v in sorted(self.seconds_per_size.items())},
                "checks": self.checks, "failures": self.failures}

    def table(self) -> str:
        """One line per size, one per check (proved / failed / not provable, with the reason)."""
        sizes = ", ".join(f"n = {n}: {c}" for n, c in sorted(self.support_graphs.items()))
        lines = [f"support graphs up to relabelling: {sizes} ({sum(self.support_graphs.values())} in all; {self.seconds:.1f} s, "
                 f"{self.cpu_seconds:.1f} s of CPU)"]
        w = max((len(k) for k in self.checks), default=0)
        for key, row in self.checks.items():
            parts = [f"{row[s]} {s.replace('_', ' ')}" for s in ("proved", "failed", "witnesses", "exact", "not_provable",
                                                                  "not_applicable") if row[s]]
            why = f"  [{row['reasons'][0][:110]}]" if row["reasons"] and not row["proved"] + row["failed"] else ""
            lines.append(f"{key.ljust(w)}  {', '.join(parts)}{why}")
        lines.append(f"{self.failed} failed (graph, check) pair(s)")
        return "\n".join(lines)


def exhaustive(max_states: int, *, only: Sequence[str] | None = None, conjecture_files: Sequence[str] = (),
               failures_dir: str | None = None, progress: TextIO | None = None, dask: str | None = None,
               seed: int = 0, min_states: int = 1, workers: int = 1) -> ExhaustiveReport:
    """Prove every check (or ``only``) and every conjecture loaded from ``conjecture_files`` on every support
    graph with ``min_states`` to ``max_states`` states (in ``workers`` processes, or on the Dask scheduler at
    ``dask``); write each failure's rational counterexample chain to ``failures_dir``.

    Examples
    --------
    >>> report = exhaustive(2, only=["claim:h", "thm:wellposed"])
    >>> report.support_graphs, report.checks["claim:h"]["proved"], report.failed
    ({1: 1, 2: 6}, 7, 0)
    """
    if not 1 <= min_states <= max_states:
        raise UsageError(f"need 1 <= --min-states <= --max-states, got {min_states} and {max_states}")
    if max_states > MAX_STATES:
        raise UsageError(f"--max-states is at most {MAX_STATES} ({count_support_graphs(MAX_STATES + 1):,} graphs with "
                         f"{MAX_STATES + 1} states would take hours to enumerate here)")
    for path in conjecture_files:
        load_conjectures(path)
    if only:
        from proofs_check.judging.registry import CHECKS

        unknown = [k for k in only if k not in CHECKS and k not in CONJECTURES]
        if unknown:
            raise UnknownNameError(f"unknown check or conjecture key(s) {unknown}; see 'proofs-check list'")
    t0 = time.perf_counter()
    report = ExhaustiveReport(max_states)
    jobs: list[tuple[Graph, tuple[str, ...] | None, tuple[str, ...], int]] = []
    for n in range(min_states, max_states + 1):
        graphs = support_graphs(n)
        report.support_graphs[n] = len(graphs)
        jobs += [(g, tuple(only) if only else None, tuple(conjecture_files), seed) for g in graphs]
    bar = Progress("exhaustive", stream=progress, enabled=progress is not None, unit="graphs", interval=5.0)
    for done, res in enumerate(run_jobs(prove_graph, jobs, workers=workers, dask=dask, chunksize=8), 1):
        report.add(res)
        bar.update(done, len(jobs))
    bar.close()
    report.seconds = time.perf_counter() - t0
    if failures_dir:
        _write_failures(report, failures_dir)
    return report


def _write_failures(report: ExhaustiveReport, failures_dir: str) -> None:
    """Each failure's rational counterexample chain as a chain file (``exactpte decompose`` reads it), smallest graph first."""
    os.makedirs(failures_dir, exist_ok=True)
    count: dict[str, int] = {}
    for f in sorted(report.failures, key=lambda f: f["n"]):
        if "chain" not in f:
            continue
        key = "".join(c if c.isalnum() or c in "._-" else "_" for c in f["key"])
        k = count[key] = count.get(key, -1) + 1
        path = os.path.join(failures_dir, f"{key}-{k}.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(f["chain"], fh)
        f["file"] = path
