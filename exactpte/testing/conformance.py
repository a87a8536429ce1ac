"""A solver's conformance on a whole corpus, as tests of one's own suite.

:func:`conformance` gives one check per chain of a corpus (:mod:`exactpte.oracle.corpora`), for
``pytest.mark.parametrize``: a check calls the solver, judges its output as ``exactpte check`` does,
and on a disagreement raises an ``AssertionError`` that names the cause and shows the **smallest chain**
on which the same cause fires (shrunk once per cause, shared by the checks of one call)::

    from exactpte.testing import conformance

    @pytest.mark.parametrize("check", conformance(solve, corpus="exhaustive:2"), ids=str)
    def test_solver_conforms(check):
        check()

The pytest plugin (:mod:`exactpte.testing.pytest_plugin`) does the same from the command line.

Examples
--------
>>> import numpy as np
>>> checks = conformance(lambda P, r: {"rho": np.linalg.matrix_power(P, 200) @ r}, corpus="exhaustive:2")
>>> len(checks), [str(c) for c in checks if not c.verdict().ok]
(10, ['1-0'])
>>> next(c for c in checks if str(c) == "1-0")()
Traceback (most recent call last):
...
AssertionError: chain 1-0 (exhaustive:2): power-iteration value on a periodic class
...
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from exactpte.errors import UsageError
from exactpte.oracle.conformance import Conformance, Tolerance, Verdict, load_adapter
from exactpte.oracle.corpora import Case, cases_of

__all__ = ["conformance", "ConformanceCheck", "failure_message"]


def failure_message(case: Case[Any], verdict: Verdict, run: Conformance[Any]) -> str:
    """What a failing check says: the chain and the cause, its verdict, then the smallest chain on which the
    same cause fires (with the solver's output there and the chain file to reproduce it)."""
    kind = run.kind
    what = "chain" if kind.name == "chain" else kind.name.upper()
    lines = [f"{what} {case.name} ({case.corpus}): {verdict.group}", *("  " + x for x in verdict.detail.splitlines())]
    small, small_verdict, calls = run.smallest(case.problem, verdict)
    n = kind.states(small)
    lines.append(f"smallest {what} on which it fires ({n} state{'s' * (n != 1)}; {calls} shrink calls), "
                 f"a file `exactpte {'decompose' if kind.name == 'chain' else 'mdp'}` reads:")
    lines.append("  " + json.dumps(kind.to_dict(small)))
    if small_verdict.output is not None:
        lines.append("  output there: " + json.dumps(small_verdict.output, default=str)[:600])
    lines += ["  " + x for x in small_verdict.detail.splitlines()]
    return "\n".join(lines)


@dataclass(frozen=True)
class ConformanceCheck:
    """One chain's check: calling it runs the solver on the chain and raises ``AssertionError`` (with
    :func:`failure_message`) when the output disagrees; ``str`` is the chain's name (a test id)."""

    case: Case[Any]
    run: Conformance[Any]

    def verdict(self) -> Verdict:
        """The solver's verdict on this chain (no exception)."""
        return self.run.verdict(self.case.problem)

    def __call__(self) -> None:
        verdict = self.verdict()
        if not verdict.ok:
            raise AssertionError(failure_message(self.case, verdict, self.run))

    def __str__(self) -> str:
        return self.case.name


def conformance(solve: Callable[..., Any] | str, *, corpus: str | Sequence[str] | None = None, seed: int = 0,
                inputs: str = "float", atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False,
                strict: bool = False, mdp: bool = False, discount: Any = None) -> list[ConformanceCheck]:
    """One check per chain of ``corpus`` (``"exhaustive:N"``, ``"random:K"``, ``"edge"``, several as a list or
    separated by commas; default ``"exhaustive:3"``; ``seed`` for random ones) for the solver ``solve(P, r)`` (or
    ``"FILE.py:function"``, loaded as ``exactpte conform`` loads an adapter), its outputs judged as ``exactpte check``
    judges a candidate (``atol``, ``rtol``, ``up_to_gauge``, ``strict``); ``inputs``: ``"float"`` (float64 arrays),
    ``"exact"`` (``Fraction`` lists) or ``"sparse"`` (a scipy CSR matrix).  With ``mdp``: an MDP solver
    ``solve(P, R)`` over MDP corpora (default ``"exhaustive:2,edge"``), judged as ``exactpte check --mdp`` (with
    ``discount``: as discounted answers).

    Raises
    ------
    UsageError
        A bad corpus spec, tolerance, discount or ``inputs``, or an adapter file that cannot be loaded.
    """
    from exactpte.oracle.values import require_tolerance

    fn = load_adapter(solve) if isinstance(solve, str) else solve
    tolerance = Tolerance(require_tolerance(atol, "atol"), require_tolerance(rtol, "rtol"), up_to_gauge, strict)
    if mdp:
        from exactpte.oracle.mdp_conformance import MDPKind, mdp_cases_of

        mdps: Conformance[Any] = Conformance(fn, kind=MDPKind(discount), inputs=inputs, tolerance=tolerance)
        return [ConformanceCheck(case, mdps) for case in mdp_cases_of(corpus or "exhaustive:2,edge", seed=seed)]
    if discount is not None:
        raise UsageError("a discount applies to MDP solvers (mdp=True; --mdp, --exactpte-mdp on the command line)")
    run: Conformance[Any] = Conformance(fn, inputs=inputs, tolerance=tolerance)
    return [ConformanceCheck(case, run) for case in cases_of(corpus or "exhaustive:3", seed=seed)]
