"""Findings and reports: one :class:`Finding` per compared quantity, a :class:`Report` per comparison.

:func:`numeric_finding` is the entrywise comparison every numeric key goes through: NaN and
infinity never agree, the worst states (or rows, classes, columns) are named.

Examples
--------
>>> import numpy as np
>>> numeric_finding("rho", np.array([0.5, 0.6]), np.array([0.5, 0.5]), 1e-9, 0.0).detail
'state 1: expected 0.5, got 0.6'
>>> Report([Finding("rho", "same up to gauge")], up_to_gauge=True).ok
True
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from exactpte.oracle.causes import expected_got
from exactpte.oracle.values import few
from exactpte.results.quantities import CORE, STRUCTURE_KEYS

__all__ = ["Finding", "Report"]


@dataclass
class Finding:
    """One compared quantity: ``status`` is ``ok``, ``mismatch``, ``same up to gauge`` or ``structure mismatch``."""

    key: str
    status: str
    max_error: float = 0.0
    worst_states: list[int] = field(default_factory=list)
    detail: str = ""
    diagnosis: str = ""  # the likely kind of mistake, in one sentence, when the error has a recognisable shape
    gauge_part: float | None = None  # bias-like keys: size of the error's component in the gauge space
    residual: float | None = None  # ... and of the rest (the real error)

    @property
    def ok(self) -> bool:
        """Whether the quantity agrees."""
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict (``max_error`` ``None`` when not finite)."""
        err = self.max_error if math.isfinite(self.max_error) else None
        out = {"key": self.key, "status": self.status, "max_error": err, "worst_states": self.worst_states[:5],
               "detail": self.detail, "diagnosis": self.diagnosis}
        if self.gauge_part is not None:
            out.update(gauge_part=_finite(self.gauge_part), residual=_finite(self.residual))
        return out


def _finite(x: float | None) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


@dataclass
class Report:
    """Every finding of one comparison; ``ok`` when all agree (gauge findings too with ``up_to_gauge``)."""

    findings: list[Finding]
    up_to_gauge: bool = False
    not_claimed: tuple[str, ...] = ()
    """The decomposition's quantities the candidate does not give: not judged, so not known to hold."""
    not_judged: tuple[str, ...] = ()
    """The candidate's keys the oracle does not know (a solver's ``time``, ``iter``): listed, never judged."""
    readings: tuple[str, ...] = ()
    """How peers' native names were read (``communication_classes (QuantEcon) read as communicating_classes``)."""
    gauge_free: tuple[str, ...] = ()
    """Keys given in a peer's own normalisation (RVI's ``V``): "same up to gauge" is accepted for them."""

    @property
    def ok(self) -> bool:
        """Whether every finding agrees (gauge findings too with ``up_to_gauge``, or for a key in ``gauge_free``)."""
        return bool(self.findings) and not self.failing

    @property
    def failing(self) -> list[Finding]:
        """The findings that do not agree, in order (a gauge finding agrees with ``up_to_gauge``, or for a key in
        ``gauge_free``)."""
        return [f for f in self.findings
                if not (f.status == "ok" or (f.status == "same up to gauge" and (self.up_to_gauge or f.key in self.gauge_free)))]

    def table(self) -> str:
        """The findings as a text table, closing with ``agrees`` or ``DISAGREES``."""
        w = max([len(f.key) for f in self.findings] + [8])
        lines = [f"{'quantity'.ljust(w)}  {'status':18}  {'max error':>10}  worst states / detail"]
        for f in self.findings:
            states = f"{f.worst_states[:5]} " if f.worst_states else ""
            lines.append(f"{f.key.ljust(w)}  {f.status:18}  {f.max_error:10.3g}  {states}{f.detail}".rstrip())
            if f.diagnosis:
                lines.append(f"{''.ljust(w)}  likely: {f.diagnosis}")
        for how in self.readings:
            lines.append(f"read: {how}")
        if self.not_judged:
            lines.append(f"not judged (keys the oracle does not know): {', '.join(map(self._guess, self.not_judged))}")
        if self.not_claimed:
            lines.append(f"not claimed (not judged): {', '.join(self.not_claimed)}")
        lines.append("agrees" if self.ok else "DISAGREES")
        return "\n".join(lines)

    def _guess(self, key: str) -> str:
        """An unknown key, with the unclaimed quantity it likely misspells (``hh (did you mean h?)``)."""
        close = difflib.get_close_matches(key, self.not_claimed, n=1, cutoff=0.6)
        return f"{key} (did you mean {close[0]}?)" if close else key

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {"agrees": self.ok, "up_to_gauge": self.up_to_gauge, "findings": [f.to_dict() for f in self.findings],
                "not_claimed": list(self.not_claimed), "not_judged": list(self.not_judged), "readings": list(self.readings),
                "gauge_free": list(self.gauge_free)}

    def __str__(self) -> str:
        return self.table()


def numeric_finding(key: str, got: np.ndarray, expected: np.ndarray, atol: float, rtol: float, unit: str = "state",
                     slack: np.ndarray | None = None) -> Finding:
    """Compare arrays entrywise; non-finite entries always disagree; rows name the ``unit``.

    ``slack`` (the radii of certified enclosures centred at ``expected``) widens each tolerance."""
    if got.shape != expected.shape:
        return Finding(key, "mismatch", math.inf, [], f"has shape {got.shape}, expected {expected.shape}")
    if got.size == 0:
        return Finding(key, "ok", 0.0)

    def rows(mask: np.ndarray) -> list[int]:
        return sorted({int(i) for i in np.argwhere(mask)[:, 0]})

    nonfinite = ~np.isfinite(got)
    if nonfinite.any():
        bad = rows(nonfinite)
        return Finding(key, "mismatch", math.inf, bad[:5], f"not finite (nan or inf) at {unit}s {few(bad)}")
    err = np.abs(got - expected)
    tol = atol + rtol * np.abs(expected)
    if slack is not None:
        tol = tol + slack
    over = ~(err <= tol)
    row_err = err.reshape(err.shape[0], -1).max(axis=1)
    if not over.any():
        return Finding(key, "ok", float(err.max()))
    bad = rows(over)
    worst = sorted(bad, key=lambda s: -row_err[s])[:5]
    s = worst[0]
    if got.ndim == 1:
        detail = f"{unit} {s}: {expected_got(float(expected[s]), float(got[s]))}"
    else:
        c = int(np.argmax(err[s]))
        detail = f"row {s}, column {c}: {expected_got(float(expected[s, c]), float(got[s, c]))}"
    return Finding(key, "mismatch", float(err.max()), worst, detail)


def not_claimed(cand: Mapping[str, Any]) -> tuple[str, ...]:
    """The structure and core quantities of the decomposition that ``cand`` leaves out."""
    return tuple(k for k in (*STRUCTURE_KEYS, *CORE) if k not in cand)
