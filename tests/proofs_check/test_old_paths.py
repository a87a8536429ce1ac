"""Old import paths of proofs_check's flat modules and old names of renamed functions keep working for one
release, with a DeprecationWarning naming the new home, and give the very objects of the new modules."""

import importlib

import pytest

from proofs_check._legacy import MOVED, MOVED_ATTRIBUTES
from old_names import assert_old_name_gives_the_renamed_object, assert_old_path_gives_the_new_objects


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_warns_and_gives_the_new_objects(old):
    assert_old_path_gives_the_new_objects(old, MOVED)


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
    assert_old_name_gives_the_renamed_object(module, old, new)
