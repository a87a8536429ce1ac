"""Reading another implementation's output for ``exactpte check``: JSON, CSV or ``.npz``.

- JSON: an object with any subset of the keys of ``exactpte decompose --json``; numbers
  as JSON numbers or ``"p/q"`` strings.
- CSV: a header naming per-state columns (``state`` optional, then e.g. ``g_star,v_star,rho,h``).
- ``.npz``: arrays named after the keys.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from ..errors import ChainFileError

__all__ = ["load_candidate"]

KNOWN = {"classes", "periods", "cyclic_classes", "transient", "g_star", "v_star", "rho", "h", "psi", "theta", "basis", "P_inf"}
ALIASES = {"g": "g_star", "gstar": "g_star", "v": "v_star", "vstar": "v_star", "gain": "rho", "bias": "h"}


def _normalize(data: dict) -> dict:
    out = {}
    for k, v in data.items():
        key = ALIASES.get(k, k)
        if key in KNOWN:
            out[key] = v
    if not out:
        raise ChainFileError(f"the candidate has none of the keys {sorted(KNOWN)} (got {sorted(data)})")
    return out


def load_candidate(path: str | os.PathLike) -> dict[str, Any]:
    """The candidate's quantities as a dict (keys as in the JSON contract)."""
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix == ".npz":
        try:
            with np.load(path, allow_pickle=False) as z:
                return _normalize({k: z[k] for k in z.files})
        except (OSError, ValueError) as e:
            raise ChainFileError(f"{path}: cannot read as .npz ({e})") from None
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror})") from None
    if suffix == ".csv":
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not lines:
            raise ChainFileError(f"{path}: empty CSV")
        head = [h.strip() for h in lines[0].split(",")]
        cols: dict[str, list] = {h: [] for h in head}
        for k, ln in enumerate(lines[1:], 2):
            cells = [c.strip() for c in ln.split(",")]
            if len(cells) != len(head):
                raise ChainFileError(f"{path}: line {k} has {len(cells)} cells, the header has {len(head)}")
            for h, c in zip(head, cells):
                cols[h].append(c)
        if "state" in cols:
            order = np.argsort([int(s) for s in cols.pop("state")])
            cols = {h: [v[i] for i in order] for h, v in cols.items()}
        return _normalize(cols)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict):
        raise ChainFileError(f"{path}: the candidate must be a JSON object")
    return _normalize(data)
