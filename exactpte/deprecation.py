"""Moved modules and renamed names: an old import path or name kept working for one release, with a :class:`DeprecationWarning`.

When a module moves, its old name is mapped to its new home (or to the modules it was split into) by an
import hook on :data:`sys.meta_path`: ``import old.name`` still works, warns naming the new path, and gives the
very module object of the new home (so ``isinstance`` checks and monkeypatching see one module).  exactpte's
old flat paths use it (``exactpte._legacy``), and so does proofs_check for its own moved modules.  A function
renamed within its module keeps its old name the same way: the module's ``__getattr__`` is :func:`renamed`.

Examples
--------
>>> import warnings
>>> alias_modules({"exactpte.doctest_old_errors": "exactpte.errors"})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import exactpte.doctest_old_errors as old
>>> import exactpte.errors
>>> old is exactpte.errors, "moved to exactpte.errors" in str(caught[0].message)
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["ModuleAliases", "alias_modules", "renamed", "warn_renamed"]

Moved = Mapping[str, "str | tuple[str, ...]"]


class ModuleAliases(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name of ``moved`` (old name → new module, or the modules it was split into) and loads
    it as the new module: the same object for a plain move; for a split, a module gathering the public names
    (``__all__``) of every new home."""

    def __init__(self, moved: Moved) -> None:
        self.moved = moved
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old name of the table (loaded by this finder), else ``None``."""
        if fullname not in self.moved:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The module at the new home (a merged one for a split), after the warning naming it."""
        new = self.moved[spec.name]
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
        """Nothing to run (the new module ran already); its own spec is put back."""
        # the import system has just written the old name's spec over the new module's own: put it back
        # (pickling and reloading read it)
        old = module.__spec__.name if module.__spec__ is not None else module.__name__
        module.__spec__ = self._specs.pop(old, module.__spec__)


def alias_modules(moved: Moved) -> None:
    """Put a :class:`ModuleAliases` finder for the table ``moved`` on :data:`sys.meta_path` (once per table: a
    finder already installed for an equal table is kept)."""
    if not any(isinstance(f, ModuleAliases) and f.moved == moved for f in sys.meta_path):
        sys.meta_path.append(ModuleAliases(moved))


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """The :class:`DeprecationWarning` of a renamed name (``old`` and ``new`` as dotted paths), in the words of
    a moved module's: ``old moved to new``."""
    warnings.warn(f"{old} moved to {new} (renamed); the old name is removed in the next release", DeprecationWarning,
                  stacklevel=stacklevel)


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` for ``module`` that serves each old name of ``names`` (old → new) for one
    release: the object of the new name, after :func:`warn_renamed`; any other name is an ``AttributeError`` as
    usual.  A module binds it outside type checking, so mypy sees only the new names (an old one is an error
    there, not ``Any``): ``if not TYPE_CHECKING: __getattr__ = renamed(__name__, {"old": "new"})``.

    Examples
    --------
    >>> import warnings
    >>> getter = renamed("exactpte.deprecation", {"doctest_old_alias": "alias_modules"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     getter("doctest_old_alias") is alias_modules
    True
    >>> str(caught[0].message)
    'exactpte.deprecation.doctest_old_alias moved to exactpte.deprecation.alias_modules (renamed); the old name is removed in the next release'
    """
    def __getattr__(name: str) -> Any:
        new = names.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warn_renamed(f"{module}.{name}", f"{module}.{new}")
        return getattr(sys.modules[module], new)

    return __getattr__
