"""The verdict on an MDP solver's answer: :func:`judge_mdp`, one finding per key, the cause of each mistake.

The exact answer comes from :func:`exactpte.mdp.solve` (``g*``, ``h*``, the optimal action sets; ``V*_γ``
with a discount).  A candidate's keys are read natively (:mod:`~exactpte.oracle.mdp_reading`), then:

- **policy**: evaluated exactly (its chain's gain and bias, or its discounted value); it agrees when it is
  gain-optimal (with a discount and only discounted keys: discount-optimal), whatever tie it broke, and
  otherwise its exact loss ``g* - g_d`` (``V* - v_d``) is given per state;
- **gain**, **bias**, **value**: compared entrywise with the float rules of the chain oracle (``|x - e| <= atol +
  rtol |e|``, NaN never agrees, the digits that differ shown); a scalar gain is one gain for every state; a
  bias off by a constant on each recurrent class of a bias-optimal policy (an element of ``ker(I - P)``) is
  "same up to gauge", accepted for relative values (RVI's ``V``) or with ``up_to_gauge``;
- **action sets** (``gain_optimal_actions``, ``bias_optimal_actions``, ``discount_optimal_actions``): exactly,
  state by state;

and each disagreement names its cause when the cause's test holds (:mod:`~exactpte.oracle.mdp_causes`).

Examples
--------
>>> from exactpte.mdp import MDP
>>> m = MDP([[[0, 1, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [0, 1, 0], [0, 0, 1]]], [[0, 0], [1, 1], [2, 2]])
>>> report = judge_mdp({"policy": [1, 0, 0], "average_reward": 1.0}, m)
>>> [(f.key, f.status) for f in report.findings]
[('policy', 'ok'), ('gain', 'mismatch')]
>>> report.findings[1].diagnosis[:40]
'one gain for every state: a unichain ass'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from exactpte.errors import CandidateError, ExactpteError, UsageError
from exactpte.mdp.average import AverageSolution, solve_average
from exactpte.mdp.discounted import DiscountedSolution, solve_discounted
from exactpte.mdp.evaluation import PolicyEvaluation, require_discount, evaluate_average, evaluate_discounted
from exactpte.mdp.model import MDP, require_policy
from exactpte.model.to_float import to_floats
from exactpte.oracle import mdp_causes as causes
from exactpte.oracle.findings import Finding, Report, numeric_finding
from exactpte.oracle.mdp_reading import AVERAGE_KEYS, MDP_KEYS, MDPCandidate, read_mdp_candidate
from exactpte.oracle.values import require_tolerance, is_scalar, scalar, vector
from exactpte.solves.classical import harmonic_extension

__all__ = ["judge_mdp", "MDPReference"]


class MDPReference:
    """The exact answers a candidate is judged against, computed once: the average-reward solution and (with a
    discount) the discounted one, their floats, and exact evaluations of the policies candidates give."""

    def __init__(self, mdp: MDP, *, discount: Any = None) -> None:
        if not isinstance(mdp, MDP):
            raise UsageError(f"an MDP reference is an exactpte.mdp.MDP, got {type(mdp).__name__}")
        self.mdp = mdp
        self.discount = require_discount(discount) if discount is not None else None
        self._evaluated: dict[tuple[int, ...], PolicyEvaluation] = {}

    @cached_property
    def average(self) -> AverageSolution:
        """:func:`~exactpte.mdp.average.solve_average` of the MDP."""
        return solve_average(self.mdp)

    @cached_property
    def discounted(self) -> DiscountedSolution:
        """:func:`~exactpte.mdp.discounted.solve_discounted` at the reference's discount."""
        if self.discount is None:
            raise UsageError("a discounted answer needs --discount (the discount the solver used)")
        return solve_discounted(self.mdp, discount=self.discount)

    @cached_property
    def gain(self) -> np.ndarray:
        """``g*`` in floats."""
        return np.array(to_floats(self.average.gain))

    @cached_property
    def bias(self) -> np.ndarray:
        """``h*`` in floats."""
        return np.array(to_floats(self.average.bias))

    @cached_property
    def value(self) -> np.ndarray:
        """``V*_γ`` in floats."""
        return np.array(to_floats(self.discounted.value))

    @cached_property
    def invariant(self) -> np.ndarray:
        """A basis of ``ker(I - P_d*)`` for the bias-optimal policy: each closed class's absorption probabilities."""
        chain = self.average.chain
        k = len(chain.structure.classes)
        cols = [harmonic_extension(chain, [chain.field.one if i == j else chain.field.zero for i in range(k)]) for j in range(k)]
        basis: np.ndarray = np.array([to_floats(c) for c in cols]).T.reshape(self.mdp.n, k)
        return basis

    def evaluate(self, policy: tuple[int, ...]) -> PolicyEvaluation:
        """The exact gain and bias of ``policy`` (cached)."""
        if policy not in self._evaluated:
            self._evaluated[policy] = evaluate_average(self.mdp, policy)
        return self._evaluated[policy]


