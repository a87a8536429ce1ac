"""A statement run once for a whole region, under a guard that records every decision it takes.

A conjecture (``@proofs_check.conjecture``) is ordinary Python over a chain and its decomposition.  On a family it
receives *views* of the symbolic chain and decomposition (:func:`guarded_views`) in which every number is a
:class:`Decided` closed form, and a :class:`Guard` watches every decision the statement's path depends on:

- ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, truth values and ``abs`` are decided for the **whole region**
  (:meth:`~proofs_check.symbolic.region.Region.sign`, :meth:`~proofs_check.symbolic.region.Region.nonzero_certificate`):
  true at every point, false at every point, or *undecided*;
- a division needs its divisor nonzero on the whole region (else undecided: at some point it would divide by zero);
- what has no region-decided answer is refused unless its value is one constant: ``str``/``repr``/``format`` (text),
  ``float``/``int``/``round`` and the other conversions, ``fmpq``'s methods (``numer()``, ...); ``hash`` (so ``set`` and
  ``dict`` keys) is recorded as undecided and answers one value for every closed form that is not constant, so the
  container compares them with ``==`` and the undecided comparison names where a counterexample lies;
- the views expose only what a rational chain and its decomposition answer the same way at every point (``P``,
  ``edges()``, ``r``, ``row``, labels, the structure, every quantity of the decomposition and its methods); the field,
  the parameters and the printed forms are refused;
- identity and type tests (``is`` other than with ``None``/``True``/``False``, ``id``, ``type``, ``isinstance``,
  ``__class__``) cannot be intercepted at run time: :func:`code_hazards` finds them in the statement's own code.

Every refusal and every undecided comparison is *recorded* before the exception is raised, so a statement that
catches the exception still counts as undecided.  Arithmetic and comparisons take the operands ``fmpq`` takes (another
closed form, ``int``, ``fmpz``, ``fmpq``) and answer ``NotImplemented`` otherwise, exactly as ``fmpq`` does, so the
statement takes at every point of the region the path it took here: when no decision was undecided, its answer is
its answer at every point.

Examples
--------
>>> import exactpte
>>> from proofs_check.symbolic.graphs import graph_chain
>>> chain, region = graph_chain(((0, 1), (0,)))
>>> guard = Guard(region)
>>> view_chain, view_dec = guarded_views(exactpte.decompose(chain), guard)
>>> all(x > 0 for x in view_dec.stationary[0]), view_dec.rho[0] == view_dec.rho[1], guard.undecided
(True, True, [])
>>> try:
...     view_dec.h[0] == view_dec.v_star[0]
... except exactpte.UsageError:
...     print(guard.undecided)
['h[0] == v_star[0] is neither true nor false on the whole region']
>>> len({view_dec.rho[0], view_dec.rho[1]}), guard.undecided[1]  # rho is constant on the class: one element, but hashed
(1, 'hash (a set or a dict key) of rho[0] = (-r0 + r1*x0_0 - r1)/(x0_0 - 2), which is not constant on the region')
>>> code_hazards(lambda chain, dec: chain.P is dec.chain.P)
['an identity test (is)']
"""

from __future__ import annotations

import dis
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

import flint

from exactpte import Chain, Decomposition, Structure
from exactpte.errors import UsageError
from exactpte.fields import RationalFunction
from exactpte.results.quantities import COMPUTED

from proofs_check.symbolic.region import Region

__all__ = ["Guard", "Decided", "guarded_views", "decided_views", "code_hazards", "CHAIN_NAMES", "DECOMPOSITION_NAMES", "judged"]

EXACT = (int, flint.fmpz, flint.fmpq)
"""The operands ``fmpq`` takes besides itself (``bool`` is an ``int``); anything else gets ``NotImplemented``, as from ``fmpq``."""

CHAIN_NAMES = frozenset({"n", "P", "r", "edges", "row", "matvec", "labels", "label", "structure", "support", "nnz",
                         "with_reward"})
"""What a statement may read of the chain on a family: what a rational chain answers the same way at every point."""

DECOMPOSITION_NAMES = frozenset({*COMPUTED, "basis_sparse", "P_inf", "hitting_times", "structure", "classes", "periods",
                                 "cyclic_classes", "transient", "N", "n", "anchors", "anchor_list", "chain", "b", "project",
                                 "P_inf_apply", "returns", "return_split", "deviation_apply", "deviation_matrix"})
"""What a statement may read of the decomposition on a family (its text, field and evaluation are refused)."""

