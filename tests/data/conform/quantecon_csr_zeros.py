"""QuantEcon's MarkovChain on a CSR matrix that stores every entry, zeros included (as
``scipy.sparse.csr_matrix`` keeps the explicit zeros of the arrays it is built from): QuantEcon
reads the stored zeros as edges."""

import numpy as np
import quantecon as qe
import scipy.sparse as sp


def solve(P, r):
    n = P.shape[0]
    rows, cols = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
    A = sp.csr_matrix((P.ravel(), (rows, cols)), shape=(n, n))  # n^2 stored entries, zeros among them
    mc = qe.MarkovChain(A)
    return {"communication_classes": mc.communication_classes, "recurrent_classes": mc.recurrent_classes,
            "stationary_distributions": mc.stationary_distributions, "period": mc.period}
