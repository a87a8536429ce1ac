"""Chain files: exactpte's JSON, Storm's DRN, PRISM's explicit format and CSV edge lists.

One module per format (:mod:`~exactpte.io.json`, :mod:`~exactpte.io.drn`,
:mod:`~exactpte.io.prism`, :mod:`~exactpte.io.csv`), each with a reader and a writer that
round-trip exactly; :func:`load` picks the reader by the file's ending from one table, :data:`READERS`.  Numbers are read
exactly: ``1/3`` as a fraction, ``0.1`` as the exact decimal 1/10, never through a binary float.

Examples
--------
>>> import exactpte
>>> m = exactpte.example("branching")
>>> read_drn(to_drn(m)) == m and read_prism(*to_prism(m)) == m and read_edge_csv(*to_edge_csv(m)) == m
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from exactpte.model.chain import Chain
from exactpte.errors import ChainFileError, UsageError
from exactpte.io.csv import read_edge_csv, to_edge_csv
from exactpte.io.drn import read_drn, read_drn_mdp, to_drn, to_drn_mdp
from exactpte.io.json import chain_to_dict, from_dict, loads, unique_keys
from exactpte.io.json import dump as _dump_json
from exactpte.io.json import dumps as json_text
from exactpte.io.mdp_json import dump_mdp, dumps_mdp, loads_mdp, mdp_from_dict, mdp_to_dict
from exactpte.io.prism import read_prism, read_prism_mdp, to_prism
from exactpte.mdp.model import MDP

__all__ = ["READERS", "Reader", "load", "loads", "from_dict", "dump", "chain_to_dict", "read_drn", "to_drn", "read_prism", "to_prism",
           "read_edge_csv", "to_edge_csv", "read_text", "unique_keys", "MAX_DECOMPRESSED", "load_mdp", "loads_mdp", "mdp_from_dict",
           "mdp_to_dict", "dump_mdp", "dumps_mdp", "read_drn_mdp", "to_drn_mdp", "read_prism_mdp", "MDP_READERS"]


MAX_DECOMPRESSED = 2**31
"""Largest decompressed size (bytes) read from a ``.gz``/``.xz``/``.bz2`` file (a bound against decompression bombs)."""

_COMPRESSED = {".gz": "gzip", ".xz": "lzma", ".bz2": "bz2"}


def _split_suffix(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """``(format suffix, compression module)``: ``m.drn.gz`` -> ``(".drn", "gzip")``."""
    name = os.path.basename(str(path)).lower()
    stem, suffix = os.path.splitext(name)
    if suffix in _COMPRESSED:
        return os.path.splitext(stem)[1], _COMPRESSED[suffix]
    return suffix, None


def dump(chain: Chain, path: "str | os.PathLike[str] | IO[Any]", *, sparse: bool | None = None) -> None:
    """Write ``chain`` as a chain file that :func:`load` reads back equal.

    A file object gets exactpte's JSON; a path gets the format its ending names: ``.json``
    (exactpte's JSON; ``sparse`` chooses the edge-list form) or ``.drn`` (Storm's DRN,
    :func:`~exactpte.io.drn.to_drn`), either optionally compressed by a further ``.gz``, ``.xz`` or
    ``.bz2``.  Other endings are refused (they once all got JSON, which ``load`` then could not read
    by their ending): ``.tra`` and ``.csv`` files hold no rewards of their own, see
    :func:`~exactpte.io.prism.to_prism` and :func:`~exactpte.io.csv.to_edge_csv`.

    Examples
    --------
    >>> import os, tempfile, exactpte
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("m.json", "m.drn.gz"):
    ...     dump(exactpte.example("periodic"), os.path.join(folder, name))
    ...     assert load(os.path.join(folder, name)) == exactpte.example("periodic")
    >>> dump(exactpte.example("periodic"), os.path.join(folder, "m.tra"))
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: dump writes .json or .drn files (optionally .gz, .xz or .bz2 compressed), not 'm.tra': a .tra or .csv file holds no rewards of its own (exactpte.io.to_prism, exactpte.io.to_edge_csv write them with theirs)
    """
    if hasattr(path, "write"):
        _dump_json(chain, path, sparse=sparse)
        return
    fmt, codec = _split_suffix(path)
    if fmt not in (".json", ".drn"):
        raise UsageError(f"dump writes .json or .drn files (optionally .gz, .xz or .bz2 compressed), not "
                         f"{os.path.basename(str(path))!r}: a .tra or .csv file holds no rewards of its own "
                         "(exactpte.io.to_prism, exactpte.io.to_edge_csv write them with theirs)")
    text = to_drn(chain) if fmt == ".drn" else json_text(chain, sparse=sparse)
    opener = importlib.import_module(codec).open if codec is not None else open
    with opener(path, "wt", encoding="utf-8") as fh:
        fh.write(text)


def read_text(path: str | os.PathLike[str]) -> str:
    """The file's text (UTF-8, a leading byte-order mark ignored), decompressed when it ends in
    ``.gz``, ``.xz`` or ``.bz2``; a :class:`~exactpte.errors.ChainFileError` when it cannot be read.
    """
    _, codec = _split_suffix(path)
    try:
        if codec is None:
            with open(path, "rb") as fh:
                data = fh.read()
        else:
            data = _decompress(path, codec)
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ChainFileError(f"{path}: line {line}: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start})") from None


def _decompress(path: str | os.PathLike[str], codec: str) -> bytes:
    with open(path, "rb") as raw:  # a missing file is an OSError of the caller's; the stream's own errors are named here
        return _decompress_stream(raw, codec, str(path))


def _decompress_stream(raw: "IO[bytes]", codec: str, source: str) -> bytes:
    """The decompressed bytes of a compressed stream (at most ``MAX_DECOMPRESSED``); a tar archive
    of one file is that file.  Corrupt, truncated or oversized data is a named error."""
    try:
        with importlib.import_module(codec).open(raw, "rb") as fh:
            data = fh.read(MAX_DECOMPRESSED + 1)
    except EOFError:
        raise ChainFileError(f"{source}: the compressed stream is truncated") from None
    except Exception as e:  # gzip.BadGzipFile, lzma.LZMAError, OSError from bz2, zlib.error: corrupt data
        raise ChainFileError(f"{source}: not a valid {codec} file ({e})") from None
    if len(data) > MAX_DECOMPRESSED:
        raise ChainFileError(f"{source}: decompresses to more than {MAX_DECOMPRESSED} bytes")
    return _tar_member(data, source) if _is_tar(data) else data


def _is_tar(data: bytes) -> bool:
    """Whether decompressed bytes are a tar archive (POSIX or GNU magic ``ustar`` at offset 257)."""
    return len(data) >= 512 and data[257:262] == b"ustar"


def _tar_member(data: bytes, path: str | os.PathLike[str]) -> bytes:
    """The one regular file of a tar archive (Storm's own test models are a DRN file tarred, then
    gzipped: ``brp-16-2.drn.gz``); several files, or none, are refused with their names."""
    import io
    import tarfile

    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            files = [m for m in tar.getmembers() if m.isfile()]
            if len(files) != 1:
                names = ", ".join(m.name for m in files[:10]) + (" ..." if len(files) > 10 else "")
                raise ChainFileError(f"{path}: a tar archive with {len(files)} files ({names or 'none'}); exactpte reads "
                                     f"an archive holding exactly one chain file: extract the one you mean")
            fh = tar.extractfile(files[0])
            assert fh is not None  # (a regular file)
            return fh.read()
    except tarfile.TarError as e:
        raise ChainFileError(f"{path}: a damaged tar archive inside the compressed file ({e})") from None


def _reward_kind(path: str | os.PathLike[str]) -> str:
    name = os.path.basename(str(path)).lower()
    for ext in _COMPRESSED:
        name = name.removesuffix(ext)
    if name.endswith((".srew", ".state.rew")):
        return "state"
    if name.endswith((".trew", ".trans.rew")):
        return "transition"
    if name.endswith(".csv"):
        return "csv"
    raise ChainFileError(f"{path}: a reward file ends in .srew or .state.rew (state rewards), .trew or .trans.rew "
                         f"(transition rewards), or .csv (for a .csv chain)")


def load(path: "str | os.PathLike[str] | IO[Any]", *, rewards: "str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None" = None,
         labels: str | os.PathLike[str] | None = None, reward_model: str | None = None, format: str | None = None) -> Chain:
    """Read a chain, the format chosen by the file's ending (or ``format=``).

    Parameters
    ----------
    path : path-like or file object
        ``.json`` (exactpte's chain file), ``.drn`` (Storm), ``.tra`` (PRISM explicit, PRISM's
        or Storm's flavour), ``.csv`` (edge list ``source,target,probability``); any of them may
        be compressed (``.gz``, ``.xz``, ``.bz2``), and a compressed tar archive holding one
        file is read as that file (Storm's ``brp-16-2.drn.gz``).  A file object opened for
        reading (text or binary) is read from its position: its format is ``format=``, else
        the ending of its ``name``, else JSON (what :func:`dump` writes).
    format : {"json", "drn", "tra", "csv"}, optional
        The format, whatever the ending.
    rewards : path-like or list of path-likes, optional
        For a ``.tra`` chain: ``.srew``/``.state.rew`` state rewards and/or
        ``.trew``/``.trans.rew`` transition rewards (summed as PRISM does); for a ``.csv``
        chain: a reward CSV.
    labels : path-like, optional
        A ``.lab`` file for a ``.tra`` chain (checked for form).
    reward_model : str, optional
        The DRN reward model to read, when the file has several.

    Returns
    -------
    Chain
        A :class:`~exactpte.MarkovRewardProcess`, or a :class:`~exactpte.ParametricChain` for a
        JSON file with ``"params"`` or a DRN file with ``@parameters``.

    Raises
    ------
    ChainFileError
        The file cannot be read, an option does not apply to its format, or it breaks its
        format's rules (the message names file and line; ``docs/formats.md`` lists the rules).
    InvalidChainError
        The file is well formed but the chain it describes is not a Markov reward process.
    """
    text, suffix, source = _source(path, format)
    reward_files = [] if rewards is None else [rewards] if isinstance(rewards, (str, os.PathLike)) else list(rewards)
    reader = READERS[suffix]
    if reward_files and not reader.takes_rewards:
        raise ChainFileError(f"{path}: a separate reward file goes with .tra or .csv chains, not {suffix} files")
    if labels is not None and not reader.takes_labels:
        raise ChainFileError(f"{path}: a .lab label file goes with .tra chains, not {suffix} files")
    if reward_model is not None and not reader.takes_reward_model:
        raise ChainFileError(f"{path}: a reward model is chosen in .drn files, not {suffix} files")
    if text is None:
        assert isinstance(path, (str, os.PathLike))
        text = read_text(path)
    return reader.read(text, _Companions(path, source, reward_files, labels, reward_model))


@dataclass(frozen=True)
class _Companions:
    """What a reader gets beside the chain file's text: its name and the options that go with it."""

    path: Any
    source: str
    rewards: list[Any]
    labels: Any
    reward_model: str | None


def _read_json(text: str, given: _Companions) -> Chain:
    return loads(text, source=given.source)


def _read_drn(text: str, given: _Companions) -> Chain:
    return read_drn(text, source=given.source, reward_model=given.reward_model)


def _tra_rewards(given: _Companions, what: str) -> tuple[Any, Any]:
    """A ``.tra`` file's ``(state-reward file, transition-reward file)`` among ``rewards=`` (each may be ``None``)."""
    kinds: dict[str, str | os.PathLike[str]] = {}
    for f in given.rewards:
        kind = _reward_kind(f)
        if kind == "csv":
            raise ChainFileError(f"{f}: a .tra {what} takes .srew/.trew reward files, not CSV")
        if kind in kinds:
            raise ChainFileError(f"{f}: a second {kind}-reward file (already {kinds[kind]})")
        kinds[kind] = f
    return kinds.get("state"), kinds.get("transition")


def _read_tra(text: str, given: _Companions) -> Chain:
    srew, trew = _tra_rewards(given, "chain")
    return read_prism(text, read_text(srew) if srew else None, read_text(given.labels) if given.labels else None,
                      trew=read_text(trew) if trew else None, source=given.source,
                      reward_sources=(str(srew), str(trew)))


def _read_csv(text: str, given: _Companions) -> Chain:
    if len(given.rewards) > 1:
        raise ChainFileError(f"{given.path}: a .csv chain takes one reward CSV, got {len(given.rewards)} files")
    rw = given.rewards[0] if given.rewards else None
    if rw is not None and _reward_kind(rw) != "csv":
        raise ChainFileError(f"{rw}: a .csv chain takes a reward CSV")
    return read_edge_csv(text, read_text(rw) if rw else None, source=given.source, reward_source=str(rw))


@dataclass(frozen=True)
class Reader:
    """How :func:`load` reads one chain-file format, and which companion files or options go with it."""

    read: Callable[[str, _Companions], Chain]
    takes_rewards: bool = False
    takes_labels: bool = False
    takes_reward_model: bool = False


READERS: dict[str, Reader] = {
    ".json": Reader(_read_json),
    ".drn": Reader(_read_drn, takes_reward_model=True),
    ".tra": Reader(_read_tra, takes_rewards=True, takes_labels=True),
    ".csv": Reader(_read_csv, takes_rewards=True),
}
"""File ending (after any compression ending) → its reader: the one table :func:`load` dispatches on."""


_FORMATS = tuple(READERS)


def _source(path: "str | os.PathLike[str] | IO[Any]", format: str | None) -> tuple[str | None, str, str]:
    """``(text, suffix, name)`` of what ``load`` reads: a path that must be an existing file (its text
    is read later, by its format's reader), or a file object (read here); the format known."""
    if isinstance(path, (str, os.PathLike)):
        suffix, source = (_format_suffix(format) if format is not None else _split_suffix(path)[0]), str(path)
        if not os.path.isfile(path):
            raise ChainFileError(f"{source}: cannot read (" + ("no such file)" if not os.path.exists(path) else "a directory, not a file)"))
        text = None
    else:
        text, suffix, source = _read_file_object(path, format)
    if suffix not in _FORMATS:
        raise ChainFileError(f"{source}: unknown chain-file ending {suffix or '(none)'!r}; exactpte reads .json, .drn, "
                             f".tra and .csv files (optionally .gz, .xz or .bz2 compressed)")
    return text, suffix, source


def _format_suffix(format: str) -> str:
    """``format=`` as a file ending (``"drn"`` or ``".drn"`` -> ``".drn"``)."""
    suffix = "." + str(format).lower().lstrip(".")
    if suffix not in _FORMATS:
        raise ChainFileError(f"unknown format {format!r}; exactpte reads json, drn, tra and csv")
    return suffix


def _read_file_object(fh: "IO[Any]", format: str | None) -> tuple[str, str, str]:
    """``(text, format suffix, source name)`` of an open file: decompressed when its name ends in
    ``.gz``/``.xz``/``.bz2`` and it yields bytes; a tar archive of one file is that file."""
    name = getattr(fh, "name", None)
    source = name if isinstance(name, str) else "<file>"
    suffix, codec = _split_suffix(name) if isinstance(name, str) else ("", None)
    if format is not None:
        suffix = _format_suffix(format)
    elif not isinstance(name, str):
        suffix = ".json"
    try:
        data = fh.read()
    except OSError as e:
        raise ChainFileError(f"{source}: cannot read ({e})") from None
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), suffix, source
    if not isinstance(data, (bytes, bytearray)):
        raise ChainFileError(f"{source}: the file object's read() gave {type(data).__name__}, expected text or bytes")
    data = bytes(data)
    if codec is not None:
        import io

        data = _decompress_stream(io.BytesIO(data), codec, source)
    try:
        return data.decode("utf-8-sig"), suffix, source
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ChainFileError(f"{source}: line {line}: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start})") from None


# -- MDP files ---------------------------------------------------------------------------------------------
def _mdp_json(text: str, given: _Companions) -> MDP:
    return loads_mdp(text, source=given.source)


def _mdp_drn(text: str, given: _Companions) -> MDP:
    return read_drn_mdp(text, source=given.source, reward_model=given.reward_model)


def _mdp_tra(text: str, given: _Companions) -> MDP:
    srew, trew = _tra_rewards(given, "MDP")
    return read_prism_mdp(text, read_text(srew) if srew else None, trew=read_text(trew) if trew else None,
                          source=given.source, reward_sources=(str(srew), str(trew)))


MDP_READERS: dict[str, Callable[[str, _Companions], MDP]] = {".json": _mdp_json, ".drn": _mdp_drn, ".tra": _mdp_tra}
"""File ending (after any compression ending) → its MDP reader: the table :func:`load_mdp` dispatches on."""


def load_mdp(path: "str | os.PathLike[str]", *, rewards: "str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None" = None,
             reward_model: str | None = None) -> MDP:
    """Read an MDP file, the format chosen by its ending: ``.json`` (exactpte's MDP file,
    :mod:`~exactpte.io.mdp_json`), ``.drn`` (Storm, ``@type: MDP``), ``.tra`` (PRISM explicit with choices,
    ``rewards=`` its ``.srew``/``.trew`` files); optionally ``.gz``/``.xz``/``.bz2`` compressed.

    Examples
    --------
    >>> import os, tempfile
    >>> from exactpte.mdp.model import MDP
    >>> path = os.path.join(tempfile.mkdtemp(), "m.drn")
    >>> m = MDP([[[1]], [[1]]], [[0, 1]])
    >>> _ = open(path, "w").write(to_drn_mdp(m))
    >>> load_mdp(path) == m
    True
    """
    fmt, _ = _split_suffix(path)
    source = str(path)
    if fmt not in MDP_READERS:
        raise ChainFileError(f"{source}: unknown MDP-file ending {fmt or '(none)'!r}; exactpte reads .json, .drn and .tra "
                             "MDP files (optionally .gz, .xz or .bz2 compressed)")
    if not os.path.isfile(path):
        raise ChainFileError(f"{source}: cannot read (" + ("no such file)" if not os.path.exists(path) else "a directory, not a file)"))
    reward_files = [] if rewards is None else [rewards] if isinstance(rewards, (str, os.PathLike)) else list(rewards)
    if reward_files and fmt != ".tra":
        raise ChainFileError(f"{source}: a separate reward file goes with .tra MDP files, not {fmt} files")
    if reward_model is not None and fmt != ".drn":
        raise ChainFileError(f"{source}: a reward model is chosen in .drn files, not {fmt} files")
    return MDP_READERS[fmt](read_text(path), _Companions(path, source, reward_files, None, reward_model))
