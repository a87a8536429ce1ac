"""The finite Markov decision process: exact input, validated up front, states with their own actions.

An :class:`MDP` has states ``0..n-1``; state ``s`` has actions ``0..A_s-1`` (``A_s >= 1``, not
necessarily the same number in every state); action ``a`` in state ``s`` moves to ``s'`` with
probability ``P(s'|s,a)`` and earns the reward ``r(s,a)``.  Every entry is an exact rational
(python-flint ``fmpq``); floats are refused unless a conversion is asked for
(``floats="exact"`` or ``limit_denominator=N``, as for chains), and then rows may be repaired
within ``tol`` by the rule of :mod:`exactpte.numbers.from_floats` (``notes`` records it).

Constructors, one per shape people hold an MDP in:

- ``MDP(P, R)``: pymdptoolbox's shapes: ``P[a][s][s']`` (``A x S x S``: nested lists, a numpy
  array, or one scipy sparse matrix per action) and ``R[s][a]`` (``S x A``), ``R[s]`` (a reward per
  state) or ``R[a][s][s']`` (a reward per transition, folded exactly:
  ``r(s,a) = sum_s' P(s'|s,a) R[a][s][s']``);
- :meth:`MDP.from_actions`: per-state action lists, ``P[s][a]`` a row over the states (a list of
  ``S`` numbers, a ``{s': p}`` mapping or ``(s', p)`` pairs) and ``R[s][a]``;
- :meth:`MDP.from_transitions`: sparse ``(s, a, s', p)`` quadruples;
- :meth:`MDP.from_gym`: gymnasium's ``env.unwrapped.P`` tables ``P[s][a] = [(p, s', reward, done), ...]``.

Every row is checked: no negative probability (:class:`~exactpte.errors.NegativeEntryError`), each
``P(.|s,a)`` summing to exactly 1 (:class:`~exactpte.errors.RowSumError`), sizes that agree
(:class:`~exactpte.errors.ShapeError`), each error naming the state and action at fault.

Examples
--------
>>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]])
>>> m.n, m.num_actions, m.row(0, 1), m.reward(1, 1)
(2, (2, 2), ((1, 1),), 2)
>>> MDP([[["1/2", "1/3"], [0, 1]]], [[0], [0]])
Traceback (most recent call last):
...
exactpte.errors.RowSumError: P(.|0, a=0) sums to 5/6, expected exactly 1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import flint

from exactpte.errors import NegativeEntryError, RowSumError, ShapeError, UsageError, brief
from exactpte.model.chain import MarkovRewardProcess
from exactpte.numbers.arrays import require_labels
from exactpte.numbers.from_floats import Converter, ImportReport, RowRepair, require_repair, require_tol, repair_row
from exactpte.numbers.scalars import FloatPolicy, as_int, is_bool, numpy_if_loaded

__all__ = ["MDP", "Row", "require_policy"]

Row = tuple[tuple[int, flint.fmpq], ...]
"""One action's transition row: ``((s', P(s'|s,a)), ...)`` over its support, ``s'`` increasing."""

_ZERO = flint.fmpq(0)


class _Reader:
    """Converts raw entries under one float policy and repair rule, and validates action rows."""

    def __init__(self, n: int, floats: str, limit_denominator: int | None, repair: str | None, tol: Any) -> None:
        self.n = n
        self.convert = Converter(FloatPolicy(floats, limit_denominator))
        self.repair = require_repair(repair)
        self.tol = require_tol(tol)
        self.repairs: list[RowRepair] = []
        self.cache: dict[str, flint.fmpq] = {}  # a file repeats a few probability texts: each parsed once

    def number(self, x: Any, template: str, *args: Any) -> flint.fmpq:
        """One entry, exactly; ``template.format(*args)`` names it in an error (formatted only when needed)."""
        if type(x) is int:
            return flint.fmpq(x)
        if isinstance(x, str):
            q = self.cache.get(x)
            if q is None:
                q = self.cache[x] = self.convert(x, template.format(*args))
            return q
        return self.convert(x, template.format(*args))

    def row(self, pairs: Iterable[tuple[Any, Any]], s: int, a: int) -> Row:
        """``P(.|s,a)`` from raw ``(s', p)`` pairs: indices checked, entries converted, repeats refused,
        the row repaired by the rule (or required to sum to exactly 1)."""
        entries: dict[int, flint.fmpq] = {}
        for j, x in pairs:
            t = _state(j, self.n, lambda: f"P(.|{s}, a={a})")
            if type(x) is int and x == 0:
                continue
            q = self.number(x, "P({}|{}, a={})", t, s, a)
            if t in entries:
                raise ShapeError(f"P({t}|{s}, a={a}) is given twice")
            entries[t] = q
        return self.checked(sorted(entries.items()), s, a)

    def dense_row(self, entries: Sequence[Any], s: int, a: int) -> Row:
        """``P(.|s,a)`` from ``n`` raw entries (exact integer zeros skipped without a conversion)."""
        pairs = [(j, self.number(x, "P({}|{}, a={})", j, s, a)) for j, x in enumerate(entries)
                 if not (type(x) is int and x == 0)]
        return self.checked(pairs, s, a)

    def checked(self, pairs: list[tuple[int, flint.fmpq]], s: int, a: int) -> Row:
        name = f"P(.|{s}, a={a})"
        if self.repair is None:
            total = _ZERO
            kept = []
            for j, q in pairs:
                if q < 0:
                    raise NegativeEntryError(f"P({j}|{s}, a={a}) is {brief(q)}, expected a probability >= 0")
                if q != 0:
                    kept.append((j, q))
                    total += q
            if total != 1:
                raise RowSumError(f"{name} sums to {brief(total)}, expected exactly 1" + (
                    " (the entries are converted floats: repair='largest' repairs rows within tol and reports the change)"
                    if self.convert.floats else ""))
            return tuple(kept)
        fixed, rp = repair_row(pairs, self.repair, self.tol, row=s, name=name, entry=f"P({{j}}|{s}, a={a})")
        if rp is not None:
            self.repairs.append(rp)
        return tuple(fixed)

    def notes(self) -> tuple[str, ...]:
        report = ImportReport(self.convert.rule(), self.repair, self.tol, tuple(self.repairs), self.convert.max_change,
                              tuple(self.convert.zeroed))
        return tuple(n.replace(" row", " action row").replace("(row ", "(state ") for n in report.notes())


def _state(j: Any, n: int, where: Callable[[], str]) -> int:
    """A successor index in ``0..n-1`` (ints, numpy integers; bools refused)."""
    i = as_int(j)
    if i is None:
        raise ShapeError(f"{where()}: successor {brief(j, quoted=True)} is not a state index")
    if not 0 <= i < n:
        raise ShapeError(f"{where()}: successor {i} is outside 0..{n - 1}")
    return i


def _listed(x: Any, what: str) -> list[Any]:
    """``x`` as a list (numpy arrays included); strings, mappings and scalars refused."""
    np = numpy_if_loaded()
    if np is not None and isinstance(x, np.ndarray):
        return list(x) if x.ndim else _refuse_list(x, what)
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        return _refuse_list(x, what)
    return list(x)


def _refuse_list(x: Any, what: str) -> list[Any]:
    raise ShapeError(f"{what} must be a sequence, got {type(x).__name__}")


def _depth(x: Any) -> int:
    """How many list levels ``x`` has along its first entries (0 for a scalar)."""
    np = numpy_if_loaded()
    if np is not None and isinstance(x, np.ndarray):
        return int(x.ndim)
    d = 0
    while isinstance(x, (list, tuple)) and x:
        d, x = d + 1, x[0]
    return d + (1 if isinstance(x, (list, tuple)) else 0)


def _dense_pairs(row: Any, n: int, what: str) -> Iterable[tuple[int, Any]]:
    """A row of ``n`` raw entries as ``(column, entry)`` pairs (a scipy sparse row: its nonzeros)."""
    if hasattr(row, "tocoo") and not isinstance(row, (list, tuple)):
        coo = row.tocoo()
        if coo.shape[-1] != n:
            raise ShapeError(f"{what} has {coo.shape[-1]} entries, expected {n} (one per state)")
        return zip(coo.col.tolist(), coo.data.tolist())
    entries = _listed(row.tolist() if hasattr(row, "tolist") else row, what)
    if len(entries) != n:
        raise ShapeError(f"{what} has {len(entries)} entries, expected {n} (one per state)")
    return enumerate(entries)


def _row_pairs(row: Any, n: int, what: str) -> Iterable[tuple[Any, Any]]:
    """One action's row in any per-state form: ``{s': p}``, ``[(s', p), ...]`` pairs, or ``n`` numbers."""
    if isinstance(row, Mapping):
        return row.items()
    if hasattr(row, "tocoo"):
        return _dense_pairs(row, n, what)
    items = _listed(row.tolist() if hasattr(row, "tolist") else row, what)
    if items and isinstance(items[0], (list, tuple)):  # (s', p) pairs: a dense row holds numbers, never lists
        pairs = []
        for k, x in enumerate(items):
            if not isinstance(x, (list, tuple)) or len(x) != 2:
                raise ShapeError(f"{what}[{k}] is {brief(x, quoted=True)}, expected a pair (next state, probability)")
            pairs.append((x[0], x[1]))
        return pairs
    return _dense_pairs(items, n, what)


class MDP:
    """A finite Markov decision process with exact rational entries (see the module docstring).

    Parameters
    ----------
    P : array-like, ``A x S x S``
        ``P[a][s][s']``, the probability of ``s -> s'`` under action ``a`` (pymdptoolbox's layout):
        nested lists of exact numbers (ints, ``Fraction``, strings such as ``"3/7"``), a numpy array,
        or a sequence of scipy sparse matrices.  Each ``P[a]`` row must sum to exactly 1.
    R : array-like
        ``R[s][a]`` (``S x A``), ``R[s]`` (one reward per state, every action) or ``R[a][s][s']``
        (``A x S x S``, folded exactly into ``r(s,a)``).
    labels : sequence of str, optional
        State names, unique, one per state.
    floats, limit_denominator, repair, tol
        Floats are refused unless ``floats="exact"`` or ``limit_denominator=N`` asks for a conversion;
        ``repair="largest"`` (or ``"proportional"``) then repairs rows within ``tol`` of 1.

    Raises
    ------
    InvalidChainError
        :class:`~exactpte.errors.ShapeError` (sizes disagree), :class:`~exactpte.errors.EntryError` /
        :class:`~exactpte.errors.FloatEntryError` (an entry that is no exact number),
        :class:`~exactpte.errors.NegativeEntryError`, :class:`~exactpte.errors.RowSumError`,
        :class:`~exactpte.errors.LabelError`.

    Examples
    --------
    >>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]], labels=["x", "y"])
    >>> m.chain([1, 0]).row(0), m.chain([1, 0]).r
    (((1, 1),), (0, 0))
    """

    __slots__ = ("n", "_rows", "_rewards", "labels", "notes", "discount", "__dict__")
    n: int
    _rows: tuple[tuple[Row, ...], ...]
    _rewards: tuple[tuple[flint.fmpq, ...], ...]
    labels: tuple[str, ...] | None
    notes: tuple[str, ...]
    discount: flint.fmpq | None
    """A discount that came with the model (an MDP file's ``"discount"``), or ``None``; solving does not read it."""

    def __init__(self, P: Any, R: Any, *, labels: Sequence[str] | None = None, floats: str = "refuse",
                 limit_denominator: int | None = None, repair: str | None = None, tol: Any = 1e-9) -> None:
        mats = _listed(P, "P (one S x S matrix per action)")
        if not mats:
            raise ShapeError("P has no actions (expected A x S x S: one S x S matrix per action)")
        n = _matrix_size(mats[0], "P[0]")
        reader = _Reader(n, floats, limit_denominator, repair, tol)
        rows = _rows_by_action(mats, n, reader)
        rewards = _fold_rewards(R, rows, reader, [len(mats)] * n)
        self._set(rows, rewards, labels, reader.notes())

    def _set(self, rows: Sequence[Sequence[Row]], rewards: Sequence[Sequence[flint.fmpq]], labels: Sequence[str] | None,
             notes: tuple[str, ...]) -> None:
        self.n = len(rows)
        self._rows = tuple(tuple(acts) for acts in rows)
        self._rewards = tuple(tuple(r) for r in rewards)
        self.labels = require_labels(labels, self.n)
        self.notes = notes
        self.discount = None

    # -- other constructors --------------------------------------------------------------------------
    @classmethod
    def from_actions(cls, P: Any, R: Any, *, labels: Sequence[str] | None = None, floats: str = "refuse",
                     limit_denominator: int | None = None, repair: str | None = None, tol: Any = 1e-9) -> "MDP":
        """Per-state action lists: ``P[s][a]`` is the row of action ``a`` in state ``s`` (``S`` numbers, a
        ``{s': p}`` mapping, or ``(s', p)`` pairs), ``R[s][a]`` its reward (or ``R[s]`` one reward per
        state); states may have different numbers of actions.

        Examples
        --------
        >>> m = MDP.from_actions([[{0: 1}, {1: "1/2", 0: "1/2"}], [[0, 1]]], [[0, 1], [2]])
        >>> m.num_actions, m.row(0, 1), m.reward(1, 0)
        ((2, 1), ((0, 1/2), (1, 1/2)), 2)
        """
        states = _listed(P, "P (one list of actions per state)")
        if not states:
            raise ShapeError("the MDP has no states")
        n = len(states)
        reader = _Reader(n, floats, limit_denominator, repair, tol)
        rows: list[list[Row]] = []
        for s, acts in enumerate(states):
            actions = _listed(acts, f"P[{s}] (the actions of state {s})")
            if not actions:
                raise ShapeError(f"state {s} has no action (every state needs at least one)")
            rows.append([_read_action(reader, row, n, s, a) for a, row in enumerate(actions)])
        rewards = _state_rewards(R, rows, reader)
        self = cls.__new__(cls)
        self._set(rows, rewards, labels, reader.notes())
        return self

    @classmethod
    def from_transitions(cls, n: int, transitions: Iterable[Sequence[Any]], R: Any, *, labels: Sequence[str] | None = None,
                         floats: str = "refuse", limit_denominator: int | None = None, repair: str | None = None,
                         tol: Any = 1e-9) -> "MDP":
        """Sparse quadruples ``(s, a, s', p)``; state ``s`` has the actions ``0..max a``, each of which must
        appear; ``R[s][a]`` (or ``R[s]``) the rewards.

        Examples
        --------
        >>> m = MDP.from_transitions(2, [(0, 0, 0, 1), (0, 1, 1, 1), (1, 0, 0, "1/2"), (1, 0, 1, "1/2")], [[0, 1], [3]])
        >>> m.num_actions, m.row(1, 0)
        ((2, 1), ((0, 1/2), (1, 1/2)))
        """
        size = as_int(n)
        if size is None or size < 1:
            raise ShapeError(f"n must be a positive number of states, got {brief(n, quoted=True)}")
        pairs: list[dict[int, list[tuple[Any, Any]]]] = [{} for _ in range(size)]
        for k, quad in enumerate(transitions):
            items = _listed(quad, f"transitions[{k}]")
            if len(items) != 4:
                raise ShapeError(f"transitions[{k}] has {len(items)} entries, expected (s, a, s', p)")
            s = _state(items[0], size, lambda: f"transitions[{k}]")
            a = as_int(items[1])
            if a is None or a < 0:
                raise ShapeError(f"transitions[{k}]: action {brief(items[1], quoted=True)} is not an action index (0, 1, ...)")
            pairs[s].setdefault(a, []).append((items[2], items[3]))
        reader = _Reader(size, floats, limit_denominator, repair, tol)
        rows: list[list[Row]] = []
        for s, by_action in enumerate(pairs):
            if not by_action:
                raise ShapeError(f"state {s} has no transition (every state needs at least one action)")
            missing = [a for a in range(max(by_action) + 1) if a not in by_action]
            if missing:
                raise ShapeError(f"state {s} has transitions for action {max(by_action)} but none for action {missing[0]}: "
                                 "actions are numbered 0, 1, ... without gaps")
            rows.append([reader.row(by_action[a], s, a) for a in range(len(by_action))])
        rewards = _state_rewards(R, rows, reader)
        self = cls.__new__(cls)
        self._set(rows, rewards, labels, reader.notes())
        return self

    @classmethod
    def from_gym(cls, P: Any, *, limit_denominator: int | None = 10**6, floats: str = "refuse", repair: str | None = "largest",
                 tol: Any = 1e-9) -> "MDP":
        """gymnasium's tabular model ``env.unwrapped.P`` (or the table itself): ``P[s][a]`` lists
        ``(probability, next_state, reward, terminated)`` outcomes; repeated outcomes are summed and the
        reward of ``(s, a)`` is its expected one-step reward ``sum_k p_k reward_k``.  The floats are
        converted by the stated rule (by default the nearest fraction with denominator at most ``10**6``,
        which recovers gymnasium's ``1/3``, ``1/10``), rows repaired within ``tol``; ``notes`` says so.
        A terminated transition goes where it is listed (FrozenLake's holes list themselves).

        Examples
        --------
        >>> P = {0: {0: [(1/3, 0, 0.0, False), (2/3, 1, 3.0, True)]}, 1: {0: [(1.0, 1, 0.0, True)], 1: [(1.0, 0, 1.0, False)]}}
        >>> m = MDP.from_gym(P)
        >>> m.row(0, 0), m.reward(0, 0), m.num_actions
        (((0, 1/3), (1, 2/3)), 2, (1, 2))
        """
        table = _gym_table(P)
        n = len(table)
        reader = _Reader(n, floats, limit_denominator, repair, tol)
        rows: list[list[Row]] = []
        rewards: list[list[flint.fmpq]] = []
        for s, acts in enumerate(table):
            rows.append([])
            rewards.append([])
            for a, outcomes in enumerate(acts):
                row, reward = _gym_action(outcomes, s, a, reader)
                rows[s].append(row)
                rewards[s].append(reward)
        self = cls.__new__(cls)
        self._set(rows, rewards, None, ("gymnasium model",) + reader.notes())
        return self

    # -- access ----------------------------------------------------------------------------------------
    @property
    def num_actions(self) -> tuple[int, ...]:
        """``A_s`` for every state."""
        return tuple(len(acts) for acts in self._rows)

    @property
    def num_choices(self) -> int:
        """``sum_s A_s``: the number of state-action pairs."""
        return sum(len(acts) for acts in self._rows)

    def row(self, s: int, a: int) -> Row:
        """``P(.|s,a)`` as ``(s', p)`` pairs over its support."""
        return self._rows[s][a]

    def reward(self, s: int, a: int) -> flint.fmpq:
        """``r(s,a)``."""
        return self._rewards[s][a]

    def actions(self, s: int) -> range:
        """The actions of state ``s``: ``range(A_s)``."""
        return range(len(self._rows[s]))

    def label(self, s: int) -> str:
        """The display name of state ``s`` (its index without labels)."""
        return self.labels[s] if self.labels is not None else str(s)

    @cached_property
    def successors(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``successors[s][a]``: the support of ``P(.|s,a)``."""
        return tuple(tuple(tuple(j for j, _ in row) for row in acts) for acts in self._rows)

    @cached_property
    def integer_rows(self) -> tuple[tuple[tuple[tuple[int, ...], tuple[flint.fmpz, ...], flint.fmpz], ...], ...]:
        """Each row over a common denominator: ``(columns, numerators, D)`` with ``P(s'|s,a) = w / D``
        (for fast exact ``P_a x``: integer sums, one division per action)."""
        out = []
        for acts in self._rows:
            out.append(tuple(_integer_row(row) for row in acts))
        return tuple(out)

    def policy(self, policy: Any) -> tuple[int, ...]:
        """``policy`` (one action per state) checked: see :func:`require_policy`."""
        return require_policy(policy, self.num_actions)

    def chain(self, policy: Any) -> MarkovRewardProcess:
        """The Markov reward process of a deterministic stationary policy: ``P_d(s, .) = P(.|s, d(s))``,
        ``r_d(s) = r(s, d(s))`` (exact, labels kept).

        Examples
        --------
        >>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]])
        >>> m.chain([0, 1]).row(1), m.chain([0, 1]).r
        (((0, 1),), (1, 2))
        """
        d = self.policy(policy)
        return MarkovRewardProcess._from_exact_rows([self._rows[s][a] for s, a in enumerate(d)],
                                                    [self._rewards[s][a] for s, a in enumerate(d)], labels=self.labels)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MDP) and self._rows == other._rows and self._rewards == other._rewards

    def __hash__(self) -> int:
        return hash((self._rows, self._rewards))

    def __repr__(self) -> str:
        return f"MDP(n={self.n}, choices={self.num_choices})"


def require_policy(policy: Any, num_actions: Sequence[int]) -> tuple[int, ...]:
    """A deterministic stationary policy as a tuple of actions, one per state, each in ``0..A_s-1``
    (:class:`~exactpte.errors.ShapeError` naming the state otherwise).

    Examples
    --------
    >>> require_policy([1, 0], (2, 2))
    (1, 0)
    >>> require_policy([2, 0], (2, 2))
    Traceback (most recent call last):
    ...
    exactpte.errors.ShapeError: the policy takes action 2 in state 0, which has actions 0..1
    """
    np = numpy_if_loaded()
    if np is not None and isinstance(policy, np.ndarray):
        policy = policy.tolist()
    if isinstance(policy, (str, bytes, Mapping)) or not isinstance(policy, (Sequence, tuple)):
        raise ShapeError(f"a policy is a sequence of actions, one per state, got {type(policy).__name__}")
    if len(policy) != len(num_actions):
        raise ShapeError(f"the policy has {len(policy)} entries, the MDP has {len(num_actions)} states (one action per state)")
    out = []
    for s, a in enumerate(policy):
        i = as_int(a)
        if i is None and not is_bool(a) and isinstance(a, float) and a.is_integer():
            i = int(a)
        if i is None:
            raise ShapeError(f"the policy's entry for state {s} is {brief(a, quoted=True)}, expected an action index")
        if not 0 <= i < num_actions[s]:
            raise ShapeError(f"the policy takes action {i} in state {s}, which has actions 0..{num_actions[s] - 1}")
        out.append(i)
    return tuple(out)


def _integer_row(row: Row) -> tuple[tuple[int, ...], tuple[flint.fmpz, ...], flint.fmpz]:
    den = flint.fmpz(1)
    for _, q in row:
        den = den.lcm(q.q) if den % q.q else den
    return tuple(j for j, _ in row), tuple(q.p * (den // q.q) for _, q in row), den


def _matrix_size(M: Any, what: str) -> int:
    shape = getattr(M, "shape", None)
    if shape is not None and len(shape) == 2:
        if shape[0] != shape[1]:
            raise ShapeError(f"{what} is {shape[0]} x {shape[1]}, expected a square S x S matrix")
        return int(shape[0])
    rows = _listed(M, what)
    if not rows:
        raise ShapeError(f"{what} is empty: the MDP has no states")
    return len(rows)


def _matrix_rows(M: Any, n: int, a: int) -> list[Any]:
    """The ``n`` rows of ``P[a]`` (a scipy sparse matrix: as CSR rows)."""
    if hasattr(M, "tocsr"):
        csr = M.tocsr()
        if csr.shape != (n, n):
            raise ShapeError(f"P[{a}] is {csr.shape[0]} x {csr.shape[1]}, expected {n} x {n} (every action's matrix is S x S)")
        return [csr[s] for s in range(n)]
    rows = _listed(M, f"P[{a}]")
    if len(rows) != n:
        raise ShapeError(f"P[{a}] has {len(rows)} rows, P[0] has {n}: every action's matrix is S x S")
    return rows


def _rows_by_action(mats: list[Any], n: int, reader: _Reader) -> list[list[Row]]:
    """``rows[s][a]`` from ``A x S x S`` matrices."""
    by_action = [_matrix_rows(M, n, a) for a, M in enumerate(mats)]
    return [[_read_dense(reader, by_action[a][s], n, s, a) for a in range(len(mats))] for s in range(n)]


def _read_action(reader: _Reader, row: Any, n: int, s: int, a: int) -> Row:
    """One action's row in a per-state list: ``n`` numbers, a ``{s': p}`` mapping or ``(s', p)`` pairs."""
    if isinstance(row, list) and (not row or not isinstance(row[0], (list, tuple))):
        if len(row) != n:
            raise ShapeError(f"P[{s}][{a}] has {len(row)} entries, expected {n} (one per state)")
        return reader.dense_row(row, s, a)
    return reader.row(_row_pairs(row, n, f"P[{s}][{a}]"), s, a)


def _read_dense(reader: _Reader, row: Any, n: int, s: int, a: int) -> Row:
    """One row of ``P[a]`` (a list of ``n`` entries, a numpy row, a scipy sparse row)."""
    if isinstance(row, list):
        if len(row) != n:
            raise ShapeError(f"P[{a}][{s}] has {len(row)} entries, expected {n} (one per state)")
        return reader.dense_row(row, s, a)
    return reader.row(_dense_pairs(row, n, f"P[{a}][{s}]"), s, a)


def _fold_rewards(R: Any, rows: list[list[Row]], reader: _Reader, counts: list[int]) -> list[list[flint.fmpq]]:
    """``r(s,a)`` from pymdptoolbox's reward shapes: ``S x A``, ``S`` or ``A x S x S`` (folded with ``P``)."""
    n = len(rows)
    A = counts[0]
    depth = _depth(R)
    if depth == 3:
        mats = _listed(R, "R (A x S x S)")
        if len(mats) != A:
            raise ShapeError(f"R has {len(mats)} matrices, P has {A} actions: R[a][s][s'] needs one S x S matrix per action")
        by_action = [_matrix_rows(M, n, a) for a, M in enumerate(mats)]
        out = []
        for s in range(n):
            out.append([_folded(rows[s][a], _dense_rewards(by_action[a][s], n, a, s), reader, s, a) for a in range(A)])
        return out
    return _state_rewards(R, rows, reader)


def _dense_rewards(row: Any, n: int, a: int, s: int) -> dict[int, Any]:
    return dict(_dense_pairs(row, n, f"R[{a}][{s}]"))


def _folded(row: Row, rewards: Mapping[int, Any], reader: _Reader, s: int, a: int) -> flint.fmpq:
    """``sum_s' P(s'|s,a) R[a][s][s']`` exactly (every reward read, even on a transition of probability 0)."""
    total = _ZERO
    values = {j: reader.number(x, "R[{}][{}][{}]", a, s, j) for j, x in rewards.items()}
    for j, q in row:
        total += q * values.get(j, _ZERO)
    return total


def _state_rewards(R: Any, rows: list[list[Row]], reader: _Reader) -> list[list[flint.fmpq]]:
    """``R[s][a]`` (one row per state, one entry per action) or ``R[s]`` (one reward per state)."""
    n = len(rows)
    entries = _listed(R, "R (one row of rewards per state)")
    if len(entries) != n:
        hint = " (pymdptoolbox's R is S x A: one row per state; transpose it)" if entries and all(
            _depth(e) == 1 and len(_listed(e, "R")) == n for e in entries) else ""
        raise ShapeError(f"R has {len(entries)} rows, the MDP has {n} states{hint}")
    out = []
    for s, (acts, rs) in enumerate(zip(rows, entries)):
        if _depth(rs) == 0:
            value = reader.number(rs, "R[{}]", s)
            out.append([value] * len(acts))
            continue
        listed = _listed(rs, f"R[{s}]")
        if len(listed) != len(acts):
            raise ShapeError(f"R[{s}] has {len(listed)} rewards, state {s} has {len(acts)} actions (one reward per action)")
        out.append([reader.number(x, "R[{}][{}]", s, a) for a, x in enumerate(listed)])
    return out


def _gym_table(P: Any) -> list[list[Any]]:
    """A gymnasium ``P`` table (or an environment holding one) as ``table[s][a]`` outcome lists."""
    inner = getattr(P, "unwrapped", None) or P
    P = getattr(inner, "P", P) if not isinstance(P, (Mapping, list, tuple)) else P
    if not isinstance(P, (Mapping, list, tuple)):
        raise UsageError(f"{type(inner).__name__} has no transition table P (gymnasium's tabular toy-text environments "
                         "have one; pass P[s][a] = [(probability, next_state, reward, terminated), ...] yourself)")
    states = _indexed(P, "the states of P")
    if not states:
        raise ShapeError("the MDP has no states")
    return [_indexed(acts, f"the actions of P[{s}]") for s, acts in enumerate(states)]


def _indexed(x: Any, what: str) -> list[Any]:
    """A mapping keyed ``0..k-1`` (ints or their strings: a JSON object) or a list, as a list."""
    if isinstance(x, Mapping):
        keys = {as_int(k) if not isinstance(k, str) else (int(k) if k.isascii() and k.isdigit() else None): k for k in x}
        if None in keys or sorted(k for k in keys if k is not None) != list(range(len(x))):
            raise ShapeError(f"{what} must be numbered 0..{len(x) - 1}, got keys {brief(sorted(map(str, x)))}")
        return [x[keys[i]] for i in range(len(x))]
    out = _listed(x, what)
    if not out:
        raise ShapeError(f"{what} is empty (at least one is needed)")
    return out


def _gym_action(outcomes: Any, s: int, a: int, reader: _Reader) -> tuple[Row, flint.fmpq]:
    """One gymnasium action's outcomes: repeated successors summed, the expected reward."""
    probs: dict[int, flint.fmpq] = {}
    reward = _ZERO
    listed = _listed(outcomes, f"P[{s}][{a}] (a list of (probability, next_state, reward, terminated))")
    if not listed:
        raise ShapeError(f"P[{s}][{a}] has no outcome")
    for k, out in enumerate(listed):
        item = _listed(out, f"P[{s}][{a}][{k}]")
        if len(item) not in (3, 4):
            raise ShapeError(f"P[{s}][{a}][{k}] has {len(item)} entries, expected (probability, next_state, reward, terminated)")
        t = _state(item[1], reader.n, lambda: f"P[{s}][{a}][{k}]")
        p = reader.number(item[0], "P[{}][{}][{}] probability", s, a, k)
        x = reader.number(item[2], "P[{}][{}][{}] reward", s, a, k)
        probs[t] = probs.get(t, _ZERO) + p
        reward += p * x
    return reader.checked(sorted(probs.items()), s, a), reward
