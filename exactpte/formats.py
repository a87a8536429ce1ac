r"""Other tools' chain formats, read and written exactly.

- Storm's DRN (``@type: DTMC``; state rewards in brackets): :func:`to_drn`, :func:`read_drn`.
- PRISM's explicit format (``.tra`` transitions, ``.srew`` state rewards, ``.lab`` labels):
  :func:`to_prism`, :func:`read_prism`.
- CSV edge lists (``source,target,probability``; rewards ``state,reward``):
  :func:`to_edge_csv`, :func:`read_edge_csv`.

Numbers are read exactly: ``1/3`` as a fraction, ``0.1`` as the exact decimal 1/10
(never through a binary float); every reader states in ``chain.notes`` when it read
decimals that way.

>>> import exactpte
>>> to_drn(exactpte.example("periodic")).splitlines()[10:16]
['state 0 [1] init', '\taction 0', '\t\t1 : 1', 'state 1 [0]', '\taction 0', '\t\t0 : 1']
>>> read_drn(to_drn(exactpte.example("branching"))) == exactpte.example("branching")
True
"""

from __future__ import annotations

import re

from .errors import ChainFileError
from .floats import to_float
from .model import MarkovRewardProcess

__all__ = ["to_drn", "read_drn", "to_prism", "read_prism", "to_edge_csv", "read_edge_csv"]

DECIMAL_NOTE = "decimal numbers were read as exact decimals (0.1 = 1/10), not as binary floats"


def _note_decimals(chain: MarkovRewardProcess, texts) -> MarkovRewardProcess:
    if any(re.search(r"\d\.\d|\d[eE][+-]?\d", t or "") for t in texts):
        chain.notes = chain.notes + (DECIMAL_NOTE,)
    return chain


def to_drn(chain: MarkovRewardProcess, *, reward_name: str = "r") -> str:
    """Storm's explicit DRN text: rationals as ``p/q``, the state reward in brackets, state 0 ``init``."""
    lines = ["@type: DTMC", "@parameters", "", "@reward_models", reward_name,
             "@nr_states", str(chain.n), "@nr_choices", str(chain.n), "@model"]
    for s, (cols, vals) in enumerate(chain.rows()):
        lines.append(f"state {s} [{chain.r[s]}]" + (" init" if s == 0 else ""))
        lines.append("\taction 0")
        for j, q in zip(cols, vals):
            lines.append(f"\t\t{j} : {q}")
    return "\n".join(lines) + "\n"


_STATE = re.compile(r"^state\s+(\d+)\s*(?:\{[^}]*\})?\s*(?:\[([^\]]*)\])?")


def read_drn(text: str, *, source: str = "<drn>", reward_model: int = 0) -> MarkovRewardProcess:
    """Parse a DTMC in Storm's DRN format (one action per state); the state reward comes
    from reward model ``reward_model`` (0 = the first listed)."""
    header_type = None
    n = None
    in_model = False
    edges: list[tuple[int, int, str]] = []
    rewards: dict[int, str] = {}
    current = None
    pending = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        where = f"{source}: line {lineno}"
        if pending == "nr_states":
            try:
                n = int(line)
            except ValueError:
                raise ChainFileError(f"{where}: @nr_states must be followed by an integer, got {line!r}") from None
            pending = None
            continue
        if line.startswith("@"):
            key = line[1:].split(":")[0].strip()
            if key == "type":
                header_type = line.split(":", 1)[1].strip()
                if header_type != "DTMC":
                    raise ChainFileError(f"{where}: model type {header_type} is not supported (exactpte reads DTMCs)")
            elif key == "nr_states":
                pending = "nr_states"
            elif key == "model":
                in_model = True
            continue
        if not in_model:
            continue  # parameter and reward-model names, and other header values
        m = _STATE.match(line)
        if m:
            current = int(m.group(1))
            if m.group(2) is not None:
                parts = [p.strip() for p in m.group(2).split(",")]
                if reward_model >= len(parts):
                    raise ChainFileError(f"{where}: state {current} has {len(parts)} reward(s), reward model {reward_model} asked")
                rewards[current] = parts[reward_model]
            continue
        if line.startswith("action"):
            if line.split()[1:2] not in (["0"], ["__NOLABEL__"]) and current is not None and any(e[0] == current for e in edges):
                raise ChainFileError(f"{where}: state {current} has several actions; a DTMC has one")
            continue
        if ":" in line and current is not None:
            target, prob = line.split(":", 1)
            try:
                edges.append((current, int(target), prob.strip()))
            except ValueError:
                raise ChainFileError(f"{where}: expected 'target : probability', got {line!r}") from None
            continue
        raise ChainFileError(f"{where}: cannot read {line!r}")
    if header_type is None:
        raise ChainFileError(f"{source}: missing '@type: DTMC' header")
    if n is None:
        n = 1 + max((max(i, j) for i, j, _ in edges), default=-1)
    r = [rewards.get(s, "0") for s in range(n)]
    chain = MarkovRewardProcess.from_edges(n, edges, r)
    if not rewards:
        chain.notes = chain.notes + ("the DRN file has no state rewards: r = 0",)
    return _note_decimals(chain, [text])