_MISSING = object()
_SHARED_HASH = 0x5EED


class Guard:
    """The record of one statement's run on a region: every decision taken (``decisions``), why the run is not
    decided on the whole region (``undecided``, empty when it is), and the names it read (``read``).  ``cache`` maps
    a decision to its answer and may be shared between runs on one region (relabellings meet the same comparisons)."""

    def __init__(self, region: Region, cache: dict[Any, bool | None] | None = None) -> None:
        self.region = region
        self.undecided: list[str] = []
        self.targets: list[RationalFunction] = []
        """Values an undecided decision hinges on (the difference of an undecided comparison, a divisor vanishing
        somewhere): where they vanish is where a counterexample is likeliest (:meth:`Region.points_on`)."""
        self.read: set[str] = set()
        self.decisions = 0
        self._cache: dict[Any, bool | None] = {} if cache is None else cache

    def note(self, why: str) -> None:
        """Record that the run is not decided on the whole region, and let it go on (to find what it hinges on)."""
        if why not in self.undecided:
            self.undecided.append(why)

    def refuse(self, why: str) -> NoReturn:
        """Record that the run is not decided on the whole region, and stop it (a :class:`~exactpte.errors.UsageError`,
        which a statement that catches it cannot undo: the record stands)."""
        if why not in self.undecided:
            self.undecided.append(why)
        raise UsageError(f"not decided on the whole region: {why}")

    def decide(self, op: str, d: RationalFunction, what: Callable[[], str]) -> bool:
        """Whether ``d op 0`` holds on the whole region (``op`` one of ``== != < <= > >=``); refused when it holds at
        some points and fails at others (or no certificate decides it)."""
        self.decisions += 1
        key = (op, str(d.num), str(d.den))
        hit = self._cache.get(key, _MISSING)
        if hit is _MISSING:
            hit = self._cache[key] = self._decide(op, d)
        if hit is None:
            self.targets.append(d)
            self.refuse(f"{what()} is neither true nor false on the whole region")
        return bool(hit)

    def _decide(self, op: str, d: RationalFunction) -> bool | None:
        sign = self.region.sign
        if op in ("==", "!="):
            equal = True if d == 0 else False if self.nonzero(d) else None
            return equal if equal is None or op == "==" else not equal
        # (value, strict) whose sign on the whole region makes the relation hold, and the one that makes it fail
        holds, fails = {"<": ((-d, True), (d, False)), "<=": ((-d, False), (d, True)),
                        ">": ((d, True), (-d, False)), ">=": ((d, False), (-d, True))}[op]
        return True if sign(*holds) is True else False if sign(*fails) is True else None

    def nonzero(self, d: RationalFunction) -> bool:
        """Whether ``d`` vanishes nowhere on the region: every irreducible factor of its numerator certified."""
        if d == 0:
            return False
        region = self.region
        return all(region.nonzero_certificate(g) is not None for g in region.field.irreducible_factors(d.num))

    def divisor(self, d: Any, what: Callable[[], str]) -> None:
        """A division by ``d``: ``ZeroDivisionError`` when ``d`` is zero everywhere (as at every point), refused when
        it vanishes somewhere on the region but not everywhere."""
        if isinstance(d, RationalFunction):
            if d == 0:
                raise ZeroDivisionError("division by a closed form that is zero on the whole region")
            if not self.nonzero(d):
                self.targets.append(d)
                self.refuse(f"a division by {what()}, which vanishes somewhere on the region")
        elif d == 0:
            raise ZeroDivisionError("division by zero")

    def wrap(self, x: Any, name: str = "value") -> Any:
        """``x`` as a statement may see it on a family: closed forms :class:`Decided`, containers element by element,
        the chain and the decomposition as guarded views, plain data as it is; anything else refused."""
        if isinstance(x, RationalFunction):
            return Decided(x, self, name)
        if x is None or isinstance(x, (bool, int, str, flint.fmpz, flint.fmpq, Structure)):
            return x
        if isinstance(x, tuple):
            return tuple(self.wrap(y, f"{name}[{k}]") for k, y in enumerate(x))
        if isinstance(x, list):
            return [self.wrap(y, f"{name}[{k}]") for k, y in enumerate(x)]
        if isinstance(x, Sequence) and not isinstance(x, (str, bytes)):  # exactpte's row views (basis, absorption)
            return tuple(self.wrap(y, f"{name}[{k}]") for k, y in enumerate(x))
        if isinstance(x, dict):
            return {k: self.wrap(v, f"{name}[{k!r}]") for k, v in x.items()}
        if isinstance(x, Decomposition):
            return _View(x, self, "dec", DECOMPOSITION_NAMES)
        if isinstance(x, Chain):
            return _View(x, self, "chain", CHAIN_NAMES)
        if isinstance(x, types.MethodType):
            return self._method(x, name)
        if isinstance(x, Iterator):
            return (self.wrap(y, f"{name} item") for y in x)
        self.refuse(f"{name} is a {type(x).__name__}, which has no region-decided form")

    def _method(self, method: Callable[..., Any], name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                out = method(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})
            except Exception as e:  # exactpte on the family: it may answer differently at points, so never silently
                self.refuse(f"{name}() raised {type(e).__name__}: {e}")
            return self.wrap(out, f"{name}()")

        call.__name__ = name
        return call


