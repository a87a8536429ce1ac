"""A tester's solver run on a whole corpus, every output judged: the engine of ``exactpte conform``.

The tester writes an **adapter**, a Python file with a function ``solve(P, r)`` that calls their
library and returns its output as a dict in the library's own names (QuantEcon's
``recurrent_classes``, pymdptoolbox's ``V``, exactpte's ``rho``...).  :func:`load_adapter` runs that
file (on purpose: it is the tester's own code; nothing else here reads a file as code), and
:class:`Conformance` calls ``solve`` on every chain of a corpus (:mod:`~exactpte.oracle.corpora`) and
judges each output as ``exactpte check`` judges a candidate (:func:`~exactpte.oracle.candidates.read_candidate`,
then :func:`~exactpte.oracle.comparison.compare`, peers' native names read by :mod:`~exactpte.oracle.peers`).

- An output that disagrees is a failure with a **cause**: the first cause the oracle's diagnoses
  name (:func:`~exactpte.oracle.causes.cause_of`), else none, and the failing keys.  An adapter
  that raises is a failure carrying its exception (cause ``raised TypeError``); an output that
  cannot be read is one too (cause ``unreadable output``).  The run goes on.
- Failures are grouped by cause (by the failing keys when no cause is named); each group keeps its
  **smallest counterexample**: the smallest failing chain of the group, shrunk
  (:mod:`~exactpte.oracle.shrinking`) while the same cause still fires.

The problems are chains here (:data:`CHAINS`, a :class:`Kind`); another kind of problem (MDPs, judged
by their own oracle) plugs in as another :class:`Kind` with its own corpora.

Examples
--------
>>> import numpy as np
>>> from exactpte.oracle.corpora import corpus_cases
>>> def solve(P, r):   # the gain as P^200 r: wrong on periodic classes
...     return {"rho": np.linalg.matrix_power(P, 200) @ r}
>>> report = Conformance(solve).run(corpus_cases("exhaustive:2"))
>>> report.judged, report.agreed, [(g.cause, g.count, g.problem.n) for g in report.groups]
(10, 9, [('power-iteration value on a periodic class', 1, 2)])
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from exactpte.errors import CandidateError, UsageError
from exactpte.model.chain import MarkovRewardProcess
from exactpte.oracle.candidates import read_candidate
from exactpte.oracle.causes import cause_of
from exactpte.oracle.comparison import compare
from exactpte.oracle.corpora import Case
from exactpte.oracle.findings import Report
from exactpte.oracle.shrinking import chain_size, shrink, smaller_chains
from exactpte.results.decomposition import Decomposition, decompose

__all__ = ["Conformance", "ConformanceReport", "FailureGroup", "Verdict", "Kind", "ChainKind", "CHAINS", "Tolerance",
           "load_adapter", "split_adapter", "plain_output", "write_failures", "cached", "INPUTS", "CACHE"]

T = TypeVar("T")

INPUTS = ("float", "exact", "sparse")
"""How ``solve`` gets the chain: float64 numpy arrays, ``Fraction`` lists, or a scipy CSR matrix and a float array."""

SHRINK_BUDGET = 200
"""Calls of the adapter spent shrinking one group's counterexample, at most."""


@dataclass(frozen=True)
class Tolerance:
    """How outputs are judged: as ``exactpte check`` with ``--atol``, ``--rtol``, ``--up-to-gauge``, ``--strict``."""

    atol: float = 1e-9
    rtol: float = 0.0
    up_to_gauge: bool = False
    strict: bool = False

    def options(self) -> str:
        """The ``exactpte check`` options that judge as this does (`` --atol 1e-09 --rtol 0.0 ...``)."""
        return (f" --atol {self.atol!r} --rtol {self.rtol!r}" + " --up-to-gauge" * self.up_to_gauge
                + " --strict" * self.strict)


class Kind(Protocol[T]):
    """One kind of problem a corpus holds (chains: :class:`ChainKind`): how ``solve`` gets it, how its output
    is judged, how it shrinks and how it is written."""

    name: str
    problem_file: str

    def arguments(self, problem: T, inputs: str) -> tuple[Any, ...]:
        """The arguments of ``solve`` for ``problem`` (fresh objects: ``solve`` may change them)."""

    def judge(self, output: dict[str, Any], problem: T, tolerance: Tolerance) -> Report:
        """The oracle's report on ``output`` (:class:`~exactpte.errors.CandidateError` when it cannot be read)."""

    def size(self, problem: T) -> tuple[int, ...]:
        """The order of smallness: fewest states first, then smallest denominators."""

    def smaller(self, problem: T) -> Iterator[T]:
        """Candidates for :func:`~exactpte.oracle.shrinking.shrink`."""

    def states(self, problem: T) -> int:
        """The number of states."""

    def to_dict(self, problem: T) -> dict[str, Any]:
        """The problem as the file ``exactpte decompose`` (or the kind's own command) reads."""

    def exact(self, problem: T) -> dict[str, Any]:
        """The exact answer (the JSON contract)."""

    def reproduce(self, tolerance: Tolerance) -> str:
        """The command that judges a written ``output.json`` against the written problem file again."""


