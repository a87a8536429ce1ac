"""The JSON MDP file (``exactpte mdp FILE.json``), read strictly and written exactly.

Four forms, told apart by their keys (``docs/formats.md``, "MDP files"):

- **pymdptoolbox's layout**: ``{"P": A x S x S, "R": S x A}``, ``P[a][s][s']`` the probability of
  ``s -> s'`` under action ``a``; ``R`` may also be ``S`` (a reward per state) or ``A x S x S`` (a reward
  per transition, folded exactly into ``r(s,a) = sum_s' P[a][s][s'] R[a][s][s']``).
- **per-state action lists**: ``{"Q": S x A_s x S, "R": S x A_s}`` (QuantEcon's ``Q[s][a][s']``; states
  may have different numbers of actions); each ``Q[s][a]`` is ``S`` numbers, an object ``{"s'": p}`` or
  ``[[s', p], ...]`` pairs.  ``"P"`` in this per-state layout is read so only when pymdptoolbox's layout
  cannot be meant (its actions lists of different lengths, or ``P[0]`` not square); when both readings
  fit (``A = S``) ``"P"`` is pymdptoolbox's: write ``"Q"``.
- **sparse**: ``{"n": S, "transitions": [[s, a, s', p], ...], "R": S x A_s}``.
- **gymnasium's table**: ``{"P": {"0": {"0": [[p, s', reward, terminated], ...], ...}, ...}}`` (an object:
  rewards in the outcomes, no ``"R"``).

``"r"`` may stand for ``"R"`` (as in chain files); ``"labels"`` (one string per state) and ``"discount"`` (a number in
``(0, 1)``, read exactly: the MDP's discount, kept as ``MDP.discount``; ``exactpte mdp`` solves the discounted
criterion when ``--discount`` asks) are optional.  Numbers
are JSON integers, JSON decimal literals (read as the exact decimal they spell: ``0.1`` is 1/10) or strings
(``"3/7"``, ``"0.25"``); no other key, no key twice, no ``true``/``null``/object where a number goes,
never an ``eval``.

Examples
--------
>>> m = loads_mdp('{"P": [[[1, 0], [0, 1]], [[0, 1], [1, 0]]], "R": [[1, 0], [0, "3/2"]]}')
>>> m.num_actions, m.reward(1, 1)
((2, 2), 3/2)
>>> loads_mdp(dumps_mdp(m)) == m
True
>>> loads_mdp('{"P": [[[1]]], "R": [[1]], "gamma": 0.9}')
Traceback (most recent call last):
...
exactpte.errors.ChainFileError: <string>: unknown key(s) ['gamma']; an MDP file has the keys P, Q, n, transitions, R, r, labels, discount (the discount is the key 'discount', or exactpte mdp's --discount)
"""

from __future__ import annotations

import json
import os
import re
from decimal import Decimal
from typing import IO, Any

from exactpte.errors import ChainFileError, ExactpteError, InvalidChainError
from exactpte.io.common import DECIMAL_NOTE
from exactpte.io.json import _decimal, _json_type, _refuse_constant, integer_literal, unique_keys
from exactpte.mdp.evaluation import require_discount
from exactpte.mdp.model import MDP

__all__ = ["loads_mdp", "mdp_from_dict", "mdp_to_dict", "dumps_mdp", "dump_mdp", "MDP_KEYS"]

MDP_KEYS = ("P", "Q", "n", "transitions", "R", "r", "labels", "discount")
_LONG_DIGITS = re.compile(r"\d{4001}")
"""The keys an MDP file may have."""


