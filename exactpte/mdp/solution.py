"""One call for both criteria: :func:`solve` and the :class:`MDPSolution` that ``exactpte mdp`` prints.

Examples
--------
>>> from exactpte.mdp.model import MDP
>>> sol = solve(MDP([[[0, 1], [1, 0]]], [[2], [0]]), discount="9/10")   # one action: the 2-cycle
>>> sol.to_dict()["gain"], sol.to_dict()["value"]
(['1', '1'], ['200/19', '180/19'])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from exactpte.mdp.average import AverageSolution, solve_average
from exactpte.mdp.discounted import DiscountedSolution, solve_discounted
from exactpte.mdp.model import MDP

__all__ = ["MDPSolution", "solve", "KEYS", "DISCOUNT_KEYS"]

KEYS = ("gain", "bias", "policy", "gain_optimal_actions", "bias_optimal_actions")
"""The keys of ``exactpte mdp --json`` (the average-reward answer)."""
DISCOUNT_KEYS = ("value", "discount_optimal_actions")
"""The keys ``exactpte mdp --discount G --json`` adds."""


@dataclass(frozen=True)
class MDPSolution:
    """The average-reward answer and, when a discount was given, the discounted one."""

    average: AverageSolution
    discounted: DiscountedSolution | None = None

    def to_dict(self) -> dict[str, Any]:
        """:data:`KEYS`, then :data:`DISCOUNT_KEYS` with a discount: numbers as reduced ``"p/q"`` strings,
        actions 0-based, sorted lists, one per state."""
        out = self.average.to_dict()
        if self.discounted is not None:
            out.update(self.discounted.to_dict())
        return out

    def to_json(self, *, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)


def solve(mdp: MDP, *, discount: Any = None) -> MDPSolution:
    """The exact average-reward answer (:func:`~exactpte.mdp.average.solve_average`) and, with ``discount``
    (a rational in ``(0, 1)``), the discounted one (:func:`~exactpte.mdp.discounted.solve_discounted`)."""
    if not isinstance(mdp, MDP):
        from exactpte.errors import UsageError

        raise UsageError(f"solve takes an exactpte.mdp.MDP, got {type(mdp).__name__}"
                         + (" (read a file with exactpte.io.load_mdp)" if isinstance(mdp, (str, bytes)) else ""))
    discounted = solve_discounted(mdp, discount=discount) if discount is not None else None
    return MDPSolution(solve_average(mdp), discounted)
