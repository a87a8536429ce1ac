"""What ``proofs-check verify`` demands of a claim beyond "every claimed condition holds": ``--require KEYS`` and
``--strict`` (every key of the contract).  Kept out of the trusted file (``verify.py``, capped at 420 statements): this
reads only its :class:`~proofs_check.trusted.verify.Report`, so trusting a verdict still means trusting ``verify.py``.

Without them a claim that says nothing (``{}``, a header, every key ``null``) is VALID — nothing it claims is
wrong — and a CI job that runs the checker on a broken exporter's empty output passes.  With them, a required key
that is not claimed (or not checked, after an earlier failure) makes the claim INVALID, naming the key.
"""

from __future__ import annotations

from collections.abc import Sequence

from exactpte.errors import UsageError

from proofs_check.trusted.verify import KEYS, Report

__all__ = ["required_keys", "missing_required", "enforce"]


def required_keys(require: str | None, *, strict: bool) -> list[str]:
    """The contract keys a claim must carry: ``--require a,b`` (each a key of :data:`~proofs_check.trusted.verify.KEYS`), or
    every key with ``strict``; ``UsageError`` naming an unknown key.

    >>> required_keys("rho, h", strict=False), len(required_keys(None, strict=True)) == len(KEYS)
    (['rho', 'h'], True)
    """
    keys = [k.strip() for k in (require or "").split(",") if k.strip()]
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        raise UsageError(f"--require: unknown key(s) {unknown}; the contract's keys: {', '.join(KEYS)}")
    return list(KEYS) if strict else list(dict.fromkeys(keys))


def missing_required(report: Report, required: Sequence[str]) -> list[tuple[str, str]]:
    """``(key, status)`` for each required key the report does not show verified (``ok``): not claimed, or not
    checked after an earlier failure (a failed key is the report's own failure already).

    >>> rep = Report(); rep.results = [("classes", "ok", ""), ("rho", "not claimed", "")]
    >>> missing_required(rep, ["classes", "rho"])
    [('rho', 'not claimed')]
    """
    status = {k: st for k, st, _ in report.results}
    return [(k, status.get(k, "not claimed")) for k in required if status.get(k, "not claimed") not in ("ok", "FAIL")]


def enforce(report: Report, required: Sequence[str]) -> list[str]:
    """Make ``report`` INVALID when a required key is missing (its failure names the first one); the lines to print.

    >>> rep = Report(); rep.results = [("classes", "not claimed", "")]
    >>> enforce(rep, ["classes"]), rep.valid, rep.failure[0]
    (['INVALID: required but not verified: classes (not claimed)'], False, 'classes')
    """
    missing = missing_required(report, required)
    if not missing:
        return []
    if report.valid:
        key, st = missing[0]
        report.valid = False
        report.failure = (key, None, f"required (--require/--strict) but {st}")
    return ["INVALID: required but not verified: " + ", ".join(f"{k} ({st})" for k, st in missing)]
