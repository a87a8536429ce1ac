"""Old import paths, kept working for one release with a :class:`DeprecationWarning`.

The flat modules of exactpte 0.1 moved into layered subpackages; ``import exactpte.chain`` (and
``from exactpte.chain import X``) still works and returns the module at its new home.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

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
    "exactpte.testing.oracle": ("exactpte.oracle.compare", "exactpte.oracle.keys", "exactpte.oracle.findings",
                                "exactpte.oracle.values", "exactpte.oracle.vectors", "exactpte.testing.assertions"),
    "exactpte.testing.candidates": "exactpte.oracle.candidates",
    "exactpte.testing.references": "exactpte.oracle.references",
    "exactpte.testing.diagnoses": "exactpte.oracle.diagnoses",
}
"""Old module name → the module that now holds its contents (or the modules it was split into)."""


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name and loads it as the new module (the same object, so ``isinstance``
    and monkeypatching see one module)."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        homes = (new,) if isinstance(new, str) else new
        warnings.warn(f"{spec.name} moved to {' and '.join(homes)}; the old path is removed in the next release",
                      DeprecationWarning, stacklevel=3)
        if isinstance(new, str):
            module = importlib.import_module(new)
            self._specs[spec.name] = module.__spec__
            return module
        merged = ModuleType(spec.name, f"Deprecated: split into {', '.join(homes)}.")
        for home in homes:  # a split module: its public names gathered from every new home
            part = importlib.import_module(home)
            for name in getattr(part, "__all__", ()):
                setattr(merged, name, getattr(part, name))
        return merged

    def exec_module(self, module: ModuleType) -> None:
        # the module is the new one, already executed; the import system has just written the old
        # name's spec over its own: put its own back (pickling and reloading read it)
        old = module.__spec__.name if module.__spec__ is not None else module.__name__
        module.__spec__ = self._specs.pop(old, module.__spec__)


def install() -> None:
    """Put the alias finder on :data:`sys.meta_path` (once)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
