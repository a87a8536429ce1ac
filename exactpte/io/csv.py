"""CSV edge lists and reward CSVs, read strictly and written exactly.

- Edges: one ``source,target,probability`` row per transition, optionally after that header.
- Rewards: either ``state,reward`` rows (every state exactly once) or one ``reward`` per row
  (exactly one row per state, in state order), optionally after a ``state,reward`` or
  ``reward`` header.

A first row is a header only when it spells the header; any other row must be data, so no
value is ever lost as a "header".  Blank lines and lines starting with ``#`` are skipped.
Rules in ``docs/formats.md``.

Examples
--------
>>> import exactpte
>>> m = exactpte.example("branching")
>>> read_edge_csv(*to_edge_csv(m)) == m
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import flint

from exactpte.model.chain import MarkovRewardProcess, require_chain
from exactpte.errors import ChainFileError, UsageError, brief
from exactpte.io.common import exact_value, naming, note_decimals, state_index

__all__ = ["to_edge_csv", "read_edge_csv", "edge_rows"]

V = TypeVar("V")

EDGE_HEADER = ("source", "target", "probability")
_FLOAT_LITERAL = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+(?=[eE]))(?:[eE][+-]?\d+)?", re.ASCII)  # a decimal point or exponent
REWARD_HEADERS = (("state", "reward"), ("reward",))


def to_edge_csv(chain: MarkovRewardProcess) -> tuple[str, str]:
    """``(edges, rewards)`` CSV texts with headers ``source,target,probability`` and ``state,reward``."""
    require_chain(chain)
    if chain.field.is_parametric:
        raise UsageError("CSV files hold numbers; write a parametric chain with to_drn or as a JSON chain file")
    e = [",".join(EDGE_HEADER)] + [f"{i},{j},{q}" for i, j, q in chain.edges()]
    r = ["state,reward"] + [f"{s},{x}" for s, x in enumerate(chain.r)]
    return "\n".join(e) + "\n", "\n".join(r) + "\n"


def _rows(text: str) -> list[tuple[int, list[str]]]:
    return [(k, [c.strip() for c in ln.split(",")]) for k, ln in enumerate(text.splitlines(), 1)
            if ln.strip() and not ln.lstrip().startswith("#")]


def _index(token: str, where: str) -> int:
    """A state index (ASCII digits); one written as a float, as ``np.savetxt`` writes a float array
    (``1.000000000000000000e+00``), is refused with the command-line option that reads it."""
    try:
        return state_index(token, where)
    except ChainFileError as e:
        if _FLOAT_LITERAL.fullmatch(token):
            raise ChainFileError(f"{where}: {brief(token, 30, quoted=True)} is not a state index (a non-negative integer; from the command line "
                                 "--floats exact reads the indices np.savetxt writes as floats)") from None
        raise e from None


def _strip_header(rows: list[tuple[int, list[str]]], headers: tuple[tuple[str, ...], ...],
                  source: str = "<csv>") -> tuple[list[tuple[int, list[str]]], tuple[str, ...] | None]:
    """The rows after a header that spells one of ``headers`` (any case), and that header.  A first row
    with no digit at all is a misspelt header (``src,target,probability``), refused as one."""
    if rows and tuple(c.lower() for c in rows[0][1]) in headers:
        return rows[1:], tuple(c.lower() for c in rows[0][1])
    if rows and not any(ch.isdigit() for c in rows[0][1] for ch in c):
        k, row = rows[0]
        spelled = " or ".join(repr(",".join(h)) for h in headers)
        raise ChainFileError(f"{source}: line {k}: {','.join(row)[:60]!r} is neither data nor the header {spelled}")
    return rows, None


def edge_rows(edges: str, rewards: str | None, *, value: Callable[[str, str], V], zero: V, n: int | None = None,
              source: str = "<csv>", reward_source: str = "rewards",
              index: Callable[[str, str], int] | None = None) -> tuple[int, list[tuple[int, int, V]], list[V]]:
    r"""``(n, triples, r)`` of a CSV edge list and an optional reward CSV, each number token read by
    ``value(token, where)`` (exact for :func:`read_edge_csv`; floats for the command line's float
    route), each state index by ``index(token, where)`` (ASCII digits; the float route also takes the
    integral decimals ``np.savetxt`` writes, ``1.000000000000000000e+00``). Checks the files' rules
    (module docstring), not the chain's: that is the caller's.

    >>> edge_rows("0,1,1\n1,0,1/2\n1,1,1/2\n", "state,reward\n0,1\n1,0\n", value=lambda t, w: t, zero="0")
    (2, [(0, 1, '1'), (1, 0, '1/2'), (1, 1, '1/2')], ['1', '0'])
    """
    index = index or _index
    rows, _ = _strip_header(_rows(edges), (EDGE_HEADER,), source)
    triples = []
    for k, row in rows:
        where = f"{source}: line {k}"
        if len(row) != 3:
            raise ChainFileError(f"{where}: expected 'source,target,probability', got {','.join(row)[:60]!r}")
        triples.append((index(row[0], where), index(row[1], where), value(row[2], where)))
    size = n if n is not None else 1 + max((max(i, j) for i, j, _ in triples), default=-1)
    if size < 1:
        raise ChainFileError(f"{source}: no transitions")
    if size > len(triples):  # bounded work: n states need n transitions; nothing is allocated before this
        raise ChainFileError(f"{source}: {size} states (the largest index + 1) need at least {size} transitions, the file has {len(triples)}")
    r = [zero] * size if rewards is None else _reward_column(rewards, size, reward_source, value, index)
    return size, triples, r


def read_edge_csv(edges: str, rewards: str | None = None, *, n: int | None = None, source: str = "<csv>",
                  reward_source: str = "rewards") -> MarkovRewardProcess:
    """Parse a CSV edge list and an optional reward CSV (rules in the module docstring).

    ``n`` defaults to one more than the largest state index in the edges.

    Raises
    ------
    ChainFileError
        Naming the file, the line and the rule broken.
    """
    size, triples, r = edge_rows(edges, rewards, value=exact_value, zero=flint.fmpq(0), n=n, source=source,
                                 reward_source=reward_source)
    with naming(source):
        chain = MarkovRewardProcess.from_edges(size, triples, r)
    if rewards is None:
        chain.notes = chain.notes + ("no reward file given: r = 0",)
    return note_decimals(chain, [edges, rewards])


def _reward_column(text: str, n: int, source: str, value: Callable[[str, str], V],
                   index: Callable[[str, str], int] | None = None) -> list[V]:
    index = index or _index
    rows, header = _strip_header(_rows(text), REWARD_HEADERS, source)
    if not rows:
        raise ChainFileError(f"{source}: no rewards")
    width = len(header) if header is not None else len(rows[0][1])
    for k, row in rows:
        if len(row) != width or width not in (1, 2):
            form = ",".join(header) if header is not None else "state,reward' or every row is 'reward"
            raise ChainFileError(f"{source}: line {k}: every row is '{form}', not a mix (got {','.join(row)[:40]!r})")
    if width == 1:
        if len(rows) != n:
            raise ChainFileError(f"{source}: {len(rows)} reward rows for {n} states; one reward per state, in state order")
        return [value(row[0], f"{source}: line {k}") for k, row in rows]
    out: dict[int, V] = {}
    for k, row in rows:
        where = f"{source}: line {k}"
        s = index(row[0], where)
        if s >= n:
            raise ChainFileError(f"{where}: state {s} is outside 0..{n - 1}")
        if s in out:
            raise ChainFileError(f"{where}: state {s} has a second reward row")
        out[s] = value(row[1], where)
    missing = [s for s in range(n) if s not in out]
    if missing:
        raise ChainFileError(f"{source}: no reward for state(s) {missing[:8]}{' ...' if len(missing) > 8 else ''}; "
                             f"give every state a row (0 where there is no reward)")
    return [out[s] for s in range(n)]
