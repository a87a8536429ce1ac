"""The registry of checks, what a check sees, its verdict, and the runner.

A check is a function ``ctx -> None | str | NotApplicable`` registered under the paper's
label with :func:`register_check`; it judges a :class:`~proofs_check.judging.claims.Claimed` decomposition
against objects computed by independent routes (:class:`~proofs_check.routes.dense.Routes`).
:func:`run_checks` runs them and turns each outcome into a :class:`Verdict`.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import flint

from exactpte import MarkovRewardProcess
from exactpte.deprecation import renamed
from exactpte.errors import UnknownNameError

from proofs_check.judging.claims import Claimed, Exact
from proofs_check.routes.dense import Routes, RouteTooLargeError
from proofs_check.judging.strength import Strength

if TYPE_CHECKING:
    from proofs_check.routes.blocks import BlockRoutes

__all__ = ["CHECKS", "Check", "Verdict", "Context", "Outcome", "CheckFunc", "register_check", "run_checks", "NotApplicable", "NotClaimed", "NotChecked", "NOT_APPLICABLE", "block_route",
           "Held", "sampled", "strength_label",
           "mismatch", "diff_states", "few", "shape_problem"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check": "register_check"})


T = TypeVar("T")


class NotApplicable:
    """What a check returns when the chain does not meet the result's hypothesis
    (e.g. ``prop:aperiodic_reduction`` on a periodic chain): reported as n/a, never as held."""

    __slots__ = ("reason",)

    def __init__(self, reason: str = "not applicable") -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"NotApplicable({self.reason!r})"


NOT_APPLICABLE = NotApplicable()
"""The default :class:`NotApplicable` (reason "not applicable")."""


class NotChecked(NotApplicable):
    """What a check returns when its independent route cannot run on this chain (too large):
    reported as "not checked", never as held."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason if reason.startswith("not checked") else f"not checked: {reason}")


class NotClaimed(NotApplicable):
    """What a check returns when the claim leaves out the quantity it judges: reported as
    "not claimed", never as held."""

    def __init__(self, quantity: str) -> None:
        super().__init__(f"not claimed: {quantity}")


class Held:
    """What a check returns when the identity holds and the verdict should say more: a note (e.g. which float
    certificate also decided it), and the strength when this run's evidence differs from the check's own."""

    __slots__ = ("note", "strength", "witnesses")

    def __init__(self, note: str = "", *, strength: Strength | None = None, witnesses: int | None = None) -> None:
        self.note, self.strength, self.witnesses = note, strength, witnesses

    def __repr__(self) -> str:
        return f"Held({self.note!r})"


def sampled(witnesses: int, note: str = "") -> Held:
    """The outcome of a check that held on ``witnesses`` sampled witnesses (vectors, candidates, horizons): its
    strength is ``witnesses`` with that number, whatever the check's registered count (an upper bound)."""
    return Held(note, strength=Strength.WITNESSES, witnesses=witnesses)


Outcome: TypeAlias = "str | None | NotApplicable | Held"
"""What a check returns: ``None`` (the identity holds), a :class:`Held` (it holds, with a note), a string naming
what fails, or a :class:`NotApplicable`."""

LearnedBasis: TypeAlias = "Sequence[Sequence[flint.fmpq]]"
"""A learned basis ``b^``: one row per state, one exact entry per anchor (rows on the simplex for the lemmas)."""

PiHat: TypeAlias = "Callable[[Sequence[Exact]], Sequence[flint.fmpq]]"
"""An implementation of ``v -> Pi^ v`` on exact vectors."""


@dataclass
class Context:
    """What a check sees.  ``bhat``/``apply_pihat`` are the estimator-side inputs of the
    appendix lemmas: a learned basis (rows on the simplex) and an implementation of
    ``v -> Pi^ v``; by default an exact random perturbation of ``b`` and the definition."""

    chain: MarkovRewardProcess
    claimed: Claimed
    routes: Routes
    seed: int = 0
    bhat: LearnedBasis | None = None
    apply_pihat: PiHat | None = None
    _blocks: BlockRoutes | None = None
    _shared: dict[str, Any] = field(default_factory=dict, repr=False)

    def shared(self, key: str, build: Callable[[], T]) -> T:
        """``build()``, computed once per context under ``key``: what several checks of one chain derive from the
        same claim (the context's claim and chain never change, so every check sees the same value)."""
        if key not in self._shared:
            self._shared[key] = build()
        value: T = self._shared[key]  # what build() returned under this key (one key, one build)
        return value

    def rng(self, key: str) -> random.Random:
        """A random source for one check, seeded by the context's seed and the check's own key."""
        return random.Random(f"{self.seed}:{key}")

    @property
    def blocks(self) -> BlockRoutes:
        """Block-by-block independent routes (:class:`~proofs_check.routes.blocks.BlockRoutes`), built once."""
        if self._blocks is None:
            from proofs_check.routes.blocks import BLOCK_LIMIT, BlockRoutes

            # the support graph (proofs_check's own analysis) shared with the dense routes: built once per chain
            graph = self.routes.graph if self.routes.chain is self.chain else None
            self._blocks = BlockRoutes(self.chain, max_block=max(BLOCK_LIMIT, self.routes.max_dense), graph=graph)
        return self._blocks


