"""The independent routes the checks compare a claim with: the dense route through the characteristic
polynomial (:mod:`~proofs_check.routes.dense`), block-by-block routes for large chains
(:mod:`~proofs_check.routes.blocks`), exact certificates (:mod:`~proofs_check.routes.certificates`) and the
quotient's small algebra (:mod:`~proofs_check.routes.quotient`)."""


def __getattr__(name: str) -> object:
    """The old flat module's names (``from proofs_check.routes import X``), for one release, with a warning."""
    from proofs_check._legacy import moved_attribute

    return moved_attribute(__name__, name)
