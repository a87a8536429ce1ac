"""Every rule of docs/formats.md, broken once: the reader refuses it with a named error.

``CASES`` maps each rule id of docs/formats.md to inputs that break it: ``(file name, content,
error class, message pattern)``, loaded with ``exactpte.load`` (extra files given as a dict of
name -> content, passed as ``rewards``/``labels``).  ``ACCEPTED`` holds inputs on the edge of a
rule that must still be read, with the value they must give.
"""

import bz2
import gzip
import json
import re

from paths import ROOT

import pytest

import exactpte
from exactpte import ChainFileError, InvalidChainError, RowSumError, ShapeError, SymbolicEntryError
from exactpte.cli.commands import main
from exactpte.errors import CandidateError, EntryError, NegativeEntryError

DOCS = ROOT / "docs" / "formats.md"

DRN_HEAD = "@type: DTMC\n@nr_states\n2\n@model\n"
DRN_BODY = "state 0\n action 0\n  1 : 1\nstate 1\n action 0\n  1 : 1\n"
TWO = '{"P": [[0, 1], [0, 1]], "r": [0, 1]}'

# rule id -> list of (name, content or bytes, extra files, exception, message regex)
CASES = {
    "file-ending": [("chain.txt", TWO, {}, ChainFileError, "unknown chain-file ending '.txt'")],
    "file-utf8": [("c.json", b'{"P": [[1]], "r": ["\xff"]}', {}, ChainFileError, "line 1: not UTF-8")],
    "file-compressed": [("c.json.gz", b"not gzip at all", {}, ChainFileError, "not a valid gzip file")],
    "file-options": [
        ("c.json", TWO, {"rewards": ("r.srew", "0 1\n")}, ChainFileError, "reward file goes with .tra or .csv"),
        ("c.json", TWO, {"labels": ("l.lab", "x")}, ChainFileError, ".lab label file goes with .tra"),
        ("c.json", TWO, {"reward_model": "x"}, ChainFileError, "reward model is chosen in .drn files"),
    ],
    "number-literal": [
        ("c.json", '{"P": [["1e999999999"]], "r": [0]}', {}, EntryError, "decimal exponent beyond"),
        ("c.json", '{"P": [[1e999999999]], "r": [0]}', {}, EntryError, "decimal exponent beyond"),
        ("c.json", '{"P": [["1_0/10"]], "r": [0]}', {}, EntryError, "not an exact number"),
        ("c.json", '{"P": [["3/-3"]], "r": [0]}', {}, EntryError, "not an exact number"),
    ],
    "chain-size": [
        ("c.json", '{"n": 1000000000000, "edges": [[0, 0, 1]], "r": [0]}', {}, ShapeError, "at least n transitions"),
        ("m.drn", "@type: DTMC\n@nr_states\n100000000000\n@model\n" + DRN_BODY, {}, ChainFileError, "has only 6 lines after @model"),
        ("m.tra", "100000000000 1\n0 0 1\n", {}, ChainFileError, "need at least 100000000000 transitions"),
        ("m.csv", "0,0,1\n999999999999,0,1\n", {}, ChainFileError, "need at least 1000000000000 transitions"),
    ],
    "chain-duplicate-edge": [
        ("c.json", '{"n": 1, "edges": [[0, 0, "1/2"], [0, 0, "1/2"]], "r": [0]}', {}, ShapeError, "repeats the transition 0 -> 0"),
        ("c.json", '{"params": ["p"], "n": 1, "edges": [[0, 0, "p"], [0, 0, "1-p"]], "r": [0]}', {}, ShapeError, "repeats the transition"),
    ],
    "chain-stochastic": [
        ("c.json", '{"P": [[1, 0], ["1/2", "3/5"]], "r": [0, 0]}', {}, RowSumError, "row 1 sums to 11/10"),
        ("c.json", '{"P": [[0.3333333333333333, 0.6666666666666666], [0, 1]], "r": [0, 0]}', {}, RowSumError,
         "decimals are read exactly.*MarkovRewardProcess.from_float"),
    ],
    "json-syntax": [
        ("c.json", '{"P": [[NaN]], "r": [0]}', {}, ChainFileError, "NaN is not a number"),
        ("c.json", "[" * 100000 + "]" * 100000, {}, ChainFileError, "nested too deeply|not valid JSON"),
    ],
    "json-duplicate-key": [("c.json", '{"P": [[1]], "r": [0], "r": [1]}', {}, ChainFileError, "key 'r' appears twice")],
    "json-unknown-key": [("c.json", '{"P": [[1]], "r": [0], "rewards": [1]}', {}, ChainFileError, r"unknown key\(s\) \['rewards'\]")],
    "json-form": [
        ("c.json", '{"P": [[1]], "n": 1, "edges": [[0, 0, 1]], "r": [0]}', {}, ChainFileError, "not both"),
        ("c.json", '{"P": [[1]]}', {}, ChainFileError, "missing key 'r'"),
        ("c.json", '{"edges": [[0, 0, 1]], "r": [0]}', {}, ChainFileError, "needs 'n'"),
    ],
    "json-types": [
        ("c.json", '{"P": ["10", "01"], "r": [0, 0]}', {}, ChainFileError, r"P\[0\] is the string '10', expected a list"),
        ("c.json", '{"P": true, "r": [0]}', {}, ChainFileError, "'P' is the boolean true"),
        ("c.json", '{"P": [[1]], "r": null}', {}, ChainFileError, "'r' is null"),
        ("c.json", '{"P": [[true]], "r": [0]}', {}, ChainFileError, r"P\[0\]\[0\] is the boolean true"),
        ("c.json", '{"P": [[1]], "r": [0], "labels": "a"}', {}, ChainFileError, "'labels' is the string 'a'"),
        ("c.json", '{"P": [[1]], "r": [0], "labels": [1]}', {}, ChainFileError, r"labels\[0\] is the number 1"),
        ("c.json", '{"n": 1.0, "edges": [[0, 0, 1]], "r": [0]}', {}, ChainFileError, "'n' is the number 1.0, expected an integer"),
        ("c.json", '{"n": 1, "edges": [[0, 0]], "r": [0]}', {}, ChainFileError, r"edges\[0\] is a list, expected a triple"),
    ],
    "json-labels": [("c.json", '{"P": [[0, 1], [0, 1]], "r": [0, 0], "labels": ["a", "a"]}', {}, InvalidChainError, "label 'a' is used by states 0 and 1")],
    "json-params": [
        ("c.json", '{"P": [[1]], "r": [0], "params": []}', {}, ChainFileError, "non-empty list of parameter names"),
        ("c.json", '{"P": [[1]], "r": [0], "params": ["p", "p"]}', {}, SymbolicEntryError, "repeat a name"),
        ("c.json", '{"P": [[1]], "r": [0], "params": ["1p"]}', {}, ChainFileError, "parameter names"),
        # found by the fuzzer: a non-ASCII identifier reached python-flint and raised UnicodeEncodeError
        ("c.json", '{"P": [[1]], "r": [0], "params": ["\u00c0"]}', {}, ChainFileError, "ASCII identifiers"),
    ],
    "json-expression": [("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "p +"]}', {}, SymbolicEntryError, "ends too early")],
    "expr-names": [
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "__import__"]}', {}, SymbolicEntryError, "unknown symbol '__import__'"),
        ("c.json", '{"params": ["p"], "P": [["1-sqrt(p)", "sqrt(p)"], [0, 1]], "r": [0, 0]}', {}, SymbolicEntryError, "unknown symbol 'sqrt'"),
    ],
    "expr-syntax": [
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "3p"]}', {}, SymbolicEntryError, "unexpected 'p' at position 1"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "p; 1"]}', {}, SymbolicEntryError, "unexpected ';"),
    ],
    "expr-power": [
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "p^\u0662"]}', {}, SymbolicEntryError, "unexpected"),  # int('\u0662') is 2
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "9**9**9"]}', {}, SymbolicEntryError, "chained powers"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "p^65"]}', {}, SymbolicEntryError, "exponent 65 exceeds 64"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "p^p"]}', {}, SymbolicEntryError, "non-negative integer literal"),
    ],
    "expr-bounds": [
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "' + "(" * 150 + "p" + ")" * 150 + '"]}', {}, SymbolicEntryError, "nested"),
        ("c.json", '{"params": ["p", "q"], "P": [["1-p", "p"], [0, 1]], "r": [0, "(p+q+1)^64"]}', {}, SymbolicEntryError, "terms is formed"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "((2^64)^64)^64"]}', {}, SymbolicEntryError, "bits is formed"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "1/(p-p)"]}', {}, SymbolicEntryError, "division by zero"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "1e56464"]}', {}, SymbolicEntryError, "more than 20000 bits"),
        ("c.json", '{"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, "' + "p+" * 6000 + 'p"]}', {}, SymbolicEntryError, "more than the 10000 allowed"),
    ],
    "expr-sign": [("c.json", '{"params": ["p"], "P": [["p - p^2 - 1", "2 - p + p^2"], [0, 1]], "r": [0, 0]}', {}, NegativeEntryError, "negative for every value")],
    "drn-header": [
        ("m.drn", "@type: DTMC\n@nr_states\n\u0662\n@model\n" + DRN_BODY, {}, ChainFileError, "positive integer"),
        ("m.drn", "@type: DTMC\n@type: DTMC\n@nr_states\n2\n@model\n" + DRN_BODY, {}, ChainFileError, "@type is declared twice"),
        ("m.drn", "@type: DTMC\n@frobnicate\n@nr_states\n2\n@model\n" + DRN_BODY, {}, ChainFileError, "unknown header line '@frobnicate'"),
        ("m.drn", "@type: DTMC\n@model\n" + DRN_BODY, {}, ChainFileError, "missing '@nr_states'"),
        ("m.drn", "@type: DTMC\n@nr_states\n2\n@nr_choices\n3\n@model\n" + DRN_BODY, {}, ChainFileError, "one choice per state"),
        ("m.drn", "@type: DTMC\n@nr_states\nmany\n@model\n" + DRN_BODY, {}, ChainFileError, "positive integer"),
        ("m.drn", "@model\n" + DRN_BODY, {}, ChainFileError, "missing '@type: DTMC'"),
    ],
    "drn-type": [("m.drn", "@type: MDP\n@nr_states\n2\n@model\n", {}, ChainFileError, "MDP is not supported")],
    "drn-states": [
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 : 1\nstate \u0661\n action 0\n  1 : 1\n", {}, ChainFileError, "expected state 1"),
        ("m.drn", DRN_HEAD + DRN_BODY + "state 1\n action 0\n  1 : 1\n", {}, ChainFileError, "expected state 2, got '1'"),
        ("m.drn", DRN_HEAD + "state 1\n action 0\n  1 : 1\nstate 0\n action 0\n  0 : 1\n", {}, ChainFileError, "expected state 0, got '1'"),
        ("m.drn", DRN_HEAD + DRN_BODY + "state 2\n action 0\n  1 : 1\n", {}, ChainFileError, "state 2 is past @nr_states = 2"),
        ("m.drn", "@type: DTMC\n@nr_states\n3\n@model\n" + DRN_BODY, {}, ChainFileError, "lists 2 state"),
    ],
    "drn-actions": [
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 : 1\n action 1\n  0 : 1\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "second action"),
        ("m.drn", DRN_HEAD + "state 0\n  1 : 1\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "before the state's action"),
        ("m.drn", DRN_HEAD + "state 0\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "state 0 has no action"),
    ],
    "drn-transitions": [
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  \u0661 : 1\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "is not a state"),
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 : 1/2\n  1 : 1/2\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "lists target 1 twice"),
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  7 : 1\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "target '7' is not a state"),
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 1\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "cannot read '1 1'"),
    ],
    "drn-values": [
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 : p\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "declares them in @parameters"),
        ("m.drn", DRN_HEAD + "state 0\n action 0\n  1 : $x\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "placeholder \\$x is not defined"),
        ("m.drn", "@type: DTMC\n@parameters\np\n@nr_states\n2\n@model\nstate 0\n action 0\n  1 : exec(p)\nstate 1\n action 0\n  1 : 1\n", {}, ChainFileError, "unknown symbol 'exec'"),
    ],
    "drn-rewards": [
        ("m.drn", "@type: DTMC\n@reward_models\na b\n@nr_states\n2\n@model\nstate 0 [1, 2]\n action 0\n  1 : 1\nstate 1 [0, 0]\n action 0\n  1 : 1\n", {}, ChainFileError, r"2 reward models \(a, b\)"),
        ("m.drn", DRN_HEAD + "state 0 [1]\n action 0\n  1 : 1\nstate 1\n action 0\n  1 : 1\n", {"reward_model": "x"}, ChainFileError, "no reward model 'x'; the file has rew0"),
    ],
    "prism-header": [
        ("m.tra", "\u0662 2\n0 1 1\n1 1 1\n", {}, ChainFileError, "the first line is 'states transitions'"),
        ("m.tra", "2 2\n0 \u0661 1\n1 1 1\n", {}, ChainFileError, "not a state index"),
        ("m.tra", "2 3\n0 1 1\n1 1 1\n", {}, ChainFileError, "announces 3 transitions, the file has 2"),
        ("m.tra", "2 2\n0 5 1\n1 1 1\n", {}, ChainFileError, "outside 0..1"),
        ("m.tra", "two states\n0 1 1\n", {}, ChainFileError, "the first line is 'states transitions'"),
    ],
    "prism-type": [("m.tra", "mdp\n0 0 1 1\n", {}, ChainFileError, "model type mdp is not supported")],
    "prism-lines": [
        ("m.tra", "2 2\n0 1 0 1\n1 1 1\n", {}, ChainFileError, "choice 1 of state 0"),
        ("m.tra", "2 2\n0 1 1 9east\n1 1 1\n", {}, ChainFileError, "neither a probability nor an action label"),
        ("m.tra", "2 2\n0 1 1 a b\n1 1 1\n", {}, ChainFileError, "expected 'source target probability'"),
    ],
    "prism-srew": [
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"rewards": ("m.srew", "2 2\n\u0661 5\n0 7\n")}, ChainFileError, "not a state index"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"rewards": ("m.srew", "0 5\n1 7\n")}, ChainFileError, "the header names 0 states"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"rewards": ("m.srew", "2 2\n0 5\n0 7\n")}, ChainFileError, "state 0 has a second reward line"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"rewards": ("m.srew", "2 3\n0 5\n1 7\n")}, ChainFileError, "announces 3 rewards, the file has 2"),
    ],
    "prism-trew": [
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"rewards": ("m.trew", "2 1\n1 0 5\n")}, ChainFileError, "not a transition of the chain"),
        ("m.tra", "dtmc\n0 1 1\n1 1 1\n", {"rewards": ("m.trans.rew", "0 1 5\n0 1 5\n")}, ChainFileError, "second reward line"),
    ],
    "prism-lab": [
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"labels": ("m.lab", '0="init"\n\u0661: 0\n')}, ChainFileError, "not a state index"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"labels": ("m.lab", '0="init"\n0: \u0661\n')}, ChainFileError, "not a declared label id"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"labels": ("m.lab", "init deadlock\n0: 0\n")}, ChainFileError, "declares labels as"),
        ("m.tra", "2 2\n0 1 1\n1 1 1\n", {"labels": ("m.lab", '0="init"\n0: 3\n')}, ChainFileError, "not a declared label id"),
        ("m.tra", "dtmc\n0 1 1\n1 1 1\n", {"labels": ("m.lab", "#DECLARATION\ninit\n#END\n0 done\n")}, ChainFileError, r"undeclared label\(s\) \['done'\]"),
    ],
    "csv-edges": [
        ("m.csv", "0,\u0661,1\n1,1,1\n", {}, ChainFileError, "not a state index"),
        ("m.csv", "from,to,p\n0,1,1\n1,1,1\n", {}, ChainFileError,
         "line 1: 'from,to,p' is neither data nor the header 'source,target,probability'"),
        ("m.csv", "0,1,1\nfrom,to,p\n1,1,1\n", {}, ChainFileError, "line 2: 'from' is not a state index"),
        ("m.csv", "0,1\n1,1,1\n", {}, ChainFileError, "expected 'source,target,probability'"),
    ],
    "csv-rewards": [
        ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "1/2\n3\n4\n")}, ChainFileError, "3 reward rows for 2 states"),
        ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "0,1\n0,2\n")}, ChainFileError, "state 0 has a second reward row"),
        ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "0,1\n")}, ChainFileError, r"no reward for state\(s\) \[1\]"),
        ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "0,1\n5\n")}, ChainFileError, "not a mix"),
        ("m.csv", "0,0,1\n", {"rewards": ("r.csv", "reward\n0,0\n")}, ChainFileError, "every row is 'reward', not a mix"),  # found by fuzzing
        ("m.csv", "0,0,1\n", {"rewards": ("r.csv", "rewards\n0\n")}, ChainFileError,
         "line 1: 'rewards' is neither data nor the header 'state,reward' or 'reward'"),
    ],
}

