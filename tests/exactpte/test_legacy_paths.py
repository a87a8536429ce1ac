"""Old import paths (exactpte 0.1's flat modules) and old names of renamed functions keep working for one
release, with a DeprecationWarning that names the new home, and give the very objects of the new modules."""

import importlib
import sys
import warnings

import pytest

from exactpte._legacy import MOVED
from old_names import assert_old_name_gives_the_renamed_object, assert_old_path_gives_the_new_objects


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_path_warns_and_gives_the_new_objects(old):
    assert_old_path_gives_the_new_objects(old, MOVED)


def test_a_moved_module_keeps_its_own_spec():
    """The alias must not rename the new module (pickling and reloading read ``__spec__``)."""
    sys.modules.pop("exactpte.chain", None)
    with pytest.warns(DeprecationWarning):
        import exactpte.chain  # noqa: F401
    import exactpte.model.chain as new

    assert new.__spec__.name == "exactpte.model.chain" and sys.modules["exactpte.chain"] is new


def test_an_unknown_old_name_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("exactpte.no_such_module")


RENAMED = [
    # argument validators were check_*; a check_* name now always runs checks and returns verdicts (issue 40)
    ("exactpte.model.chain", "check_chain", "require_chain"),
    ("exactpte.cli.options", "check_output", "require_writable_file"),
    ("exactpte.cli.options", "check_folder", "require_writable_folder"),
    ("exactpte.solves.evaluation", "check_horizon", "require_horizon"),
    ("exactpte.oracle.values", "check_tolerance", "require_tolerance"),
    ("exactpte.oracle", "check_tolerance", "require_tolerance"),
    ("exactpte.results.report", "check_only", "require_quantities"),
    ("exactpte.numbers.from_floats", "check_tol", "require_tol"),
    ("exactpte.numbers.from_floats", "check_repair", "require_repair"),
    ("exactpte.numbers.arrays", "check_labels", "require_labels"),
    ("exactpte.numbers.arrays", "check_row_sums", "require_stochastic_rows"),
]
"""(module, old name, new name) of every function renamed within its module."""


@pytest.mark.parametrize("module, old, new", RENAMED)
def test_an_old_name_warns_and_gives_the_renamed_object(module, old, new):
    assert_old_name_gives_the_renamed_object(module, old, new)


def test_an_old_name_reaches_through_an_old_path_too():
    sys.modules.pop("exactpte.chain", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from exactpte.chain import check_chain  # the old path and the old name: a warning each
    from exactpte.model.chain import require_chain

    assert check_chain is require_chain
    assert [str(w.message).split(" moved to")[0] for w in caught] == ["exactpte.chain", "exactpte.model.chain.check_chain"]


def test_an_old_method_name_warns_and_gives_the_renamed_method_s_answer():
    from exactpte import ParametricChain

    chain = ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"])
    with pytest.warns(DeprecationWarning, match=r"ParametricChain\.check_point moved to exactpte\.ParametricChain\.require_generic_point"):
        values = chain.check_point({"p": "1/3"})
    assert values == chain.require_generic_point({"p": "1/3"})
