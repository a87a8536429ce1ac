"""A small trusted checker (issue #25): a claim in the ``exactpte decompose --json`` contract against a chain.

Standard library only: trusting a verdict means trusting this file and Python.  Each claimed quantity is pinned
down by linear equations and graph facts (``docs/verify.md``), checked equation by equation in exact integers
(each claimed vector over its own common denominator), in the claim's own labelling (any class order, rotation of
phase labels, anchors); the first failed condition is reported with its key and state.
"""

import collections, functools, gzip, json, math, re, sys, zlib  # noqa: E401  (issue #25 caps this file at 400 lines)
from fractions import Fraction
from operator import mul

__all__ = ["verify", "read_chain", "load_json", "Report", "KEYS"]

FORMAT = "exactpte.decomposition/1"
KEYS = ("classes", "transient", "periods", "cyclic_classes", "anchors", "stationary", "class_gain", "basis",
        "g_star", "v_star", "theta", "rho", "h", "psi", "P_inf", "hitting_times")
"""The checked keys, in the order they are checked (each after the keys it rests on, ``NEEDS``)."""
NEEDS = {"transient": ("classes",), "periods": ("classes",), "cyclic_classes": ("classes",), "anchors": ("cyclic_classes",),
         "stationary": ("classes",), "class_gain": ("stationary",), "basis": ("anchors",), "g_star": ("basis",),
         "v_star": ("g_star",), "theta": ("g_star",), "rho": ("stationary",), "h": ("rho",), "psi": ("rho", "g_star"),
         "P_inf": ("stationary",), "hitting_times": ("anchors",)}
_PQ = re.compile(r"[+-]?[0-9]+(/0*[1-9][0-9]*)?")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?0*([0-9]{1,5}|100000))?")  # as docs/formats.md
_FAIL = object()  # first argument of the ValueError that carries a failed condition inside this module
def _fail(key, state, message):
    raise ValueError(_FAIL, key, state, message)
def _require(ok, key, state, message):
    ok or _fail(key, state, message)

class Report:
    """The verdict: ``results`` lists ``(key, status, detail)`` with status ``ok``, ``FAIL``, ``not claimed`` or
    ``not checked`` (nothing is checked after the first failure); ``failure`` is ``(key, state, message)`` of the
    first failed condition (``state`` None when it is not about one state), or ``None``; ``valid`` is True when every
    claimed condition held (keys left out are ``not claimed``, never held)."""
    def __init__(self):
        self.results, self.failure, self.valid = [], None, True
    def text(self):
        """The verdict table, ending with the first failed condition or ``VALID``."""
        lines, (k, s, m) = [f"{k:14} {st:11} {d}".rstrip() for k, st, d in self.results], self.failure or (0, 0, 0)
        absent = ", ".join(k for k, st, _ in self.results if st == "not claimed")
        return "\n".join(lines + [f"INVALID: first failed condition: {k}" + ("" if s is None else f" at state {s}") + f": {m}"
                                  if self.failure else "VALID: every claimed condition holds" + (absent and f"; not claimed: {absent}")])

# -- reading ------------------------------------------------------------------------------------------------------
def _unique(items):
    if len(dict(items)) != len(items):
        raise ValueError(f"a key appears twice in one object: {sorted(k for k, c in collections.Counter(k for k, _ in items).items() if c > 1)}")
    return dict(items)
def load_json(path, *, exact_floats=False):
    """A JSON object from a file (``.gz`` too), else ``ValueError`` (a key twice, nesting too deep).  Decimal literals become
    exact ``Fraction`` (chains; exponents up to +-100000) or ``float`` (claims: a float, NaN, Infinity fails by key and state)."""
    try:
        with (gzip.open if str(path).endswith(".gz") else open)(path, "rt", encoding="utf-8-sig") as fh:
            data = json.load(fh, object_pairs_hook=_unique, parse_float=_decimal if exact_floats else float,
                             parse_int=lambda s: int(s) if len(s) <= 4000 else s)  # longer: kept as a 'p' string
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as e:
        raise ValueError(f"{path}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path}: {'nested too deeply' if isinstance(e, RecursionError) else e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected one JSON object")
    return data
