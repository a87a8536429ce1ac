"""Peers' native outputs, read as they come: each peer's names and shapes mapped to exactpte's keys.

A tester dumps what a peer returns (QuantEcon's ``MarkovChain`` attributes, PyDTMC's properties,
pymdptoolbox's ``RelativeValueIteration`` fields, discreteMarkovChain's ``pi``, Storm's results by
property, networkx's components) and hands it to ``exactpte check`` unchanged.  :data:`NATIVE_NAMES`
says how each name is read; :func:`read_native` applies it before a candidate is judged:

- a name in the table becomes its exactpte key (``communication_classes`` → ``communicating_classes``,
  ``pi`` → ``stationary``, ``V`` → ``h`` judged up to its gauge, ...);
- a Storm property (``R{"r"}=? [ C ]``, ``R=? [ LRA ]``) names the quantity its values are;
- states given by **name** (PyDTMC: ``[["A", "B"], ["C"]]``) are mapped to indices through the
  candidate's own ``states`` list, else the chain's labels;
- the peers' derived quantities (:data:`DERIVED_KEYS`: QuantEcon's scalar ``period``, the lcm of the
  closed classes' periods; ``is_irreducible``, ``is_aperiodic``, the class counts, PyDTMC's
  ``absorbing_states``, ``recurrent_states``, ``transient_classes``) are judged by :func:`derived_findings`;
- any other key is **not judged** and listed as such (a solver's ``time`` or ``iter``); with
  ``strict=True`` it is a :class:`~exactpte.errors.CandidateError` instead.

Examples
--------
>>> native = read_native({"communication_classes": [[0, 1]], "period": 2, "time": 0.1}, labels=None, n=2)
>>> sorted(native.values), native.not_judged
(['communicating_classes', 'period'], ('time',))
>>> read_native({"recurrent_classes": [["b"]]}, labels=("a", "b"), n=2).values["classes"]
[[1]]
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.errors import CandidateError, brief
from exactpte.oracle.findings import Finding

if TYPE_CHECKING:
    from exactpte.graph.structure import Structure

__all__ = ["NativeName", "NATIVE_NAMES", "DERIVED_KEYS", "STORM_PROPERTIES", "NativeCandidate", "read_native",
           "derived_findings", "markdown_table"]


@dataclass(frozen=True)
class NativeName:
    """How one peer's output name is read: its ``shape`` in the peer, the exactpte ``key`` it is judged as."""

    peers: str
    name: str
    shape: str
    key: str
    reading: str = ""
    up_to_gauge: bool = False  # the peer's own normalisation differs from exactpte's: a gauge shift is accepted


