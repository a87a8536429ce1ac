"""The strength of a verdict: how much a "held" is worth.

Every verdict says on what evidence it stands, from strongest to weakest:

- ``proved``: an identity between rational functions, holding on a whole stratum of a parametric
  family (no denominator it divides by vanishes on the region);
- ``exact``: an identity decided exactly, in rational arithmetic, on this one chain;
- ``certified``: a float enclosure that provably contains the exact value;
- ``witnesses``: decided exactly on a stated number of sampled witnesses (vectors, horizons, points);
- ``statistical``: not rejected by a statistical test at a stated level.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Strength"]


class Strength(str, Enum):
    """How strong the evidence behind a verdict is (see the module docstring).

    >>> Strength.EXACT.value, Strength("proved") is Strength.PROVED
    ('exact', True)
    """

    PROVED = "proved"
    EXACT = "exact"
    CERTIFIED = "certified"
    WITNESSES = "witnesses"
    STATISTICAL = "statistical"