CheckFunc: TypeAlias = Callable[[Context], Outcome]
"""A check: the context in, its :data:`Outcome` out."""


@dataclass(frozen=True)
class Check:
    """One registered check: the paper's label, a one-line statement, the function, its kind."""

    key: str
    statement: str
    func: CheckFunc
    kind: str = "exact"
    sparse: bool = False  # runs on chains of any size (no dense n x n work); otherwise bounded by max_dense
    block: CheckFunc | None = None  # the same check on block routes
    strength: Strength = Strength.EXACT  # what a "held" of this check rests on (docs/verdict-strength.md)
    witnesses: int | None = None  # with Strength.WITNESSES: how many sampled witnesses decide it


@dataclass
class Verdict:
    """The outcome of one check on one chain: ``holds`` is True, False, or None (not applicable)."""

    key: str
    statement: str
    holds: bool | None  # None: not applicable to this chain
    detail: str = ""
    seconds: float = 0.0
    kind: str = "exact"  # the check's kind: "exact", "structure", or "cross-check" (exactpte's own, not independent)
    strength: Strength = Strength.EXACT  # what the verdict rests on: proved, exact, certified, witnesses, statistical
    witnesses: int | None = None  # with Strength.WITNESSES: the number of sampled witnesses
    level: float | None = None  # with Strength.STATISTICAL: the test's level alpha

    @property
    def status(self) -> str:
        """``held``, ``failed``, ``not claimed`` (the claim leaves the quantity out), ``not checked`` (the
        independent route cannot run on a chain this large, or no point was found to check it at), ``not provable``
        (a family's check with no symbolic form) or ``not applicable``."""
        if self.holds is None:
            for status in ("not claimed", "not checked", "not provable"):
                if self.detail.startswith(status):
                    return status
            return "not applicable"
        return "held" if self.holds else "failed"

    @property
    def strength_text(self) -> str:
        """The strength with its size: ``exact``, ``witnesses (N = 4)``, ``statistical (level 0.01)``."""
        return strength_label(self.strength, witnesses=self.witnesses, level=self.level)

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict; ``strength`` is the :class:`~proofs_check.judging.strength.Strength` value (``None``
        when the verdict decided nothing), with ``witnesses`` (N) or ``level`` (alpha) when the strength has a size."""
        out: dict[str, Any] = {"key": self.key, "statement": self.statement, "holds": self.holds, "status": self.status,
               "detail": self.detail, "seconds": self.seconds, "kind": self.kind,
               # a verdict that decided nothing (n/a, not claimed, not checked) rests on no evidence: no strength
               "strength": Strength(self.strength).value if self.holds is not None else None}
        if self.witnesses is not None:
            out["witnesses"] = self.witnesses
        if self.level is not None:
            out["level"] = self.level
        return out


def strength_label(strength: Strength, *, witnesses: int | None = None, level: float | None = None) -> str:
    """A strength as text, with its size: N witnesses, or the statistical level.

    >>> strength_label(Strength.WITNESSES, witnesses=4), strength_label(Strength.STATISTICAL, level=0.01)
    ('witnesses (N = 4)', 'statistical (level 0.01)')
    """
    text = Strength(strength).value
    if witnesses is not None:
        return f"{text} (N = {witnesses})"
    if level is not None:
        return f"{text} (level {level:g})"
    return text


PREFER_BLOCKS = 300
"""Past this many states a check with a block-route version runs that version (the dense routes
cost seconds to minutes from a few hundred states on; the block routes milliseconds)."""

CHECKS: dict[str, Check] = {}
"""Every registered check by key, in registration (paper) order."""


def register_check(key: str, statement: str, kind: str = "exact", *, sparse: bool = False, strength: Strength | None = None,
                   witnesses: int | None = None) -> Callable[[CheckFunc], CheckFunc]:
    """Decorator registering ``func(ctx) -> None | str | NotApplicable`` under ``key`` in :data:`CHECKS`
    (formerly ``check``: a ``check_*`` name runs checks; the old name warns for one release).

    ``None`` means the identity holds, a string names what fails (with the states where it fails).
    ``strength`` says what a "held" rests on (default: ``certified`` for exactpte's float cross-check,
    ``exact`` otherwise); a check decided on sampled witnesses gives ``Strength.WITNESSES`` and their number.
    """
    if strength is None:
        strength = Strength.CERTIFIED if kind == "cross-check" else Strength.WITNESSES if witnesses else Strength.EXACT
    if (strength is Strength.WITNESSES) != (witnesses is not None):
        raise ValueError(f"{key}: a check on witnesses states their number, and only such a check")

    def deco(func: CheckFunc) -> CheckFunc:
        CHECKS[key] = Check(key, statement, func, kind, sparse or kind == "structure", strength=strength, witnesses=witnesses)
        return func

    return deco


def block_route(key: str) -> Callable[[CheckFunc], CheckFunc]:
    """Decorator registering ``func(ctx)`` as ``key``'s version on block routes, run in place of the
    dense one on chains past ``max_dense`` (:mod:`proofs_check.routes.blocks`)."""

    def deco(func: CheckFunc) -> CheckFunc:
        CHECKS[key] = dataclasses.replace(CHECKS[key], block=func)
        return func

    return deco


def diff_states(got: Sequence[object], expected: Sequence[object]) -> list[int]:
    """States where two vectors differ."""
    return [s for s, (a, b) in enumerate(zip(got, expected)) if a != b]


def mismatch(name: str, got: Sequence[object], expected: Sequence[object], route: str) -> str | None:
    """``None`` when ``got == expected`` entrywise, else a message naming the states that differ."""
    if len(got) != len(expected):
        return f"{name} has length {len(got)}, expected {len(expected)}"
    bad = diff_states(got, expected)
    if not bad:
        return None
    s = bad[0]
    return f"{name} differs from {route} at states {few(bad)} (e.g. state {s}: {got[s]} vs {expected[s]})"


def few(xs: Sequence[object], *, k: int = 8) -> str:
    """At most ``k`` items of a list, with "..." when cut."""
    xs = list(xs)
    return str(xs[:k])[:-1] + (", ...]" if len(xs) > k else "]")


def shape_problem(ctx: Context) -> str | None:
    """What makes the claimed decomposition's arrays the wrong shape for the chain, if anything."""
    c, n = ctx.claimed, ctx.chain.n
    if len(c.basis) != n or any(len(row) != c.N for row in c.basis):
        return f"basis is not {n} x N = {n} x {c.N}"
    if len(c.theta) != c.N:
        return f"theta has {len(c.theta)} entries, expected N = {c.N}"
    for name in ("g_star", "v_star"):
        if len(getattr(c, name)) != n:
            return f"{name} has {len(getattr(c, name))} entries, expected {n}"
    if sum(c.periods) != c.N or len(c.periods) != len(c.classes):
        return f"periods {list(c.periods)} do not match {len(c.classes)} classes and N = {c.N} anchors"
    return None