def loads_mdp(text: "str | bytes", *, source: str = "<string>") -> MDP:
    """Parse MDP-file text (module docstring).

    Raises
    ------
    ChainFileError
        Not JSON, a repeated or unknown key, a value of the wrong JSON type, a missing key (named).
    InvalidChainError
        Well formed, but not an MDP: sizes that disagree, a negative probability, a row not summing to 1.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ChainFileError(f"{source}: not UTF-8 text (byte offset {e.start})") from None
    if not isinstance(text, str):
        raise ChainFileError(f"{source}: loads_mdp() takes the JSON text, got {type(text).__name__}")
    decimals: list[str] = []

    def decimal(literal: str) -> Decimal:
        decimals.append(literal)
        return _decimal(literal)

    # integers of at most 4,000 digits are Python's own (json's C scanner reads them without a call per number:
    # a dense A x S x S file is mostly zeros); a longer one needs flint's conversion (integer_literal)
    ints = integer_literal if _LONG_DIGITS.search(text) else None
    try:
        data = json.loads(text, parse_float=decimal, parse_int=ints, parse_constant=_refuse_constant,
                          object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{source}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except (ValueError, RecursionError) as e:
        raise ChainFileError(f"{source}: {e if not isinstance(e, RecursionError) else 'nested too deeply'}") from None
    mdp = mdp_from_dict(data, source=source)
    if decimals:
        mdp.notes = mdp.notes + (DECIMAL_NOTE,)
    return mdp


def _numbers(x: Any, where: str, depth: int) -> None:
    """Every leaf of a ``depth``-deep nest of lists is a number (int, decimal, string); an object row
    (``{"s'": p}``) or ``[s', p]`` pairs are allowed at the last level of a per-state row."""
    if depth == 0:
        if not isinstance(x, bool) and isinstance(x, (int, Decimal, str)):
            return
        raise ChainFileError(f"{where} is {_json_type(x)}, expected a number (integer, decimal or a string such as \"3/7\")")
    if not isinstance(x, list):
        raise ChainFileError(f"{where} is {_json_type(x)}, expected a list")
    if depth == 1:
        for k, v in enumerate(x):
            if type(v) is not int:
                _numbers(v, f"{where}[{k}]", 0)
        return
    for k, v in enumerate(x):
        _numbers(v, f"{where}[{k}]", depth - 1)


def _row(x: Any, where: str) -> None:
    """A per-state action row: a list of numbers, an object ``{"s'": p}`` or ``[[s', p], ...]`` pairs."""
    if isinstance(x, dict):
        for k, v in x.items():
            if not (k.isascii() and k.isdigit()):
                raise ChainFileError(f"{where}: the key {k!r:.20} is not a state index")
            _numbers(v, f"{where}[{k!r}]", 0)
        return
    if isinstance(x, list) and x and isinstance(x[0], list):
        for k, pair in enumerate(x):
            if not isinstance(pair, list) or len(pair) != 2 or type(pair[0]) is not int:
                raise ChainFileError(f"{where}[{k}] is {_json_type(pair)}, expected a pair [next state, probability]")
            _numbers(pair[1], f"{where}[{k}][1]", 0)
        return
    _numbers(x, where, 1)


def _rewards(R: Any, where: str) -> None:
    """``R``: a reward per state, a list per state (one per action), or ``A x S x S``."""
    if not isinstance(R, list):
        raise ChainFileError(f"{where} is {_json_type(R)}, expected a list (S x A: one list of rewards per state)")
    for s, row in enumerate(R):
        if isinstance(row, list):
            for a, v in enumerate(row):
                if isinstance(v, list):
                    _numbers(v, f"{where}[{s}][{a}]", 1)
                else:
                    _numbers(v, f"{where}[{s}][{a}]", 0)
        else:
            _numbers(row, f"{where}[{s}]", 0)


def _per_state(P: list[Any]) -> bool:
    """Whether ``"P"`` can only be read in the per-state layout: lists of actions of different lengths, rows
    given as objects or pairs, or ``P[0]`` not square (pymdptoolbox's ``A x S x S`` has ``len(P[a][s]) = len(P[a])``)."""
    if not all(isinstance(x, list) for x in P):
        return False  # (the shape check names the entry)
    if len({len(x) for x in P}) > 1:
        return True
    first = P[0]
    row = first[0] if first else None
    if isinstance(row, dict) or (isinstance(row, list) and row and isinstance(row[0], list)):
        return True
    return isinstance(row, list) and len(row) != len(first)


def mdp_from_dict(data: Any, *, source: str = "<dict>") -> MDP:
    """Build an MDP from the decoded JSON object, checking the format's rules first."""
    if not isinstance(data, dict):
        raise ChainFileError(f"{source}: the top level must be a JSON object with keys 'P' and 'R' (or 'Q' and 'R', "
                             "or 'n', 'transitions' and 'R')")
    unknown = sorted(k for k in data if k not in MDP_KEYS)
    if unknown:
        raise ChainFileError(f"{source}: unknown key(s) {unknown}; an MDP file has the keys {', '.join(MDP_KEYS)}"
                             + (" (the discount is the key 'discount', or exactpte mdp's --discount)"
                                if {"gamma", "beta"} & set(unknown) else ""))
    if ("n" in data) != ("transitions" in data):
        raise ChainFileError(f"{source}: 'n' and 'transitions' go together (the sparse form)")
    forms = [k for k in ("P", "Q", "transitions") if k in data]
    if len(forms) != 1:
        raise ChainFileError(f"{source}: " + ("give one of 'P' (A x S x S), 'Q' (per-state action lists) or 'n' and "
                                              "'transitions', not " + " and ".join(map(repr, forms)) if forms else
                                              "missing key 'P' (A x S x S), 'Q' (per-state action lists) or 'transitions'"))
    if "R" in data and "r" in data:
        raise ChainFileError(f"{source}: give the rewards once, as 'R' or as 'r'")
    labels = data.get("labels")
    if labels is not None and (not isinstance(labels, list) or not all(isinstance(x, str) for x in labels)):
        raise ChainFileError(f"{source}: 'labels' must be a list of strings, one per state")
    gym = isinstance(data.get("P"), dict)
    reward_key = "R" if "R" in data else "r"
    if gym:
        if reward_key in data:
            raise ChainFileError(f"{source}: a gymnasium table ('P' as an object) holds its rewards in its outcomes: no '{reward_key}'")
    elif reward_key not in data:
        raise ChainFileError(f"{source}: missing key 'R' (the rewards: S x A, one list per state)")
    try:
        mdp = _build(data, forms[0], gym, reward_key, source)
    except InvalidChainError as e:
        raise type(e)(f"{source}: {e}") from None
    if labels is not None:
        from exactpte.numbers.arrays import require_labels

        mdp.labels = require_labels(labels, mdp.n)
    if "discount" in data:
        _numbers(data["discount"], f"{source}: 'discount'", 0)
        try:
            mdp.discount = require_discount(data["discount"])
        except ExactpteError as e:
            raise ChainFileError(f"{source}: 'discount': {e}") from None
    return mdp


def _build(data: dict[str, Any], form: str, gym: bool, reward_key: str, source: str) -> MDP:
    if gym:
        return _gym(data["P"], source)
    R = data[reward_key]
    _rewards(R, f"{source}: '{reward_key}'")
    if form == "transitions":
        n = data["n"]
        if type(n) is not int or n < 1:
            raise ChainFileError(f"{source}: 'n' is {_json_type(n)}, expected a positive integer (the number of states)")
        quads = data["transitions"]
        if not isinstance(quads, list):
            raise ChainFileError(f"{source}: 'transitions' is {_json_type(quads)}, expected a list of [s, a, s', p]")
        for k, q in enumerate(quads):
            if not isinstance(q, list) or len(q) != 4 or any(type(v) is not int for v in q[:3]):
                raise ChainFileError(f"{source}: transitions[{k}] is {_json_type(q)}, expected [s, a, s', p] (three integers, a number)")
            _numbers(q[3], f"{source}: transitions[{k}][3]", 0)
        return MDP.from_transitions(n, quads, R)
    P = data[form]
    if not isinstance(P, list) or not P:
        raise ChainFileError(f"{source}: '{form}' is {_json_type(P)}, expected a non-empty list")
    if form == "Q" or _per_state(P):
        for s, acts in enumerate(P):
            if not isinstance(acts, list) or not acts:
                raise ChainFileError(f"{source}: {form}[{s}] is {_json_type(acts)}, expected a non-empty list of actions")
            for a, row in enumerate(acts):
                _row(row, f"{source}: {form}[{s}][{a}]")
        rows = [[{int(k): v for k, v in row.items()} if isinstance(row, dict) else row for row in acts] for acts in P]
        return MDP.from_actions(rows, R)
    _numbers(P, f"{source}: P", 3)
    return MDP(P, R)


def _gym(P: dict[str, Any], source: str) -> MDP:
    for s, acts in P.items():
        if not isinstance(acts, dict):
            raise ChainFileError(f"{source}: P[{s!r}] is {_json_type(acts)}, expected an object action -> outcomes")
        for a, outs in acts.items():
            if not isinstance(outs, list):
                raise ChainFileError(f"{source}: P[{s!r}][{a!r}] is {_json_type(outs)}, expected a list of outcomes")
            for k, o in enumerate(outs):
                if not isinstance(o, list) or len(o) not in (3, 4) or type(o[1]) is not int:
                    raise ChainFileError(f"{source}: P[{s!r}][{a!r}][{k}] is {_json_type(o)}, expected "
                                         "[probability, next_state, reward, terminated]")
                _numbers(o[0], f"{source}: P[{s!r}][{a!r}][{k}][0]", 0)
                _numbers(o[2], f"{source}: P[{s!r}][{a!r}][{k}][2]", 0)
    return MDP.from_gym(P, limit_denominator=None, repair=None)


def mdp_to_dict(mdp: MDP, *, sparse: bool | None = None) -> dict[str, Any]:
    """The MDP-file object: per-state ``"Q"`` rows as ``[[s', p], ...]`` pairs when ``sparse`` (by default
    when under 25% dense), else the per-state dense rows; ``"R"`` per state and action; ``"labels"``.

    Examples
    --------
    >>> m = MDP.from_actions([[[1, 0]], [[0, 1], [1, 0]]], [[0], [1, 2]])
    >>> mdp_to_dict(m, sparse=True)
    {'Q': [[[[0, '1']]], [[[1, '1']], [[0, '1']]]], 'R': [['0'], ['1', '2']]}
    """
    nnz = sum(len(mdp.row(s, a)) for s in range(mdp.n) for a in mdp.actions(s))
    if sparse is None:
        sparse = nnz * 4 < mdp.num_choices * mdp.n
    Q: list[list[Any]] = []
    for s in range(mdp.n):
        acts: list[Any] = []
        for a in mdp.actions(s):
            if sparse:
                acts.append([[j, str(q)] for j, q in mdp.row(s, a)])
            else:
                dense = ["0"] * mdp.n
                for j, q in mdp.row(s, a):
                    dense[j] = str(q)
                acts.append(dense)
        Q.append(acts)
    out: dict[str, Any] = {"Q": Q, "R": [[str(mdp.reward(s, a)) for a in mdp.actions(s)] for s in range(mdp.n)]}
    if mdp.labels is not None:
        out["labels"] = list(mdp.labels)
    if mdp.discount is not None:
        out["discount"] = str(mdp.discount)
    return out


def dumps_mdp(mdp: MDP, *, sparse: bool | None = None) -> str:
    """The text :func:`dump_mdp` writes (one line of JSON and a newline)."""
    return json.dumps(mdp_to_dict(mdp, sparse=sparse)) + "\n"


def dump_mdp(mdp: MDP, path: "str | os.PathLike[str] | IO[str]", *, sparse: bool | None = None) -> None:
    """Write ``mdp`` as an MDP file that :func:`~exactpte.io.load_mdp` reads back equal (a path or a text file object)."""
    text = dumps_mdp(mdp, sparse=sparse)
    if hasattr(path, "write"):
        path.write(text)
        return
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