def _unwrap(x: Any) -> Any:
    if isinstance(x, Decided):
        return x._f
    if isinstance(x, _View):
        return x._obj
    if isinstance(x, (tuple, list)):
        return type(x)(_unwrap(y) for y in x)
    if isinstance(x, Sequence) and not isinstance(x, (str, bytes)):
        return tuple(_unwrap(y) for y in x)
    if isinstance(x, dict):
        return {k: _unwrap(v) for k, v in x.items()}
    return x


def _text(f: RationalFunction) -> str:
    return f.field.to_text(f)


class Decided:
    """A closed form (a rational function) whose every decision is taken for the whole region of its :class:`Guard`
    (see the module docstring); arithmetic keeps the wrapper, so derived values decide the same way."""

    __slots__ = ("_f", "_guard", "_name")

    def __init__(self, f: RationalFunction, guard: Guard, name: str = "value") -> None:
        self._f, self._guard, self._name = f, guard, name

    # -- what is refused unless it is one constant --------------------------------------------------------
    def _constant(self, what: str) -> flint.fmpq:
        if not self._f.is_constant():
            self._guard.refuse(f"{what} of {self._name} = {_text(self._f)}, which is not constant on the region")
        return self._f.constant_value()

    def __hash__(self) -> int:
        if self._f.is_constant():
            return hash(self._f.constant_value())
        # recorded (the run is undecided), then one hash for every closed form that is not constant: a set or a dict
        # then compares them with ==, and the comparison that is undecided names where a counterexample lies
        self._guard.note(f"hash (a set or a dict key) of {self._name} = {_text(self._f)}, which is not constant on the region")
        return _SHARED_HASH

    def __str__(self) -> str:
        return str(self._constant("text (str)"))

    def __repr__(self) -> str:
        return repr(self._constant("text (repr)"))

    def __format__(self, spec: str) -> str:
        return format(self._constant("text (format)"), spec)

    def __float__(self) -> float:
        return float(self._constant("float()"))

    def __int__(self) -> int:
        return int(self._constant("int()"))

    def __round__(self, ndigits: int | None = None) -> Any:
        value = self._constant("round()")
        return round(value) if ndigits is None else round(value, ndigits)

    def __trunc__(self) -> Any:
        return self._constant("trunc()").__trunc__()

    def __floor__(self) -> Any:
        return self._constant("floor()").__floor__()

    def __ceil__(self) -> Any:
        return self._constant("ceil()").__ceil__()

    def __invert__(self) -> Any:
        value: Any = self._constant("~")
        return value.__invert__()

    def __getattr__(self, name: str) -> Any:  # fmpq's own methods (numer(), floor(), ...): only of a constant
        if name.startswith("_") or not hasattr(flint.fmpq, name):
            raise AttributeError(f"'flint.types.fmpq.fmpq' object has no attribute {name!r}")
        return getattr(self._constant(f".{name}"), name)

    def __copy__(self) -> "Decided":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "Decided":
        return self

    def __reduce__(self) -> NoReturn:
        self._guard.refuse(f"pickling {self._name}")

    # -- arithmetic: the operands fmpq takes ------------------------------------------------------------------
    def _other(self, other: Any) -> Any:
        if isinstance(other, Decided):
            return other._f
        if isinstance(other, (RationalFunction, *EXACT)):
            return other
        return None

    def _new(self, f: RationalFunction, op: str, other: Any = None) -> "Decided":
        name = self._name if other is None else f"({self._name} {op} {_name(other)})"
        return Decided(f, self._guard, name)

    def __add__(self, other: Any) -> Any:
        o = self._other(other)
        return NotImplemented if o is None else self._new(self._f + o, "+", other)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        o = self._other(other)
        return NotImplemented if o is None else self._new(self._f - o, "-", other)

    def __rsub__(self, other: Any) -> Any:
        o = self._other(other)
        return NotImplemented if o is None else self._new(-self._f + o, "-", other)

    def __mul__(self, other: Any) -> Any:
        o = self._other(other)
        return NotImplemented if o is None else self._new(self._f * o, "*", other)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        o = self._other(other)
        if o is None:
            return NotImplemented
        self._guard.divisor(o, lambda: _name(other))
        return self._new(self._f / o, "/", other)

    def __rtruediv__(self, other: Any) -> Any:
        o = self._other(other)
        if o is None:
            return NotImplemented
        self._guard.divisor(self._f, lambda: self._name)
        return Decided(self._f.inverse() * o, self._guard, f"({_name(other)} / {self._name})")

    def __neg__(self) -> "Decided":
        return self._new(-self._f, "-")

    def __pos__(self) -> "Decided":
        return self

    def __pow__(self, e: Any) -> Any:
        if isinstance(e, bool) or not isinstance(e, (int, flint.fmpz)):
            return NotImplemented  # as fmpq: a rational exponent is refused
        e = int(e)
        name, base = f"{self._name}**{e}", self._f
        if e < 0:
            self._guard.divisor(base, lambda: self._name)
            base, e = base.inverse(), -e
        out, square = base.field.one, base
        while e:
            if e & 1:
                out = out * square
            square, e = square * square, e >> 1
        return Decided(out, self._guard, name)

    def __rpow__(self, base: Any) -> Any:
        return base ** self._constant("an exponent")

    def __abs__(self) -> "Decided":
        if self._guard.decide(">=", self._f, lambda: f"the sign of {self._name}"):
            return self
        if self._guard.decide("<=", self._f, lambda: f"the sign of {self._name}"):
            return -self
        self._guard.refuse(f"the sign of {self._name}")

    # -- comparisons, decided on the whole region -------------------------------------------------------------
    def _compare(self, other: Any, op: str) -> Any:
        o = self._other(other)
        if o is None:
            return NotImplemented
        return self._guard.decide(op, self._f - o, lambda: f"{self._name} {op} {_name(other)}")

    def __eq__(self, other: object) -> Any:
        return self._compare(other, "==")

    def __ne__(self, other: object) -> Any:
        return self._compare(other, "!=")

    def __lt__(self, other: Any) -> Any:
        return self._compare(other, "<")

    def __le__(self, other: Any) -> Any:
        return self._compare(other, "<=")

    def __gt__(self, other: Any) -> Any:
        return self._compare(other, ">")

    def __ge__(self, other: Any) -> Any:
        return self._compare(other, ">=")

    def __bool__(self) -> bool:
        return self._guard.decide("!=", self._f, lambda: f"{self._name} != 0 (its truth value)")


