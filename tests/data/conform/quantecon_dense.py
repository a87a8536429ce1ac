"""QuantEcon's MarkovChain on the dense float matrix: its structure and stationary distributions
(the correct adapter: every output agrees on every small chain)."""

import quantecon as qe


def solve(P, r):
    mc = qe.MarkovChain(P)
    return {"communication_classes": mc.communication_classes, "recurrent_classes": mc.recurrent_classes,
            "stationary_distributions": mc.stationary_distributions, "period": mc.period,
            "is_irreducible": mc.is_irreducible, "is_aperiodic": mc.is_aperiodic}
