"""Random reducible periodic chains, valid by construction (product code: ``exactpte conform
--corpus random:K`` draws them; :mod:`exactpte.testing.random_chains` gives the same names to test suites).

One builder, :func:`build_chain`, draws every choice through an ``integer(lo, hi)``
callable, so the same construction serves seeded benchmarks (``random.Random``)
and hypothesis strategies (``draw(st.integers(lo, hi))``, which shrinks every
choice towards ``lo``: fewer edges, smaller weights, no permutation).

Construction (no filtering, no retries):

- closed class with period ``d`` and phase sizes ``m_0..m_{d-1}``: edges only go
  from phase ``k`` to phase ``k+1 mod d``; a closed walk through every state makes
  the class irreducible, and the cycle through the first state of every phase
  has length ``d``, so the period is exactly ``d``;
- transient state ``t_j`` has an edge to a recurrent state or to ``t_{j'}``,
  ``j' < j`` (so every transient state reaches a closed class), plus random
  extra edges to any state;
- each row's probabilities are ``w / D`` with positive integer ``w`` summing
  to ``D <= max_denominator``;
- finally the states are relabelled by a drawn permutation.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import flint

from exactpte.errors import UsageError
from exactpte.model.chain import MarkovRewardProcess
from exactpte.model.parametric import ParametricChain

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["ChainBounds", "build_chain", "randint_of", "draw_spec", "random_chain", "random_small_chain", "parametrize", "ChainSpec", "FAMILIES",
           "draw_sweep_chain", "sweep_chain", "random_chain_arrays", "IntSource"]

IntSource = Callable[[int, int], int]
IntArray: TypeAlias = "npt.NDArray[np.int64]"
"""An edge or reward array of :func:`random_chain_arrays`."""


class ChainSpec:
    """Shape of a random chain: classes as lists of phase sizes, and the transient count."""

    def __init__(self, classes: Sequence[Sequence[int]], n_transient: int) -> None:
        if not classes:
            raise UsageError("a finite chain has at least one closed class")
        for sizes in classes:
            if not sizes or any(m < 1 for m in sizes):
                raise UsageError(f"phase sizes must be positive, got {list(sizes)}")
        self.classes = [list(s) for s in classes]
        self.n_transient = n_transient

    @property
    def n(self) -> int:
        """Number of states of the shape."""
        return sum(sum(s) for s in self.classes) + self.n_transient

    def __repr__(self) -> str:
        return f"ChainSpec(classes={self.classes}, n_transient={self.n_transient})"


@dataclass(frozen=True)
class ChainBounds:
    """The bounds on a random chain's shape, checked once, where they are given (so that
    ``chains(min_classes=5, max_classes=2)`` fails at once with the pair named, not later or never).

    ``min_transient`` and ``min_first_period`` (the first class's period) are lower bounds honoured
    as far as ``max_states`` allows.

    Examples
    --------
    >>> ChainBounds(max_states=7).max_states
    7
    >>> ChainBounds(min_classes=5, max_classes=2)
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: min_classes = 5 exceeds max_classes = 2
    """

    min_classes: int = 1
    max_classes: int = 3
    max_period: int = 4
    max_phase_size: int = 3
    max_transient: int = 5
    max_states: int | None = None
    min_transient: int = 0
    min_first_period: int = 1

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name == "max_states":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise UsageError(f"{f.name} must be an integer, got {value!r}")
            least = 0 if f.name in ("max_transient", "min_transient") else 1
            if value < least:
                raise UsageError(f"{f.name} must be at least {least}, got {value}")
        for low, high in (("min_classes", "max_classes"), ("min_transient", "max_transient"),
                          ("min_first_period", "max_period")):
            if getattr(self, low) > getattr(self, high):
                raise UsageError(f"{low} = {getattr(self, low)} exceeds {high} = {getattr(self, high)}")
        if self.max_states is not None and self.max_states < self.min_classes:
            raise UsageError(f"max_states = {self.max_states} leaves no room for min_classes = {self.min_classes} closed classes")

    @classmethod
    def of(cls, bounds: ChainBounds | None = None, overrides: Mapping[str, int | None] | None = None) -> ChainBounds:
        """``bounds`` (default bounds when ``None``) with the keyword ``overrides``, checked; an unknown
        keyword is a :class:`~exactpte.errors.UsageError` naming the bounds there are."""
        base = bounds if bounds is not None else cls()
        if not overrides:
            return base
        unknown = sorted(set(overrides) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise UsageError(f"unknown chain bound(s) {', '.join(unknown)}; the bounds are "
                             f"{', '.join(f.name for f in dataclasses.fields(cls))}")
        return cls(**{**dataclasses.asdict(base), **overrides})


def draw_spec(integer: IntSource, bounds: ChainBounds | None = None, **overrides: int | None) -> ChainSpec:
    """Draw a shape within :class:`ChainBounds` (``bounds``, or keyword overrides of the default
    bounds): number of classes, each class's period and phase sizes, transient count.

    At most ``max_states`` states in all; every choice shrinks towards the smallest shape.

    Examples
    --------
    >>> draw_spec(lambda lo, hi: lo).classes, draw_spec(lambda lo, hi: hi, max_states=7).n <= 7
    ([[1]], True)
    """
    b = ChainBounds.of(bounds, overrides)
    remaining = b.max_states if b.max_states is not None else 10**9
    k = integer(b.min_classes, max(b.min_classes, min(b.max_classes, remaining)))
    classes = []
    reserve = min(b.min_transient, max(0, remaining - k))  # keep room for the transient states asked for
    remaining -= reserve
    for idx in range(k):
        avail = remaining - (k - idx - 1)  # keep one state for each later class
        low = min(b.min_first_period, b.max_period, avail) if idx == 0 else 1
        d = integer(max(1, low), max(1, min(b.max_period, avail)))
        spare = avail - d
        sizes = []
        for _ in range(d):
            extra = integer(0, max(0, min(b.max_phase_size - 1, spare)))
            spare -= extra
            sizes.append(1 + extra)
        classes.append(sizes)
        remaining -= sum(sizes)
    remaining += reserve
    t = integer(min(reserve, b.max_transient), max(min(reserve, b.max_transient), min(b.max_transient, remaining)))
    return ChainSpec(classes, t)


def random_small_chain(seed: int | str, *, max_states: int = 12, max_period: int = 4, max_out_degree: int = 3) -> MarkovRewardProcess:
    """A seeded random chain of at most ``max_states`` states, shaped (and steered) like the hypothesis strategy's.

    Examples
    --------
    >>> random_small_chain("0:1").n <= 12
    True
    """
    rng = random.Random(seed)
    integer = rng.randint
    rich = integer(0, 3) > 0  # as the strategy: 3 in 4 with >= 2 classes, a periodic class, transient states
    spec = draw_spec(integer, max_states=max_states, max_period=max_period, max_transient=max_states, max_phase_size=max_states,
                     min_classes=2 if rich and max_states >= 3 else 1, min_transient=1 if rich else 0,
                     min_first_period=min(2, max_period) if rich else 1)
    return build_chain(integer, spec, out_degree=(1, max_out_degree), spread_entry=rich)


FAMILIES = ("mixed", "cycle", "aperiodic", "periodic", "transient-line", "transient-block")
"""The families of :func:`draw_sweep_chain`, simplest shapes first (a hypothesis draw shrinks towards ``mixed``):

- ``mixed``: the shape of :func:`random_small_chain` (classes, periods, transient count all drawn);
- ``cycle``: one deterministic cycle through all ``n`` states (period ``n``; ``prop:deterministic_cycle``);
- ``aperiodic``: every class aperiodic, two or more classes when room allows (``prop:aperiodic_reduction``);
- ``periodic``: the first class has a period drawn uniformly from ``2..max_period`` (room allowing),
  a transient state entering it at two phase offsets;
- ``transient-line``: at least half the states transient, in a line ``t_j -> t_(j-1)`` (long hitting times);
- ``transient-block``: at least a third transient, the line closed into a strongly connected block.
"""


def _classes_of_size(integer: IntSource, n_rec: int, *, max_classes: int, max_period: int, min_first_period: int) -> list[list[int]]:
    """Closed classes (as phase sizes) with exactly ``n_rec`` states in all; periods up to ``max_period``."""
    k = integer(1, max(1, min(max_classes, n_rec)))
    classes: list[list[int]] = []
    remaining = n_rec
    for idx in range(k):
        size = remaining if idx == k - 1 else integer(1, remaining - (k - idx - 1))
        remaining -= size
        top = max(1, min(max_period, size))
        d = integer(min(top, min_first_period) if idx == 0 else 1, top)
        sizes = [1] * d
        for _ in range(size - d):
            sizes[integer(0, d - 1)] += 1
        classes.append(sizes)
    return classes


class _ShapeOptions(TypedDict, total=False):
    """The :func:`build_chain` options a chain family sets."""

    out_degree: tuple[int, int]
    spread_entry: bool
    transient_shape: str


def _family_spec(integer: IntSource, family: str, n: int, max_period: int) -> tuple[ChainSpec, _ShapeOptions]:
    """The shape of a chain of family ``family`` with exactly ``n`` states, and ``build_chain`` options."""
    if family == "cycle":
        return ChainSpec([[1] * n], 0), {"out_degree": (1, 1)}
    if family == "aperiodic":
        t = integer(max(0, min(2, n - 2)), max(0, n - 2))
        return ChainSpec(_classes_of_size(integer, n - t, max_classes=3, max_period=1, min_first_period=1), t), {}
    if family == "periodic":
        t = integer(max(0, min(2, n - 3)), max(0, n - 2))
        classes = _classes_of_size(integer, n - t, max_classes=2, max_period=max_period, min_first_period=2)
        return ChainSpec(classes, t), {"spread_entry": True}
    if family in ("transient-line", "transient-block"):
        low = max(1, n // 2) if family == "transient-line" else max(2, n // 3)
        t = integer(min(low, n - 1), n - 1)
        classes = _classes_of_size(integer, n - t, max_classes=2, max_period=max_period, min_first_period=1)
        return ChainSpec(classes, t), {"transient_shape": "line" if family == "transient-line" else "block",
                                       "spread_entry": True}
    raise UsageError(f"unknown chain family {family!r}; known: {', '.join(FAMILIES)}")


def draw_sweep_chain(integer: IntSource, *, min_states: int = 1, max_states: int = 12, max_period: int = 4,
                     max_out_degree: int = 3, families: Sequence[str] = FAMILIES) -> MarkovRewardProcess:
    """A chain for a sweep, every choice drawn from ``integer(lo, hi)``: ``n`` uniform in
    ``min_states..max_states``, then a family of :data:`FAMILIES` (uniform over ``families``),
    then that family's shape with exactly ``n`` states.

    Small and large chains alike, long and branching transient parts (strongly connected
    transient blocks too), deterministic cycles, aperiodic multichains and every period up to
    ``max_period``; valid by construction.

    Examples
    --------
    >>> import random
    >>> m = draw_sweep_chain(random.Random(1).randint, min_states=3, max_states=9)
    >>> 3 <= m.n <= 9
    True
    """
    if not 1 <= min_states <= max_states:
        raise UsageError(f"need 1 <= min_states <= max_states, got {min_states}, {max_states}")
    n = integer(min_states, max_states)
    family = families[integer(0, len(families) - 1)]
    if family == "mixed":
        spec = draw_spec(integer, max_states=n, max_period=max_period, max_transient=n, max_phase_size=n,
                         min_classes=2 if n >= 3 else 1, min_transient=1, min_first_period=min(2, max_period))
        opts: _ShapeOptions = {"spread_entry": True}
    else:
        spec, opts = _family_spec(integer, family, n, max_period)
    opts.setdefault("out_degree", (1, max_out_degree))
    return build_chain(integer, spec, **opts)


def sweep_chain(seed: int | str, *, min_states: int = 1, max_states: int = 12, max_period: int = 4,
                max_out_degree: int = 3) -> MarkovRewardProcess:
    """The seeded chain of a sweep (:func:`draw_sweep_chain` driven by ``random.Random(seed)``).

    Examples
    --------
    >>> sweep_chain("0:1", min_states=2, max_states=5).n in range(2, 6)
    True
    """
    return draw_sweep_chain(randint_of(random.Random(seed)), min_states=min_states, max_states=max_states,
                            max_period=max_period, max_out_degree=max_out_degree)


def randint_of(rng: random.Random) -> IntSource:
    """``rng.randint`` without its three Python frames per draw: the same values from the same generator state.

    CPython's ``randint(a, b)`` is ``randrange(a, b + 1)``, which draws ``r = getrandbits(k)`` with
    ``k = (b - a + 1).bit_length()`` until ``r < b - a + 1`` and returns ``a + r`` (``Random._randbelow_with_getrandbits``);
    where the generator's ``_randbelow`` is another one (a subclass, another Python), ``rng.randint`` itself.

    >>> a, b = random.Random(3), random.Random(3)
    >>> [randint_of(a)(-2, 5) for _ in range(6)] == [b.randint(-2, 5) for _ in range(6)]
    True
    """
    if type(rng)._randbelow is not random.Random._randbelow_with_getrandbits:  # type: ignore[attr-defined]
        return rng.randint
    getrandbits = rng.getrandbits

    def integer(a: int, b: int) -> int:
        span = b - a + 1
        if span <= 0:
            return rng.randint(a, b)  # randint's own error for an empty range
        k = span.bit_length()
        r = getrandbits(k)
        while r >= span:
            r = getrandbits(k)
        return a + r

    return integer


def _weights(integer: IntSource, k: int, max_denominator: int) -> list[tuple[int, int]]:
    """``k`` positive integers summing to ``D`` (``k <= D <= max(k, max_denominator)``)."""
    D = integer(k, max(k, max_denominator))
    extra = D - k
    w = [1] * k
    for j in range(k - 1):  # distribute the extra units; shrinks towards all weight on the last edge
        add = integer(0, extra)
        w[j] += add
        extra -= add
    w[-1] += extra
    return [(x, D) for x in w]


def build_chain(
    integer: IntSource,
    spec: ChainSpec,
    *,
    out_degree: tuple[int, int] = (1, 3),
    max_denominator: int = 10,
    reward_range: tuple[int, int] = (-3, 3),
    reward_denominator: int = 1,
    permute: bool = True,
    spread_entry: bool = False,
    transient_target_percent: int | None = None,
    transient_shape: str = "random",
) -> MarkovRewardProcess:
    """Build a random chain of shape ``spec``, every choice drawn from ``integer(lo, hi)``.

    ``out_degree = (lo, hi)`` bounds the drawn number of successors of a row (a
    class state is also capped by the size of the next phase).  ``spread_entry`` gives the
    first transient state edges into two consecutive phases of the first periodic class, so it
    enters that class at two phase offsets (``b_{i,k}`` and ``b_{i,k+1}`` both nonzero there).
    ``transient_target_percent`` (``None``: no bias) sends that percentage of a transient state's
    extra edges to transient states, which then form large strongly connected blocks.
    ``transient_shape``: ``"random"`` (each transient state's first edge goes to a drawn recurrent or
    earlier transient state), ``"line"`` (``t_j -> t_(j-1)``: a line of transient states, the first
    one exiting to a class: long hitting times) or ``"block"`` (the line plus an edge
    ``t_0 -> t_m``, ``m >= 1`` drawn: ``t_0 .. t_m`` form a transient strongly connected block).
    """
    if transient_shape not in ("random", "line", "block"):
        raise UsageError(f"transient_shape must be 'random', 'line' or 'block', got {transient_shape!r}")
    succ = _class_successors(integer, spec, out_degree)
    succ += _transient_successors(integer, spec, len(succ), out_degree, spread_entry=spread_entry,
                                  transient_target_percent=transient_target_percent, shape=transient_shape)
    n = len(succ)
    perm = _permutation(integer, n) if permute else list(range(n))
    rows: list[list[tuple[int, flint.fmpq]]] = [[] for _ in range(n)]
    for s, targets in enumerate(succ):
        ts = list(targets)
        row = rows[perm[s]]
        for t, (w, D) in zip(ts, _weights(integer, len(ts), max_denominator)):
            row.append((perm[t], flint.fmpq(w, D)))  # the numbers themselves, not "w/D" text parsed back
    for row in rows:
        row.sort(key=lambda e: e[0])  # distinct targets (succ's keys), columns increasing
    lo, hi = reward_range
    r = [flint.fmpq(0)] * n
    for s in range(n):
        r[perm[s]] = flint.fmpq(integer(lo * reward_denominator, hi * reward_denominator), reward_denominator)
    return MarkovRewardProcess._from_exact_rows(rows, r)  # validated again: rows sum to 1, no negative entry


def _class_successors(integer: IntSource, spec: ChainSpec, out_degree: tuple[int, int]) -> list[dict[int, None]]:
    """Successor sets of the closed classes' states (numbered class by class, phase by phase): a walk
    through every state of a class phase after phase, the d-cycle through the phases' first states
    (period exactly ``d``), then drawn edges into the next phase up to the drawn out-degree."""
    lo_deg, hi_deg = out_degree
    succ: list[dict[int, None]] = []
    offset = 0
    for sizes in spec.classes:
        d = len(sizes)
        phases = []
        for m in sizes:
            phases.append(list(range(offset, offset + m)))
            offset += m
        succ.extend({} for _ in range(sum(sizes)))
        L = max(sizes)
        walk = [phases[t % d][(t // d) % sizes[t % d]] for t in range(L * d)]
        for a, b in zip(walk, walk[1:] + walk[:1]):
            succ[a][b] = None
        succ[phases[d - 1][0]][phases[0][0]] = None  # the d-cycle through first states: period exactly d
        for k, states in enumerate(phases):
            nxt = phases[(k + 1) % d]
            for s in states:
                want = min(integer(lo_deg, hi_deg), len(nxt))
                for _ in range(max(0, want - len(succ[s]))):
                    succ[s][nxt[integer(0, len(nxt) - 1)]] = None
    return succ


def _transient_successors(integer: IntSource, spec: ChainSpec, n_rec: int, out_degree: tuple[int, int], *,
                          spread_entry: bool, transient_target_percent: int | None, shape: str = "random") -> list[dict[int, None]]:
    """Successor sets of the transient states ``n_rec ..``: one edge down (to a recurrent or an earlier
    transient state, so every transient state reaches a class) and drawn extra edges."""
    lo_deg, hi_deg = out_degree
    n = n_rec + spec.n_transient
    periodic_firsts = None
    start = 0
    for sizes in spec.classes:
        if len(sizes) >= 2:
            periodic_firsts = (start, start + sizes[0])  # first states of phases 0 and 1
            break
        start += sum(sizes)
    out = []
    for j in range(spec.n_transient):
        targets: dict[int, None] = {}
        if spread_entry and j == 0 and periodic_firsts is not None:
            targets.update(dict.fromkeys(periodic_firsts))
        if shape != "random" and j > 0:
            down = n_rec + j - 1  # the line t_j -> t_(j-1)
        else:
            down = integer(0, n_rec + j - 1)  # a recurrent state or an earlier transient one
        targets[down] = None
        if shape == "block" and j == 0 and spec.n_transient >= 2:
            targets[n_rec + integer(1, spec.n_transient - 1)] = None  # closes the line into a block t_0 .. t_m
        for _ in range(integer(max(0, lo_deg - 1), max(0, hi_deg - 1))):
            if transient_target_percent is not None and integer(1, 100) <= transient_target_percent:
                targets[integer(n_rec, n - 1)] = None
            else:
                targets[integer(0, n - 1)] = None
        out.append(targets)
    return out


def _permutation(integer: IntSource, n: int) -> list[int]:
    """A drawn permutation of ``0..n-1`` (Fisher-Yates; shrinks to the identity)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = integer(0, i)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def random_chain(
    n: int,
    *,
    seed: int = 0,
    transient_fraction: float = 0.3,
    n_classes: int = 8,
    periods: Sequence[int] = (1, 2, 3, 4),
    out_degree: tuple[int, int] = (2, 5),
    max_denominator: int = 10,
    transient_target_percent: int | None = None,
) -> MarkovRewardProcess:
    """A seeded random chain of about ``n`` states (the benchmark family).

    About ``transient_fraction`` of the states are transient; the rest form
    ``n_classes`` closed classes with periods drawn from ``periods``.  With
    ``transient_target_percent`` (e.g. 70) that share of a transient state's extra edges
    stays among the transient states, so most of them form one large strongly connected block
    (the expensive case: a dense solve per period and one for ``v*``).

    Examples
    --------
    >>> m = random_chain(60, seed=1)
    >>> m.n, len(m.structure.classes)
    (60, 8)
    """
    rng = random.Random(seed)
    n_transient = int(round(n * transient_fraction))
    n_rec = n - n_transient
    n_classes = max(1, min(n_classes, n_rec))
    sizes = [n_rec // n_classes + (1 if c < n_rec % n_classes else 0) for c in range(n_classes)]
    classes = []
    for size in sizes:
        d = min(rng.choice(list(periods)), size)
        classes.append([size // d + (1 if k < size % d else 0) for k in range(d)])
    spec = ChainSpec(classes, n_transient)
    def integer(a: int, b: int) -> int:
        return rng.randint(a, b)

    return build_chain(integer, spec, out_degree=out_degree, max_denominator=max_denominator,
                       transient_target_percent=transient_target_percent)


def random_chain_arrays(
    n: int,
    *,
    seed: int = 0,
    transient_fraction: float = 0.3,
    n_classes: int = 8,
    periods: Sequence[int] = (1, 2, 3, 4),
    transient_target_percent: int | None = None,
    max_denominator: int = 10,
) -> tuple["IntArray", "IntArray", "IntArray", "IntArray", "IntArray"]:
    """The benchmark family of :func:`random_chain`, drawn vectorised (10^6 states in about a second):
    ``(rows, cols, numerators, denominators, rewards)`` integer arrays for
    :meth:`~exactpte.MarkovRewardProcess.from_arrays`.

    ``n_classes`` closed classes with periods drawn from ``periods`` (a cycle through the phases plus
    two random edges into the next phase per state), ``transient_fraction`` transient states with
    one edge to a recurrent state (so every transient state reaches a class) and three random
    edges, each staying among the transient states with probability ``transient_target_percent``
    (then most transient states form one large strongly connected block), anywhere otherwise.
    Row weights are random integers 1..``max_denominator`` over their sum (exact probabilities).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess
    >>> rows, cols, num, den, r = random_chain_arrays(1000, seed=1, transient_target_percent=85)
    >>> m = MarkovRewardProcess.from_arrays(1000, rows, cols, num, den, r)
    >>> len(m.structure.classes), max(len(b) for b in m.structure.transient_sccs) > 100
    (8, True)
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    n_t = int(round(n * transient_fraction))
    n_rec = n - n_t
    n_classes = max(1, min(n_classes, n_rec))
    sizes = np.full(n_classes, n_rec // n_classes)
    sizes[: n_rec % n_classes] += 1
    rows, cols = [], []
    start = 0
    for size in sizes.tolist():
        d = int(min(rng.choice(list(periods)), size))
        size -= size % d  # whole cycles through the phases; the rest become transient states
        states = np.arange(start, start + size)
        phase = np.arange(size) % d  # state start + j is in phase j mod d
        rows.append(states)
        cols.append(start + (np.arange(size) + 1) % size)  # the cycle: phase k -> k + 1 mod d
        per_phase = [np.flatnonzero(phase == k) for k in range(d)]
        for _ in range(2):  # random edges into the next phase
            nxt = (phase + 1) % d
            counts = np.array([len(per_phase[k]) for k in range(d)])
            pick = (rng.random(size) * counts[nxt]).astype(np.int64)
            offsets = np.concatenate([[0], np.cumsum(counts)])[:-1]
            flat = np.concatenate(per_phase)
            rows.append(states)
            cols.append(start + flat[offsets[nxt] + pick])
        start += size
    n_rec = start
    n_t = n - n_rec
    t_states = np.arange(n_rec, n)
    rows.append(t_states)
    cols.append(rng.integers(0, n_rec, size=n_t))
    for _ in range(3):
        stay = rng.random(n_t) * 100 < (transient_target_percent or 0)
        rows.append(t_states)
        cols.append(np.where(stay, rng.integers(n_rec, n, size=n_t), rng.integers(0, n, size=n_t)))
    key = np.unique(np.concatenate(rows) * n + np.concatenate(cols))
    sources, targets = key // n, key % n
    weights = rng.integers(1, max_denominator + 1, size=len(sources))
    totals = np.bincount(sources, weights=weights, minlength=n).astype(np.int64)
    g = np.gcd(weights, totals[sources])
    rewards = rng.integers(-3, 4, size=n)
    return sources, targets, weights // g, totals[sources] // g, rewards


def parametrize(chain: MarkovRewardProcess, integer: IntSource, *, params: Sequence[str] = ("p",), max_rows: int = 3,
                max_rewards: int = 2, products: bool = False, squares: bool = False) -> ParametricChain:
    """A parametric chain from a rational one, valid by construction.

    Up to ``max_rows`` rows with two or more edges get ``P(s, a) = m·x`` and ``P(s, b) = m·(1 - x)``
    on two of their edges (``m`` the two edges' mass, ``x`` a drawn parameter), so the generic
    region contains ``(0, 1)^k``; up to ``max_rewards`` rewards get a parameter added.
    With ``products`` (and two or more parameters) a row may instead get ``m·x·y`` and
    ``m·(1 - x·y)``: entries that vanish on two lines and on a curve meeting the square in a point.
    With ``squares`` a row may get ``m·(2x - 1)^2`` and ``m·4x(1 - x)``: an entry with a root of even
    multiplicity inside ``(0, 1)``, which cuts the generic region in two without changing a sign.
    """
    n = chain.n
    P = [[str(x) for x in row] for row in chain.dense()]
    r = [str(x) for x in chain.r]
    rows = [s for s in range(n) if len(chain.support[s]) >= 2]
    for _ in range(min(max_rows, len(rows))):
        s = rows.pop(integer(0, len(rows) - 1))
        succ = list(chain.support[s])
        a = succ.pop(integer(0, len(succ) - 1))
        b = succ[integer(0, len(succ) - 1)]
        x = params[integer(0, len(params) - 1)]
        mass = dict(chain.row(s))[a] + dict(chain.row(s))[b]
        if squares and integer(0, 2) == 0:
            P[s][a], P[s][b] = f"({mass})*(2*{x}-1)^2", f"({mass})*4*{x}*(1-{x})"
            continue
        if products and len(params) >= 2 and integer(0, 2) == 0:
            x = f"{x}*{next(y for y in params if y != x)}"
        P[s][a] = f"({mass})*{x}"
        P[s][b] = f"({mass})*(1-{x})"
    for _ in range(integer(0, max_rewards)):
        s = integer(0, n - 1)
        r[s] = f"{r[s]} + {params[integer(0, len(params) - 1)]}"
    return ParametricChain(P, r, params=list(params))