def _name(x: Any) -> str:
    return x._name if isinstance(x, Decided) else str(x)


class _View:
    """The chain or the decomposition as a statement sees it on a family: the names a rational chain answers the
    same way at every point, each value wrapped (:meth:`Guard.wrap`); every other name refused."""

    __slots__ = ("_obj", "_guard", "_what", "_names")

    def __init__(self, obj: Any, guard: Guard, what: str, names: frozenset[str]) -> None:
        self._obj, self._guard, self._what, self._names = obj, guard, what, names

    def __getattr__(self, name: str) -> Any:
        if name not in self._names:
            self._guard.refuse(f"{self._what}.{name}: a family answers it differently from a chain (it is not one of "
                               f"{', '.join(sorted(self._names))})")
        self._guard.read.add(name if self._what == "dec" else f"chain.{name}")
        return self._guard.wrap(getattr(self._obj, name), name)

    def __eq__(self, other: object) -> NoReturn:
        self._guard.refuse(f"comparing the {self._what} object itself")

    def __hash__(self) -> NoReturn:
        self._guard.refuse(f"hashing the {self._what} object")

    def __repr__(self) -> str:
        self._guard.refuse(f"the text of the {self._what} object")

    __str__ = __repr__


def guarded_views(dec: Decomposition, guard: Guard) -> tuple[Any, Any]:
    """``(chain, dec)`` of a symbolic decomposition as a statement sees them on a family (the module docstring)."""
    return guard.wrap(dec.chain, "chain"), guard.wrap(dec, "dec")


