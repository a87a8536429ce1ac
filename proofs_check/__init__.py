"""proofs_check: every labelled result of the paper checked exactly, by independent routes.

>>> import exactpte
>>> from proofs_check import check_chain
>>> verdicts = check_chain(exactpte.example("branching"))
>>> all(v.holds is not False for v in verdicts)
True
"""

from __future__ import annotations

from .checks import CHECKS, Verdict, run_checks
from .claimed import Claimed, from_decomposition, load_result

__all__ = ["CHECKS", "Verdict", "run_checks", "check_chain", "Claimed", "from_decomposition", "load_result"]


def check_chain(chain, *, only=None, seed: int = 0, anchors=None) -> list[Verdict]:
    """Decompose ``chain`` with exactpte and run every check (or ``only``) on the result."""
    import exactpte

    dec = exactpte.decompose(chain, anchors=anchors)
    return run_checks(chain, from_decomposition(dec), only=only, seed=seed)
