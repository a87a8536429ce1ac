"""Doctests of modules that need an optional extra: marked ``extra(NAME)`` like the tests that need one,
so CI's second stage (``-m "extra or slow"``, every extra installed) runs them, and the default run skips
them, with the reason, when the extra is missing."""

import importlib.util

import pytest

# module prefix -> (extra, the module it brings)
DOCTEST_EXTRAS = {"exactpte.plots": ("plot", "matplotlib")}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.DoctestItem):
            continue
        for prefix, (extra, module) in DOCTEST_EXTRAS.items():
            if item.name.startswith(prefix + ".") or item.name == prefix:
                item.add_marker(pytest.mark.extra(extra))
                if importlib.util.find_spec(module) is None:
                    item.add_marker(pytest.mark.skip(reason=f'needs the {extra} extra (pip install ".[{extra}]")'))
