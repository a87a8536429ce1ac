"""Every claimed quantity judged on its own key, against proofs_check's block routes.

The theorem checks judge ``g*``, ``v*``, ``b`` and ``theta`` (required by the contract) and use
the other quantities when they are there; these checks make each optional quantity a verdict of
its own, so a claim that leaves one out says "not claimed: <quantity>" for it (never "held"), and
a claim whose key could not be read (NaN, infinities, floats, text, wrong shape) fails it.
Routes: :class:`~proofs_check.routes.blocks.BlockRoutes` (proofs_check's own Tarjan, per-block exact
solves with flint, never exactpte's solvers); claimed classes are matched with the route's by
their states, so any class order and any order of states inside a class is judged as claimed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import flint

from proofs_check.judging.registry import CheckFunc, Context, NotClaimed, Outcome, register_check, few, mismatch

ONE = flint.fmpq(1)

QUANTITY_CHECKS = {"rho": "claim:rho", "h": "claim:h", "psi": "claim:psi", "stationary": "claim:stationary",
                   "class_gain": "claim:class_gain", "absorption": "claim:absorption", "hitting_times": "claim:hitting_times",
                   "labels": "claim:labels", "P_inf": "P_inf", "transient": "structure:transient",
                   "g_star": "thm:wellposed", "v_star": "thm:wellposed", "theta": "def:theta_star", "basis": "def:main_b"}
"""The check that judges each quantity of the JSON contract (``--require``)."""


def _absent(ctx: Context, key: str) -> Outcome:
    """The failure for an unreadable key, "not claimed" for a missing one, else ``None`` (go on)."""
    problem = ctx.claimed.problem(key)
    if problem:
        return f"malformed claim: {problem}"
    if getattr(ctx.claimed, key) is None:
        return NotClaimed(key)
    return None


def _when_claimed(key: str) -> Callable[[CheckFunc], CheckFunc]:
    """Run the check only on a readable claimed ``key``; otherwise its outcome is :func:`_absent`'s
    (the failure for an unreadable key, "not claimed" for a missing one)."""

    def wrap(body: CheckFunc) -> CheckFunc:
        @functools.wraps(body)
        def judged(ctx: Context) -> Outcome:
            out = _absent(ctx, key)
            return out if out is not None else body(ctx)

        return judged

    return wrap


def _route_class(ctx: Context) -> list[int] | str:
    """For each claimed class, the block routes' index of the same closed class (a message when there is none)."""
    index = {tuple(c): i for i, c in enumerate(ctx.blocks.classes)}
    out = []
    for i, members in enumerate(ctx.claimed.classes):
        j = index.get(tuple(sorted(members)))
        if j is None:
            return f"claimed class {i} {few(sorted(members))} is not a closed class (see structure:classes)"
        out.append(j)
    return out


@register_check("claim:rho", "the claimed classical gain rho = P_inf r (class gains spread by absorption)", sparse=True)
@_when_claimed("rho")
def _rho(ctx: Context) -> Outcome:
    return mismatch("rho", ctx.claimed.rho or (), ctx.blocks.rho, "P_inf r (block routes)")


@register_check("claim:h", "the claimed bias h: r = rho + (I-P)h, P_inf h = 0 (deviation matrices)", sparse=True)
@_when_claimed("h")
def _h(ctx: Context) -> Outcome:
    return mismatch("h", ctx.claimed.h or (), ctx.blocks.h, "the deviation matrices (block routes)")


@register_check("claim:psi", "the claimed psi: g* = rho + (I-P)psi, psi in K(P), P_inf psi = 0", sparse=True)
@_when_claimed("psi")
def _psi(ctx: Context) -> Outcome:
    c, B = ctx.claimed, ctx.blocks
    psi = list(c.psi or ())
    lhs = [r + p - q for r, p, q in zip(B.rho, psi, B.matvec(psi))]
    m = mismatch("rho + (I-P) psi", lhs, c.g_star, "claimed g*")
    if m:
        return m
    if not B.in_K(psi):
        return "psi is not in K(P) (P^D psi != psi)"
    return mismatch("P_inf psi", B.P_inf_apply(psi), [flint.fmpq(0)] * ctx.chain.n, "zero")


@register_check("claim:stationary", "the claimed stationary distribution of every class: pi_i (I - P_F) = 0, sum pi_i = 1", sparse=True)
@_when_claimed("stationary")
def _stationary(ctx: Context) -> Outcome:
    where = _route_class(ctx)
    if isinstance(where, str):
        return where
    c, B = ctx.claimed, ctx.blocks
    for i, (members, pi) in enumerate(zip(c.classes, c.stationary or ())):
        truth = dict(zip(B.classes[where[i]], B.stationary[where[i]]))
        m = mismatch(f"stationary[{i}]", list(pi), [truth[s] for s in members], "the class's balance equations")
        if m:
            return m.replace("at states", "at positions")
    return None


@register_check("claim:class_gain", "the claimed class gains gamma_i = pi_i . r", sparse=True)
@_when_claimed("class_gain")
def _class_gain(ctx: Context) -> Outcome:
    where = _route_class(ctx)
    if isinstance(where, str):
        return where
    truth = [ctx.blocks.class_gain[j] for j in where]
    m = mismatch("class_gain", list(ctx.claimed.class_gain or ()), truth, "pi_i . r (block routes)")
    return m.replace("at states", "at classes") if m else None


@register_check("claim:absorption", "the claimed absorption probabilities alpha_i(s) = P_s(end in F_i)", sparse=True)
@_when_claimed("absorption")
def _absorption(ctx: Context) -> Outcome:
    where = _route_class(ctx)
    if isinstance(where, str):
        return where
    rows = ctx.blocks.absorption_rows
    zero = flint.fmpq(0)
    bad = [s for s, row in enumerate(ctx.claimed.absorption or ()) if list(row) != [rows[s].get(j, zero) for j in where]]
    if bad:
        return f"absorption differs from the block routes' absorbing solves in rows {few(bad)}"
    return None


@register_check("claim:hitting_times", "the claimed E_s[tau_A], A the claimed anchors: 0 on A, 1 + P x elsewhere", sparse=True)
@_when_claimed("hitting_times")
def _hitting_times(ctx: Context) -> Outcome:
    truth = ctx.blocks.hitting_cost(set(ctx.claimed.anchor_states), lambda s: ONE)
    if truth is None:
        return "the claimed anchors are not reached almost surely from every state, so hitting times are infinite"
    return mismatch("hitting_times", ctx.claimed.hitting_times or (), truth, "the hitting-time solve (block routes)")


def _default_labels(n: int) -> Sequence[str]:
    return [str(s) for s in range(n)]


@register_check("claim:labels", "the claimed state labels are the chain's (null or 0..n-1 for an unlabelled chain)", sparse=True)
def _labels(ctx: Context) -> Outcome:
    c = ctx.claimed
    problem = c.problem("labels")
    if problem:
        return f"malformed claim: {problem}"
    if not c.labels_claimed:
        return NotClaimed("labels")
    truth = ctx.chain.labels
    if truth is None:
        if c.labels is None or list(c.labels) == list(_default_labels(ctx.chain.n)):
            return None
        return f"the chain has no labels but the claim names states {few(list(c.labels))}"
    if c.labels is None:
        return "the chain has labels but the claim says none"
    return mismatch("labels", list(c.labels), list(truth), "the chain's labels")
