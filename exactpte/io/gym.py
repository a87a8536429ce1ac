"""Gymnasium's tabular environments as exact Markov reward processes.

gymnasium's toy-text environments (FrozenLake, CliffWalking, Taxi) expose their model as
``env.unwrapped.P``: ``P[s][a]`` is a list of ``(probability, next_state, reward, terminated)``
tuples, probabilities as floats (``1/3`` rounded), some transitions listed twice (FrozenLake).
:func:`from_gym` turns that dictionary and a policy into an exact
:class:`~exactpte.MarkovRewardProcess` with the reward of a state its expected one-step reward,

    ``P(s'|s) = sum_a pi(a|s) P(s'|s,a)``,  ``r(s) = sum_a pi(a|s) sum_k p_k reward_k``,

using the rule of :mod:`exactpte.numbers.from_floats`: each float converted (by default to the nearest
fraction with denominator at most ``10**6``, which recovers gymnasium's ``1/3``, ``1/10`` and
``1/300`` exactly), repeated listings summed, each ``P[s][a]`` row (and policy row) repaired
within ``tol`` by the ``"largest"`` rule; ``notes`` records all of it.

gymnasium itself is not needed: a dictionary of that form works as it is (the optional extra
``gym`` installs gymnasium for ``from_gym(env)``).  Blackjack has no ``P`` (its state space is
not tabulated) and is refused by name.

What a terminated transition does (``on_done``):

- ``"keep"`` (default): nothing; the next state is the one listed (FrozenLake's holes and goal,
  CliffWalking's goal, list themselves with reward 0, so they are absorbing).
- ``"absorb"``: it goes to one extra state ``n`` (label ``"done"``), absorbing with reward 0.
- ``"reset"``: it goes to the initial-state distribution, so the task becomes a continuing one
  (the gain is the reward per step of the repeated episodes).  The distribution is ``initial=``
  (a state, or probabilities), else the environment's ``initial_state_distrib`` (FrozenLake:
  the start cell; CliffWalking: state 36; Taxi: uniform over the 300 states with the
  passenger away from the destination).

Examples
--------
>>> P = {0: {0: [(0.5, 0, 0.0, False), (0.5, 1, 1.0, False)], 1: [(1.0, 1, 0.0, False)]},
...      1: {0: [(1/3, 0, 2.0, False), (1/3, 1, 0.0, True), (1/3, 1, 0.0, True)], 1: [(1.0, 1, 0.0, True)]}}
>>> m = from_gym(P, "uniform")
>>> m.row(0), m.row(1), [str(x) for x in m.r]
(((0, 1/4), (1, 3/4)), ((0, 1/6), (1, 5/6)), ['1/4', '1/3'])
>>> m = from_gym(P, [0, 1], on_done="reset", initial=0)
>>> m.row(1), m.notes[0]
(((0, 1),), 'gymnasium model: policy given per state; terminated transitions go to the initial-state distribution')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flint
import numpy as np

from exactpte.numbers.scalars import FloatPolicy, as_int
from exactpte.errors import NegativeEntryError, ShapeError, UsageError, brief
from exactpte.numbers.from_floats import Converter, ImportReport, RowRepair, require_tol, repair_row

if TYPE_CHECKING:  # pragma: no cover
    from exactpte.model.chain import MarkovRewardProcess

__all__ = ["from_gym", "transition_table", "initial_distribution", "ON_DONE"]

ON_DONE = ("keep", "absorb", "reset")
"""What a terminated transition does: nothing, go to an absorbing state, go to the initial distribution."""

_RESET = -1  # the target key of "back to the initial distribution" in a row before it is expanded


def transition_table(env_or_P: Any) -> Mapping[Any, Any] | Sequence[Any]:
    """``env.unwrapped.P`` of a gymnasium environment (or the table itself when given one);
    a :class:`~exactpte.errors.UsageError` for an environment without one (Blackjack)."""
    if isinstance(env_or_P, (Mapping, list, tuple)):
        return env_or_P
    inner = getattr(env_or_P, "unwrapped", None) or env_or_P
    P = getattr(inner, "P", None)
    if not isinstance(P, (Mapping, list, tuple)):
        name = getattr(getattr(env_or_P, "spec", None), "id", None) or type(inner).__name__
        raise UsageError(f"{name} has no transition table env.unwrapped.P (only gymnasium's tabular toy-text "
                         f"environments have one: FrozenLake, CliffWalking, Taxi; Blackjack does not); "
                         f"pass P[s][a] = [(probability, next_state, reward, terminated), ...] yourself")
    return P


def _index_key(k: Any) -> int:
    i = as_int(k)
    return -1 if i is None else i


def _states(P: Any) -> list[Any]:
    """The rows of the table, checked to be the states ``0..n-1``."""
    if isinstance(P, Mapping):
        keys = sorted(P, key=_index_key)
        ints = [as_int(k) for k in keys]
        if ints != list(range(len(P))):
            raise ShapeError(f"the states of P must be 0..{len(P) - 1}, got keys {brief(keys[:8], 80, quoted=True)}")
        return [P[k] for k in keys]
    return list(P)


def _actions(table: Any, s: int) -> list[Any]:
    """State ``s``'s actions ``0..A-1`` (a mapping or a list), each a list of outcomes."""
    if isinstance(table, Mapping):
        keys = sorted(table, key=_index_key)
        if [as_int(k) for k in keys] != list(range(len(table))) or not keys:
            raise ShapeError(f"the actions of P[{s}] must be 0..A-1 (at least one), got keys {brief(keys[:8], 80, quoted=True)}")
        return [table[k] for k in keys]
    if isinstance(table, (list, tuple)) and table:
        return list(table)
    raise ShapeError(f"P[{s}] must map each action to its outcomes, got {type(table).__name__}")


