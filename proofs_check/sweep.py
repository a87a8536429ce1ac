"""Sweeps: every check (and every registered conjecture) on many seeded random chains.

Chain ``i`` of a sweep with seed ``S`` is ``random_small_chain(f"{S}:{i}")``: any chain of a
report can be rebuilt alone, and the report is the same whether the chains run serially, in
``workers`` processes or on a Dask cluster (results are gathered by index).  The report says
what the sweep covered (histograms of states, classes, periods and transient counts) and,
for every check that failed, its counterexamples shrunk (:mod:`proofs_check.shrink`) while the
same check still fails, written as chain files that ``exactpte decompose`` reads, smallest first.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

import exactpte
from exactpte.chain import MarkovRewardProcess
from exactpte.errors import UnknownNameError
from exactpte.io import chain_to_dict, from_dict
from exactpte.progress import Progress
from exactpte.testing.random_chains import random_small_chain

from .checks import CHECKS, run_checks
from .claimed import from_decomposition
from .conjectures import CONJECTURES, evaluate, load_conjectures
from .registry import Verdict
from .shrink import shrink, size

__all__ = ["SweepReport", "sweep", "check_one", "verdicts_for"]

HISTOGRAMS = ("states", "classes", "periods", "transient")


@dataclass
class SweepReport:
    """Counts per check, coverage histograms, failures and shrunk counterexamples of one sweep."""

    chains: int = 0
    checks: dict[str, dict] = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    histograms: dict[str, dict[int, int]] = field(default_factory=lambda: {h: {} for h in HISTOGRAMS})

    def add(self, verdicts: Sequence[Verdict], shape: dict[str, Sequence[int]]) -> None:
        """Count one chain's verdicts and its shape (``states``, ``classes``, ``periods``, ``transient``)."""
        self.chains += 1
        for name, values in shape.items():
            for value in values:
                self.histograms[name][value] = self.histograms[name].get(value, 0) + 1
        for v in verdicts:
            row = self.checks.setdefault(v.key, {"checked": 0, "held": 0, "failed": 0, "not_applicable": 0, "seconds": 0.0,
                                                 "counterexamples": []})
            row["seconds"] += v.seconds
            if v.holds is None:
                row["not_applicable"] += 1
                continue
            row["checked"] += 1
            row["held" if v.holds else "failed"] += 1

    @property
    def failed(self) -> int:
        """Number of failed check verdicts over the sweep."""
        return sum(r["failed"] for r in self.checks.values())

    def to_dict(self) -> dict:
        """The report as a JSON-ready dict."""
        return {
            "chains": self.chains,
            "seconds": round(self.seconds, 3),
            "chains_per_second": round(self.chains / self.seconds, 2) if self.seconds else None,
            "coverage": {h: {str(k): v for k, v in sorted(d.items())} for h, d in self.histograms.items()},
            "checks": {k: {**v, "seconds": round(v["seconds"], 4)} for k, v in self.checks.items()},
            "failures": self.failures,
        }

    def coverage_table(self) -> str:
        """The coverage histograms, one line each (``value: count``)."""
        names = {"states": "states n", "classes": "closed classes", "periods": "periods (per class)", "transient": "transient states"}
        return "\n".join(f"{names[h]:>20}: " + "  ".join(f"{k}:{v}" for k, v in sorted(d.items())) for h, d in self.histograms.items())

    def table(self) -> str:
        """The per-check table a person reads at a glance, then the coverage."""
        head = ("check", "checked", "held", "failed", "n/a", "ms/chain")
        rows = [
            (k, str(r["checked"]), str(r["held"]), str(r["failed"]), str(r["not_applicable"]),
             f"{1000 * r['seconds'] / max(1, self.chains):.2f}")
            for k, r in self.checks.items()
        ]
        w = [max(len(h), *(len(r[j]) for r in rows)) if rows else len(h) for j, h in enumerate(head)]
        fmt = lambda cells: "  ".join(c.ljust(w[0]) if j == 0 else c.rjust(w[j]) for j, c in enumerate(cells))
        lines = [fmt(head), fmt(tuple("-" * x for x in w))] + [fmt(r) for r in rows]
        verdict = "all checks held" if not self.failed else f"{self.failed} check failure(s) on {len(self.failures)} chain(s)"
        rate = f"{self.chains / self.seconds:.1f} chains/s" if self.seconds else ""
        lines.append(f"{self.chains} chains in {self.seconds:.1f} s ({rate}): {verdict}")
        lines.append("coverage:")
        lines.append(self.coverage_table())
        return "\n".join(lines)