K = TypeVar("K")
V = TypeVar("V")

CACHE = 256
"""Exact answers a kind keeps (a run meets each corpus problem once; the cache serves shrinking, whose problems are small)."""


def cached(store: dict[K, V], key: K, make: Callable[[K], V], *, limit: int = CACHE) -> V:
    """``store[key]``, made by ``make(key)`` on first use; the oldest entry dropped past ``limit`` entries."""
    value = store.get(key)
    if value is None:
        if len(store) >= limit:
            store.pop(next(iter(store)))
        value = store[key] = make(key)
    return value


class ChainKind:
    """Chains (:class:`~exactpte.MarkovRewardProcess`) judged by :func:`~exactpte.oracle.comparison.compare`; the
    exact decomposition of each chain computed once (:func:`cached`)."""

    name = "chain"
    problem_file = "chain.json"

    def __init__(self) -> None:
        self._decompositions: dict[MarkovRewardProcess, Decomposition] = {}

    def decomposition(self, chain: MarkovRewardProcess) -> Decomposition:
        """The exact decomposition of ``chain``, from the cache when it is there."""
        return cached(self._decompositions, chain, decompose)

    def arguments(self, problem: MarkovRewardProcess, inputs: str) -> tuple[Any, ...]:
        """``(P, r)``: float64 arrays (``float``), ``Fraction`` lists (``exact``), or a CSR matrix and an array (``sparse``)."""
        from exactpte.model.to_float import float_matrix, float_sparse_matrix, to_floats

        if inputs == "exact":
            return ([[Fraction(int(q.p), int(q.q)) for q in row] for row in problem.dense()],
                    [Fraction(int(x.p), int(x.q)) for x in problem.r])
        P = float_sparse_matrix(problem).copy() if inputs == "sparse" else float_matrix(problem)
        return P, to_floats(problem.r)

    def judge(self, output: dict[str, Any], problem: MarkovRewardProcess, tolerance: Tolerance) -> Report:
        """:func:`~exactpte.oracle.comparison.compare` on the output read as ``exactpte check`` reads a candidate."""
        return compare(read_candidate(output, source="the adapter's output"), self.decomposition(problem),
                       atol=tolerance.atol, rtol=tolerance.rtol, up_to_gauge=tolerance.up_to_gauge, strict=tolerance.strict)

    def size(self, problem: MarkovRewardProcess) -> tuple[int, ...]:
        """:func:`~exactpte.oracle.shrinking.chain_size`."""
        return chain_size(problem)

    def smaller(self, problem: MarkovRewardProcess) -> Iterator[MarkovRewardProcess]:
        """:func:`~exactpte.oracle.shrinking.smaller_chains`."""
        return smaller_chains(problem)

    def states(self, problem: MarkovRewardProcess) -> int:
        """``problem.n``."""
        return problem.n

    def to_dict(self, problem: MarkovRewardProcess) -> dict[str, Any]:
        """The chain file (dense: ``{"P": ..., "r": ...}``) ``exactpte decompose`` reads."""
        from exactpte.io.json import chain_to_dict

        return chain_to_dict(problem, sparse=False)

    def exact(self, problem: MarkovRewardProcess) -> dict[str, Any]:
        """``exactpte decompose --json`` of the chain."""
        return self.decomposition(problem).to_dict()

    def reproduce(self, tolerance: Tolerance) -> str:
        """``exactpte check output.json --chain chain.json`` with the run's tolerances."""
        return f"exactpte check output.json --chain chain.json{tolerance.options()}"


CHAINS = ChainKind()
"""The chain kind (one cache of decompositions shared by every run of the process)."""


@dataclass(frozen=True)
class Verdict:
    """The judgement of one output: ``ok``; else the ``cause`` (``None`` when none is named) and the failing
    ``keys``; ``detail`` (the report's table, or the exception); ``output`` (JSON-ready)."""

    ok: bool
    cause: str | None = None
    keys: tuple[str, ...] = ()
    detail: str = ""
    output: Any = None
    report: Report | None = None

    @property
    def group(self) -> str:
        """What failures are grouped by: the cause, else the failing keys."""
        return self.cause if self.cause is not None else "mismatch: " + ", ".join(self.keys)


