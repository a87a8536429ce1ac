"""Old import paths, kept working for one release with a :class:`DeprecationWarning`.

The flat modules of exactpte 0.1 moved into layered subpackages; ``import exactpte.chain`` (and
``from exactpte.chain import X``) still works and returns the module at its new home (the hook:
:mod:`exactpte.deprecation`).
"""

from __future__ import annotations

from exactpte.deprecation import alias_modules

__all__ = ["MOVED", "install"]

MOVED: dict[str, str | tuple[str, ...]] = {
    "exactpte._numbers": "exactpte.numbers.scalars",
    "exactpte.coercion": "exactpte.numbers.arrays",
    "exactpte.float_import": "exactpte.numbers.from_floats",
    "exactpte.lifting": "exactpte.fields.lifting",
    "exactpte.structure_view": "exactpte.graph.view",
    "exactpte.structure": "exactpte.graph",
    "exactpte.chain": "exactpte.model.chain",
    "exactpte.parametric": "exactpte.model.parametric",
    "exactpte.floats": "exactpte.model.to_float",
    "exactpte.examples": "exactpte.model.examples",
    "exactpte.absorption": "exactpte.solves.absorption",
    "exactpte.cyclotomic": "exactpte.solves.cyclotomic",
    "exactpte.summation": "exactpte.solves.summation",
    "exactpte.classical": "exactpte.solves.classical",
    "exactpte.evaluation": "exactpte.solves.evaluation",
    "exactpte.decomposition": "exactpte.solves.work",
    "exactpte.plotting": "exactpte.plots",
    "exactpte.quantities": "exactpte.results.quantities",
    "exactpte.report": "exactpte.results.report",
    "exactpte.result": "exactpte.results.decomposition",
    "exactpte.strata": ("exactpte.results.strata", "exactpte.results.stratify"),
    "exactpte.gym": "exactpte.io.gym",
    "exactpte.testing.oracle": ("exactpte.oracle.comparison", "exactpte.oracle.keys", "exactpte.oracle.findings",
                                "exactpte.oracle.values", "exactpte.oracle.vectors", "exactpte.testing.assertions"),
    "exactpte.testing.candidates": "exactpte.oracle.candidates",
    "exactpte.testing.references": "exactpte.oracle.references",
    "exactpte.testing.diagnoses": "exactpte.oracle.diagnoses",
}
"""Old module name → the module that now holds its contents (or the modules it was split into)."""


def install() -> None:
    """Put the alias finder for :data:`MOVED` on :data:`sys.meta_path` (once)."""
    alias_modules(MOVED)
