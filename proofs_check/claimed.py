"""A decomposition as *claimed* by some implementation, in exact form.

Checks judge a :class:`Claimed` (never exactpte's internals), so the same checks
serve exactpte's own output, a JSON file written by any other tool, and the
deliberately corrupted decompositions of the mutation tests.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from dataclasses import dataclass
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import flint

from exactpte.numbers import to_fmpq
from exactpte.errors import ChainFileError, ExactpteError
from exactpte.io import unique_keys
from exactpte.results.quantities import QUANTITY_KEYS, STRUCTURE_KEYS
from exactpte.results.report import FORMAT
from exactpte.results.factored import bounded_expansion
from exactpte import Decomposition

from .linalg import subtract_scaled

__all__ = ["Claimed", "from_decomposition", "from_json_dict", "load_result"]

Exact: TypeAlias = flint.fmpq | int  # an exact number as the checks hold it
Vec: TypeAlias = tuple[Any, ...]  # of fmpq (Any: the checks mix its entries with their own exact numbers)


@dataclass(frozen=True)
class Claimed:
    """Claimed objects; ``None`` where the producer did not provide them."""

    classes: tuple[tuple[int, ...], ...]
    periods: tuple[int, ...]
    cyclic_classes: tuple[tuple[tuple[int, ...], ...], ...]
    anchors: tuple[tuple[int, int, int], ...]  # (class, phase, state) in basis-column order
    basis: tuple[Vec, ...]  # n rows x N columns
    theta: Vec
    g_star: Vec
    v_star: Vec
    rho: Vec | None = None
    h: Vec | None = None
    psi: Vec | None = None
    P_inf: tuple[Vec, ...] | None = None
    transient: tuple[int, ...] | None = None
    stationary: tuple[Vec, ...] | None = None  # per class, aligned with classes[i]
    class_gain: Vec | None = None  # per class
    absorption: tuple[Vec, ...] | None = None  # n rows x classes
    hitting_times: Vec | None = None  # n: expected hitting time of the anchor set
    labels: tuple[str, ...] | None = None
    labels_claimed: bool = False  # whether the producer stated ``labels`` at all (``null`` is a claim: no labels)
    malformed: tuple[tuple[str, str], ...] = ()  # (key, problem) for optional keys that could not be read

    def problem(self, key: str) -> str | None:
        """Why the optional key ``key`` could not be read, if it could not."""
        return dict(self.malformed).get(key)

    @property
    def N(self) -> int:
        """Number of basis columns (one per claimed anchor)."""
        return len(self.anchors)

    @property
    def anchor_states(self) -> list[int]:
        """The claimed anchor states in basis-column order."""
        return [s for _, _, s in self.anchors]

    def replace(self, **changes: Any) -> "Claimed":
        """A copy with some fields replaced (used to plant errors)."""
        return dataclasses.replace(self, **changes)

    def b(self, c: int) -> list[flint.fmpq]:
        """Basis column ``c`` as a list over states."""
        return [row[c] for row in self.basis]

    def basis_matrix(self) -> flint.fmpq_mat:
        """The claimed basis as an ``n x N`` matrix (a new one each call: the caller may change it; a copy of one
        built once, as a matrix from its entries costs 25x a copy)."""
        if self._basis_matrix is not None:
            return flint.fmpq_mat(self._basis_matrix)
        M = flint.fmpq_mat(len(self.basis), self.N)  # a ragged basis: entry by entry, an IndexError for a short row
        for s in range(len(self.basis)):
            for j in range(self.N):
                M[s, j] = self.basis[s][j]
        return M

    @functools.cached_property
    def _basis_matrix(self) -> flint.fmpq_mat | None:
        """The basis as a matrix, built once (``None`` for a ragged basis); only ever copied out."""
        flat = self._basis_entries
        return None if flat is None else flint.fmpq_mat(len(self.basis), self.N, flat)

    @functools.cached_property
    def _basis_entries(self) -> list[flint.fmpq] | None:
        """The basis's entries row by row, as fmpq (``None`` for a ragged basis)."""
        N = self.N
        if any(len(row) != N for row in self.basis):
            return None
        try:
            return [flint.fmpq(x) for row in self.basis for x in row]
        except (TypeError, ValueError):  # not exact numbers: entry by entry, as before, raises as before
            return None

    def project(self, v: Sequence[Exact], basis: Sequence[Sequence[flint.fmpq]] | None = None) -> list[flint.fmpq]:
        """``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` with the claimed anchors and the claimed (or given) basis."""
        return (self._projector if basis is None else self.projector(basis))(v)

    def projector(self, basis: Sequence[Sequence[flint.fmpq]] | None = None) -> Callable[[Sequence[Exact]], list[flint.fmpq]]:
        """``v -> Π v`` (as :meth:`project`) with the claimed anchors and the claimed (or given) basis, its matrix
        built once: for projecting many vectors with one basis."""
        rows = self.basis if basis is None else basis
        anchors, N = self.anchor_states, self.N

        def by_entries(v: Sequence[Exact]) -> list[flint.fmpq]:  # a ragged basis or vector: entry by entry, as far as the rows go
            return [v[s] - sum((v[a] * y for a, y in zip(anchors, rows[s])), flint.fmpq(0)) for s in range(len(v))]

        if not all(len(row) == N for row in rows):
            return by_entries
        B = self.basis_matrix() if basis is None else flint.fmpq_mat(len(rows), N, [x for row in rows for x in row])

        def apply(v: Sequence[Exact]) -> list[flint.fmpq]:
            if len(v) != len(rows):
                return by_entries(v)
            return [x - y for x, y in zip(v, (B * flint.fmpq_mat(N, 1, [v[a] for a in anchors])).entries())]

        return apply

    def project_all(self, vectors: Sequence[Sequence[Exact]], basis: Sequence[Sequence[flint.fmpq]] | None = None) -> list[list[flint.fmpq]]:
        """:meth:`project` of each vector: one product ``V - B V[anchors]`` for all of them when the basis and the
        vectors have the claim's shape (entry by entry otherwise)."""
        rows = self.basis if basis is None else basis
        n, N, k = len(rows), self.N, len(vectors)
        if not k or any(len(row) != N for row in rows) or any(len(v) != n for v in vectors):
            one = self.projector(basis)
            return [one(v) for v in vectors]
        V = flint.fmpq_mat(n, k, [v[s] for s in range(n) for v in vectors])
        VA = flint.fmpq_mat(N, k, [v[a] for a in self.anchor_states for v in vectors])
        B = self.basis_matrix() if basis is None else flint.fmpq_mat(n, N, [x for row in rows for x in row])
        out = (V - B * VA).entries()
        return [out[j::k] for j in range(k)]

    def projection_matrix(self) -> flint.fmpq_mat:
        """``Π`` as an ``n x n`` matrix, column ``j`` = ``Π e_j`` (:meth:`project` of the unit vectors):
        ``Π[s, a_j] -= b_j(s)`` on the identity (vector by vector for a ragged basis); a new matrix each call, a copy
        of one built once."""
        return flint.fmpq_mat(self._projection_matrix)

    @functools.cached_property
    def _projection_matrix(self) -> flint.fmpq_mat:
        n, N, anchors = len(self.basis), self.N, self.anchor_states
        if any(len(row) != N for row in self.basis) or any(not 0 <= a < n for a in anchors):
            units = [[flint.fmpq(int(i == j)) for i in range(n)] for j in range(n)]
            return flint.fmpq_mat([self.project(u) for u in units]).transpose()
        Pi = flint.fmpq_mat(n, n)
        for s in range(n):
            Pi[s, s] = 1
        for s, row in enumerate(self.basis):
            for a, x in zip(anchors, row):
                if x:
                    Pi[s, a] -= x
        return Pi

    @functools.cached_property
    def sparse_columns(self) -> list[dict[int, flint.fmpq]]:
        """Each basis column as ``{state: value}`` without its zeros (one pass over the rows; a ragged row's missing
        entries are zeros, as in :meth:`project`)."""
        cols: list[dict[int, flint.fmpq]] = [{} for _ in range(self.N)]
        for s, row in enumerate(self.basis):
            for j, x in enumerate(row[: self.N]):
                if x:
                    cols[j][s] = x
        return cols

    def project_sparse(self, v: Mapping[int, Exact]) -> dict[int, flint.fmpq]:
        """:meth:`project` of a sparse vector (``{state: value}``, zeros omitted in the result): ``v - Σ_j v(a_j) b_j``
        touching only the basis columns whose anchor ``v`` does not vanish at, each through its nonzero entries."""
        out = {s: flint.fmpq(x) for s, x in v.items() if x}
        for j, a in enumerate(self.anchor_states):
            x = v.get(a, 0)
            if not x:
                continue
            subtract_scaled(out, x, self.sparse_columns[j])
        return out

    @functools.cached_property
    def _projector(self) -> Callable[[Sequence[Exact]], list[flint.fmpq]]:
        return self.projector()


