"""Which actions some optimal policy takes: the graph step behind the optimal action sets.

Attaining the maximum in an optimality equation is necessary, not sufficient.  With ``(g*, h)`` a
solution of the two average-reward optimality equations, let ``A1(s) = {a : P_a g* = g*(s)}`` and, for
``a`` in ``A1(s)``, the deficit ``δ(s,a) = g*(s) + h(s) - r(s,a) - P_a h >= 0``; ``A2(s)`` the actions with
``δ = 0``.  Every gain-optimal deterministic policy ``d`` takes ``A1`` actions (``P_d g* = g*``), and for such
a ``d``

    ``g_d = P*_d r_d = g* - P*_d δ_d``  (``r_d = g* + (I - P_d) h - δ_d`` and ``P*_d (I - P_d) = 0``),

so ``d`` is gain-optimal **iff every state recurrent under d takes an action with δ = 0**; transient
states may take any ``A1`` action.  (A self-loop ``a`` with ``P_a g* = g*(s)`` and ``r(s,a) < g*(s)`` is in
``A1`` but closes a recurrent class ``{s}`` that earns less: the trap.)  One level down the same holds for
bias-optimality (Puterman, ch. 10): with ``w`` a solution of the third equation and
``ε(s,a) = h*(s) + w(s) - P_a w >= 0`` on ``A2``, a gain-optimal ``d`` is bias-optimal iff it takes ``A2``
actions everywhere and ``ε = 0`` actions on its recurrent states (``h_d = h* - P*_d ε_d``).

Both questions have one shape, answered by :func:`completable`: given, per state, a set ``big(s)`` and
a subset ``small(s)`` (nonempty), which ``a`` in ``big(s)`` does some policy ``d`` take at ``s`` with
``d(y) ∈ big(y)`` everywhere and ``d(y) ∈ small(y)`` on its recurrent states?  Every ``a`` in
``small(s)`` (complete it with ``small`` actions elsewhere).  An ``a`` outside ``small(s)`` iff ``s`` can be
made transient: some successor of ``a`` reaches, along ``big`` edges and avoiding ``s``, an end component
of the ``small`` actions that avoids ``s`` (a set closed under some choice of ``small`` actions, ``s`` outside
it).  Necessity: ``s`` is then transient, and a shortest path from ``a``'s successors to the recurrent
class ``s`` reaches avoids ``s``.  Sufficiency: take ``a`` at ``s``, the path's ``big`` actions on the path,
the end component's ``small`` actions in it, and any ``small`` actions elsewhere.  The end components
avoiding ``s`` are the maximal end components (MECs) of the ``small`` actions without ``s``, and those
inside the MEC of ``s`` once ``s`` is removed.

Examples
--------
>>> succ = [[(0,), (1,)], [(1,)]]     # state 0: a self-loop (action 0) or a move to the absorbing state 1
>>> completable(succ, big=[[0, 1], [0]], small=[[1], [0]])   # the loop would make state 0 recurrent
[(1,), (0,)]
>>> completable(succ, big=[[0, 1], [0]], small=[[0], [0]])   # the loop may be recurrent: the move is fine too
[(0, 1), (0,)]
"""

from __future__ import annotations

from collections.abc import Sequence

from exactpte.graph.plain import tarjan_labels

__all__ = ["completable", "end_components"]

Successors = Sequence[Sequence[Sequence[int]]]
"""``successors[s][a]``: the support of ``P(.|s,a)``."""


def end_components(successors: Successors, allowed: Sequence[Sequence[int]], *,
                   states: Sequence[int] | None = None) -> tuple[list[list[int]], list[list[int]]]:
    """The maximal end components of the MDP restricted to the ``allowed`` actions (and to ``states``):
    ``(components, kept)``, each component a sorted list of states, ``kept[s]`` the actions of ``s`` that
    stay inside its component (empty for a state in none).

    An end component is a set of states, each with an action whose successors stay in the set, strongly
    connected by those actions.  The classical refinement: drop every action leaving its state's strongly
    connected component (or reaching a dropped state), drop states left without actions, repeat.

    Examples
    --------
    >>> end_components([[(0, 1)], [(1,), (0,)]], [[0], [0, 1]])
    ([[0, 1]], [[0], [0, 1]])
    >>> end_components([[(1,)], [(1,)]], [[0], [0]])
    ([[1]], [[], [0]])
    """
    n = len(successors)
    inside = set(range(n)) if states is None else set(states)
    kept = [[a for a in allowed[s]] if s in inside else [] for s in range(n)]
    while True:
        changed = _drop_leaving(successors, kept, inside)
        alive = [s for s in range(n) if kept[s]]
        indptr, indices = [0], []
        for s in range(n):
            targets = sorted({t for a in kept[s] for t in successors[s][a]})
            indices.extend(targets)
            indptr.append(len(indices))
        _, labels = tarjan_labels(n, indptr, indices)
        for s in alive:
            stay = [a for a in kept[s] if all(labels[t] == labels[s] for t in successors[s][a])]
            if len(stay) != len(kept[s]):
                kept[s], changed = stay, True
        if not changed:
            break
    groups: dict[int, list[int]] = {}
    for s in range(n):
        if kept[s]:
            groups.setdefault(labels[s], []).append(s)
    return sorted(groups.values()), kept


def _drop_leaving(successors: Successors, kept: list[list[int]], inside: set[int]) -> bool:
    """Drop actions reaching a state outside ``inside`` or without actions, until none does."""
    changed = False
    again = True
    while again:
        again = False
        for s in range(len(kept)):
            if kept[s]:
                stay = [a for a in kept[s] if all(t in inside and kept[t] for t in successors[s][a])]
                if len(stay) != len(kept[s]):
                    kept[s], again, changed = stay, True, True
    return changed


