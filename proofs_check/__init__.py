"""proofs_check: every labelled result of the paper checked exactly, by independent routes.

Examples
--------
>>> import exactpte
>>> from proofs_check import check_chain
>>> verdicts = check_chain(exactpte.example("branching"))
>>> all(v.holds is not False for v in verdicts)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from proofs_check.checks import CHECKS, Verdict, run_checks
from proofs_check.judging.claims import Claimed, from_decomposition
from proofs_check.judging.readers import load_result
from proofs_check.runs.conjectures import CONJECTURES, conjecture, run_conjecture
from proofs_check.runs.shrink import shrink

from proofs_check import _legacy

if TYPE_CHECKING:
    from exactpte import MarkovRewardProcess

_legacy.install()

__all__ = ["CHECKS", "Verdict", "run_checks", "check_chain", "Claimed", "from_decomposition", "load_result",
           "conjecture", "run_conjecture", "CONJECTURES", "shrink"]


def check_chain(chain: MarkovRewardProcess, *, only: Sequence[str] | None = None, seed: int = 0,
                anchors: Any = None) -> list[Verdict]:
    """Decompose ``chain`` with exactpte and run every check (or ``only``) on the result.

    Parameters
    ----------
    chain : exactpte.MarkovRewardProcess
        A rational chain (the checks compare exact rationals).
    only : sequence of str, optional
        Check keys (paper labels) to run; all by default (``proofs-check list``).
    seed : int
        Seed of the random test vectors some checks draw.
    anchors : optional
        Anchors for the decomposition (as :func:`exactpte.decompose` takes them).

    Returns
    -------
    list of Verdict
        One per check: ``holds`` True, False, or None when the result does not apply.

    Raises
    ------
    UnknownNameError
        An unknown key in ``only``.
    """
    import exactpte

    dec = exactpte.decompose(chain, anchors=anchors)
    return run_checks(chain, from_decomposition(dec), only=only, seed=seed)