def verdicts_for(chain: MarkovRewardProcess, *, only: Sequence[str] | None, seed: int,
                 conjectures: Sequence[str] = ()) -> list[Verdict]:
    """The built-in checks (all, or those in ``only``) and the given conjectures on one chain."""
    keys = [k for k in (only or CHECKS) if k in CHECKS]
    chosen = [CONJECTURES[k] for k in conjectures if not only or k in only]
    try:
        dec = exactpte.decompose(chain)
        verdicts = run_checks(chain, from_decomposition(dec), only=keys, seed=seed) if keys else []
    except Exception as e:  # a crash in the code under test is a finding, not a sweep abort
        return [Verdict("decompose", "exactpte.decompose runs", False, f"{type(e).__name__}: {e}")]
    for conj in chosen:
        t0 = time.perf_counter()
        detail = evaluate(conj, chain, dec)
        verdicts.append(Verdict(conj.label, conj.statement, detail is None, detail or "", time.perf_counter() - t0))
    return verdicts


def _shape(chain: MarkovRewardProcess) -> dict[str, list[int]]:
    S = chain.structure
    return {"states": [chain.n], "classes": [len(S.classes)], "periods": list(S.periods), "transient": [len(S.transient)]}


def check_one(args: tuple) -> tuple[int, dict, list, dict | None]:
    """Worker: build chain ``index`` of the sweep, run the checks and conjectures on it."""
    seed, index, max_states, only, conjecture_files = args
    labels = [k for path in conjecture_files for k in load_conjectures(path)]  # imported once per process
    chain = random_small_chain(f"{seed}:{index}", max_states=max_states)
    verdicts = verdicts_for(chain, only=only, seed=seed, conjectures=labels)
    failed = [v for v in verdicts if v.holds is False]
    failure = None
    if failed:
        failure = {"index": index, "n": chain.n, "failed": {v.key: v.detail for v in failed}, "chain": chain_to_dict(chain)}
    return index, _shape(chain), verdicts, failure


def sweep(
    chains: int,
    *,
    seed: int = 0,
    max_states: int = 12,
    only: Sequence[str] | None = None,
    workers: int = 1,
    failures_dir: str | None = None,
    progress: TextIO | None = sys.stderr,
    conjecture_files: Sequence[str] = (),
    dask: str | None = None,
    max_counterexamples: int = 3,
) -> SweepReport:
    """Run the checks (and conjectures) on ``chains`` seeded random chains of at most ``max_states`` states.

    Parameters
    ----------
    chains, seed, max_states : int
        How many chains, the sweep seed (chain ``i`` comes from ``(seed, i)``), their largest size.
    only : sequence of str, optional
        Check keys or conjecture labels to run (default: all).
    workers : int
        Local worker processes.
    failures_dir : str, optional
        Where counterexamples are written (chain files, smallest first, per failing key).
    conjecture_files : sequence of paths
        Python files registering conjectures (:func:`proofs_check.conjecture`).
    dask : str, optional
        Address of a Dask scheduler (``tcp://host:port``) to run the chains on.
    max_counterexamples : int
        Failing chains shrunk and kept per key.

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
    report = SweepReport()
    bar = Progress("sweep", stream=progress, enabled=progress is not None, unit="chains")
    jobs = [(seed, i, max_states, list(only) if only else None, [os.path.abspath(p) for p in conjecture_files]) for i in range(chains)]
    t0 = time.perf_counter()
    results = []
    for done, res in enumerate(_run(jobs, workers, dask), 1):
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
    return report


def _run(jobs: list[tuple], workers: int, dask: str | None) -> Iterator[tuple[int, dict, list, dict | None]]:
    if dask:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise UnknownNameError("--dask needs dask's distributed scheduler: pip install \".[dask]\"") from None
        with Client(dask) as client:
            futures = client.map(check_one, jobs, pure=False)
            for fut in as_completed(futures):
                yield fut.result()
        return
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(workers) as pool:
            yield from pool.imap_unordered(check_one, jobs, chunksize=max(1, min(50, len(jobs) // (workers * 8) or 1)))
        return
    for job in jobs:
        yield check_one(job)


def _safe(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label)


def _counterexamples(report: SweepReport, results: list, seed: int, failures_dir: str | None, keep: int,
                     labels: Sequence[str]) -> None:
    """Shrink up to ``keep`` failing chains per failing key (while that key still fails) and write them."""
    by_key: dict[str, list] = {}
    for index, _, verdicts, failure in sorted(results, key=lambda r: r[0]):
        if failure is None:
            continue
        for key in failure["failed"]:
            by_key.setdefault(key, []).append((index, from_dict(failure["chain"])))
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
            if failures_dir:
                os.makedirs(failures_dir, exist_ok=True)
                path = os.path.join(failures_dir, f"{_safe(key)}-{k}.json")
                with open(path, "w", encoding="utf-8") as fh:
                    json.dump(chain_to_dict(chain), fh)
                paths.append(path)
            else:
                paths.append(f"chain {index} shrunk to {chain.n} state(s)")
        report.checks[key]["counterexamples"] = paths
        for f in report.failures:
            if key in f["failed"] and "file" not in f and paths:
                f["file"] = paths[0]
