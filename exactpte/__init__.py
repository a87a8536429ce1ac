"""exactpte: exact persistent–transient decomposition of finite Markov reward processes.

>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("cycle-24"))
>>> all(v == 0 for v in dec.v_star), dec.g_star == dec.chain.r, max(abs(x) for x in dec.h)
(True, True, 3)
"""

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
