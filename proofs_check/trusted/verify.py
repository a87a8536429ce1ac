"""A small trusted checker (issue #25): a claim in the ``exactpte decompose --json`` contract against a chain.  Standard
library only: trusting a verdict means trusting this file and Python.  Each claimed quantity is pinned down by linear equations
and graph facts (``docs/verify.md``), checked equation by equation in exact integers, in the claim's own labelling (any class
order, rotation of phase labels, anchors); the first failed condition is reported with its key and state.  A witness a check
needs that the claim leaves out (``stationary``, ``basis``, ``theta``, ...) is solved for exactly."""

import collections
import decimal
import functools
import gzip
import json
import math
import operator
import os
import re
import sys
import zlib
from fractions import Fraction
from typing import Any, Callable, NoReturn  # JSON values are Any: every check tests what it reads

__all__ = ["verify", "read_chain", "load_json", "Report", "KEYS"]
FORMAT = "exactpte.decomposition/1"
KEYS = (
    "classes",
    "transient",
    "periods",
    "cyclic_classes",
    "anchors",
    "stationary",
    "class_gain",
    "basis",
    "g_star",
    "v_star",
    "theta",
    "rho",
    "h",
    "psi",
    "P_inf",
    "hitting_times",
)  # the order checked; each after what it NEEDS
NEEDS = {
    **dict.fromkeys(
        ("transient", "periods", "cyclic_classes", "stationary", "class_gain", "rho", "h", "P_inf"), "classes"
    ),
    "anchors": "cyclic_classes",
    **dict.fromkeys(("basis", "g_star", "v_star", "theta", "psi", "hitting_times"), "anchors"),
}
_WITNESS = {
    "pi": "stationary",
    "gamma": "gamma",
    "B": "basis",
    "Lb": "basis",
    "theta": "theta",
    "rho": "rho",
    "g": "g_star",
}
_PQ, _NAMED = (
    re.compile(r"[+-]?[0-9]+(/0*[1-9][0-9]*)?"),
    re.compile(r"([+-]?[0-9]+)/(D[0-9]+)"),
)  # "p/q"; "p/D1" (--factored)
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?0*([0-9]{1,5}|100000))?")  # as docs/formats.md
_FAIL = object()  # first argument of the ValueError that carries a failed condition inside this module


def _fail(key: str, state: Any, message: str) -> NoReturn:
    raise ValueError(_FAIL, key, state, message)


def _require(ok: Any, key: str, state: Any, message: str) -> Any:
    return ok or _fail(key, state, message)


def _short(x: object) -> str:
    return t if len(t := str(x)) <= 60 else f"{t[:24]}...{t[-24:]} ({len(t)} characters)"  # numbers in messages


class Report:
    """The verdict: ``results`` lists ``(key, status, detail)``, status ``ok``, ``FAIL``, ``not claimed`` or ``not checked``
    (after the first failure); ``failure`` is ``(key, state or None, message)`` of the first failed condition, or None."""

    def __init__(self) -> None:
        self.results: list[tuple[str, str, str]] = []
        self.failure: tuple[Any, ...] | None = None
        self.valid = True

    def text(self) -> str:
        """The verdict table, ending with the first failed condition or ``VALID``."""
        lines, (k, s, m) = [f"{k:14} {st:11} {d}".rstrip() for k, st, d in self.results], self.failure or (0, 0, 0)
        absent = ", ".join(k for k, st, _ in self.results if st == "not claimed")
        return "\n".join(
            lines
            + [
                f"INVALID: first failed condition: {k}" + ("" if s is None else f" at state {s}") + f": {m}"
                if self.failure
                else "VALID: every claimed condition holds" + (absent and f"; not claimed: {absent}")
            ]
        )


def _unique(items: list[tuple[str, Any]]) -> dict[str, Any]:
    if len(dict(items)) != len(items):
        twice = sorted(k for k, c in collections.Counter(k for k, _ in items).items() if c > 1)
        raise ValueError(f"a key appears twice in one object: {twice}")
    return dict(items)


