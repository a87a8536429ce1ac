"""MDP solvers' native outputs, read as they come: each solver's names mapped to the judged keys.

The judged keys (:data:`MDP_KEYS`) are those of ``exactpte mdp --json``: ``gain``, ``bias``, ``policy``,
``gain_optimal_actions``, ``bias_optimal_actions``, ``value``, ``discount_optimal_actions``.  A tester dumps
what a solver returns and hands it over unchanged; :data:`MDP_NATIVE_NAMES` says how each name is read:

- pymdptoolbox and mdptoolbox-hiive: ``policy``; ``V`` is the discounted value (``ValueIteration``,
  ``PolicyIteration``: judged with ``--discount``), or, beside ``average_reward`` or without a discount,
  ``RelativeValueIteration``'s relative values: the bias up to a constant; ``average_reward`` is one gain
  for every state;
- QuantEcon's ``DiscreteDP`` results: ``sigma`` (the policy), ``v`` (the discounted value at ``β``);
- Storm: the per-state result of ``R{"r"}max=? [ LRA ]`` (the optimal gain) and ``scheduler`` (the chosen
  action of every state);
- context that is not judged but read to name a cause: ``iter``/``num_iter`` and ``max_iter`` (a silent
  stop at the cap), ``discount``/``beta`` (the discount a solver used, e.g. as a stand-in for the average
  reward), ``v``/``V``/``value`` without ``--discount``;
- anything else is listed as not judged (``strict``: refused).

Examples
--------
>>> c = read_mdp_candidate({"V": [0.5, 1.0], "policy": (1, 0), "average_reward": 2.0, "iter": 3}, discounted=False)
>>> sorted(c.values), c.context, c.not_judged
(['bias', 'gain', 'policy'], {'iter': 3}, ('iter',))
>>> read_mdp_candidate({"v": [1.0], "sigma": [0]}, discounted=False).context
{'v': [1.0]}
>>> c.gauge_free
('bias',)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from exactpte.errors import CandidateError

__all__ = ["MDPName", "MDP_NATIVE_NAMES", "MDP_KEYS", "CONTEXT_KEYS", "MDPCandidate", "read_mdp_candidate", "mdp_markdown_table"]

MDP_KEYS = ("gain", "bias", "policy", "gain_optimal_actions", "bias_optimal_actions", "value", "discount_optimal_actions")
"""The keys judged (those of ``exactpte mdp --json``)."""
AVERAGE_KEYS = ("gain", "bias", "gain_optimal_actions", "bias_optimal_actions")
DISCOUNT_KEYS = ("value", "discount_optimal_actions")
CONTEXT_KEYS = ("iter", "num_iter", "max_iter", "discount", "beta", "epsilon")
"""Keys read (not judged) to name a cause: iteration counts, the cap, the discount a solver used."""


@dataclass(frozen=True)
class MDPName:
    """How one solver's output name is read: its ``shape``, the ``key`` it is judged as, the ``reading``."""

    peers: str
    name: str
    shape: str
    key: str
    reading: str = ""


MDP_NATIVE_NAMES: tuple[MDPName, ...] = (
    MDPName("pymdptoolbox, mdptoolbox-hiive", "policy", "tuple of S ints", "policy",
            "evaluated exactly: its loss against the optimum, per state"),
    MDPName("pymdptoolbox, mdptoolbox-hiive (VI, PI)", "V", "tuple of S floats", "value",
            "with --discount (and no average_reward): the discounted value"),
    MDPName("pymdptoolbox, mdptoolbox-hiive (RVI)", "V", "tuple of S floats", "bias",
            "beside average_reward or without --discount: relative values, the bias up to a constant (judged up to ker(I - P))"),
    MDPName("pymdptoolbox, mdptoolbox-hiive (RVI)", "average_reward", "float", "gain", "one gain for every state"),
    MDPName("pymdptoolbox, mdptoolbox-hiive", "iter", "int", "(context)", "the iterations made: a stop at max_iter is named"),
    MDPName("QuantEcon DiscreteDP", "sigma", "array of S ints", "policy", "evaluated exactly: its loss against the optimum"),
    MDPName("QuantEcon DiscreteDP", "v", "array of S floats", "value", "with --discount (β); without, read as context"),
    MDPName("QuantEcon DiscreteDP", "num_iter", "int", "(context)", "the iterations made: a stop at max_iter is named"),
    MDPName("any", "max_iter", "int", "(context)", "the solver's iteration cap"),
    MDPName("any", "discount, beta", "float", "(context)", "the discount the solver used (a stand-in for the average reward is named)"),
    MDPName("Storm (stormpy)", 'R{"r"}max=? [ LRA ]', "get_value_vector(), one per state", "gain", "the maximal long-run average reward"),
    MDPName("Storm (stormpy)", "scheduler", "list of S ints (each state's chosen choice)", "policy", "the scheduler's choices"),
)
"""Every solver name read natively."""

_STORM_LRA = re.compile(r'^R(\{"[^"]*"\})?(min|max)?=\?\s*\[\s*LRA\s*\]$')


