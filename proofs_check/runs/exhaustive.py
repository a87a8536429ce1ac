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

import exactpte
from exactpte.errors import UnknownNameError, UsageError
from exactpte.io import chain_to_dict
from exactpte.progress import Progress

from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.registry import CHECKS
from proofs_check.judging.strength import Strength
from proofs_check.runs.conjectures import CONJECTURES, load_conjectures
from proofs_check.runs.jobs import run_jobs
from proofs_check.symbolic.graphs import MAX_STATES, Graph, count_support_graphs, graph_chain, support_graphs
from proofs_check.symbolic.proving import SAMPLES, Denominators, FamilyVerdict, foundation_proofs, point_text, prove
from proofs_check.symbolic.region import Region
from proofs_check.symbolic.strata_checks import statement_verdict

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["GraphResult", "prove_graph", "exhaustive", "ExhaustiveReport"]


STATUSES = ("proved", "failed", "witnesses", "exact", "not_provable", "not_applicable", "not_claimed", "not_checked")
"""What one (graph, check) pair can end as: held with a strength (``proved``, ``witnesses``, ``exact``), ``failed``,
or decided nothing (``not provable``, ``not applicable``, ``not claimed``, ``not checked``); JSON keys with ``_``."""


@dataclass
class GraphResult:
    """One graph's verdicts, counted: ``status[key]`` is one of :data:`STATUSES`; ``witnesses[key]`` how many rational
    points (or chains) a ``witnesses`` verdict held at."""

    n: int
    graph: Graph
    status: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    witnesses: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def add(self, v: FamilyVerdict, chain: ParametricChain) -> None:
        """Count one verdict (a failure with its rational counterexample chain, when one was found)."""
        status = _status(v)
        self.status[v.key] = status
        if status != "proved" and v.detail:
            self.reasons[v.key] = v.detail
        if status == "witnesses" and v.witnesses:
            self.witnesses[v.key] = v.witnesses
        if status == "failed":
            self.failures.append(_failure(chain, v))


def _keys(only: Sequence[str] | None) -> tuple[list[str] | None, list[str]]:
    """The checks asked for (``None``: all) and the conjectures asked for."""
    if only is None:
        return None, list(CONJECTURES)
    return [k for k in only if k not in CONJECTURES], [k for k in only if k in CONJECTURES]


def prove_graph(job: tuple[Graph, tuple[str, ...] | None, tuple[str, ...], int]) -> GraphResult:
    """Decompose one graph's chain symbolically and prove every check (or ``only``) and conjecture on it.
    ``job`` is ``(graph, only, conjecture_files, seed)`` (plain data: it runs in a worker or on Dask).  A crash of
    exactpte's engine or of a check on this graph is a failure of this graph, reported, never an abort."""
    graph, only, files, seed = job
    t0, c0 = time.perf_counter(), time.process_time()
    for path in files:
        load_conjectures(path)
    result = GraphResult(len(graph), graph)
    checks, labels = _keys(only)
    try:
        _prove(result, graph, checks, labels, seed)
    except Exception as e:  # exactpte's engine (or a check) crashed on this graph: every pair not yet decided fails
        detail = f"crashed on this graph ({type(e).__name__}: {e})"
        for key in [*(checks if checks is not None else _all_checks()), *labels]:
            if key not in result.status:
                result.status[key] = "failed"
                result.reasons[key] = detail
                result.failures.append({"key": key, "detail": detail, "point": None})
    result.seconds, result.cpu_seconds = time.perf_counter() - t0, time.process_time() - c0
    return result


def _all_checks() -> list[str]:
    from proofs_check.symbolic.engine_routes import ROUTE_KEYS
    from proofs_check.symbolic.identities import SYMBOLIC_CHECKS
    from proofs_check.symbolic.proving import STRUCTURE_KEYS

    return list(dict.fromkeys([*STRUCTURE_KEYS, *ROUTE_KEYS, *SYMBOLIC_CHECKS, *CHECKS]))


def _prove(result: GraphResult, graph: Graph, checks: list[str] | None, labels: list[str], seed: int) -> None:
    """The body of :func:`prove_graph`: the identities once (they are equivariant, ``identities.EQUIVARIANT``), the
    routes of exactpte's engine, and each conjecture under every labelling of the graph."""
    chain, region = graph_chain(graph)
    dec = exactpte.decompose(chain)
    claimed = from_decomposition(dec, with_P_inf=False, with_hitting_times=False)
    known: dict[str, FamilyVerdict] = {}
    if checks is None or checks:
        for v in prove(chain, claimed, region, only=checks, seed=seed, dec=dec):
            known[v.key] = v
            result.add(v, chain)
    if not labels:
        return
    proofs = foundation_proofs(chain, dec, claimed, region, known, seed=seed)
    denominators = Denominators(region, chain, claimed)
    cache: dict[Any, bool | None] = {}
    moved: dict[tuple[int, ...], Any] = {}  # each labelling's decomposition, permuted once for every conjecture
    for label in labels:
        v = statement_verdict(label, CONJECTURES[label].func, dec, region, proofs=proofs, uncertified=denominators.uncertified,
                              relabel=True, seed=seed, samples=SAMPLES, cache=cache, moved=moved)
        result.add(v, chain)


