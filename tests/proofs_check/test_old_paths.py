"""Old import paths of proofs_check's flat modules and old names of renamed functions keep working for one
release, with a DeprecationWarning naming the new home, and give the very objects of the new modules."""

import importlib
import sys

import pytest

from proofs_check._legacy import MOVED, MOVED_ATTRIBUTES


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_warns_and_gives_the_new_objects(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to"):
        module = importlib.import_module(old)
    homes = (MOVED[old],) if isinstance(MOVED[old], str) else MOVED[old]
    for home in homes:
        new = importlib.import_module(home)
        for name in getattr(new, "__all__", ()):
            assert getattr(module, name) is getattr(new, name), (old, home, name)


@pytest.mark.parametrize("package", sorted(MOVED_ATTRIBUTES))
def test_an_old_module_that_is_a_package_now_serves_its_old_names(package):
    pkg = importlib.import_module(package)
    for home in MOVED_ATTRIBUTES[package]:
        new = importlib.import_module(home)
        name = sorted(new.__all__)[0]
        with pytest.warns(DeprecationWarning, match=rf"{package}\.{name} moved to {home}\.{name}"):
            assert getattr(pkg, name) is getattr(new, name)
    with pytest.raises(AttributeError):
        getattr(pkg, "no_such_name")


RENAMED = [
    # the registry's decorator was `check`; a check_* name now always runs checks and returns verdicts (issue 40)
    ("proofs_check.judging.registry", "check", "register_check"),
    ("proofs_check.judging.readers", "check_header", "require_result_header"),
]
"""(module, old name, new name) of every function renamed within its module."""


@pytest.mark.parametrize("module, old, new", RENAMED)
def test_an_old_name_warns_and_gives_the_renamed_object(module, old, new):
    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.{old} moved to {module}\.{new} \(renamed\)"):
        got = getattr(mod, old)
    assert got is getattr(mod, new) and old not in getattr(mod, "__all__", ())
    with pytest.raises(AttributeError):
        getattr(mod, old + "_no_such_name")
