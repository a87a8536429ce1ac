"""Every chain with at most N states: the identities proved on every support graph.

A chain's *support graph* says which transitions are positive.  Every Markov chain with ``n``
states lies in the open region of exactly one support graph (every state has at least one
successor; self-loops allowed), and relabelling the states permutes the graph, so the graphs up to
relabelling cover every chain: 1, 6, 70 and 2,340 graphs for ``n = 1, 2, 3, 4``.  On one graph the
structure (classes, periods, cyclic classes, transient states) is fixed, and with one parameter per
free transition and per reward one symbolic decomposition covers every chain and every reward on it:

- a state with successors ``j_1 < .. < j_k`` (``k >= 2``) gets ``P(s, j_m) = x_{s,j_m}`` for
  ``m < k`` and ``P(s, j_k) = 1 - sum_m x_{s,j_m}``; one successor gets ``1``; ``r(s)`` is the symbol
  ``r_s``.  The region (every entry positive) is the image of the positive orthant under
  ``x_{s,j} = w_{s,j} / (1 + sum_m w_{s,j_m})``, a bijection, so a polynomial whose image under this
  chart (times the row sums' powers) has coefficients of one sign never vanishes on the region: the
  one-line certificate for every denominator of the closed forms (:class:`~proofs_check.families.Region`).

Proving each identity on each graph (:func:`~proofs_check.families.prove`) proves it for every chain
with at most ``N`` states and every reward.  Conjectures (``@proofs_check.conjecture``) run on the
symbolic decomposition: an equation between rational functions is decided exactly; a comparison of
non-constant functions is checked at stated rational points of the region (``witnesses``); a
refuted one gives a rational counterexample chain.

Examples
--------
>>> [len(support_graphs(n)) for n in (1, 2, 3)]
[1, 6, 70]
>>> chain, region = graph_chain(((0, 1), (0,)))
>>> [str(e) for _i, _j, e in chain.edges()], region.rows
(['x0_0', '1 - x0_0', '1'], [[0]])
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

import exactpte
from exactpte.errors import ExactpteError, UnknownNameError, UsageError
from exactpte.io import chain_to_dict
from exactpte.progress import Progress

from .claimed import from_decomposition
from .conjectures import CONJECTURES, evaluate, load_conjectures
from .families import SAMPLES, Denominators, Region, prove
from .family_conjectures import decided_views
from .strength import Strength

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["support_graphs", "count_support_graphs", "add_exhaustive_command", "main_exhaustive", "graph_chain", "prove_graph", "exhaustive", "ExhaustiveReport", "MAX_STATES"]

MAX_STATES = 4
"""The largest graph size enumerated: n = 5 has 31^5 (28.6 million) support patterns to canonicalise
against 120 relabellings, hours in Python; it needs an orderly generation algorithm (and a cluster:
:func:`count_support_graphs` counts 248,436 graphs)."""

Graph = tuple[tuple[int, ...], ...]
"""A support graph as successor tuples, state by state."""


def support_graphs(n: int) -> list[Graph]:
    """Every support graph on ``n`` states (each state with a successor, self-loops allowed), one per
    class under relabelling: the adjacency pattern that is smallest, read as a binary number, among
    its ``n!`` relabellings.

    Examples
    --------
    >>> support_graphs(2)
    [((0,), (0,)), ((0,), (1,)), ((0, 1), (0,)), ((0, 1), (0, 1)), ((0, 1), (1,)), ((1,), (0,))]
    """
    if not 1 <= n <= MAX_STATES:
        raise UsageError(f"support graphs are enumerated for 1 <= n <= {MAX_STATES}, got {n} (n = 5 would take hours "
                         "to canonicalise in Python)")
    perms = list(itertools.permutations(range(n)))
    rowmap = [[sum(1 << perm[j] for j in range(n) if m >> j & 1) for m in range(1 << n)] for perm in perms]
    out: list[Graph] = []
    for rows in itertools.product(range(1, 1 << n), repeat=n):
        code = _code(rows, n)
        if all(_code(_permuted(rows, perm, table), n) >= code for perm, table in zip(perms[1:], rowmap[1:])):
            out.append(tuple(tuple(j for j in range(n) if m >> j & 1) for m in rows))
    return sorted(out)


def count_support_graphs(n: int) -> int:
    """How many support graphs on ``n`` states there are up to relabelling, by Burnside's lemma (no
    enumeration: an independent count of :func:`support_graphs`, and the count for sizes too large to list).

    A relabelling ``sigma`` fixes a graph when each row is the image of the row before it on its cycle;
    a row on a cycle of length ``L`` comes back to itself permuted by ``sigma^L``, so it is a nonempty
    union of cycles of ``sigma^L``: ``fix(sigma) = prod over the cycles of sigma (2^{c(sigma^L)} - 1)``,
    and the count is the mean of ``fix`` over the ``n!`` relabellings.

    Examples
    --------
    >>> [count_support_graphs(n) for n in range(1, 6)]
    [1, 6, 70, 2340, 248436]
    """
    from math import factorial

    total = 0
    for perm in itertools.permutations(range(n)):
        fixed = 1
        for L in _cycle_lengths(perm):
            power = list(range(n))
            for _ in range(L):
                power = [perm[k] for k in power]
            fixed *= 2 ** len(_cycle_lengths(power)) - 1
        total += fixed
    return total // factorial(n)


def _cycle_lengths(perm: Sequence[int]) -> list[int]:
    seen, out = [False] * len(perm), []
    for start in range(len(perm)):
        length, k = 0, start
        while not seen[k]:
            seen[k], k, length = True, perm[k], length + 1
        if length:
            out.append(length)
    return out


def _permuted(rows: Sequence[int], perm: Sequence[int], table: Sequence[int]) -> list[int]:
    """The row masks of the graph with state ``s`` renamed ``perm[s]``."""
    out = [0] * len(rows)
    for s, m in enumerate(rows):
        out[perm[s]] = table[m]
    return out


def _code(rows: Sequence[int], n: int) -> int:
    return sum(m << (n * s) for s, m in enumerate(rows))


def graph_chain(graph: Graph) -> tuple[ParametricChain, Region]:
    """The parametric chain of every chain and reward on ``graph`` and its region (with the weight chart)."""
    n = len(graph)
    params: list[str] = []
    edges: list[tuple[int, int, str]] = []
    rows: list[list[int]] = []
    for s, succ in enumerate(graph):
        names = [f"x{s}_{j}" for j in succ[:-1]]
        rows.append(list(range(len(params), len(params) + len(names))))
        params += names
        edges += [(s, j, x) for j, x in zip(succ, names)]
        edges.append((s, succ[-1], "1 - " + " - ".join(names) if names else "1"))
    params += [f"r{s}" for s in range(n)]
    chain = exactpte.ParametricChain.from_edges(n, edges, [f"r{s}" for s in range(n)], params=params)
    F = chain.field
    entries = list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant()))
    where = tuple(f"{e} > 0" for e in entries) or ("every entry constant",)
    return chain, Region(F, entries, [], rows=[r for r in rows if r], where=where)


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
    keys = [k for k in only if k not in CONJECTURES] if only is not None else None
    if keys is None or keys:
        for v in prove(chain, claimed, region, only=keys, seed=seed):
            status = _status(v.holds, v.strength, v.detail)
            result.status[v.key] = status
            if status in ("not_provable", "exact", "witnesses"):
                result.reasons[v.key] = v.detail
            if v.holds is False:
                result.failures.append(_failure(chain, v.key, v.detail, v.counterexample))
    labels = [k for k in (only or CONJECTURES) if k in CONJECTURES]
    for label in labels:
        status, detail, point = _conjecture(label, chain, dec, region, claimed, seed)
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


def _failure(chain: ParametricChain, key: str, detail: str, point: dict[str, str] | None) -> dict[str, Any]:
    """A failure with its rational counterexample chain (the graph's chain at the point), when one was found."""
    out: dict[str, Any] = {"key": key, "detail": detail, "point": point}
    if point is not None:
        out["chain"] = chain_to_dict(chain.at(point))
    return out


def _conjecture(label: str, chain: ParametricChain, dec: Any, region: Region, claimed: Any,
                seed: int) -> tuple[str, str, dict[str, str] | None]:
    """``(status, detail, counterexample point)`` of one conjecture on one graph: run once on the decomposition
    with every comparison decided on the whole region (:mod:`proofs_check.family_conjectures`); when one is
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
        bad = Denominators(region, chain, claimed).uncertified(("basis", "g_star", "v_star", "rho", "h", "psi", "stationary",
                                                                 "absorption"))
        if bad:
            return "exact", f"holds as rational functions; denominators {', '.join(bad[:3])} not certified", None
        return "proved", "", None
    points = region.points(SAMPLES, seed=seed)
    for point in points:  # refuted on the whole region, or undecided: a rational point where it fails
        named = {p: str(x) for p, x in zip(chain.params, point)}
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
        from .registry import CHECKS

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
    for done, res in enumerate(_run(jobs, dask, workers), 1):
        report.add(res)
        bar.update(done, len(jobs))
    bar.close()
    report.seconds = time.perf_counter() - t0
    if failures_dir:
        _write_failures(report, failures_dir)
    return report


def _run(jobs: list[tuple[Graph, tuple[str, ...] | None, tuple[str, ...], int]], dask: str | None,
         workers: int = 1) -> Iterator[GraphResult]:
    if dask:
        try:
            from distributed import Client, as_completed  # untyped: the calls below are typed Any
        except ImportError:
            raise UnknownNameError("--dask needs dask's distributed scheduler: pip install \".[dask]\"") from None
        with Client(dask) as client:
            for fut in as_completed(client.map(prove_graph, jobs, pure=False)):
                yield fut.result()
        return
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(workers) as pool:
            yield from pool.imap_unordered(prove_graph, jobs, chunksize=8)
        return
    for job in jobs:
        yield prove_graph(job)


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


def add_exhaustive_command(sub: Any, *, keys: Callable[[str], list[str]]) -> None:
    """The ``proofs-check exhaustive`` subcommand and its options (``keys`` reads a comma-separated ``--only``)."""
    from exactpte.cli.options import add_command, nonnegative_int, positive_int

    ex = add_command(sub, "exhaustive", "prove every check on every support graph with at most N states (so for every "
                                        "chain of that size and every reward)", [
        "proofs-check exhaustive --max-states 3",
        "proofs-check exhaustive --max-states 4 --workers 2 --json exhaustive.json",
        "proofs-check exhaustive --max-states 3 --checks my_conjecture.py --only my:conjecture --failures cex"])
    ex.add_argument("--max-states", type=positive_int, default=3, help="largest graph size (default: 3; 4 takes minutes)")
    ex.add_argument("--min-states", type=positive_int, default=1, help="smallest graph size (default: 1)")
    ex.add_argument("--only", action="extend", type=keys, metavar="KEYS", help="run only these checks or conjectures, comma-separated")
    ex.add_argument("--checks", metavar="FILE", action="append", default=[],
                    help="a Python file registering conjectures (@proofs_check.conjecture); repeatable")
    ex.add_argument("--failures", metavar="DIR", help="write each failure's rational counterexample chain here")
    ex.add_argument("--json", metavar="REPORT", help="write the JSON report here")
    ex.add_argument("--dask", metavar="ADDRESS", help="prove the graphs on a Dask scheduler (tcp://host:port); pip install \".[dask]\"")
    ex.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the sampled points (default: 0)")
    ex.add_argument("--workers", type=positive_int, default=1, help="worker processes (default: 1)")
    ex.add_argument("--quiet", action="store_true", help="no progress output")


def main_exhaustive(args: Any) -> int:
    """``proofs-check exhaustive`` (the CLI's command body)."""
    report = exhaustive(args.max_states, min_states=args.min_states, only=args.only, conjecture_files=args.checks,
                        failures_dir=args.failures, progress=None if args.quiet else sys.stderr, dask=args.dask,
                        seed=args.seed, workers=args.workers)
    print(report.table())
    for f in report.failures[:20]:
        where = f.get("file") or (f"point {f['point']}" if f.get("point") else "no rational point found")
        print(f"FAIL {f['key']} on graph {f['graph']}: {f['detail'][:160]} ({where})")
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(report.to_dict(), fh, indent=1)
        except OSError as e:
            raise ExactpteError(f"--json {args.json}: cannot write the report ({e.strerror})") from None
    return 0 if report.failed == 0 else 1
