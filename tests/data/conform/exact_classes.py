"""Closed classes from exact input (--exact): P arrives as lists of fractions.Fraction; the support
graph is read off the entries that are > 0, the closed classes found by plain reachability."""

from fractions import Fraction


def solve(P, r):
    assert all(isinstance(x, Fraction) for row in P for x in row) and all(isinstance(x, Fraction) for x in r)
    assert all(sum(row) == 1 for row in P)
    n = len(P)
    reach = [{j for j in range(n) if P[i][j] > 0} for i in range(n)]
    for _ in range(n):
        reach = [set().union(reach[i], *(reach[j] for j in reach[i])) for i in range(n)]
    closed = {frozenset(reach[i] | {i}) for i in range(n) if all(i in reach[j] for j in reach[i])}
    return {"classes": sorted(sorted(c) for c in closed)}