def to_prism(chain: MarkovRewardProcess, *, numbers: str = "fraction", flavour: str = "prism") -> tuple[str, str, str]:
    """PRISM explicit ``(.tra, .srew, .lab)`` texts (state 0 labelled ``init``).

    ``numbers="fraction"`` writes exact ``p/q`` (read back exactly by :func:`read_prism`);
    ``numbers="float"`` writes the nearest doubles (17 significant digits) for tools whose
    explicit parsers only read floating point (PRISM, Storm): that file is *not* exact.
    Storm's explicit parser wants ``dtmc`` in place of the header line (``flavour="storm"``).
    """
    if numbers not in ("fraction", "float"):
        raise ValueError(f"numbers must be 'fraction' or 'float', got {numbers!r}")
    num = (lambda q: str(q)) if numbers == "fraction" else (lambda q: repr(to_float(q)))
    if flavour not in ("prism", "storm"):
        raise ValueError(f"flavour must be 'prism' or 'storm', got {flavour!r}")
    head = f"{chain.n} {chain.nnz}" if flavour == "prism" else "dtmc"
    tra = [head] + [f"{i} {j} {num(q)}" for i, (c, v) in enumerate(chain.rows()) for j, q in zip(c, v)]
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
    return _note_decimals(chain, [tra, srew])


def to_edge_csv(chain: MarkovRewardProcess) -> tuple[str, str]:
    """``(edges, rewards)`` CSV texts with headers ``source,target,probability`` and ``state,reward``."""
    e = ["source,target,probability"] + [f"{i},{j},{q}" for i, (c, v) in enumerate(chain.rows()) for j, q in zip(c, v)]
    r = ["state,reward"] + [f"{s},{x}" for s, x in enumerate(chain.r)]
    return "\n".join(e) + "\n", "\n".join(r) + "\n"


def _csv_rows(text: str) -> list[list[str]]:
    rows = [[c.strip() for c in ln.split(",")] for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if rows and not re.fullmatch(r"-?\d+", rows[0][0]):
        rows = rows[1:]  # header
    return rows


def read_edge_csv(edges: str, rewards: str | None = None, *, n: int | None = None, source: str = "<csv>") -> MarkovRewardProcess:
    """Parse a CSV edge list (``source,target,probability``) and a reward CSV (``state,reward`` or one
    reward a line); ``n`` defaults to one more than the largest state index."""
    rows = _csv_rows(edges)
    triples = []
    for k, row in enumerate(rows, 1):
        if len(row) != 3:
            raise ChainFileError(f"{source}: edge row {k} should be 'source,target,probability', got {','.join(row)!r}")
        try:
            triples.append((int(row[0]), int(row[1]), row[2]))
        except ValueError:
            raise ChainFileError(f"{source}: edge row {k} has a non-integer state index") from None
    size = n if n is not None else 1 + max((max(i, j) for i, j, _ in triples), default=-1)
    r = ["0"] * size
    if rewards is not None:
        for k, row in enumerate(_csv_rows(rewards), 1):
            if len(row) == 2:
                s = int(row[0])
            elif len(row) == 1:
                s = k - 1
            else:
                raise ChainFileError(f"rewards: row {k} should be 'state,reward' or 'reward'")
            if not 0 <= s < size:
                raise ChainFileError(f"rewards: row {k} names state {s}, outside 0..{size - 1}")
            r[s] = row[-1]
    chain = MarkovRewardProcess.from_edges(size, triples, r)
    if rewards is None:
        chain.notes = chain.notes + ("no reward file given: r = 0",)
    return _note_decimals(chain, [edges, rewards])