def from_decomposition(dec: Decomposition, *, with_P_inf: bool = True, with_hitting_times: bool = True) -> Claimed:
    """What exactpte's :class:`~exactpte.Decomposition` claims (every quantity it has)."""
    return Claimed(
        classes=dec.classes,
        periods=dec.periods,
        cyclic_classes=dec.cyclic_classes,
        anchors=tuple(dec.anchor_list),
        basis=tuple(dec.basis),  # (exactpte's rows are read, and cancelled, row by row: all of them here)
        theta=dec.theta,
        g_star=dec.g_star,
        v_star=dec.v_star,
        rho=dec.rho,
        h=dec.h,
        psi=dec.psi,
        P_inf=dec.P_inf if with_P_inf else None,
        transient=dec.transient,
        stationary=dec.stationary,
        class_gain=dec.class_gain,
        absorption=tuple(dec.absorption),
        hitting_times=dec.hitting_times if with_hitting_times else None,
        labels=dec.chain.labels,
        labels_claimed=True,
    )


OPTIONAL_VECTORS = ("rho", "h", "psi", "class_gain", "hitting_times")
"""Optional vector keys of the contract (``class_gain`` per class, the others per state)."""
OPTIONAL_MATRICES = ("stationary", "absorption", "P_inf")
"""Optional nested keys: ``stationary`` per class (aligned with ``classes[i]``), ``absorption`` n x classes, ``P_inf`` n x n."""


