"""Certified float enclosures of the decomposition, for chains too large for exact arithmetic.

``exactpte.decompose_certified(chain, tol=1e-9)`` returns a
:class:`~exactpte.certified.result.CertifiedDecomposition`: the exact structure, and for
every number an interval that provably holds the exact value, with the certificate of each
solved system (:mod:`exactpte.certified.systems`).  Floats do the work (numpy, scipy); only
exactly checked inequalities and a-priori rounding bounds (:mod:`exactpte.certified.rounding`)
enter the enclosures.
"""

from exactpte.certified.decomposition import decompose_certified
from exactpte.certified.result import CertifiedDecomposition
from exactpte.certified.rounding import Interval
from exactpte.certified.systems import Certificate, MMatrixSystem

__all__ = ["decompose_certified", "CertifiedDecomposition", "Interval", "Certificate", "MMatrixSystem"]
