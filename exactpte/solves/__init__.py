"""The exact solves, written once over the :class:`~exactpte.fields.Field` interface, each only on
the block that needs it: the transient block (:mod:`~exactpte.solves.absorption`,
:mod:`~exactpte.solves.cyclotomic`), sums over the basis (:mod:`~exactpte.solves.summation`),
the classical quantities (:mod:`~exactpte.solves.classical`), returns and hitting times
(:mod:`~exactpte.solves.evaluation`), the strata of a parametric chain
(:mod:`~exactpte.solves.strata`), and every quantity on first access
(:mod:`~exactpte.solves.work`)."""