def _status(v: FamilyVerdict) -> str:
    """A verdict as one of :data:`STATUSES`."""
    if v.holds is None:
        return v.status.replace(" ", "_")
    if v.holds is False:
        return "failed"
    return {Strength.PROVED.value: "proved", Strength.WITNESSES.value: "witnesses"}.get(Strength(v.strength).value, "exact")


def _failure(chain: ParametricChain, v: FamilyVerdict) -> dict[str, Any]:
    """A failure with its rational counterexample chain (the verdict's own, or the graph's chain at its point)."""
    point = v.counterexample
    out: dict[str, Any] = {"key": v.key, "detail": v.detail, "point": None if point is None else point_text(point)}
    if v.counterexample_chain is not None:
        out["chain"] = chain_to_dict(v.counterexample_chain)
    elif point is not None:
        out["chain"] = chain_to_dict(chain.at(point))
    return out


@dataclass
class ExhaustiveReport:
    """Counts per size and per check over every support graph with at most ``max_states`` states, and every graph's
    own verdicts (``graphs``: its size, its successor lists and ``{key: status}``)."""

    max_states: int
    support_graphs: dict[int, int] = field(default_factory=dict)
    seconds_per_size: dict[int, float] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    graphs: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # summed over the graphs, wherever they ran (the work a cluster divides)

    def add(self, res: GraphResult) -> None:
        """Count one graph's result."""
        self.seconds_per_size[res.n] = self.seconds_per_size.get(res.n, 0.0) + res.cpu_seconds
        self.cpu_seconds += res.cpu_seconds
        for key, status in res.status.items():
            row = self.checks.setdefault(key, {**{s: 0 for s in STATUSES}, "by_size": {}, "reasons": []})
            row[status] += 1
            by = row["by_size"].setdefault(str(res.n), {})
            by[status] = by.get(status, 0) + 1
            if key in res.witnesses:
                low, high = row.get("witness_points", [res.witnesses[key], res.witnesses[key]])
                row["witness_points"] = [min(low, res.witnesses[key]), max(high, res.witnesses[key])]
            reason = res.reasons.get(key)
            if reason and reason not in row["reasons"] and len(row["reasons"]) < 3:
                row["reasons"].append(reason)
        graph = [list(s) for s in res.graph]
        self.graphs.append({"n": res.n, "graph": graph, "checks": {k: v.replace("_", " ") for k, v in res.status.items()}})
        for f in res.failures:
            self.failures.append({"n": res.n, "graph": graph, **f})

    @property
    def failed(self) -> int:
        """How many (graph, check) pairs failed."""
        return sum(row["failed"] for row in self.checks.values())

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: ``support_graphs`` per size, ``checks`` per key, ``failures``, every graph's verdicts
        (``graphs``, successor lists as ``failures`` writes them), times."""
        return {"max_states": self.max_states, "support_graphs": {str(k): v for k, v in sorted(self.support_graphs.items())},
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "cpu_seconds_per_size": {str(k): round(v, 3) for k, v in sorted(self.seconds_per_size.items())},
                "checks": self.checks, "failures": self.failures, "graphs": self.graphs}

    def table(self) -> str:
        """One line per size, then a table: a check per line, how many graphs it was proved, failed, held on witnesses
        or exactly only, or decided nothing on (with the reason)."""
        sizes = ", ".join(f"n = {n}: {c}" for n, c in sorted(self.support_graphs.items()))
        lines = [f"support graphs up to relabelling: {sizes} ({sum(self.support_graphs.values())} in all; {self.seconds:.1f} s, "
                 f"{self.cpu_seconds:.1f} s of CPU)"]
        w = max((len(k) for k in self.checks), default=5)
        lines.append(f"{'check'.ljust(w)}  graphs by verdict (proved: held on every chain of the graph)")
        for key, row in self.checks.items():
            parts = [_count_text(row, s) for s in STATUSES if row[s]]
            why = f"  [{row['reasons'][0][:110]}]" if row["reasons"] and not row["proved"] + row["failed"] else ""
            lines.append(f"{key.ljust(w)}  {', '.join(parts)}{why}")
        lines.append(f"{self.failed} failed (graph, check) pair(s)")
        return "\n".join(lines)


def _count_text(row: dict[str, Any], status: str) -> str:
    """``"70 proved"``, ``"12 witnesses (24 points)"`` (the range of points when graphs differ)."""
    text = f"{row[status]} {status.replace('_', ' ')}"
    if status == "witnesses" and "witness_points" in row:
        low, high = row["witness_points"]
        text += f" ({low} point{'s' if low != 1 else ''})" if low == high else f" ({low}-{high} points)"
    return text


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
        unknown = [k for k in only if k not in _all_checks() and k not in CONJECTURES]
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
    report.graphs.sort(key=lambda g: (g["n"], g["graph"]))  # the same order however the graphs ran
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