def completable(successors: Successors, big: Sequence[Sequence[int]], small: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """For every state, the actions ``a`` in ``big(s)`` taken at ``s`` by some policy using ``big`` actions
    everywhere and ``small`` actions on its recurrent states (``small(s) ⊆ big(s)``, nonempty): ``small(s)``,
    and each other ``a`` whose successors reach, along ``big`` edges avoiding ``s``, an end component of the
    ``small`` actions avoiding ``s`` (module docstring).  Sorted tuples, one per state.

    Examples
    --------
    >>> completable([[(0,), (1,)], [(1,)]], big=[[0, 1], [0]], small=[[0], [0]])
    [(0, 1), (0,)]
    """
    n = len(successors)
    mecs, kept = end_components(successors, small)
    mec_of = [-1] * n
    for i, members in enumerate(mecs):
        for s in members:
            mec_of[s] = i
    in_mec = [mec_of[s] >= 0 for s in range(n)]
    big_succ = [sorted({t for a in big[s] for t in successors[s][a]}) for s in range(n)]
    reach = _reachable_mecs(big_succ, mec_of)
    out = []
    for s in range(n):
        extra = [a for a in big[s] if a not in set(small[s])]
        chosen = set(small[s])
        if extra:
            targets = _targets(s, mecs, mec_of, in_mec, kept, successors)
            if targets is not None:
                chosen |= _escaping(s, extra, successors, big_succ, targets, reach)
        out.append(tuple(sorted(chosen)))
    return out


def _reachable_mecs(big_succ: list[list[int]], mec_of: list[int]) -> list[tuple[int, ...]]:
    """For every state, up to two of the MECs it can reach along ``big`` edges (the two smallest indices):
    enough to tell whether it reaches a MEC other than a given one.  One pass over the condensation of the
    ``big`` graph, downstream first (Tarjan numbers a component after every component it reaches)."""
    n = len(big_succ)
    indptr, indices = [0], []
    for succ in big_succ:
        indices.extend(succ)
        indptr.append(len(indices))
    k, labels = tarjan_labels(n, indptr, indices)
    members: list[list[int]] = [[] for _ in range(k)]
    for s, c in enumerate(labels):
        members[c].append(s)
    per_component: list[tuple[int, ...]] = [()] * k
    for c in range(k):
        found = {mec_of[s] for s in members[c] if mec_of[s] >= 0}
        for s in members[c]:
            for t in big_succ[s]:
                if labels[t] != c:
                    found.update(per_component[labels[t]])
        per_component[c] = tuple(sorted(found)[:2])
    return [per_component[c] for c in labels]


class _Avoiding:
    """The states in an end component of the ``small`` actions that avoids ``s``: every MEC but the one of
    ``s``, and within that one what stays clear of ``s`` (:func:`_safe_inside`)."""

    def __init__(self, s: int, mec_of: list[int], own: set[int]) -> None:
        self.s, self.mec_of, self.own = s, mec_of, own

    def __contains__(self, t: int) -> bool:
        i = self.mec_of[t]
        return t in self.own if i == self.mec_of[self.s] and i >= 0 else i >= 0 and t != self.s


def _targets(s: int, mecs: list[list[int]], mec_of: list[int], in_mec: list[bool], kept: list[list[int]],
             successors: Successors) -> _Avoiding | None:
    """The end-component states avoiding ``s`` (``None`` when there is none: ``s`` cannot be transient)."""
    i = mec_of[s]
    own: set[int] = set()
    if i >= 0 and len(mecs[i]) > 1:
        own = _safe_inside(s, mecs[i], kept, successors)
    others = len(mecs) - (1 if i >= 0 else 0)
    if not others and not own:
        return None
    return _Avoiding(s, mec_of, own)


def _safe_inside(s: int, members: list[int], kept: list[list[int]], successors: Successors) -> set[int]:
    """The states of ``s``'s MEC that can stay in it forever, clear of ``s``, by its ``small`` actions (the
    greatest such set; empty when each state has one such action: the MEC is then irreducible)."""
    if all(len(kept[y]) == 1 for y in members):
        return set()
    safe = set(members) - {s}
    actions = {y: list(kept[y]) for y in safe}
    again = True
    while again:
        again = False
        for y in list(safe):
            actions[y] = [a for a in actions[y] if all(t in safe for t in successors[y][a])]
            if not actions[y]:
                safe.discard(y)
                again = True
    return safe


def _escaping(s: int, extra: list[int], successors: Successors, big_succ: list[list[int]], targets: _Avoiding,
              reach: list[tuple[int, ...]]) -> set[int]:
    """The actions of ``extra`` whose successors reach ``targets`` along ``big`` edges avoiding ``s`` (a
    search per action, stopped on the first target; states a failed search saw, and states that reach no
    MEC but their own (when only other MECs are targets), are not searched)."""
    own = targets.mec_of[s]
    only_others = own >= 0 and not targets.own

    def hopeless(t: int) -> bool:
        return t in failed or (only_others and not any(m != own for m in reach[t]))

    failed: set[int] = {s}
    out = set()
    for a in extra:
        seen: set[int] = set()
        stack = [t for t in successors[s][a] if not hopeless(t)]
        found = False
        while stack and not found:
            y = stack.pop()
            if y in seen:
                continue
            seen.add(y)
            if y in targets:
                found = True
                break
            stack.extend(t for t in big_succ[y] if t not in seen and not hopeless(t))
        if found:
            out.add(a)
        else:
            failed |= seen
    return out