# inputs on the edge of a rule that are read, with what they must give (rho as strings)
ACCEPTED = [
    ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "1/2\n0.5\n")}, ["1/2", "1/2"]),  # no value taken for a header
    ("m.csv", "0,1,1\n1,1,1\n", {"rewards": ("r.csv", "reward\n1/2\n1/2\n")}, ["1/2", "1/2"]),
    ("m.tra", "dTmC\n0 1 1\n1 1 1\n", {"rewards": ("m.state.rew", "1 3\n")}, ["3", "3"]),
    ("m.tra", "2 2\n0 1 1 east\n1 1 1 west\n", {"rewards": ("m.srew", "2 1\n1 3\n")}, ["3", "3"]),
    ("m.drn", "@type: dTmC\n@nr_states\n2\n@model\nstate 0\n action a [2]\n  1 : 1\nstate 1 [1]\n action b [1/2]\n  1 : 1\n", {}, ["3/2", "3/2"]),
    ("c.json", '{"P": [[0, 1], [0, 1]], "r": [0, 1e-3]}', {}, ["1/1000", "1/1000"]),
    ("c.json.gz", gzip.compress(TWO.encode(), mtime=0), {}, ["1", "1"]),
    ("c.json.bz2", bz2.compress(TWO.encode()), {}, ["1", "1"]),
    ("c.json", "\ufeff" + TWO, {}, ["1", "1"]),
]


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _load(tmp_path, name, content, extra):
    path = _write(tmp_path, name, content)
    kwargs = {}
    for key, value in extra.items():
        kwargs[key] = _write(tmp_path, *value) if isinstance(value, tuple) else value
    return exactpte.load(path, **kwargs)


