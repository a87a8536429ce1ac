"""pymdptoolbox's RelativeValueIteration on the chain's one-action MDP: its gain and bias."""

import warnings

import numpy as np


def solve(P, r):
    import mdptoolbox.mdp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = mdptoolbox.mdp.RelativeValueIteration(np.array([P]), np.asarray(r)[:, None])
        m.run()
    return {"average_reward": m.average_reward, "V": m.V}
