"""Closed classes read off the CSR matrix's stored entries (--sparse): right only when the matrix
stores no zeros."""

import numpy as np


def solve(P, r):
    n = P.shape[0]
    succ = [set(P.indices[P.indptr[i]:P.indptr[i + 1]].tolist()) for i in range(n)]
    reach = [set(s) for s in succ]
    for _ in range(n):
        reach = [set().union(reach[i], *(reach[j] for j in reach[i])) for i in range(n)]
    closed = {frozenset(reach[i] | {i}) for i in range(n) if all(i in reach[j] for j in reach[i])}
    return {"classes": sorted(sorted(c) for c in closed), "solver_seconds": 0.001}
