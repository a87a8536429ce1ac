"""pymdptoolbox's RelativeValueIteration on the MDP: its policy, gain and relative values."""

import warnings

import numpy as np


def solve(P, R):
    import mdptoolbox.mdp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = mdptoolbox.mdp.RelativeValueIteration(np.asarray(P), np.asarray(R))
        m.run()
    return {"policy": m.policy, "average_reward": m.average_reward, "V": m.V, "iter": m.iter, "max_iter": m.max_iter}
