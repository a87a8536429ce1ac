"""exactpte as the oracle for other (float) implementations.

:func:`compare` scores a candidate (a dict of arrays, any subset of the keys of
``exactpte decompose --json``) against the exact decomposition; the ``assert_*``
helpers raise ``AssertionError`` with a message naming the quantity, the worst
states, expected versus got.  Gauge awareness: a ``v`` that differs from ``v*`` by an
element of ``K(P)`` (with the matching ``g = r - (I - P) v``), or an ``h`` that differs
from the normalized bias by an element of ``ker(I - P)``, is reported as
"same up to gauge", naming the normalization it misses.

Verdicts are sound: every key the candidate gives is compared (an unknown key is an error,
not ignored); NaN or infinity anywhere is a disagreement naming the states; tolerances must
be finite and ``>= 0``; a malformed candidate raises :class:`~exactpte.errors.CandidateError`
naming the quantity and position.

Examples
--------
>>> import exactpte, numpy as np
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> assert_decomposition_close({"g_star": [1.0, 0.0], "rho": [0.5, 0.5]}, dec, atol=1e-12).ok
True
>>> report = compare({"h": [0.75, 0.25]}, dec, atol=1e-9)   # normalized h is (1/4, -1/4)
>>> report.findings[0].status
'same up to gauge'
>>> compare({"rho": [float("nan"), 0.5]}, dec).ok
False
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from exactpte.numbers.scalars import parse_number
from exactpte.model.chain import MarkovRewardProcess
from exactpte.errors import CandidateError, ExactpteError, UsageError
from exactpte.model.to_float import float_matrix, float_sparse_matrix, to_float, to_floats
from exactpte.results.report import FORMAT
from exactpte.results.quantities import COMPUTED, CORE, MATRIX_KEYS, NESTED, PER_CLASS_KEYS, STATE_KEYS, STRUCTURE_KEYS
from exactpte.results.decomposition import Decomposition, decompose
from exactpte.oracle import references
from exactpte.oracle.diagnoses import diagnose_gain, gauge_note, gauge_split, power_iterates

if TYPE_CHECKING:
    from exactpte.certified import CertifiedDecomposition

__all__ = [
    "Finding",
    "Report",
    "compare",
    "assert_decomposition_close",
    "assert_gain_close",
    "assert_bias_close",
    "check_tolerance",
    "VECTOR_KEYS",
    "ABSORBING_KEYS",
    "EXTRA_STATE_KEYS",
    "KEYS",
    "ALIASES",
]

VECTOR_KEYS = STATE_KEYS  # the key groups come from exactpte.results.quantities
ABSORBING_KEYS = ("absorption", "fundamental", "first_passage", "total_reward")
"""Quantities of the absorbing chain (judged against :mod:`exactpte.oracle.references`)."""
EXTRA_STATE_KEYS = ("first_passage", "total_reward")
"""Per-state vectors beyond the JSON contract (also CSV columns)."""
KEYS = ("format", "n", "labels", *STRUCTURE_KEYS, "communicating_classes", *VECTOR_KEYS, "theta", *PER_CLASS_KEYS,
        *MATRIX_KEYS, *ABSORBING_KEYS, "targets")
"""Every key a candidate may give: the keys of ``exactpte decompose --json`` for a rational chain, the
absorbing-chain quantities (:data:`ABSORBING_KEYS`, ``first_passage`` with its ``targets``) and
``communicating_classes`` (to align ``periods`` given for every communicating class)."""
ALIASES = {"g": "g_star", "gstar": "g_star", "v": "v_star", "vstar": "v_star", "gain": "rho", "bias": "h",
           "absorption_probabilities": "absorption", "fundamental_matrix": "fundamental", "mfpt": "first_passage",
           "mean_first_passage": "first_passage", "hitting_time": "first_passage", "target": "targets",
           "stationary_distribution": "stationary", "stationary_distributions": "stationary",
           "recurrent_classes": "classes"}
"""Other names accepted for some keys (including peers' names: QuantEcon's ``stationary_distributions``,
``recurrent_classes``; PyDTMC's ``absorption_probabilities``, ``fundamental_matrix``, ``mfpt``)."""

_NONFINITE = {"nan": math.nan, "+nan": math.nan, "-nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf,
              "infinity": math.inf, "+infinity": math.inf, "-infinity": -math.inf}


_Reference: TypeAlias = "MarkovRewardProcess | Decomposition | CertifiedDecomposition"
"""What a candidate is compared with."""


# -- reading candidate values ---------------------------------------------------------------
def _scalar(x: Any, where: str) -> float:
    """One candidate number as a float: ints, floats (NaN/inf kept, judged later), exact strings."""
    if isinstance(x, (bool, np.bool_)) or x is None:
        raise CandidateError(f"{where} is {_plain(x)!r}, expected a number")
    if isinstance(x, str):
        text = x.strip()
        if text.lower() in _NONFINITE:
            return _NONFINITE[text.lower()]
        try:
            q = parse_number(text)
        except Exception as e:  # EntryError: too many digits
            raise CandidateError(f"{where}: {e}") from None
        if q is None:
            raise CandidateError(f"{where} is {x!r:.40}, not a number (write 0.25, 1/4 or 2.5e-1)")
        # a decimal or integer literal is the float it denotes, as in JSON; a fraction 'p/q' is exact
        return _as_float(q, text, where) if "/" in text else _nearest_float(q)
    if isinstance(x, numbers.Rational) and not isinstance(x, (int, np.integer)):
        return _as_float(x, str(x), where)
    if isinstance(x, (int, np.integer)):
        return _nearest_float(int(x))
    if isinstance(x, numbers.Real):
        return float(x)
    raise CandidateError(f"{where} has type {type(x).__name__}, expected a number")


_SMALLEST_NORMAL = float(np.finfo(float).tiny)


def _nearest_float(q: Any) -> float:
    """The float nearest an exact number (an infinity past the range): what a decimal or integer
    literal denotes."""
    try:
        return to_float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _no_float_holds(q: Any, f: float) -> bool:
    """Whether ``f``, the nearest float of the exact ``q``, stands for it so poorly that a comparison in
    floats could misjudge it: past the range, or nonzero below the normal range (0 or a subnormal)."""
    return math.isinf(f) or (q != 0 and abs(f) < _SMALLEST_NORMAL)


def _as_float(q: Any, text: str, where: str) -> float:
    """An exact candidate number as the float the comparison uses; one that no float holds is refused,
    never misjudged."""
    f = _nearest_float(q)
    if _no_float_holds(q, f):
        shown = text if len(text) <= 40 else f"{text[:18]}...{text[-18:]} ({len(text)} characters)"
        raise CandidateError(f"{where} = {shown} does not fit a float: the oracle compares floats; judge exact claims "
                             "exactly with `proofs-check verify`")
    return f


def _exact_values_no_float_holds(x: Any, where: str) -> str | None:
    """The first place (``rho[2] = 1/3``) where the candidate writes a fraction (``"1/3"``, a
    ``Fraction``) that no float equals, or None (nested lists, tuples, arrays and mappings are walked;
    decimal and integer literals are the floats they denote)."""
    if isinstance(x, Mapping):
        x = list(x.values())
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        for k, v in enumerate(x):
            if (hit := _exact_values_no_float_holds(v, f"{where}[{k}]")) is not None:
                return hit
        return None
    if isinstance(x, bool) or x is None:
        return None
    try:
        q = parse_number(x.strip()) if isinstance(x, str) and "/" in x else (
            x if isinstance(x, numbers.Rational) and not isinstance(x, (int, np.integer)) else None)
        exact = None if q is None else Fraction(int(q.numerator), int(q.denominator))
        return None if exact is None or Fraction(to_float(q)) == exact else f"{where} = {x}"
    except (ExactpteError, OverflowError, ValueError):  # unreadable, or past the float range: reading it says why
        return None


def _plain(x: Any) -> Any:
    """A numpy scalar as the Python number it holds (messages show ``1.5``, never ``np.float64(1.5)``)."""
    return x.item() if isinstance(x, np.generic) else x


def _is_scalar(x: Any) -> bool:
    """Whether a candidate value is one number (a Python/numpy scalar, a 0-d array or a number string)."""
    if isinstance(x, np.ndarray):
        return x.ndim == 0
    return isinstance(x, (numbers.Number, str, np.generic)) and not isinstance(x, (bool, np.bool_))


def _vector(x: Any, where: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        if x.ndim != 1:
            raise CandidateError(f"{where} is a {x.ndim}-d array, expected a vector")
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of numbers")
    return np.array([_scalar(v, f"{where}[{i}]") for i, v in enumerate(x)], dtype=float)


def _matrix(x: Any, where: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        if x.ndim != 2:
            raise CandidateError(f"{where} is a {x.ndim}-d array, expected a matrix")
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of rows")
    rows = [_vector(row, f"{where}[{i}]") for i, row in enumerate(x)]
    if len({len(r) for r in rows}) > 1:
        raise CandidateError(f"{where} has rows of different lengths")
    return np.array(rows, dtype=float) if rows else np.zeros((0, 0))


def _index(x: Any, where: str) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral, np.integer)):
        raise CandidateError(f"{where} is {_plain(x)!r:.30}, expected a state index (an integer)")
    return int(x)


def _index_list(x: Any, where: str) -> list[int]:
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of integers")
    return [_index(v, f"{where}[{i}]") for i, v in enumerate(x)]


def _nested(x: Any, where: str, depth: int) -> list:
    if depth == 1:
        return _index_list(x, where)
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list")
    return [_nested(v, f"{where}[{i}]", depth - 1) for i, v in enumerate(x)]


def check_tolerance(value: Any, name: str) -> float:
    """A tolerance after checking it is a finite real number ``>= 0`` (:class:`UsageError` otherwise).

    Examples
    --------
    >>> check_tolerance(1e-9, "atol")
    1e-09
    >>> check_tolerance(float("nan"), "atol")
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: atol must be a finite number >= 0, got nan
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) or value < 0:
        raise UsageError(f"{name} must be a finite number >= 0, got {_plain(value)!r}")
    return float(value)


# -- findings ---------------------------------------------------------------------------------
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

    def to_dict(self) -> dict:
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

    @property
    def ok(self) -> bool:
        """Whether every finding agrees (gauge findings too with ``up_to_gauge``)."""
        accepted = {"ok", "same up to gauge"} if self.up_to_gauge else {"ok"}
        return bool(self.findings) and all(f.status in accepted for f in self.findings)

    def table(self) -> str:
        """The findings as a text table, closing with ``agrees`` or ``DISAGREES``."""
        w = max([len(f.key) for f in self.findings] + [8])
        lines = [f"{'quantity'.ljust(w)}  {'status':18}  {'max error':>10}  worst states / detail"]
        for f in self.findings:
            states = f"{f.worst_states[:5]} " if f.worst_states else ""
            lines.append(f"{f.key.ljust(w)}  {f.status:18}  {f.max_error:10.3g}  {states}{f.detail}".rstrip())
            if f.diagnosis:
                lines.append(f"{''.ljust(w)}  likely: {f.diagnosis}")
        if self.not_claimed:
            lines.append(f"not claimed (not judged): {', '.join(self.not_claimed)}")
        lines.append("agrees" if self.ok else "DISAGREES")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The report as a JSON-ready dict."""
        return {"agrees": self.ok, "up_to_gauge": self.up_to_gauge, "findings": [f.to_dict() for f in self.findings],
                "not_claimed": list(self.not_claimed)}

    def __str__(self) -> str:
        return self.table()


def _few(xs: Sequence[int], k: int = 8) -> str:
    xs = [int(x) for x in xs]
    return str(xs[:k])[:-1] + (", ...]" if len(xs) > k else "]")


def _numeric_finding(key: str, got: np.ndarray, expected: np.ndarray, atol: float, rtol: float, unit: str = "state",
                     slack: np.ndarray | None = None) -> Finding:
    """Compare arrays entrywise; non-finite entries always disagree; rows name the ``unit``.

    ``slack`` (the radii of certified enclosures centred at ``expected``) widens each tolerance."""
    if got.shape != expected.shape:
        return Finding(key, "mismatch", math.inf, [], f"has shape {got.shape}, expected {expected.shape}")
    if got.size == 0:
        return Finding(key, "ok", 0.0)
    rows = lambda mask: sorted({int(i) for i in np.argwhere(mask)[:, 0]})
    nonfinite = ~np.isfinite(got)
    if nonfinite.any():
        bad = rows(nonfinite)
        return Finding(key, "mismatch", math.inf, bad[:5], f"not finite (nan or inf) at {unit}s {_few(bad)}")
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
        detail = f"{unit} {s}: expected {expected[s]:.6g}, got {got[s]:.6g}"
    else:
        c = int(np.argmax(err[s]))
        detail = f"row {s}, column {c}: expected {expected[s, c]:.6g}, got {got[s, c]:.6g}"
    return Finding(key, "mismatch", float(err.max()), worst, detail)


class _Oracle:
    """Float views of the exact decomposition, plus gauge-space bases (computed once)."""

    def __init__(self, dec: Decomposition) -> None:
        self.dec = dec
        chain = dec.chain
        self.n = chain.n
        self.r = to_floats(chain.r)
        self.P = float_matrix(chain)
        self.basis = np.array([to_floats(row) for row in dec.basis]).reshape(self.n, dec.N)
        self.anchors = [s for _, _, s in dec.anchor_list]
        # ker(I - P): absorption probabilities into each class
        self.invariant = np.array([to_floats(row) for row in dec.absorption]).reshape(self.n, len(dec.classes))
        # the reference gauges' functionals: P_inf h = 0 (stationary distributions), v* = 0 at the anchors
        self.h_gauge = np.zeros((len(dec.classes), self.n))
        for i, (members, pi) in enumerate(zip(dec.classes, dec.stationary)):
            self.h_gauge[i, list(members)] = to_floats(pi)
        self.v_gauge = np.zeros((len(self.anchors), self.n))
        self.v_gauge[np.arange(len(self.anchors)), self.anchors] = 1.0
        self._iterates: np.ndarray | None = None  # P^k r, for the gain diagnoses (computed when first needed)

    def vector(self, key: str) -> np.ndarray:
        return to_floats(getattr(self.dec, key))

    def diagnose_gain(self, got: np.ndarray, expected: np.ndarray, atol: float, rtol: float) -> str:
        """:func:`~exactpte.oracle.diagnoses.diagnose_gain` on this chain."""
        tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
        gains = np.array([to_float(x) for x in self.dec.class_gain])
        if self._iterates is None:
            D = 1
            for d in self.dec.periods:
                D = D * d // math.gcd(D, d)
            self._iterates = power_iterates(float_sparse_matrix(self.dec.chain), self.r, period=min(D, 1000))
        return diagnose_gain(got, expected, self._iterates, self.r, [list(c) for c in self.dec.classes], list(self.dec.periods),
                             gains, tol)

    @staticmethod
    def in_span(B: np.ndarray, x: np.ndarray, tol: float) -> bool:
        if not np.all(np.isfinite(x)):
            return False
        if B.shape[1] == 0:
            return bool(np.max(np.abs(x), initial=0.0) <= tol)
        coef, *_ = np.linalg.lstsq(B, x, rcond=None)
        return bool(np.max(np.abs(B @ coef - x)) <= tol)


# -- structure ------------------------------------------------------------------------------------
def _rotation_canonical(phases: list[list[int]]) -> tuple:
    """A class's phase sequence up to rotation: start at the phase holding the smallest state."""
    sets = [tuple(sorted(p)) for p in phases]
    if not sets or not any(sets):
        return tuple(sets)
    start = min(range(len(sets)), key=lambda k: min(sets[k]) if sets[k] else math.inf)
    return tuple(sets[start:] + sets[:start])


def _structure_findings(cand: dict[str, Any], dec: Decomposition | CertifiedDecomposition) -> list[Finding]:
    out: list[Finding] = []
    n = dec.n
    cand_classes = None
    if "classes" in cand:
        cand_classes = _nested(cand["classes"], "classes", 2)
        got_classes = sorted(sorted(c) for c in cand_classes)
        exp_classes = sorted(sorted(c) for c in dec.classes)
        out.append(Finding("classes", "ok") if got_classes == exp_classes else Finding(
            "classes", "structure mismatch", detail=f"expected {exp_classes}, got {got_classes}"))
    comm = _communicating_findings(cand, dec, out)
    if "periods" in cand:
        out.append(_periods_finding(_index_list(cand["periods"], "periods"), cand_classes, comm, dec))
    if "cyclic_classes" in cand:
        out.append(_cyclic_finding(cand["cyclic_classes"], dec))
    if "transient" in cand:
        got_transient = sorted(_index_list(cand["transient"], "transient"))
        ok = got_transient == list(dec.transient)
        extra, missing = sorted(set(got_transient) - set(dec.transient)), sorted(set(dec.transient) - set(got_transient))
        out.append(Finding("transient", "ok" if ok else "structure mismatch",
                           detail="" if ok else f"claimed transient but recurrent: {extra}; transient but not claimed: {missing}"))
    if "anchors" in cand:
        raw = cand["anchors"]
        triples = _nested(raw, "anchors", 2)
        states = [t[-1] if t else -1 for t in triples]
        S = dec.structure
        hit = sorted((S.class_of[s], S.phase_of[s]) for s in states if 0 <= s < n and S.class_of[s] >= 0)
        if any(len(t) != 3 for t in triples):
            out.append(Finding("anchors", "structure mismatch", detail="anchors are [class, phase, state] triples"))
        elif hit != sorted(S.index_set) or len(states) != S.N:
            out.append(Finding("anchors", "structure mismatch",
                               detail=f"the anchor states {_few(states)} do not pick exactly one state of each of the {S.N} cyclic classes"))
        elif sorted(states) != sorted(s for _, _, s in dec.anchor_list):
            out.append(Finding("anchors", "same up to gauge", detail="valid anchors, but not the canonical ones "
                               "(smallest state of each cyclic class): v*, g*, b are compared in the canonical gauge"))
        else:
            out.append(Finding("anchors", "ok"))
    return out


def _periods_finding(periods: list[int], cand_classes: list[list[int]] | None, comm: list[list[int]] | None,
                     dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Periods of the closed classes (aligned with the candidate's ``classes`` when given), or of
    every communicating class (aligned with ``communicating_classes``, or one per SCC)."""
    if comm is not None or (len(periods) != len(dec.classes) and len(periods) == len(_all_sccs(dec))):
        return _all_periods_finding(periods, comm, dec)
    if cand_classes is not None and len(cand_classes) == len(periods) and all(cand_classes):
        got_map = {min(c): d for c, d in zip(cand_classes, periods)}
        exp_map = {c[0]: d for c, d in zip(dec.classes, dec.periods)}
        bad = {k: (exp_map.get(k), got_map.get(k)) for k in set(got_map) | set(exp_map) if got_map.get(k) != exp_map.get(k)}
        detail = "; ".join(f"class with smallest state {k}: expected period {e}, got {g}" for k, (e, g) in sorted(bad.items()))
    else:
        ok = sorted(periods) == sorted(dec.periods)
        detail = "" if ok else f"expected periods {sorted(dec.periods)}, got {sorted(periods)}"
    return Finding("periods", "structure mismatch" if detail else "ok", detail=detail)


def _depth(x: Any) -> int:
    """Nesting depth of a list (its first elements followed down); 0 for a scalar."""
    d = 0
    while isinstance(x, (list, tuple, np.ndarray)) and not isinstance(x, (str, bytes)):
        d += 1
        if len(x) == 0:
            break
        x = x[0]
    return d


def _cyclic_finding(raw: Any, dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Cyclic classes per class in cyclic order (the contract), per class as an unordered partition,
    or one flat list of every class's phases (QuantEcon, PyDTMC): the partition is always judged,
    the cyclic order only where it is given per class."""
    exp_sets = sorted(tuple(sorted(ck)) for cyc in dec.cyclic_classes for ck in cyc)
    if _depth(raw) == 2:
        got_sets = sorted(tuple(sorted(c)) for c in _nested(raw, "cyclic_classes", 2))
        ok = got_sets == exp_sets
        return Finding("cyclic_classes", "ok" if ok else "structure mismatch",
                       detail="a flat list of phases, judged as a partition (cyclic order not given)" if ok
                       else f"the phases differ: expected {_few_sets(exp_sets)}, got {_few_sets(got_sets)}")
    cand_cycles = _nested(raw, "cyclic_classes", 3)
    got_cycles = sorted(_rotation_canonical(c) for c in cand_cycles)
    exp_cycles = sorted(_rotation_canonical([list(ck) for ck in cyc]) for cyc in dec.cyclic_classes)
    if got_cycles == exp_cycles:
        return Finding("cyclic_classes", "ok")
    as_sets = sorted(sorted(tuple(sorted(ck)) for ck in c) for c in cand_cycles)
    if as_sets == sorted(sorted(tuple(sorted(ck)) for ck in cyc) for cyc in dec.cyclic_classes):
        return Finding("cyclic_classes", "ok", detail="the right partition of each class; its phases are not in "
                       "cyclic order (an unordered partition: the order was not judged)")
    return Finding("cyclic_classes", "structure mismatch",
                   detail=f"cyclic classes differ: expected {_few_sets(exp_sets)}, got {_few_sets(sorted(tuple(sorted(ck)) for c in cand_cycles for ck in c))}")


def _few_sets(sets: Sequence[Sequence[int]], k: int = 6) -> str:
    return "[" + ", ".join(str(list(c)) for c in list(sets)[:k]) + (", ...]" if len(sets) > k else "]")


def _all_sccs(dec: Decomposition | CertifiedDecomposition) -> list[tuple[tuple[int, ...], int]]:
    """Every communicating class (closed classes and transient SCCs) with its period (1 for a
    single state without a self-loop, as PyDTMC reports it)."""
    from exactpte.graph.periods import period_and_phases

    S = dec.structure
    out = [(tuple(c), int(d)) for c, d in zip(S.classes, S.periods)]
    graph = dec.chain.support_graph if S.transient_sccs else None
    for scc in S.transient_sccs:
        d, _ = period_and_phases(graph, np.array(sorted(scc)))
        out.append((tuple(sorted(scc)), int(d)))
    return out


def _communicating_findings(cand: dict[str, Any], dec: Decomposition | CertifiedDecomposition,
                            out: list[Finding]) -> list[list[int]] | None:
    """Judge ``communicating_classes`` (every SCC, any order); return them for aligning ``periods``."""
    if "communicating_classes" not in cand:
        return None
    comm = _nested(cand["communicating_classes"], "communicating_classes", 2)
    got = sorted(tuple(sorted(c)) for c in comm)
    exp = sorted(c for c, _ in _all_sccs(dec))
    ok = got == exp
    out.append(Finding("communicating_classes", "ok" if ok else "structure mismatch",
                       detail="" if ok else f"expected {_few_sets(exp)}, got {_few_sets(got)}"))
    return comm


def _all_periods_finding(periods: list[int], comm: list[list[int]] | None, dec: Decomposition | CertifiedDecomposition) -> Finding:
    """Periods of every communicating class (PyDTMC-style, transient classes included): aligned with
    the candidate's ``communicating_classes`` when given, else compared as a multiset."""
    sccs = _all_sccs(dec)
    if comm is not None and len(comm) == len(periods):
        exp_map = {min(c): d for c, d in sccs}
        bad = [(min(c), exp_map.get(min(c)), d) for c, d in zip(comm, periods) if c and exp_map.get(min(c)) != d]
        detail = "; ".join(f"communicating class with smallest state {k}: expected period {e}, got {g}" for k, e, g in bad[:5])
        return Finding("periods", "structure mismatch" if bad else "ok",
                       detail=detail or "periods of every communicating class, aligned with communicating_classes")
    ok = sorted(periods) == sorted(d for _, d in sccs)
    return Finding("periods", "ok" if ok else "structure mismatch",
                   detail="periods of every communicating class (transient ones included), compared as a multiset" if ok
                   else f"expected the periods of the {len(sccs)} communicating classes {sorted(d for _, d in sccs)}, got {sorted(periods)}")


# -- the comparison ---------------------------------------------------------------------------------
def compare(candidate: Mapping[str, Any], reference: _Reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False) -> Report:
    """Compare every quantity the candidate gives with exactpte's exact answer.

    Parameters
    ----------
    candidate : mapping
        Any subset of the keys of ``exactpte decompose --json`` (:data:`KEYS`, or an alias in
        :data:`ALIASES`), values as numbers, ``"p/q"`` strings, lists or numpy arrays.
    reference : MarkovRewardProcess, Decomposition or CertifiedDecomposition
        The chain (decomposed here) or its exact decomposition (or certified enclosures).
    atol, rtol : float
        Entry ``x`` agrees with the exact ``e`` when ``|x - e| <= atol + rtol |e|``; finite, ``>= 0``.
    up_to_gauge : bool
        Accept ``v`` off by ``K(P)`` and ``h`` off by ``ker(I - P)`` (still reported as such).

    Returns
    -------
    Report
        One :class:`Finding` per given quantity; ``report.ok`` when all agree.

    Raises
    ------
    CandidateError
        An unknown key, a malformed value (named with its position), or no key at all.
    UsageError
        A tolerance that is negative, NaN or infinite.

    Examples
    --------
    >>> import exactpte
    >>> dec = exactpte.decompose(exactpte.example("periodic"))
    >>> compare({"rho": [0.5, 0.5], "h": ["1/4", "-1/4"]}, dec).ok
    True
    >>> compare({"rho": [0.5, 0.5]}, dec, atol=-1)
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: atol must be a finite number >= 0, got -1
    """
    atol, rtol = check_tolerance(atol, "atol"), check_tolerance(rtol, "rtol")
    cand = _candidate_keys(candidate)
    if atol == 0 and rtol == 0:  # exact agreement asked of floats: only numbers a float holds can be judged so
        for key, value in cand.items():
            if key in _NOT_NUMBERS:
                continue
            if (place := _exact_values_no_float_holds(value, key)) is not None:
                raise CandidateError(f"atol = rtol = 0 asks for exact agreement, which the float oracle cannot judge for "
                                     f"{place:.60} (no float holds it): give a tolerance, or judge exact claims with "
                                     "`proofs-check verify`")
    from exactpte.certified import CertifiedDecomposition

    if isinstance(reference, CertifiedDecomposition):
        return _compare_certified(cand, reference, atol, rtol)
    dec = reference if isinstance(reference, Decomposition) else decompose(reference)
    if dec.field.is_parametric:
        raise UsageError("the oracle compares float candidates with a rational chain; substitute a point first (dec.at(point))")
    _reference_fits_floats(dec, cand)
    orc = _Oracle(dec)
    findings = _header_findings(cand, dec)
    findings += _structure_findings(cand, dec)
    findings += _vector_findings(cand, orc, atol, rtol)
    if "theta" in cand:
        findings.append(_numeric_finding("theta", _vector(cand["theta"], "theta"), to_floats(dec.theta), atol, rtol, unit="column"))
    findings += _per_class_findings(cand, dec, atol, rtol)
    findings += _matrix_findings(cand, orc, atol, rtol)
    findings += _absorbing_findings(cand, dec, atol, rtol)
    return Report(findings, up_to_gauge, _not_claimed(cand))


_NOT_NUMBERS = frozenset(("format", "n", "labels", *STRUCTURE_KEYS, "communicating_classes", "targets"))


def _reference_fits_floats(dec: Decomposition, cand: dict[str, Any]) -> None:
    """The exact answers the candidate is compared with are floats here: one that no float holds (past the
    range, or nonzero below the normal range) cannot be judged, and is refused rather than misjudged."""
    for key in (k for k in cand if k not in _NOT_NUMBERS and k in COMPUTED):
        values = getattr(dec, key)
        flat = [x for row in values for x in row] if key in NESTED else list(values)
        for x in flat:
            if _no_float_holds(x, _nearest_float(x)):
                raise UsageError(f"the exact {key} holds {str(x)[:40]}, which no float holds: the float oracle cannot judge "
                                 "it; judge exact claims with `proofs-check verify`")


def _candidate_keys(candidate: Mapping[str, Any]) -> dict[str, Any]:
    """The candidate with aliases resolved: every key known and given once, at least one key."""
    if not isinstance(candidate, Mapping):
        raise CandidateError(f"the candidate must be a mapping from quantity names to values, got {type(candidate).__name__}")
    cand: dict[str, Any] = {}
    for k, v in candidate.items():
        key = ALIASES.get(k, k)
        if key not in KEYS:
            raise CandidateError(f"unknown quantity {k!r}; a candidate gives some of {', '.join(KEYS)}")
        if key in cand:
            raise CandidateError(f"the quantity {key!r} is given twice (as {k!r} and another name)")
        cand[key] = v
    if not cand:
        raise CandidateError(f"the candidate gives none of the compared quantities ({', '.join(KEYS)})")
    return cand


def _header_findings(cand: dict[str, Any], dec: Decomposition) -> list[Finding]:
    """``format``, ``n`` and ``labels``, where the candidate gives them."""
    findings: list[Finding] = []
    if "format" in cand:
        ok = cand["format"] == FORMAT
        findings.append(Finding("format", "ok" if ok else "mismatch", detail="" if ok else f"expected {FORMAT!r}, got {_plain(cand['format'])!r:.40}"))
    if "n" in cand:
        n = _index(cand["n"], "n")
        findings.append(Finding("n", "ok" if n == dec.n else "structure mismatch", detail="" if n == dec.n else f"expected {dec.n}, got {n}"))
    if "labels" in cand and cand["labels"] is not None:
        labels = cand["labels"]
        expected = list(dec.chain.labels) if dec.chain.labels is not None else [str(s) for s in range(dec.n)]
        ok = isinstance(labels, Sequence) and not isinstance(labels, str) and list(labels) == expected
        findings.append(Finding("labels", "ok" if ok else "mismatch", detail="" if ok else "labels differ from the chain's"))
    return findings


def _vector_findings(cand: dict[str, Any], orc: _Oracle, atol: float, rtol: float) -> list[Finding]:
    """The state-indexed vectors (:data:`VECTOR_KEYS`): a mismatch is re-examined as a gauge shift,
    else diagnosed; an off-gauge ``v`` with its matching ``g`` is one gauge finding, not two."""
    findings: list[Finding] = []
    scalar_rho = "rho" in cand and _is_scalar(cand["rho"])
    given = {k: _vector(cand[k], k) for k in VECTOR_KEYS if k in cand and not (k == "rho" and scalar_rho)}
    if scalar_rho:  # every average-reward solver returns one number: judged as one gain for every state
        given = {"rho": np.full(orc.n, _scalar(cand["rho"], "rho")), **given}
    for key, got in given.items():
        expected = orc.vector(key)
        f = _numeric_finding(key, got, expected, atol, rtol)
        if f.status == "mismatch" and math.isfinite(f.max_error):
            f = _gauge(key, f, got, expected, given, orc, atol, rtol)
            if f.status == "mismatch" and not f.diagnosis:
                f.diagnosis = diagnose_vector(key, got, expected, orc, atol, rtol)
        if key == "rho" and scalar_rho:
            f.detail = "a scalar gain, judged as one gain for every state" + (f"; {f.detail}" if f.detail else "")
        findings.append(f)
    if "g_star" in given and "v_star" in given:
        fv = next(f for f in findings if f.key == "v_star")
        fg = next(f for f in findings if f.key == "g_star")
        if fv.status == "same up to gauge" and fg.status == "mismatch":
            fg.status, fg.detail = "same up to gauge", "matches r - (I-P) v for the candidate's off-gauge v"
            fg.diagnosis = fv.diagnosis
    return findings


def _matrix_findings(cand: dict[str, Any], orc: _Oracle, atol: float, rtol: float) -> list[Finding]:
    """``basis`` and ``P_inf`` (:data:`MATRIX_KEYS`), a wrong ``P_inf`` diagnosed."""
    findings: list[Finding] = []
    for key in MATRIX_KEYS:
        if key in cand:
            exp = orc.basis if key == "basis" else np.array([to_floats(row) for row in orc.dec.P_inf])
            got = _matrix(cand[key], key)
            f = _numeric_finding(key, got, exp, atol, rtol, unit="row")
            if key == "P_inf" and f.status == "mismatch" and math.isfinite(f.max_error):
                f.diagnosis = diagnose_P_inf(got, orc, atol + rtol)
            findings.append(f)
    return findings


def _compare_certified(cand: dict[str, Any], cert: CertifiedDecomposition, atol: float, rtol: float) -> Report:
    """Judge a candidate against certified enclosures ``[lo, hi]`` instead of exact values.

    An entry agrees when ``|x - mid| <= atol + rtol |mid| + radius``: an answer within the
    tolerance of the exact value is never rejected, and one off by more than the tolerance plus
    the enclosure's width always is (the width is stated in each finding).
    """
    from exactpte.certified import Interval

    exact_only = [k for k in (*ABSORBING_KEYS, "targets") if k in cand]
    if exact_only:
        raise CandidateError(f"{', '.join(exact_only)}: judged against the exact reference only (--arithmetic exact)")
    if "stationary" in cand and _full_length(cand["stationary"], cert.n, [len(c) for c in cert.structure.classes]):
        raise CandidateError("full-length stationary vectors are judged against the exact reference only (--arithmetic exact)")
    if "rho" in cand and _is_scalar(cand["rho"]):  # a scalar gain: one gain for every state
        cand = {**cand, "rho": [cand["rho"]] * cert.n}
    findings: list[Finding] = []
    if "n" in cand:
        n = _index(cand["n"], "n")
        findings.append(Finding("n", "ok" if n == cert.n else "structure mismatch", detail="" if n == cert.n else f"expected {cert.n}, got {n}"))
    findings += _structure_findings(cand, cert)

    def judge(key: str, got: np.ndarray, iv: Interval, unit: str = "state") -> Finding:
        f = _numeric_finding(key, got, iv.mid, atol, rtol, unit, slack=iv.rad)
        width = float(np.max(iv.width, initial=0.0))
        f.detail = (f.detail + "; " if f.detail else "") + f"judged against certified enclosures (widest {width:.1e})"
        return f

    vectors = cert.vectors()
    for key in VECTOR_KEYS:
        if key in cand:
            if key not in vectors:
                raise CandidateError(f"{key} has no certified enclosure; compare it against the exact decomposition")
            findings.append(judge(key, _vector(cand[key], key), vectors[key]))
    if "theta" in cand:
        findings.append(judge("theta", _vector(cand["theta"], "theta"), cert.theta, "column"))
    if "class_gain" in cand:
        findings.append(judge("class_gain", _vector(cand["class_gain"], "class_gain"), cert.class_gain, "class"))
    if "stationary" in cand:
        raw = cand["stationary"]
        worst = Finding("stationary", "ok")
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != len(cert.stationary):
            worst = Finding("stationary", "mismatch", math.inf, [], f"expected one distribution per class ({len(cert.stationary)})")
        else:
            for pos, pi in enumerate(cert.stationary):
                f = judge("stationary", _vector(raw[pos], f"stationary[{pos}]"), pi, f"entry of class {pos}, position")
                if not f.ok and worst.ok:
                    worst = f
        findings.append(worst)
    if "basis" in cand:
        findings.append(judge("basis", _matrix(cand["basis"], "basis"), cert.basis, "row"))
    if "P_inf" in cand:
        findings.append(judge("P_inf", _matrix(cand["P_inf"], "P_inf"), cert.P_inf, "row"))
    return Report(findings, False, _not_claimed(cand))


def _not_claimed(cand: Mapping[str, Any]) -> tuple[str, ...]:
    """The structure and core quantities of the decomposition that ``cand`` leaves out."""
    return tuple(k for k in (*STRUCTURE_KEYS, *CORE) if k not in cand)


def _gauge(key: str, f: Finding, got: np.ndarray, expected: np.ndarray, given: dict[str, np.ndarray], orc: _Oracle, atol: float, rtol: float) -> Finding:
    """Split a bias-like mismatch into its gauge part and the residual (both reported); re-classify
    it as "same up to gauge" when the residual is within tolerance."""
    diff = got - expected
    tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
    if key in ("v_star", "h"):
        space, B, C = ("K(P)", orc.basis, orc.v_gauge) if key == "v_star" else ("ker(I-P)", orc.invariant, orc.h_gauge)
        f.gauge_part, f.residual = gauge_split(diff, B, C)
        if f.gauge_part > tol:
            answer = float(np.max(np.abs(expected), initial=0.0))
            note, why = gauge_note(f.gauge_part, f.residual, answer, space, tol)
            if f.residual > tol:
                f.detail, f.diagnosis = f"{f.detail}; {note}", why
                return f
            found = _gauge_shift(key, f, got, given, orc, tol)
            if found is not f:
                found.detail, found.diagnosis = f"{found.detail}; {note}", f"{found.diagnosis}; {why}" if why else found.diagnosis
                found.gauge_part, found.residual = f.gauge_part, f.residual
            return found
    return _gauge_shift(key, f, got, given, orc, tol)


def _gauge_shift(key: str, f: Finding, got: np.ndarray, given: dict[str, np.ndarray], orc: _Oracle, tol: float) -> Finding:
    """``f`` re-classified as a gauge shift when ``got - expected`` lies in the gauge space (else ``f``)."""
    diff = got - orc.vector(key)
    if key == "v_star" and orc.in_span(orc.basis, diff, tol):
        g = orc.r - (np.eye(orc.n) - orc.P) @ got
        g_in_K = orc.in_span(orc.basis, g, tol)
        g_given = given.get("g_star")
        g_match = g_given is None or (g_given.shape == g.shape and np.max(np.abs(g_given - g)) <= tol)
        if g_in_K and g_match:
            at = {a: float(got[a]) for a in orc.anchors if abs(got[a]) > tol}
            return Finding(key, "same up to gauge", f.max_error, f.worst_states,
                           f"differs from v* by an element of K(P); the anchor gauge needs v = 0 at the anchors, got {at}",
                           "a gauge shift inside K(P): the right answer in another gauge (other anchors, or none)")
    elif key == "h" and orc.in_span(orc.invariant, diff, tol):
        return Finding(key, "same up to gauge", f.max_error, f.worst_states,
                       "differs from the normalized bias by an element of ker(I-P): normalization P_inf h = 0 is not met",
                       "a normalisation: a bias, but not the one with P_inf h = 0")
    return f


def diagnose_vector(key: str, got: np.ndarray, expected: np.ndarray, orc: _Oracle, atol: float, rtol: float) -> str:
    """The likely kind of mistake behind a wrong vector, from the shape of its error ``got - expected``:
    a per-class constant or an element of ``ker(I - P)`` (normalisation), a persistent periodic mode
    (an element of ``K(P) = span b`` outside ``ker(I - P)``: a power limit in place of the Cesàro
    limit, or phases misassigned), an error confined to transient states (the absorption/hitting
    part), or a sign or scale error.  Empty when the error has no recognisable shape."""
    diff = got - expected
    tol = 10 * (atol + rtol * float(np.max(np.abs(expected), initial=0.0))) + 1e-12
    sign_scale = _sign_or_scale(key, got, expected, tol)
    if sign_scale:
        return sign_scale
    if key == "rho":  # unichain assumption, power-iteration values, constant candidates
        gain = orc.diagnose_gain(got, expected, atol, rtol)
        if gain or np.ptp(got) <= tol:
            return gain
    recurrent = np.zeros(orc.n, dtype=bool)
    for members in orc.dec.classes:
        recurrent[list(members)] = True
    if orc.in_span(orc.invariant, diff, tol):
        if key in ("rho", "g_star"):  # a gain has no normalisation
            return ("wrong class gains: the error is constant on each closed class (and absorbed accordingly): "
                    "some class's gain pi_i . r is wrong, not a normalisation")
        return ("a per-class constant offset: the error is an element of ker(I - P) (constant on each closed class, "
                "absorbed accordingly): a different normalisation")
    if orc.in_span(orc.basis, diff, tol):
        return ("a persistent periodic mode: the error lies in K(P) = span b but not in ker(I - P), as when a power limit "
                "P^t (or a fixed-phase average) replaces the Cesaro limit, or phases are misassigned")
    if np.all(np.abs(diff[recurrent]) <= tol):
        return ("an error confined to transient states: the closed classes are right, the absorption/hitting part "
                "(the solve on the transient block) is not")
    per_class = all(np.ptp(diff[list(members)]) <= tol for members in orc.dec.classes)
    if per_class and np.any(np.abs(diff[recurrent]) > tol):
        return "a per-class constant offset on the closed classes (and a matching error on transient states)"
    return ""


def _sign_or_scale(key: str, got: np.ndarray, expected: np.ndarray, tol: float) -> str:
    """``-x`` or ``c x`` (never "scale" when the candidate or the answer is constant)."""
    scale = float(np.max(np.abs(expected), initial=0.0))
    if scale > tol and np.max(np.abs(got + expected)) <= tol:
        return f"the sign is flipped: {key} = -(the exact {key})"
    if scale > tol and np.ptp(got) > tol and np.ptp(expected) > tol:
        c = float(got @ expected) / float(expected @ expected)
        if abs(c - 1) > 1e-6 and np.max(np.abs(got - c * expected)) <= tol:
            return f"a scale error: {key} = {c:.6g} x (the exact {key})"
    return ""


def diagnose_P_inf(got: np.ndarray, orc: _Oracle, tol: float) -> str:
    """The likely mistake behind a wrong ``P_inf``: rows not summing to 1, or a power limit
    (``P^t`` along a period: invariant under ``P^D`` but not under ``P``)."""
    tol = 10 * tol + 1e-12
    rows = np.abs(got.sum(axis=1) - 1)
    if np.max(rows) > tol:
        return f"rows do not sum to 1 (row {int(np.argmax(rows))} sums to {got.sum(axis=1)[int(np.argmax(rows))]:.6g})"
    PX = orc.P @ got
    if np.max(np.abs(PX - got)) > tol:
        D = 1
        for d in orc.dec.periods:
            D = D * d // math.gcd(D, d)
        X = got
        for _ in range(D):
            X = orc.P @ X
        if np.max(np.abs(X - got)) <= tol:
            return (f"a power limit P^t along the period (P^{D} P_inf = P_inf but P P_inf != P_inf) in place of the "
                    f"Cesaro limit, which averages over the phases")
        return "P P_inf != P_inf: not a limit of P at all"
    return "P P_inf = P_inf but it is not the Cesaro limit: check the absorption probabilities into each class"


def _per_class_findings(cand: dict[str, Any], dec: Decomposition, atol: float, rtol: float) -> list[Finding]:
    """``stationary`` and ``class_gain``, aligned with the candidate's classes (canonical order if none given)."""
    out: list[Finding] = []
    order = list(range(len(dec.classes)))
    if "stationary" in cand and _full_length(cand["stationary"], dec.n, [len(c) for c in dec.classes]):
        out.append(_mixture_finding(cand["stationary"], dec, atol, rtol))  # needs no alignment with classes
        cand = {k: v for k, v in cand.items() if k != "stationary"}
    cand_classes = _nested(cand["classes"], "classes", 2) if "classes" in cand else None
    if cand_classes is not None:
        by_set = {tuple(sorted(c)): i for i, c in enumerate(dec.classes)}
        mapped = [by_set.get(tuple(sorted(c))) for c in cand_classes]
        order = [i for i in mapped if i is not None]
        if len(order) != len(mapped) or len(mapped) != len(dec.classes):
            return out + [Finding(k, "structure mismatch", detail="the candidate's classes differ, so per-class values cannot be aligned")
                          for k in PER_CLASS_KEYS if k in cand]
    if "class_gain" in cand:
        exp = np.array([to_float(dec.class_gain[i]) for i in order])
        out.append(_numeric_finding("class_gain", _vector(cand["class_gain"], "class_gain"), exp, atol, rtol, unit="class"))
    if "stationary" in cand:
        raw = cand["stationary"]
        if isinstance(raw, np.ndarray):
            raw = list(raw)
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence) or len(raw) != len(order):
            out.append(Finding("stationary", "mismatch", math.inf, [], f"expected one distribution per class ({len(order)})"))
            return out
        worst = Finding("stationary", "ok")
        for pos, i in enumerate(order):
            got = _vector(raw[pos], f"stationary[{pos}]")
            members = dec.classes[i]
            if cand_classes is not None:  # aligned with the candidate's own member order
                lookup = dict(zip(members, dec.stationary[i]))
                exp = np.array([to_float(lookup[s]) for s in cand_classes[pos]])
            else:
                exp = to_floats(dec.stationary[i])
            f = _numeric_finding("stationary", got, exp, atol, rtol, unit=f"entry of class {pos}, position")
            if not f.ok and worst.ok:
                worst = f
        out.append(worst)
    return out


def _absorbing_findings(cand: dict[str, Any], dec: Decomposition, atol: float, rtol: float) -> list[Finding]:
    """``absorption``, ``fundamental``, ``first_passage`` (with ``targets``) and ``total_reward``,
    each judged against an independent exact reference (:mod:`exactpte.oracle.references`)."""
    out: list[Finding] = []
    chain, T = dec.chain, list(dec.transient)
    if "targets" in cand and "first_passage" not in cand:
        raise CandidateError("targets is given without first_passage (the mean first-passage times to the targets)")
    if "absorption" in cand:
        exp = np.array([to_floats(row) for row in references.absorption(chain)]).reshape(dec.n, len(dec.classes))
        got = _matrix(cand["absorption"], "absorption")
        if got.shape == (len(T), exp.shape[1]) and len(T) != dec.n:
            exp = exp[T]  # rows on the transient states only, in the order of transient
        full = got.shape[0] == dec.n
        recurrent = {s for c in dec.classes for s in c} if full else set()
        f = _judged_matrix("absorption", got, exp, atol, rtol, recurrent)
        if f.detail.startswith("has shape") and len(T) != dec.n:
            f.detail += f" (every state) or {(len(T), len(dec.classes))} (the transient states), one column per closed class"
        out.append(f)
    if "fundamental" in cand:
        exp = np.array([to_floats(row) for row in references.fundamental(chain)]).reshape(len(T), len(T))
        out.append(_judged_matrix("fundamental", _matrix(cand["fundamental"], "fundamental"), exp, atol, rtol))
    if "first_passage" in cand:
        if "targets" not in cand:
            raise CandidateError("first_passage needs targets: the target set, a list of state indices")
        targets = _index_list(cand["targets"], "targets")
        if not targets or any(not 0 <= a < dec.n for a in targets):
            raise CandidateError(f"targets must be a non-empty list of states in 0..{dec.n - 1}, got {_few(targets)}")
        ref = references.first_passage(chain, targets)
        exp = np.array([math.inf if x is None else to_float(x) for x in ref])
        out.append(_first_passage_finding(_vector(cand["first_passage"], "first_passage"), exp, targets, atol, rtol))
    if "total_reward" in cand:
        exp = to_floats(references.total_reward(chain))
        f = _numeric_finding("total_reward", _vector(cand["total_reward"], "total_reward"), exp, atol, rtol)
        if f.status == "mismatch" and f.worst_states and all(s not in set(T) for s in f.worst_states):
            f.diagnosis = "reward counted on the closed classes: the total reward before absorption is 0 there"
        out.append(f)
    return out


def _judged_matrix(key: str, got: np.ndarray, exp: np.ndarray, atol: float, rtol: float,
                   recurrent_rows: set[int] | None = None) -> Finding:
    """A matrix judged entrywise, a mismatch diagnosed (transposed, columns permuted, rows not summing
    to 1, ``N - I`` for the fundamental matrix)."""
    if got.shape == exp.T.shape and got.shape != exp.shape:
        f = _numeric_finding(key, got.T, exp, atol, rtol, unit="row")
        if f.ok:
            return Finding(key, "mismatch", math.inf, [], f"has shape {got.shape}, expected {exp.shape}",
                           "the transpose of the right matrix")
    f = _numeric_finding(key, got, exp, atol, rtol, unit="row")
    if f.status != "mismatch" or not math.isfinite(f.max_error) or got.shape != exp.shape:
        return f
    tol = 10 * (atol + rtol * float(np.max(np.abs(exp), initial=0.0))) + 1e-12
    close = lambda a: bool(np.max(np.abs(got - a), initial=0.0) <= tol)
    if got.shape[0] == got.shape[1] and close(exp.T):
        f.diagnosis = "the transpose of the right matrix"
    elif key == "fundamental" and close(exp - np.eye(exp.shape[0])):
        f.diagnosis = "N - I: visits counted from time 1, not from time 0 ((I - Q)^{-1} counts the start)"
    elif key == "absorption":
        sums = got.sum(axis=1)
        perm = [int(np.argmin(np.abs(got[:, [j]] - exp).max(axis=0))) for j in range(got.shape[1])]
        if np.max(np.abs(sums - 1)) > tol:
            s = int(np.argmax(np.abs(sums - 1)))
            f.diagnosis = f"rows do not sum to 1 (row {s} sums to {float(sums[s]):.6g}): not absorption probabilities"
        elif sorted(perm) == list(range(got.shape[1])) and close(exp[:, perm]):
            f.diagnosis = f"the classes in another order (column j holds class {perm}[j]); columns follow the canonical class order"
        elif recurrent_rows and set(f.worst_states) <= recurrent_rows:
            f.diagnosis = ("wrong on states of closed classes only: such a state ends in its own class with probability 1 "
                           "(a state of a closed class taken as transient)")
    return f


def _first_passage_finding(got: np.ndarray, exp: np.ndarray, targets: list[int], atol: float, rtol: float) -> Finding:
    """Mean first-passage times: infinite exactly where the targets are missed with positive probability."""
    if got.shape != exp.shape:
        return Finding("first_passage", "mismatch", math.inf, [], f"has shape {got.shape}, expected {exp.shape}")
    inf_exp, inf_got = np.isinf(exp), np.isposinf(got)
    if np.any(inf_exp != inf_got):
        bad = [int(s) for s in np.flatnonzero(inf_exp != inf_got)]
        s = bad[0]
        return Finding("first_passage", "mismatch", math.inf, bad[:5],
                       f"state {s}: expected {'inf' if inf_exp[s] else f'{exp[s]:.6g}'}, got {got[s]:.6g}",
                       "infinite exactly where the targets are missed with positive probability" if inf_exp[s] else "")
    f = _numeric_finding("first_passage", np.where(inf_exp, 0.0, got), np.where(inf_exp, 0.0, exp), atol, rtol)
    if f.status == "mismatch" and set(f.worst_states) <= set(targets):
        f.diagnosis = "wrong on the targets only: first passage is 0 on the targets (a return time was given there?)"
    return f


def _full_length(raw: Any, n: int, sizes: list[int]) -> bool:
    """Whether ``stationary`` is given as full-length vectors (one, or a list of them) rather than
    per class: a flat vector, or rows of length ``n`` where some class is smaller than ``n``."""
    depth = _depth(raw)
    if depth == 1:
        return True
    if depth != 2:
        return False
    rows = list(raw)
    return bool(rows) and all(len(row) == n for row in rows) and any(size != n for size in sizes)


def _mixture_finding(raw: Any, dec: Decomposition, atol: float, rtol: float) -> Finding:
    """Full-length stationary vectors (QuantEcon, PyDTMC, discreteMarkovChain): each must be a
    stationary distribution of the whole chain, i.e. a mixture ``Σ c_i π_i`` of the classes'
    (``c_i >= 0``, ``Σ c_i = 1``); any mixture is accepted, its weights are named."""
    rows = [_vector(raw, "stationary")] if _depth(raw) == 1 else [_vector(r, f"stationary[{k}]") for k, r in enumerate(raw)]
    pis = [(list(members), to_floats(pi)) for members, pi in zip(dec.classes, dec.stationary)]
    worst, weights_seen, max_err = Finding("stationary", "ok"), [], 0.0
    for k, x in enumerate(rows):
        where = f"vector {k}: " if len(rows) > 1 else ""
        if x.shape != (dec.n,):
            return Finding("stationary", "mismatch", math.inf, [], f"{where}has length {x.size}, expected {dec.n}")
        if not np.all(np.isfinite(x)):
            bad = [int(i) for i in np.flatnonzero(~np.isfinite(x))]
            k = len(dec.classes)
            return Finding("stationary", "mismatch", math.inf, bad[:5], f"{where}not finite at states {_few(bad)}",
                           f"NaN from a singular solve: the chain has {k} closed classes, so I - P restricted by one "
                           "normalisation is still singular" if k > 1 else "")
        weights = np.array([math.fsum(x[m]) for m, _ in pis])
        mix = np.zeros(dec.n)
        for (m, pi), c in zip(pis, weights):
            mix[m] = c * pi
        err = np.abs(x - mix)
        # the weights and the total are sums computed here (correctly rounded: fsum), and a weight times pi
        # rounds once more: a few units in the last place of each entry (relative), and of the total, are
        # the oracle's rounding, not the candidate's error, so the nearest floats of the answer pass at atol = 0
        eps = float(np.finfo(float).eps)
        f = _numeric_finding("stationary", x, mix, atol, rtol + 4 * eps)
        total, rounding = math.fsum(x), 2 * eps
        max_err = max(max_err, float(err.max(initial=0.0)))
        problems = []
        negative = float(max(-x.min(initial=0.0), 0.0))
        if negative > atol:
            problems.append(f"negative entries (state {int(np.argmin(x))}: {float(x.min()):.3g}; class weights "
                            + ", ".join(f"{float(c):.3g}" for c in weights) + ")")
        if abs(total - 1) > atol + rtol + rounding:
            problems.append(f"sums to {total:.6g}, not 1" if abs(total - 1) > 1e-5 else f"sums to 1 {'+' if total > 1 else '-'} {abs(total - 1):.2g}, not 1")
        if not f.ok:
            w = f.worst_states[0]
            problems.append(f"mass {float(x[w]):.3g} on transient state {w}" if w in set(dec.transient)
                            else f"not proportional to its class's stationary distribution at state {w} "
                                 f"(expected {float(mix[w]):.6g} for the class weight {float(weights[_class_index(dec, w)]):.6g})")
        if problems:
            wrong = Finding("stationary", "mismatch", float(max(err.max(), abs(total - 1), negative)),
                            f.worst_states or [int(np.argmin(x))],
                            where + "not a stationary distribution of the chain: " + "; ".join(problems),
                            _stationary_diagnosis(x, float(err.max()), negative, weights, dec))
            if worst.ok:
                worst = wrong
        weights_seen.append("(" + ", ".join(f"{float(c):.3g}" for c in weights) + ")")
    if worst.ok:
        worst.max_error = max_err
        worst.detail = ("a stationary distribution of the whole chain: a mixture of the classes' with weights "
                        + ", ".join(weights_seen))
    return worst


def _stationary_diagnosis(x: np.ndarray, off: float, negative: float, weights: np.ndarray, dec: Decomposition) -> str:
    """Why a full-length vector is not a stationary distribution: an arbitrary solution of a singular
    system (several closed classes), or a nearly invariant vector (a stopping rule on the change per
    step, under slow mixing), or mass left on transient states."""
    k = len(dec.classes)
    if (negative > 0 or np.any(weights < 0)) and k > 1:
        return (f"a solve that assumes one stationary distribution: the chain has {k} closed classes (eigenvalue 1 "
                f"of multiplicity {k}), so an eigen/linear solve returns an arbitrary combination, not a distribution")
    P = float_sparse_matrix(dec.chain)
    moved = float(np.max(np.abs(P.T @ x - x), initial=0.0))
    if off > 0 and moved < 1e-3 * off:
        return (f"nearly invariant (max |x P - x| = {moved:.2g}) yet {off:.3g} away from the stationary distribution: "
                "a stopping rule on the change per step stopped a slowly mixing iteration (near its start vector)")
    if any(abs(float(x[s])) > 0 for s in dec.transient):
        return "mass left on transient states: an iteration stopped before the transient part died out, or transient states taken as recurrent"
    return "within a class, not proportional to the class's stationary distribution"


def _class_index(dec: Decomposition, s: int) -> int:
    return next(i for i, c in enumerate(dec.classes) if s in c)


def assert_decomposition_close(candidate: Mapping[str, Any], reference: _Reference, *, atol: float = 1e-9, rtol: float = 0.0,
                               up_to_gauge: bool = False) -> Report:
    """Assert that every quantity the candidate gives matches the exact answer (see :func:`compare`).

    Raises
    ------
    AssertionError
        Naming each disagreeing quantity, its worst states and expected versus got.
    """
    __tracebackhide__ = True  # pytest shows the caller's frame, not the oracle's
    report = compare(candidate, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
    if not report.ok:
        bad = [f for f in report.findings if not (f.ok or (up_to_gauge and f.status == "same up to gauge"))]
        lines = [f"{f.key}: {f.status} (max error {f.max_error:.3g}, worst states {f.worst_states[:5]}) {f.detail}".rstrip()
                 + (f"\n    likely: {f.diagnosis}" if f.diagnosis else "") for f in bad]
        raise AssertionError("candidate disagrees with the exact decomposition:\n  " + "\n  ".join(lines))
    return report


def assert_gain_close(rho: Sequence[float], reference: _Reference, *, atol: float = 1e-9, rtol: float = 0.0) -> None:
    """Assert a gain vector equals ``ρ = P∞ r`` (NaN and infinity never agree)."""
    __tracebackhide__ = True
    assert_decomposition_close({"rho": rho}, reference, atol=atol, rtol=rtol)


def assert_bias_close(h: Sequence[float], reference: _Reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False) -> None:
    """Assert a bias vector equals the normalized ``h`` (or differs by ``ker(I - P)`` when ``up_to_gauge``)."""
    __tracebackhide__ = True
    assert_decomposition_close({"h": h}, reference, atol=atol, rtol=rtol, up_to_gauge=up_to_gauge)