def initial_distribution(env_or_P: Any, initial: Any, n: int, convert: Callable[[Any, str], flint.fmpq],
                         tol: flint.fmpq, repairs: list[RowRepair]) -> list[tuple[int, flint.fmpq]]:
    """The initial-state distribution as exact ``(state, probability)`` pairs: ``initial`` (a state
    index, a sequence of ``n`` probabilities or a mapping state -> probability), else the
    environment's ``initial_state_distrib``; repaired by the ``"largest"`` rule within ``tol``."""
    if initial is None:
        initial = getattr(getattr(env_or_P, "unwrapped", None) or env_or_P, "initial_state_distrib", None)
        if initial is None:
            raise UsageError('on_done="reset" needs the initial-state distribution: pass initial=STATE or '
                             'initial=[p_0, ..., p_n-1] (the environment has no initial_state_distrib)')
    s0 = as_int(initial)
    if s0 is not None:
        if not 0 <= s0 < n:
            raise ShapeError(f"initial state {s0} is outside 0..{n - 1}")
        return [(s0, flint.fmpq(1))]
    items = initial.items() if isinstance(initial, Mapping) else enumerate(list(initial))
    return _distribution(items, n, convert, tol, repairs, row=0, name="the initial distribution", entry="initial[{j}]",
                         bad=lambda k: f"initial has state {brief(k, 30, quoted=True)}, expected a state in 0..{n - 1}")


def _policy_row(policy: Any, s: int, A: int, convert: Callable[[Any, str], flint.fmpq], tol: flint.fmpq,
                repairs: list[RowRepair]) -> list[tuple[int, flint.fmpq]]:
    """``pi(.|s)`` as exact ``(action, probability)`` pairs."""
    if isinstance(policy, str):
        if policy != "uniform":
            raise UsageError(f"policy must be 'uniform', a sequence or mapping over states, or a callable, got {policy!r}")
        return [(a, flint.fmpq(1, A)) for a in range(A)]
    if callable(policy):
        choice = policy(s)
    else:
        try:
            choice = policy[s]
        except (KeyError, IndexError, TypeError):
            raise ShapeError(f"the policy has no entry for state {s}") from None
    a = as_int(choice)
    if a is not None:
        if not 0 <= a < A:
            raise ShapeError(f"the policy takes action {a} in state {s}, which has actions 0..{A - 1}")
        return [(a, flint.fmpq(1))]
    if isinstance(choice, Mapping):
        items = list(choice.items())
    elif isinstance(choice, (Sequence, np.ndarray)) and not isinstance(choice, (str, bytes)):
        items = list(enumerate(list(choice)))
        if len(items) != A:
            raise ShapeError(f"policy[{s}] has {len(items)} probabilities, state {s} has {A} actions")
    else:
        raise ShapeError(f"policy[{s}] is {brief(choice, 40, quoted=True)}; expected an action (int) or probabilities over the actions")
    return _distribution(items, A, convert, tol, repairs, row=s, name=f"policy[{s}]", entry=f"policy[{s}][{{j}}]",
                         bad=lambda k: f"policy[{s}] names action {brief(k, 30, quoted=True)}; state {s} has actions 0..{A - 1}")


