"""The gain as P^200 r: right on aperiodic chains, wrong on periodic classes (numpy only)."""

import numpy as np


def solve(P, r):
    return {"rho": np.linalg.matrix_power(P, 200) @ r}
