"""Reading another implementation's output for ``exactpte check``: JSON, CSV or ``.npz``.

- JSON: an object with any subset of the keys of ``exactpte decompose --json``; numbers
  as JSON numbers (``NaN`` and ``Infinity`` are read, and then never agree) or ``"p/q"`` strings.
- CSV: a header naming per-state columns (e.g. ``g_star,v_star,rho,h``), optionally a ``state``
  column, which must then be a permutation of ``0..rows-1``; one row per state.
- ``.npz``: arrays named after the keys (no pickled objects).

Which keys are allowed, and how values are judged, is :func:`exactpte.oracle.comparison.compare`'s
business; this module only reads, and names the file, line or key of anything malformed.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from exactpte.errors import CandidateError, brief
from exactpte.io.json import unique_keys
from exactpte.oracle.keys import ALIASES, EXTRA_STATE_KEYS, VECTOR_KEYS
from exactpte.oracle.peers import NATIVE_NAMES
from exactpte.results.factored import expand

__all__ = ["load_candidate", "read_candidate"]


def load_candidate(path: str | os.PathLike[str], *, max_elements: int | None = None,
                   columns: tuple[str, ...] = ()) -> dict[str, Any]:
    """The candidate's quantities as a dict (keys as in the JSON contract).

    ``max_elements`` bounds the numbers of one ``.npz`` array (``exactpte check``: ``n^2 + n`` for a chain of ``n``
    states, the size of ``P_inf``), checked on the archive's declared sizes before anything is decompressed: a
    195 KB ``.npz`` of 25 million zeros took 1.6 GB and 100 s before it was judged the wrong length.
    ``columns``: further per-state CSV columns allowed (an MDP solver's ``policy``, ``V``, ...).

    Raises
    ------
    CandidateError
        The file cannot be read or is malformed (the message names the file and the place).
    """
    suffix = os.path.splitext(str(path))[1].lower()
    if suffix == ".npz":
        try:
            with np.load(path, allow_pickle=False) as z:
                _npz_sizes(z, str(path), max_elements)
                data = {k: z[k] for k in z.files}
        except CandidateError:
            raise
        except (OSError, ValueError, EOFError) as e:
            raise CandidateError(f"{path}: cannot read as .npz ({e})") from None
        except Exception as e:  # zipfile.BadZipFile and other corruptions
            raise CandidateError(f"{path}: not a valid .npz file ({type(e).__name__})") from None
        for k, a in data.items():
            if a.dtype.kind not in "iufb":
                raise CandidateError(f"{path}: array {k!r} has dtype {a.dtype}, expected numbers")
        return data
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as e:
        raise CandidateError(f"{path}: cannot read ({e.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CandidateError(f"{path}: not UTF-8 text (byte offset {e.start})") from None
    if suffix == ".csv":
        return _csv(text, str(path), columns)
    try:
        data = json.loads(text, object_pairs_hook=unique_keys, parse_int=_json_int)
    except json.JSONDecodeError as e:
        raise CandidateError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except (ValueError, RecursionError) as e:
        raise CandidateError(f"{path}: {e if isinstance(e, ValueError) else 'nested too deeply'}") from None
    return read_candidate(data, source=str(path))


def read_candidate(data: Any, *, source: str = "the candidate") -> dict[str, Any]:
    """A candidate parsed from JSON (or handed over as plain Python: ``exactpte conform``'s adapters) as
    :func:`~exactpte.oracle.comparison.compare` takes it: an object, its ``--factored`` form written out.

    Examples
    --------
    >>> read_candidate({"rho": ["1/D1", "1/D1"], "denominators": {"D1": "2"}})["rho"]
    ['1/2', '1/2']
    """
    if not isinstance(data, dict):
        raise CandidateError(f"{source}: the candidate must be a JSON object, got {type(data).__name__}")
    try:  # the --factored form: "p/D1" entries over named denominators, written out
        return expand(data)
    except ValueError as e:
        raise CandidateError(f"{source}: {e}") from None


def _npz_sizes(z: Any, path: str, max_elements: int | None) -> None:
    """Refuse an ``.npz`` member that is not an ``.npy`` array, or whose declared uncompressed size exceeds
    ``max_elements`` numbers of 8 bytes (plus its header): the zip reader never reads past a member's declared size."""
    if max_elements is None:
        return
    for info in z.zip.infolist():
        if not info.filename.endswith(".npy"):
            raise CandidateError(f"{path}: member {brief(info.filename, 60, quoted=True)} is not an .npy array")
        if info.file_size > 8 * max_elements + 65_536:
            raise CandidateError(f"{path}: array {brief(info.filename[:-4], 60, quoted=True)} holds {info.file_size:,} bytes uncompressed, "
                                 f"more than {max_elements:,} numbers (the largest quantity of this chain, P_inf)")


def _csv(text: str, path: str, columns: tuple[str, ...] = ()) -> dict[str, Any]:
    lines = [(k, ln) for k, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise CandidateError(f"{path}: empty CSV")
    head = [h.strip() for h in lines[0][1].split(",")]
    if len(set(head)) != len(head):
        raise CandidateError(f"{path}: line {lines[0][0]}: a column name repeats ({head})")
    per_state = (*VECTOR_KEYS, *EXTRA_STATE_KEYS)
    native = {e.name: e.key for e in NATIVE_NAMES if e.key in per_state}  # a peer's per-state column (RVI's V)
    for h in head:
        if h != "state" and h not in columns and ALIASES.get(h, native.get(h, h)) not in per_state:
            raise CandidateError(f"{path}: line {lines[0][0]}: column {h!r} is not a per-state quantity "
                                 f"(state, {', '.join((*VECTOR_KEYS, *EXTRA_STATE_KEYS))})")
    cols: dict[str, list[str]] = {h: [] for h in head}
    for k, ln in lines[1:]:
        cells = [c.strip() for c in ln.split(",")]
        if len(cells) != len(head):
            raise CandidateError(f"{path}: line {k} has {len(cells)} cells, the header has {len(head)}")
        for h, c in zip(head, cells):
            cols[h].append(c)
    if "state" in cols:
        states = []
        for k_line, s in zip((k for k, _ in lines[1:]), cols.pop("state")):
            if not (s.isascii() and s.isdigit()):
                raise CandidateError(f"{path}: line {k_line}: state {brief(s, 20, quoted=True)} is not a state index")
            states.append(int(s))
        if sorted(states) != list(range(len(states))):
            dup = sorted({s for s in states if states.count(s) > 1})
            out_of_range = sorted(s for s in states if s >= len(states))
            raise CandidateError(f"{path}: the state column must list 0..{len(states) - 1} once each "
                                 f"(repeated: {dup[:8]}, out of range: {out_of_range[:8]})")
        order = np.argsort(states)
        cols = {h: [v[i] for i in order] for h, v in cols.items()}
    if not cols:
        raise CandidateError(f"{path}: no quantity columns")
    return cols


def _json_int(text: str) -> int | str:
    """A JSON integer; one too long for Python's int parsing (> 4,000 digits) is kept as its text, which
    the oracle reads exactly (and refuses: no float holds it)."""
    return int(text) if len(text) <= 4000 else text