def judge_mdp(candidate: Mapping[str, Any], mdp: "MDP | MDPReference", *, discount: Any = None, atol: float = 1e-9,
              rtol: float = 0.0, up_to_gauge: bool = False, strict: bool = False) -> Report:
    """Judge an MDP solver's answer against the exact one, key by key (module docstring).

    Parameters
    ----------
    candidate : mapping
        The solver's output in its own names (pymdptoolbox's ``V``/``policy``/``average_reward``, QuantEcon's
        ``v``/``sigma``, Storm's ``R{"r"}max=? [ LRA ]`` and ``scheduler``) or ``exactpte mdp``'s keys.
    mdp : MDP or MDPReference
        The MDP (solved here) or a reference already holding its answers.
    discount : rational in (0, 1), optional
        The discount the candidate solved for (its values and policy are then judged as discounted ones).
    atol, rtol : float
        ``|x - e| <= atol + rtol |e|`` for numbers; finite and ``>= 0``.
    up_to_gauge : bool
        Accept a ``bias`` off by ``ker(I - P)`` (reported as such).
    strict : bool
        Refuse keys the judge does not know.

    Raises
    ------
    CandidateError
        A malformed value, a policy of the wrong length or with an action out of range, no judged key.
    UsageError
        A bad tolerance or discount.
    """
    atol, rtol = require_tolerance(atol, "atol"), require_tolerance(rtol, "rtol")
    ref = mdp if isinstance(mdp, MDPReference) else MDPReference(mdp, discount=discount)
    if isinstance(mdp, MDPReference) and discount is not None and require_discount(discount) != ref.discount:
        raise UsageError(f"the reference was built for the discount {ref.discount}, not {discount}")
    cand = read_mdp_candidate(candidate, discounted=ref.discount is not None, strict=strict)
    if not cand.values:
        shown = f" (not judged: {', '.join(cand.not_judged)})" if cand.not_judged else ""
        raise CandidateError(f"the candidate gives none of the judged quantities ({', '.join(MDP_KEYS)}){shown}")
    judge = _Judge(ref, cand, atol, rtol)
    findings = judge.findings()
    given = set(cand.values)
    wanted = AVERAGE_KEYS[:2] + ("policy",) + (("value",) if ref.discount is not None else ())
    report = Report(findings, up_to_gauge, tuple(k for k in wanted if k not in given))
    report.not_judged, report.readings, report.gauge_free = cand.not_judged, tuple(cand.readings), cand.gauge_free
    return report


