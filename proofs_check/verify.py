"""A small trusted checker: a claim in the ``exactpte decompose --json`` contract against a chain.

Standard library only (no exactpte, no python-flint, no other proofs_check module), so that
trusting a verdict means trusting this file and Python.  Every claimed quantity is pinned down by
linear equations and cheap graph facts (``docs/verify.md``); each is checked equation by equation
in exact integer arithmetic (every claimed vector over its own common denominator), and the first
failed condition is reported with its key and state.  The claim is judged in its *own* labelling:
any class order, any rotation of phase labels, any anchors.

    python proofs_check/verify.py CLAIM.json CHAIN.json      # exit 0 valid, 1 not, 2 unusable input
"""

from __future__ import annotations

import bz2
import functools
import gzip
import json
import lzma
import math
import re
import sys
from fractions import Fraction
from operator import mul

__all__ = ["verify", "verify_files", "read_chain", "load_json", "Report", "KEYS"]

FORMAT = "exactpte.decomposition/1"
KEYS = ("classes", "transient", "periods", "cyclic_classes", "anchors", "stationary", "class_gain", "basis",
        "g_star", "v_star", "theta", "rho", "h", "psi", "P_inf", "hitting_times")
"""The checked keys, in the order they are checked (a key is checked after those it rests on)."""
NEEDS = {"transient": ("classes",), "periods": ("classes",), "cyclic_classes": ("classes",), "anchors": ("cyclic_classes",),
         "stationary": ("classes",), "class_gain": ("stationary",), "basis": ("anchors",),
         "g_star": ("basis",), "v_star": ("g_star",), "theta": ("g_star",), "rho": ("stationary",),
         "h": ("rho",), "psi": ("rho", "g_star"), "P_inf": ("stationary",), "hitting_times": ("anchors",)}
_PQ = re.compile(r"[+-]?[0-9]+(/[0-9]+)?")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_FAIL = object()  # first argument of the ValueError that carries a failed condition inside this module


def _fail(key, state, message):
    raise ValueError(_FAIL, key, state, message)


class Report:
    """The verdict: per key ``(key, status, detail)`` with status ``ok``, ``FAIL``, ``not claimed`` or
    ``not checked`` (after the first failure nothing more is checked); ``failure`` is
    ``(key, state, message)`` of the first failed condition, or ``None``."""

    def __init__(self):
        self.results, self.failure = [], None

    @property
    def valid(self):
        """True when every claimed condition held (keys left out are listed as ``not claimed``)."""
        return self.failure is None

    def text(self):
        """The verdict table, ending with the first failed condition or ``VALID``."""
        lines = [f"{k:14} {st:11} {d}".rstrip() for k, st, d in self.results]
        if self.failure:
            k, s, m = self.failure
            lines.append(f"INVALID: first failed condition: {k}" + (f" at state {s}" if s is not None else "") + f": {m}")
        else:
            lines.append("VALID: every claimed condition holds" + ("; not claimed: " + ", ".join(
                k for k, st, _ in self.results if st == "not claimed") if any(st == "not claimed" for _, st, _ in self.results) else ""))
        return "\n".join(lines)

    def to_dict(self):
        """JSON-ready form of the verdict."""
        f = self.failure
        return {"valid": self.valid, "failure": f and {"key": f[0], "state": f[1], "message": f[2]},
                "results": [{"key": k, "status": st, "detail": d} for k, st, d in self.results]}


# -- reading ----------------------------------------------------------------------------------------
def load_json(path, *, exact_floats=False):
    """A JSON object from a file (``.gz``/``.xz``/``.bz2`` too).  Duplicate keys, ``NaN`` and ``Infinity`` make it
    unusable (``ValueError``); decimal literals become exact ``Fraction`` (chains) or stay ``float`` (claims, where
    a float is rejected later with its key and state)."""
    opener = {"gz": gzip.open, "xz": lzma.open, "bz2": bz2.open}.get(str(path).rpartition(".")[2], open)

    def pairs(items):
        out = {}
        for k, v in items:
            if k in out:
                raise ValueError(f"{path}: key {k!r} appears twice")
            out[k] = v
        return out

    def constant(name):
        raise ValueError(f"{path}: {name} is not a number (exact values only)")

    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh, object_pairs_hook=pairs, parse_constant=constant,
                             parse_float=Fraction if exact_floats else float)
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected one JSON object")
    return data


