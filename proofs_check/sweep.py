"""Sweeps: every check on many seeded random chains, with a summary a person reads at a glance.

Chain ``i`` of a sweep with seed ``S`` is ``random_small_chain(f"{S}:{i}")``, so any
chain of a report can be rebuilt alone; failing chains are also written as chain
files that ``exactpte decompose`` reads back.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import exactpte
from exactpte.errors import UnknownNameError
from exactpte.io import chain_to_dict
from exactpte.progress import Progress
from exactpte.testing.random_chains import random_small_chain

from .checks import CHECKS, run_checks
from .claimed import from_decomposition

__all__ = ["SweepReport", "sweep", "check_one"]


@dataclass
class SweepReport:
    chains: int = 0
    checks: dict[str, dict] = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    states: dict[int, int] = field(default_factory=dict)  # n -> how many chains

    def add(self, verdicts, n: int) -> None:
        """Count one chain's verdicts."""
        self.chains += 1
        self.states[n] = self.states.get(n, 0) + 1
        for v in verdicts:
            row = self.checks.setdefault(v.key, {"checked": 0, "held": 0, "failed": 0, "not_applicable": 0, "seconds": 0.0})
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
            "checks": {k: {**v, "seconds": round(v["seconds"], 4)} for k, v in self.checks.items()},
            "failures": self.failures,
        }

    def table(self) -> str:
        """The per-check table a person reads at a glance."""
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
        return "\n".join(lines)


def check_one(args: tuple) -> tuple[int, int, list, dict | None]:
    """Worker: build chain ``index`` of the sweep, decompose it, run the checks."""
    seed, index, max_states, only = args
    chain = random_small_chain(f"{seed}:{index}", max_states=max_states)
    try:
        dec = exactpte.decompose(chain)
        verdicts = run_checks(chain, from_decomposition(dec), only=only, seed=seed)
    except Exception as e:  # a crash in the code under test is a finding, not a sweep abort
        from .registry import Verdict

        verdicts = [Verdict("decompose", "exactpte.decompose runs", False, f"{type(e).__name__}: {e}")]
    failed = [v for v in verdicts if v.holds is False]
    failure = None
    if failed:
        failure = {"index": index, "n": chain.n, "failed": {v.key: v.detail for v in failed}, "chain": chain_to_dict(chain)}
    return index, chain.n, verdicts, failure


def sweep(
    chains: int,
    *,
    seed: int = 0,
    max_states: int = 12,
    only: Sequence[str] | None = None,
    workers: int = 1,
    failures_dir: str | None = None,
    progress=sys.stderr,
) -> SweepReport:
    """Run the checks on ``chains`` seeded random chains of at most ``max_states`` states."""
    if only:
        unknown = [k for k in only if k not in CHECKS]
        if unknown:
            raise UnknownNameError(f"unknown check key(s) {unknown}; known: {', '.join(CHECKS)}")
    report = SweepReport()
    bar = Progress("sweep", stream=progress, enabled=progress is not None, unit="chains")
    jobs = [(seed, i, max_states, list(only) if only else None) for i in range(chains)]
    t0 = time.perf_counter()
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(workers) as pool:
            results = pool.imap_unordered(check_one, jobs, chunksize=max(1, min(50, chains // (workers * 8) or 1)))
            for done, res in enumerate(results, 1):
                _collect(report, res, failures_dir)
                if done % 10 == 0 or done == chains:
                    bar.update(done, chains)
    else:
        for done, job in enumerate(jobs, 1):
            _collect(report, check_one(job), failures_dir)
            if done % 10 == 0 or done == chains:
                bar.update(done, chains)
    bar.close()
    report.seconds = time.perf_counter() - t0
    report.failures.sort(key=lambda f: f["index"])
    return report


def _collect(report: SweepReport, res, failures_dir: str | None) -> None:
    index, n, verdicts, failure = res
    report.add(verdicts, n)
    if failure is None:
        return
    if failures_dir:
        os.makedirs(failures_dir, exist_ok=True)
        path = os.path.join(failures_dir, f"chain-{index}.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(failure["chain"], fh)
        failure = {**failure, "file": path}
    failure = {k: v for k, v in failure.items() if k != "chain"}
    report.failures.append(failure)
