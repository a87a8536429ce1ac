"""proofs_check's own exact algebra, independent of exactpte's solves: dense and sparse rational linear algebra
(:mod:`~proofs_check.algebra.linalg`), the support graph's SCCs, periods and cyclic classes
(:mod:`~proofs_check.algebra.graph`), and exact numbers shown or compared as floats
(:mod:`~proofs_check.algebra.floats`)."""
