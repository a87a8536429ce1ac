"""CSV edge lists (``source,target,probability``) and reward CSVs (``state,reward``), read and written exactly."""

from __future__ import annotations

import re

from ..chain import MarkovRewardProcess
from ..errors import ChainFileError
from .common import note_decimals

__all__ = ["to_edge_csv", "read_edge_csv"]


def to_edge_csv(chain: MarkovRewardProcess) -> tuple[str, str]:
    """``(edges, rewards)`` CSV texts with headers ``source,target,probability`` and ``state,reward``."""
    e = ["source,target,probability"] + [f"{i},{j},{q}" for i, j, q in chain.edges()]
    r = ["state,reward"] + [f"{s},{x}" for s, x in enumerate(chain.r)]
    return "\n".join(e) + "\n", "\n".join(r) + "\n"


def _csv_rows(text: str) -> list[list[str]]:
    rows = [[c.strip() for c in ln.split(",")] for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if rows and not re.fullmatch(r"-?\d+", rows[0][0]):
        rows = rows[1:]  # header
    return rows


def read_edge_csv(edges: str, rewards: str | None = None, *, n: int | None = None, source: str = "<csv>") -> MarkovRewardProcess:
    """Parse a CSV edge list (``source,target,probability``) and a reward CSV (``state,reward`` or one
    reward a line); ``n`` defaults to one more than the largest state index."""
    rows = _csv_rows(edges)
    triples = []
    for k, row in enumerate(rows, 1):
        if len(row) != 3:
            raise ChainFileError(f"{source}: edge row {k} should be 'source,target,probability', got {','.join(row)!r}")
        try:
            triples.append((int(row[0]), int(row[1]), row[2]))
        except ValueError:
            raise ChainFileError(f"{source}: edge row {k} has a non-integer state index") from None
    size = n if n is not None else 1 + max((max(i, j) for i, j, _ in triples), default=-1)
    r = ["0"] * size
    if rewards is not None:
        for k, row in enumerate(_csv_rows(rewards), 1):
            if len(row) == 2:
                s = int(row[0])
            elif len(row) == 1:
                s = k - 1
            else:
                raise ChainFileError(f"rewards: row {k} should be 'state,reward' or 'reward'")
            if not 0 <= s < size:
                raise ChainFileError(f"rewards: row {k} names state {s}, outside 0..{size - 1}")
            r[s] = row[-1]
    chain = MarkovRewardProcess.from_edges(size, triples, r)
    if rewards is None:
        chain.notes = chain.notes + ("no reward file given: r = 0",)
    return note_decimals(chain, [edges, rewards])
