"""The JSON chain-file format (exactpte's own), read and written exactly.

Dense form::

    {"P": [["1/2", "1/2"], [0, 1]], "r": [1, 0], "labels": ["s", "t"]}

Sparse form (``n`` states, one ``[i, j, p]`` triple per nonzero)::

    {"n": 2, "edges": [[0, 0, "1/2"], [0, 1, "1/2"], [1, 1, 1]], "r": [1, 0]}

Numbers may be integers, strings (``"3/7"``, ``"0.25"``) or JSON decimal
literals; a decimal literal is read as the exact decimal it spells
(``0.1`` is 1/10), never through a binary float.

Parametric form: add ``"params": ["p", "q"]``; entries may then be expression strings
such as ``"1-p"`` or ``"p*q/2"`` (see :class:`exactpte.parametric.ParametricChain`).
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any

from ..chain import Chain, MarkovRewardProcess
from ..errors import ChainFileError

__all__ = ["loads", "from_dict", "chain_to_dict", "dump"]


def loads(text: str, *, source: str = "<string>") -> Chain:
    """Parse chain-file text.

    >>> m = loads('{"P": [["1/2", 0.5], [0, 1]], "r": [1, 0]}')
    >>> m.row(0)
    ((0, 1/2), (1, 1/2))
    >>> loads('{"P": [[1]]}')
    Traceback (most recent call last):
    ...
    exactpte.errors.ChainFileError: <string>: missing key 'r' (the reward vector)
    """
    try:
        data = json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{source}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except ValueError as e:
        raise ChainFileError(f"{source}: {e}") from None
    return from_dict(data, source=source)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a chain can hold")


def from_dict(data: Any, *, source: str = "<dict>") -> Chain:
    """Build a chain from the decoded JSON object."""
    if not isinstance(data, dict):
        raise ChainFileError(f"{source}: the top level must be a JSON object with keys 'P' (or 'n' and 'edges') and 'r'")
    if "r" not in data:
        raise ChainFileError(f"{source}: missing key 'r' (the reward vector)")
    labels = data.get("labels")
    if "params" in data:
        return _parametric(data, labels, source)
    if "P" in data:
        return MarkovRewardProcess(data["P"], data["r"], labels)
    if "edges" in data:
        if "n" not in data:
            raise ChainFileError(f"{source}: the sparse form needs 'n' (the number of states) beside 'edges'")
        edges = data["edges"]
        if not isinstance(edges, list):
            raise ChainFileError(f"{source}: 'edges' must be a list of [i, j, p] triples")
        return MarkovRewardProcess.from_edges(data["n"], [tuple(e) if isinstance(e, list) else e for e in edges], data["r"], labels)
    raise ChainFileError(f"{source}: missing key 'P' (dense matrix) or 'edges' (sparse form)")


def _parametric(data: dict, labels, source: str):
    from ..parametric import ParametricChain

    params = data["params"]
    if not isinstance(params, list) or not all(isinstance(p, str) and p.isidentifier() for p in params):
        raise ChainFileError(f"{source}: 'params' must be a list of parameter names such as [\"p\", \"q\"]")
    if "P" in data:
        P = data["P"]
    elif "edges" in data and "n" in data:
        n = data["n"]
        if not isinstance(n, int) or n < 1:
            raise ChainFileError(f"{source}: 'n' must be a positive integer")
        P = [["0"] * n for _ in range(n)]
        for k, e in enumerate(data["edges"]):
            if not (isinstance(e, list) and len(e) == 3 and all(isinstance(x, int) for x in e[:2]) and 0 <= e[0] < n and 0 <= e[1] < n):
                raise ChainFileError(f"{source}: edge {k} must be [i, j, p] with state indices in 0..{n - 1}")
            P[e[0]][e[1]] = e[2]
    else:
        raise ChainFileError(f"{source}: missing key 'P' (dense matrix) or 'n' and 'edges' (sparse form)")
    conv = lambda x: str(x) if isinstance(x, Decimal) else x
    return ParametricChain([[conv(x) for x in row] for row in P], [conv(x) for x in data["r"]], params=params, labels=labels)


def chain_to_dict(chain: Chain, *, sparse: bool | None = None) -> dict:
    """The chain-file object; sparse when ``sparse`` or (by default) when under 25% dense."""
    if sparse is None:
        sparse = chain.nnz * 4 < chain.n * chain.n
    out: dict[str, Any] = {}
    if sparse:
        out["n"] = chain.n
        out["edges"] = [[i, j, str(q)] for i, j, q in chain.edges()]
    else:
        out["P"] = [[str(q) for q in row] for row in chain.dense()]
    out["r"] = [str(x) for x in chain.r]
    if chain.labels is not None:
        out["labels"] = list(chain.labels)
    return out


def dump(chain: Chain, path: str | os.PathLike, *, sparse: bool | None = None) -> None:
    """Write ``chain`` as a chain file that :func:`load` reads back equal."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(chain_to_dict(chain, sparse=sparse), fh)
        fh.write("\n")