@pytest.mark.parametrize("rule, name, content, extra, error, message",
                         [(rule, *case) for rule, cases in CASES.items() for case in cases],
                         ids=lambda x: x if isinstance(x, str) and len(x) < 25 and "\n" not in x else None)
def test_rule_is_enforced(tmp_path, rule, name, content, extra, error, message):
    with pytest.raises(error, match=message):
        _load(tmp_path, name, content, extra)


@pytest.mark.parametrize("name, content, extra, rho", ACCEPTED)
def test_edge_inputs_are_read_exactly(tmp_path, name, content, extra, rho):
    assert [str(x) for x in exactpte.gain(_load(tmp_path, name, content, extra))] == rho


def test_every_documented_rule_has_a_test():
    documented = re.findall(r"^\| `([a-z0-9-]+)` \|", DOCS.read_text(encoding="utf-8"), flags=re.M)
    oracle_rules = {"candidate-keys", "candidate-values", "candidate-csv", "candidate-tolerance", "candidate-npz"}
    assert documented and set(documented) == set(CASES) | oracle_rules | set(MDP_CASES)


# -- MDP files (the same document) ----------------------------------------------------------------------
MDP_DRN = "@type: MDP\n@nr_states\n1\n@nr_choices\n1\n@model\nstate 0\n action 0\n  0 : 1\n"
MDP_CASES = {
    "mdp-keys": [("m.json", '{"P": [[[1]]], "R": [[1]], "gamma": 0.9}', ChainFileError, "unknown key.*'discount'"),
                 ("m.json", '{"P": [[[1]]], "R": [[1]], "discount": 1}', ChainFileError, "'discount': the discount must lie strictly"),
                 ("m.json", '{"P": [[[1]]], "Q": [[[1]]], "R": [[1]]}', ChainFileError, "not 'P' and 'Q'"),
                 ("m.json", '{"P": [[[1]]], "R": [[1]], "R": [[2]]}', ChainFileError, "appears twice")],
    "mdp-layout": [("m.json", '{"P": {"0": {"0": [[1, 0, 1, false]]}}, "R": [[1]]}', ChainFileError, "holds its rewards in its outcomes"),
                   ("m.json", '{"P": [[[1, 0], [0, 1]], [[1, 0], [0, 0, 1]]], "R": [[0, 0], [0, 0]]}', ShapeError,
                    r"P\[1\]\[1\] has 3 entries")],
    "mdp-rewards": [("m.json", '{"P": [[[1, 0], [0, 1]]], "R": [[0, 1], [0]]}', ShapeError, r"R\[0\] has 2 rewards, state 0 has 1 actions")],
    "mdp-values": [("m.json", '{"P": [[[true]]], "R": [[1]]}', ChainFileError, "is the boolean true"),
                   ("m.json", '{"Q": [[{"0": null}]], "R": [[1]]}', ChainFileError, "is null")],
    "mdp-stochastic": [("m.json", '{"P": [[["1/2", "1/3"], [0, 1]]], "R": [[0], [0]]}', RowSumError, r"m.json: P\(.\|0, a=0\) sums to 5/6"),
                       ("m.json", '{"P": [[[2, -1], [0, 1]]], "R": [[0], [0]]}', NegativeEntryError, r"P\(1\|0, a=0\) is -1")],
    "mdp-drn": [("m.drn", MDP_DRN.replace("@nr_choices\n1", "@nr_choices\n2"), ChainFileError, "@nr_choices is '2', the model lists 1"),
                ("m.drn", MDP_DRN.replace("MDP", "DTMC"), ChainFileError, "exactpte mdp reads MDPs"),
                ("m.drn", MDP_DRN.replace(" action 0\n  0 : 1\n", ""), ChainFileError, "state 0 has no action")],
    "mdp-tra": [("m.tra", "1 1 2\n0 0 0 1\n", ChainFileError, "announces 2 transitions"),
                ("m.tra", "1 2 1\n0 0 0 1\n", ChainFileError, "announces 2 choices"),
                ("m.tra", "mdp\n0 1 0 1\n", ShapeError, "none for action 0")],
}


