"""Case studies: exactpte's MDP judge on pymdptoolbox, mdptoolbox-hiive, QuantEcon and Storm, in their native shapes.

Six small MDPs, built exactly (``exactpte.mdp.MDP``): a multichain MDP (optimal gains 2, 1, 2), a 2-cycle, a
periodic MDP, a near tie (1 against 1001/1000 a step), a self-loop trap, and a lump sum against a stream (where a
discount close to 1 still prefers the lump).  Each solver runs on the float
version (Storm on the exact one); its result object is dumped as a tester would (``V``, ``policy``,
``average_reward``, ``iter``, ``max_iter``; QuantEcon's ``v``, ``sigma``, ``num_iter``, ``max_iter``; Storm's values
by property and its scheduler's choices) and handed unchanged to
:func:`exactpte.oracle.judge_mdp` (``--discount 9/10`` for the discounted solvers, none for relative value
iteration).  A solver that is not installed is skipped with a note (``pip install "exactpte[peers]"``).

Run: ``python examples/judge_mdp_solvers.py`` (one line per run: solver, MDP, verdict, the first likely cause).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from exactpte.mdp import MDP
from exactpte.model.to_float import to_float
from exactpte.oracle import MDPReference, Report, judge_mdp

MDPS = {
    "multichain": MDP([[[0, 1, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 1], [0, 1, 0], [0, 0, 1]]], [[0, 0], [1, 1], [2, 2]]),
    "2-cycle": MDP([[[0, 1], [1, 0]]], [[2], [0]]),
    "periodic": MDP([[[0, 1], [1, 0]], [[1, 0], [1, 0]]], [[2, "1/2"], [0, 0]]),
    "near tie": MDP([[[1, 0], [0, 1]], [[0, 1], [0, 1]]], [[1, 0], ["1001/1000", "1001/1000"]]),
    "loop trap": MDP.from_actions([[[1, 0, 0], [0, 1, 0]], [[0, 0, 1]], [[0, 1, 0]]], [[0, 0], [1], [1]]),
    # state 0: 2,000,000 once, then nothing for ever (gain 0), or 1 a step for ever (gain 1)
    "stand-in": MDP.from_actions([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0]], [[0, 0, 1]]], [[2_000_000, 0], [0], [1]]),
}
DISCOUNT = "9/10"


def arrays(mdp: MDP) -> tuple[np.ndarray, np.ndarray]:
    """pymdptoolbox's ``P`` (``A x S x S``; a state with fewer actions repeats its last one) and ``R`` (``S x A``)."""
    A = max(mdp.num_actions)
    P = np.zeros((A, mdp.n, mdp.n))
    R = np.zeros((mdp.n, A))
    for s in range(mdp.n):
        for a in range(A):
            b = min(a, mdp.num_actions[s] - 1)
            for j, q in mdp.row(s, b):
                P[a, s, j] = to_float(q)
            R[s, a] = to_float(mdp.reward(s, b))
    return P, R


