"""Closed forms of the decomposition for small parametric chains (see docs/closed-forms.md).

    python examples/closed_forms.py

Each block prints the chain's assumptions (its generic region), the closed forms, and
checks them against the formula derived by hand.
"""

from __future__ import annotations

import sympy

import exactpte
from exactpte.model.examples import branching_param, cycle_rewards, paths_with_exit, two_state


def show(title: str, chain, keys=("g_star", "v_star", "rho", "h", "psi")) -> exactpte.Decomposition:
    dec = exactpte.decompose(chain)
    print(f"\n== {title}")
    print("valid where: " + (", ".join(chain.assumptions() + dec.denominator_conditions()) or "every parameter value"))
    for s in range(chain.n):
        cells = "  ".join(f"{k}={getattr(dec, k)[s]}" for k in keys)
        print(f"  {chain.label(s):>6}: {cells}")
    return dec


def main() -> int:
    p, q, e, b, a, c = sympy.symbols("p q e b a c", real=True)

    dec = show("Two-state chain P = [[1-p, p], [q, 1-q]], r = (1, 0)", two_state())
    # rho = pi(on) = q/(p+q); with the anchor at 'on', v*(off) = -(expected time to reach 'on') * g* ... = -1/(p+q)
    assert sympy.simplify(dec.rho[0].to_sympy() - q / (p + q)) == 0
    assert sympy.simplify(dec.v_star[1].to_sympy() + 1 / (p + q)) == 0
    assert sympy.simplify(dec.h[0].to_sympy() - p / (p + q) ** 2) == 0
    print("  checked: rho = q/(p+q), v*(off) = -1/(p+q), h(on) = p/(p+q)^2")

    dec = show("Same regime, different path cost, with exit probability e (paths of length 3 and 14)",
               paths_with_exit(), keys=("g_star", "v_star"))
    for s, lab in enumerate(dec.chain.labels):
        if lab != "a":
            ell = int(lab.split("_")[1])
            assert sympy.simplify(dec.v_star[s].to_sympy() + (1 - (1 - e) ** ell) / e) == 0
    print("  checked: g* = 1 and v*(distance l) = -(1 - (1-e)^l)/e, the expected number of steps before the anchor")

    dec = show("Periodic two-class chain, transient branching with probability b", branching_param())
    t0 = 5
    assert sympy.simplify(dec.g_star[t0].to_sympy() - (1 - 2 * b / 3)) == 0
    assert sympy.simplify(dec.rho[t0].to_sympy() - (b / 3 + sympy.Rational(1, 2))) == 0
    print("  checked at t0: g* = 1 - 2b/3, v* = 2b/3 - 1, rho = 1/2 + b/3, psi = 1/4 - 5b/6, h = -3/4 - b/6")

    dec = show("Deterministic 8-cycle with rewards a (first half) and c (prop:deterministic_cycle)", cycle_rewards(8))
    assert all(v == 0 for v in dec.v_star) and dec.g_star == dec.chain.r
    assert sympy.simplify(dec.h[0].to_sympy() - (a - c)) == 0
    print("  checked: v* = 0, g* = r, ||h|| = d|a - c|/8 = |a - c| while there is no transient path")

    print("\n== Every stratum: P = [[0, q, 1-q], [0, p, 1-p], [0, 1, 0]], r = (0, 1, 0)")
    chain = exactpte.ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
    strat = exactpte.stratify(chain)
    print(strat)
    generic = strat.strata[0].decomposition
    assert sympy.simplify(generic.g_star[0].to_sympy() + 1 / (p - 2)) == 0  # -> 1/2 as p -> 0 ...
    at_p0 = strat.at({"p": 0, "q": "1/3"})  # ... but p = 0 makes {1, 2} a 2-cycle
    assert at_p0.periods == (2,) and [str(x) for x in at_p0.g_star] == ["2/3", "1", "0"]
    assert at_p0.to_dict() == exactpte.decompose(chain.at({"p": 0, "q": "1/3"}, check=False)).to_dict()
    print("  checked: generic g* = -1/(p - 2); at p = 0 (periodic) g* = (1 - q, 1, 0), equal to decomposing the substituted chain")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