def run_checks(
    chain: MarkovRewardProcess,
    claimed: Claimed,
    *,
    only: Sequence[str] | None = None,
    seed: int = 0,
    routes: Routes | None = None,
    bhat: LearnedBasis | None = None,
    apply_pihat: PiHat | None = None,
    max_dense: int | None = None,
) -> list[Verdict]:
    """Run the checks (all, or ``only``) on one chain and claimed decomposition.

    ``max_dense`` bounds the chain size for the dense independent routes (default
    :data:`~proofs_check.routes.dense.DENSE_LIMIT`); checks that need them on a larger chain are "not checked".
    """
    keys = list(CHECKS) if not only else list(only)
    unknown = [k for k in keys if k not in CHECKS]
    if unknown:
        raise UnknownNameError(f"unknown check key(s) {unknown}; known: {', '.join(CHECKS)}")
    if routes is None:
        routes = Routes(chain) if max_dense is None else Routes(chain, max_dense=max_dense)
    ctx = Context(chain, claimed, routes, seed, bhat, apply_pihat)
    verdicts = []
    problem = shape_problem(ctx)
    for key in keys:
        chk = CHECKS[key]
        t0 = time.perf_counter()
        out: Outcome
        if problem:
            out = f"malformed decomposition: {problem}"
        else:
            try:
                if not chk.sparse and chk.block is not None and (routes.n > routes.max_dense or routes.n > PREFER_BLOCKS):
                    out = chk.block(ctx)  # the dense routes would not fit: the same identities block by block
                else:
                    if not chk.sparse:
                        routes.require_dense()  # before any dense work of the check's own, not only inside the routes
                    out = chk.func(ctx)
            except RouteTooLargeError as e:
                out = NotChecked(str(e))
            except (IndexError, KeyError, ValueError, ZeroDivisionError) as e:
                out = f"check could not be evaluated on this decomposition ({type(e).__name__}: {e})"
        verdicts.append(_verdict(chk, out, time.perf_counter() - t0))
    return verdicts


def _verdict(chk: Check, out: Outcome, seconds: float) -> Verdict:
    """One outcome as a verdict carrying the check's strength (or the one a :class:`Held` states)."""
    strength, witnesses = chk.strength, chk.witnesses
    if isinstance(out, Held):
        if out.strength is not None:
            strength, witnesses = out.strength, out.witnesses
        return Verdict(chk.key, chk.statement, True, out.note, seconds, chk.kind, strength, witnesses)
    if isinstance(out, NotApplicable):
        return Verdict(chk.key, chk.statement, None, out.reason, seconds, chk.kind, strength, witnesses)
    return Verdict(chk.key, chk.statement, out is None, out or "", seconds, chk.kind, strength, witnesses)
