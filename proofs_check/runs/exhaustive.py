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

import contextlib
import json
import os
import random
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
from proofs_check.runs.state import StateFile
from proofs_check.symbolic.graphs import MAX_STATES, Graph, count_support_graphs, graph_chain, support_graphs
from proofs_check.symbolic.identities import NOT_PROVABLE
from proofs_check.symbolic.proving import (NOT_PROVABLE_OTHERWISE, SAMPLES, Denominators, FamilyVerdict, foundation_proofs,
                                           point_text, prove)
from proofs_check.symbolic.strata_checks import statement_verdict

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["GraphResult", "prove_graph", "prove_graphs", "planned_graphs", "exhaustive", "ExhaustiveReport"]


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

    def to_dict(self) -> dict[str, Any]:
        """One line of the state file: ``{"n", "graph", "checks": {key: status}, "reasons", "failures", "witnesses",
        "seconds", "cpu_seconds"}``."""
        return {"n": self.n, "graph": [list(s) for s in self.graph], "checks": self.status, "reasons": self.reasons,
                "failures": self.failures, "witnesses": self.witnesses, "seconds": round(self.seconds, 4),
                "cpu_seconds": round(self.cpu_seconds, 4)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GraphResult:
        """A result read back from its :meth:`to_dict`."""
        try:
            return cls(int(d["n"]), tuple(tuple(int(j) for j in s) for s in d["graph"]), dict(d["checks"]), dict(d["reasons"]),
                       list(d["failures"]), {str(k): int(v) for k, v in d["witnesses"].items()}, float(d["seconds"]),
                       float(d["cpu_seconds"]))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise UsageError(f"a state file's line is not a graph's result ({type(e).__name__}: {e})") from None


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
    denominators = Denominators(region, chain, claimed)  # its factorisations shared by the identities and the conjectures
    known: dict[str, FamilyVerdict] = {}
    if checks is None or checks:
        for v in prove(chain, claimed, region, only=checks, seed=seed, dec=dec, denominators=denominators):
            known[v.key] = v
            result.add(v, chain)
    if not labels:
        return
    proofs = foundation_proofs(chain, dec, claimed, region, known, seed=seed)
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
    """Counts per size and per check over the support graphs run (every graph with ``min_states`` to ``max_states``
    states, or a seeded uniform sample of each size: ``sample``, with the projection of the full run's CPU time), and
    every graph's own verdicts (``graphs``: its size, its successor lists and ``{key: status}``)."""

    max_states: int
    support_graphs: dict[int, int] = field(default_factory=dict)
    seconds_per_size: dict[int, float] = field(default_factory=dict)
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    graphs: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # summed over the graphs, wherever they ran (the work a cluster divides)
    sample: float | None = None
    seed: int = 0
    graphs_of_size: dict[int, int] = field(default_factory=dict)  # every graph of the size, sampled or not
    resumed: int = 0  # graphs read back from the state file, not redone
    _squares: dict[int, float] = field(default_factory=dict)  # sum of squared CPU times per size, for the projection

    def add(self, res: GraphResult) -> None:
        """Count one graph's result."""
        self.support_graphs[res.n] = self.support_graphs.get(res.n, 0) + 1
        self._squares[res.n] = self._squares.get(res.n, 0.0) + res.cpu_seconds ** 2
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
            reason = res.reasons.get(key) or (_not_provable_reason(key) if status == "not_provable" else None)
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

    def projection(self) -> dict[str, float] | None:
        """A sample's projection of the full run's CPU seconds: per size the mean over the sampled graphs times the
        number of graphs, its standard error (finite population), and their totals; ``None`` for a full run."""
        if self.sample is None:
            return None
        out: dict[str, float] = {}
        total = variance = 0.0
        for n, k in sorted(self.support_graphs.items()):
            N, mean = self.graphs_of_size[n], self.seconds_per_size[n] / k
            spread = max(self._squares[n] / k - mean ** 2, 0.0) * k / (k - 1) if k > 1 else 0.0
            out[str(n)] = round(mean * N, 1)
            total += mean * N
            variance += N ** 2 * spread / k * (1 - k / N)
        out["total"], out["standard_error"] = round(total, 1), round(variance ** 0.5, 1)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: ``support_graphs`` per size (the graphs run), ``checks`` per key, ``failures``, every graph's
        verdicts (``graphs``, successor lists as ``failures`` writes them), times; for a sample, ``sample`` (fraction,
        seed, the graphs of each size) and ``projected_cpu_seconds``."""
        out = {"max_states": self.max_states, "support_graphs": {str(k): v for k, v in sorted(self.support_graphs.items())},
               "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
               "cpu_seconds_per_size": {str(k): round(v, 3) for k, v in sorted(self.seconds_per_size.items())},
               "resumed_graphs": self.resumed, "checks": self.checks, "failures": self.failures, "graphs": self.graphs}
        if self.sample is not None:
            out["sample"] = {"fraction": self.sample, "seed": self.seed,
                             "graphs_of_size": {str(k): v for k, v in sorted(self.graphs_of_size.items())}}
            out["projected_cpu_seconds"] = self.projection()
        return out

    def table(self) -> str:
        """One line per size (and a sample's projection), then a table: a check per line, how many graphs it was
        proved, failed, held on witnesses or exactly only, or decided nothing on (with the reason)."""
        sizes = ", ".join(f"n = {n}: {c}" for n, c in sorted(self.support_graphs.items()))
        what = "support graphs up to relabelling" if self.sample is None else \
            f"a sample ({self.sample:g} of each size, seed {self.seed}) of the support graphs up to relabelling"
        lines = [f"{what}: {sizes} ({sum(self.support_graphs.values())} in all; {self.seconds:.1f} s, "
                 f"{self.cpu_seconds:.1f} s of CPU" + (f"; {self.resumed} read back from the state file" if self.resumed else "") + ")"]
        projected = self.projection()
        if projected is not None:
            of = ", ".join(f"{self.graphs_of_size[n]:,}" for n in sorted(self.support_graphs))
            lines.append(f"the full run ({of} graphs) projects to {_cpu_time(projected['total'])} "
                         f"(standard error {_cpu_time(projected['standard_error'])})")
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


def _cpu_time(seconds: float) -> str:
    """CPU seconds, in hours when there are many."""
    return f"{seconds / 3600:.2f} CPU-hours" if seconds >= 3600 else f"{seconds:.1f} CPU-seconds"


def _not_provable_reason(key: str) -> str:
    """The reason of a check with no symbolic form (the same on every graph, so not stored per graph)."""
    return f"not provable symbolically: {NOT_PROVABLE.get(key, NOT_PROVABLE_OTHERWISE)}"


Job = tuple[tuple[Graph, ...], "tuple[str, ...] | None", tuple[str, ...], int]
"""``(graphs, only, conjecture_files, seed)``: a batch of graphs proved in one task."""


def prove_graphs(job: Job) -> list[GraphResult]:
    """:func:`prove_graph` on each graph of a batch (one task for a worker or a Dask scheduler: a quarter of a
    million one-graph tasks would keep a scheduler busy)."""
    graphs, only, files, seed = job
    return [prove_graph((g, only, files, seed)) for g in graphs]


def planned_graphs(min_states: int, max_states: int, *, sample: float | None = None, seed: int = 0) -> dict[int, list[Graph]]:
    """The graphs a run proves, per size: every support graph, or with ``sample`` a uniform sample of each size
    without replacement (``max(1, round(sample * count))`` graphs, drawn from ``seed`` and the size, in the listed
    order), so a rerun draws the same graphs.

    Examples
    --------
    >>> [len(g) for g in planned_graphs(3, 4, sample=0.01, seed=1).values()]
    [1, 23]
    """
    out: dict[int, list[Graph]] = {}
    for n in range(min_states, max_states + 1):
        graphs = support_graphs(n)
        if sample is not None:
            k = max(1, round(sample * len(graphs)))
            picked = sorted(random.Random(f"exhaustive-sample:{seed}:{n}").sample(range(len(graphs)), k))
            graphs = [graphs[i] for i in picked]
        out[n] = graphs
    return out


def exhaustive(max_states: int, *, only: Sequence[str] | None = None, conjecture_files: Sequence[str] = (),
               failures_dir: str | None = None, progress: TextIO | None = None, dask: str | None = None,
               seed: int = 0, min_states: int = 1, workers: int = 1, sample: float | None = None,
               state: str | None = None) -> ExhaustiveReport:
    """Prove every check (or ``only``) and every conjecture loaded from ``conjecture_files`` on every support
    graph with ``min_states`` to ``max_states`` states, or on a seeded uniform sample (``sample``: the fraction of
    each size's graphs, :func:`planned_graphs`; the report projects the full run's CPU time), in ``workers``
    processes or on the Dask scheduler at ``dask``; write each failure's rational counterexample chain to
    ``failures_dir``.  ``state``: a state file (:class:`~proofs_check.runs.state.StateFile`) each finished graph is
    written to; run again with the same file and options after an interruption, and the graphs it holds are read
    back, not redone.

    Examples
    --------
    >>> report = exhaustive(2, only=["claim:h", "thm:wellposed"])
    >>> report.support_graphs, report.checks["claim:h"]["proved"], report.failed
    ({1: 1, 2: 6}, 7, 0)
    """
    keys = _validated_options(max_states, min_states, sample, only, conjecture_files)
    t0 = time.perf_counter()
    report = ExhaustiveReport(max_states, sample=sample, seed=seed,
                              graphs_of_size={n: count_support_graphs(n) for n in range(min_states, max_states + 1)})
    plan = planned_graphs(min_states, max_states, sample=sample, seed=seed)
    parameters = {"min_states": min_states, "max_states": max_states, "only": keys, "checks": list(conjecture_files),
                  "seed": seed, "sample": sample}
    with contextlib.ExitStack() as stack:
        journal = stack.enter_context(StateFile(state, "proofs-check exhaustive", parameters)) if state else None
        done: set[tuple[int, Graph]] = set()
        for record in journal.done() if journal else ():
            res = GraphResult.from_dict(record)
            report.add(res)
            done.add((res.n, res.graph))
        report.resumed = len(done)
        todo = [g for n, graphs in plan.items() for g in graphs if (n, g) not in done]
        jobs: list[Job] = [(tuple(todo[i : i + BATCH]), keys, tuple(conjecture_files), seed) for i in range(0, len(todo), BATCH)]
        bar = Progress("exhaustive", stream=progress, enabled=progress is not None, unit="graphs", interval=5.0)
        finished = 0
        for batch in run_jobs(prove_graphs, jobs, workers=workers, dask=dask, chunksize=1):
            for res in batch:
                report.add(res)
                if journal:
                    journal.append(res.to_dict())
            finished += len(batch)
            bar.update(finished, len(todo))
        bar.close()
    report.graphs.sort(key=lambda g: (g["n"], g["graph"]))  # the same order however the graphs ran
    report.seconds = time.perf_counter() - t0
    if failures_dir:
        _write_failures(report, failures_dir)
    return report


BATCH = 8
"""Graphs per task (a worker's or a Dask scheduler's)."""


def _validated_options(max_states: int, min_states: int, sample: float | None, only: Sequence[str] | None,
                     conjecture_files: Sequence[str]) -> tuple[str, ...] | None:
    """The options checked (a named error for each misuse), conjectures loaded; ``only`` as a tuple."""
    if not 1 <= min_states <= max_states:
        raise UsageError(f"need 1 <= --min-states <= --max-states, got {min_states} and {max_states}")
    if max_states > MAX_STATES:
        raise UsageError(f"--max-states is at most {MAX_STATES}: {MAX_STATES + 1} states have "
                         f"{count_support_graphs(MAX_STATES + 1):,} support graphs up to relabelling, "
                         f"{count_support_graphs(MAX_STATES + 1) // count_support_graphs(MAX_STATES)} times as many as "
                         f"{MAX_STATES}, each larger (a sample needs them listed too)")
    if sample is not None and not 0 < sample <= 1:
        raise UsageError(f"--sample is a fraction in (0, 1], got {sample}")
    for path in conjecture_files:
        load_conjectures(path)
    if only:
        unknown = [k for k in only if k not in _all_checks() and k not in CONJECTURES]
        if unknown:
            raise UnknownNameError(f"unknown check or conjecture key(s) {unknown}; see 'proofs-check list'")
    return tuple(only) if only else None


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
