"""Conjectures of your own, tested the way the paper's theorems are.

A conjecture is a function ``(chain, dec) -> bool | str | None`` (``chain`` a
:class:`~exactpte.MarkovRewardProcess`, ``dec`` its :class:`~exactpte.Decomposition`)
registered under a label::

    import proofs_check

    @proofs_check.conjecture("my:rho_below_max_reward")
    def rho_below_max_reward(chain, dec):
        return all(x <= max(chain.r) for x in dec.rho)

``True`` or ``None`` means it holds on that chain; ``False`` or a string (saying what fails)
means a counterexample.  :func:`run_conjecture` runs one on seeded random chains and shrinks
every counterexample (:func:`proofs_check.runs.shrink.shrink`); ``proofs-check sweep --checks FILE``
runs every conjecture a file registers beside the built-in checks, with the counterexamples
written as chain files, smallest first.

Examples
--------
>>> @conjecture("doc:gain_is_bounded_by_rewards")
... def _gain_bounded(chain, dec):
...     return all(min(chain.r) <= x <= max(chain.r) for x in dec.rho)
>>> run_conjecture("doc:gain_is_bounded_by_rewards", chains=20, max_states=6).failed
0
>>> @conjecture("doc:bias_is_the_transient_part")
... def _h_is_v(chain, dec):
...     return dec.h == dec.v_star
>>> result = run_conjecture("doc:bias_is_the_transient_part", chains=40, max_states=6)
>>> result.failed > 0 and result.counterexamples[0].n <= 3
True
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

import exactpte
from exactpte import MarkovRewardProcess
from exactpte.errors import UnknownNameError, UsageError
from exactpte import Decomposition
from exactpte.model.random_chains import sweep_chain

from proofs_check.runs.shrink import shrink, size
from proofs_check.symbolic.decided import judged

__all__ = ["Conjecture", "CONJECTURES", "conjecture", "evaluate", "run_conjecture", "ConjectureResult", "load_conjectures"]


ConjectureFunc: TypeAlias = Callable[[MarkovRewardProcess, Decomposition], object]
"""A conjecture: ``(chain, decomposition) -> True/None`` (holds), ``False`` or a string naming what fails."""


@dataclass(frozen=True)
class Conjecture:
    """A registered conjecture: its label, statement (the docstring's first line) and function."""

    label: str
    statement: str
    func: ConjectureFunc


CONJECTURES: dict[str, Conjecture] = {}
"""Every registered conjecture by label, in registration order."""


def conjecture(label: str, statement: str | None = None) -> Callable[[ConjectureFunc], ConjectureFunc]:
    """Decorator registering ``func(chain, dec)`` as the conjecture ``label`` (see the module docstring)."""
    if not isinstance(label, str) or not label:
        raise UsageError("a conjecture needs a label such as 'my:rho_below_max_reward'")

    def deco(func: ConjectureFunc) -> ConjectureFunc:
        doc = (func.__doc__ or "").strip().splitlines()
        CONJECTURES[label] = Conjecture(label, statement or (doc[0] if doc else func.__name__), func)
        if _RECORDING is not None:
            _RECORDING.append(label)
        return func

    return deco


def evaluate(conj: Conjecture, chain: MarkovRewardProcess, dec: Decomposition | None = None) -> str | None:
    """``None`` when the conjecture holds on ``chain``, else what fails (an exception inside the
    conjecture is reported as a failure naming it)."""
    dec = dec if dec is not None else exactpte.decompose(chain)
    try:
        return judged(conj.func(chain, dec))
    except Exception as e:  # the user's function failed on this chain: a finding, not a crash
        return f"the conjecture raised {type(e).__name__}: {e}"


@dataclass
class ConjectureResult:
    """Counts of one conjecture over a sweep, and its shrunk counterexamples, smallest first."""

    label: str
    checked: int = 0
    held: int = 0
    failed: int = 0
    seconds: float = 0.0
    counterexamples: list[MarkovRewardProcess] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


def _lookup(label_or_func: str | Conjecture | ConjectureFunc) -> Conjecture:
    if isinstance(label_or_func, Conjecture):
        return label_or_func
    if callable(label_or_func):
        return Conjecture(getattr(label_or_func, "__name__", "conjecture"), "", label_or_func)
    if label_or_func not in CONJECTURES:
        raise UnknownNameError(f"no conjecture {label_or_func!r}; registered: {', '.join(CONJECTURES) or 'none'}")
    return CONJECTURES[label_or_func]


def run_conjecture(label_or_func: str | Conjecture | ConjectureFunc, *, chains: int = 200, seed: int = 0, max_states: int = 12,
                   min_states: int = 1,
                   max_counterexamples: int = 5) -> ConjectureResult:
    """Test a conjecture on ``chains`` seeded random chains (chain ``i`` from ``(seed, i)``, as in sweeps).

    Parameters
    ----------
    label_or_func : str or callable
        A registered label, or a function ``(chain, dec) -> bool | str | None``.
    chains, seed, min_states, max_states : int
        How many random chains (the sweep's families, :func:`exactpte.model.random_chains.sweep_chain`),
        the sweep seed, their smallest and largest size.
    max_counterexamples : int
        How many failing chains to shrink and keep (the smallest first).

    Returns
    -------
    ConjectureResult
        ``checked``, ``held``, ``failed``, ``seconds`` and the shrunk ``counterexamples``.
    """
    conj = _lookup(label_or_func)
    result = ConjectureResult(conj.label)
    failing = []
    for i in range(chains):
        chain = sweep_chain(f"{seed}:{i}", min_states=min_states, max_states=max_states)
        t0 = time.perf_counter()
        detail = evaluate(conj, chain)
        result.seconds += time.perf_counter() - t0
        result.checked += 1
        if detail is None:
            result.held += 1
        else:
            result.failed += 1
            failing.append((i, chain, detail))
    for _, chain, detail in failing[:max_counterexamples]:
        small = shrink(chain, lambda m: evaluate(conj, m) is not None)
        result.counterexamples.append(small)
        result.details.append(evaluate(conj, small) or detail)
    order = sorted(range(len(result.counterexamples)), key=lambda k: size(result.counterexamples[k]))
    result.counterexamples = [result.counterexamples[k] for k in order]
    result.details = [result.details[k] for k in order]
    return result


_FILE_LABELS: dict[str, list[str]] = {}
_RECORDING: list[str] | None = None  # labels registered while a conjecture file is being imported


def load_conjectures(path: str | os.PathLike[str]) -> list[str]:
    """Import a Python file that registers conjectures (the user's own code, run as a plugin, once
    per process); returns the labels it registers."""
    path = os.path.abspath(os.fspath(path))
    if path in _FILE_LABELS:
        return _FILE_LABELS[path]
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such conjecture file")
    global _RECORDING
    name = f"proofs_check_user_{len(_FILE_LABELS)}_{os.path.splitext(os.path.basename(path))[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"{path}: not a Python file (no module loader for it)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _RECORDING = []
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UsageError(f"{path}: importing the conjecture file failed ({type(e).__name__}: {e})") from None
    finally:
        recorded, _RECORDING = _RECORDING, None
    _FILE_LABELS[path] = list(dict.fromkeys(recorded))
    if not _FILE_LABELS[path]:
        raise UsageError(f"{path}: registers no conjecture (decorate functions with @proofs_check.conjecture(\"label\"))")
    return _FILE_LABELS[path]
