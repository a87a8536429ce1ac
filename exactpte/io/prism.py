"""PRISM's explicit format (``.tra`` transitions, ``.srew`` state rewards, ``.trew`` transition
rewards, ``.lab`` labels), in PRISM's and in Storm's flavour, read strictly and written exactly.

- PRISM flavour: ``.tra`` starts with ``states transitions``, then one ``i j p`` line per
  transition (``i j p action`` with an action label, or ``i 0 j p`` in the MDP layout with a
  single choice); ``.srew`` starts with ``states nonzero-rewards``, then ``i r`` lines;
  ``.trew`` starts with ``states transitions``, then ``i j r`` lines.
- Storm flavour: ``.tra`` starts with the model type ``dtmc`` (any case) and has no counts;
  reward files have no header.

The reward of a state is its state reward plus ``sum_j P(i, j) R(i, j)`` over its transition
rewards (PRISM's and Storm's semantics for a DTMC).  Numbers are read exactly.  Rules in
``docs/formats.md``.

Examples
--------
>>> import exactpte
>>> m = exactpte.example("branching")
>>> read_prism(*to_prism(m)) == m
True
"""

from __future__ import annotations

import re
from collections.abc import Callable

import flint

from exactpte.numbers.scalars import parse_number
from exactpte.mdp.model import MDP
from exactpte.model.chain import MarkovRewardProcess, require_chain
from exactpte.errors import ChainFileError, UsageError
from exactpte.model.to_float import to_float
from exactpte.io.common import MAX_INDEX_DIGITS, exact_value, index_value, naming, note_decimals, note_decimals_mdp, state_index

__all__ = ["to_prism", "read_prism", "read_prism_mdp"]


