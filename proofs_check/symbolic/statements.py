"""A statement of your own (a conjecture) on a whole family: every labelling, decided on the region or at points.

:func:`prove_statement` runs ``func(chain, dec)`` on a family's symbolic decomposition under a
:class:`~proofs_check.symbolic.decided.Guard`, once per labelling when the family stands for every labelling of a
support graph (``relabel=True``: ``proofs-check exhaustive``); the decomposition of each labelling is this one
permuted (:meth:`exactpte.Decomposition.relabelled`), never solved again, and labellings that give the same labelled
graph are run once.  The answer is

- ``proved``: every labelling's run decided every comparison on the whole region and returned a true value, so the
  statement holds at every point under every labelling (the caller then asks that the closed forms it read are
  proved too: :func:`foundations`);
- ``failed``: a labelling's run was decided and returned false (or raised), so it fails at every point; a rational
  point and the chain there, relabelled, are the counterexample, confirmed by running the statement on exactpte's
  decomposition of that rational chain;
- ``witnesses``: some decision was not decided on the region (or the code has an identity or type test,
  :func:`~proofs_check.symbolic.decided.code_hazards`): the statement is run on exactpte's decomposition of the
  rational chains at stated points of the region, under every labelling, and the first failure is the
  counterexample.

Examples
--------
>>> import exactpte
>>> from proofs_check.symbolic.graphs import graph_chain
>>> chain, region = graph_chain(((0, 1), (1,)))
>>> dec = exactpte.decompose(chain)
>>> prove_statement(lambda c, d: all(x > 0 for x in d.stationary[0]), dec, region, relabel=True).status
'proved'
>>> found = prove_statement(lambda c, d: c.P[1][1] == 1, dec, region, relabel=True)   # false once the states swap
>>> found.status, found.chain.P[1][1] != 1
('failed', True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import flint

import exactpte
from exactpte import Decomposition, MarkovRewardProcess

from proofs_check.symbolic.decided import Guard, code_hazards, guarded_views, judged
from proofs_check.symbolic.region import Region

__all__ = ["StatementResult", "prove_statement", "labellings", "foundations", "FOUNDATIONS", "run_at_point"]

Statement = Callable[[Any, Any], object]
"""``func(chain, dec) -> bool | str | None`` (a conjecture's function)."""

STRUCTURE = ("structure:classes", "structure:transient", "structure:periods", "structure:cyclic_classes", "structure:anchors",
             "structure:basis_order")
_BASIS = ("lem:kernel_equals_peripheral", "lem:shift_b")
_P_INF = ("claim:stationary", "claim:absorption")

FOUNDATIONS: dict[str, tuple[str, ...] | None] = {
    "basis": _BASIS, "basis_sparse": _BASIS, "b": _BASIS, "project": _BASIS, "theta": ("def:theta_star", "thm:wellposed"),
    "g_star": ("thm:wellposed",), "v_star": ("thm:wellposed",), "return_split": ("thm:wellposed",),
    "psi": ("claim:psi",), "psi_coords": ("claim:psi",), "rho": ("claim:rho",), "h": ("claim:h",),
    "stationary": ("claim:stationary",), "absorption": ("claim:absorption",), "class_gain": ("claim:class_gain",),
    "P_inf": _P_INF, "P_inf_apply": _P_INF, "hitting_times": ("claim:hitting_times",),
    **{name: STRUCTURE for name in ("structure", "classes", "periods", "cyclic_classes", "transient", "N", "anchors", "anchor_list")},
    "deviation_apply": None, "deviation_matrix": None,
}
"""The checks that prove each quantity (or method) of the decomposition a statement may read is the paper's object
(its defining equations, with their uniqueness); ``None``: exactpte's own solve, not checked symbolically."""


@dataclass
class StatementResult:
    """What :func:`prove_statement` found: ``status`` (``proved``, ``failed`` or ``witnesses``), ``detail``, the
    decomposition's names the statement read (``reads``), and for a failure the rational ``point`` (parameter ->
    value) and the counterexample ``chain`` there (in the failing labelling); ``witnesses``: the number of rational
    chains the statement held on; ``labellings``: how many distinct labellings were run."""

    status: str
    detail: str = ""
    reads: set[str] = field(default_factory=set)
    point: dict[str, flint.fmpq] | None = None
    chain: MarkovRewardProcess | None = None
    witnesses: int | None = None
    labellings: int = 1


def labellings(succ: Sequence[Iterable[int]]) -> list[tuple[int, ...]]:
    """One renaming ``order`` (state ``s`` becomes ``order[s]``) for each distinct labelled graph the support graph
    ``succ`` has under renaming: ``n! / |Aut|`` of them (renamings that give the same labelled graph give the same
    family of chains), the identity first.

    >>> len(labellings([[0, 1], [1]])), len(labellings([[1], [0]])), len(labellings([[1], [2], [0]]))
    (2, 1, 2)
    """
    n = len(succ)
    edges = [(i, j) for i, row in enumerate(succ) for j in row]
    seen: set[frozenset[tuple[int, int]]] = set()
    out = []
    for order in itertools.permutations(range(n)):
        key = frozenset((order[i], order[j]) for i, j in edges)
        if key not in seen:
            seen.add(key)
            out.append(order)
    return out


def foundations(reads: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(checks, unchecked)``: the checks proving the quantities in ``reads`` (:data:`FOUNDATIONS`), and the names
    read that no symbolic check proves."""
    keys: list[str] = []
    unchecked: list[str] = []
    for name in sorted(reads):
        if name.startswith("chain."):
            continue  # the chain itself: nothing to prove
        proof = FOUNDATIONS.get(name)
        if proof is None:
            unchecked.append(name)
        else:
            keys += [k for k in proof if k not in keys]
    return keys, unchecked


def run_at_point(func: Statement, dec: Decomposition) -> str | None:
    """The statement on one rational decomposition: ``None`` when it holds, else what fails (an exception inside it
    is a failure naming it)."""
    try:
        return judged(func(dec.chain, dec))
    except Exception as e:  # the user's statement failed on this chain: a finding, not a crash
        return f"the conjecture raised {type(e).__name__}: {e}"


def prove_statement(func: Statement, dec: Decomposition, region: Region, *, relabel: bool = False, seed: int = 0,
                    samples: int = 24, cache: dict[Any, bool | None] | None = None,
                    moved: dict[tuple[int, ...], Decomposition] | None = None) -> StatementResult:
    """The statement on every chain of ``dec``'s family (and every labelling, with ``relabel``): see the module
    docstring.  ``samples`` bounds the rational chains checked when it falls back to points (at least two points of
    the region under every labelling); ``cache`` shares decisions, and ``moved`` the relabelled decompositions,
    between the statements run on one family."""
    orders = labellings([[j for j, _ in dec.chain.row(s)] for s in range(dec.n)]) if relabel else [tuple(range(dec.n))]
    cache = {} if cache is None else cache
    moved = {} if moved is None else moved
    hazards = code_hazards(func)
    reads: set[str] = set()
    targets: list[Any] = []
    why = hazards[0] + " in the statement's code" if hazards else ""
    refuted: tuple[tuple[int, ...], str] | None = None
    if not hazards:
        for order in orders:
            if order not in moved:
                moved[order] = dec if list(order) == list(range(dec.n)) else dec.relabelled(order)
            guard = Guard(region, cache)
            chain_view, dec_view = guarded_views(moved[order], guard)
            try:
                answer = judged(func(chain_view, dec_view))
            except Exception as e:  # decided on the whole region up to here: it raises at every point too
                answer = f"the conjecture raised {type(e).__name__}: {e}"
            reads |= guard.read
            if guard.undecided:
                why, targets = guard.undecided[0], guard.targets
                break
            if answer is not None:
                refuted = (order, answer)
                break
        else:
            return StatementResult("proved", reads=reads, labellings=len(orders))
    if refuted is not None:
        return _refuted(func, dec, region, refuted, seed=seed, labellings=len(orders), reads=reads)
    return _at_points(func, dec, region, orders, why, seed=seed, samples=samples, reads=reads, targets=targets)


def _points(dec: Decomposition, region: Region, count: int, seed: int,
            targets: Sequence[Any] = ()) -> Iterable[tuple[dict[str, flint.fmpq], Decomposition]]:
    """Up to ``count`` rational points of the region (first where a value an undecided decision hinged on vanishes,
    ``targets``, then anywhere), each with exactpte's decomposition of the chain there."""
    params = region.field.params
    on = region.points_on(targets, max(1, count // 2), seed=seed) if targets else []
    for point in on + [p for p in region.points(count - len(on), seed=seed) if p not in on]:
        named = dict(zip(params, point))
        yield named, exactpte.decompose(dec.chain.at(named))  # type: ignore[attr-defined]  # a parametric chain


def _refuted(func: Statement, dec: Decomposition, region: Region, refuted: tuple[tuple[int, ...], str], *, seed: int,
             labellings: int, reads: set[str]) -> StatementResult:
    """A statement decided false on the whole region under ``order``: its counterexample at a rational point."""
    order, answer = refuted
    tried = 0
    for named, at in _points(dec, region, 8, seed):
        tried += 1
        moved = at.relabelled(order)
        detail = run_at_point(func, moved)
        if detail is not None:
            return StatementResult("failed", detail, reads, named, moved.chain, labellings=labellings)  # type: ignore[arg-type]
    return StatementResult("failed", f"refuted on the whole region ({answer}) but it held at {tried} rational points there: "
                                     "the symbolic and the rational answers differ", reads, labellings=labellings)


def _at_points(func: Statement, dec: Decomposition, region: Region, orders: Sequence[tuple[int, ...]], why: str, *,
               seed: int, samples: int, reads: set[str], targets: Sequence[Any] = ()) -> StatementResult:
    """The statement at rational points of the region, under every labelling."""
    per_labelling = max(2, -(-samples // len(orders)))
    checked = points = 0
    for named, at in _points(dec, region, per_labelling, seed, targets):
        points += 1
        for order in orders:
            moved = at if list(order) == list(range(dec.n)) else at.relabelled(order)
            detail = run_at_point(func, moved)
            checked += 1
            if detail is not None:
                return StatementResult("failed", detail, reads, named, moved.chain, labellings=len(orders))  # type: ignore[arg-type]
    if not checked:
        return StatementResult("not checked", f"not decided on the whole region ({why}) and no rational point of the region "
                                              "was found to check it at", reads, labellings=len(orders))
    under = f" under each of {len(orders)} labellings" if len(orders) > 1 else ""
    return StatementResult("witnesses", f"not decided on the whole region: {why}; held on {checked} rational chains ({points} "
                                        f"points of the region{under})", reads, witnesses=checked, labellings=len(orders))
