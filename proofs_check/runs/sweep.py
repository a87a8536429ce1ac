"""Sweeps: every check (and every registered conjecture) on many seeded random chains.

Chain ``i`` of a sweep with seed ``S`` is ``sweep_chain(f"{S}:{i}", min_states=, max_states=)``
(:func:`exactpte.model.random_chains.sweep_chain`: small and large chains, long and branching
transient parts, transient strongly connected blocks, deterministic cycles, aperiodic multichains,
every period up to 4): any chain of a report can be rebuilt alone, and the report is the same
whether the chains run serially, in ``workers`` processes or on a Dask cluster (results are
gathered by index).  The report says what the sweep covered (histograms of states, classes,
periods, transient counts and the largest transient strongly connected block; how many chains
each check applied to, with a warning below 5 %) and, for every check that failed, its
counterexamples shrunk (:mod:`proofs_check.runs.shrink`) while the same check still fails, written as
chain files that ``exactpte decompose`` reads, smallest first; every failing chain is also
written as it was drawn, under its own name.

The sweep tests the theorems, not exactpte's float path: ``certified:enclosures`` (exactpte's
own certified cross-check, half the time of a sweep) runs only with ``certified=True`` or when
named in ``only``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeAlias

import exactpte
from exactpte import Chain, MarkovRewardProcess
from exactpte.errors import UnknownNameError, UsageError
from exactpte.io import chain_to_dict, from_dict
from exactpte.progress import Progress
from exactpte.model.random_chains import sweep_chain

from proofs_check.checks import CHECKS, run_checks
from proofs_check.judging.claims import from_decomposition
from proofs_check.runs.jobs import run_jobs
from proofs_check.runs.conjectures import CONJECTURES, evaluate, load_conjectures
from proofs_check.algebra.graph import SupportGraph
from proofs_check.judging.registry import Verdict
from proofs_check.judging.strength import Strength
from proofs_check.routes.dense import Routes
from proofs_check.runs.shrink import shrink, size

__all__ = ["SweepReport", "sweep", "check_one", "verdicts_for"]

HISTOGRAMS = ("states", "classes", "periods", "transient", "transient_block")
HISTOGRAM_NAMES = {"states": "states n", "classes": "closed classes", "periods": "periods (per class)",
                   "transient": "transient states", "transient_block": "largest transient SCC"}
OPTIONAL = ("certified:enclosures",)
"""Checks a sweep runs only when asked (``certified=True`` or named in ``only``): exactpte's own
certified float cross-check, not a theorem."""
RARE = 0.05
# check_one's job: (seed, index, (min_states, max_states), only, conjecture files, certified)
CheckJob: TypeAlias = tuple[int, int, tuple[int, int], list[str] | None, list[str], bool]
# check_one's result: (index, coverage shape, verdicts, the failure record or None)
CheckResult: TypeAlias = tuple[int, dict[str, Sequence[int]], list[Verdict], dict[str, Any] | None]
"""A check applying to fewer than this share of a sweep's chains gets a warning in the report."""


