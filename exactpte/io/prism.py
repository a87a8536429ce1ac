"""PRISM's explicit format (``.tra`` transitions, ``.srew`` state rewards, ``.lab`` labels), read and written exactly."""

from __future__ import annotations

import re

from ..chain import MarkovRewardProcess
from ..errors import ChainFileError, UsageError
from ..floats import to_float
from .common import note_decimals

__all__ = ["to_prism", "read_prism"]


def to_prism(chain: MarkovRewardProcess, *, numbers: str = "fraction", flavour: str = "prism") -> tuple[str, str, str]:
    """PRISM explicit ``(.tra, .srew, .lab)`` texts (state 0 labelled ``init``).

    ``numbers="fraction"`` writes exact ``p/q`` (read back exactly by :func:`read_prism`);
    ``numbers="float"`` writes the nearest doubles (17 significant digits) for tools whose
    explicit parsers only read floating point (PRISM, Storm): that file is *not* exact.
    Storm's explicit parser wants ``dtmc`` in place of the header line (``flavour="storm"``).
    """
    if numbers not in ("fraction", "float"):
        raise UsageError(f"numbers must be 'fraction' or 'float', got {numbers!r}")
    num = (lambda q: str(q)) if numbers == "fraction" else (lambda q: repr(to_float(q)))
    if flavour not in ("prism", "storm"):
        raise UsageError(f"flavour must be 'prism' or 'storm', got {flavour!r}")
    head = f"{chain.n} {chain.nnz}" if flavour == "prism" else "dtmc"
    tra = [head] + [f"{i} {j} {num(q)}" for i, j, q in chain.edges()]
    nz = [(s, x) for s, x in enumerate(chain.r) if x != 0 or flavour == "storm"]  # Storm rejects an empty file
    rows = [f"{s} {num(x)}" for s, x in nz]
    if flavour == "prism":
        srew = [f"{chain.n} {len(nz)}"] + rows
        lab = ['0="init" 1="deadlock"', "0: 0"]
    else:
        srew = rows
        lab = ["#DECLARATION", "init", "#END", "0 init"]
    return "\n".join(tra) + "\n", "\n".join(srew) + "\n", "\n".join(lab) + "\n"


def read_prism(tra: str, srew: str | None = None, lab: str | None = None, *, source: str = "<tra>") -> MarkovRewardProcess:
    """Parse PRISM explicit files: ``.tra`` (``n nnz`` then ``i j p``), optional ``.srew`` (``n nnz``
    then ``i r``; without it ``r = 0``) and ``.lab`` (checked for form only: PRISM labels are
    atomic propositions, not state names)."""
    lines = [ln.split() for ln in tra.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    storm = bool(lines) and lines[0] in (["dtmc"], ["DTMC"])
    if storm:  # Storm's flavour: a model-type hint and no 'states transitions' header
        lines = [["-1", "-1"]] + lines[1:]
    if not lines or len(lines[0]) != 2:
        raise ChainFileError(f"{source}: the first line of a .tra file is 'states transitions'")
    try:
        n, nnz = int(lines[0][0]), int(lines[0][1])
    except ValueError:
        raise ChainFileError(f"{source}: the first line of a .tra file is 'states transitions'") from None
    edges = []
    for k, parts in enumerate(lines[1:], 2):
        if len(parts) == 4:  # MDP-style 'i a j p' with a single action
            if parts[1] != "0":
                raise ChainFileError(f"{source}: line {k} has action {parts[1]}; a DTMC has one action per state")
            parts = [parts[0], parts[2], parts[3]]
        if len(parts) != 3:
            raise ChainFileError(f"{source}: line {k} should be 'source target probability', got {' '.join(parts)!r}")
        try:
            edges.append((int(parts[0]), int(parts[1]), parts[2]))
        except ValueError:
            raise ChainFileError(f"{source}: line {k} has a non-integer state index") from None
    if storm:
        n, nnz = 1 + max((max(i, j) for i, j, _ in edges), default=-1), len(edges)
    if len(edges) != nnz:
        raise ChainFileError(f"{source}: header announces {nnz} transitions, the file has {len(edges)}")
    r = ["0"] * n
    if srew is not None:
        rl = [ln.split() for ln in srew.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        for k, parts in enumerate(rl[0 if storm else 1 :], 1 if storm else 2):
            if len(parts) != 2:
                raise ChainFileError(f"state rewards: line {k} should be 'state reward'")
            s = int(parts[0])
            if not 0 <= s < n:
                raise ChainFileError(f"state rewards: line {k} names state {s}, outside 0..{n - 1}")
            r[s] = parts[1]
    if lab is not None and not storm:
        first = lab.strip().splitlines()[0] if lab.strip() else ""
        if first and not re.fullmatch(r'(\s*\d+="[^"]*")+\s*', first):
            raise ChainFileError("labels: the first line of a .lab file declares labels as 0=\"name\" ...")
    chain = MarkovRewardProcess.from_edges(n, edges, r)
    if srew is None:
        chain.notes = chain.notes + ("no state-reward file given: r = 0",)
    return note_decimals(chain, [tra, srew])
