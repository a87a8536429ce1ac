"""Hypothesis strategies for random reducible periodic chains, valid by construction.

Every choice of :func:`exactpte.testing.random_chains.build_chain` is drawn from
``st.integers``, so failing examples shrink towards one class, small periods,
few transient states, sparse rows, small denominators and no relabelling.
No ``.filter``: every drawn chain is a valid Markov reward process.

Examples
--------
>>> from hypothesis import given, settings
>>> @settings(max_examples=5, database=None)
... @given(chains(max_states=8))
... def prop(m):
...     assert m.n <= 8
>>> prop()
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from exactpte.mdp.model import MDP
from exactpte.model.chain import MarkovRewardProcess
from exactpte.testing.mdps import build_mdp
from exactpte.testing.random_chains import FAMILIES, ChainBounds, ChainSpec, build_chain, draw_spec, draw_sweep_chain, parametrize

if TYPE_CHECKING:
    from exactpte.model.parametric import ParametricChain

__all__ = ["ChainBounds", "mdps", "chain_specs", "chains", "sweep_chains", "edge_case_chains", "parametric_chains", "generic_points", "describe"]


def chain_specs(*, bounds: ChainBounds | None = None, **overrides: int | None) -> st.SearchStrategy[ChainSpec]:
    """Shapes drawn by :func:`exactpte.testing.random_chains.draw_spec` within :class:`ChainBounds`
    (``bounds``, or any of its fields as a keyword), checked when the strategy is made."""
    checked = ChainBounds.of(bounds, overrides)

    @st.composite
    def spec(draw: st.DrawFn) -> ChainSpec:
        return draw_spec(lambda lo, hi: draw(st.integers(lo, hi)), checked)

    return spec()


def chains(
    *,
    bounds: ChainBounds | None = None,
    max_out_degree: int = 3,
    max_denominator: int = 10,
    reward_range: tuple[int, int] = (-3, 3),
    reward_denominator: int = 1,
    permute: bool = True,
    steer: bool = True,
    transient_shape: str = "random",
    **overrides: int | None,
) -> st.SearchStrategy[MarkovRewardProcess]:
    """Random reducible periodic chains; transient states may reach several classes at several phase offsets.

    The shape keeps within :class:`ChainBounds` (``bounds``, or any of its fields as a keyword:
    ``chains(max_states=8)``), checked when the strategy is made.  With ``steer`` (the default),
    three draws in four ask for the rich case the paper is about (as far as the bounds allow): at
    least two closed classes, a periodic first class, and a transient state entering it at two
    phase offsets.  The steering choice shrinks to the plain case, so a failure that does not need
    the rich shape shrinks past it.  ``transient_shape`` (``"random"``, ``"line"``, ``"block"``) as
    in :func:`~exactpte.testing.random_chains.build_chain`.
    """
    plain = ChainBounds.of(bounds, overrides)
    rich_bounds = dataclasses.replace(
        plain,
        min_classes=max(plain.min_classes, 2) if plain.max_classes >= 2 else plain.min_classes,
        min_transient=max(plain.min_transient, min(1, plain.max_transient)),
        min_first_period=max(plain.min_first_period, min(2, plain.max_period)),
    )

    @st.composite
    def chain(draw: st.DrawFn) -> MarkovRewardProcess:
        rich = steer and draw(st.sampled_from([False, True, True, True]))
        spec = draw_spec(lambda lo, hi: draw(st.integers(lo, hi)), rich_bounds if rich else plain)
        return build_chain(
            lambda lo, hi: draw(st.integers(lo, hi)),
            spec,
            out_degree=(1, max_out_degree),
            max_denominator=max_denominator,
            reward_range=reward_range,
            reward_denominator=reward_denominator,
            permute=permute,
            spread_entry=bool(rich),
            transient_shape=transient_shape,
        )

    return chain()


@st.composite
def sweep_chains(draw: st.DrawFn, *, min_states: int = 1, max_states: int = 12, max_period: int = 4,
                 max_out_degree: int = 3, families: tuple[str, ...] = FAMILIES) -> MarkovRewardProcess:
    """The sweep's chain distribution (:func:`~exactpte.testing.random_chains.draw_sweep_chain`) as a
    strategy: every choice an ``st.integers`` draw, so a failure shrinks towards ``min_states`` states,
    the ``mixed`` family, few transient states and sparse rows."""
    return draw_sweep_chain(lambda lo, hi: draw(st.integers(lo, hi)), min_states=min_states, max_states=max_states,
                            max_period=max_period, max_out_degree=max_out_degree, families=families)


def edge_case_chains() -> st.SearchStrategy[MarkovRewardProcess]:
    """n = 1, one absorbing state with transients, pure cycles, period = class size, all transient but one."""
    return st.one_of(
        chains(max_classes=1, max_period=1, max_phase_size=1, max_transient=0),  # n = 1
        chains(max_classes=1, max_period=1, max_phase_size=1, max_transient=6),  # all transient but one
        chains(max_classes=1, max_period=6, max_phase_size=1, max_transient=0),  # pure cycles
        chains(max_classes=2, max_period=5, max_phase_size=1, max_transient=3),  # period = class size
    )


@st.composite
def parametric_chains(draw: st.DrawFn, /, *, params: tuple[str, ...] = ("p", "q"), max_parametric_rows: int = 3,
                      **chain_kwargs: Any) -> ParametricChain:
    """Parametric chains valid by construction (:func:`exactpte.testing.random_chains.parametrize` on a drawn
    chain): the generic region contains ``(0, 1)^k``, so :func:`generic_points` lie inside it."""
    base = draw(chains(**chain_kwargs))
    return parametrize(base, lambda lo, hi: draw(st.integers(lo, hi)), params=params, max_rows=max_parametric_rows)


def generic_points(params: tuple[str, ...] = ("p", "q"), max_denominator: int = 50) -> st.SearchStrategy[dict[str, str]]:
    """Rational points of ``(0, 1)^k``, inside the generic region of :func:`parametric_chains`."""

    @st.composite
    def point(draw: st.DrawFn) -> dict[str, str]:
        out = {}
        for p in params:
            q = draw(st.integers(2, max_denominator))
            out[p] = f"{draw(st.integers(1, q - 1))}/{q}"
        return out

    return point()


def describe(chain: MarkovRewardProcess) -> list[str]:
    """Labels of the shape of a chain, for ``hypothesis.event`` (the mix a property test saw).

    Examples
    --------
    >>> from exactpte import example
    >>> describe(example("paper-benchmark"))
    ['classes=2', 'periodic class', 'transient states', 'entry at >= 2 phase offsets']
    """
    S = chain.structure
    out = [f"classes={min(len(S.classes), 3)}{'+' if len(S.classes) > 3 else ''}"]
    if any(d > 1 for d in S.periods):
        out.append("periodic class")
    if S.transient:
        out.append("transient states")
        from exactpte.solves.absorption import phase_offset_basis

        basis = phase_offset_basis(chain, S)
        col = 0
        for d in S.periods:
            if d > 1 and any(sum(1 for c in row if col <= c < col + d) >= 2 for row in basis.values()):
                out.append("entry at >= 2 phase offsets")
                break
            col += d
    return out


def mdps(*, max_states: int = 6, max_actions: int = 3, max_denominator: int = 6, reward_range: tuple[int, int] = (0, 3),
         reward_denominator: int = 1) -> st.SearchStrategy[MDP]:
    """Random MDPs by :func:`exactpte.testing.mdps.build_mdp` (blocks that most actions stay in: multichain;
    moves around a block: periodic classes; self-loops; small rewards: ties), valid by construction; failures
    shrink towards one state, one action, self-loops and small rewards.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=5, database=None)
    ... @given(mdps(max_states=4))
    ... def prop(m):
    ...     assert 1 <= m.n <= 4
    >>> prop()
    """

    @st.composite
    def draw_mdp(draw: st.DrawFn) -> MDP:
        return build_mdp(lambda lo, hi: draw(st.integers(lo, hi)), max_states=max_states, max_actions=max_actions,
                         max_denominator=max_denominator, reward_range=reward_range, reward_denominator=reward_denominator)

    return draw_mdp()
