"""Exact Markov decision processes: optimal gain, bias, discounted values and optimal action sets.

- :mod:`~exactpte.mdp.model`: :class:`MDP` (pymdptoolbox's ``P[a][s][s']``/``R[s][a]``, per-state action
  lists, sparse quadruples, gymnasium tables), validated up front;
- :mod:`~exactpte.mdp.evaluation`: a policy's exact gain, bias and discounted value;
- :mod:`~exactpte.mdp.average`: multichain policy iteration (gain, bias, bias-optimality steps),
  :class:`AverageSolution`;
- :mod:`~exactpte.mdp.discounted`: discounted policy iteration, :class:`DiscountedSolution`;
- :mod:`~exactpte.mdp.actions`: which actions some optimal policy takes (the graph step);
- :mod:`~exactpte.mdp.solution`: :func:`solve` (both criteria) and :class:`MDPSolution`.

Examples
--------
>>> from exactpte.mdp import MDP, solve
>>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]])
>>> solve(m).to_dict()
{'gain': ['1', '1'], 'bias': ['0', '1'], 'policy': [0, 1], 'gain_optimal_actions': [[0, 1], [1]], 'bias_optimal_actions': [[0], [1]]}
"""

from exactpte.mdp.actions import completable, end_components
from exactpte.mdp.average import AverageSolution, OptimalityLevels, optimality_levels, solve_average
from exactpte.mdp.discounted import DiscountedSolution, bellman_actions, solve_discounted
from exactpte.mdp.evaluation import PolicyEvaluation, require_discount, evaluate_average, evaluate_discounted
from exactpte.mdp.model import MDP, require_policy
from exactpte.mdp.solution import MDPSolution, solve

__all__ = ["MDP", "require_policy", "solve", "MDPSolution", "solve_average", "AverageSolution", "solve_discounted",
           "DiscountedSolution", "evaluate_average", "evaluate_discounted", "PolicyEvaluation", "require_discount",
           "optimality_levels", "OptimalityLevels", "bellman_actions", "completable", "end_components"]