@dataclass
class SweepReport:
    """Counts per check, coverage histograms, failures and shrunk counterexamples of one sweep."""

    chains: int = 0
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the sweeping process (all of it when workers == 1)
    histograms: dict[str, dict[int, int]] = field(default_factory=lambda: {h: {} for h in HISTOGRAMS})

    def add(self, verdicts: Sequence[Verdict], shape: dict[str, Sequence[int]]) -> None:
        """Count one chain's verdicts and its shape (``states``, ``classes``, ``periods``, ``transient``)."""
        self.chains += 1
        for name, values in shape.items():
            for value in values:
                self.histograms[name][value] = self.histograms[name].get(value, 0) + 1
        for v in verdicts:
            row = self.checks.setdefault(v.key, {"checked": 0, "held": 0, "failed": 0, "not_applicable": 0, "seconds": 0.0,
                                                 "strength": None, "counterexamples": []})
            row["seconds"] += v.seconds
            if v.holds is None:
                row["not_applicable"] += 1
                continue
            row["checked"] += 1
            row["held" if v.holds else "failed"] += 1
            if v.holds:  # what each held rests on, on its own chain (the weakest met: witnesses counts may differ)
                row["strength"] = _weakest(row["strength"], v.strength_text)

    @property
    def failed(self) -> int:
        """Number of failed check verdicts over the sweep."""
        return sum(r["failed"] for r in self.checks.values())

    def applies(self) -> dict[str, int]:
        """How many chains each check applied to (checked: held or failed, not "not applicable")."""
        return {k: r["checked"] for k, r in self.checks.items()}

    def warnings(self) -> list[str]:
        """One line per check that applied to fewer than :data:`RARE` of the chains."""
        if not self.chains:
            return []
        return [f"warning: {k} applied to {a} of {self.chains} chains ({100 * a / self.chains:.1f} % < {100 * RARE:.0f} %)"
                for k, a in self.applies().items() if a < RARE * self.chains]

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {
            "chains": self.chains,
            "seconds": round(self.seconds, 3),
            "chains_per_second": round(self.chains / self.seconds, 2) if self.seconds else None,
            "cpu_seconds": round(self.cpu_seconds, 3),
            "coverage": {h: {str(k): v for k, v in sorted(d.items())} for h, d in self.histograms.items()},
            "applies": self.applies(),
            "warnings": self.warnings(),
            "checks": {k: {**v, "seconds": round(v["seconds"], 4)} for k, v in self.checks.items()},
            "failures": self.failures,
        }

    def coverage_table(self) -> str:
        """The coverage histograms, one line each (``value: count``)."""
        return "\n".join(f"{HISTOGRAM_NAMES[h]:>22}: " + "  ".join(f"{k}:{v}" for k, v in sorted(d.items()))
                         for h, d in self.histograms.items())

    def table(self) -> str:
        """The per-check table a person reads at a glance (``applies`` = checked, in % of the chains),
        then the coverage and the warnings."""
        head = ("check", "checked", "held", "failed", "not applicable", "applies", "ms/chain", "strength of each held")
        rows = [
            (k, str(r["checked"]), str(r["held"]), str(r["failed"]), str(r["not_applicable"]),
             f"{100 * r['checked'] / max(1, self.chains):.0f}%", f"{1000 * r['seconds'] / max(1, self.chains):.2f}",
             r["strength"] or "-")
            for k, r in self.checks.items()
        ]
        w = [max(len(h), *(len(r[j]) for r in rows)) if rows else len(h) for j, h in enumerate(head)]

        def fmt(cells: Sequence[str]) -> str:
            return "  ".join(c.ljust(w[j]) if j in (0, len(cells) - 1) else c.rjust(w[j]) for j, c in enumerate(cells)).rstrip()

        lines = [fmt(head), fmt(tuple("-" * x for x in w))] + [fmt(r) for r in rows]
        verdict = "all checks held" if not self.failed else f"{self.failed} check failure(s) on {len(self.failures)} chain(s)"
        rate = f"{self.chains / self.seconds:.1f} chains/s" if self.seconds else ""
        if self.cpu_seconds:
            rate += f"; {self.chains / self.cpu_seconds:.1f} chains per CPU second of this process"
        lines.append(f"{self.chains} chains in {self.seconds:.1f} s ({rate}): {verdict}")
        lines.append("a sweep is evidence, never a proof: each held was decided on its own chain, with the strength shown")
        lines.append("coverage:")
        lines.append(self.coverage_table())
        lines.extend(self.warnings())
        return "\n".join(lines)

    def failure_lines(self, limit: int = 20) -> list[str]:
        """One line per failing chain (its own counterexample file), at most ``limit``, then "... N more"."""
        out = []
        for f in self.failures[:limit]:
            where = f", {f['file']}" if "file" in f else ""
            out.append(f"  chain {f['index']} (n = {f['n']}{where}): " + "; ".join(f"{k}: {d}" for k, d in f["failed"].items()))
            for key, path in f.get("shrunk", {}).items():
                out.append(f"    {key} shrunk: {path}")
        if len(self.failures) > limit:
            out.append(f"  ... {len(self.failures) - limit} more failing chain(s) (all in the JSON report)")
        return out


def _weakest(a: str | None, b: str) -> str:
    """The weaker of two strength texts (a witnesses count the smaller), for a check's row over a sweep."""
    if a is None:
        return b
    rank = [x.value for x in Strength]
    ka, kb = rank.index(a.split(" ")[0]), rank.index(b.split(" ")[0])
    if ka != kb:
        return a if ka > kb else b
    return min(a, b, key=lambda t: int("".join(c for c in t if c.isdigit()) or 0))