def decided_views(chain: Any, dec: Decomposition, region: Region) -> tuple[Any, Any]:
    """``(chain, dec)`` as :func:`guarded_views` gives them, under a fresh :class:`Guard` on ``region`` (the name of
    earlier releases; ``chain`` is ``dec.chain``)."""
    return guarded_views(dec, Guard(region))


def judged(out: object) -> str | None:
    """A statement's answer: ``None`` when it holds (``True``, ``None`` or a true value), else what fails (``False``
    reads "does not hold", a string is its own message)."""
    if out is True or out is None:
        return None
    if out is False:
        return "does not hold"
    if isinstance(out, str):
        return out or "does not hold"
    return None if bool(out) else "does not hold"


# -- what cannot be intercepted at run time: identity and type tests in the statement's own code --------------------
HAZARD_NAMES = {"id": "an identity test (id)", "type": "a type test (type)", "isinstance": "a type test (isinstance)",
                "issubclass": "a type test (issubclass)", "__class__": "a type test (__class__)", "is_": "an identity test (is_)",
                "is_not": "an identity test (is_not)", "vars": "introspection (vars)", "__dict__": "introspection (__dict__)",
                "getrefcount": "introspection (getrefcount)", "random": "randomness (random)", "randint": "randomness (randint)",
                "choice": "randomness (choice)", "shuffle": "randomness (shuffle)", "time": "the clock (time)",
                "perf_counter": "the clock (perf_counter)", "monotonic": "the clock (monotonic)", "urandom": "randomness (urandom)"}
"""Names whose use makes a statement's answer depend on how exactpte represents a value, not on the value."""

SINGLETONS = (None, True, False, Ellipsis)


def code_hazards(func: Callable[..., Any]) -> list[str]:
    """What in ``func``'s own code (nested functions, comprehensions, lambdas, and the functions of its file it calls
    by name) answers differently for a closed form than for a number at a point, or differently from one run to the
    next, and cannot be intercepted at run time: ``is`` / ``is not`` other than against ``None``, ``True``, ``False``;
    ``id``, ``type``, ``isinstance``, ``issubclass``, ``__class__``, ``operator.is_``; randomness and the clock; a
    global it writes.  A statement with any of them is checked at points only."""
    code = getattr(func, "__code__", None)
    if code is None:
        return []
    home = code.co_filename
    found: list[str] = []
    seen: set[int] = set()
    stack: list[tuple[types.CodeType, dict[str, Any]]] = [(code, getattr(func, "__globals__", {}))]
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if isinstance(inner, types.FunctionType) and inner.__code__.co_filename == home:
            stack.append((inner.__code__, inner.__globals__))
    while stack:
        co, globs = stack.pop()
        if id(co) in seen:
            continue
        seen.add(id(co))
        instructions = list(dis.get_instructions(co))
        for i, ins in enumerate(instructions):
            if ins.opname == "IS_OP" and not _against_singleton(instructions, i):
                found.append("an identity test (is)")
            elif ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "LOAD_DEREF") and ins.argval in HAZARD_NAMES:
                found.append(HAZARD_NAMES[ins.argval])
            if ins.opname == "STORE_GLOBAL":
                found.append(f"state kept between runs (global {ins.argval})")
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                target = globs.get(ins.argval)
                if isinstance(target, types.FunctionType) and target.__code__.co_filename == home:
                    stack.append((target.__code__, target.__globals__))
            if isinstance(ins.argval, types.CodeType):
                stack.append((ins.argval, globs))
    return list(dict.fromkeys(found))


def _against_singleton(instructions: list[dis.Instruction], i: int) -> bool:
    """Whether one operand of the ``IS_OP`` at ``instructions[i]`` is ``None``/``True``/``False`` loaded as a constant:
    the instruction before it (``x is None``), or the one before the second operand's instructions (``None is d.h``),
    found by their stack effects; anything not read straight (a jump inside an operand) counts as not."""
    def const(ins: dis.Instruction) -> bool:
        return ins.opname == "LOAD_CONST" and any(ins.argval is s for s in SINGLETONS)

    if i and const(instructions[i - 1]):
        return True
    depth, j = 0, i - 1
    while j >= 0:
        ins = instructions[j]
        if ins.is_jump_target or "JUMP" in ins.opname:
            return False
        try:
            depth += dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None)
        except ValueError:
            return False
        if depth == 1:  # instructions[j:i] push the second operand: the first is what comes before
            return j > 0 and const(instructions[j - 1])
        j -= 1
    return False
