"""A decomposition as *claimed* by some implementation, in exact form.

Checks judge a :class:`Claimed` (never exactpte's internals), so the same checks
serve exactpte's own output, a JSON file written by any other tool, and the
deliberately corrupted decompositions of the mutation tests.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any

import flint

from exactpte._numbers import to_fmpq
from exactpte.errors import ChainFileError
from exactpte.result import Decomposition

__all__ = ["Claimed", "from_decomposition", "from_json_dict", "load_result"]

Vec = tuple  # of fmpq


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

    def b(self, c: int) -> list:
        """Basis column ``c`` as a list over states."""
        return [row[c] for row in self.basis]

    def basis_matrix(self) -> flint.fmpq_mat:
        """The claimed basis as an ``n x N`` matrix."""
        n = len(self.basis)
        M = flint.fmpq_mat(n, self.N)
        for s in range(n):
            for j in range(self.N):
                M[s, j] = self.basis[s][j]
        return M

    def project(self, v: Sequence, basis: Sequence[Sequence] | None = None) -> list:
        """``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` with the claimed anchors and the claimed (or given) basis."""
        rows = self.basis if basis is None else basis
        at = [v[a] for a in self.anchor_states]
        return [v[s] - sum((x * y for x, y in zip(at, rows[s])), flint.fmpq(0)) for s in range(len(v))]


def from_decomposition(dec: Decomposition, *, with_P_inf: bool = True) -> Claimed:
    """What exactpte's :class:`~exactpte.Decomposition` claims."""
    return Claimed(
        classes=dec.classes,
        periods=dec.periods,
        cyclic_classes=dec.cyclic_classes,
        anchors=tuple(dec.anchor_list),
        basis=dec.basis,
        theta=dec.theta,
        g_star=dec.g_star,
        v_star=dec.v_star,
        rho=dec.rho,
        h=dec.h,
        psi=dec.psi,
        P_inf=dec.P_inf if with_P_inf else None,
        transient=dec.transient,
    )


def _required_vec(data: dict, key: str, n: int | None) -> Vec:
    v = _vec(data, key, n)
    if v is None:
        raise ChainFileError(f"result lacks the required key {key!r}")
    return v


def _vec(data: dict, key: str, n: int | None) -> Vec | None:
    if key not in data or data[key] is None:
        return None
    v = data[key]
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise ChainFileError(f"result key {key!r} must be a list of {n} numbers")
    return tuple(to_fmpq(x, f"{key}[{i}]") for i, x in enumerate(v))


def from_json_dict(data: dict, n: int) -> Claimed:
    """Parse the JSON contract of ``exactpte decompose --json`` (numbers as ``"p/q"`` strings)."""
    try:
        classes = tuple(tuple(int(s) for s in c) for c in data["classes"])
        periods = tuple(int(d) for d in data["periods"])
        cyclic = tuple(tuple(tuple(int(s) for s in ck) for ck in cyc) for cyc in data["cyclic_classes"])
        anchors = tuple((int(i), int(k), int(s)) for i, k, s in data["anchors"])
        transient = tuple(int(s) for s in data["transient"]) if data.get("transient") is not None else None
    except KeyError as e:
        raise ChainFileError(f"result lacks the required key {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        raise ChainFileError(f"result structure keys are malformed ({e})") from None
    N = len(anchors)
    basis_raw = data.get("basis")
    if not isinstance(basis_raw, list) or len(basis_raw) != n or any(not isinstance(r, list) or len(r) != N for r in basis_raw):
        raise ChainFileError(f"result key 'basis' must be {n} rows of N = {N} numbers")
    basis = tuple(tuple(to_fmpq(x, f"basis[{s}][{c}]") for c, x in enumerate(row)) for s, row in enumerate(basis_raw))
    P_inf = None
    if data.get("P_inf") is not None:
        raw = data["P_inf"]
        if not isinstance(raw, list) or len(raw) != n or any(not isinstance(r, list) or len(r) != n for r in raw):
            raise ChainFileError(f"result key 'P_inf' must be {n} rows of {n} numbers")
        P_inf = tuple(tuple(to_fmpq(x, f"P_inf[{s}][{y}]") for y, x in enumerate(row)) for s, row in enumerate(raw))
    return Claimed(
        classes=classes,
        periods=periods,
        cyclic_classes=cyclic,
        anchors=anchors,
        basis=basis,
        theta=_required_vec(data, "theta", N),
        g_star=_required_vec(data, "g_star", n),
        v_star=_required_vec(data, "v_star", n),
        rho=_vec(data, "rho", n),
        h=_vec(data, "h", n),
        psi=_vec(data, "psi", n),
        P_inf=P_inf,
        transient=transient,
    )


def load_result(path: str, n: int) -> Claimed:
    """Read a JSON result file (the ``exactpte decompose --json`` contract) as a :class:`Claimed` for a chain of ``n`` states."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as e:
        raise ChainFileError(f"{path}: cannot read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise ChainFileError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict):
        raise ChainFileError(f"{path}: a result file is a JSON object")
    return from_json_dict(data, n)

