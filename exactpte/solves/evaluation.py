"""Evaluation consequences (paper, Section 4): finite-horizon returns and anchor hitting times.

``J_T = sum_{t<T} P^t r`` by sparse products; its persistent/boundary split
``J_T = sum_{t<T} P^t g* + (v* - P^T v*)`` (``lem:app_telescoping``) through the shift
``P b_{i,k} = b_{i,k-1}`` (``lem:shift_b``); and ``E_s[τ_A]``, the expected hitting time of
the anchor set, by one solve per closed class and one absorbing solve on the transient block
(:func:`exactpte.solves.absorption.extend_to_transient`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exactpte.solves.absorption import extend_to_transient
from exactpte.model.chain import Chain
from exactpte.model.interface import Result
from exactpte.numbers.scalars import as_int
from exactpte.errors import UsageError
from exactpte.deprecation import renamed

__all__ = ["returns", "return_split", "hitting_times", "require_horizon", "Persistent"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_horizon": "require_horizon"})


Persistent = Result[Any]
"""What :func:`return_split` reads of a decomposition (:class:`~exactpte.model.interface.Result`)."""


def require_horizon(T: Any) -> int:
    """``T`` after checking it is an int ``>= 0`` (:class:`~exactpte.errors.UsageError` otherwise)."""
    t = as_int(T)
    if t is None or t < 0:
        raise UsageError(f"horizon T must be an int >= 0, got {T!r}")
    return t


def returns(chain: Chain, T: int) -> tuple[Any, ...]:
    """``J_T = sum_{t<T} P^t r`` exactly (``T`` sparse products).

    Parameters
    ----------
    chain : Chain
        The chain (rational or parametric).
    T : int
        The horizon, ``T >= 0``.

    Returns
    -------
    tuple
        ``J_T(s)`` for every state.

    Examples
    --------
    >>> import exactpte
    >>> returns(exactpte.example("two-paths"), 20)[1]   # 3 zero-reward steps, then reward 1
    17
    """
    T = require_horizon(T)
    x = list(chain.r)
    J = [chain.field.zero] * chain.n
    for _ in range(T):
        J = [a + b for a, b in zip(J, x)]
        x = chain.matvec(x)
    return tuple(J)


def return_split(dec: Persistent, T: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(sum_{t<T} P^t g*, v* - P^T v*)``, whose sum is ``J_T`` (``lem:app_telescoping``).

    The persistent orbit uses ``P b_{i,k} = b_{i,k-1}`` (``lem:shift_b``):
    ``sum_{t<T} P^t g* = sum_{i,k} b_{i,k} sum_{t<T} θ_{i,k+t}``, no matrix power.

    Examples
    --------
    >>> import exactpte
    >>> dec = exactpte.decompose(exactpte.example("branching"))
    >>> persistent, boundary = return_split(dec, 7)
    >>> tuple(p + b for p, b in zip(persistent, boundary)) == returns(dec.chain, 7)
    True
    """
    T = require_horizon(T)
    zero = dec.chain.field.zero
    coeffs = []
    col = 0
    for d in dec.periods:
        th = dec.theta[col : col + d]
        full, rem = divmod(T, d)
        total = sum(th, zero)
        for k in range(d):
            coeffs.append(full * total + sum((th[(k + t) % d] for t in range(rem)), zero))
        col += d
    persistent = tuple(sum((c * bv for c, bv in zip(coeffs, row) if bv != 0), zero) for row in dec.basis)
    x = list(dec.v_star)
    for _ in range(T):
        x = dec.chain.matvec(x)
    boundary = tuple(v - px for v, px in zip(dec.v_star, x))
    return persistent, boundary


def hitting_times(chain: Chain, anchors: Sequence[int]) -> tuple[Any, ...]:
    """``E_s[τ_A]``, the expected hitting time of the anchor set ``A`` (0 at anchors).

    ``A`` holds one state of every cyclic class, so every closed class contains anchors and
    the walk reaches ``A`` almost surely: on each class, ``t = 1 + P t`` off the anchors (one
    solve per class); on transient states one absorbing solve with base 1.

    Examples
    --------
    >>> import exactpte
    >>> dec = exactpte.decompose(exactpte.example("two-paths"))
    >>> [str(t) for t in hitting_times(dec.chain, [0])[:4]]
    ['0', '3', '2', '1']
    """
    f = chain.field
    S = chain.structure
    t = [f.zero] * chain.n
    anchor_set = set(anchors)
    for members in S.classes:
        rest = [s for s in members if s not in anchor_set]
        if not rest:
            continue
        pos = {s: a for a, s in enumerate(rest)}
        M = f.identity(len(rest))
        for a, s in enumerate(rest):
            for y, q in chain.row(s):
                if y in pos:
                    M[a, pos[y]] -= q
        ones = f.zeros(len(rest), 1)
        for a in range(len(rest)):
            ones[a, 0] = f.one
        for s, row in zip(rest, f.to_lists(f.solve(M, ones))):
            t[s] = row[0]
    return tuple(extend_to_transient(chain, S, t, lambda s: f.one))
