r"""Storm's explicit DRN format (``@type: DTMC``; state rewards in brackets), read and written exactly.

>>> import exactpte
>>> to_drn(exactpte.example("periodic")).splitlines()[10:16]
['state 0 [1] init', '\taction 0', '\t\t1 : 1', 'state 1 [0]', '\taction 0', '\t\t0 : 1']
"""

from __future__ import annotations

import re

from ..chain import MarkovRewardProcess
from ..errors import ChainFileError
from .common import note_decimals

__all__ = ["to_drn", "read_drn"]


def to_drn(chain: MarkovRewardProcess, *, reward_name: str = "r") -> str:
    """Storm's explicit DRN text: rationals as ``p/q``, the state reward in brackets, state 0 ``init``."""
    lines = ["@type: DTMC", "@parameters", "", "@reward_models", reward_name,
             "@nr_states", str(chain.n), "@nr_choices", str(chain.n), "@model"]
    for s in range(chain.n):
        lines.append(f"state {s} [{chain.r[s]}]" + (" init" if s == 0 else ""))
        lines.append("\taction 0")
        for j, q in chain.row(s):
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
    return note_decimals(chain, [text])