def _distribution(items: Any, size: int, convert: Callable[[Any, str], flint.fmpq], tol: flint.fmpq, repairs: list[RowRepair], *,
                  row: int, name: str, entry: str, bad: Callable[[Any], str]) -> list[tuple[int, flint.fmpq]]:
    """``(index, probability)`` pairs over ``0..size-1`` as an exact distribution: repeated indices add up,
    an index out of range is ``ShapeError(bad(index))``, entries are named ``entry.format(j=index)``, and the
    row is repaired by the ``"largest"`` rule within ``tol`` (the repair recorded in ``repairs``)."""
    pairs: dict[int, flint.fmpq] = {}
    for k, p in items:
        j = as_int(k)
        if j is None or not 0 <= j < size:
            raise ShapeError(bad(k))
        pairs[j] = pairs.get(j, flint.fmpq(0)) + convert(p, entry.format(j=j))
    fixed, rp = repair_row(sorted(pairs.items()), "largest", tol, row=row, name=name, entry=entry)
    if rp is not None:
        repairs.append(rp)
    return fixed


def _action_row(outcomes: Any, s: int, a: int, n: int, on_done: str, convert: Callable[[Any, str], flint.fmpq],
                repair: str | None, tol: flint.fmpq, repairs: list[RowRepair], summed: list[int]
                ) -> tuple[dict[int, flint.fmpq], flint.fmpq]:
    """``P(.|s, a)`` as exact target -> probability (terminated targets mapped by ``on_done``;
    ``_RESET`` for the initial distribution) and the expected reward ``r(s, a)``."""
    if isinstance(outcomes, (str, bytes, Mapping)) or not isinstance(outcomes, (Sequence, np.ndarray)) or not len(outcomes):
        raise ShapeError(f"P[{s}][{a}] must be a non-empty list of (probability, next_state, reward, terminated) tuples")
    mass: dict[int, flint.fmpq] = {}
    reward_mass: dict[int, flint.fmpq] = {}
    for k, outcome in enumerate(outcomes):
        where = f"P[{s}][{a}][{k}]"
        if not isinstance(outcome, (tuple, list)) or len(outcome) != 4:
            raise ShapeError(f"{where} is {brief(outcome, 60, quoted=True)}, expected (probability, next_state, reward, terminated)")
        p, nxt, rew, done = outcome
        j = as_int(nxt)
        if j is None or not 0 <= j < n:
            raise ShapeError(f"{where} goes to {brief(nxt, 30, quoted=True)}, expected a state in 0..{n - 1}")
        if bool(done) and on_done != "keep":
            j = n if on_done == "absorb" else _RESET
        q = convert(p, f"{where} probability")
        if q < 0:  # (before summing: a negative listing must not hide in a sum)
            raise NegativeEntryError(f"{where} probability is {q}, expected a probability >= 0")
        if j in mass:
            summed[0] += 1
        mass[j] = mass.get(j, flint.fmpq(0)) + q
        reward_mass[j] = reward_mass.get(j, flint.fmpq(0)) + q * convert(rew, f"{where} reward")
    fixed, rp = repair_row(sorted(mass.items()), repair, tol, row=s, name=f"P[{s}][{a}]", entry=f"P[{s}][{a}] to state {{j}}")
    if rp is not None:
        repairs.append(rp)
    # a target's reward is the probability-weighted mean of its listings' rewards (kept under a repair)
    r = sum((w * reward_mass[j] / mass[j] for j, w in fixed), flint.fmpq(0))
    return dict(fixed), r