@pytest.mark.parametrize("rule, name, content, error, message",
                         [(rule, *case) for rule, cases in MDP_CASES.items() for case in cases])
def test_every_mdp_rule_is_enforced(tmp_path, rule, name, content, error, message):
    from exactpte.io import load_mdp

    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(error, match=message):
        load_mdp(path)


def test_the_documented_mdp_examples_read():
    from exactpte.io import loads_mdp

    block = re.findall(r"```text\n(\{.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)[0]
    mdps = [loads_mdp(line.split("   ")[0].strip()) for line in block.strip().splitlines()]
    assert [m.num_actions for m in mdps] == [(2, 2), (2, 1), (2, 1), (1, 1)]


# -- oracle candidates (the same document, last section) ----------------------------------------
@pytest.fixture()
def chain_file(tmp_path):
    path = tmp_path / "chain.json"
    exactpte.dump(exactpte.example("periodic"), path)
    return path


@pytest.mark.parametrize(
    "rule, name, content, message",
    [
        ("candidate-keys", "c.json", '{"rho": [0.5, 0.5], "gian": [1, 2]}', "keys the oracle does not know: 'gian'"),
        ("candidate-values", "c.json", '{"rho": ["half", 0.5]}', r"rho\[0\] is 'half', not a number"),
        ("candidate-values", "c.json", '{"rho": [true, 0.5]}', r"rho\[0\] is True"),
        ("candidate-csv", "c.csv", "state,rho\n0,0.5\n0,0.5\n", r"list 0..1 once each \(repeated: \[0\]"),
        ("candidate-csv", "c.csv", "state,rho\n0,0.5\n7,0.5\n", r"out of range: \[7\]"),
        ("candidate-csv", "c.csv", "state,rhoo\n0,0.5\n1,0.5\n", "column 'rhoo' is not a per-state quantity"),
    ],
)
def test_candidate_rules(tmp_path, chain_file, capsys, rule, name, content, message):
    path = _write(tmp_path, name, content)
    strict = ["--strict"] if rule == "candidate-keys" else []  # without it an unknown key is listed as not judged
    assert main(["check", str(path), "--chain", str(chain_file), *strict]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err) and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("content", ['{"rho": [NaN, 0.5]}', '{"rho": [Infinity, 0.5]}', '{"rho": ["nan", "nan"]}'])
def test_nonfinite_candidates_never_agree(tmp_path, chain_file, capsys, content):
    path = _write(tmp_path, "c.json", content)
    assert main(["check", str(path), "--chain", str(chain_file)]) == 1
    assert "not finite (nan or inf) at states" in capsys.readouterr().out


def test_candidate_npz_rule(tmp_path, chain_file, capsys):
    import numpy as np

    np.savez_compressed(tmp_path / "c.npz", rho=np.zeros(10_000))  # the periodic example: n = 2, at most 6 numbers
    assert main(["check", str(tmp_path / "c.npz"), "--chain", str(chain_file)]) == 2
    assert "more than 6 numbers" in capsys.readouterr().err


@pytest.mark.parametrize("atol", ["nan", "-1", "inf", "x"])
def test_candidate_tolerance_rule(tmp_path, chain_file, capsys, atol):
    path = _write(tmp_path, "c.json", json.dumps({"rho": [0.5, 0.5]}))
    assert main(["check", str(path), "--chain", str(chain_file), "--atol", atol]) == 2
    assert "--atol" in capsys.readouterr().err
    with pytest.raises(exactpte.UsageError):
        from exactpte.testing import compare

        compare({"rho": [0.5, 0.5]}, exactpte.example("periodic"), atol=float(atol) if atol != "x" else atol)


def test_npz_candidates_with_nan_or_objects(tmp_path, chain_file, capsys):
    import numpy as np
    p = tmp_path / "c.npz"
    np.savez(p, rho=np.array([np.nan, 0.5]))
    assert main(["check", str(p), "--chain", str(chain_file)]) == 1
    np.savez(p, rho=np.array(["a", "b"], dtype=object))
    assert main(["check", str(p), "--chain", str(chain_file)]) == 2
    assert "cannot read as .npz" in capsys.readouterr().err


def test_candidate_error_is_named():
    with pytest.raises(CandidateError):
        from exactpte.testing import compare

        compare({"classes": [["a"]]}, exactpte.example("periodic"))