def _keys(only: Sequence[str] | None, certified: bool) -> list[str]:
    """The built-in check keys a sweep runs: ``only``'s, or all but :data:`OPTIONAL` unless ``certified``."""
    if only:
        return [k for k in only if k in CHECKS]
    return [k for k in CHECKS if certified or k not in OPTIONAL]


def verdicts_for(chain: MarkovRewardProcess, *, only: Sequence[str] | None, seed: int,
                 conjectures: Sequence[str] = (), certified: bool = False) -> list[Verdict]:
    """The built-in checks (all but :data:`OPTIONAL` unless ``certified``, or those in ``only``) and the
    given conjectures on one chain."""
    return _verdicts(chain, only=only, seed=seed, conjectures=conjectures, certified=certified, routes=Routes(chain))


def _verdicts(chain: MarkovRewardProcess, *, only: Sequence[str] | None, seed: int, conjectures: Sequence[str],
              certified: bool, routes: Routes) -> list[Verdict]:
    """:func:`verdicts_for` with the chain's independent routes given (the sweep reads the coverage off their graph)."""
    keys = _keys(only, certified)
    chosen = [CONJECTURES[k] for k in conjectures if not only or k in only]
    try:
        dec = exactpte.decompose(chain)
        verdicts = run_checks(chain, from_decomposition(dec), only=keys, seed=seed, routes=routes) if keys else []
    except Exception as e:  # a crash in the code under test is a finding, not a sweep abort
        return [Verdict("decompose", "exactpte.decompose runs", False, f"{type(e).__name__}: {e}")]
    for conj in chosen:
        t0 = time.perf_counter()
        detail = evaluate(conj, chain, dec)
        verdicts.append(Verdict(conj.label, conj.statement, detail is None, detail or "", time.perf_counter() - t0))
    return verdicts


def _shape(chain: MarkovRewardProcess, graph: SupportGraph | None = None) -> dict[str, Sequence[int]]:
    """The coverage of one chain, from proofs_check's own graph code (``graph``: the chain's, when built already)."""
    g = graph if graph is not None else SupportGraph.of(chain)
    closed = g.closed_classes()
    recurrent = {s for c in closed for s in c}
    blocks = [len(c) for c in g.components if c[0] not in recurrent]
    return {"states": [chain.n], "classes": [len(closed)], "periods": [g.period(c) for c in closed],
            "transient": [chain.n - len(recurrent)], "transient_block": [max(blocks, default=0)]}


def check_one(args: CheckJob) -> CheckResult:
    """Worker: build chain ``index`` of the sweep, run the checks and conjectures on it."""
    seed, index, (min_states, max_states), only, conjecture_files, certified = args
    labels = [k for path in conjecture_files for k in load_conjectures(path)]  # imported once per process
    chain = sweep_chain(f"{seed}:{index}", min_states=min_states, max_states=max_states)
    routes = Routes(chain)  # the checks' independent routes; the coverage shape reuses their support graph
    verdicts = _verdicts(chain, only=only, seed=seed, conjectures=labels, certified=certified, routes=routes)
    failed = [v for v in verdicts if v.holds is False]
    failure = None
    if failed:
        failure = {"index": index, "n": chain.n, "failed": {v.key: v.detail for v in failed}, "chain": chain_to_dict(chain)}
    return index, _shape(chain, routes.graph), verdicts, failure


