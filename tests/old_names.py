"""What both packages promise of an old import path or an old name kept for one release (shared by
tests/exactpte/test_legacy_paths.py and tests/proofs_check/test_old_paths.py): a DeprecationWarning naming the new
home, and the very objects of the new home."""

import importlib
import sys
from collections.abc import Mapping

import pytest


def assert_old_path_gives_the_new_objects(old: str, moved: Mapping[str, "str | tuple[str, ...]"]) -> None:
    """``import old`` warns ``old moved to`` and holds every public name of its new home(s), as the same objects."""
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to"):
        module = importlib.import_module(old)
    homes = (moved[old],) if isinstance(moved[old], str) else moved[old]
    for home in homes:
        new = importlib.import_module(home)
        for name in getattr(new, "__all__", ()):
            assert getattr(module, name) is getattr(new, name), (old, home, name)


def assert_old_name_gives_the_renamed_object(module: str, old: str, new: str) -> None:
    """``module.old`` warns ``module.old moved to module.new (renamed)`` and is ``module.new``; it is not in
    ``__all__``, and the module still refuses a name it never had."""
    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} moved to {module}\.{new} \(renamed\)"):
        got = getattr(mod, old)
    assert got is getattr(mod, new) and old not in getattr(mod, "__all__", ())
    with pytest.raises(AttributeError):
        getattr(mod, old + "_no_such_name")
