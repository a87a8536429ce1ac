"""The JSON chain-file format (exactpte's own), read strictly and written exactly.

Dense form::

    {"P": [["1/2", "1/2"], [0, 1]], "r": [1, 0], "labels": ["s", "t"]}

Sparse form (``n`` states, one ``[i, j, p]`` triple per nonzero)::

    {"n": 2, "edges": [[0, 0, "1/2"], [0, 1, "1/2"], [1, 1, 1]], "r": [1, 0]}

Numbers are JSON integers, JSON decimal literals (read as the exact decimal they spell:
``0.1`` is 1/10, never a binary float) or strings (``"3/7"``, ``"0.25"``).  Parametric form: add
``"params": ["p", "q"]``; entries may then be expression strings such as ``"1-p"`` (parsed by
:mod:`exactpte.fields.expressions`, never evaluated).  The rules (``docs/formats.md``): exactly
one of ``P`` or ``n`` + ``edges``; ``r`` required; no other keys than ``labels`` and
``params``; no key twice; every value of the documented JSON type.
"""

from __future__ import annotations

import io
import json
import os
from decimal import Decimal
from typing import IO, Any, NoReturn

import flint

from exactpte.numbers.scalars import MAX_DIGITS
from exactpte.model.chain import Chain, MarkovRewardProcess, require_chain
from exactpte.errors import ChainFileError, RowSumError, brief
from exactpte.model.parametric import ParametricChain
from exactpte.io.common import naming, note_decimals

__all__ = ["loads", "from_dict", "chain_to_dict", "dumps", "dump", "unique_keys", "integer_literal", "KEYS"]

KEYS = ("P", "n", "edges", "r", "labels", "params")
"""The keys a chain file may have."""


def loads(text: str, *, source: str = "<string>") -> Chain:
    """Parse chain-file text.

    Raises
    ------
    ChainFileError
        Not JSON, a repeated or unknown key, a value of the wrong JSON type (the message names
        the key and the position).
    InvalidChainError
        The file is well formed but its chain is not a Markov reward process.

    Examples
    --------
    >>> m = loads('{"P": [["1/2", 0.5], [0, 1]], "r": [1, 0]}')
    >>> m.row(0)
    ((0, 1/2), (1, 1/2))
    >>> loads('{"P": [[1]]}')
    Traceback (most recent call last):
    ...
    exactpte.errors.ChainFileError: <string>: missing key 'r' (the reward vector)
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ChainFileError(f"{source}: not UTF-8 text (byte offset {e.start})") from None
    if not isinstance(text, str):
        raise ChainFileError(f"{source}: loads() takes the JSON text, got {type(text).__name__} (a path? use exactpte.load)")
    decimals: list[str] = []  # the JSON number literals with a fraction or an exponent (read exactly)

    def decimal(literal: str) -> Decimal:
        decimals.append(literal)
        return _decimal(literal)

    try:
        data = json.loads(text, parse_float=decimal, parse_int=integer_literal,
                          parse_constant=_refuse_constant, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{source}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except (ValueError, RecursionError) as e:
        raise ChainFileError(f"{source}: {e if not isinstance(e, RecursionError) else 'nested too deeply'}") from None
    if not decimals:
        return from_dict(data, source=source)
    try:
        return note_decimals(from_dict(data, source=source), decimals)
    except RowSumError as e:  # 0.3333333333333333 is not 1/3: say how to bring float rows in
        raise RowSumError(f"{e}; decimals are read exactly (0.1 is 1/10): if the row holds rounded floats, write fractions "
                          "(\"1/3\"), or import float rows under a stated rule with MarkovRewardProcess.from_float") from None


def _decimal(text: str) -> Decimal:
    """A JSON number with a fraction or exponent, exactly (``Decimal`` refuses exponents past its
    range with ``InvalidOperation``, an ``ArithmeticError``: reported like any other bad value)."""
    try:
        return Decimal(text)
    except ArithmeticError:
        raise ValueError(f"the number {text:.40} has an exponent out of any range; write it exactly as a fraction") from None


def integer_literal(text: str) -> int:
    """A JSON integer of any length, exactly: flint converts the digits, so Python's limit on
    ``int(str)`` (4,300 digits, ``sys.set_int_max_str_digits``) does not apply."""
    if len(text) <= 4000:
        return int(text)
    if len(text) > MAX_DIGITS + 1:
        raise ValueError(f"an integer of {len(text)} digits, more than the {MAX_DIGITS} allowed")
    return int(flint.fmpz(text))


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a chain can hold")


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys all differ (``json.load``'s ``object_pairs_hook``): a repeated key,
    whose last value would win unseen, is a ``ValueError`` naming it."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


def _number(x: Any, where: str) -> Any:
    """A JSON value that may stand for a number: int, decimal literal or string."""
    if isinstance(x, bool) or not isinstance(x, (int, Decimal, str)):
        raise ChainFileError(f"{where} is {_json_type(x)}, expected a number (integer, decimal or a string such as \"3/7\")")
    return str(x) if isinstance(x, Decimal) else x


def _json_type(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return f"the boolean {str(x).lower()}"
    if isinstance(x, str):
        return f"the string {brief(x, 40, quoted=True)}"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "an object"
    return f"the number {x}"


def _list(x: Any, where: str, what: str) -> list[Any]:
    if not isinstance(x, list):
        raise ChainFileError(f"{where} is {_json_type(x)}, expected a list ({what})")
    return x


def _integer(x: Any, where: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ChainFileError(f"{where} is {_json_type(x)}, expected an integer")
    return x


def from_dict(data: Any, *, source: str = "<dict>") -> Chain:
    """Build a chain from the decoded JSON object, checking the format's rules first."""
    if not isinstance(data, dict):
        raise ChainFileError(f"{source}: the top level must be a JSON object with keys 'P' (or 'n' and 'edges') and 'r'")
    unknown = sorted(k for k in data if k not in KEYS)
    if unknown:
        raise ChainFileError(f"{source}: unknown key(s) {unknown}; a chain file has the keys {', '.join(KEYS)}")
    if "r" not in data:
        raise ChainFileError(f"{source}: missing key 'r' (the reward vector)")
    if "P" in data and ("n" in data or "edges" in data):
        raise ChainFileError(f"{source}: give either 'P' (dense form) or 'n' and 'edges' (sparse form), not both")
    if "P" not in data and not ("n" in data and "edges" in data):
        if "edges" in data or "n" in data:
            raise ChainFileError(f"{source}: the sparse form needs 'n' (the number of states) and 'edges' together")
        raise ChainFileError(f"{source}: missing key 'P' (dense matrix) or 'n' and 'edges' (sparse form)")
    r = [_number(x, f"{source}: r[{i}]") for i, x in enumerate(_list(data["r"], f"{source}: 'r'", "one reward per state"))]
    labels = None
    if data.get("labels") is not None:
        labels = _list(data["labels"], f"{source}: 'labels'", "one string per state")
        for i, lab in enumerate(labels):
            if not isinstance(lab, str):
                raise ChainFileError(f"{source}: labels[{i}] is {_json_type(lab)}, expected a string")
    if "P" in data:
        rows = _list(data["P"], f"{source}: 'P'", "rows of the transition matrix")
        P = [[_number(x, f"{source}: P[{i}][{j}]") for j, x in enumerate(_list(row, f"{source}: P[{i}]", "a row of numbers"))]
             for i, row in enumerate(rows)]
        edges = None
    else:
        n = _integer(data["n"], f"{source}: 'n'")
        edges = []
        for k, e in enumerate(_list(data["edges"], f"{source}: 'edges'", "[i, j, p] triples")):
            if not isinstance(e, list) or len(e) != 3:
                raise ChainFileError(f"{source}: edges[{k}] is {_json_type(e)}, expected a triple [i, j, p]")
            edges.append((_integer(e[0], f"{source}: edges[{k}][0]"), _integer(e[1], f"{source}: edges[{k}][1]"),
                          _number(e[2], f"{source}: edges[{k}][2]")))
    if "params" in data:
        params = _list(data["params"], f"{source}: 'params'", 'parameter names such as ["p", "q"]')
        if not params or not all(isinstance(p, str) and p.isidentifier() and p.isascii() for p in params):
            raise ChainFileError(f"{source}: 'params' must be a non-empty list of parameter names (ASCII identifiers) "
                                 "such as [\"p\", \"q\"]")
        with naming(source):
            if edges is None:
                return ParametricChain(P, r, params=params, labels=labels)
            return ParametricChain.from_edges(n, edges, r, params=params, labels=labels)
    with naming(source):
        if edges is None:
            return MarkovRewardProcess(P, r, labels=labels)
        return MarkovRewardProcess.from_edges(n, edges, r, labels=labels)


