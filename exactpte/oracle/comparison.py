"""exactpte as the oracle for other (float) implementations: :func:`compare` and the key dispatch.

:func:`compare` scores a candidate (a dict of arrays, any subset of the keys of
``exactpte decompose --json``) against the exact decomposition, sending each key to the module
that judges it: structure (:mod:`~exactpte.oracle.structure`), state vectors and matrices with
their gauge (:mod:`~exactpte.oracle.vectors`, :mod:`~exactpte.oracle.gauge`), per-class quantities
(:mod:`~exactpte.oracle.stationary`), the absorbing chain (:mod:`~exactpte.oracle.absorbing`), or
certified enclosures instead of exact values (:mod:`~exactpte.oracle.certified`).  Gauge
awareness: a ``v`` that differs from ``v*`` by an element of ``K(P)`` (with the matching
``g = r - (I - P) v``), or an ``h`` that differs from the normalized bias by an element of
``ker(I - P)``, is reported as "same up to gauge", naming the normalization it misses.

Verdicts are sound: every key the candidate gives is compared, peers' native names read
(:mod:`~exactpte.oracle.peers`); a key the oracle does not know is listed as not judged, never
ignored (``strict=True``: refused); NaN or infinity anywhere is a disagreement naming the states; tolerances must
be finite and ``>= 0``; a malformed candidate raises :class:`~exactpte.errors.CandidateError`
naming the quantity and position.

Examples
--------
>>> import exactpte, numpy as np
>>> dec = exactpte.decompose(exactpte.example("periodic"))
>>> report = compare({"h": [0.75, 0.25]}, dec, atol=1e-9)   # normalized h is (1/4, -1/4)
>>> report.findings[0].status
'same up to gauge'
>>> compare({"rho": [float("nan"), 0.5]}, dec).ok
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from exactpte.errors import CandidateError, UsageError, brief
from exactpte.model.chain import Chain, MarkovRewardProcess
from exactpte.oracle.absorbing import absorbing_findings
from exactpte.oracle.certified import compare_certified
from exactpte.oracle.conventions import read_convention
from exactpte.oracle.findings import Finding, Report, not_claimed, numeric_finding
from exactpte.oracle.gauge import FloatReference
from exactpte.oracle.keys import ALIASES, KEYS, NOT_NUMBERS
from exactpte.oracle.peers import DERIVED_KEYS, NativeCandidate, derived_findings, read_native
from exactpte.oracle.stationary import per_class_findings
from exactpte.oracle.structure import structure_findings
from exactpte.oracle.values import require_tolerance, exact_values_no_float_holds, index, nearest_float, no_float_holds, plain, vector
from exactpte.oracle.vectors import matrix_findings, vector_findings
from exactpte.results.decomposition import Decomposition, decompose
from exactpte.results.quantities import COMPUTED, NESTED
from exactpte.results.report import FORMAT

if TYPE_CHECKING:
    from exactpte.certified import CertifiedDecomposition

__all__ = ["compare", "Reference"]

Reference: TypeAlias = "MarkovRewardProcess | Decomposition | CertifiedDecomposition"
"""What a candidate is compared with: a chain (decomposed here), its exact decomposition, or
certified enclosures."""


def compare(candidate: Mapping[str, Any], reference: Reference, *, atol: float = 1e-9, rtol: float = 0.0, up_to_gauge: bool = False,
            strict: bool = False) -> Report:
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
    strict : bool
        Refuse keys the oracle does not know (by default they are listed in ``report.not_judged`` and
        the rest is judged).  Peers' native names (:mod:`exactpte.oracle.peers`) are always read.

    Returns
    -------
    Report
        One :class:`Finding` per given quantity; ``report.ok`` when all agree.

    Raises
    ------
    CandidateError
        A malformed value (named with its position), no known key at all, or (``strict``) an unknown key.
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
    atol, rtol = require_tolerance(atol, "atol"), require_tolerance(rtol, "rtol")
    native = _candidate_keys(candidate, reference, strict)
    try:
        return _judged(native, reference, atol, rtol, up_to_gauge)
    except CandidateError as e:  # the message names our key: name the candidate's own too
        text = str(e)
        for key, name in native.sources.items():
            if name != key and (text.startswith(key + " ") or text.startswith(key + "[")):
                raise CandidateError(f"{name} (read as {text})") from None
        raise


def _judged(native: NativeCandidate, reference: Reference, atol: float, rtol: float, up_to_gauge: bool) -> Report:
    """The findings of a candidate read natively (:func:`compare`'s body)."""
    cand = {k: v for k, v in native.values.items() if k not in DERIVED_KEYS}
    derived = {k: v for k, v in native.values.items() if k in DERIVED_KEYS}
    if atol == 0 and rtol == 0:  # exact agreement asked of floats: only numbers a float holds can be judged so
        for key, value in cand.items():
            if key in NOT_NUMBERS:
                continue
            if (place := exact_values_no_float_holds(value, key)) is not None:
                raise CandidateError(f"atol = rtol = 0 asks for exact agreement, which the float oracle cannot judge for "
                                     f"{brief(place, 60)} (no float holds it): give a tolerance, or judge exact claims with "
                                     "`proofs-check verify`")
    dec = _exact_reference(reference)
    if dec is None:  # certified enclosures
        enclosures = _certified_reference(reference)
        report = compare_certified(cand, enclosures, atol, rtol)
        report.findings += derived_findings(derived, enclosures.structure, _absorbing_states(enclosures.chain))
        return _with_native(report, native)
    if dec.field.is_parametric:
        raise UsageError("the oracle compares float candidates with a rational chain; substitute a point first (dec.at(point))")
    _reference_fits_floats(dec, cand)
    convention, _ = read_convention(cand, dec.structure, [s for _, _, s in dec.anchor_list])
    orc = FloatReference(dec, convention)
    findings = _header_findings(cand, dec)
    findings += structure_findings(cand, dec)
    findings += derived_findings(derived, dec.structure, _absorbing_states(dec.chain))
    findings += vector_findings(cand, orc, atol, rtol)
    if "theta" in cand:
        findings.append(numeric_finding("theta", vector(cand["theta"], "theta"), orc.aligned.theta(), atol, rtol, unit="column"))
    findings += per_class_findings(cand, dec, atol, rtol)
    findings += matrix_findings(cand, orc, atol, rtol)
    findings += absorbing_findings(cand, dec, atol, rtol)
    return _with_native(Report(findings, up_to_gauge, not_claimed(cand)), native)


def _exact_reference(reference: Reference) -> Decomposition | None:
    """The exact decomposition a reference gives (a chain is decomposed here), or ``None`` for any other
    reference: certified enclosures, :func:`_certified_reference`."""
    if isinstance(reference, Decomposition):
        return reference
    if isinstance(reference, Chain):
        return decompose(reference)
    return None


def _certified_reference(reference: object) -> CertifiedDecomposition:
    """``reference`` as certified enclosures, or a :class:`~exactpte.errors.UsageError` naming the kinds of
    reference.  ``exactpte.certified`` is imported here, only for a reference that is neither a chain nor an
    exact decomposition: the exact path does not pay for its import (numpy, scipy)."""
    from exactpte.certified import CertifiedDecomposition

    if not isinstance(reference, CertifiedDecomposition):
        raise UsageError(f"compare takes a chain, its Decomposition or its CertifiedDecomposition as the reference, "
                         f"got {type(reference).__name__}")
    return reference


def _with_native(report: Report, native: NativeCandidate) -> Report:
    """The report with what the native reading found: keys not judged, names read, keys in a peer's own gauge."""
    report.not_judged, report.readings, report.gauge_free = native.not_judged, tuple(native.readings), native.up_to_gauge
    return report


def _absorbing_states(chain: Chain) -> list[int]:
    """The absorbing states: ``P(s, s) = 1``."""
    return [s for s in range(chain.n) if [j for j, _ in chain.row(s)] == [s]]


def _reference_fits_floats(dec: Decomposition, cand: dict[str, Any]) -> None:
    """The exact answers the candidate is compared with are floats here: one that no float holds (past the
    range, or nonzero below the normal range) cannot be judged, and is refused rather than misjudged."""
    for key in (k for k in cand if k not in NOT_NUMBERS and k in COMPUTED):
        values = getattr(dec, key)
        flat = [x for row in values for x in row] if key in NESTED else list(values)
        for x in flat:
            if no_float_holds(x, nearest_float(x)):
                raise UsageError(f"the exact {key} holds {brief(x, 40)}, which no float holds: the float oracle cannot judge "
                                 "it; judge exact claims with `proofs-check verify`")


def _candidate_keys(candidate: Mapping[str, Any], reference: Reference, strict: bool) -> NativeCandidate:
    """The candidate under exactpte's keys: aliases and peers' native names resolved (:mod:`exactpte.oracle.peers`),
    states given by name mapped through the chain's labels, every key given once, at least one key judged."""
    chain = reference if isinstance(reference, MarkovRewardProcess) else getattr(reference, "chain", None)
    native = read_native(candidate, labels=getattr(chain, "labels", None), n=getattr(chain, "n", 0), known=KEYS,
                         aliases=ALIASES, strict=strict)
    structure = getattr(reference, "structure", None) or getattr(chain, "structure", None)
    if native.values.get("cyclic_classes") == [] and structure is not None and \
            len(structure.classes) + len(structure.transient_sccs) > 1:
        del native.values["cyclic_classes"]
        native.readings.append("cyclic_classes is [] on a reducible chain (PyDTMC's 'not applicable': it gives the "
                               "cyclic classes of irreducible chains only): not claimed")
    if not native.values:
        shown = f" (not judged: {', '.join(native.not_judged)})" if native.not_judged else ""
        empty = [r for r in native.readings if "not claimed" in r]
        raise CandidateError(f"the candidate gives none of the compared quantities ({', '.join(KEYS)}){shown}"
                             + (f"; {'; '.join(empty)}" if empty else ""))
    return native


def _header_findings(cand: dict[str, Any], dec: Decomposition) -> list[Finding]:
    """``format``, ``n`` and ``labels``, where the candidate gives them."""
    findings: list[Finding] = []
    if "format" in cand:
        ok = cand["format"] == FORMAT
        findings.append(Finding("format", "ok" if ok else "mismatch", detail="" if ok else f"expected {FORMAT!r}, got {brief(plain(cand['format']), 40, quoted=True)}"))
    if "n" in cand:
        n = index(cand["n"], "n")
        findings.append(Finding("n", "ok" if n == dec.n else "structure mismatch", detail="" if n == dec.n else f"expected {dec.n}, got {n}"))
    if "labels" in cand and cand["labels"] is not None:
        labels = cand["labels"]
        expected = list(dec.chain.labels) if dec.chain.labels is not None else [str(s) for s in range(dec.n)]
        ok = isinstance(labels, Sequence) and not isinstance(labels, str) and list(labels) == expected
        findings.append(Finding("labels", "ok" if ok else "mismatch", detail="" if ok else "labels differ from the chain's"))
    return findings