def _numbers(raw: object, key: str, length: int | None) -> Vec:
    """A list of exact numbers (``ChainFileError`` naming the key on anything else: NaN, inf, floats, text)."""
    if not isinstance(raw, list) or (length is not None and len(raw) != length):
        raise ChainFileError(f"result key {key!r} must be a list of {length} numbers")
    try:
        return tuple(to_fmpq(x, f"{key}[{i}]") for i, x in enumerate(raw))
    except ExactpteError as e:
        raise ChainFileError(str(e)) from None


def _required_vec(data: dict[str, Any], key: str, n: int) -> Vec:
    if data.get(key) is None:
        raise ChainFileError(_MISSING.format(key=key))
    return _numbers(data[key], key, n)


def _rows(raw: object, key: str, lengths: Sequence[int]) -> tuple[Vec, ...]:
    if not isinstance(raw, list) or len(raw) != len(lengths):
        raise ChainFileError(f"result key {key!r} must be a list of {len(lengths)} rows")
    return tuple(_numbers(row, f"{key}[{i}]", m) for i, (row, m) in enumerate(zip(raw, lengths)))


def _optional(data: dict[str, Any], n: int, classes: tuple[tuple[int, ...], ...]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The optional quantity keys that are present, read strictly; a key that cannot be read is
    recorded as malformed (its check then fails, naming the problem) instead of being dropped."""
    nc = len(classes)
    shapes: dict[str, Any] = {
        "rho": n, "h": n, "psi": n, "hitting_times": n, "class_gain": nc,
        "stationary": [len(c) for c in classes], "absorption": [nc] * n, "P_inf": [n] * n,
    }
    got: dict[str, Any] = {}
    bad: list[tuple[str, str]] = []
    for key, shape in shapes.items():
        if data.get(key) is None:
            continue
        try:
            got[key] = _rows(data[key], key, shape) if isinstance(shape, list) else _numbers(data[key], key, shape)
        except ChainFileError as e:
            bad.append((key, str(e)))
    if "labels" in data:
        raw = data["labels"]
        got["labels_claimed"] = True
        if raw is not None and (not isinstance(raw, list) or len(raw) != n or not all(isinstance(x, str) for x in raw)):
            bad.append(("labels", f"result key 'labels' must be null or a list of {n} strings"))
        elif raw is not None:
            got["labels"] = tuple(raw)
    return got, bad


_MISSING = ("result lacks the required key '{key}' (a partial result, such as `exactpte decompose --only ...`, "
            "is judged by `proofs-check verify`, which solves for what a claim leaves out)")


def _integers(raw: object, key: str, depth: int, n: int | None, *, least: int = 0) -> Any:
    """``raw`` as nested tuples of JSON integers, ``depth`` levels of lists deep; every integer a state
    in ``0..n-1`` when ``n`` is given, else at least ``least``.  Nothing is converted: a float, a bool,
    a string (never split into characters) or a number out of range is refused, naming the key."""
    if depth == 0:
        if type(raw) is not int or not (0 <= raw < n if n is not None else raw >= least):
            what = f"a state in 0..{n - 1}" if n is not None else f"an integer >= {least}"
            raise ChainFileError(f"result key {key!r} holds {_quoted(raw)}, expected {what} (a JSON integer)")
        return raw
    if not isinstance(raw, list):
        raise ChainFileError(f"result key {key!r} holds {_quoted(raw)} where a list is expected")
    return tuple(_integers(x, key, depth - 1, n, least=least) for x in raw)


def _quoted(x: object) -> str:
    """A value as the message shows it: its repr, at most 60 characters."""
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _structure(data: dict[str, Any], n: int) -> tuple[Any, Any, Any, Any, Any]:
    for key in ("classes", "periods", "cyclic_classes", "anchors"):
        if data.get(key) is None:
            raise ChainFileError(_MISSING.format(key=key))
    classes = _integers(data["classes"], "classes", 2, n)
    periods = _integers(data["periods"], "periods", 1, None, least=1)
    cyclic = _integers(data["cyclic_classes"], "cyclic_classes", 3, n)
    anchors = _integers(data["anchors"], "anchors", 2, None)  # each triple's class, phase and state are checked below
    if any(len(a) != 3 or not (a[0] < min(len(classes), len(periods)) and a[1] < periods[a[0]] and a[2] < n) for a in anchors):
        raise ChainFileError("result key 'anchors' must hold [class, phase, state] triples of a class, a phase and a state")
    transient = _integers(data["transient"], "transient", 1, n) if data.get("transient") is not None else None
    return classes, periods, cyclic, anchors, transient


def from_json_dict(data: dict[str, Any], n: int) -> Claimed:
    """Parse the JSON contract of ``exactpte decompose --json`` (numbers as ``"p/q"`` strings).

    The structure keys, ``basis``, ``theta``, ``g_star`` and ``v_star`` are required
    (``ChainFileError`` when absent or unreadable); every other quantity key is optional, read
    strictly when present (NaN, infinities, floats or text never pass: the key is recorded in
    :attr:`Claimed.malformed` and its check fails).
    """
    classes, periods, cyclic, anchors, transient = _structure(data, n)
    N = len(anchors)
    basis_raw = data.get("basis")
    if basis_raw is None:
        raise ChainFileError(_MISSING.format(key="basis"))
    if not isinstance(basis_raw, list) or len(basis_raw) != n or any(not isinstance(r, list) or len(r) != N for r in basis_raw):
        raise ChainFileError(f"result key 'basis' must be {n} rows of N = {N} numbers")
    basis = _rows(basis_raw, "basis", [N] * n)
    optional, malformed = _optional(data, n, classes)
    return Claimed(
        classes=classes,
        periods=periods,
        cyclic_classes=cyclic,
        anchors=anchors,
        basis=basis,
        theta=_required_vec(data, "theta", N),
        g_star=_required_vec(data, "g_star", n),
        v_star=_required_vec(data, "v_star", n),
        transient=transient,
        malformed=tuple(malformed),
        **optional,
    )


def load_result(path: str, n: int) -> Claimed:
    """Read a JSON result file (the ``exactpte decompose --json`` contract) as a :class:`Claimed` for a chain of ``n`` states."""
    data = _written_out(read_result_json(path), path)
    _check_header(data, n, path)
    return from_json_dict(data, n)


def read_result_json(path: str, *, parametric_n: int | None = None) -> dict[str, Any]:
    """The JSON object of a result file, else :class:`ChainFileError` (unreadable, not JSON, a key twice, nested too
    deeply, an integer past the digit limit).  With ``parametric_n`` (a parametric chain's state count) the header
    is checked as :func:`load_result` checks a rational result's (unknown keys, ``format``, ``n``), ``params`` and
    ``assumptions`` allowed."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh, object_pairs_hook=unique_keys)
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise ChainFileError(f"{path}: JSON nested too deeply to be a result file") from None
    except ValueError as e:  # a repeated key, an integer of more than 4,300 digits
        raise ChainFileError(f"{path}: {e}") from None
    if not isinstance(data, dict):
        raise ChainFileError(f"{path}: a result file is a JSON object")
    if parametric_n is not None:
        _check_header({k: v for k, v in data.items() if k not in ("params", "assumptions", "denominators")}, parametric_n, path)
    return data


def _written_out(data: dict[str, Any], path: str) -> dict[str, Any]:
    """A result in the factored form (``exactpte decompose --json --factored``: ``"denominators": {"D1": "4250"}``,
    entries ``"3/D1"``) with each name replaced by its integer denominator; any other result as it is.  A name not
    defined, or defined as anything but a positive integer, is refused (a rational result names integers only)."""
    names = data.get("denominators")
    if names is None:
        return data
    if not isinstance(names, dict) or not all(isinstance(v, str) and re.fullmatch(r"[1-9][0-9]*", v) for v in names.values()):
        raise ChainFileError(f"{path}: 'denominators' must map names (D1, ...) to positive integers as text")
    denominators: dict[str, str] = names  # JSON keys are text; every value was just checked to be text
    _bounded_expansion(data, denominators, path)

    def entry(m: re.Match[str]) -> str:
        if m[1] not in denominators:
            raise ChainFileError(f"{path}: the denominator {m[1]} is used but not defined in 'denominators'")
        return "/" + denominators[m[1]]

    def walk(x: object) -> object:
        return re.sub(r"/(D[0-9]+)$", entry, x) if isinstance(x, str) else [walk(y) for y in x] if isinstance(x, list) else x

    return {k: walk(v) for k, v in data.items() if k != "denominators"}


def _bounded_expansion(data: dict[str, Any], denominators: dict[str, str], path: str) -> None:
    """Refuse a factored result whose written-out text would exceed its own size times ``EXPANSION_FACTOR``
    (exactpte's own bound for reading factored answers, counted without building it)."""
    try:
        bounded_expansion(data, denominators)
    except ValueError as e:
        raise ChainFileError(f"{path}: {str(e).replace(': not read', ': not judged')}") from None


RESULT_KEYS = frozenset({"format", "n", "labels", *STRUCTURE_KEYS, *QUANTITY_KEYS, *OPTIONAL_MATRICES})
"""Every key a result file may hold (the JSON contract of ``exactpte decompose --json``)."""


def _check_header(data: dict[str, Any], n: int, path: str) -> None:
    """Unknown keys, a ``format`` other than the exact contract's, an ``n`` other than the chain's: refused."""
    unknown = sorted(str(k) for k in data if k not in RESULT_KEYS)
    if unknown:
        raise ChainFileError(f"{path}: unknown key(s) {', '.join(map(repr, unknown))}; a result file holds some of "
                             f"{', '.join(sorted(RESULT_KEYS))}")
    if "format" in data and data["format"] != FORMAT:
        raise ChainFileError(f"{path}: format is {data['format']!r:.60}, expected {FORMAT!r} (rational results only)")
    if "n" in data and (isinstance(data["n"], bool) or data["n"] != n or not isinstance(data["n"], int)):
        raise ChainFileError(f"{path}: n is {data['n']!r:.40}, but the chain has {n} states")