NATIVE_NAMES: tuple[NativeName, ...] = (
    NativeName("QuantEcon", "communication_classes", "list of index arrays", "communicating_classes"),
    NativeName("QuantEcon", "recurrent_classes", "list of index arrays", "classes"),
    NativeName("QuantEcon", "period", "int", "period", "the lcm of the closed classes' periods"),
    NativeName("QuantEcon", "stationary_distributions", "k × n array", "stationary",
               "one full-length row per closed class, its stationary distribution: each class exactly once, rows in any order"),
    NativeName("QuantEcon", "cyclic_classes", "flat list of index arrays", "cyclic_classes", "judged as a partition"),
    NativeName("QuantEcon", "is_irreducible", "bool", "is_irreducible"),
    NativeName("QuantEcon", "is_aperiodic", "bool", "is_aperiodic", "the lcm of the closed classes' periods is 1"),
    NativeName("QuantEcon", "num_communication_classes", "int", "num_communication_classes"),
    NativeName("QuantEcon", "num_recurrent_classes", "int", "num_recurrent_classes"),
    NativeName("PyDTMC", "communicating_classes", "list of lists of state names", "communicating_classes",
               "names mapped through `states` or the chain's labels"),
    NativeName("PyDTMC", "recurrent_classes", "list of lists of state names", "classes", "names mapped as above"),
    NativeName("PyDTMC", "transient_classes", "list of lists of state names", "transient_classes", "names mapped as above"),
    NativeName("PyDTMC", "transient_states", "list of state names", "transient", "names mapped as above"),
    NativeName("PyDTMC", "recurrent_states", "list of state names", "recurrent_states", "names mapped as above"),
    NativeName("PyDTMC", "absorbing_states", "list of state names", "absorbing_states", "states with P(s, s) = 1"),
    NativeName("PyDTMC", "is_absorbing", "bool", "is_absorbing", "every closed class a single absorbing state"),
    NativeName("PyDTMC", "cyclic_classes", "flat list of lists of state names (`[]` on a reducible chain)", "cyclic_classes",
               "judged as a partition; `[]` on a reducible chain is PyDTMC's 'not applicable': not claimed"),
    NativeName("PyDTMC", "pi", "list of length-n arrays, one per recurrent class", "stationary",
               "one full-length row per closed class, its stationary distribution: each class exactly once, rows in any order"),
    NativeName("PyDTMC", "steady_states", "list of length-n arrays, one per recurrent class", "stationary",
               "as `pi` (the same value under another name: judged once)"),
    NativeName("PyDTMC", "periods", "list, one per communicating class", "periods", "aligned with communicating_classes"),
    NativeName("PyDTMC", "absorption_probabilities", "absorbing × transient matrix (`absorption_probabilities()`; `null` "
               "unless the chain is absorbing)", "absorption", "PyDTMC lays it out a row per absorbing state: read transposed (a square one too); "
               "`null` is not claimed"),
    NativeName("PyDTMC", "fundamental_matrix", "t × t matrix (`null` unless the chain is absorbing)", "fundamental",
               "`null` is not claimed"),
    NativeName("PyDTMC", "mean_first_passage_times_to", "length-n vector, with `targets` (`null` unless ergodic)", "first_passage",
               "`mean_first_passage_times_to(targets)`; `null` is not claimed"),
    NativeName("PyDTMC", "mfpt_to", "length-n vector, with `targets`", "first_passage", "as `mean_first_passage_times_to`"),
    NativeName("PyDTMC", "states", "list of state names", "labels",
               "used to map names; judged as labels only when the chain has labels"),
    NativeName("pymdptoolbox, mdptoolbox-hiive (RVI)", "V", "tuple of n floats", "h",
               "a bias normalised at a reference state: judged up to ker(I − P)", up_to_gauge=True),
    NativeName("pymdptoolbox, mdptoolbox-hiive (RVI)", "average_reward", "float", "rho", "one gain for every state"),
    NativeName("discreteMarkovChain", "pi", "length-n vector", "stationary",
               "a stationary distribution of the whole chain: any mixture of the classes' π"),
    NativeName("networkx", "strongly_connected_components", "list of sets", "communicating_classes"),
    NativeName("networkx", "attracting_components", "list of sets", "classes"),
    NativeName("networkx", "is_strongly_connected", "bool", "is_irreducible"),
    NativeName("networkx", "number_strongly_connected_components", "int", "num_communication_classes"),
    NativeName("networkx", "number_attracting_components", "int", "num_recurrent_classes"),
)
"""Every peer name read natively (several peers may share a name: then they share its reading)."""

DERIVED_KEYS = ("period", "is_irreducible", "is_aperiodic", "num_communication_classes", "num_recurrent_classes",
                "absorbing_states", "recurrent_states", "transient_classes", "is_absorbing")
"""Peers' quantities derived from the structure, judged by :func:`derived_findings`."""

STORM_PROPERTIES: tuple[tuple[str, str, str], ...] = (
    ('R=? [ C ]  or  R{"name"}=? [ C ]', "total_reward", "expected total reward (cumulative, until absorption)"),
    ('R=? [ LRA ]  or  R{"name"}=? [ LRA ]', "rho", "long-run average reward per state"),
)
"""Storm's results keyed by their property (``get_value_vector()`` of the check result): pattern, key, reading."""

_STORM = ((re.compile(r'^R(\{"[^"]*"\})?(min|max)?=\?\s*\[\s*C\s*\]$'), "total_reward"),
          (re.compile(r'^R(\{"[^"]*"\})?(min|max)?=\?\s*\[\s*LRA\s*\]$'), "rho"))
_BY_NAME: dict[str, NativeName] = {}
for _entry in NATIVE_NAMES:
    _BY_NAME.setdefault(_entry.name, _entry)
_STATE_KEYS = frozenset(("classes", "communicating_classes", "transient", "cyclic_classes", "absorbing_states",
                         "recurrent_states", "transient_classes", "targets"))