def _decimal(s):  # a decimal literal of a chain file, exactly; an exponent of 10^9 digits would take hours to expand
    if len(s) > 10**6 or not _DECIMAL.fullmatch(s):
        raise ValueError(f"the decimal literal {s[:30]} has more than 10^6 digits or an exponent beyond +-100000")
    return Fraction(s)
def _chain_number(x, where):
    if type(x) in (int, Fraction) or (type(x) is str and len(x) <= 10**6 and (_PQ.fullmatch(x) or _DECIMAL.fullmatch(x))):
        return Fraction(x)
    raise ValueError(f"chain: {where} = {x!r:.60} is not an exact number (an integer, 'p/q' or a decimal literal, 10^6 digits at most)")
def read_chain(data):
    """``(n, rows, r)`` from a chain in exactpte's JSON form (dense ``P`` or sparse ``n`` + ``edges``, and ``r``):
    ``rows[s] = (successors, numerators, q)`` with ``P(s, j) = numerator / q``, and ``r = (R, L)`` meaning ``R / L``.
    Raises ``ValueError`` unless the chain is well formed and stochastic."""
    extra = sorted(set(data) - {"P", "n", "edges", "r", "labels"}) if isinstance(data, dict) else ["(not an object)"]
    if extra:
        raise ValueError(f"chain: unexpected {extra}" + (" (a parametric chain; rational chains only)" if "params" in extra else ""))
    if {k for k in ("P", "n", "edges") if k in data} not in ({"P"}, {"n", "edges"}) or "r" not in data:
        raise ValueError("chain: give exactly one of P (dense) or n + edges (sparse), and r")
    if "P" in data:
        P = data["P"]
        if type(P) is not list or not P or any(type(row) is not list or len(row) != len(P) for row in P):
            raise ValueError("chain: P must be a non-empty square list of lists")
        n, succ = len(P), [{j: _chain_number(x, f"P[{i}][{j}]") for j, x in enumerate(row)} for i, row in enumerate(P)]
    else:
        n, edges = data["n"], data["edges"]
        if type(n) is not int or n < 1 or type(edges) is not list or n > len(edges):
            raise ValueError("chain: n must be a positive integer, at most the number of edges (a list of [i, j, p])")
        succ = [{} for _ in range(n)]
        for e in edges:
            if type(e) is not list or len(e) != 3 or any(type(v) is not int or not 0 <= v < n for v in e[:2]) or e[1] in succ[e[0]]:
                raise ValueError(f"chain: edge {e!r} is not [i, j, p] with states in 0..{n - 1}, or is given twice")
            succ[e[0]][e[1]] = _chain_number(e[2], f"edge {e[0]} -> {e[1]}")
    rows = []
    for s, row in enumerate({j: p for j, p in row.items() if p} for row in succ):
        if any(p < 0 for p in row.values()) or sum(row.values()) != 1:
            raise ValueError(f"chain: row {s} has a negative entry or does not sum to exactly 1")
        q = math.lcm(*(p.denominator for p in row.values()))
        rows.append((list(row), [p.numerator * (q // p.denominator) for p in row.values()], q))
    if type(data["r"]) is not list or len(data["r"]) != n:
        raise ValueError(f"chain: r must be a list of n = {n} numbers")
    return n, rows, _common([_chain_number(x, f"r[{s}]") for s, x in enumerate(data["r"])])
SIZE_FACTOR, _BUDGET = 32, [0]  # _BUDGET[0]: the size budget of the running verify() in bits
"""The size budget of a claim is ``2^16 + SIZE_FACTOR x`` the chain's bits (n + the bits of each row's denominator and of
each reward): a longer number or common denominator is not judged (``ValueError``), so that a small hostile claim cannot
make the checker multiply out, say, n distinct 300-digit denominators.  Valid claims stay far below it (docs/verify.md)."""
_OVER = "beyond the size budget (raise it: verify(..., size_factor=), proofs-check verify --size-factor): not judged"
def _lcm(qs, key=None):
    L = 1
    for q in qs:
        if (L := math.lcm(L, q)).bit_length() > _BUDGET[0] and key:
            raise ValueError(f"claim: {key}: a common denominator of more than {_BUDGET[0]} bits, {_OVER}")
    return L
def _common(fracs, key=None):
    L = _lcm({f.denominator for f in fracs}, key)
    return [f.numerator * (L // f.denominator) for f in fracs], L
@functools.lru_cache(maxsize=4096)
def _pq(x):  # a 'p/q' string as (p, q), else None
    return (int(x.partition("/")[0]), int(x.partition("/")[2] or 1)) if _PQ.fullmatch(x) else None
def _num(x, key, state, name):
    if type(x) is str and len(x) > _BUDGET[0]:
        raise ValueError(f"claim: {key}: {name} has {len(x)} characters, more than the {_BUDGET[0]} bits {_OVER}")
    if type(x) is int or (type(x) is str and _pq(x)):
        return (x, 1) if type(x) is int else _pq(x)
    _fail(key, state, f"{name} = {x!r:.60} is {'a float (not exact)' if type(x) is float else 'not an exact number'}: "
                      "claims hold 'p/q' strings")
def _vec(key, values, length, name=None, states=None, sparse=False):
    """A claimed vector as ``(X, L)``, values ``X[k] / L`` (``L`` the lcm of its denominators), or ``({k: X[k]}, L)``
    without zeros when ``sparse``.  Entry ``k`` is called ``name[k]`` and reported at state ``states[k]`` (``states``
    a list, one state for every entry, or None: state ``k``)."""
    name, at = name or key, (lambda k: k) if states is None else (lambda k: states) if type(states) is int else states.__getitem__
    if type(values) is not list or len(values) != length:
        _fail(key, states if type(states) is int else None, f"{name}: expected a list of {length} numbers, got "
              + (f"{len(values)} entries" if type(values) is list else type(values).__name__))
    pq = {k: _num(x, key, at(k), f"{name}[{k}]") for k, x in enumerate(values) if x != "0"}  # "0" is the common entry
    L = _lcm({q for _, q in pq.values()}, key)
    scale = {q: L // q for q in {q for _, q in pq.values()}}
    X = {k: p * scale[q] for k, (p, q) in pq.items() if p}
    return (X, L) if sparse else ([X.get(k, 0) for k in range(length)], L)
def _ints(key, values, length=None, what=""):
    if type(values) is not list or (length is not None and len(values) != length) or any(type(v) is not int for v in values):
        _fail(key, None, f"{what}expected a list of{'' if length is None else f' {length}'} integers")
    return values

# -- the checks: one method per key, run in the order of KEYS -----------------------------------------------------
class _Checker:
    def __init__(self, claim, chain):
        self.c, (self.n, self.rows, self.r) = claim, read_chain(chain)
        self.preds = [[] for _ in range(self.n)]
        for s, j in ((s, j) for s, (cols, _, _) in enumerate(self.rows) for j in cols):
            self.preds[j].append(s)
    def rows_hold(self, key, states, spec, what):
        """``Σ ± (x or P x)(s) = 0`` at each state, ``spec = [(sign, (X, L), through_P)]``, in integers times ``q_s``."""
        L = math.lcm(*(v[1] for _, v, _ in spec))
        terms = [(sign * (L // v[1]), v[0], through) for sign, v, through in spec]
        for s in states:
            cols, nums, q = self.rows[s]
            tot = sum(c * (sum(map(mul, nums, map(X.__getitem__, cols))) if through else q * X[s]) for c, X, through in terms)
            if tot:
                _fail(key, s, f"{what} fails (off by {Fraction(tot, q * L)})")
    def in_K(self, key, v, what):
        """``v = Σ_c v(a_c) b_c`` (``v ∈ K = span b``): constant on cyclic classes, the basis combination on T."""
        X, L = v
        for x in self.rec:
            if X[x] != X[self.anchor[self.col[self.cls[x], self.phase[x]]]]:
                _fail(key, x, f"{what} is not constant on the cyclic class C_{self.cls[x]},{self.phase[x]} (so not in K)")
        at = [Fraction(X[a], L) for a in self.anchor]  # in lowest terms: small numbers times the basis' big ones
        Q = math.lcm(*(f.denominator for f in at))
        at, QLb = [f.numerator * (Q // f.denominator) for f in at], Q * self.Lb
        for s in self.T:
            if X[s] * QLb != L * sum(at[c] * b for c, b in self.B[s].items()):
                _fail(key, s, f"{what}(s) != sum_c {what}(a_c) b_c(s) (not in K = span b)")
    def equal(self, key, k, v, value, what, state=None):
        if v[0][k] * value.denominator != value.numerator * v[1]:
            _fail(key, k if state is None else state, f"{what} = {Fraction(v[0][k], v[1])}, expected {value}")
    def search(self, starts, allowed):
        """The states that reach ``starts`` through ``allowed`` states (graph search backwards)."""
        seen, todo = set(starts), list(starts)
        while todo:
            for y in self.preds[todo.pop()]:
                if y not in seen and allowed(y):
                    seen.add(y), todo.append(y)
        return seen
    # structure: closed strongly connected classes, every other state reaches one; periods from BFS levels
    def check_classes(self, F):
        n, self.cls, self.F, self.period = self.n, [-1] * self.n, F, []
        _require(type(F) is list and F, "classes", None, "expected a non-empty list of classes")
        for i, members in enumerate(F):
            for x in _ints("classes", members, what=f"class {i}: ") or _fail("classes", None, f"class {i} is empty"):
                if not 0 <= x < n or self.cls[x] != -1:
                    _fail("classes", x, "state out of range" if not 0 <= x < n else "state listed twice")
                self.cls[x] = i
        for i, members in enumerate(F):
            level, todo = {members[0]: 0}, [members[0]]
            for u in todo:  # BFS levels
                for v in self.rows[u][0]:
                    if self.cls[v] != i:
                        _fail("classes", u, f"edge {u} -> {v} leaves class {i}: the class is not closed")
                    if v not in level:
                        level[v] = level[u] + 1
                        todo.append(v)
            back = self.search([members[0]], lambda y: self.cls[y] == i)
            for x in members:
                if x not in level or x not in back:
                    _fail("classes", x, f"class {i} is not strongly connected ({x} and {members[0]} do not reach each other)")
            self.period.append(functools.reduce(math.gcd, (level[u] + 1 - level[v] for u in members for v in self.rows[u][0])))
        self.rec, self.T = [x for x in range(n) if self.cls[x] >= 0], [s for s in range(n) if self.cls[s] < 0]
        reach = self.search(self.rec, lambda y: True)
        for s in self.T:
            if s not in reach:
                _fail("classes", s, "this state, in no claimed class, reaches none (a closed class is missing)")
    def check_transient(self, T):
        _require(sorted(_ints("transient", T)) == self.T, "transient", min(set(T) ^ set(self.T), default=None),
                 "classes and transient do not partition the states")
    def check_periods(self, d):
        for i, di in enumerate(_ints("periods", d, len(self.F))):
            _require(di == self.period[i], "periods", self.F[i][0], f"class {i} has period {self.period[i]} (gcd of its cycle lengths), not {di}")
    def check_cyclic_classes(self, C):
        _require(type(C) is list and len(C) == len(self.F), "cyclic_classes", None, f"expected a list of phases per class ({len(self.F)})")
        self.phase, self.pairs, self.d = [-1] * self.n, [], self.period
        for i, phases in enumerate(C):
            _require(type(phases) is list and len(phases) == self.d[i], "cyclic_classes", self.F[i][0],
                     f"class {i} has period {self.d[i]}, so {self.d[i]} cyclic classes")
            for k, members in enumerate(phases):
                for x in _ints("cyclic_classes", members) or _fail("cyclic_classes", None, f"C_{i},{k} is empty"):
                    if not 0 <= x < self.n or self.cls[x] != i or self.phase[x] != -1:
                        _fail("cyclic_classes", x, f"listed in C_{i},{k} but not a state of class {i} listed once")
                    self.phase[x] = k
                self.pairs.append((i, k))
            for u, v in ((u, v) for u in self.F[i] for v in self.rows[u][0]):
                if self.phase[u] == -1 or self.phase[v] != (self.phase[u] + 1) % self.d[i]:
                    _fail("cyclic_classes", u, f"state of class {i} in no cyclic class" if self.phase[u] == -1 else
                          f"edge {u} -> {v} goes from phase {self.phase[u]} to phase {self.phase[v]}")
        self.col = {p: c for c, p in enumerate(self.pairs)}
    def check_anchors(self, A):
        _require(type(A) is list and len(A) == len(self.pairs), "anchors", None, f"expected N = {len(self.pairs)} triples [class, phase, state]")
        for c, a in enumerate(A):
            (i, k), ok = self.pairs[c], type(a) is list and len(a) == 3 and all(type(v) is int for v in a) and 0 <= a[2] < self.n
            if not ok or a[:2] != [i, k] or (self.cls[a[2]], self.phase[a[2]]) != (i, k):
                _fail("anchors", a[2] if ok else None, f"anchor {c} is {a!r}; expected [{i}, {k}, a state of C_{i},{k}] "
                      "(one per cyclic class, in (class, phase) order)")
        self.anchor = [a[2] for a in A]
    # stationary distributions: pi_i P = pi_i on each class (column sums over the class), sum 1, pi_i >= 0
    def check_stationary(self, S):
        _require(type(S) is list and len(S) == len(self.F), "stationary", None, f"expected one distribution per class ({len(self.F)})")
        self.pi, self.gamma, (R, Lr) = [], [], self.r
        for i, members in enumerate(self.F):
            (A, L), pos = _vec("stationary", S[i], len(members), f"stationary[{i}]", members), {x: m for m, x in enumerate(members)}
            Q, acc = math.lcm(*(self.rows[x][2] for x in members)), [0] * len(members)
            for m, x in enumerate(members):
                cols, nums, q = self.rows[x]
                for j, p in zip(cols, nums):
                    acc[pos[j]] += A[m] * p * (Q // q)
            for m, x in enumerate(members):
                if A[m] < 0 or acc[m] != A[m] * Q:
                    _fail("stationary", x, f"pi_{i}({x}) < 0" if A[m] < 0 else f"(pi_{i} P)({x}) = {Fraction(acc[m], L * Q)} != pi_{i}({x})")
            _require(sum(A) == L, "stationary", members[0], f"pi_{i} sums to {Fraction(sum(A), L)}, not 1")
            self.pi.append((A, L))
            self.gamma.append(Fraction(sum(a * R[x] for a, x in zip(A, members)), L * Lr))
    def check_class_gain(self, G):
        g = _vec("class_gain", G, len(self.F), states=[F[0] for F in self.F])
        for i, members in enumerate(self.F):
            self.equal("class_gain", i, g, self.gamma[i], f"class_gain[{i}] (pi_{i} . r)", members[0])
    # def:main_b: on the classes the indicators of the cyclic classes; on T, b_{i,k} = P b_{i,k+1} (lem:shift_b)
    def check_basis(self, B):
        N = len(self.pairs)
        _require(type(B) is list and len(B) == self.n, "basis", None, f"expected n = {self.n} rows of N = {N} numbers")
        rows = [_vec("basis", row, N, f"basis[{s}]", s, sparse=True) for s, row in enumerate(B)]
        L = self.Lb = _lcm({L for _, L in rows}, "basis")
        self.B = [{c: x * m for c, x in X.items()} for X, m in ((X, L // Ls) for X, Ls in rows)]  # sparse rows over L
        prev = [self.col[i, (k - 1) % self.d[i]] for i, k in self.pairs]
        for x in self.rec:
            if self.B[x] != {self.col[self.cls[x], self.phase[x]]: L}:
                _fail("basis", x, f"row {x} is not the indicator of its cyclic class C_{self.cls[x]},{self.phase[x]}")
        for s in self.T:
            (cols, nums, q), acc = self.rows[s], dict.fromkeys(self.B[s], 0)
            for j, p in zip(cols, nums):
                for c, v in self.B[j].items():
                    acc[prev[c]] = acc.get(prev[c], 0) + p * v
            for c, v in acc.items():
                if v != q * self.B[s].get(c, 0):
                    (i, k), d = self.pairs[c], self.d[self.pairs[c][0]]
                    _fail("basis", s, f"b_{i},{k}(s) = sum_j P(s,j) b_{i},{(k + 1) % d}(j) fails (column {c}, "
                          f"off by {Fraction(q * self.B[s].get(c, 0) - v, q * L)})")
    # thm:wellposed: g* in K, v* = 0 at the anchors, r = g* + (I - P) v*; theta = g*(anchors)
    def check_g_star(self, G):
        _require(self.c.get("v_star") is not None, "g_star", None, "cannot be verified without v_star, not claimed (thm:wellposed pins the pair)")
        self.g, self.v = _vec("g_star", G, self.n), _vec("v_star", self.c["v_star"], self.n)
        self.in_K("g_star", self.g, "g*")
        for a in self.anchor:
            self.equal("v_star", a, self.v, Fraction(0), "v* at an anchor")
        self.rows_hold("v_star", range(self.n), [(1, self.r, 0), (-1, self.g, 0), (-1, self.v, 0), (1, self.v, 1)], "r = g* + (I - P) v*")
    check_v_star = lambda self, V: None  # checked with g_star: the pair is what thm:wellposed pins down  # noqa: E731
    def check_theta(self, th):
        t = _vec("theta", th, len(self.pairs), states=self.anchor)
        for c, a in enumerate(self.anchor):
            self.equal("theta", c, t, Fraction(self.g[0][a], self.g[1]), f"theta[{c}] (must be g*(a_{c}) = g*({a}))", a)
    # the classical gain: rho = gamma_i on F_i, harmonic on T; the bias: (I - P) h = r - rho, pi_i . h = 0 (P_inf h = 0)
    def check_rho(self, rho):
        self.rho = _vec("rho", rho, self.n)
        for x in self.rec:
            self.equal("rho", x, self.rho, self.gamma[self.cls[x]], "rho (the class gain pi_i . r)")
        self.rows_hold("rho", self.T, [(1, self.rho, 0), (-1, self.rho, 1)], "rho(s) = sum_j P(s,j) rho(j)")
    def check_h(self, h):
        hv = _vec("h", h, self.n)
        self.rows_hold("h", range(self.n), [(1, hv, 0), (-1, hv, 1), (-1, self.r, 0), (1, self.rho, 0)], "(I - P) h = r - rho")
        for i, (A, _) in enumerate(self.pi):
            _require(sum(a * hv[0][x] for x, a in zip(self.F[i], A)) == 0, "h", self.F[i][0], f"pi_{i} . h != 0 (so P_inf h != 0)")
    # thm:comparison_gain_bias: psi in K, its phase values sum to 0 on each class (P_inf psi = 0), g* = rho + (I - P) psi
    def check_psi(self, psi):
        pv = _vec("psi", psi, self.n)
        self.in_K("psi", pv, "psi")
        for i, d in enumerate(self.d):
            _require(sum(pv[0][self.anchor[self.col[i, k]]] for k in range(d)) == 0, "psi", self.F[i][0],
                     f"the phase values of psi on class {i} do not sum to 0 (so P_inf psi != 0)")
        self.rows_hold("psi", range(self.n), [(1, self.g, 0), (-1, self.rho, 0), (-1, pv, 0), (1, pv, 1)], "g* = rho + (I - P) psi")
    # P_inf(s, y) = alpha_i(s) pi_i(y): alpha_i (the row's mass on F_i) is 1 on F_i, 0 on other classes, harmonic on T
    def check_P_inf(self, M):
        _require(type(M) is list and len(M) == self.n, "P_inf", None, f"expected n = {self.n} rows of n numbers")
        alpha = [[None] * self.n for _ in self.F]
        for s, row in enumerate(M):
            X, L = _vec("P_inf", row, self.n, f"P_inf[{s}]", s)
            for y in (y for y in self.T if X[y]):
                _fail("P_inf", s, f"P_inf({s}, {y}) != 0 for the transient state {y}")
            for i, members in enumerate(self.F):
                a, alpha[i][s] = sum(X[y] for y in members), Fraction(sum(X[y] for y in members), L)
                if self.cls[s] >= 0 and a != (L if self.cls[s] == i else 0):
                    _fail("P_inf", s, f"row {s} has mass {alpha[i][s]} on class {i}")
                for y, p in zip(members, self.pi[i][0]):
                    if X[y] * self.pi[i][1] != a * p:
                        _fail("P_inf", s, f"P_inf({s}, {y}) != alpha_{i}({s}) pi_{i}({y})")
        for i, a in enumerate(alpha):
            self.rows_hold("P_inf", self.T, [(1, _common(a, "P_inf"), 0), (-1, _common(a, "P_inf"), 1)], f"alpha_{i}(s) = sum_j P(s,j) alpha_{i}(j)")
    # expected hitting times of the anchor set: 0 there, 1 + P tau elsewhere
    def check_hitting_times(self, t):
        tv = _vec("hitting_times", t, self.n)
        for a in self.anchor:
            self.equal("hitting_times", a, tv, Fraction(0), "the hitting time at an anchor")
        others = sorted(set(range(self.n)) - set(self.anchor))
        self.rows_hold("hitting_times", others, [(1, tv, 0), (-1, tv, 1), (-1, ([1] * self.n, 1), 0)], "tau(s) = 1 + sum_j P(s,j) tau(j)")

def verify(claim, chain, *, size_factor=SIZE_FACTOR):
    """Judge ``claim`` (a dict in the JSON contract) against ``chain`` (a dict in exactpte's JSON chain form).

    Returns a :class:`Report`.  Raises ``ValueError`` (a message; exit 2 in the CLI) for unusable input: an invalid
    chain, a claim that is not an object, a parametric claim, another format (certified enclosures, strata)."""
    if not isinstance(claim, dict):
        raise ValueError("claim: expected one JSON object")
    if "params" in claim or "assumptions" in claim:
        raise ValueError("claim: a parametric claim (expressions in parameters): this checker judges rational claims only; "
                         "verify the decomposition at points of the parameter space")
    if claim.get("format", FORMAT) != FORMAT:
        raise ValueError(f"claim: format {claim['format']!r} is not {FORMAT!r} (certified enclosures and strata are not "
                         "exact rational claims)")
    old = getattr(sys, "get_int_max_str_digits", lambda: None)()
    if old is not None:
        sys.set_int_max_str_digits(0)  # exact claims about large chains carry numbers of many digits
    rep, ok = Report(), set()
    try:
        ck = _Checker(claim, chain)
        _BUDGET[0] = 2**16 + size_factor * (ck.n + ck.r[1].bit_length() + sum(abs(R).bit_length() for R in ck.r[0])
                                            + sum(q.bit_length() for _, _, q in ck.rows))
        for k in sorted(set(claim) - set(KEYS) - {"format", "n", "labels"}, key=str):
            _fail(k, None, "unknown key: not part of the contract, so nothing it says is verified")
        _require(claim.get("n", ck.n) == ck.n and type(claim.get("n", 0)) is int, "n", None,
                 f"the claim is for n = {claim.get('n')!r} states, the chain has {ck.n}")
        lab = claim.get("labels")
        _require(lab is None or type(lab) is list and len(lab) == ck.n and all(type(x) is str for x in lab), "labels", None, f"expected null or {ck.n} strings")
        for key in KEYS:
            if claim.get(key) is None:
                rep.results.append((key, "not claimed", ""))
                continue
            missing = [d for d in NEEDS.get(key, ()) if d not in ok]
            _require(not missing, key, None, f"cannot be verified without {', '.join(missing)}, not claimed")
            getattr(ck, "check_" + key)(claim[key])
            ok.add(key)
            rep.results.append((key, "ok", ""))
    except ValueError as e:
        if not e.args or e.args[0] is not _FAIL:
            raise
        done, rep.failure, rep.valid = {k for k, _, _ in rep.results}, e.args[1:], False
        rep.results.append((e.args[1], "FAIL", e.args[3]))
        rep.results += [(k, "not checked" if claim.get(k) is not None else "not claimed", "")
                        for k in KEYS if k not in done and k != e.args[1]]
    finally:
        if old is not None:
            sys.set_int_max_str_digits(old)
    return rep

if __name__ == "__main__":  # pragma: no cover  (python verify.py CLAIM.json CHAIN.json: exit 0 valid, 1 not, 2 unusable)
    try:
        _report = verify(load_json(sys.argv[1]), load_json(sys.argv[2], exact_floats=True))
    except (ValueError, IndexError) as e:  # IndexError: a file missing from the command line
        print(f"verify: error: {e if isinstance(e, ValueError) else 'two files needed'} (usage: python verify.py CLAIM.json CHAIN.json)", file=sys.stderr)
        sys.exit(2)
    print(_report.text())
    sys.exit(0 if _report.valid else 1)
