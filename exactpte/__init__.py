"""exactpte: exact persistent–transient decomposition of finite Markov reward processes.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("cycle-24"))
>>> all(v == 0 for v in dec.v_star), dec.g_star == dec.chain.r, max(abs(x) for x in dec.h)
(True, True, 3)
"""

import importlib
from typing import TYPE_CHECKING

# the public names load on first use (PEP 562), so `exactpte --help` and `import exactpte.errors`
# do not pay for numpy, scipy and python-flint
_LAZY = {
    'Chain': 'chain',
    'MarkovRewardProcess': 'chain',
    'gain': 'classical',
    'stationary_distribution': 'classical',
    'decompose': 'decomposition',
    'AnchorError': 'errors',
    'CandidateError': 'errors',
    'ChainFileError': 'errors',
    'EntryError': 'errors',
    'ExactpteError': 'errors',
    'FloatEntryError': 'errors',
    'GenericRegionError': 'errors',
    'InvalidChainError': 'errors',
    'LabelError': 'errors',
    'NegativeEntryError': 'errors',
    'RowSumError': 'errors',
    'ShapeError': 'errors',
    'SingularSystemError': 'errors',
    'SymbolicEntryError': 'errors',
    'UnknownNameError': 'errors',
    'UsageError': 'errors',
    'EXAMPLES': 'examples',
    'example': 'examples',
    'dump': 'io',
    'load': 'io',
    'loads': 'io',
    'ParametricChain': 'parametric',
    'Decomposition': 'result',
    'Structure': 'structure',
    'chain_structure': 'structure',
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'exactpte' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from .chain import Chain, MarkovRewardProcess
    from .classical import gain, stationary_distribution
    from .decomposition import decompose
    from .errors import (
        AnchorError,
        CandidateError,
        ChainFileError,
        EntryError,
        ExactpteError,
        FloatEntryError,
        GenericRegionError,
        InvalidChainError,
        LabelError,
        NegativeEntryError,
        RowSumError,
        ShapeError,
        SingularSystemError,
        SymbolicEntryError,
        UnknownNameError,
        UsageError,
    )
    from .examples import EXAMPLES, example
    from .io import dump, load, loads
    from .parametric import ParametricChain
    from .result import Decomposition
    from .structure import Structure, chain_structure

__version__ = "0.1.0"

__all__ = [
    "Chain",
    "MarkovRewardProcess",
    "ParametricChain",
    "Decomposition",
    "Structure",
    "decompose",
    "gain",
    "stationary_distribution",
    "chain_structure",
    "load",
    "loads",
    "dump",
    "example",
    "EXAMPLES",
    "ExactpteError",
    "InvalidChainError",
    "ShapeError",
    "EntryError",
    "FloatEntryError",
    "NegativeEntryError",
    "RowSumError",
    "LabelError",
    "ChainFileError",
    "AnchorError",
    "GenericRegionError",
    "SymbolicEntryError",
    "CandidateError",
    "SingularSystemError",
    "UsageError",
    "UnknownNameError",
]