"""Keys whose values are states (so may be given by name)."""


@dataclass
class NativeCandidate:
    """A candidate read natively: ``values`` under exactpte's keys, what was renamed, what is not judged,
    and ``sources``: the candidate's own name of each key (errors name it)."""

    values: dict[str, Any]
    readings: list[str] = field(default_factory=list)
    not_judged: tuple[str, ...] = ()
    up_to_gauge: tuple[str, ...] = ()
    sources: dict[str, str] = field(default_factory=dict)


def _storm_key(name: str) -> str | None:
    text = " ".join(name.split())
    return next((key for pattern, key in _STORM if pattern.match(text)), None)


def read_native(candidate: Mapping[str, Any], *, labels: Sequence[str] | None, n: int, known: Sequence[str] = (),
                aliases: Mapping[str, str] | None = None, strict: bool = False) -> NativeCandidate:
    """The candidate under exactpte's keys (``known``: the keys judged as they are; ``aliases``: other
    names of them), peers' names read by :data:`NATIVE_NAMES` and :data:`STORM_PROPERTIES`, states given
    by name mapped to indices; unknown keys listed as not judged (``strict``: refused).

    A peer's "not applicable" (``null``: PyDTMC's ``fundamental_matrix`` of a chain that is not absorbing)
    is not claimed, and said so; one quantity under two names with the same value (PyDTMC's ``pi`` and
    ``stationary_distributions``) is judged once; a peer's own name that clashes with one of ours is read in
    the peer's meaning (PyDTMC's ``hitting_times`` beside ``targets``: the mean first-passage times).

    Examples
    --------
    >>> native = read_native({"V": [0, 1], 'R{"r"}=? [ LRA ]': [1, 1], "iter": 3}, labels=None, n=2)
    >>> native.values, native.up_to_gauge, native.not_judged
    ({'h': [0, 1], 'rho': [1, 1]}, ('h',), ('iter',))
    >>> read_native({"fundamental_matrix": None, "pi": [[0.5, 0.5]]}, labels=None, n=2).readings[0]
    "fundamental_matrix is null (a peer's 'not applicable'): not claimed"
    >>> read_native({"iter": 3}, labels=None, n=2, strict=True)
    Traceback (most recent call last):
    ...
    exactpte.errors.CandidateError: keys the oracle does not know: 'iter' (without --strict they are listed as not judged)
    """
    if not isinstance(candidate, Mapping):
        raise CandidateError(f"the candidate must be a mapping from quantity names to values, got {type(candidate).__name__}")
    aliases = aliases or {}
    out = NativeCandidate({})
    unknown: list[str] = []
    passage = any(_key_of(other, known, aliases)[0] == "first_passage" and v is not None
                  for other, v in candidate.items() if isinstance(other, str))
    for name, value in candidate.items():
        if not isinstance(name, str):
            raise CandidateError(f"a candidate's keys are quantity names, got {brief(name, 30, quoted=True)}")
        key, how = _key_of(name, known, aliases, value)
        if name == "hitting_times" and "targets" in candidate and not passage:
            key, how = "first_passage", ("hitting_times beside targets (PyDTMC's hitting_times(targets)) read as "
                                         "first_passage: the expected hitting times of the targets")
        if key is None:
            unknown.append(name)
            continue
        if value is None:
            out.readings.append(f"{name} is null (a peer's 'not applicable'): not claimed")
            continue
        _add(out, key, name, value, how)
        entry = _BY_NAME.get(name)
        if entry is not None and entry.up_to_gauge and name not in known:
            out.up_to_gauge += (key,)
    if unknown and strict:
        raise CandidateError(f"keys the oracle does not know: {', '.join(map(repr, unknown))} (without --strict they "
                             "are listed as not judged)")
    if "targets" in out.values and "first_passage" not in out.values and any(
            _key_of(other, known, aliases)[0] == "first_passage" and v is None for other, v in candidate.items()):
        del out.values["targets"]  # the targets of a not-applicable first-passage answer
        out.readings.append("targets: of a first-passage answer that is null, so not judged")
    out.not_judged = tuple(unknown)
    for k in _STATE_KEYS & out.values.keys():  # networkx gives sets: read in increasing order
        out.values[k] = _listed(out.values[k])
    _map_state_names(out, labels, n)
    return out