def _verdict(report: Report, output: Any) -> Verdict:
    failing = report.failing
    if not failing and report.ok:
        return Verdict(True, output=output, report=report)
    causes = [c for f in failing if (c := cause_of(f.diagnosis)) is not None]
    return Verdict(False, causes[0] if causes else None, tuple(f.key for f in failing), report.table(), output, report)


def _exception_text(error: BaseException) -> str:
    """``Type: message (at file.py:line, in function)``, on one line: the innermost frame of real source."""
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (at {os.path.basename(error.filename or '?')}:{error.lineno})"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith("<")]
    place = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}, in {frames[-1].name})" if frames else ""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}{place}" if message else f"{type(error).__name__}{place}"


def plain_output(value: Any) -> Any:
    """An adapter's output as plain JSON-ready Python: numpy arrays and tuples as lists, numpy scalars as Python
    numbers, sets as sorted lists, ``Fraction`` as ``"p/q"``, NaN and infinities as ``"nan"``, ``"inf"``,
    ``"-inf"`` (which the oracle reads back, and never lets agree), a sparse matrix as dense rows.

    Examples
    --------
    >>> import numpy as np
    >>> plain_output({"rho": np.array([0.5, np.nan]), "classes": [{1, 0}], "g": Fraction(1, 3)})
    {'rho': [0.5, 'nan'], 'classes': [[0, 1]], 'g': '1/3'}
    """
    if isinstance(value, Mapping):
        return {str(k): plain_output(v) for k, v in value.items()}
    if hasattr(value, "toarray") and hasattr(value, "nnz"):  # a scipy sparse matrix
        value = value.toarray()
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy arrays and scalars
        value = value.tolist()
    if isinstance(value, (set, frozenset)):
        try:
            value = sorted(value)
        except TypeError:
            value = list(value)
    if isinstance(value, (list, tuple)):
        return [plain_output(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, Fraction):
        return str(value)
    return value


@dataclass
class FailureGroup(Generic[T]):
    """The failures of one cause (or of the same failing keys, when no cause is named): how many, which cases,
    and the smallest counterexample (``problem``, its ``verdict``, the ``exact`` answer)."""

    cause: str | None
    keys: tuple[str, ...]
    count: int
    cases: list[str]
    problem: T
    verdict: Verdict
    shrink_calls: int = 0
    exact: dict[str, Any] = field(default_factory=dict)


@dataclass
class ConformanceReport(Generic[T]):
    """A whole run: ``judged`` outputs, ``agreed`` of them, the failure ``groups`` (largest first)."""

    judged: int
    agreed: int
    groups: list[FailureGroup[T]]
    kind: Kind[T]
    corpora: tuple[str, ...] = ()
    inputs: str = "float"
    seconds: float = 0.0
    not_judged: tuple[str, ...] = ()
    tolerance: Tolerance = Tolerance()

    @property
    def ok(self) -> bool:
        """Whether every output agreed."""
        return self.agreed == self.judged

    def to_dict(self) -> dict[str, Any]:
        """``{"judged", "agreed", "failures": [{"cause", "keys", "count", "smallest", "output", ...}], ...}``."""
        return {"judged": self.judged, "agreed": self.agreed, "failures": [self._group_dict(g) for g in self.groups],
                "corpora": list(self.corpora), "inputs": self.inputs, "kind": self.kind.name,
                "seconds": round(self.seconds, 3), "not_judged": list(self.not_judged),
                "tolerance": {"atol": self.tolerance.atol, "rtol": self.tolerance.rtol, "up_to_gauge": self.tolerance.up_to_gauge}}

    def _group_dict(self, g: FailureGroup[T]) -> dict[str, Any]:
        return {"cause": g.cause, "keys": list(g.keys), "count": g.count, "smallest": self.kind.to_dict(g.problem),
                "output": g.verdict.output, "states": self.kind.states(g.problem), "cases": g.cases[:20],
                "detail": g.verdict.detail, "exact": g.exact, "shrink_calls": g.shrink_calls}

    def text(self) -> str:
        """The report as text: the counts, then each group with its smallest counterexample."""
        lines = [f"judged {self.judged} outputs ({', '.join(self.corpora)}; {self.inputs} inputs): "
                 f"{self.agreed} agree, {self.judged - self.agreed} fail"]
        for g in self.groups:
            lines += ["", f"FAIL {g.count} x {g.verdict.group}" + (f"  (keys: {', '.join(g.keys)})" if g.cause and g.keys else "")]
            more = f", ... ({g.count - 5} more)" if g.count > 5 else ""
            lines.append(f"  cases: {', '.join(g.cases[:5])}{more}")
            n = self.kind.states(g.problem)
            lines.append(f"  smallest counterexample ({n} state{'s' * (n != 1)}, {g.shrink_calls} shrink calls):")
            lines += ["    " + f"{k} = {_compact(v).replace(chr(34), '')}" for k, v in self.kind.to_dict(g.problem).items()]
            if g.verdict.output is not None:
                lines.append(f"  output: {_compact(g.verdict.output)}")
            lines += ["    " + line for line in g.verdict.detail.splitlines()]
        if self.not_judged:
            lines += ["", f"not judged (keys the oracle does not know): {', '.join(self.not_judged)}"]
        lines += ["", "all agree" if self.ok else f"{self.judged - self.agreed} of {self.judged} DISAGREE"]
        return "\n".join(lines)


def _compact(value: Any, limit: int = 400) -> str:
    import json

    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit] + " ..."


