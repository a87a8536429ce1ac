"""One exact check per labelled result of the paper, one module per part of the paper.

Each check judges a :class:`~proofs_check.judging.claims.Claimed` decomposition of a chain against
objects computed by independent routes (:mod:`proofs_check.routes.dense`) and returns ``None`` when
the identity holds, a string naming what fails (with the states where it fails) otherwise, or
:data:`~proofs_check.judging.registry.NOT_APPLICABLE`.  Importing this package registers every check in
:data:`~proofs_check.judging.registry.CHECKS`, in the paper's order.

- :mod:`~proofs_check.checks.structure`: the claimed structure against the support graph;
- :mod:`~proofs_check.checks.decomposition`: Sections 2–3;
- :mod:`~proofs_check.checks.evaluation`: Section 4;
- :mod:`~proofs_check.checks.appendix`: the appendix lemmas and ``P∞``;
- :mod:`~proofs_check.checks.stability`: the three stability lemmas of projected SA with their stated bounds, exactly;
- :mod:`~proofs_check.checks.quantities`: every other claimed quantity on its own key (``claim:*``; "not claimed" when left out);
- :mod:`~proofs_check.checks.certified`: exactpte's own cross-check (not independent): the claim inside exactpte's certified enclosures;
- :mod:`~proofs_check.checks.blockwise`: the main identities again on block routes, for chains past ``--max-dense``;
- :mod:`~proofs_check.checks.peripheral`: the quotient theorems by structure and ``P`` restricted to small subspaces.
"""

from proofs_check.judging.registry import CHECKS, NOT_APPLICABLE, Check, Context, NotApplicable, NotClaimed, Verdict, run_checks
from proofs_check.checks import structure
from proofs_check.checks import decomposition
from proofs_check.checks import evaluation
from proofs_check.checks import appendix
from proofs_check.checks import stability
from proofs_check.checks import quantities
from proofs_check.checks import certified
from proofs_check.checks import blockwise
from proofs_check.checks import peripheral

SECTIONS = (structure, decomposition, evaluation, appendix, stability, quantities, certified)
"""The check modules, in the paper's order."""

__all__ = ["CHECKS", "Check", "Verdict", "Context", "run_checks", "NOT_APPLICABLE", "NotApplicable", "NotClaimed", "SECTIONS"]