@dataclass
class MDPCandidate:
    """A candidate read natively: ``values`` under :data:`MDP_KEYS`, ``context`` (not judged, read for causes),
    ``readings`` (how names were read), ``not_judged``, ``gauge_free`` (keys in a solver's own normalisation)."""

    values: dict[str, Any]
    context: dict[str, Any] = field(default_factory=dict)
    readings: list[str] = field(default_factory=list)
    not_judged: tuple[str, ...] = ()
    gauge_free: tuple[str, ...] = ()


def _native_key(name: str, candidate: Mapping[str, Any], discounted: bool) -> tuple[str | None, str]:
    """The judged key of a native name and how it was read (``None``: context or unknown)."""
    if name in MDP_KEYS:
        return name, ""
    if name == "V":
        if discounted and "average_reward" not in candidate:
            return "value", "V (pymdptoolbox: ValueIteration, PolicyIteration) read as value: the discounted value"
        return "bias", ("V (pymdptoolbox: RelativeValueIteration) read as bias: relative values, the bias up to a "
                        "constant (judged up to ker(I - P))")
    if name == "v":
        return ("value", "v (QuantEcon DiscreteDP) read as value: the discounted value at beta") if discounted else (None, "")
    if name == "average_reward":
        return "gain", "average_reward (pymdptoolbox: RelativeValueIteration) read as gain: one gain for every state"
    if name == "sigma":
        return "policy", "sigma (QuantEcon DiscreteDP) read as policy"
    if name == "scheduler":
        return "policy", "scheduler (Storm) read as policy: the chosen choice of every state"
    m = _STORM_LRA.match(" ".join(name.split()))
    if m is not None:
        if m.group(2) == "min":
            raise CandidateError(f"{name!r}: exactpte mdp maximises the reward; a minimal long-run average is not judged "
                                 "(negate the rewards and judge the maximum)")
        return "gain", f"{' '.join(name.split())} (Storm) read as gain: the maximal long-run average reward per state"
    return None, ""


def read_mdp_candidate(candidate: Mapping[str, Any], *, discounted: bool, strict: bool = False) -> MDPCandidate:
    """The candidate under :data:`MDP_KEYS` (module docstring); ``discounted``: a discount was given.

    Raises
    ------
    CandidateError
        Not a mapping, a key given twice under two names, a minimal Storm property, or (``strict``) an unknown key.
    """
    if not isinstance(candidate, Mapping):
        raise CandidateError(f"the candidate must be a mapping from names to values, got {type(candidate).__name__}")
    out = MDPCandidate({})
    source: dict[str, str] = {}
    unknown: list[str] = []
    for name, value in candidate.items():
        if not isinstance(name, str):
            raise CandidateError(f"a candidate's keys are names, got {name!r:.30}")
        key, how = _native_key(name, candidate, discounted)
        if name == "gain" and "average_reward" in candidate:  # RelativeValueIteration's own attribute, dumped whole
            key = None
            out.readings.append("gain beside average_reward: pymdptoolbox's RelativeValueIteration.gain, its value at the "
                                "reference state (not the average reward): not judged")
        if key in DISCOUNT_KEYS and not discounted:
            key = None
            if name != "V":
                out.readings.append(f"{name}: a discounted answer, not judged without --discount (read to name a cause)")
        if key is None:
            if name in CONTEXT_KEYS or name in ("v", "value", "discount_optimal_actions", "gain"):
                out.context[name] = value
                if name == "v":
                    out.readings.append("v (QuantEcon DiscreteDP): a discounted value, not judged without --discount "
                                        "(read to name a cause)")
            else:
                unknown.append(name)
            continue
        if key in out.values:
            raise CandidateError(f"the quantity {key!r} is given twice (as {source[key]!r} and {name!r})")
        out.values[key], source[key] = value, name
        if how:
            out.readings.append(how)
        if name == "V" and key == "bias":
            out.gauge_free += ("bias",)
    if unknown and strict:
        raise CandidateError(f"keys the oracle does not know: {', '.join(map(repr, unknown))} (without --strict they "
                             "are listed as not judged)")
    out.not_judged = tuple(unknown) + tuple(out.context)
    return out


def mdp_markdown_table() -> str:
    """:data:`MDP_NATIVE_NAMES` as the table in docs/judging-mdp-solvers.md.

    >>> mdp_markdown_table().splitlines()[0]
    '| solver | name | shape | judged as | reading |'
    """
    lines = ["| solver | name | shape | judged as | reading |", "|---|---|---|---|---|"]
    for e in MDP_NATIVE_NAMES:
        lines.append(f"| {e.peers} | `{e.name}` | {e.shape} | `{e.key}` | {e.reading} |")
    lines.append("| exactpte mdp | `gain`, `bias`, `policy`, `value`, `*_optimal_actions` | as printed by `exactpte mdp --json` "
                 "| the same key | numbers within the tolerances; action sets exactly |")
    lines.append("| any | any other key (`time`, `method`, ...) | any | not judged | listed as not judged; `--strict` refuses it |")
    return "\n".join(lines)