def sweep(
    chains: int,
    *,
    seed: int = 0,
    max_states: int = 12,
    min_states: int = 1,
    only: Sequence[str] | None = None,
    workers: int = 1,
    failures_dir: str | None = None,
    progress: TextIO | None = sys.stderr,
    conjecture_files: Sequence[str] = (),
    dask: str | None = None,
    max_counterexamples: int = 3,
    certified: bool = False,
) -> SweepReport:
    """Run the checks (and conjectures) on ``chains`` seeded random chains of ``min_states..max_states`` states.

    Parameters
    ----------
    chains, seed, min_states, max_states : int
        How many chains, the sweep seed (chain ``i`` comes from ``(seed, i)``), their smallest and largest size.
    only : sequence of str, optional
        Check keys or conjecture labels to run (default: all but :data:`OPTIONAL`).
    workers : int
        Local worker processes.
    failures_dir : str, optional
        Where counterexamples are written (each failing chain as drawn, and shrunk ones smallest first, per failing key).
    conjecture_files : sequence of paths
        Python files registering conjectures (:func:`proofs_check.conjecture`).
    dask : str, optional
        Address of a Dask scheduler (``tcp://host:port``) to run the chains on.
    max_counterexamples : int
        Failing chains shrunk and kept per key.
    certified : bool
        Also run ``certified:enclosures`` (exactpte's certified float cross-check; off by default).

    Returns
    -------
    SweepReport
        The same counts for the same seed, however the chains were distributed.
    """
    labels = [k for path in conjecture_files for k in load_conjectures(path)]
    if only:
        unknown = [k for k in only if k not in CHECKS and k not in labels]
        if unknown:
            raise UnknownNameError(f"unknown check key(s) {unknown}; known: {', '.join(list(CHECKS) + labels)}")
    if not 1 <= min_states <= max_states:
        raise UsageError(f"need 1 <= min_states <= max_states, got {min_states} and {max_states}")
    report = SweepReport()
    bar = Progress("sweep", stream=progress, enabled=progress is not None, unit="chains")
    files = [os.path.abspath(p) for p in conjecture_files]
    jobs = [(seed, i, (min_states, max_states), list(only) if only else None, files, certified) for i in range(chains)]
    t0, c0 = time.perf_counter(), time.process_time()
    results = []
    for done, res in enumerate(run_jobs(check_one, jobs, workers=workers, dask=dask), 1):
        results.append(res)
        if done % 10 == 0 or done == chains:
            bar.update(done, chains)
    bar.close()
    for res in sorted(results, key=lambda r: r[0]):  # the same order however the chains ran
        index, shape, verdicts, failure = res
        report.add(verdicts, shape)
        if failure is not None:
            report.failures.append({k: v for k, v in failure.items() if k != "chain"})
    _counterexamples(report, results, seed, failures_dir, max_counterexamples, labels)
    report.seconds = time.perf_counter() - t0
    report.cpu_seconds = time.process_time() - c0
    return report


def _safe(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label)


def _write(failures_dir: str, name: str, chain: Chain) -> str:
    os.makedirs(failures_dir, exist_ok=True)
    path = os.path.join(failures_dir, name)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(chain_to_dict(chain), fh)
    return path


def _counterexamples(report: SweepReport, results: list[CheckResult], seed: int, failures_dir: str | None, keep: int,
                     labels: Sequence[str]) -> None:
    """Write every failing chain under its own name; shrink up to ``keep`` failing chains per failing key
    (while that key still fails) and write them, smallest first."""
    by_key: dict[str, list[tuple[int, MarkovRewardProcess]]] = {}
    own: dict[int, str] = {}
    for index, _, verdicts, failure in sorted(results, key=lambda r: r[0]):
        if failure is None:
            continue
        chain = from_dict(failure["chain"])
        assert isinstance(chain, MarkovRewardProcess)  # written by check_one from a sweep_chain: rational, never parametric
        if failures_dir:
            own[index] = _write(failures_dir, f"chain-{index}.json", chain)
        for key in failure["failed"]:
            by_key.setdefault(key, []).append((index, chain))
    shrunk_of: dict[int, dict[str, str]] = {}
    for key, failing in by_key.items():
        shrunk = []
        for index, chain in failing[:keep]:
            if key in CHECKS or key in labels:
                still = lambda m, key=key: any(v.key == key and v.holds is False
                                               for v in verdicts_for(m, only=[key], seed=seed, conjectures=labels))
                chain = shrink(chain, still)
            shrunk.append((size(chain), index, chain))
        shrunk.sort(key=lambda t: (t[0], t[1]))
        paths = []
        for k, (_, index, chain) in enumerate(shrunk):
            path = _write(failures_dir, f"{_safe(key)}-{k}.json", chain) if failures_dir else f"chain {index} shrunk to {chain.n} state(s)"
            paths.append(path)
            shrunk_of.setdefault(index, {})[key] = path
        report.checks[key]["counterexamples"] = paths
    for f in report.failures:
        if f["index"] in own:
            f["file"] = own[f["index"]]
        if f["index"] in shrunk_of:
            f["shrunk"] = shrunk_of[f["index"]]
