"""One job runner for the long runs (``sweep``, ``exhaustive``): serial, in worker processes, or on Dask.

A job is plain data and its function a module-level function, so either runs in another process or on
another machine; results come back as they finish (not in job order), for progress and early reports.

Examples
--------
>>> sorted(run_jobs(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from exactpte.errors import UnknownNameError

__all__ = ["run_jobs"]

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(func: Callable[[J], R], jobs: Sequence[J], *, workers: int = 1, dask: str | None = None,
             chunksize: int | None = None) -> Iterator[R]:
    """``func(job)`` for every job, yielded as each finishes: on the Dask scheduler at ``dask`` (``tcp://host:port``,
    the ``dask`` extra), in ``workers`` processes (``fork``; ``spawn`` on macOS) in chunks of ``chunksize`` (by
    default about eight chunks a worker, at most 50 jobs each), or one by one in this process.  Worker processes
    ignore Ctrl-C: the interrupt reaches this process alone, which stops them.

    Raises
    ------
    UnknownNameError
        ``dask`` is given but dask's distributed scheduler is not installed.
    """
    if dask:
        yield from _on_dask(func, jobs, dask)
        return
    if workers > 1 and len(jobs) > 1:
        import multiprocessing as mp

        size = chunksize or max(1, min(50, len(jobs) // (workers * 8) or 1))
        with mp.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(workers, initializer=_ignore_interrupts) as pool:
            yield from pool.imap_unordered(func, jobs, chunksize=size)
        return
    for job in jobs:
        yield func(job)


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C is the parent's to handle (it terminates the pool), not a traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _on_dask(func: Callable[[J], R], jobs: Sequence[J], address: str) -> Iterator[R]:
    try:
        from distributed import Client, as_completed  # untyped: the calls below are typed Any
    except ImportError:
        raise UnknownNameError("--dask needs dask's distributed scheduler: pip install \".[dask]\"") from None
    with Client(address) as client:
        for fut in as_completed(client.map(func, list(jobs), pure=False)):
            result: R = fut.result()
            yield result