def _chain_number(x, where):
    if type(x) is int or type(x) is Fraction:
        return Fraction(x)
    if type(x) is str and (_PQ.fullmatch(x.strip()) or _DECIMAL.fullmatch(x.strip())):
        if not x.strip().endswith("/0"):
            return Fraction(x.strip())
    raise ValueError(f"chain: {where} = {x!r} is not an exact number (integer, 'p/q' or decimal literal)")


def read_chain(data):
    """``(n, rows, r)`` from a chain in exactpte's JSON form (dense ``P`` or sparse ``n`` + ``edges``, and ``r``):
    ``rows[s] = (successors, numerators, q)`` with ``P(s, j) = numerator / q``; ``r = (R, L)`` means ``r = R / L``.
    Raises ``ValueError`` unless the chain is stochastic and well formed."""
    if not isinstance(data, dict) or set(data) - {"P", "n", "edges", "r", "labels"}:
        bad = sorted(set(data) - {"P", "n", "edges", "r", "labels"}) if isinstance(data, dict) else "not an object"
        raise ValueError(f"chain: unexpected {bad}" + (" (a parametric chain: this checker judges rational chains)"
                                                        if "params" in bad else ""))
    if ("P" in data) == ("edges" in data or "n" in data) or "r" not in data:
        raise ValueError("chain: give exactly one of P (dense) or n + edges (sparse), and r")
    succ = []
    if "P" in data:
        P = data["P"]
        if type(P) is not list or not P or any(type(row) is not list or len(row) != len(P) for row in P):
            raise ValueError("chain: P must be a non-empty square list of lists")
        n, succ = len(P), [{j: _chain_number(x, f"P[{i}][{j}]") for j, x in enumerate(row)} for i, row in enumerate(P)]
    else:
        n, edges = data["n"], data["edges"]
        if type(n) is not int or n < 1 or type(edges) is not list:
            raise ValueError("chain: n must be a positive integer and edges a list of [i, j, p]")
        succ = [{} for _ in range(n)]
        for e in edges:
            if type(e) is not list or len(e) != 3 or any(type(v) is not int or not 0 <= v < n for v in e[:2]):
                raise ValueError(f"chain: edge {e!r} is not [i, j, p] with states in 0..{n - 1}")
            if e[1] in succ[e[0]]:
                raise ValueError(f"chain: edge {e[0]} -> {e[1]} given twice")
            succ[e[0]][e[1]] = _chain_number(e[2], f"edge {e[0]} -> {e[1]}")
    rows = []
    for s, row in enumerate(succ):
        row = {j: p for j, p in row.items() if p}
        if any(p < 0 for p in row.values()) or sum(row.values()) != 1:
            raise ValueError(f"chain: row {s} has a negative entry or does not sum to exactly 1")
        q = math.lcm(*(p.denominator for p in row.values()))
        rows.append((list(row), [p.numerator * (q // p.denominator) for p in row.values()], q))
    r = data["r"]
    if type(r) is not list or len(r) != n:
        raise ValueError(f"chain: r must be a list of n = {n} numbers")
    return n, rows, _common([_chain_number(x, f"r[{s}]") for s, x in enumerate(r)])


def _common(fracs):
    L = math.lcm(*{f.denominator for f in fracs}) if fracs else 1
    return [f.numerator * (L // f.denominator) for f in fracs], L


@functools.lru_cache(maxsize=1 << 16)
def _pq(x):
    if _PQ.fullmatch(x):
        p, _, q = x.partition("/")
        if not q or int(q):
            return int(p), int(q or 1)


def _num(x, key, state, what=""):
    if type(x) is int:
        return x, 1
    if type(x) is str and _pq(x):
        return _pq(x)
    kind = "a float (not exact)" if type(x) is float else "not an exact number"
    _fail(key, state, f"{what}entry {x!r} is {kind}: claims hold 'p/q' strings")


def _vec(key, values, length, name=None, states=None, sparse=False):
    """A claimed vector as ``(X, L)``, value ``X[k] / L`` (L the lcm of its denominators).  Entry ``k`` is named
    ``name[k]`` and reported at state ``states[k]`` (``states`` a list, one state for all, or None: state ``k``)."""
    name = name or key
    at = (lambda k: k) if states is None else (lambda k: states) if type(states) is int else states.__getitem__
    if type(values) is not list or len(values) != length:
        _fail(key, states if type(states) is int else None, f"{name}: expected a list of {length} numbers, got "
              + (f"{len(values)} entries" if type(values) is list else type(values).__name__))
    pq = {k: _num(x, key, at(k), f"{name}[{k}]: ") for k, x in enumerate(values) if x != "0"}  # "0": the common case
    scale = dict.fromkeys(q for _, q in pq.values())
    L = math.lcm(*scale)
    scale = {q: L // q for q in scale}
    if sparse:
        return {k: p * scale[q] for k, (p, q) in pq.items() if p}, L
    X = [0] * length
    for k, (p, q) in pq.items():
        X[k] = p * scale[q]
    return X, L


def _ints(key, values, length=None, what=""):
    if type(values) is not list or (length is not None and len(values) != length) or any(type(v) is not int for v in values):
        _fail(key, None, f"{what}expected a list of{'' if length is None else f' {length}'} integers")
    return values


# -- the checker ------------------------------------------------------------------------------------
class _Checker:
    def __init__(self, claim, chain):
        self.c = claim
        self.n, self.rows, self.r = read_chain(chain)
        self.preds = [[] for _ in range(self.n)]
        for s, (cols, _, _) in enumerate(self.rows):
            for j in cols:
                self.preds[j].append(s)

    def rows_hold(self, key, states, spec, what):
        """``Σ ± (x or P x)(s) = 0`` at each state, ``spec = [(sign, (X, L), through_P)]``, in integers times ``q_s``."""
        L = math.lcm(*(v[1] for _, v, _ in spec))
        terms = [(sign * (L // v[1]), v[0], through) for sign, v, through in spec]
        rows = self.rows
        for s in states:
            cols, nums, q = rows[s]
            tot = 0
            for c, X, through in terms:
                tot += c * (sum(map(mul, nums, map(X.__getitem__, cols))) if through else q * X[s])
            if tot:
                _fail(key, s, f"{what} fails (off by {Fraction(tot, q * L)})")

    def in_K(self, key, v, what):
        """``v = Σ_c v(a_c) b_c``: constant on cyclic classes, the basis combination on T (``v ∈ K``)."""
        X, L = v
        for x in self.rec:
            if X[x] != X[self.anchor[self.col[self.cls[x], self.phase[x]]]]:
                _fail(key, x, f"{what} is not constant on cyclic class C_{self.cls[x]},{self.phase[x]} (not in K)")
        at = [X[a] for a in self.anchor]
        for s in self.T:
            if X[s] * self.Lb != sum(at[c] * v for c, v in self.B[s].items()):
                _fail(key, s, f"{what} != sum_c {what}(a_c) b_c(s) (not in K = span b)")

    def equal(self, key, k, v, value, what, state=None):
        X, L = v
        if X[k] * value.denominator != value.numerator * L:
            _fail(key, k if state is None else state, f"{what} = {Fraction(X[k], L)}, expected {value}")

    def search(self, starts, nbrs, allowed):
        seen, todo = set(starts), list(starts)
        while todo:
            for y in nbrs[todo.pop()]:
                if y not in seen and allowed(y):
                    seen.add(y)
                    todo.append(y)
        return seen

    # structure: closed, strongly connected classes; every transient state reaches one; periods by BFS levels
    def check_classes(self, F):
        n, self.cls = self.n, [-1] * self.n
        if type(F) is not list or not F:
            _fail("classes", None, "expected a non-empty list of classes")
        for i, members in enumerate(F):
            for x in _ints("classes", members, what=f"class {i}: ") or _fail("classes", None, f"class {i} is empty"):
                if not 0 <= x < n or self.cls[x] != -1:
                    _fail("classes", x, "state out of range" if not 0 <= x < n else "state listed twice")
                self.cls[x] = i
        self.F, self.period, self.rec = F, [], [x for x in range(n) if self.cls[x] >= 0]
        for i, members in enumerate(F):
            for x in members:
                for y in self.rows[x][0]:
                    if self.cls[y] != i:
                        _fail("classes", x, f"edge {x} -> {y} leaves class {i}: the class is not closed")
            root, level, todo = members[0], {members[0]: 0}, [members[0]]
            for u in todo:  # BFS levels (the class is closed, so every successor is a member)
                for v in self.rows[u][0]:
                    if v not in level:
                        level[v] = level[u] + 1
                        todo.append(v)
            back = self.search([root], self.preds, lambda y: self.cls[y] == i)
            for x in members:
                if x not in level or x not in back:
                    _fail("classes", x, f"class {i} is not strongly connected ({x} and {root} do not reach each other)")
            g = 0
            for u in members:
                for v in self.rows[u][0]:
                    g = math.gcd(g, level[u] + 1 - level[v])
            self.period.append(g)  # the gcd of cycle lengths: the period
        reach = self.search(self.rec, self.preds, lambda y: True)
        self.T = [s for s in range(n) if self.cls[s] < 0]
        for s in self.T:
            if s not in reach:
                _fail("classes", s, "this unclaimed state reaches no claimed class (a closed class is missing)")

    def check_transient(self, T):
        if sorted(_ints("transient", T)) != self.T:
            bad = min(set(T) ^ set(self.T)) if set(T) != set(self.T) else None
            _fail("transient", bad, "classes and transient do not partition the states")

    def check_periods(self, d):
        for i, di in enumerate(_ints("periods", d, len(self.F))):
            if di != self.period[i]:
                _fail("periods", self.F[i][0], f"class {i} has period {self.period[i]} (gcd of cycle lengths), claimed {di}")

    def check_cyclic_classes(self, C):
        if type(C) is not list or len(C) != len(self.F):
            _fail("cyclic_classes", None, f"expected one list of phases per class ({len(self.F)})")
        self.phase, self.pairs = [-1] * self.n, []
        for i, phases in enumerate(C):
            if type(phases) is not list or len(phases) != self.period[i]:
                _fail("cyclic_classes", self.F[i][0], f"class {i} has period {self.period[i]}, so {self.period[i]} cyclic classes")
            for k, members in enumerate(phases):
                for x in _ints("cyclic_classes", members) or _fail("cyclic_classes", None, f"C_{i},{k} is empty"):
                    if not 0 <= x < self.n or self.cls[x] != i or self.phase[x] != -1:
                        _fail("cyclic_classes", x, f"listed in C_{i},{k} but not once a state of class {i}")
                    self.phase[x] = k
                self.pairs.append((i, k))
            for u in self.F[i]:
                if self.phase[u] == -1:
                    _fail("cyclic_classes", u, f"state of class {i} in no cyclic class")
                for v in self.rows[u][0]:
                    if self.phase[v] != (self.phase[u] + 1) % len(phases):
                        _fail("cyclic_classes", u, f"edge {u} -> {v} goes from phase {self.phase[u]} to {self.phase[v]}")
        self.col = {p: c for c, p in enumerate(self.pairs)}
        self.d = [len(p) for p in C]

    def check_anchors(self, A):
        if type(A) is not list or len(A) != len(self.pairs):
            _fail("anchors", None, f"expected N = {len(self.pairs)} triples [class, phase, state]")
        for c, a in enumerate(A):
            (i, k), ok = self.pairs[c], type(a) is list and len(a) == 3 and all(type(v) is int for v in a)
            if not ok or a[:2] != [i, k] or not 0 <= a[2] < self.n or (self.cls[a[2]], self.phase[a[2]]) != (i, k):
                _fail("anchors", a[2] if ok and 0 <= a[2] < self.n else None,
                      f"anchor {c} is {a!r}; expected [{i}, {k}, a state of C_{i},{k}] ((class, phase) order)")
        self.anchor = [a[2] for a in A]

    # stationary distributions: pi P = pi on each class (column sums over the class), sum 1, pi >= 0
    def check_stationary(self, S):
        if type(S) is not list or len(S) != len(self.F):
            _fail("stationary", None, f"expected one distribution per class ({len(self.F)})")
        self.pi, self.gamma, (R, Lr) = [], [], self.r
        for i, members in enumerate(self.F):
            A, L = _vec("stationary", S[i], len(members), f"stationary[{i}]", members)
            pos = {x: m for m, x in enumerate(members)}
            Q = math.lcm(*(self.rows[x][2] for x in members))
            acc = [0] * len(members)
            for m, x in enumerate(members):
                if A[m] < 0:
                    _fail("stationary", x, f"pi_{i}({x}) < 0")
                cols, nums, q = self.rows[x]
                for j, p in zip(cols, nums):
                    acc[pos[j]] += A[m] * p * (Q // q)
            if sum(A) != L:
                _fail("stationary", members[0], f"pi_{i} sums to {Fraction(sum(A), L)}, not 1")
            for m, x in enumerate(members):
                if acc[m] != A[m] * Q:
                    _fail("stationary", x, f"(pi_{i} P)({x}) = {Fraction(acc[m], L * Q)} != pi_{i}({x})")
            self.pi.append((A, L, pos))
            self.gamma.append(Fraction(sum(a * R[x] for a, x in zip(A, members)), L * Lr))

    def check_class_gain(self, G):
        g = _vec("class_gain", G, len(self.F), states=[F[0] for F in self.F])
        for i, members in enumerate(self.F):
            self.equal("class_gain", i, g, self.gamma[i], f"class_gain[{i}] (pi_{i} . r)", members[0])

    # the phase basis: indicators on the classes, P b_{i,k+1} = b_{i,k} on T (unique: T is transient)
    def check_basis(self, B):
        N = len(self.pairs)
        if type(B) is not list or len(B) != self.n:
            _fail("basis", None, f"expected n = {self.n} rows of N = {N} numbers")
        rows = [_vec("basis", row, N, f"basis[{s}]", s, sparse=True) for s, row in enumerate(B)]
        L = self.Lb = math.lcm(*{L for _, L in rows})
        self.B = [{c: x * m for c, x in X.items()} for X, m in ((X, L // Ls) for X, Ls in rows)]  # sparse rows over L
        prev = [self.col[i, (k - 1) % self.d[i]] for i, k in self.pairs]
        for x in self.rec:
            if self.B[x] != {self.col[self.cls[x], self.phase[x]]: L}:
                _fail("basis", x, f"row {x} is not the indicator of its cyclic class C_{self.cls[x]},{self.phase[x]}")
        for s in self.T:
            cols, nums, q = self.rows[s]
            acc = dict.fromkeys(self.B[s], 0)
            for j, p in zip(cols, nums):
                for c, v in self.B[j].items():
                    acc[prev[c]] = acc.get(prev[c], 0) + p * v
            for c, v in acc.items():
                if v != q * self.B[s].get(c, 0):
                    (i, k), d = self.pairs[c], self.d[self.pairs[c][0]]
                    _fail("basis", s, f"b_{i},{k}(s) = sum_j P(s,j) b_{i},{(k + 1) % d}(j) fails (column {c}, "
                          f"off by {Fraction(q * self.B[s].get(c, 0) - v, q * L)})")

    # thm:wellposed: g* in K, v* = 0 at the anchors, r = g* + (I - P) v*
    def check_g_star(self, G):
        if self.c.get("v_star") is None:
            _fail("g_star", None, "cannot be verified without v_star, which is not claimed (thm:wellposed pins the pair)")
        self.g, self.v = _vec("g_star", G, self.n), _vec("v_star", self.c["v_star"], self.n)
        self.in_K("g_star", self.g, "g*")
        for a in self.anchor:
            self.equal("v_star", a, self.v, Fraction(0), "v* at an anchor")
        self.rows_hold("v_star", range(self.n), [(1, self.r, False), (-1, self.g, False), (-1, self.v, False),
                                                   (1, self.v, True)], "r = g* + (I - P) v*")

    def check_v_star(self, V):
        pass  # checked with g_star (the pair is what thm:wellposed pins down)

    def check_theta(self, th):
        t = _vec("theta", th, len(self.pairs), states=self.anchor)
        for c, a in enumerate(self.anchor):
            self.equal("theta", c, t, Fraction(self.g[0][a], self.g[1]), f"theta[{c}] (must be g*(a_{c}) = g*({a}))", a)

    # classical gain: rho = gamma_i on F_i, harmonic on T
    def check_rho(self, rho):
        self.rho = _vec("rho", rho, self.n)
        for x in self.rec:
            self.equal("rho", x, self.rho, self.gamma[self.cls[x]], "rho (the class gain pi_i . r)")
        self.rows_hold("rho", self.T, [(1, self.rho, False), (-1, self.rho, True)], "rho(s) = sum_j P(s,j) rho(j)")

    # normalized bias: (I - P) h = r - rho, pi_i . h = 0 on every class (so P_inf h = 0)
    def check_h(self, h):
        H, L = hv = _vec("h", h, self.n)
        self.rows_hold("h", range(self.n), [(1, hv, False), (-1, hv, True), (-1, self.r, False), (1, self.rho, False)],
                       "(I - P) h = r - rho")
        for i, (A, _, pos) in enumerate(self.pi):
            if sum(a * H[x] for x, a in zip(self.F[i], A)):
                _fail("h", self.F[i][0], f"pi_{i} . h != 0 (P_inf h = 0 fails)")

    # thm:comparison_gain_bias: psi in K, psi's phase values sum to 0 per class (P_inf psi = 0), g* = rho + (I - P) psi
    def check_psi(self, psi):
        pv = _vec("psi", psi, self.n)
        self.in_K("psi", pv, "psi")
        for i, d in enumerate(self.d):
            if sum(pv[0][self.anchor[self.col[i, k]]] for k in range(d)):
                _fail("psi", self.F[i][0], f"the phase values of psi on class {i} do not sum to 0 (P_inf psi != 0)")
        self.rows_hold("psi", range(self.n), [(1, self.g, False), (-1, self.rho, False), (-1, pv, False), (1, pv, True)],
                       "g* = rho + (I - P) psi")

    # P_inf(s, y) = alpha_i(s) pi_i(y): alpha_i = the row mass on F_i, 1/0 on the classes, harmonic on T
    def check_P_inf(self, M):
        if type(M) is not list or len(M) != self.n:
            _fail("P_inf", None, f"expected n = {self.n} rows of n numbers")
        alpha = [[None] * self.n for _ in self.F]
        for s, row in enumerate(M):
            X, L = _vec("P_inf", row, self.n, f"P_inf[{s}]", s)
            for y in self.T:
                if X[y]:
                    _fail("P_inf", s, f"P_inf({s}, {y}) != 0 for the transient state {y}")
            for i, members in enumerate(self.F):
                a = sum(X[y] for y in members)
                A, Lp, pos = self.pi[i]
                if self.cls[s] >= 0 and a != (L if self.cls[s] == i else 0):
                    _fail("P_inf", s, f"row {s} has mass {Fraction(a, L)} on class {i}")
                for y in members:
                    if X[y] * Lp != a * A[pos[y]]:
                        _fail("P_inf", s, f"P_inf({s}, {y}) != alpha_{i}({s}) pi_{i}({y})")
                alpha[i][s] = Fraction(a, L)
        for i, a in enumerate(alpha):
            av = _common(a)
            self.rows_hold("P_inf", self.T, [(1, av, False), (-1, av, True)], f"absorption alpha_{i}(s) = sum_j P(s,j) alpha_{i}(j)")

    # expected hitting times of the anchor set: 0 there, 1 + P tau elsewhere
    def check_hitting_times(self, t):
        tv = _vec("hitting_times", t, self.n)
        for a in self.anchor:
            self.equal("hitting_times", a, tv, Fraction(0), "the hitting time at an anchor")
        others = sorted(set(range(self.n)) - set(self.anchor))
        self.rows_hold("hitting_times", others, [(1, tv, False), (-1, tv, True), (-1, ([1] * self.n, 1), False)],
                       "tau(s) = 1 + sum_j P(s,j) tau(j)")


def verify(claim, chain):
    """Judge ``claim`` (a dict in the JSON contract) against ``chain`` (a dict in exactpte's JSON chain form).

    Returns a :class:`Report`; raises ``ValueError`` (a message, exit 2 in the CLI) for unusable input: an invalid
    chain, a claim that is not an object, a parametric, certified or otherwise foreign format."""
    old = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if old is not None:
        sys.set_int_max_str_digits(0)  # exact claims of large chains carry numbers of many digits
    try:
        return _verify(claim, chain)
    finally:
        if old is not None:
            sys.set_int_max_str_digits(old)


def _verify(claim, chain):
    if not isinstance(claim, dict):
        raise ValueError("claim: expected one JSON object")
    if "params" in claim or "assumptions" in claim:
        raise ValueError("claim: a parametric claim (expressions in parameters); this checker judges rational claims "
                         "only: verify the claim at points of the parameter space")
    if claim.get("format", FORMAT) != FORMAT:
        raise ValueError(f"claim: format {claim['format']!r} is not {FORMAT!r} (certified enclosures and strata are "
                         "not exact rational claims)")
    ck, rep = _Checker(claim, chain), Report()
    ok = set()
    try:
        for k in sorted(set(claim) - set(KEYS) - {"format", "n", "labels"}):
            _fail(k, None, "unknown key: not part of the contract, so nothing it says is verified")
        if "n" in claim and (type(claim["n"]) is not int or claim["n"] != ck.n):
            _fail("n", None, f"claim is for n = {claim['n']!r} states, the chain has {ck.n}")
        labels = claim.get("labels")
        if labels is not None and (type(labels) is not list or len(labels) != ck.n or any(type(x) is not str for x in labels)):
            _fail("labels", None, f"expected null or {ck.n} strings")
        for key in KEYS:
            if key not in claim or claim[key] is None:
                rep.results.append((key, "not claimed", ""))
                continue
            missing = [d for d in NEEDS.get(key, ()) if d not in ok]
            if missing:
                _fail(key, None, f"cannot be verified without {', '.join(missing)}, which "
                      + ("is" if len(missing) == 1 else "are") + " not claimed")
            getattr(ck, "check_" + key)(claim[key])
            ok.add(key)
            rep.results.append((key, "ok", ""))
    except ValueError as e:
        if not e.args or e.args[0] is not _FAIL:
            raise
        rep.failure = e.args[1:]
        done = {k for k, _, _ in rep.results}
        rep.results.append((e.args[1], "FAIL", e.args[3]))
        rep.results += [(k, "not checked" if claim.get(k) is not None else "not claimed", "")
                        for k in KEYS if k not in done and k != e.args[1]]
    return rep


def verify_files(claim_path, chain_path):
    """:func:`verify` on two JSON files (the claim, and a chain in exactpte's JSON form)."""
    return verify(load_json(claim_path), load_json(chain_path, exact_floats=True))


def main(argv=None):
    """``python verify.py CLAIM CHAIN [--json]``: exit 0 valid, 1 not, 2 unusable input."""
    args = sys.argv[1:] if argv is None else list(argv)
    paths = [a for a in args if a != "--json"]
    if len(paths) != 2:
        print("usage: verify.py CLAIM.json CHAIN.json [--json]", file=sys.stderr)
        return 2
    try:
        rep = verify_files(*paths)
    except ValueError as e:
        print(f"verify: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(rep.to_dict(), indent=1) if "--json" in args else rep.text())
    return 0 if rep.valid else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