def load_json(path: str | os.PathLike[str], *, exact_floats: bool = False) -> dict[str, Any]:
    """A JSON object from a file (``.gz`` too), else ``ValueError`` (a key twice, nesting too deep).  Decimal literals become
    exact ``Fraction`` (chains; exponents up to +-100000) or ``float`` (claims: a float, NaN, Infinity fails by key and state)."""
    try:
        with (gzip.open if str(path).endswith(".gz") else open)(path, "rt", encoding="utf-8-sig") as fh:
            if len(text := fh.read(2**31 + 1)) > 2**31:
                raise ValueError("it expands past 2 GiB of text")
        data = json.loads(
            text,
            object_pairs_hook=_unique,
            parse_float=_chain_number if exact_floats else float,
            parse_int=lambda s: int(s) if len(s) <= 4000 else s,
        )  # longer: kept as a 'p' string
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as e:
        raise ValueError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path}: {'nested too deeply' if isinstance(e, RecursionError) else e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected one JSON object")
    return data


def _chain_number(
    x: Any, where: str = "a decimal literal"
) -> Fraction:  # exactly; an exponent of 10^9 digits would take hours to expand
    if type(x) in (int, Fraction) or (
        type(x) is str and len(x) <= 10**6 and (_PQ.fullmatch(x) or _DECIMAL.fullmatch(x))
    ):
        return (
            Fraction(x)
            if type(x) is not str
            else Fraction(decimal.Decimal(x.partition("/")[0])) / Fraction(decimal.Decimal(x.partition("/")[2] or 1))
        )  # no digit limit
    raise ValueError(
        f"chain: {where} = {x!r:.60} is not an exact number (an integer, 'p/q' or a decimal literal: 10^6 digits "
        "at most, an exponent within +-100000)"
    )


def read_chain(data: Any) -> tuple[int, list[tuple[list[int], list[int], int]], tuple[list[int], int]]:
    """``(n, rows, r)`` from a chain in exactpte's JSON form (dense ``P`` or sparse ``n`` + ``edges``, and ``r``), else
    ``ValueError``: ``rows[s] = (successors, numerators, q)``, ``P(s, j) = numerator / q``; ``r = (R, L)`` is ``R / L``."""
    if (
        extra := sorted(set(data) - {"P", "n", "edges", "r", "labels"})
        if isinstance(data, dict)
        else ["(not an object)"]
    ):
        raise ValueError(
            f"chain: unexpected {extra}" + (" (a parametric chain; rational chains only)" if "params" in extra else "")
        )
    if {k for k in ("P", "n", "edges") if k in data} not in ({"P"}, {"n", "edges"}) or "r" not in data:
        raise ValueError("chain: give exactly one of P (dense) or n + edges (sparse), and r")
    if "P" in data:
        if type(P := data["P"]) is not list or not P or any(type(row) is not list or len(row) != len(P) for row in P):
            raise ValueError("chain: P must be a non-empty square list of lists")
        n, succ = len(P), [{j: _chain_number(x, f"P[{i}][{j}]") for j, x in enumerate(row)} for i, row in enumerate(P)]
    else:
        n, edges = data["n"], data["edges"]
        if type(n) is not int or n < 1 or type(edges) is not list or n > len(edges):
            raise ValueError("chain: n must be a positive integer, at most the number of edges (a list of [i, j, p])")
        succ = [{} for _ in range(n)]
        for e in edges:
            if (
                type(e) is not list
                or len(e) != 3
                or any(type(v) is not int or not 0 <= v < n for v in e[:2])
                or e[1] in succ[e[0]]
            ):
                raise ValueError(f"chain: edge {e!r} is not [i, j, p] with states in 0..{n - 1}, or is given twice")
            succ[e[0]][e[1]] = _chain_number(e[2], f"edge {e[0]} -> {e[1]}")
    rows: list[tuple[list[int], list[int], int]] = []
    for s, row in enumerate({j: p for j, p in row.items() if p} for row in succ):
        if any(p < 0 for p in row.values()) or sum(row.values()) != 1:
            raise ValueError(f"chain: row {s} has a negative entry or does not sum to exactly 1")
        q = math.lcm(*(p.denominator for p in row.values()))
        rows.append((list(row), [p.numerator * (q // p.denominator) for p in row.values()], q))
    if (
        type(data["r"]) is not list
        or len(data["r"]) != n
        or (
            (lab := data.get("labels")) is not None
            and (type(lab) is not list or any(type(x) is not str for x in lab) or not len(set(lab)) == len(lab) == n)
        )
    ):
        raise ValueError(f"chain: r must be a list of n = {n} numbers, labels null or n distinct strings")
    return n, rows, _common([_chain_number(x, f"r[{s}]") for s, x in enumerate(data["r"])])


SIZE_FACTOR, _BUDGET, SOLVE_OPS, _DENS = (
    32,
    [0],
    10**6,
    dict[str, int](),
)  # _BUDGET[0]: the size budget of the running verify() in bits; _DENS: its named denominators
"""A claim's size budget: ``2^16 + SIZE_FACTOR x`` the chain's bits (n, each row's denominator, each reward).  A longer number or
common denominator is not judged (``ValueError``): a small hostile claim cannot make the checker multiply out big numbers.  A
witness whose elimination fills in past ``SOLVE_OPS`` steps is not solved (a sparse random 300-state chain takes 1.1e6, 8 s)."""
_OVER = "beyond the size budget (raise it: verify(..., size_factor=), proofs-check verify --size-factor): not judged"


def _lcm(qs: set[int], key: str | None = None) -> int:
    L = 1
    for q in (q for q in qs if L % q):  # a denominator dividing the lcm so far costs a remainder, not a gcd
        if (L := math.lcm(L, q)).bit_length() > _BUDGET[0] and key:
            raise ValueError(f"claim: {key}: a common denominator of more than {_BUDGET[0]} bits, {_OVER}")
    return L


def _common(fracs: list[Any], key: str | None = None) -> tuple[list[int], int]:  # fracs: Fraction or int
    L = _lcm({f.denominator for f in fracs}, key)
    return [f.numerator * (L // f.denominator) for f in fracs], L


@functools.lru_cache(maxsize=4096)
def _pq(x: str) -> tuple[int, int] | None:  # a 'p/q' string as (p, q), else None
    return (int(x.partition("/")[0]), _denominator(x.partition("/")[2] or "1")) if _PQ.fullmatch(x) else None


@functools.lru_cache(maxsize=4096)
def _denominator(q: str) -> int:  # converted once: the entries of a solve share their denominator
    return int(q)


def _named(x: str) -> tuple[int, int] | None:
    """``"p/D1"`` (``--factored``) as ``(p, D1)``: a named denominator is never written out."""
    return (int(m[1]), _DENS[m[2]]) if (m := _NAMED.fullmatch(x)) and m[2] in _DENS else None


def _num(x: Any, key: str, state: Any, name: str) -> tuple[int, int]:
    if type(x) is str and len(x) > _BUDGET[0]:
        raise ValueError(f"claim: {key}: {name} has {len(x)} characters, more than the {_BUDGET[0]} bits {_OVER}")
    if pq := (x, 1) if type(x) is int else (_pq(x) or _named(x)) if type(x) is str else None:
        return pq
    _fail(
        key,
        state,
        f"{name} = {x!r:.60} is {'a float (not exact)' if type(x) is float else 'not an exact number'}: "
        "claims hold 'p/q' strings",
    )


def _vec(
    key: str, values: Any, length: int, name: str | None = None, states: Any = None, sparse: bool = False
) -> tuple[Any, int]:
    """A claimed vector as ``(X, L)``, values ``X[k] / L`` (``L`` the lcm of its denominators), or ``({k: X[k]}, L)`` without
    zeros when ``sparse``; entry ``k`` is ``name[k]``, reported at state ``states[k]`` (a list, one state, or None: ``k``)."""
    name, at = (
        name or key,
        (lambda k: k) if states is None else (lambda k: states) if type(states) is int else states.__getitem__,
    )
    if type(values) is not list or len(values) != length:
        _fail(
            key,
            states if type(states) is int else None,
            f"{name}: expected a list of {length} numbers, got "
            + (f"{len(values)} entries" if type(values) is list else type(values).__name__),
        )
    pq = {k: _num(x, key, at(k), f"{name}[{k}]") for k, x in enumerate(values) if x != "0"}  # "0" is the common entry
    L = _lcm({q for _, q in pq.values()}, key)
    scale = {q: L // q for q in {q for _, q in pq.values()}}
    X = {k: p * scale[q] for k, (p, q) in pq.items() if p}
    return (X, L) if sparse else ([X.get(k, 0) for k in range(length)], L)


def _ints(
    key: str, values: Any, length: int | None = None, what: str = ""
) -> Any:  # values, checked to be a list of ints
    return (
        _require(
            type(values) is list and (length is None or len(values) == length) and all(type(v) is int for v in values),
            key,
            None,
            f"{what}expected a list of{'' if length is None else f' {length}'} integers",
        )
        and values
    )


def _unsolvable(what: str) -> NoReturn:
    raise ValueError(f"claim: solving for what it leaves out {what}: claim stationary, basis, theta, g_star")


def _solve(
    eqs: dict[Any, Any],
) -> dict[
    Any, Fraction | int
]:  # {unknown: Fraction} solving {u: {unknown: coefficient}} (rows sum to 0; None is 1) by sparse elimination
    len(eqs) > 20000 and _unsolvable(f"takes {len(eqs)} unknowns")  # (a 22,000-unknown basis takes 30 s)
    piv: list[tuple[Any, dict[Any, Fraction]]] = []
    x: dict[Any, Fraction | int] = {None: 1}
    ops = 0
    for u, a in eqs.items():
        for w, pa in piv:  # a pivot row holds no earlier pivot: one pass in order clears them all; the fill is bounded
            (f := a.pop(w, 0)) and (ops := ops + len(pa)) > SOLVE_OPS and _unsolvable(
                f"fills in past {SOLVE_OPS} elimination steps"
            )
            for y, c in pa.items() if f else ():
                a[y] = a.get(y, 0) - f * c
        a = {y: c for y, c in a.items() if c}
        f = a.pop(w := u if u in a else next(y for y in a if y is not None))
        piv.append((w, {y: Fraction(c) / f for y, c in a.items()}))
    for w, pa in reversed(piv):
        x[w] = -sum(c * x[y] for y, c in pa.items())
    return x


# -- the checks: one method per key, run in the order of KEYS -----------------------------------------------------
class _Checker:
    def __init__(self, claim: dict[str, Any], chain: Any) -> None:
        self.c, (self.n, self.rows, self.r) = claim, read_chain(chain)
        self.computed: set[str] = set()
        self.preds: list[list[int]] = [[] for _ in range(self.n)]
        for s, j in ((s, j) for s, (cols, _, _) in enumerate(self.rows) for j in cols):
            self.preds[j].append(s)

    def __getattr__(
        self, name: str
    ) -> Any:  # a witness the claim left out (_WITNESS): computed when a check first needs it, never trusted
        if name not in _WITNESS:
            raise AttributeError(name)
        self.computed.add(_WITNESS[name])
        getattr(self, "witness_" + _WITNESS[name])()
        return self.__dict__[name]  # witnesses return None

    def rows_hold(
        self, key: str, states: list[int] | None, spec: list[tuple[int, tuple[Any, int], int]], what: str
    ) -> None:
        """``Σ ± (x or P x)(s) = 0`` at ``states`` (None: all), ``spec = [(sign, (X, L), through_P)]``, in integers."""
        L = math.lcm(*(v[1] for _, v, _ in spec))
        terms = [(sign * (L // v[1]), v[0], through) for sign, v, through in spec]
        for s in range(self.n) if states is None else states:
            cols, nums, q = self.rows[s]
            tot = sum(
                c * (sum(map(operator.mul, nums, map(X.__getitem__, cols))) if through else q * X[s])
                for c, X, through in terms
            )
            tot and _fail(key, s, f"{what} fails (off by {_short(Fraction(tot, q * L))})")

    def in_K(self, key: str, X: list[int], L: int, what: str) -> None:
        """``v = X / L = Σ_c v(a_c) b_c`` (``v ∈ K = span b``): constant on cyclic classes, the basis combination on T."""
        for x in (x for x in self.rec if X[x] != X[self.anchor[self.col[self.cls[x], self.phase[x]]]]):
            _fail(
                key, x, f"{what} is not constant on the cyclic class C_{{{self.cls[x]},{self.phase[x]}}} (so not in K)"
            )
        at, Q = _common(
            [Fraction(X[a], L) for a in self.anchor]
        )  # in lowest terms: small numbers times the basis' big ones
        QL = Q * self.Lb
        for s in (s for s in self.T if X[s] * QL != L * sum(at[c] * b for c, b in self.B[s].items())):
            _fail(key, s, f"{what}(s) != sum_c {what}(a_c) b_c(s) (not in K = span b)")

    def equal(
        self, key: str, k: int, v: tuple[list[int], int], value: Fraction | int, what: str, state: int | None = None
    ) -> None:
        if v[0][k] * value.denominator != value.numerator * v[1]:
            _fail(
                key,
                k if state is None else state,
                f"{what} = {_short(Fraction(v[0][k], v[1]))}, expected {_short(value)}",
            )

    def search(self, starts: list[int], allowed: Callable[[int], bool]) -> set[int]:
        """The states that reach ``starts`` through ``allowed`` states (graph search backwards)."""
        seen, todo = set(starts), list(starts)
        while todo:
            new = [y for y in self.preds[todo.pop()] if y not in seen and allowed(y)]
            seen.update(new)
            todo.extend(new)
        return seen

    # structure: closed strongly connected classes, every other state reaches one; periods from BFS levels
    def check_classes(self, F: Any) -> None:
        n, self.cls, self.F = self.n, [-1] * self.n, F
        self.period: list[int] = []
        _require(type(F) is list and F, "classes", None, "expected a non-empty list of classes")
        for i, members in enumerate(F):
            for x in _ints("classes", members, what=f"class {i}: ") or _fail("classes", None, f"class {i} is empty"):
                _require(
                    0 <= x < n and self.cls[x] == -1, "classes", x, "listed twice" if 0 <= x < n else "out of range"
                )
                self.cls[x] = i
        for i, members in enumerate(F):
            for u, v in ((u, v) for u in members for v in self.rows[u][0] if self.cls[v] != i):
                _fail("classes", u, f"edge {u} -> {v} leaves class {i}: the class is not closed")
            level, todo = {members[0]: 0}, [members[0]]
            for u in todo:  # BFS levels
                new = [v for v in self.rows[u][0] if v not in level]
                level.update(dict.fromkeys(new, level[u] + 1))
                todo.extend(new)
            back = self.search([members[0]], lambda y: self.cls[y] == i)
            for x in (x for x in members if x not in level or x not in back):
                _fail(
                    "classes", x, f"class {i} is not strongly connected ({x} and {members[0]} do not reach each other)"
                )
            self.period.append(
                functools.reduce(math.gcd, (level[u] + 1 - level[v] for u in members for v in self.rows[u][0]))
            )
        self.rec, self.T = [x for x in range(n) if self.cls[x] >= 0], [s for s in range(n) if self.cls[s] < 0]
        reach = self.search(self.rec, lambda y: True)
        for s in (s for s in self.T if s not in reach):
            _fail("classes", s, "this state, in no claimed class, reaches none (a closed class is missing)")

    def check_transient(self, T: Any) -> None:
        _require(
            sorted(_ints("transient", T)) == self.T,
            "transient",
            min(set(T) ^ set(self.T), default=None),
            "classes and transient do not partition the states",
        )

    def check_periods(self, d: Any) -> None:
        for i, di in enumerate(_ints("periods", d, len(self.F))):
            _require(
                di == self.period[i],
                "periods",
                self.F[i][0],
                f"class {i} has period {self.period[i]} (gcd of its cycle lengths), not {di}",
            )

    def check_cyclic_classes(self, C: Any) -> None:
        _require(
            type(C) is list and len(C) == len(self.F),
            "cyclic_classes",
            None,
            f"expected a list of phases per class ({len(self.F)})",
        )
        self.phase, self.d = [-1] * self.n, self.period
        self.pairs: list[tuple[int, int]] = []
        for i, phases in enumerate(C):
            _require(
                type(phases) is list and len(phases) == self.d[i],
                "cyclic_classes",
                self.F[i][0],
                f"class {i} has period {self.d[i]}, so {self.d[i]} cyclic classes",
            )
            for k, members in enumerate(phases):
                for x in _ints("cyclic_classes", members) or _fail("cyclic_classes", None, f"C_{{{i},{k}}} is empty"):
                    _require(
                        0 <= x < self.n and self.cls[x] == i and self.phase[x] == -1,
                        "cyclic_classes",
                        x,
                        f"listed in C_{{{i},{k}}} but not a state of class {i} listed once",
                    )
                    self.phase[x] = k
                self.pairs.append((i, k))
            for u, v in ((u, v) for u in self.F[i] for v in self.rows[u][0]):
                if self.phase[u] == -1 or self.phase[v] != (self.phase[u] + 1) % self.d[i]:
                    _fail(
                        "cyclic_classes",
                        u,
                        f"state of class {i} in no cyclic class"
                        if self.phase[u] == -1
                        else f"edge {u} -> {v} goes from phase {self.phase[u]} to phase {self.phase[v]}",
                    )
        self.col = {p: c for c, p in enumerate(self.pairs)}

    def check_anchors(self, A: Any) -> None:
        _require(
            type(A) is list and len(A) == len(self.pairs),
            "anchors",
            None,
            f"expected N = {len(self.pairs)} triples [class, phase, state]",
        )
        for c, a in enumerate(A):
            (i, k), ok = (
                self.pairs[c],
                type(a) is list and len(a) == 3 and all(type(v) is int for v in a) and 0 <= a[2] < self.n,
            )
            _require(
                ok and a[:2] == [i, k] and (self.cls[a[2]], self.phase[a[2]]) == (i, k),
                "anchors",
                a[2] if ok else None,
                f"anchor {c} is {a!r}; expected [{i}, {k}, a state of C_{{{i},{k}}}] (in (class, phase) order)",
            )
        self.anchor = [a[2] for a in A]

    # stationary distributions: pi_i P = pi_i on each class (column sums over the class), sum 1, pi_i >= 0
    def check_stationary(self, S: Any) -> None:
        _require(
            type(S) is list and len(S) == len(self.F),
            "stationary",
            None,
            f"expected one distribution per class ({len(self.F)})",
        )
        self.pi: list[tuple[list[int], int]] = []
        for i, members in enumerate(self.F):
            (A, L), pos = (
                _vec("stationary", S[i], len(members), f"stationary[{i}]", members),
                {x: m for m, x in enumerate(members)},
            )
            Q, acc = math.lcm(*(self.rows[x][2] for x in members)), [0] * len(members)
            for m, (cols, nums, q) in enumerate(map(self.rows.__getitem__, members)):
                for j, p in zip(cols, nums):
                    acc[pos[j]] += A[m] * p * (Q // q)
            for m, x in ((m, x) for m, x in enumerate(members) if A[m] < 0 or acc[m] != A[m] * Q):
                _fail(
                    "stationary",
                    x,
                    f"pi_{i}({x}) < 0"
                    if A[m] < 0
                    else f"(pi_{i} P)({x}) = {_short(Fraction(acc[m], L * Q))} != pi_{i}({x})",
                )
            _require(sum(A) == L, "stationary", members[0], f"pi_{i} sums to {_short(Fraction(sum(A), L))}, not 1")
            self.pi.append((A, L))

    def check_class_gain(self, G: Any) -> None:
        g = _vec("class_gain", G, len(self.F), states=[F[0] for F in self.F])
        for i, members in enumerate(self.F):
            self.equal("class_gain", i, g, self.gamma[i], f"class_gain[{i}] (pi_{i} . r)", members[0])

    # def:main_b: on the classes the indicators of the cyclic classes; on T, b_{i,k} = P b_{i,k+1} (lem:shift_b)
    def check_basis(self, B: Any) -> None:
        _require(
            type(B) is list and len(B) == self.n,
            "basis",
            None,
            f"expected {self.n} rows of N = {len(self.pairs)} numbers",
        )
        rows = [_vec("basis", row, len(self.pairs), f"basis[{s}]", s, sparse=True) for s, row in enumerate(B)]
        L = self.Lb = _lcm({L for _, L in rows}, "basis")
        self.B: list[dict[int, Fraction | int]] = [
            X if m == 1 else {c: x * m for c, x in X.items()} for X, m in ((X, L // Ls) for X, Ls in rows)
        ]  # sparse rows over L
        prev = [self.col[i, (k - 1) % self.d[i]] for i, k in self.pairs]
        for x in (x for x in self.rec if self.B[x] != {self.col[self.cls[x], self.phase[x]]: L}):
            _fail("basis", x, f"row {x} is not the indicator of its cyclic class C_{{{self.cls[x]},{self.phase[x]}}}")
        for s in self.T:
            (cols, nums, q) = self.rows[s]
            acc: dict[int, Fraction | int] = dict.fromkeys(self.B[s], 0)
            for j, p in zip(cols, nums):
                for c, v in self.B[j].items():
                    acc[prev[c]] = acc.get(prev[c], 0) + p * v
            for c, v in ((c, v) for c, v in acc.items() if v != q * self.B[s].get(c, 0)):
                (i, k), d = self.pairs[c], self.d[self.pairs[c][0]]
                _fail(
                    "basis",
                    s,
                    f"b_{i},{k}(s) = sum_j P(s,j) b_{i},{(k + 1) % d}(j) fails (column {c}, "
                    f"off by {_short(Fraction(q * self.B[s].get(c, 0) - v, q * L))})",
                )

    # thm:wellposed: g* in K, v* = 0 at the anchors, r = g* + (I - P) v* (without v*: g*(a_c) = theta_c, solved); theta
    def check_g_star(self, G: Any) -> None:
        self.g = _vec("g_star", G, self.n)
        self.in_K("g_star", *self.g, "g*")
        for c, a in enumerate(self.anchor if self.c.get("v_star") is None else ()):
            self.equal(
                "g_star",
                a,
                self.g,
                self.theta[c],
                f"g*(a_{c}) (theta_{c}: v* not claimed, solved on the class of a_{c})",
            )
        if self.c.get("v_star") is not None:
            self.check_v_star(self.c["v_star"], pair=True)

    def check_v_star(
        self, V: Any, pair: bool = False
    ) -> None:  # with g_star claimed, checked with it: the pair is what thm:wellposed pins down
        if pair or self.c.get("g_star") is None:
            V = _vec("v_star", V, self.n)
            self.rows_hold("v_star", self.anchor, [(1, V, 0)], "v* = 0 at an anchor")
            self.rows_hold(
                "v_star",
                None,
                [(1, self.r, 0), (-1, self.g, 0), (-1, V, 0), (1, V, 1)],
                "r = g* + (I - P) v* (g* or v*)",
            )

    def check_theta(self, th: Any) -> None:
        t = _vec("theta", th, len(self.pairs), states=self.anchor)
        for c, a in enumerate(self.anchor):
            self.equal("theta", c, t, Fraction(self.g[0][a], self.g[1]), f"theta[{c}] (must be g*(a_{c}) = g*({a}))", a)

    # the classical gain: rho = gamma_i on F_i, harmonic on T; the bias: (I - P) h = r - rho, pi_i . h = 0 (P_inf h = 0)
    def check_rho(self, rho: Any) -> None:
        self.rho = _vec("rho", rho, self.n)
        for x in self.rec:
            self.equal("rho", x, self.rho, self.gamma[self.cls[x]], "rho (the class gain pi_i . r)")
        self.rows_hold("rho", self.T, [(1, self.rho, 0), (-1, self.rho, 1)], "rho(s) = sum_j P(s,j) rho(j)")

    def check_h(self, h: Any) -> None:
        hv = _vec("h", h, self.n)
        self.rows_hold("h", None, [(1, hv, 0), (-1, hv, 1), (-1, self.r, 0), (1, self.rho, 0)], "(I - P) h = r - rho")
        for i, (A, _) in enumerate(self.pi):
            _require(
                sum(a * hv[0][x] for x, a in zip(self.F[i], A)) == 0,
                "h",
                self.F[i][0],
                f"pi_{i} . h != 0 (so P_inf h != 0)",
            )

    # thm:comparison_gain_bias: psi in K, its phase values sum to 0 on each class (P_inf psi = 0), g* = rho + (I - P) psi
    def check_psi(self, psi: Any) -> None:
        pv = _vec("psi", psi, self.n)
        self.in_K("psi", *pv, "psi")
        for i, d in enumerate(self.d):
            _require(
                sum(pv[0][self.anchor[self.col[i, k]]] for k in range(d)) == 0,
                "psi",
                self.F[i][0],
                f"the phase values of psi on class {i} do not sum to 0 (so P_inf psi != 0)",
            )
        self.rows_hold(
            "psi", None, [(1, self.g, 0), (-1, self.rho, 0), (-1, pv, 0), (1, pv, 1)], "g* = rho + (I - P) psi"
        )

    # P_inf(s, y) = alpha_i(s) pi_i(y): alpha_i (the row's mass on F_i) is 1 on F_i, 0 on other classes, harmonic on T
    def check_P_inf(self, M: Any) -> None:
        _require(type(M) is list and len(M) == self.n, "P_inf", None, f"expected n = {self.n} rows of n numbers")
        alpha: list[list[Any]] = [[None] * self.n for _ in self.F]  # Fractions, each set below
        for s, row in enumerate(M):
            X, L = _vec("P_inf", row, self.n, f"P_inf[{s}]", s)
            for y in (y for y in self.T if X[y]):
                _fail("P_inf", s, f"P_inf({s}, {y}) != 0 for the transient state {y}")
            for i, members in enumerate(self.F):
                a, alpha[i][s] = sum(X[y] for y in members), Fraction(sum(X[y] for y in members), L)
                _require(
                    self.cls[s] < 0 or a == L * (self.cls[s] == i),
                    "P_inf",
                    s,
                    f"mass {_short(alpha[i][s])} on class {i}",
                )
                for y in (y for y, p in zip(members, self.pi[i][0]) if X[y] * self.pi[i][1] != a * p):
                    _fail("P_inf", s, f"P_inf({s}, {y}) != alpha_{i}({s}) pi_{i}({y})")
        for i, a in enumerate(alpha):
            self.rows_hold(
                "P_inf",
                self.T,
                [(1, _common(a, "P_inf"), 0), (-1, _common(a, "P_inf"), 1)],
                f"alpha_{i}(s) = sum_j P(s,j) alpha_{i}(j)",
            )

    # expected hitting times of the anchor set: 0 there, 1 + P tau elsewhere
    def check_hitting_times(self, t: Any) -> None:
        tv = _vec("hitting_times", t, self.n)
        self.rows_hold("hitting_times", self.anchor, [(1, tv, 0)], "tau = 0 at an anchor")
        others = sorted(set(range(self.n)) - set(self.anchor))
        self.rows_hold(
            "hitting_times",
            others,
            [(1, tv, 0), (-1, tv, 1), (-1, ([1] * self.n, 1), 0)],
            "tau(s) = 1 + sum_j P(s,j) tau(j)",
        )

    # the witnesses a claim leaves out, solved exactly from the equations that pin them down above
    def walk(
        self, s: int, f: Callable[[int], tuple[Any, Any]], a: Any
    ) -> Any:  # the Counter a minus P(s, j) w at the unknown u, (u, w) = f(j), for each successor j of s
        for (u, w), p in zip(map(f, self.rows[s][0]), self.rows[s][1]):
            a[u] -= Fraction(p * w, self.rows[s][2])
        return a

    def witness_stationary(self) -> None:  # pi_i P = pi_i on each class with pi_i(F_i[0]) = 1, then scaled to sum 1
        eqs: dict[int, Any] = {y: collections.Counter({y: 1}) for y in self.rec}
        for x, j, p in ((x, j, p) for x in self.rec for j, p in zip(*self.rows[x][:2])):
            eqs[j][x] -= Fraction(p, self.rows[x][2])
        sol = _solve({**eqs, **{F[0]: {F[0]: 1, None: -1} for F in self.F}})
        self.pi = [(A, sum(A)) for A, _ in (_common([sol[y] for y in F]) for F in self.F)]

    def witness_gamma(self) -> None:  # gamma_i = pi_i . r
        self.gamma = [
            Fraction(sum(a * self.r[0][x] for a, x in zip(A, F)), L * self.r[1]) for (A, L), F in zip(self.pi, self.F)
        ]

    def witness_basis(self) -> None:  # b_c(s) = sum_j P(s,j) b_next(c)(j) on T (lem:shift_b), in the unknowns (s, c)
        N = len(self.pairs)
        at: Callable[[int], int] = lambda j: self.col[self.cls[j], self.phase[j]]  # the column of a recurrent state
        nxt = [self.col[i, (k + 1) % self.d[i]] for i, k in self.pairs]
        x = _solve(
            {
                (s, c): self.walk(
                    s,
                    lambda j: ((j, nxt[c]), 1) if self.cls[j] < 0 else (None, at(j) == nxt[c]),
                    collections.Counter({(s, c): 1}),
                )
                for s in self.T
                for c in range(N)
            }
        )
        self.Lb, self.B = (
            1,
            [{c: x[s, c] for c in range(N) if x[s, c]} if self.cls[s] < 0 else {at(s): 1} for s in range(self.n)],
        )

    def witness_theta(
        self,
    ) -> None:  # thm:wellposed on the classes: v* - P v* + theta_c = r, v* = 0 at the anchors (unknowns s, (t, c))
        A, (R, Lr) = set(self.anchor), self.r
        at: Callable[[int], tuple[str, int]] = lambda s: ("t", self.col[self.cls[s], self.phase[s]])
        x = _solve(
            {
                at(s) if s in A else s: self.walk(
                    s,
                    lambda j: (j, j not in A),
                    collections.Counter({s: s not in A, at(s): 1, None: -Fraction(R[s], Lr)}),
                )
                for F in self.F
                for s in F
            }
        )
        self.theta = [x["t", c] for c in range(len(self.pairs))]

    def witness_rho(
        self,
    ) -> None:  # rho = P rho on T, gamma_i on F_i: one absorbing solve in |T| unknowns (not through the basis)
        x = _solve(
            {
                s: self.walk(
                    s,
                    lambda j: (j, 1) if self.cls[j] < 0 else (None, self.gamma[self.cls[j]]),
                    collections.Counter({s: 1}),
                )
                for s in self.T
            }
        )
        self.rho = _common([x[s] if self.cls[s] < 0 else self.gamma[self.cls[s]] for s in range(self.n)])

    def witness_g_star(self) -> None:  # g* = sum_c theta_c b_c (lem:anchor_interpolation)
        self.g = _common(
            [Fraction(sum(self.theta[c] * b for c, b in self.B[s].items()), self.Lb) for s in range(self.n)]
        )


def verify(claim: Any, chain: Any, *, size_factor: int = SIZE_FACTOR) -> Report:
    """Judge ``claim`` (a dict in the JSON contract) against ``chain`` (exactpte's JSON chain form): a :class:`Report`.  Unusable
    input (an invalid chain; a claim not an object, parametric or of another format) raises ``ValueError`` (exit 2 in the CLI)."""
    if not isinstance(claim, dict):
        raise ValueError("claim: expected one JSON object")
    if "params" in claim or "assumptions" in claim:
        raise ValueError(
            "claim: a parametric claim: this checker judges rational claims only (check it at parameter points)"
        )
    if claim.get("format", FORMAT) != FORMAT:
        raise ValueError(
            f"claim: format {claim['format']!r} is not {FORMAT!r} (certified enclosures, strata: not exact claims)"
        )
    digits, old = (
        getattr(sys, "set_int_max_str_digits", lambda n: None),
        getattr(sys, "get_int_max_str_digits", lambda: 0)(),
    )
    digits(0)  # no limit while verifying: exact claims about large chains carry numbers of many digits
    rep = Report()
    ok: set[str | None] = {None}  # the keys that held, and None: what classes rests on
    try:
        ck = _Checker(claim, chain)
        _BUDGET[0] = 2**16 + size_factor * (
            ck.n
            + ck.r[1].bit_length()
            + sum(abs(R).bit_length() for R in ck.r[0])
            + sum(q.bit_length() for _, _, q in ck.rows)
        )
        dens = (
            claim["denominators"] if isinstance(claim.get("denominators"), dict) else None
        )  # exactpte --factored: "p/D1" is p / D1's integer
        _DENS.clear()
        _DENS.update(
            (k, _lcm({int(v[: _BUDGET[0] + 1])}, "denominators"))
            for k, v in ((k, str(v)) for k, v in (dens or {}).items())
            if re.fullmatch("[1-9][0-9]*", v)
        )
        for k in sorted(
            set(claim) - set(KEYS) - {"format", "n", "labels"} - ({"denominators"} if dens is not None else set()),
            key=str,
        ):
            _fail(k, None, "unknown key: not part of the contract, so nothing it says is verified")
        _require(
            claim.get("n", ck.n) == ck.n and type(claim.get("n", 0)) is int,
            "n",
            None,
            f"the claim is for n = {claim.get('n')!r} states, the chain has {ck.n}",
        )
        lab = claim.get("labels")
        _require(
            lab is None
            or type(lab) is list
            and len(lab) == ck.n
            and all(type(x) is str for x in lab)
            and chain.get("labels") in (None, lab),
            "labels",
            None,
            f"{_short(lab)}: expected null or {ck.n} strings, the chain's labels if it has them",
        )
        for key in KEYS:
            if claim.get(key) is not None:
                _require(NEEDS.get(key) in ok, key, None, f"cannot be verified without {NEEDS.get(key)}, not claimed")
                getattr(ck, "check_" + key)(claim[key])
                ok.add(key)
            rep.results.append((key, "ok" if key in ok else "not claimed", ""))
    except ValueError as e:
        if not e.args or e.args[0] is not _FAIL:
            raise
        done, rep.failure, rep.valid = {k for k, _, _ in rep.results}, e.args[1:], False
        rep.results += [(e.args[1], "FAIL", e.args[3])] + [
            (k, "not checked" if claim.get(k) is not None else "not claimed", "")
            for k in KEYS
            if k not in done and k != e.args[1]
        ]
    finally:
        digits(old)
    rep.results = [
        (k, st, "solved as a witness" if st == "not claimed" and k in ck.computed else d) for k, st, d in rep.results
    ]
    return rep


if (
    __name__ == "__main__"
):  # pragma: no cover  (python verify.py CLAIM.json CHAIN.json: exit 0 valid, 1 not, 2 unusable)
    try:
        _report = verify(load_json(sys.argv[1]), load_json(sys.argv[2], exact_floats=True))
    except (ValueError, IndexError) as e:  # IndexError: a file missing from the command line
        sys.exit(
            print(
                f"verify: error: {e if isinstance(e, ValueError) else 'two files needed'} (usage: python verify.py CLAIM.json "
                "CHAIN.json)",
                file=sys.stderr,
            )
            or 2
        )
    sys.exit(print(_report.text()) or (0 if _report.valid else 1))