def to_prism(chain: MarkovRewardProcess, *, numbers: str = "fraction", flavour: str = "prism") -> tuple[str, str, str]:
    """PRISM explicit ``(.tra, .srew, .lab)`` texts (state 0 labelled ``init``).

    ``numbers="fraction"`` writes exact ``p/q`` (read back exactly by :func:`read_prism`);
    ``numbers="float"`` writes the nearest doubles (17 significant digits) for tools whose
    explicit parsers only read floating point (PRISM, Storm): that file is *not* exact.
    Storm's explicit parser wants ``dtmc`` in place of the header line (``flavour="storm"``).
    """
    require_chain(chain)
    if chain.field.is_parametric:
        raise UsageError("PRISM explicit files hold numbers; write a parametric chain with to_drn or as a JSON chain file")
    if numbers not in ("fraction", "float"):
        raise UsageError(f"numbers must be 'fraction' or 'float', got {numbers!r}")
    num: Callable[[flint.fmpq], str] = (lambda q: str(q)) if numbers == "fraction" else (lambda q: repr(to_float(q)))
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


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """Content lines as ``(line number, whitespace-separated fields)``; blank and ``#`` lines skipped."""
    return [(k, ln.split()) for k, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")]


def _count_header(parts: list[str], where: str, what: str) -> tuple[int, int]:
    counts = [index_value(p) for p in parts]
    if len(counts) != 2 or counts[0] is None or counts[1] is None:
        raise ChainFileError(f"{where}: the first line is '{what}' (two non-negative integers), got {' '.join(parts)[:40]!r}")
    return counts[0], counts[1]


def read_prism(tra: str, srew: str | None = None, lab: str | None = None, *, trew: str | None = None,
               source: str = "<tra>", reward_sources: tuple[str, str] = ("state rewards", "transition rewards")
               ) -> MarkovRewardProcess:
    """Parse PRISM explicit files (PRISM's or Storm's flavour, told by the ``.tra`` header).

    Parameters
    ----------
    tra : str
        The transitions file's text.
    srew, trew : str, optional
        State-reward and transition-reward texts; without either, ``r = 0`` (stated in ``notes``).
    lab : str, optional
        A ``.lab`` text, checked for form (its labels are atomic propositions, not state names).
    source : str
        How errors name the ``.tra`` file; ``reward_sources`` names the reward files.

    Raises
    ------
    ChainFileError
        Naming the file, the line and the rule broken.
    """
    lines = _lines(tra)
    if not lines:
        raise ChainFileError(f"{source}: empty transitions file")
    k0, first = lines[0]
    storm = len(first) == 1 and first[0].lower() == "dtmc"
    if not storm and len(first) == 1 and first[0].lower() in ("ctmc", "mdp", "ma", "ctmdp"):
        raise ChainFileError(f"{source}: line {k0}: model type {first[0]} is not supported: exactpte reads DTMCs")
    edges: list[tuple[int, int, flint.fmpq]] = []
    values: dict[str, flint.fmpq] = {}  # a model repeats a few probabilities on most lines: each text parsed once
    for k, parts in lines[1:]:
        where = f"{source}: line {k}"
        if len(parts) == 4 and parse_number(parts[3]) is not None:  # MDP layout 'i choice j p' with one choice
            if parts[1] != "0":
                raise ChainFileError(f"{where}: choice {parts[1]} of state {parts[0]}; a DTMC has one choice per state")
            parts = [parts[0], parts[2], parts[3]]
        elif len(parts) == 4:  # 'i j p action': the action label of a DTMC transition
            if not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", parts[3]):
                raise ChainFileError(f"{where}: {parts[3][:20]!r} is neither a probability nor an action label")
            parts = parts[:3]
        if len(parts) != 3:
            raise ChainFileError(f"{where}: expected 'source target probability', got {' '.join(parts)[:60]!r}")
        q = values.get(parts[2])
        if q is None:  # (the cache holds at most one value per line of the file)
            q = values[parts[2]] = exact_value(parts[2], where)
        edges.append((state_index(parts[0], where), state_index(parts[1], where), q))
    if storm:
        n = 1 + max((max(i, j) for i, j, _ in edges), default=-1)
    else:
        n, nnz = _count_header(first, f"{source}: line {k0}", "states transitions")
        if n > len(edges):
            raise ChainFileError(f"{source}: line {k0}: {n} states need at least {n} transitions (every row sums to 1), the file has {len(edges)}")
        if len(edges) != nnz:
            raise ChainFileError(f"{source}: the header announces {nnz} transitions, the file has {len(edges)}")
        for i, j, _ in edges:
            if i >= n or j >= n:
                raise ChainFileError(f"{source}: transition {i} -> {j} names a state outside 0..{n - 1} (header: {n} states)")
    if n < 1:
        raise ChainFileError(f"{source}: no states")
    zero = flint.fmpq(0)
    r = [zero] * n
    notes = []
    if srew is not None:
        for s, x in _state_rewards(srew, n, storm, reward_sources[0]).items():
            r[s] += x
    if trew is not None:
        prob = {(i, j): p for i, j, p in edges}
        for (i, j), x in _transition_rewards(trew, n, storm, reward_sources[1]).items():
            p = prob.get((i, j), zero)
            if p == 0:
                raise ChainFileError(f"{reward_sources[1]}: a reward on {i} -> {j}, which is not a transition of the chain")
            r[i] += p * x
    if srew is None and trew is None:
        notes.append("no reward file given: r = 0")
    if lab is not None:
        _require_label_file(lab, n, storm)
    with naming(source):
        chain = MarkovRewardProcess.from_edges(n, edges, r)
    chain.notes = chain.notes + tuple(notes)
    return note_decimals(chain, [tra, srew, trew])


def _reward_lines(text: str, n: int, storm: bool, source: str, header: str) -> list[tuple[int, list[str]]]:
    """The data lines of a reward file; in PRISM's flavour after checking its ``header`` line
    (``n`` states, then the number of data lines)."""
    lines = _lines(text)
    if storm:
        return lines
    if not lines:
        raise ChainFileError(f"{source}: empty file; a PRISM reward file starts with '{header}'")
    k0, head = lines[0]
    states, count = _count_header(head, f"{source}: line {k0}", header)
    if states != n:
        raise ChainFileError(f"{source}: line {k0}: the header names {states} states, the chain has {n}")
    if len(lines) - 1 != count:
        raise ChainFileError(f"{source}: the header announces {count} rewards, the file has {len(lines) - 1}")
    return lines[1:]


def _state_rewards(text: str, n: int, storm: bool, source: str) -> dict[int, flint.fmpq]:
    lines = _reward_lines(text, n, storm, source, "states nonzero-rewards")
    out: dict[int, flint.fmpq] = {}
    for k, parts in lines:
        where = f"{source}: line {k}"
        if len(parts) != 2:
            raise ChainFileError(f"{where}: expected 'state reward', got {' '.join(parts)[:60]!r}")
        s = state_index(parts[0], where, n)
        if s in out:
            raise ChainFileError(f"{where}: state {s} has a second reward line")
        out[s] = exact_value(parts[1], where)
    return out


def _transition_rewards(text: str, n: int, storm: bool, source: str) -> dict[tuple[int, int], flint.fmpq]:
    lines = _reward_lines(text, n, storm, source, "states transitions")
    out: dict[tuple[int, int], flint.fmpq] = {}
    for k, parts in lines:
        where = f"{source}: line {k}"
        if len(parts) == 4 and parts[1] == "0" and parse_number(parts[3]) is not None:
            parts = [parts[0], parts[2], parts[3]]
        if len(parts) != 3:
            raise ChainFileError(f"{where}: expected 'source target reward', got {' '.join(parts)[:60]!r}")
        key = (state_index(parts[0], where, n), state_index(parts[1], where, n))
        if key in out:
            raise ChainFileError(f"{where}: transition {key[0]} -> {key[1]} has a second reward line")
        out[key] = exact_value(parts[2], where)
    return out


def _require_label_file(text: str, n: int, storm: bool) -> None:
    """A ``.lab`` file's form: declarations, then states in range naming declared labels."""
    lines = _lines(text) if not storm else [(k, ln.split()) for k, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not lines:
        return
    if storm:
        if lines[0][1] != ["#DECLARATION"]:
            raise ChainFileError(f"labels: line {lines[0][0]}: a Storm .lab file starts with #DECLARATION")
        end = next((i for i, (_, p) in enumerate(lines) if p == ["#END"]), None)
        if end is None:
            raise ChainFileError("labels: #END missing after the declarations")
        declared = {w for _, p in lines[1:end] for w in p}
        for k, parts in lines[end + 1 :]:
            state_index(parts[0], f"labels: line {k}", n)
            unknown = [w for w in parts[1:] if w not in declared]
            if unknown:
                raise ChainFileError(f"labels: line {k}: undeclared label(s) {unknown}")
        return
    k0, first = lines[0]
    decl = re.findall(r'([0-9]+)="([^"]*)"', " ".join(first))
    if not decl or not re.fullmatch(r'(\s*[0-9]+="[^"]*")+\s*', " ".join(first)):
        raise ChainFileError(f"labels: line {k0}: the first line of a .lab file declares labels as 0=\"name\" ...")
    ids = {index_value(i) for i, _ in decl}
    if None in ids:
        raise ChainFileError(f"labels: line {k0}: a label id of more than {MAX_INDEX_DIGITS} digits")
    for k, parts in lines[1:]:
        if not parts[0].endswith(":"):
            raise ChainFileError(f"labels: line {k}: expected 'state: label-ids'")
        state_index(parts[0][:-1], f"labels: line {k}", n)
        for w in parts[1:]:
            if index_value(w) not in ids:
                raise ChainFileError(f"labels: line {k}: {w!r} is not a declared label id")


# -- MDPs: 'states choices transitions', then 's c t p [action]' lines ---------------------------------------
def read_prism_mdp(tra: str, srew: str | None = None, *, trew: str | None = None, source: str = "<tra>",
                   reward_sources: tuple[str, str] = ("state rewards", "transition rewards")) -> MDP:
    """Parse an MDP in PRISM's explicit format: the ``.tra`` header ``states choices transitions`` (PRISM's
    flavour) or ``mdp`` (Storm's), then one ``s c t p`` line per transition (an action label may follow),
    the choices ``c`` of each state numbered ``0, 1, ...`` (action ``c``).  ``r(s, c)`` is the state reward
    (``.srew``: ``s r`` lines) plus ``sum_t P(t|s,c) R(s,c,t)`` over the transition rewards (``.trew``:
    ``s c t r`` lines); without either file ``r = 0`` (stated in ``notes``).

    Examples
    --------
    >>> m = read_prism_mdp("2 3 4\\n0 0 0 1\\n0 1 1 1/2\\n0 1 0 1/2 go\\n1 0 1 1\\n", "2 1\\n1 5\\n")
    >>> m.num_actions, m.row(0, 1), m.reward(1, 0)
    ((2, 1), ((0, 1/2), (1, 1/2)), 5)
    """
    lines = _lines(tra)
    if not lines:
        raise ChainFileError(f"{source}: empty transitions file")
    k0, first = lines[0]
    storm = len(first) == 1 and first[0].lower() == "mdp"
    quads: list[tuple[int, int, int, flint.fmpq]] = []
    values: dict[str, flint.fmpq] = {}
    for k, parts in lines[1:]:
        where = f"{source}: line {k}"
        if len(parts) == 5 and re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", parts[4]):
            parts = parts[:4]
        if len(parts) != 4:
            raise ChainFileError(f"{where}: expected 'state choice target probability [action]', got {' '.join(parts)[:60]!r}")
        q = values.get(parts[3])
        if q is None:
            q = values[parts[3]] = exact_value(parts[3], where)
        quads.append((state_index(parts[0], where), state_index(parts[1], where), state_index(parts[2], where), q))
    n = _mdp_size(first, storm, quads, f"{source}: line {k0}")
    state_reward = _state_rewards(srew, n, storm, reward_sources[0]) if srew is not None else {}
    trans_reward = _mdp_transition_rewards(trew, n, storm, reward_sources[1]) if trew is not None else {}
    by_choice: dict[tuple[int, int], list[tuple[int, flint.fmpq]]] = {}
    for s, c, t, q in quads:
        by_choice.setdefault((s, c), []).append((t, q))
    for (s, c, t) in trans_reward:
        if all(tt != t for tt, _ in by_choice.get((s, c), [])):
            raise ChainFileError(f"{reward_sources[1]}: a reward on {s} -{c}-> {t}, which is not a transition of the MDP")
    with naming(source):
        mdp = MDP.from_transitions(n, [(s, c, t, q) for s, c, t, q in quads], _choice_rewards(by_choice, n, state_reward, trans_reward))
    if srew is None and trew is None:
        mdp.notes = mdp.notes + ("no reward file given: r = 0",)
    return note_decimals_mdp(mdp, [tra, srew, trew])


def _mdp_size(first: list[str], storm: bool, quads: list[tuple[int, int, int, flint.fmpq]], where: str) -> int:
    """The number of states: from PRISM's header (checked against the lines) or, in Storm's flavour, the lines."""
    if storm:
        return 1 + max((max(s, t) for s, _, t, _ in quads), default=-1)
    counts = [index_value(p) for p in first]
    if len(counts) != 3 or None in counts:
        raise ChainFileError(f"{where}: the first line of an MDP .tra file is 'states choices transitions' (three "
                             f"non-negative integers) or 'mdp', got {' '.join(first)[:40]!r}")
    n, choices, transitions = (c for c in counts if c is not None)
    if len(quads) != transitions:
        raise ChainFileError(f"{where}: the header announces {transitions} transitions, the file has {len(quads)}")
    listed = len({(s, c) for s, c, _, _ in quads})
    if listed != choices:
        raise ChainFileError(f"{where}: the header announces {choices} choices, the file has {listed}")
    for s, _, t, _ in quads:
        if s >= n or t >= n:
            raise ChainFileError(f"{where}: a transition {s} -> {t} names a state outside 0..{n - 1} (header: {n} states)")
    return n


def _mdp_transition_rewards(text: str, n: int, storm: bool, source: str) -> dict[tuple[int, int, int], flint.fmpq]:
    lines = _lines(text)
    if not storm and lines:
        lines = lines[1:]  # PRISM's header 'states choices transitions'
    out: dict[tuple[int, int, int], flint.fmpq] = {}
    for k, parts in lines:
        where = f"{source}: line {k}"
        if len(parts) != 4:
            raise ChainFileError(f"{where}: expected 'state choice target reward', got {' '.join(parts)[:60]!r}")
        key = (state_index(parts[0], where, n), state_index(parts[1], where), state_index(parts[2], where, n))
        if key in out:
            raise ChainFileError(f"{where}: transition {key[0]} -{key[1]}-> {key[2]} has a second reward line")
        out[key] = exact_value(parts[3], where)
    return out


def _choice_rewards(by_choice: dict[tuple[int, int], list[tuple[int, flint.fmpq]]], n: int, state_reward: dict[int, flint.fmpq],
                    trans_reward: dict[tuple[int, int, int], flint.fmpq]) -> list[list[flint.fmpq]]:
    """``r(s, c)``: the state reward plus the expected transition reward of the choice."""
    zero = flint.fmpq(0)
    counts = [0] * n
    for s, c in by_choice:
        counts[s] = max(counts[s], c + 1)
    out = []
    for s in range(n):
        out.append([state_reward.get(s, zero) + sum((q * trans_reward.get((s, c, t), zero) for t, q in by_choice.get((s, c), [])), zero)
                    for c in range(counts[s])])
    return out