def chain_to_dict(chain: Chain, *, sparse: bool | None = None) -> dict[str, Any]:
    """The chain-file object; sparse when ``sparse`` or (by default) when under 25% dense.

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.example("branching")
    >>> from_dict(chain_to_dict(m)) == m and from_dict(chain_to_dict(m, sparse=True)) == m
    True
    """
    require_chain(chain)
    text = chain.field.to_text
    if sparse is None:
        sparse = chain.nnz * 4 < chain.n * chain.n
    out: dict[str, Any] = {}
    if sparse:
        out["n"] = chain.n
        out["edges"] = [[i, j, text(q)] for i, j, q in chain.edges()]
    else:
        out["P"] = [[text(q) for q in row] for row in chain.dense()]
    out["r"] = [text(x) for x in chain.r]
    if chain.labels is not None:
        out["labels"] = list(chain.labels)
    if chain.field.is_parametric:
        out["params"] = list(chain.field.params)
    return out


def dumps(chain: Chain, *, sparse: bool | None = None) -> str:
    """The text of the chain file :func:`dump` writes (one line of JSON and a newline).

    >>> import exactpte
    >>> loads(dumps(exactpte.example("periodic"))) == exactpte.example("periodic")
    True
    """
    return json.dumps(chain_to_dict(chain, sparse=sparse)) + "\n"


def dump(chain: Chain, path: "str | os.PathLike[str] | IO[Any]", *, sparse: bool | None = None) -> None:
    """Write ``chain`` as a chain file that :func:`~exactpte.io.load` reads back equal.

    ``path`` is a path, or a file object open for writing, text or binary (UTF-8 is written);
    :func:`~exactpte.io.load` reads a file object as JSON unless its name says otherwise.

    Examples
    --------
    >>> import io, exactpte
    >>> buffer = io.StringIO()
    >>> dump(exactpte.example("periodic"), buffer)
    >>> _ = buffer.seek(0)
    >>> exactpte.load(buffer) == exactpte.example("periodic")
    True
    """
    text = dumps(chain, sparse=sparse)
    if hasattr(path, "write"):
        if isinstance(path, io.TextIOBase):
            path.write(text)
            return
        try:
            path.write(text)
        except TypeError:  # a binary file
            path.write(text.encode("utf-8"))
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