def from_gym(
    env_or_P: Any,
    policy: Any = "uniform",
    *,
    on_done: str = "keep",
    initial: Any = None,
    limit_denominator: int | None = 10**6,
    repair: str | None = "largest",
    tol: Any = 1e-9,
    labels: Sequence[str] | None = None,
) -> "MarkovRewardProcess":
    """The exact chain a policy induces on a gymnasium tabular environment (module docstring).

    Parameters
    ----------
    env_or_P :
        A gymnasium environment with ``env.unwrapped.P`` (``gymnasium.make("FrozenLake-v1")``),
        or such a table itself: ``P[s][a] = [(probability, next_state, reward, terminated), ...]``
        (a dict or list over states ``0..n-1``, each a dict or list over actions ``0..A-1``).
    policy :
        ``"uniform"`` (every action of a state equally likely, exactly), a sequence/array or a
        mapping over states, or a callable ``state -> choice``; a choice is an action (an int,
        numpy integers included) or probabilities over the actions (a sequence of ``A`` numbers
        or a mapping action -> probability; floats converted and repaired like ``P``).
    on_done : {"keep", "absorb", "reset"}
        What a terminated transition does (module docstring).
    initial :
        The initial-state distribution for ``on_done="reset"``: a state, or probabilities.
    limit_denominator, repair, tol :
        The float-import rule (:mod:`exactpte.numbers.from_floats`); ``limit_denominator=None`` reads
        floats as their exact binary values.
    labels : sequence of str, optional
        One label per state of ``P`` (``"done"`` is appended for ``on_done="absorb"``).

    Returns
    -------
    MarkovRewardProcess
        ``notes`` state the policy, ``on_done``, the conversion and every repair.
    """
    from exactpte.model.chain import MarkovRewardProcess

    if on_done not in ON_DONE:
        raise UsageError(f"on_done must be 'keep', 'absorb' or 'reset', got {on_done!r}")
    if repair not in ("largest", "proportional", None):
        raise UsageError(f"repair must be 'largest', 'proportional' or None, got {repair!r}")
    convert = Converter(FloatPolicy("exact", limit_denominator))
    tol_q = require_tol(tol)
    table = _states(transition_table(env_or_P))
    n = len(table)
    if n == 0:
        raise ShapeError("P has no states")
    repairs: list[RowRepair] = []
    summed = [0]
    start = initial_distribution(env_or_P, initial, n, convert, tol_q, repairs) if on_done == "reset" else []
    rows, r = [], []
    for s in range(n):
        actions = _actions(table[s], s)
        row: dict[int, flint.fmpq] = {}
        reward = flint.fmpq(0)
        for a, pi in _policy_row(policy, s, len(actions), convert, tol_q, repairs):
            targets, r_sa = _action_row(actions[a], s, a, n, on_done, convert, repair, tol_q, repairs, summed)
            reward += pi * r_sa
            for j, q in targets.items():
                for jj, w in (start if j == _RESET else [(j, flint.fmpq(1))]):
                    row[jj] = row.get(jj, flint.fmpq(0)) + pi * q * w
        rows.append(sorted(row.items()))
        r.append(reward)
    if on_done == "absorb":
        rows.append([(n, flint.fmpq(1))])
        r.append(flint.fmpq(0))
        if labels is not None:
            labels = list(labels) + ["done"]
    report = ImportReport(convert.rule(), repair, tol_q, tuple(repairs), convert.max_change, tuple(convert.zeroed), summed[0])
    how = "uniform over the actions" if isinstance(policy, str) else "given per state"
    done = {"keep": "terminated transitions kept as listed",
            "absorb": f"terminated transitions go to the absorbing state {n} (reward 0)",
            "reset": "terminated transitions go to the initial-state distribution"}[on_done]
    notes = (f"gymnasium model: policy {how}; {done}",) + report.notes()
    return MarkovRewardProcess._from_exact_rows(rows, r, labels=labels, notes=notes)