@dataclass
class Conformance(Generic[T]):
    """``solve`` run on problems of ``kind`` (chains by default), each output judged under ``tolerance``;
    ``inputs``: how ``solve`` gets a chain (:data:`INPUTS`)."""

    solve: Callable[..., Any]
    kind: Kind[T] = CHAINS  # type: ignore[assignment]
    inputs: str = "float"
    tolerance: Tolerance = Tolerance()
    budget: int = SHRINK_BUDGET
    _smallest: dict[str, tuple[T, Verdict, int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.inputs not in INPUTS:
            raise UsageError(f"inputs must be one of {', '.join(INPUTS)}, got {self.inputs!r}")

    def verdict(self, problem: T) -> Verdict:
        """Call ``solve`` on ``problem`` and judge its output (an exception of ``solve`` is a failure carrying it)."""
        try:
            output = self.solve(*self.kind.arguments(problem, self.inputs))
        except (Exception, SystemExit) as e:  # the tester's code: whatever it raises is its failure, and the run goes on
            return Verdict(False, f"raised {type(e).__name__}", (), _exception_text(e))
        plain = plain_output(output)
        try:
            return _verdict(self.kind.judge(plain, problem, self.tolerance), plain)
        except CandidateError as e:
            return Verdict(False, "unreadable output", (), str(e), plain)

    def smallest(self, problem: T, verdict: Verdict) -> tuple[T, Verdict, int]:
        """The smallest problem reached from the failing ``problem`` on which the same cause (or the same failing keys)
        fires, its verdict, and the calls spent; remembered per cause, so a cause is shrunk once."""
        known = self._smallest.get(verdict.group)
        if known is not None and self.kind.size(known[0]) <= self.kind.size(problem):
            return known
        last = [verdict]  # the verdict of the last candidate that failed so: the one shrink ends on

        def fails(candidate: T) -> bool:
            v = self.verdict(candidate)
            if not v.ok and v.group == verdict.group:
                last.append(v)
                return True
            return False

        small, calls = shrink(problem, fails, size=self.kind.size, smaller=self.kind.smaller, budget=self.budget)
        result = (small, last[-1], calls)
        self._smallest[verdict.group] = result
        return result

    def run(self, cases: Sequence[Case[T]], *, progress: Callable[[int, int], None] | None = None,
            shrink_failures: bool = True) -> ConformanceReport[T]:
        """Judge ``solve`` on every case; group the failures, each with its smallest counterexample."""
        start = time.perf_counter()
        failed: dict[str, list[tuple[Case[T], Verdict]]] = {}
        agreed = 0
        not_judged: dict[str, None] = {}
        for done, case in enumerate(cases, 1):
            v = self.verdict(case.problem)
            if v.report is not None:
                not_judged.update(dict.fromkeys(v.report.not_judged))
            if v.ok:
                agreed += 1
            else:
                failed.setdefault(v.group, []).append((case, v))
            if progress is not None:
                progress(done, len(cases))
        groups = [self._group(members, shrink_failures) for members in failed.values()]
        groups.sort(key=lambda g: (-g.count, g.verdict.group))
        return ConformanceReport(len(cases), agreed, groups, self.kind, tuple(dict.fromkeys(c.corpus for c in cases)),
                                 self.inputs, time.perf_counter() - start, tuple(not_judged), self.tolerance)

    def _group(self, members: list[tuple[Case[T], Verdict]], shrink_failures: bool) -> FailureGroup[T]:
        case, v = min(members, key=lambda m: self.kind.size(m[0].problem))
        problem, verdict, calls = self.smallest(case.problem, v) if shrink_failures else (case.problem, v, 0)
        keys = tuple(dict.fromkeys(k for _, m in members for k in m.keys))
        return FailureGroup(v.cause, keys, len(members), [c.name for c, _ in members], problem, verdict, calls,
                            self.kind.exact(problem))


def split_adapter(spec: str, default: str = "solve") -> tuple[str, str]:
    """``FILE.py[:function]`` split into the path and the function name (``default`` when none is given).

    Examples
    --------
    >>> split_adapter("adapters/qe.py"), split_adapter("adapters/qe.py:gain")
    (('adapters/qe.py', 'solve'), ('adapters/qe.py', 'gain'))
    """
    path, sep, name = spec.rpartition(":")
    if sep and name.isidentifier() and path:
        return path, name
    return spec, default


def load_adapter(spec: str, *, default: str = "solve") -> Callable[..., Any]:
    """The function ``FILE.py[:function]`` names (``solve`` by default), loaded by running the file.

    This runs the tester's own Python file, as ``python FILE.py`` would (its folder first on the import
    path while it loads): it is the tester's code, given on purpose.  A missing file, a file that fails to
    load, a missing or non-callable function, or one that cannot take two arguments is a
    :class:`~exactpte.errors.UsageError` naming it.

    Examples
    --------
    >>> load_adapter("no/such/adapter.py:solve")
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: adapter no/such/adapter.py: no such file
    """
    path, name = split_adapter(spec, default)
    if not os.path.isfile(path):
        raise UsageError(f"adapter {path}: no such file")
    if not path.endswith(".py"):
        raise UsageError(f"adapter {path}: not a Python file (give FILE.py or FILE.py:function)")
    module_name = "exactpte_adapter_" + "".join(c if c.isalnum() else "_" for c in os.path.abspath(path))
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise UsageError(f"adapter {path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        loader_spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:
        del sys.modules[module_name]
        raise UsageError(f"adapter {path}: loading it raised {_exception_text(e)}") from None
    finally:
        sys.path.remove(folder)
    return _adapter_function(module, path, name)


def _adapter_function(module: Any, path: str, name: str) -> Callable[..., Any]:
    """``module.name``, checked: present, callable, and able to take ``(P, r)``."""
    fn = getattr(module, name, None)
    if fn is None:
        defined = sorted(k for k, v in vars(module).items() if inspect.isfunction(v) and v.__module__ == module.__name__)
        raise UsageError(f"adapter {path} defines no function {name!r}" + (f" (its functions: {', '.join(defined)}; "
                         f"name one as {path}:NAME)" if defined else ""))
    if not callable(fn):
        raise UsageError(f"adapter {path}: {name} is not a function (it is of type {type(fn).__name__})")
    try:
        inspect.signature(fn).bind(None, None)
    except TypeError:
        raise UsageError(f"adapter {path}: {name}{inspect.signature(fn)} cannot be called as {name}(P, r)") from None
    except ValueError:  # a builtin without a signature: called as it is
        pass
    return fn  # type: ignore[no-any-return]


def _slug(text: str) -> str:
    words = "".join(c if c.isalnum() else " " for c in text.lower()).split()
    return "-".join(words)[:60] or "failure"


def write_failures(report: ConformanceReport[Any], folder: str) -> list[str]:
    """Write each group's smallest counterexample into ``folder/NN-cause/``: ``chain.json`` (the kind's
    ``problem_file``: the chain file ``exactpte decompose`` reads), ``output.json`` (the adapter's output on it, which ``exactpte check`` reads),
    ``exact.json`` (the exact answer) and ``verdict.txt`` (the verdict, and the command that repeats it).
    Returns the folders written."""
    import json

    written = []
    for k, g in enumerate(report.groups, 1):
        where = os.path.join(folder, f"{k:02d}-{_slug(g.verdict.group)}")
        os.makedirs(where, exist_ok=True)
        files = {report.kind.problem_file: report.kind.to_dict(g.problem), "exact.json": g.exact}
        if g.verdict.output is not None:
            files["output.json"] = g.verdict.output
        for name, data in files.items():
            with open(os.path.join(where, name), "w", encoding="utf-8") as fh:
                json.dump(data, fh, default=str)
                fh.write("\n")
        again = report.kind.reproduce(report.tolerance) if g.verdict.output is not None else "(the adapter raised)"
        with open(os.path.join(where, "verdict.txt"), "w", encoding="utf-8") as fh:
            fh.write(f"{g.verdict.group}: {g.count} of {report.judged} outputs ({', '.join(report.corpora)})\n"
                     f"first cases: {', '.join(g.cases[:20])}\n\n{g.verdict.detail}\n\nagain: {again}\n")
        written.append(where)
    return written