class _Judge:
    """One candidate against one reference: a method per key."""

    def __init__(self, ref: MDPReference, cand: MDPCandidate, atol: float, rtol: float) -> None:
        self.ref, self.cand, self.atol, self.rtol = ref, cand, atol, rtol
        self.mdp = ref.mdp
        values = cand.values
        self.discounted = ref.discount is not None and not any(k in values for k in AVERAGE_KEYS)
        self.policy = self._policy(values["policy"]) if "policy" in values else None

    def _policy(self, raw: Any) -> tuple[int, ...]:
        if isinstance(raw, list) and all(isinstance(a, str) for a in raw):  # a CSV column: the cells' text
            raw = [int(a) if a.strip().isascii() and a.strip().isdigit() else a for a in raw]
        try:
            return require_policy(raw, self.mdp.num_actions)
        except ExactpteError as e:
            raise CandidateError(f"policy: {e}") from None

    def tol(self, expected: np.ndarray) -> float:
        return self.atol + self.rtol * float(np.max(np.abs(expected), initial=0.0))

    def findings(self) -> list[Finding]:
        values = self.cand.values
        out: list[Finding] = []
        if self.policy is not None:
            out.append(self.discounted_policy() if self.discounted else self.average_policy())
        if "gain" in values:
            out.append(self.gain(values["gain"]))
        if "bias" in values:
            out.append(self.bias(values["bias"]))
        if "value" in values:
            out.append(self.value(values["value"]))
        levels = self.ref.average.levels if any(k in values for k in ("gain_optimal_actions", "bias_optimal_actions")) else None
        for key in ("gain_optimal_actions", "bias_optimal_actions", "discount_optimal_actions"):
            if key in values:
                out.append(self.actions(key, values[key], levels))
        return out

    # -- the policy ------------------------------------------------------------------------------------
    def average_policy(self) -> Finding:
        assert self.policy is not None
        avg = self.ref.average
        ev = self.ref.evaluate(self.policy)
        loss = [g - x for g, x in zip(avg.gain, ev.gain)]
        if not any(loss):
            below = [h - x for h, x in zip(avg.bias, ev.bias)]
            if not any(below):
                return Finding("policy", "ok", detail="gain-optimal and bias-optimal (evaluated exactly)")
            s = max(range(len(below)), key=lambda y: below[y])
            return Finding("policy", "ok", detail=f"gain-optimal (evaluated exactly); not bias-optimal: its bias is {below[s]} "
                                                  f"below h* at state {s}")
        worst = sorted(range(len(loss)), key=lambda y: -loss[y])
        s = worst[0]
        f = Finding("policy", "mismatch", float(loss[s].p) / float(loss[s].q), [y for y in worst if loss[y] > 0][:5],
                    f"not gain-optimal: at state {s} it earns the gain {ev.gain[s]} against g* = {avg.gain[s]} (exact loss {loss[s]})")
        notes = [causes.near_tie_note(loss, avg.gain, "the policy"),
                 causes.loop_note(ev, avg.levels.first, avg.levels.second, avg.gain),
                 causes.stand_in_note(self.mdp, self.policy, self.cand.context), causes.cap_note(self.cand.context)]
        f.diagnosis = "; ".join(n for n in notes if n)
        return f

    def discounted_policy(self) -> Finding:
        assert self.policy is not None
        disc = self.ref.discounted
        v = evaluate_discounted(self.mdp, self.policy, discount=disc.discount)
        loss = [a - b for a, b in zip(disc.value, v)]
        if not any(loss):
            return Finding("policy", "ok", detail=f"optimal for the discount {disc.discount} (evaluated exactly)")
        worst = sorted(range(len(loss)), key=lambda y: -loss[y])
        s = worst[0]
        f = Finding("policy", "mismatch", float(loss[s].p) / float(loss[s].q), [y for y in worst if loss[y] > 0][:5],
                    f"not optimal for the discount {disc.discount}: at state {s} its value is {v[s]} against V* = "
                    f"{disc.value[s]} (exact loss {loss[s]})")
        notes = [causes.near_tie_note(loss, disc.value, "the policy"), causes.cap_note(self.cand.context)]
        f.diagnosis = "; ".join(n for n in notes if n)
        return f

    # -- numbers ---------------------------------------------------------------------------------------
    def gain(self, raw: Any) -> Finding:
        n = self.mdp.n
        one = is_scalar(raw)
        got = np.full(n, scalar(raw, "gain")) if one else vector(raw, "gain")
        exp = self.ref.gain
        f = numeric_finding("gain", got, exp, self.atol, self.rtol)
        if one:
            f.detail = "a scalar gain, judged as one gain for every state" + (f"; {f.detail}" if f.detail else "")
        if f.status == "mismatch" and got.shape == exp.shape and math.isfinite(f.max_error):
            f.diagnosis = self._gain_causes(got, one)
        return f

    def _gain_causes(self, got: np.ndarray, one: bool) -> str:
        tol = max(self.tol(self.ref.gain), 1e-9)
        notes = [causes.unichain_note(got, one, self.ref.gain, tol)]
        if self.policy is not None and self.policy != self.ref.average.policy:
            ev = self.ref.evaluate(self.policy)
            own = np.array(to_floats(ev.gain))
            hits = [s for s in range(len(got)) if abs(own[s] - got[s]) <= tol and own[s] < self.ref.gain[s] - tol]
            if hits and (one or float(np.max(np.abs(own - got))) <= tol):
                loss = [g - x for g, x in zip(self.ref.average.gain, ev.gain)]
                tie = causes.near_tie_note(loss, self.ref.average.gain, "the gain")
                notes.append(f"the exact gain of the candidate's own policy at state {hits[0]} ({ev.gain[hits[0]]}), a policy "
                             "that is not gain-optimal (see policy)" + (f": {tie}" if tie else ""))
        chain_of = self.ref.evaluate(self.policy) if self.policy is not None else self.ref.evaluate(self.ref.average.policy)
        notes.append(causes.periodic_note(self.mdp, got, self.ref.gain, chain_of, tol))
        notes.append(causes.cap_note(self.cand.context))
        return "; ".join(n for n in notes if n)

    def _compared(self, key: str, raw: Any, exp: np.ndarray) -> tuple[np.ndarray, Finding, bool]:
        """The candidate's vector, its finding, and whether it is a finite mismatch of the right shape (to diagnose)."""
        got = vector(raw, key)
        f = numeric_finding(key, got, exp, self.atol, self.rtol)
        return got, f, f.status == "mismatch" and got.shape == exp.shape and math.isfinite(f.max_error)

    def bias(self, raw: Any) -> Finding:
        exp = self.ref.bias
        got, f, wrong = self._compared("bias", raw, exp)
        if not wrong:
            return f
        B = self.ref.invariant
        diff = got - exp
        coef, *_ = np.linalg.lstsq(B, diff, rcond=None)
        residual = float(np.max(np.abs(diff - B @ coef), initial=0.0))
        size = float(np.max(np.abs(exp), initial=0.0))
        if residual <= self.tol(exp) + 1e-12 * max(1.0, float(np.max(np.abs(got), initial=0.0))):
            g = Finding("bias", "same up to gauge", f.max_error, f.worst_states,
                        "differs from h* by a constant on each recurrent class of a bias-optimal policy (extended "
                        "harmonically): an element of ker(I - P), another normalisation", gauge_part=f.max_error, residual=residual)
            if f.max_error > 10 * max(size, 1.0) and len(set(np.round(self.ref.gain, 9))) > 1:
                g.diagnosis = (f"the offset ({f.max_error:.3g}) dwarfs h* ({size:.3g}): relative value iteration on a multichain "
                               "MDP, whose values drift apart like k x g between classes of different gains")
            return g
        f.gauge_part, f.residual = f.max_error, residual
        f.diagnosis = self._bias_causes(diff, residual)
        return f

    def _bias_causes(self, diff: np.ndarray, residual: float) -> str:
        notes = []
        chain = self.ref.average.chain
        periods = list(chain.structure.periods)
        if max(periods, default=1) > 1:
            from exactpte.oracle.causes import periodic_note

            basis = np.array([to_floats(row) for row in self.ref.average.decomposition.basis]).reshape(self.mdp.n, -1)
            notes.append(periodic_note(diff, basis, self.ref.invariant, periods, max(self.tol(self.ref.bias), 1e-9)))
        if self.policy is not None and self.policy != self.ref.average.policy:
            ev = self.ref.evaluate(self.policy)
            if ev.gain == self.ref.average.gain:
                own = np.array(to_floats(ev.bias))
                got = diff + self.ref.bias
                if float(np.max(np.abs(own - got))) <= max(self.tol(own), 1e-9):
                    notes.append("the bias of the candidate's own policy, gain-optimal but not bias-optimal")
        if len(set(np.round(self.ref.gain, 9))) > 1 and "bias" in self.cand.gauge_free:
            notes.append("relative values on a multichain MDP: the gains differ between states, so relative value "
                         "iteration's V (one offset subtracted everywhere) drifts like k x g and is no bias")
        return "; ".join(n for n in notes if n)

    def value(self, raw: Any) -> Finding:
        exp = self.ref.value
        got, f, wrong = self._compared("value", raw, exp)
        if not wrong:
            return f
        notes = [causes.cut_short_note(self.mdp, got, exp, self.ref.discounted.discount, self.cand.context)]
        if self.policy is not None:
            own = np.array(to_floats(evaluate_discounted(self.mdp, self.policy, discount=self.ref.discounted.discount)))
            if float(np.max(np.abs(own - got))) <= self.tol(exp) and float(np.max(np.abs(own - exp))) > self.tol(exp):
                notes.append("the exact value of the candidate's own policy, which is not optimal (see policy)")
        f.diagnosis = "; ".join(n for n in notes if n)
        return f

    # -- action sets -----------------------------------------------------------------------------------
    def actions(self, key: str, raw: Any, levels: Any) -> Finding:
        got = _action_sets(raw, key, self.mdp)
        if key == "discount_optimal_actions":
            if self.ref.discount is None:
                raise CandidateError("discount_optimal_actions needs --discount")
            exact = [list(a) for a in self.ref.discounted.optimal_actions]
        else:
            sets = self.ref.average.gain_optimal_actions if key == "gain_optimal_actions" else self.ref.average.bias_optimal_actions
            exact = [list(a) for a in sets]
        bad = [s for s in range(self.mdp.n) if got[s] != exact[s]]
        if not bad:
            return Finding(key, "ok", detail="every state's set, exactly")
        s = bad[0]
        f = Finding(key, "mismatch", math.inf, bad[:5], f"state {s}: expected {exact[s]}, got {got[s]}")
        if levels is not None and key == "gain_optimal_actions" and got == [list(a) for a in levels.first]:
            f.diagnosis = ("the actions attaining max_a P_a g* (the first optimality equation): not enough, an action there "
                           "may close a recurrent class that earns less (the loop trap)")
        elif levels is not None and got == [list(a) for a in levels.second] and key == "gain_optimal_actions":
            f.diagnosis = ("the actions attaining both optimality equations for one h: a gain-optimal policy may also take, "
                           "on states it leaves for good, actions attaining only the first")
        return f


def _action_sets(raw: Any, key: str, mdp: MDP) -> list[list[int]]:
    """Per state a sorted list of actions (lists, tuples, sets; indices in range)."""
    if hasattr(raw, "tolist"):
        raw = raw.tolist()
    if not isinstance(raw, Sequence) or isinstance(raw, (str, bytes)) or len(raw) != mdp.n:
        raise CandidateError(f"{key} must list one set of actions per state ({mdp.n} states)")
    out = []
    for s, acts in enumerate(raw):
        if hasattr(acts, "tolist"):
            acts = acts.tolist()
        if isinstance(acts, (str, bytes, Mapping)) or not isinstance(acts, (Sequence, set, frozenset)):
            raise CandidateError(f"{key}[{s}] is {type(acts).__name__}, expected a list of actions")
        ints = []
        for a in acts:
            if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= int(a) < mdp.num_actions[s]:
                raise CandidateError(f"{key}[{s}] holds {a!r:.20}, not an action of state {s} (0..{mdp.num_actions[s] - 1})")
            ints.append(int(a))
        out.append(sorted(set(ints)))
    return out
