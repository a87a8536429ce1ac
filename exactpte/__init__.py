"""exactpte: exact persistent–transient decomposition of finite Markov reward processes.

One entry point per result kind: :func:`decompose` (exact, a :class:`Decomposition`),
:func:`stratify` (a parametric chain on every stratum of its parameter space, a
:class:`~exactpte.results.strata.StratifiedDecomposition`) and :func:`decompose_certified` (certified
float enclosures for chains too large for exact arithmetic, a
:class:`~exactpte.certified.CertifiedDecomposition`).

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("cycle-24"))
>>> all(v == 0 for v in dec.v_star), dec.g_star == dec.chain.r, max(abs(x) for x in dec.h)
(True, True, 3)
"""

import importlib

from exactpte import _legacy
from typing import TYPE_CHECKING, Any

# The public names, each with the module that defines it: the one list (``__all__`` is derived from
# it; the TYPE_CHECKING block below repeats it for type checkers, and tests/exactpte/test_public_api.py checks
# the two agree).  They load on first use (PEP 562), so `exactpte --help` and `import exactpte.errors`
# do not pay for numpy, scipy and python-flint.
_LAZY = {
    'Chain': 'model.chain',
    'MarkovRewardProcess': 'model.chain',
    'ParametricChain': 'model.parametric',
    'Decomposition': 'results.decomposition',
    'Result': 'results.decomposition',
    'StratifiedDecomposition': 'results.strata',
    'CertifiedDecomposition': 'certified',
    'Structure': 'graph.structure',
    'decompose': 'results.decomposition',
    'stratify': 'results.stratify',
    'decompose_certified': 'certified',
    'gain': 'solves.classical',
    'stationary_distribution': 'solves.classical',
    'chain_structure': 'graph.structure',
    'load': 'io',
    'loads': 'io',
    'dump': 'io',
    'import_chain': 'model.chain',
    'exact_rows': 'numbers.from_floats',
    'ImportReport': 'numbers.from_floats',
    'from_gym': 'io.gym',
    'MDP': 'mdp.model',
    'load_mdp': 'io',
    'judge_mdp': 'oracle.mdp_judge',
    'example': 'model.examples',
    'EXAMPLES': 'model.examples',
    'ExactpteError': 'errors',
    'InvalidChainError': 'errors',
    'ShapeError': 'errors',
    'EntryError': 'errors',
    'FloatEntryError': 'errors',
    'NegativeEntryError': 'errors',
    'RowSumError': 'errors',
    'LabelError': 'errors',
    'ChainFileError': 'errors',
    'AnchorError': 'errors',
    'GenericRegionError': 'errors',
    'SymbolicEntryError': 'errors',
    'CandidateError': 'errors',
    'SingularSystemError': 'errors',
    'UsageError': 'errors',
    'UnknownNameError': 'errors',
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'exactpte' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs (the same names as _LAZY)
    from .certified import (
        CertifiedDecomposition as CertifiedDecomposition,
        decompose_certified as decompose_certified,
    )
    from .model.chain import (
        Chain as Chain,
        MarkovRewardProcess as MarkovRewardProcess,
        import_chain as import_chain,
    )
    from .solves.classical import (
        gain as gain,
        stationary_distribution as stationary_distribution,
    )
    from .errors import (
        AnchorError as AnchorError,
        CandidateError as CandidateError,
        ChainFileError as ChainFileError,
        EntryError as EntryError,
        ExactpteError as ExactpteError,
        FloatEntryError as FloatEntryError,
        GenericRegionError as GenericRegionError,
        InvalidChainError as InvalidChainError,
        LabelError as LabelError,
        NegativeEntryError as NegativeEntryError,
        RowSumError as RowSumError,
        ShapeError as ShapeError,
        SingularSystemError as SingularSystemError,
        SymbolicEntryError as SymbolicEntryError,
        UnknownNameError as UnknownNameError,
        UsageError as UsageError,
    )
    from .model.examples import (
        EXAMPLES as EXAMPLES,
        example as example,
    )
    from .numbers.from_floats import (
        ImportReport as ImportReport,
        exact_rows as exact_rows,
    )
    from .io.gym import (
        from_gym as from_gym,
    )
    from .mdp.model import (
        MDP as MDP,
    )
    from .oracle.mdp_judge import (
        judge_mdp as judge_mdp,
    )
    from .io import (
        dump as dump,
        load as load,
        load_mdp as load_mdp,
        loads as loads,
    )
    from .model.parametric import (
        ParametricChain as ParametricChain,
    )
    from .results.decomposition import (
        Decomposition as Decomposition,
        Result as Result,
        decompose as decompose,
    )
    from .results.strata import (
        StratifiedDecomposition as StratifiedDecomposition,
    )
    from .results.stratify import (
        stratify as stratify,
    )
    from .graph.structure import (
        Structure as Structure,
        chain_structure as chain_structure,
    )

__version__ = "0.1.0"

_legacy.install()
