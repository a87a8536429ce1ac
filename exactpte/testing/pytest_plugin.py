"""exactpte's pytest plugin: a solver's conformance on a whole corpus, one test per chain.

Registered through the ``pytest11`` entry point, so every pytest session of an installation loads it;
it only adds options, and does nothing (imports nothing beyond this module) unless
``--exactpte-adapter`` is given::

    python -m pytest --exactpte-adapter adapter.py:solve --exactpte-corpus exhaustive:2

makes one test per chain of the corpus, named after it (``adapter.py::conform[01-2-2]``: the support
graph ``0 -> {0, 1}, 1 -> {2}, 2 -> {2}``), beside the suite's own tests.  A test calls the adapter's
function on the chain and judges its output as ``exactpte check`` does; a failure prints the cause,
the verdict, and the smallest chain on which the same cause fires (:mod:`exactpte.testing.conformance`).
Loading the adapter runs its Python file (it is the tester's own code, named on the command line).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from exactpte.testing.conformance import ConformanceCheck

__all__ = ["pytest_addoption", "pytest_configure", "pytest_collect_file", "ConformanceItem", "AdapterFile"]

_CHECKS = pytest.StashKey["tuple[Path, list[ConformanceCheck]]"]()


def _nonnegative(text: str) -> float:
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise ValueError(text)
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options (group ``exactpte``)."""
    group = parser.getgroup("exactpte", "exactpte conformance: one test per chain of a corpus")
    group.addoption("--exactpte-adapter", metavar="FILE.py[:function]", default=None,
                    help="run this solve(P, r) (default function: solve) on every chain of --exactpte-corpus, one test a chain")
    group.addoption("--exactpte-corpus", action="append", metavar="SPEC", default=None,
                    help="exhaustive:N (N <= 4; MDPs: N <= 2), random:K[:N], edge; repeat or separate by commas "
                         "(default exhaustive:3; MDPs: exhaustive:2,edge)")
    group.addoption("--exactpte-seed", type=int, default=0, metavar="N", help="the seed of random:K corpora (default 0)")
    group.addoption("--exactpte-inputs", choices=("float", "exact", "sparse"), default="float",
                    help="how solve gets P and r: float64 arrays (default), Fraction lists, or a CSR matrix")
    group.addoption("--exactpte-atol", type=_nonnegative, default=1e-9, metavar="X", help="absolute tolerance (default 1e-9)")
    group.addoption("--exactpte-rtol", type=_nonnegative, default=0.0, metavar="X", help="relative tolerance (default 0)")
    group.addoption("--exactpte-up-to-gauge", action="store_true", default=False,
                    help="accept v off by K(P) and h off by ker(I - P)")
    group.addoption("--exactpte-mdp", action="store_true", default=False,
                    help="an MDP solver solve(P, R) (pymdptoolbox's shapes) over MDP corpora (default exhaustive:2,edge)")
    group.addoption("--exactpte-discount", default=None, metavar="G",
                    help="with --exactpte-mdp: the discount the solver uses (read exactly: 9/10)")


def pytest_configure(config: pytest.Config) -> None:
    """With ``--exactpte-adapter``: the adapter loaded and the corpus built (a bad one is a usage error, exit 4),
    and the adapter file added to the paths pytest collects (where :func:`pytest_collect_file` finds it)."""
    adapter = config.getoption("exactpte_adapter", default=None)
    if adapter is None:
        return
    from exactpte.errors import ExactpteError
    from exactpte.oracle.conformance import split_adapter
    from exactpte.testing.conformance import conformance

    try:
        checks = conformance(adapter, corpus=config.getoption("exactpte_corpus"),
                             seed=config.getoption("exactpte_seed"), inputs=config.getoption("exactpte_inputs"),
                             atol=config.getoption("exactpte_atol"), rtol=config.getoption("exactpte_rtol"),
                             up_to_gauge=config.getoption("exactpte_up_to_gauge"), mdp=config.getoption("exactpte_mdp"),
                             discount=config.getoption("exactpte_discount"))
    except ExactpteError as e:
        raise pytest.UsageError(f"exactpte: {e}") from None
    path = Path(split_adapter(adapter)[0]).resolve()
    config.stash[_CHECKS] = (path, checks)
    if all(Path(arg.split("::")[0]).resolve() != path for arg in config.args):  # (xdist workers get it from the controller)
        config.args.append(str(path))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The adapter file, as the collector of its conformance tests."""
    given = parent.config.stash.get(_CHECKS, None)
    if given is not None and file_path.resolve() == given[0]:
        # the node id is the path from the root folder ("../adapters/qe.py" outside it), never empty
        nodeid = os.path.relpath(file_path, parent.config.rootpath).replace(os.sep, "/")
        return AdapterFile.from_parent(parent, path=file_path, nodeid=nodeid)
    return None


class AdapterFile(pytest.File):
    """The adapter file as the parent of its conformance tests (not imported as a test module: the plugin
    loaded it as ``exactpte conform`` does)."""

    def collect(self) -> list[pytest.Item]:
        """One :class:`ConformanceItem` per chain of the corpus, named ``conform[CHAIN]``."""
        _, checks = self.config.stash[_CHECKS]
        return [ConformanceItem.from_parent(self, name=f"conform[{check}]", check=check) for check in checks]


class ConformanceItem(pytest.Item):
    """One chain's conformance test (:class:`~exactpte.testing.conformance.ConformanceCheck`)."""

    def __init__(self, *, check: ConformanceCheck, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        """Call the solver on the chain and judge its output."""
        self.check()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        """The cause, the verdict and the smallest chain (no traceback of exactpte's own frames)."""
        if isinstance(excinfo.value, AssertionError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, None, str]:
        """Where the test comes from: the adapter file and the chain."""
        return self.path, None, f"exactpte conform: chain {self.check}"
