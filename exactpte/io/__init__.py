"""Chain files: exactpte's JSON, Storm's DRN, PRISM's explicit format and CSV edge lists.

One module per format (:mod:`~exactpte.io.json`, :mod:`~exactpte.io.drn`,
:mod:`~exactpte.io.prism`, :mod:`~exactpte.io.csv`), each with a reader and a writer that
round-trip exactly; :func:`load` picks the reader by the file's ending.  Numbers are read
exactly: ``1/3`` as a fraction, ``0.1`` as the exact decimal 1/10, never through a binary float.

>>> import exactpte
>>> m = exactpte.example("branching")
>>> read_drn(to_drn(m)) == m and read_prism(*to_prism(m)) == m and read_edge_csv(*to_edge_csv(m)) == m
True
"""

from __future__ import annotations

import os

from ..chain import Chain
from ..errors import ChainFileError
from .csv import read_edge_csv, to_edge_csv
from .drn import read_drn, to_drn
from .json import chain_to_dict, dump, from_dict, loads
from .prism import read_prism, to_prism

__all__ = ["load", "loads", "from_dict", "dump", "chain_to_dict", "read_drn", "to_drn", "read_prism", "to_prism",
           "read_edge_csv", "to_edge_csv", "read_text"]


def read_text(path: str | os.PathLike) -> str:
    """The file's text (UTF-8); a :class:`~exactpte.errors.ChainFileError` when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror})") from None


def load(path: str | os.PathLike, *, rewards: str | os.PathLike | None = None,
         labels: str | os.PathLike | None = None) -> Chain:
    """Read a chain, the format chosen by the file's ending.

    Parameters
    ----------
    path : path-like
        ``.json`` (exactpte's chain file), ``.drn`` (Storm), ``.tra`` (PRISM explicit),
        ``.csv`` (edge list ``source,target,probability``).
    rewards : path-like, optional
        A ``.srew`` file for a ``.tra`` chain, or a reward CSV for a ``.csv`` chain.
    labels : path-like, optional
        A PRISM ``.lab`` file for a ``.tra`` chain.

    Returns
    -------
    Chain
        A :class:`~exactpte.MarkovRewardProcess`, or a :class:`~exactpte.ParametricChain`
        for a JSON file with ``"params"``.

    Raises
    ------
    ChainFileError
        The file cannot be read or breaks its format's rules (the message names file and line).
    InvalidChainError
        The file is well formed but the chain it describes is not a Markov reward process.
    """
    suffix = os.path.splitext(str(path))[1].lower()
    if rewards is not None and suffix not in (".tra", ".csv"):
        raise ChainFileError(f"{path}: a separate reward file goes with .tra or .csv chains, not {suffix or 'this'} files")
    if labels is not None and suffix != ".tra":
        raise ChainFileError(f"{path}: a .lab label file goes with .tra chains, not {suffix or 'this'} files")
    text = read_text(path)
    if suffix == ".drn":
        return read_drn(text, source=str(path))
    if suffix == ".tra":
        return read_prism(text, read_text(rewards) if rewards else None, read_text(labels) if labels else None, source=str(path))
    if suffix == ".csv":
        return read_edge_csv(text, read_text(rewards) if rewards else None, source=str(path))
    return loads(text, source=str(path))