def _add(out: NativeCandidate, key: str, name: str, value: Any, how: str) -> None:
    """One quantity under its key; a second name for it is accepted when it gives the same value."""
    if key in out.values:
        if not _same(out.values[key], _square_transposed(value) if name == "absorption_probabilities" else value):
            raise CandidateError(f"the quantity {key!r} is given twice, with different values (as {out.sources[key]!r} "
                                 f"and {name!r})")
        out.readings.append(f"{name}: the same value as {out.sources[key]}, judged once")
        return
    if name == "absorption_probabilities" and _square_transposed(value) is not value:
        value = _square_transposed(value)  # PyDTMC's layout, a row per absorbing state (other shapes: read by their shape)
        how += "; square, so read transposed as PyDTMC lays it out (a row per absorbing state)"
    out.values[key], out.sources[key] = value, name
    if how:
        out.readings.append(how)


def _same(a: Any, b: Any) -> bool:
    """Whether two candidate values are equal (lists or arrays, any depth)."""
    try:
        return json.dumps(_plain(a)) == json.dumps(_plain(b))
    except (TypeError, ValueError):
        return False


def _plain(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted(map(str, x))
    return x.item() if isinstance(x, np.generic) else x


def _square_transposed(value: Any) -> Any:
    """A square matrix given as rows, transposed; anything else, the very object (a non-square layout is read by
    its shape, unambiguously, and a malformed value judged and named later)."""
    rows = value.tolist() if isinstance(value, np.ndarray) else value
    if isinstance(rows, (list, tuple)) and rows and all(isinstance(r, (list, tuple)) and len(r) == len(rows) for r in rows):
        return [list(col) for col in zip(*rows)]
    return value


def _entry_of(name: str, value: Any) -> NativeName | None:
    """The table's entry for a native name; where peers share a name, the one whose shape fits ``value``
    (``pi``: one vector is discreteMarkovChain's, a list of vectors PyDTMC's)."""
    entries = [e for e in NATIVE_NAMES if e.name == name]
    if len(entries) > 1 and value is not None:
        deep = _depth(value) >= 2
        fits = [e for e in entries if e.shape.startswith(("list of", "flat list")) == deep]
        if fits:
            return fits[0]
    return entries[0] if entries else None


def _depth(x: Any) -> int:
    """How many list levels ``x`` has along its first entries (arrays count their dimensions)."""
    d = 0
    while True:
        if isinstance(x, np.ndarray):
            return d + int(x.ndim)
        if not isinstance(x, (list, tuple)) or not x:
            return d + (1 if isinstance(x, (list, tuple)) else 0)
        d, x = d + 1, x[0]


def _key_of(name: str, known: Sequence[str], aliases: Mapping[str, str], value: Any = None) -> tuple[str | None, str]:
    """The exactpte key a candidate name is judged as, and how it was read (empty when as it is)."""
    if name in known or name in DERIVED_KEYS:
        return name, ""
    entry = _entry_of(name, value)
    if entry is not None:
        who = ", ".join(dict.fromkeys(e.peers for e in NATIVE_NAMES if e.name == name and e.reading == entry.reading))
        how = f"{name} ({who}) read as {entry.key}" + (f": {entry.reading}" if entry.reading else "")
        return entry.key, how if entry.key != name else ""
    if name in aliases:
        return aliases[name], ""
    storm = _storm_key(name)
    if storm is not None:
        return storm, f"{' '.join(name.split())} (Storm) read as {storm}"
    return None, ""


def _map_state_names(out: NativeCandidate, labels: Sequence[str] | None, n: int) -> None:
    """States given by name (strings) mapped to indices: through the candidate's ``labels`` (PyDTMC's
    ``states``) when it gives them, else the chain's labels."""
    named = [k for k in _STATE_KEYS if k in out.values and _has_names(out.values[k])]
    if labels is None and out.sources.get("labels") == "states":  # PyDTMC's names: only for mapping, never labels
        out.readings.append("states (PyDTMC) used to map state names only: the chain has no labels to judge them against")
        given_states = out.values.pop("labels")
        if named:
            out.values["labels"] = given_states
    if not named:
        return
    given = out.values.get("labels")
    names = given if isinstance(given, Sequence) and not isinstance(given, str) and given is not None else labels
    if names is None:
        raise CandidateError(f"{named[0]} names states ({_first_name(out.values[named[0]])!r}), but neither the chain "
                             "nor the candidate (`states`) has state names: give the chain's labels, or indices")
    names = [str(x) for x in names]
    if len(names) != n or len(set(names)) != n:
        raise CandidateError(f"the state names must be {n} distinct names, one per state (got {len(names)}, "
                             f"{len(set(names))} distinct)")
    if labels is None and given is not None:  # the chain has no labels: the candidate's names only map its states
        del out.values["labels"]
    index = {name: s for s, name in enumerate(names)}
    for k in named:
        out.values[k] = _mapped(out.values[k], index, k)
    out.readings.append(f"state names in {', '.join(sorted(named))} mapped to indices through "
                        + ("the candidate's states" if given is not None else "the chain's labels"))


def _listed(x: Any) -> Any:
    """Sets (networkx's components) as sorted lists, at any depth; anything else as it is."""
    if isinstance(x, (set, frozenset)):
        return sorted((_listed(v) for v in x), key=lambda v: (isinstance(v, str), v))
    if isinstance(x, (list, tuple)) and any(isinstance(v, (set, frozenset, list, tuple)) for v in x):
        return [_listed(v) for v in x]
    return x


def _has_names(x: Any) -> bool:
    if isinstance(x, str):
        return True
    if isinstance(x, np.ndarray):
        return x.dtype.kind in "US"
    if isinstance(x, (list, tuple, set, frozenset)):
        return any(_has_names(v) for v in x)
    return False


def _first_name(x: Any) -> str:
    if isinstance(x, str):
        return x
    for v in (x.tolist() if isinstance(x, np.ndarray) else x):
        if _has_names(v):
            return _first_name(v)
    return ""


def _mapped(x: Any, index: Mapping[str, int], where: str) -> Any:
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, str):
        if x not in index:
            shown = ", ".join(list(index)[:8]) + (", ..." if len(index) > 8 else "")
            raise CandidateError(f"{where}: {brief(x, 30, quoted=True)} is not a state name ({shown})")
        return index[x]
    if isinstance(x, (list, tuple, set, frozenset)):
        return [_mapped(v, index, where) for v in (sorted(x, key=str) if isinstance(x, (set, frozenset)) else x)]
    return x


