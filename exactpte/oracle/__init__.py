"""The exact oracle for other tools' answers (product code; ``exactpte check`` is its front end).

:func:`compare` judges a candidate (float or exact, any layout a peer writes) against the exact
decomposition, key by key, and names the likely cause of each disagreement.

Examples
--------
>>> import exactpte
>>> from exactpte.oracle import compare
>>> compare({"rho": [0.5, 0.5]}, exactpte.example("periodic")).ok
True
"""

from exactpte.oracle.comparison import Finding, Report, check_tolerance, compare

__all__ = ["Finding", "Report", "compare", "check_tolerance"]