def _dump(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for name in names:
        value = obj[name] if isinstance(obj, dict) else getattr(obj, name, None)
        if value is not None:
            out[name] = value.tolist() if hasattr(value, "tolist") else value
    return out


def pymdptoolbox_runs(module: Any, label: str) -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
    """``(solver, mdp, output, discount)`` for relative value iteration, value iteration, policy iteration."""
    for name, mdp in MDPS.items():
        P, R = arrays(mdp)
        for cls, discount in (("RelativeValueIteration", None), ("ValueIteration", DISCOUNT), ("PolicyIteration", DISCOUNT)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    solver = getattr(module, cls)(P, R) if discount is None else getattr(module, cls)(P, R, 0.9)
                    solver.run()
                except Exception as e:  # the crash is the finding (hiive's RVI)
                    yield f"{label} {cls}", name, {"error": f"{type(e).__name__}: {e}"}, discount
                    continue
            yield f"{label} {cls}", name, _dump(solver, ("V", "policy", "average_reward", "iter", "max_iter")), discount


def quantecon_runs() -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
    """QuantEcon's ``DiscreteDP`` (β = 0.9) solved by policy and value iteration; and β = 0.999999 as a stand-in
    for the average reward, judged against the gain."""
    import quantecon as qe

    for name, mdp in MDPS.items():
        P, R = arrays(mdp)
        Q = np.transpose(P, (1, 0, 2))
        for beta, discount in ((0.9, DISCOUNT), (0.999999, None)):
            ddp = qe.markov.DiscreteDP(R, Q, beta)
            for method in ("policy_iteration", "value_iteration"):
                res = ddp.solve(method=method)
                out = _dump(res, ("v", "sigma", "num_iter", "max_iter"))
                if discount is None:
                    out["beta"] = beta
                yield f"QuantEcon {method} (beta={beta})", name, out, discount


def storm_runs() -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
    """Storm's exact engine: ``R{"r"}max=? [ LRA ]`` on the exact model (from DRN), with its scheduler when it gives one."""
    import os
    import tempfile

    import stormpy

    from exactpte.io import to_drn_mdp

    prop = 'R{"r"}max=? [ LRA ]'
    for name, mdp in MDPS.items():
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "m.drn")
            with open(path, "w") as fh:
                fh.write(to_drn_mdp(mdp))
            model = stormpy.build_model_from_drn[stormpy.Rational](path)
        env = stormpy.Environment()
        env.solver().force_exact = True
        formula = stormpy.parse_properties(prop)[0]
        try:
            res = stormpy.model_checking(model, formula, only_initial_states=False, extract_scheduler=True, environment=env)
            solver = "Storm exact LRA + scheduler"
        except RuntimeError:  # "Scheduler extraction is not yet implemented for LP ...": the values alone
            res = stormpy.model_checking(model, formula, only_initial_states=False, environment=env)
            solver = "Storm exact LRA (no scheduler: not implemented)"
        out: dict[str, Any] = {prop: [str(v) for v in res.get_value_vector()]}
        if res.has_scheduler():
            scheduler = res.get_scheduler()
            out["scheduler"] = [scheduler.get_choice(s).get_deterministic_choice() for s in range(model.nr_states)]
        yield solver, name, out, None


def judged(runs: Iterator[tuple[str, str, dict[str, Any], str | None]]) -> Iterator[tuple[str, str, Report | str]]:
    """Each run's report (or the solver's own crash)."""
    refs: dict[tuple[str, str | None], MDPReference] = {}
    for solver, name, out, discount in runs:
        if "error" in out:
            yield solver, name, out["error"]
            continue
        ref = refs.setdefault((name, discount), MDPReference(MDPS[name], discount=discount))
        yield solver, name, judge_mdp(out, ref)


def studies() -> list[tuple[str, Callable[[], Iterator[tuple[str, str, dict[str, Any], str | None]]]]]:
    def pymdptoolbox() -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
        import mdptoolbox.mdp

        return pymdptoolbox_runs(mdptoolbox.mdp, "pymdptoolbox")

    def hiive() -> Iterator[tuple[str, str, dict[str, Any], str | None]]:
        import hiive.mdptoolbox.mdp

        return pymdptoolbox_runs(hiive.mdptoolbox.mdp, "mdptoolbox-hiive")

    return [("pymdptoolbox", pymdptoolbox), ("mdptoolbox-hiive", hiive), ("QuantEcon", quantecon_runs), ("Storm", storm_runs)]


def main() -> None:
    for peer, runs in studies():
        try:
            results = list(judged(runs()))
        except ImportError as e:
            print(f"{peer}: not installed ({e}); pip install \"exactpte[peers]\"")
            continue
        for solver, name, report in results:
            if isinstance(report, str):
                print(f"{solver:45} {name:11} crashed: {report[:90]}")
                continue
            bad = [f for f in report.findings if not report.ok and not f.ok and f.status != "same up to gauge"]
            cause = next((f"{f.key}: {f.diagnosis}" for f in bad if f.diagnosis), bad[0].detail if bad else "")
            print(f"{solver:45} {name:11} {'agrees' if report.ok else 'DISAGREES'}  {cause[:150]}")


if __name__ == "__main__":
    main()