def _lcm(values: Sequence[int]) -> int:
    out = 1
    for d in values:
        out = out * int(d) // math.gcd(out, int(d))
    return out


def _as_int(x: Any, where: str) -> int:
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        if isinstance(x, (float, np.floating)) and float(x).is_integer():
            return int(x)
        raise CandidateError(f"{where} is {brief(x, 30, quoted=True)}, expected an integer")
    return int(x)


def _as_bool(x: Any, where: str) -> bool:
    if isinstance(x, np.ndarray) and x.ndim == 0:
        x = x.item()
    if not isinstance(x, (bool, np.bool_)):
        raise CandidateError(f"{where} is {brief(x, 30, quoted=True)}, expected true or false")
    return bool(x)


def _states(x: Any, where: str) -> list[int]:
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, (Sequence, set, frozenset)):
        raise CandidateError(f"{where} is {type(x).__name__}, expected a list of states")
    return sorted(_as_int(v, f"{where}[{k}]") for k, v in enumerate(x))


def derived_findings(values: Mapping[str, Any], S: Structure, self_loops: Sequence[int]) -> list[Finding]:
    """The peers' derived structure quantities (:data:`DERIVED_KEYS`) judged against the structure ``S``
    (``self_loops``: the states with ``P(s, s) = 1``, the absorbing states).  The chain's period is the
    lcm ``D`` of its closed classes' periods (the smallest ``D`` with every cyclic class mapped to itself
    by ``P^D``: the paper's ``D``).

    Examples
    --------
    >>> import exactpte
    >>> S = exactpte.example("branching").structure
    >>> [(f.key, f.ok) for f in derived_findings({"period": 6, "is_aperiodic": False}, S, [])]
    [('period', True), ('is_aperiodic', True)]
    >>> derived_findings({"period": 3}, S, [])[0].diagnosis.split(";")[0]
    "the period of one closed class, not the lcm over the classes (the chain's period)"
    """
    out: list[Finding] = []

    def judge(key: str, got: Any, expected: Any, what: str) -> None:
        ok = got == expected
        out.append(Finding(key, "ok" if ok else "structure mismatch", detail=f"{what}" if ok else
                           f"expected {expected} ({what}), got {got}"))

    periods = [int(d) for d in S.periods]
    sccs = [tuple(c) for c in S.classes] + [tuple(sorted(c)) for c in S.transient_sccs]
    if "period" in values:
        judge("period", _as_int(values["period"], "period"), _lcm(periods), f"the lcm of the closed classes' periods {periods}")
        got, lcm = _as_int(values["period"], "period"), _lcm(periods)
        shorter = ("zero-probability entries taken as edges (an extra edge closes a shorter cycle: the period divides "
                   "the true one)") if not out[-1].ok and 0 < got < lcm and lcm % got == 0 else ""
        if not out[-1].ok and got in periods:
            out[-1].diagnosis = "the period of one closed class, not the lcm over the classes (the chain's period)" + (
                f"; or {shorter}" if shorter else "")
        elif shorter:
            out[-1].diagnosis = shorter
    if "is_aperiodic" in values:
        judge("is_aperiodic", _as_bool(values["is_aperiodic"], "is_aperiodic"), _lcm(periods) == 1,
              f"every closed class aperiodic (periods {periods})")
    if "is_irreducible" in values:
        judge("is_irreducible", _as_bool(values["is_irreducible"], "is_irreducible"), len(sccs) == 1,
              f"{len(sccs)} communicating class(es)")
    if "num_communication_classes" in values:
        judge("num_communication_classes", _as_int(values["num_communication_classes"], "num_communication_classes"),
              len(sccs), "communicating classes, transient ones included")
    if "num_recurrent_classes" in values:
        judge("num_recurrent_classes", _as_int(values["num_recurrent_classes"], "num_recurrent_classes"), len(S.classes),
              "closed classes")
    if "is_absorbing" in values:
        judge("is_absorbing", _as_bool(values["is_absorbing"], "is_absorbing"), all(len(c) == 1 for c in S.classes),
              "every closed class a single absorbing state")
    if "absorbing_states" in values:
        judge("absorbing_states", _states(values["absorbing_states"], "absorbing_states"), sorted(self_loops),
              "states with P(s, s) = 1")
    if "recurrent_states" in values:
        judge("recurrent_states", _states(values["recurrent_states"], "recurrent_states"),
              sorted(s for c in S.classes for s in c), "states of the closed classes")
    if "transient_classes" in values:
        raw = values["transient_classes"]
        got_classes = sorted(_states(c, f"transient_classes[{k}]") for k, c in enumerate(raw.tolist() if isinstance(raw, np.ndarray) else raw))
        judge("transient_classes", got_classes, sorted(sorted(c) for c in S.transient_sccs), "the transient communicating classes")
    return out


