"""A correct average-reward MDP solver for small MDPs (--mdp --exact): every deterministic policy's chain
decomposed exactly, the policy whose gain is largest in every state returned (one exists: Puterman 9.1)."""

import itertools

import exactpte


def solve(P, R):
    A, n = len(P), len(R)
    best, best_gain = None, None
    for policy in itertools.product(range(A), repeat=n):
        chain = exactpte.MarkovRewardProcess([P[policy[s]][s] for s in range(n)], [R[s][policy[s]] for s in range(n)])
        gain = exactpte.decompose(chain).rho
        if best_gain is None or all(g >= b for g, b in zip(gain, best_gain)):
            best, best_gain = policy, gain
    return {"policy": list(best), "gain": [str(g) for g in best_gain]}
