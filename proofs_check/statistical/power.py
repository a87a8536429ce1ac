"""Power of the statistical checks: broken estimators (:data:`MUTANTS`) and rejection rates.

A check that never rejects is worth nothing; each mutant here spends fewer samples than it states or biases
its output, and :func:`rejection_rate` measures how often its check rejects it (and, with ``mutant=None``,
how often it rejects the correct estimator: the false-alarm rate ``docs/estimator.md`` tabulates).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from exactpte import MarkovRewardProcess
from exactpte.estimator import estimate, estimate_weights, learn_structure
from exactpte.estimator.algorithms import LearnedStructure
from exactpte.estimator.generative import GenerativeModel
from exactpte.estimator.pipeline import Estimate

from proofs_check.statistical.checks import STATISTICAL, Learner, WeightEstimator
from proofs_check.statistical.tests import ALPHA

__all__ = ["MUTANTS", "rejection_rate", "fewer_episodes", "biased_weights", "fewer_structure_samples",
           "fewer_residual_samples"]


def fewer_episodes(factor: int) -> WeightEstimator:
    """A broken weight stage: told ``M``, it runs ``M // factor`` episodes."""
    return lambda model, learned, M, rng: estimate_weights(model, learned, max(1, M // factor), rng)


def biased_weights(bias: float, column: int = 0) -> WeightEstimator:
    """A broken weight stage: ``b̂`` with column ``column`` scaled by ``1 + bias`` on transient rows, rows renormalised."""

    def weights(model: GenerativeModel, learned: LearnedStructure, M: int, rng: np.random.Generator) -> np.ndarray:
        b = estimate_weights(model, learned, M, rng)
        T = list(learned.structure.transient)
        b[T, column] *= 1 + bias
        b[T] /= b[T].sum(axis=1, keepdims=True)
        return b

    return weights


def fewer_structure_samples(factor: int) -> Learner:
    """A broken support learner: told ``K``, it draws ``K // factor`` samples a state."""
    return lambda model, K, rng: learn_structure(model, max(1, K // factor), rng)


def fewer_residual_samples(factor: int) -> Callable[..., Estimate]:
    """A broken estimator whose residual stage draws ``J // factor`` samples an anchor (told ``J``)."""
    return lambda chain, J, **kw: estimate(chain, J=max(1, J // factor), **kw)


MUTANTS: dict[str, tuple[str, str, Any]] = {
    "episodes/4": ("lem:main_weight_conc", "weights", fewer_episodes(4)),
    "episodes/16": ("lem:main_weight_conc", "weights", fewer_episodes(16)),
    "b-bias-10%": ("lem:main_weight_conc", "weights", biased_weights(0.1)),
    "structure-samples/2": ("thm:main_support_recovery", "learn", fewer_structure_samples(2)),
    "residual-samples/4": ("thm:main_g_rate", "run", fewer_residual_samples(4)),
}
"""Broken estimators: name -> (the check that should reject it, the check's keyword for it, the stand-in)."""


def rejection_rate(chain: MarkovRewardProcess, key: str, *, repeats: int, mutant: str | None = None, alpha: float = ALPHA,
                   runs: int | None = None, first_seed: int = 0) -> tuple[int, int]:
    """How often the check ``key`` rejects (on seeds ``first_seed ..``): the correct estimator (``mutant=None``:
    the false-alarm rate) or a broken one of :data:`MUTANTS`.  Returns ``(rejections, repeats)``."""
    kwargs: dict[str, Any] = {"alpha": alpha}
    if runs is not None:
        kwargs["runs"] = runs
    if mutant is not None:
        target, keyword, standin = MUTANTS[mutant]
        if target != key:
            raise ValueError(f"mutant {mutant} is meant for {target}, not {key}")
        kwargs[keyword] = standin
    rejected = sum(STATISTICAL[key](chain, seed=s, **kwargs).holds is False for s in range(first_seed, first_seed + repeats))
    return rejected, repeats
