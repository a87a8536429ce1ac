"""Old import paths of proofs_check's flat modules, kept working for one release with a :class:`DeprecationWarning`.

proofs_check's modules moved into folders, one per floor (``docs/architecture.md``); ``import
proofs_check.registry`` (and ``from proofs_check.families import prove``) still works and gives the module at
its new home, through exactpte's hook (:mod:`exactpte.deprecation`).  Two old names are packages now
(``proofs_check.routes``, ``proofs_check.statistical``): their old attributes are served, with the same warning,
by the package's ``__getattr__`` (:func:`moved_attribute`).
"""

from __future__ import annotations

import importlib
import warnings

from exactpte.deprecation import alias_modules

__all__ = ["MOVED", "MOVED_ATTRIBUTES", "install", "moved_attribute"]

MOVED: dict[str, str | tuple[str, ...]] = {
    "proofs_check.verify": "proofs_check.trusted.verify",
    "proofs_check.verify_policy": "proofs_check.trusted.policy",
    "proofs_check.linalg": "proofs_check.algebra.linalg",
    "proofs_check.graph": "proofs_check.algebra.graph",
    "proofs_check.floats": "proofs_check.algebra.floats",
    "proofs_check.blocks": "proofs_check.routes.blocks",
    "proofs_check.certificates": "proofs_check.routes.certificates",
    "proofs_check.quotient": "proofs_check.routes.quotient",
    "proofs_check.claimed": ("proofs_check.judging.claims", "proofs_check.judging.readers"),
    "proofs_check.strength": "proofs_check.judging.strength",
    "proofs_check.registry": "proofs_check.judging.registry",
    "proofs_check.conventions": "proofs_check.judging.conventions",
    "proofs_check.labels": "proofs_check.judging.labels",
    "proofs_check.symbolic_checks": "proofs_check.symbolic.identities",
    "proofs_check.families": ("proofs_check.symbolic.region", "proofs_check.symbolic.claims", "proofs_check.symbolic.proving",
                              "proofs_check.cli.families"),
    "proofs_check.family_conjectures": "proofs_check.symbolic.decided",
    "proofs_check.exhaustive": ("proofs_check.symbolic.graphs", "proofs_check.runs.exhaustive", "proofs_check.cli.exhaustive"),
    "proofs_check.sweep": "proofs_check.runs.sweep",
    "proofs_check.shrink": "proofs_check.runs.shrink",
    "proofs_check.conjectures": "proofs_check.runs.conjectures",
}
"""Old module name → the module that now holds its contents (or the modules it was split into)."""

MOVED_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "proofs_check.routes": ("proofs_check.routes.dense",),
    "proofs_check.statistical": ("proofs_check.statistical.tests", "proofs_check.statistical.checks",
                                 "proofs_check.statistical.power"),
}
"""Old modules whose name is now a package → the modules that hold the old module's names."""


def install() -> None:
    """Put the alias finder for :data:`MOVED` on :data:`sys.meta_path` (once)."""
    alias_modules(MOVED)


def moved_attribute(package: str, name: str) -> object:
    """``package.name`` for an old module that is a package now: the name from its new home, with the warning;
    ``AttributeError`` as usual for a name no new home has."""
    for home in MOVED_ATTRIBUTES.get(package, ()):
        module = importlib.import_module(home)
        if name in getattr(module, "__all__", ()):
            warnings.warn(f"{package}.{name} moved to {home}.{name}; the old path is removed in the next release",
                          DeprecationWarning, stacklevel=3)
            return getattr(module, name)
    raise AttributeError(f"module {package!r} has no attribute {name!r}")
