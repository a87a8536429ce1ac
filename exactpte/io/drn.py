r"""Storm's explicit DRN format (DTMCs, rational or parametric), read strictly and written exactly.

A DRN file is a header (``@type``, ``@value_type``, ``@parameters``, ``@placeholders``,
``@reward_models``, ``@nr_states``, ``@nr_choices``) followed by ``@model`` and one block per
state, in order and without gaps::

    state 0 [1, 0] init          # state rewards, one per reward model; then labels
        action 0 [5, 0]          # a DTMC has exactly one action; its rewards too
            1 : 1/2              # target : probability
            2 : 1/2

The reward of a state under a reward model is, as in Storm, its state reward plus the reward of
its single action.  With several reward models, ``reward_model=NAME`` picks one (an error lists
the names otherwise).  Values are exact numbers; with ``@parameters`` they are expressions in
the parameters (parsed, never evaluated) and the chain is a
:class:`~exactpte.model.parametric.ParametricChain`.  ``$name`` placeholders are expanded.  The
rules are in ``docs/formats.md``.

Examples
--------
>>> import exactpte
>>> to_drn(exactpte.example("periodic")).splitlines()[10:16]
['state 0 [1] init', '\taction 0', '\t\t1 : 1', 'state 1 [0]', '\taction 0', '\t\t0 : 1']
>>> m = exactpte.example("branching")
>>> read_drn(to_drn(m)) == m
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from itertools import accumulate, compress, repeat
from operator import ge, sub
from typing import Any

import flint

from exactpte.numbers.scalars import as_int, parse_number
from exactpte.mdp.model import MDP
from exactpte.model.chain import Chain, MarkovRewardProcess, require_chain
from exactpte.errors import ChainFileError, ExactpteError, brief
from exactpte.fields import RationalFunctionField
from exactpte.model.parametric import ParametricChain, parameter_field
from exactpte.io.common import MAX_INDEX_DIGITS, ascii_digits, index_value, naming, note_decimals, note_decimals_mdp

__all__ = ["to_drn", "read_drn", "read_drn_mdp", "to_drn_mdp"]

_HEADER_WITH_VALUE_LINE = ("@parameters", "@reward_models", "@nr_states", "@nr_choices")
_STATE = re.compile(r"state\s+(\S+)\s*(.*)")
_ACTION = re.compile(r"action\s+(\S+)\s*(.*)")


def to_drn(chain: Chain, *, reward_name: str = "r") -> str:
    """Storm's DRN text: values exact (``p/q``, or expressions with ``^`` for parametric chains),
    the reward in brackets, state 0 labelled ``init``.

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.example("two-state-pq")
    >>> to_drn(m).splitlines()[1:3], read_drn(to_drn(m)) == m
    (['@parameters', 'p q'], True)
    """
    require_chain(chain)
    value = _storm_value if chain.field.is_parametric else str
    params = " ".join(chain.field.params)
    lines = ["@type: DTMC", "@parameters", params, "@reward_models", reward_name,
             "@nr_states", str(chain.n), "@nr_choices", str(chain.n), "@model"]
    for s in range(chain.n):
        lines.append(f"state {s} [{value(chain.r[s])}]" + (" init" if s == 0 else ""))
        lines.append("\taction 0")
        for j, q in chain.row(s):
            lines.append(f"\t\t{j} : {value(q)}")
    return "\n".join(lines) + "\n"


def _storm_value(x: Any) -> str:
    """A rational function as Storm writes it: ``(num)/(den)`` with ``^`` powers (flint's printing)."""
    num = str(x.num)
    return num if x.den.is_one() else f"({num})/({x.den})"


class _Reader:
    """One pass over a DRN text; ``where`` names the line in every error.  ``raw[i]`` is line ``i + 1``,
    ``lines[i]`` the same stripped (made on first use: the header strips its own lines, and a file laid out
    as Storm writes it is read from ``raw``)."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.raw = text.splitlines()
        self.pos = 0

    @cached_property
    def lines(self) -> list[str]:
        return [ln.strip() for ln in self.raw]

    def error(self, lineno: int | None, message: str) -> ChainFileError:
        return ChainFileError(f"{self.source}: {'line ' + str(lineno) + ': ' if lineno else ''}{message}")

    def next_content(self) -> tuple[int, str] | None:
        while self.pos < len(self.raw):
            ln = self.raw[self.pos].strip()
            self.pos += 1
            if ln and not ln.startswith("//"):
                return self.pos, ln
        return None

    # -- header -------------------------------------------------------------------------
    def header(self, kind: str = "DTMC") -> dict[str, Any]:
        head: dict[str, Any] = {"placeholders": {}, "kind": kind}
        while True:
            item = self.next_content()
            if item is None:
                raise self.error(None, "the file ends before '@model'")
            k, ln = item
            if not ln.startswith("@"):
                raise self.error(k, f"expected a header line starting with '@' before '@model', got {ln[:40]!r}")
            key = ln.split(":", 1)[0].strip() if ln.startswith(("@type:", "@value_type:")) else ln
            if key in head:
                raise self.error(k, f"{key} is declared twice")
            if key == "@type":
                given = ln.split(":", 1)[1].strip() if ":" in ln else ""
                if given.upper() != kind:
                    raise self.error(k, f"model type {given or '(none)'} is not supported here: "
                                        + ("exactpte reads DTMCs (an MDP: exactpte mdp, exactpte.io.load_mdp)" if kind == "DTMC"
                                           else "exactpte mdp reads MDPs (a DTMC: exactpte decompose)"))
                head[key] = given
            elif key == "@value_type":
                vt = ln.split(":", 1)[1].strip()
                if vt not in ("double", "rational", "parametric"):
                    raise self.error(k, f"value type {vt!r} is not supported (double, rational or parametric)")
                head[key] = vt
            elif key in _HEADER_WITH_VALUE_LINE:
                # the value is on the next line, which may be blank for @parameters
                if self.pos >= len(self.raw):
                    raise self.error(k, f"{key} must be followed by a line")
                head[key] = (self.pos + 1, self.raw[self.pos].strip())
                self.pos += 1
            elif key == "@placeholders":
                head[key] = True
                while self.pos < len(self.raw) and not self.raw[self.pos].strip().startswith("@"):
                    pl = self.raw[self.pos].strip()
                    self.pos += 1
                    if not pl or pl.startswith("//"):
                        continue
                    m = re.fullmatch(r"\$(\w+)\s*:\s*(.+)", pl)
                    if m is None:
                        raise self.error(self.pos, f"a placeholder is '$name : value', got {pl[:40]!r}")
                    if m.group(1) in head["placeholders"]:
                        raise self.error(self.pos, f"placeholder ${m.group(1)} is defined twice")
                    head["placeholders"][m.group(1)] = m.group(2).strip()
            elif key == "@model":
                break
            else:
                raise self.error(k, f"unknown header line {ln[:40]!r}")
        if "@type" not in head:
            raise self.error(None, f"missing '@type: {kind}' before '@model'")
        if "@nr_states" not in head:
            raise self.error(None, "missing '@nr_states' before '@model'")
        k, text = head["@nr_states"]
        n = index_value(text)
        if n is None or n < 1:
            raise self.error(k, f"@nr_states must be followed by a positive integer, got {brief(text, quoted=True)}")
        head["n"] = n
        if "@nr_choices" in head and kind == "DTMC":
            k, text = head["@nr_choices"]
            if index_value(text) != head["n"]:
                raise self.error(k, f"@nr_choices is {brief(text, quoted=True)}; a DTMC has one choice per state ({head['n']})")
        head["params"] = head["@parameters"][1].split() if "@parameters" in head else []
        head["reward_names"] = head["@reward_models"][1].split() if "@reward_models" in head else []
        return head

    # -- states ---------------------------------------------------------------------------
    def states(self, n: int, value: Callable[[str, int, str], Any]
               ) -> tuple[list[list[tuple[int, Any]]], list[tuple[int, list[str]]], list[tuple[int, list[str]]]]:
        """Rows ``[(j, value), ...]`` (columns increasing), and per state ``(line, raw reward strings)`` of
        its state and its action.  One pass, lines told apart by their first character: a model is
        mostly transitions, each a ``partition``, a digit test and a cached value (:func:`_value_reader`)."""
        rows: list[list[tuple[int, Any]]] = [[] for _ in range(n)]
        state_rewards: list[tuple[int, list[str]]] = [(0, [])] * n
        action_rewards: list[tuple[int, list[str]]] = [(0, [])] * n
        current = -1
        has_action = False
        row: list[tuple[int, Any]] = []
        targets: set[int] = set()
        lines = self.lines
        for k in range(self.pos + 1, len(lines) + 1):
            ln = lines[k - 1]
            if not ln:
                continue
            first = ln[0]
            if first == "s" and ln.startswith("state "):
                if current >= 0 and not has_action:
                    raise self.error(k, f"state {current} has no action (a DTMC state has exactly one)")
                m = _STATE.fullmatch(ln)
                if m is None:
                    raise self.error(k, f"cannot read {ln[:60]!r} (expected 'state ID [rewards] labels')")
                sid = m.group(1)
                expected = current + 1
                if ascii_digits(sid) and ((i := index_value(sid)) is None or i >= n):
                    raise self.error(k, f"state {brief(sid)} is past @nr_states = {n}")
                if not ascii_digits(sid) or int(sid) != expected:
                    raise self.error(k, f"states must be numbered 0, 1, ... in order without gaps or repeats: expected state {expected}, got {sid[:20]!r}")
                current, has_action, row = expected, False, rows[expected]
                targets.clear()
                state_rewards[current] = (k, self.rewards(k, m.group(2), allow_labels=True))
            elif first == "a" and ln.startswith("action "):
                if current < 0:
                    raise self.error(k, "an action before the first state")
                if has_action:
                    raise self.error(k, f"state {current} has a second action; a DTMC state has exactly one")
                has_action = True
                m = _ACTION.fullmatch(ln)
                if m is None:
                    raise self.error(k, f"cannot read {ln[:60]!r} (expected 'action ID [rewards]')")
                action_rewards[current] = (k, self.rewards(k, m.group(2), allow_labels=False))
            elif first == "/" and ln.startswith("//"):
                continue
            else:
                target, colon, val = ln.partition(":")
                if not colon:
                    raise self.error(k, f"cannot read {ln[:60]!r} (expected 'state ...', 'action ...' or 'target : value')")
                if not has_action:
                    raise self.error(k, "a transition before the state's action line")
                target = target.rstrip()
                # index_value inline (the loop's one line per transition)
                if not (target.isdigit() and target.isascii()) or len(target) > MAX_INDEX_DIGITS or int(target) >= n:
                    raise self.error(k, f"transition target {target[:20]!r} is not a state in 0..{n - 1}")
                j = int(target)
                if j in targets:
                    raise self.error(k, f"state {current} lists target {j} twice")
                targets.add(j)
                row.append((j, value(val.strip(), k, f"the probability {current} -> {j}")))
        if current + 1 != n:
            raise self.error(None, f"@nr_states is {n} but the model lists {current + 1} state(s)")
        if not has_action:
            raise self.error(None, f"state {current} has no action (a DTMC state has exactly one)")
        for r in rows:
            r.sort(key=_column)
        return rows, state_rewards, action_rewards

    def rewards(self, k: int, rest: str, *, allow_labels: bool) -> list[str]:
        if not rest:
            return []
        if rest.startswith("{"):
            raise self.error(k, "observations ({...}) belong to POMDPs, not DTMCs")
        values: list[str] = []
        if rest.startswith("["):
            end = rest.find("]")
            if end < 0:
                raise self.error(k, "']' missing after the rewards")
            values = [v.strip() for v in rest[1:end].split(",")]
            if not all(values):
                raise self.error(k, f"an empty reward in [{rest[1:end]}]")
            rest = rest[end + 1 :].strip()
        if rest and not allow_labels:
            raise self.error(k, f"unexpected {rest[:40]!r} after the action")
        if "[" in rest or "]" in rest:  # 'state 0 init [1]': read as labels, the rewards would be lost silently
            raise self.error(k, f"{rest[:40]!r} after the state: the rewards [..] come right after the state id, "
                                f"before the labels")
        return values


def read_drn(text: str, *, source: str = "<drn>", reward_model: str | int | None = None) -> Chain:
    """Parse a DTMC in Storm's DRN format (rules in ``docs/formats.md``).

    Parameters
    ----------
    text : str
        The file's text.
    source : str
        How errors name the file.
    reward_model : str or int, optional
        The reward model to read, by name (or position); needed when the file has several.

    Returns
    -------
    Chain
        A :class:`~exactpte.MarkovRewardProcess`, or a :class:`~exactpte.ParametricChain` when the
        file declares parameters.

    Raises
    ------
    ChainFileError
        Naming the file, the line and the rule broken.
    """
    rd = _Reader(text, source)
    head = rd.header()
    n = head["n"]
    if n > len(rd.raw) - rd.pos:  # bounded work: every state needs its own lines, so n cannot exceed them
        raise rd.error(head["@nr_states"][0], f"@nr_states is {n}, but the file has only {len(rd.raw) - rd.pos} lines after @model")
    field = _parameter_field(rd, head)
    value = _value_reader(rd, field, head["placeholders"])
    fast = _plain_model(rd, head, value, field, reward_model)
    if fast is not None:
        chain = fast
    else:
        chain = _validated_model(rd, head, value, field, reward_model)
    return note_decimals(chain, [text])


def _validated_model(rd: _Reader, head: dict[str, Any], value: Callable[[str, int, str], Any], field: RationalFunctionField | None,
                   reward_model: str | int | None) -> Chain:
    """The chain of the file's states, read line by line: every rule checked where it applies, and every error
    naming its line."""
    n = head["n"]
    source = rd.source
    rows, state_rw, action_rw = rd.states(n, value)
    count = max([len(head["reward_names"])] + [len(x) for _, x in state_rw] + [len(x) for _, x in action_rw])
    names = head["reward_names"] + [f"rew{i}" for i in range(len(head["reward_names"]), count)]
    pick = _pick_reward_model(rd, names, reward_model)
    zero = field.zero if field is not None else 0
    r: list[Any] = []
    for s in range(n):
        terms = [value(vals[pick], k, f"the {kind} reward of state {s}")
                 for kind, (k, vals) in (("state", state_rw[s]), ("action", action_rw[s]))
                 if pick is not None and pick < len(vals)]
        r.append(terms[0] if len(terms) == 1 else sum(terms, zero))  # (one term: no addition to make)
    chain: Chain
    with naming(source):
        if field is not None:
            chain = ParametricChain.from_rows(rows, r, field=field)
        else:
            chain = MarkovRewardProcess.from_edges(n, [(i, j, q) for i, row in enumerate(rows) for j, q in row], r)
    if pick is None:
        chain.notes = chain.notes + ("the DRN file has no rewards: r = 0",)
    return chain


_PLAIN_STATE = re.compile(r"^[ \t]*state ([0-9]+)(?: ([^\n]*))?\n[ \t]*action [!-~]+(?: ([^\n]*))?\n((?:[ \t]*[0-9][^\n]*\n)*)", re.M)
"""A state block as Storm writes it: ``state ID rest``, ``action ID rest``, then the lines that start with a digit
(loosely: :data:`_PLAIN_TRANSITION` and :data:`_PLAIN_REST` check each line's form, a regular expression as strict
as this one in one pass being twice as slow)."""
_PLAIN_TRANSITION = re.compile(r"^[ \t]*([0-9]+) ?: ?([!-~](?:[ -~]*[!-~])?)[ \t]*$", re.M)
"""``target : value``: printable ASCII, indented by spaces and tabs, at most one space around the colon."""
_PLAIN_REST = re.compile(r"(?:[!-~](?:[ -~]*[!-~])?)?[ \t]*")
"""What follows a state's or action's id and one space: rewards and labels without surrounding whitespace."""


def _plain_model(rd: _Reader, head: dict[str, Any], value: Callable[[str, int, str], Any], field: RationalFunctionField | None,
                 reward_model: str | int | None) -> Chain | None:
    """The chain of a file laid out as Storm writes it, read by whole-text regular expressions (C passes, where the
    line-by-line reader costs a few microseconds a line: most of a millisecond model's time), or ``None``: the
    file is laid out otherwise (comments, blank lines, other spacing), or breaks a rule.  Then
    :func:`_validated_model` reads it, and says which rule and where.  It takes only files the line reader takes, to
    the same chain: the blocks cover every line (whole lines, in order), each one the line reader reads as it is
    (a state's lines in order, ids ``0 .. n-1``, one action, targets increasing, each value text read by the same
    ``value``; what the line reader strips from a line, spaces and tabs, is all that surrounds a token here)."""
    n = head["n"]
    blocks = _PLAIN_STATE.findall("\n".join(rd.raw[rd.pos :]) + "\n")
    if len(blocks) != n:
        return None
    ids, state_rest, action_rest, transitions = zip(*blocks)
    ptr = [0, *accumulate(map(str.count, transitions, repeat("\n")))]
    if 2 * n + ptr[-1] != len(rd.raw) - rd.pos or 0 in map(sub, ptr[1:], ptr):
        return None  # lines no block takes, or a state without transitions (the line reader's message)
    pairs = _PLAIN_TRANSITION.findall("".join(transitions))
    if len(pairs) != ptr[-1] or not all(map(_PLAIN_REST.fullmatch, set(state_rest) | set(action_rest))):
        return None
    try:
        if list(map(int, ids)) != list(range(n)):
            return None
        target_texts, texts = zip(*pairs)
        targets = list(map(int, target_texts))
        if max(targets) >= n or not _increasing_rows(ptr, targets):
            return None
        parsed = {t: value(t, 0, "") for t in set(texts)}
        if any(q == 0 for q in parsed.values()):
            return None  # (zeros are dropped with their own rules: the line reader)
        vals = list(map(parsed.__getitem__, texts))
        r, no_rewards = _plain_rewards(rd, head, value, field, reward_model, state_rest, action_rest)
        chain: Chain
        with naming(rd.source):
            if field is not None:
                rows = [list(zip(targets[a:b], vals[a:b])) for a, b in zip(ptr, ptr[1:])]
                chain = ParametricChain.from_rows(rows, r, field=field)
            else:
                chain = MarkovRewardProcess._from_csr_lists(ptr, targets, vals, r)
    except (ExactpteError, ValueError):
        return None  # the line reader names the rule broken, and the line
    if no_rewards:
        chain.notes = chain.notes + ("the DRN file has no rewards: r = 0",)
    return chain


def _increasing_rows(ptr: list[int], targets: list[int]) -> bool:
    """Whether every row's targets increase strictly (Storm writes them so; others go to the line reader, which
    sorts them and refuses repeats)."""
    starts = set(ptr)
    return all(e + 1 in starts for e in compress(range(len(targets)), map(ge, targets, targets[1:])))


def _plain_rewards(rd: _Reader, head: dict[str, Any], value: Callable[[str, int, str], Any], field: RationalFunctionField | None,
                   reward_model: str | int | None, state_rest: tuple[str, ...], action_rest: tuple[str, ...]
                   ) -> tuple[list[Any], bool]:
    """The reward of every state (state reward plus action reward of the model picked) from the text after the
    state and action ids, each distinct text read once, and whether the file has no rewards."""
    state_rw = {t: rd.rewards(0, t.rstrip(" \t"), allow_labels=True) for t in set(state_rest)}
    action_rw = {t: rd.rewards(0, t.rstrip(" \t"), allow_labels=False) for t in set(action_rest)}
    count = max([len(head["reward_names"])] + [len(x) for x in state_rw.values()] + [len(x) for x in action_rw.values()])
    names = head["reward_names"] + [f"rew{i}" for i in range(len(head["reward_names"]), count)]
    pick = _pick_reward_model(rd, names, reward_model)
    zero = field.zero if field is not None else flint.fmpq(0)
    if pick is None:
        return [zero] * len(state_rest), True
    of_pair: dict[tuple[str, str], Any] = {}
    for pair in set(zip(state_rest, action_rest)):
        terms = [value(vals[pick], 0, "") for vals in (state_rw[pair[0]], action_rw[pair[1]]) if pick < len(vals)]
        of_pair[pair] = terms[0] if len(terms) == 1 else sum(terms, zero)
    return list(map(of_pair.__getitem__, zip(state_rest, action_rest))), False


def _column(entry: tuple[int, Any]) -> int:
    return entry[0]


def _parameter_field(rd: _Reader, head: dict[str, Any]) -> RationalFunctionField | None:
    """The field of the declared ``@parameters`` (``None`` for a file without parameters)."""
    params = head["params"]
    if not params:
        return None
    if head.get("@value_type") in ("double", "rational"):
        raise rd.error(None, f"parameters {params} are declared but @value_type is {head['@value_type']}")
    try:
        return parameter_field(params)
    except ExactpteError as e:
        raise rd.error(head["@parameters"][0], f"bad @parameters line: {e}") from None


def _value_reader(rd: _Reader, field: RationalFunctionField | None, placeholders: dict[str, str]) -> Callable[[str, int, str], Any]:
    """``value(raw, line, what)``: one probability or reward of the file, placeholders ``$name``
    resolved, as an exact number (or an element of ``field`` when the file has parameters)."""

    parsed: dict[str, Any] = {}  # DRN files repeat a few expressions on thousands of lines: each parsed once

    def value(raw: str, k: int, what: str) -> Any:
        hit = parsed.get(raw)
        if hit is not None:
            return hit
        text_ = raw.strip()
        x: Any
        if text_.startswith("$"):
            if text_[1:] not in placeholders:
                raise rd.error(k, f"placeholder {text_} is not defined in @placeholders")
            text_ = placeholders[text_[1:]]
        if field is not None:
            try:
                x = field.convert(text_, what)
            except ExactpteError as e:
                raise rd.error(k, str(e)) from None
        else:
            try:
                x = parse_number(text_)
            except ExactpteError as e:
                raise rd.error(k, f"{what}: {e}") from None
            if x is None:
                raise rd.error(k, f"{what} is {text_[:40]!r}, not an exact number"
                                  + (" (a file with parameters declares them in @parameters)" if re.search(r"[A-Za-z_]", text_) else ""))
        if len(parsed) < 65_536:  # values are immutable: one object serves every line that repeats the text
            parsed[raw] = x
        return x

    return value


def _pick_reward_model(rd: _Reader, names: list[str], reward_model: str | int | None) -> int | None:
    """The position of the reward model to read among ``names`` (``None``: the file has none)."""
    count = len(names)
    if count == 0:
        return None
    if reward_model is None:
        if count > 1:
            raise rd.error(None, f"the file has {count} reward models ({', '.join(names)}); choose one "
                                 f"(reward_model=NAME, or --reward-model NAME on the command line)")
        return 0
    position = as_int(reward_model)  # (numpy integers too)
    if position is not None:
        if not 0 <= position < count:
            raise rd.error(None, f"reward model {position} asked, the file has {count} ({', '.join(names)})")
        return position
    if reward_model not in names:
        raise rd.error(None, f"no reward model {reward_model!r}; the file has {', '.join(names) or 'none'}")
    return names.index(reward_model)


# -- MDPs (@type: MDP) ------------------------------------------------------------------------------------
class _MdpState:
    """One MDP state being read: its state rewards and, per action, the action rewards and the row."""

    def __init__(self, k: int, rewards: list[str]) -> None:
        self.line, self.rewards = k, rewards
        self.actions: list[tuple[int, list[str], list[tuple[int, Any]]]] = []


def _mdp_states(rd: _Reader, n: int, value: Callable[[str, int, str], Any]) -> list[_MdpState]:
    """The ``state`` blocks of an MDP, in order without gaps; each state with at least one ``action``."""
    states: list[_MdpState] = []
    targets: set[int] = set()
    for k in range(rd.pos + 1, len(rd.lines) + 1):
        ln = rd.lines[k - 1]
        if not ln or ln.startswith("//"):
            continue
        if ln.startswith("state "):
            if states and not states[-1].actions:
                raise rd.error(k, f"state {len(states) - 1} has no action (every MDP state has at least one)")
            m = _STATE.fullmatch(ln)
            if m is None or not ascii_digits(m.group(1)) or (index_value(m.group(1)) or 0) >= n or int(m.group(1)) != len(states):
                raise rd.error(k, f"expected 'state {len(states)} [rewards] labels' (states numbered 0, 1, ... in order, "
                                  f"below @nr_states = {n}), got {ln[:60]!r}")
            states.append(_MdpState(k, rd.rewards(k, m.group(2), allow_labels=True)))
        elif ln.startswith("action "):
            m = _ACTION.fullmatch(ln)
            if not states or m is None:
                raise rd.error(k, "an action before the first state" if not states else f"cannot read {ln[:60]!r}")
            states[-1].actions.append((k, rd.rewards(k, m.group(2), allow_labels=False), []))
            targets.clear()
        else:
            target, colon, val = ln.partition(":")
            if not colon or not states or not states[-1].actions:
                raise rd.error(k, f"cannot read {ln[:60]!r} (expected 'state ...', 'action ...' or 'target : value' "
                                  "after an action)")
            j = index_value(target.strip())
            if j is None or j >= n:
                raise rd.error(k, f"transition target {target.strip()[:20]!r} is not a state in 0..{n - 1}")
            if j in targets:
                raise rd.error(k, f"state {len(states) - 1} lists target {j} twice in one action")
            targets.add(j)
            states[-1].actions[-1][2].append((j, value(val.strip(), k, f"the probability {len(states) - 1} -> {j}")))
    if len(states) != n:
        raise rd.error(None, f"@nr_states is {n} but the model lists {len(states)} state(s)")
    if not states[-1].actions:
        raise rd.error(None, f"state {n - 1} has no action (every MDP state has at least one)")
    return states


def read_drn_mdp(text: str, *, source: str = "<drn>", reward_model: str | int | None = None) -> MDP:
    """Parse an MDP in Storm's DRN format (``@type: MDP``): per state its ``action`` blocks in order (action
    ``i`` of a state is its ``i``-th block, whatever its name), ``r(s,a)`` the state reward plus the action
    reward of the chosen reward model (Storm's semantics).  Exact values only (no ``@parameters``).

    Examples
    --------
    >>> m = read_drn_mdp("@type: MDP\\n@reward_models\\nr\\n@nr_states\\n1\\n@nr_choices\\n2\\n@model\\n"
    ...                  "state 0 [1]\\n action 0 [2]\\n  0 : 1\\n action 1\\n  0 : 1\\n")
    >>> m.num_actions, m.reward(0, 0), m.reward(0, 1)
    ((2,), 3, 1)
    """
    rd = _Reader(text, source)
    head = rd.header("MDP")
    n = head["n"]
    if n > len(rd.lines) - rd.pos:
        raise rd.error(head["@nr_states"][0], f"@nr_states is {n}, but the file has only {len(rd.lines) - rd.pos} lines after @model")
    if head["params"]:
        raise rd.error(head["@parameters"][0], f"parameters {head['params']} are declared: exactpte mdp reads MDPs with numbers")
    value = _value_reader(rd, None, head["placeholders"])
    states = _mdp_states(rd, n, value)
    choices = sum(len(st.actions) for st in states)
    if "@nr_choices" in head and index_value(head["@nr_choices"][1]) != choices:
        raise rd.error(head["@nr_choices"][0], f"@nr_choices is {brief(head['@nr_choices'][1], quoted=True)}, the model "
                                                f"lists {choices} actions")
    count = max([len(head["reward_names"])] + [len(st.rewards) for st in states] + [len(r) for st in states for _, r, _ in st.actions])
    names = head["reward_names"] + [f"rew{i}" for i in range(len(head["reward_names"]), count)]
    pick = _pick_reward_model(rd, names, reward_model)

    def reward(k: int, vals: list[str], what: str) -> Any:
        return value(vals[pick], k, what) if pick is not None and pick < len(vals) else 0

    rows = [[sorted(row, key=_column) for _, _, row in st.actions] for st in states]
    rewards = [[reward(st.line, st.rewards, f"the state reward of state {s}") + reward(k, r, f"an action reward of state {s}")
                for k, r, _ in st.actions] for s, st in enumerate(states)]
    with naming(source):
        mdp = MDP.from_actions(rows, rewards)
    if pick is None:
        mdp.notes = mdp.notes + ("the DRN file has no rewards: r = 0",)
    return note_decimals_mdp(mdp, [text])


def to_drn_mdp(mdp: MDP, *, reward_name: str = "r") -> str:
    """Storm's DRN text of an exact MDP (``@type: MDP``, rewards on the actions, state 0 labelled ``init``).

    >>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, "1/2"]])
    >>> read_drn_mdp(to_drn_mdp(m)) == m
    True
    """
    lines = ["@type: MDP", "@parameters", "", "@reward_models", reward_name, "@nr_states", str(mdp.n),
             "@nr_choices", str(mdp.num_choices), "@model"]
    for s in range(mdp.n):
        lines.append(f"state {s}" + (" init" if s == 0 else ""))
        for a in mdp.actions(s):
            lines.append(f"\taction {a} [{mdp.reward(s, a)}]")
            lines.extend(f"\t\t{j} : {q}" for j, q in mdp.row(s, a))
    return "\n".join(lines) + "\n"
