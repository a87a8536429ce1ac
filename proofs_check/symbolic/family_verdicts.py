"""A verdict on one stratum of a family, and how it is said.

Examples
--------
>>> v = FamilyVerdict("claim:h", "r = rho + (I - P) h", True, strength=Strength.EXACT, whole=True)
>>> decided_on_stratum(v), v.to_dict()["strength"]
(True, 'exact')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import flint

from exactpte import MarkovRewardProcess

from proofs_check.judging.registry import Verdict
from proofs_check.judging.strength import Strength

__all__ = ["FamilyVerdict", "point_text", "decided_on_stratum"]


@dataclass
class FamilyVerdict(Verdict):
    """A verdict on one stratum of a family: the :class:`~proofs_check.judging.registry.Verdict` fields, the
    stratum's index and conditions, and the strength of the evidence (:class:`~proofs_check.judging.strength.Strength`)."""

    strength: Strength = Strength.PROVED
    stratum: int = 0
    where: tuple[str, ...] = ()
    counterexample: dict[str, flint.fmpq] | None = None
    """The rational point (parameter -> exact value) where a failed check fails; printed only by :meth:`to_dict`."""
    counterexample_chain: MarkovRewardProcess | None = None
    """The rational chain a failed check fails on, when it is not simply the family's chain at the point (a
    conjecture's counterexample in another labelling, a pointwise stratum's chain)."""
    points: bool = True
    """Whether a ``witnesses`` count is of rational points (chains) of the family: ``witnesses (24 points)``; a
    rational check's own witnesses (vectors, horizons) read ``witnesses (N = 10)``."""
    whole: bool = False
    """Whether the verdict was decided for every chain of its stratum: ``proved``, or ``exact`` on a stratum that is
    one chain or whose every chain was checked (what ``--require`` and ``--strict`` ask for)."""

    @property
    def strength_text(self) -> str:
        """The strength with its size: ``proved``, ``exact``, ``witnesses (24 points)``."""
        if self.points and self.witnesses is not None and Strength(self.strength) is Strength.WITNESSES:
            return f"witnesses ({self.witnesses} point{'s' if self.witnesses != 1 else ''})"
        return super().strength_text

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict, with ``strength``, ``stratum``, ``where`` and any ``counterexample`` point
        (its coordinates as ``"p/q"`` text)."""
        out = super().to_dict()
        out.update(stratum=self.stratum, where=list(self.where))
        if self.counterexample is not None:
            out["counterexample"] = point_text(self.counterexample)
        return out


def decided_on_stratum(v: FamilyVerdict) -> bool:
    """Whether a verdict holds for every chain of its stratum (``proved``, or decided on each of its chains)."""
    return v.holds is True and (v.strength == Strength.PROVED.value or v.whole)


def point_text(point: Mapping[str, flint.fmpq]) -> dict[str, str]:
    """A parameter point as text, ``{"p": "1/3"}``: how reports and messages print an exact point."""
    return {p: str(x) for p, x in point.items()}
