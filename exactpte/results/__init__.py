"""The results users hold: the registry of quantities (:mod:`~exactpte.results.quantities`), the
exact :class:`~exactpte.results.decomposition.Decomposition`, the stratified result of a
parametric chain (:mod:`~exactpte.results.strata`), and their printed forms
(:mod:`~exactpte.results.report`).  Certified enclosures live in :mod:`exactpte.certified`."""