def markdown_table() -> str:
    """The table of :data:`NATIVE_NAMES` and :data:`STORM_PROPERTIES` as printed in docs/oracle.md.

    Examples
    --------
    >>> markdown_table().splitlines()[0]
    '| peer | name | shape | judged as | reading |'
    """
    lines = ["| peer | name | shape | judged as | reading |", "|---|---|---|---|---|"]
    for e in NATIVE_NAMES:
        lines.append(f"| {e.peers} | `{e.name}` | {e.shape} | `{e.key}` | {e.reading} |")
    lines.append("| PyDTMC | `hitting_times` beside `targets` | length-n vector (`hitting_times(targets)`) | `first_passage` | "
                 "PyDTMC's meaning (the expected hitting times of the targets); without `targets`, exactpte's `hitting_times` |")
    for pattern, key, reading in STORM_PROPERTIES:
        lines.append(f"| Storm (stormpy) | `{pattern}` | `get_value_vector()`, one per state | `{key}` | {reading} |")
    lines.append("| any | a `null` value | | not claimed | a peer's 'not applicable' (listed in the read lines) |")
    lines.append("| any | any other key (`time`, `iter`, `solver_iterations`, ...) | any | not judged | listed as "
                 "not judged; `--strict` (`strict=True`) refuses it |")
    return "\n".join(lines)
