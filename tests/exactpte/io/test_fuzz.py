"""Fuzzing every reader and constructor: nothing executes, nothing escapes the error hierarchy,
nothing hangs, and whatever is accepted reads back as the same chain.

Inputs: random text and bytes, valid files mutated (characters deleted, inserted, replaced;
lines duplicated, dropped, swapped), JSON values of the wrong type, huge literals, and code
payloads.  Every call must either succeed or raise an :class:`exactpte.ExactpteError`; an
accepted input must round-trip (written back in its format and read again, the same chain).

Each test judges its own tally (:func:`tallied`): some of its inputs were refused, and where valid inputs are
among its draws (a file with no edit, a dict left whole, a valid expression) some were accepted, so the round
trip of what is accepted ran; a reader that refused everything, or accepted everything, fails.

The CI profile runs a small budget; ``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/exactpte/io/test_fuzz.py``
runs 2,000 examples a test with a one-second deadline per input, and prints the tally
(inputs, accepted, refused by error class) at the end of the session.
"""

import ast
import json
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import exactpte
from exactpte import ExactpteError
from exactpte.fields import RationalFunctionField
from exactpte.fields.expressions import parse_expression
from exactpte.io import chain_to_dict, from_dict, loads, read_drn, read_edge_csv, read_prism, to_drn, to_edge_csv, to_prism
from exactpte.testing import compare
from exactpte.testing.strategies import chains

from paths import ROOT
from text_mutations import mutated
TALLY: Counter = Counter()
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])


def tallied(*, accepts: bool, refuses: bool = True):
    """Run a fuzzing property (``@given``) as a test that also judges its own tally: every input it draws must reach
    :func:`outcome`, and ``accepts``/``refuses`` say that some input must be accepted (so the round trip of what
    is accepted is exercised) or refused.  A fuzzer whose inputs all bounce off the first check, or all pass,
    tests far less than it seems; the tally says which."""
    def wrap(prop):
        def test() -> None:
            before = Counter(TALLY)
            prop()
            tally = TALLY - before
            refused = tally["inputs"] - tally["accepted"]
            assert tally["inputs"] >= 5, tally
            assert (tally["accepted"] > 0 or not accepts) and (refused > 0 or not refuses), f"{prop.__name__}: {tally}"
        test.__name__, test.__doc__ = prop.__name__, prop.__doc__
        return test
    return wrap


def outcome(call, *args, **kwargs):
    """Run one input: the value, or ``None`` when refused with a named error (anything else fails the test)."""
    TALLY["inputs"] += 1
    try:
        value = call(*args, **kwargs)
    except ExactpteError as e:
        TALLY[f"refused: {type(e).__name__}"] += 1
        return None
    TALLY["accepted"] += 1
    return value


small_chains = chains(max_states=6, max_classes=2, max_period=3, max_transient=3, reward_denominator=2)


def _json_text(chain) -> str:
    return json.dumps(chain_to_dict(chain, sparse=None))


# -- JSON ----------------------------------------------------------------------------------------
@tallied(accepts=True)
@FUZZ
@given(st.data(), small_chains)
def test_json_mutations(data, chain):
    text = data.draw(mutated(_json_text(chain)))
    got = outcome(loads, text)
    if got is not None:
        assert loads(json.dumps(chain_to_dict(got))) == got


@pytest.mark.parametrize("number", ["1e999999999999999999999999999999999999999", "-1e-999999999999999999999999999999"])
def test_json_numbers_beyond_any_exponent_range_are_refused_by_name(number):
    """Found by the fuzzer (seed 4258994449): Decimal raised InvalidOperation, outside the hierarchy."""
    with pytest.raises(exactpte.errors.ChainFileError, match="exponent out of any range"):
        loads('{"P": [[%s]], "r": ["0"]}' % number)
    with pytest.raises(exactpte.errors.ChainFileError, match="exponent out of any range"):
        loads(number + '{"P": [["1"]], "r": ["0"]}')


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8)
    | st.sampled_from(["1/2", "1e999999999", "9" * 5000, "p", "1-p", "0.5"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


@tallied(accepts=True)
@FUZZ
@given(st.data(), small_chains)
def test_json_type_confusion(data, chain):
    obj = chain_to_dict(chain)
    key = data.draw(st.sampled_from(sorted(obj) + ["params", "labels", "n", "edges", "P", "extra"]))
    if data.draw(st.booleans(), label="replace"):  # else the valid dict itself: its round trip is judged too
        obj[key] = data.draw(json_values)
    got = outcome(from_dict, obj)
    if got is not None:
        assert from_dict(chain_to_dict(got)) == got


@tallied(accepts=False)
@FUZZ
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_json_random_text(text):
    outcome(loads, text)


# -- DRN, PRISM, CSV ------------------------------------------------------------------------------
@tallied(accepts=True)
@FUZZ
@given(st.data(), small_chains)
def test_drn_mutations(data, chain):
    text = data.draw(mutated(to_drn(chain)))
    got = outcome(read_drn, text)
    if got is not None:
        assert read_drn(to_drn(got)) == got


@tallied(accepts=True)
@FUZZ
@given(st.data(), small_chains, st.sampled_from(["prism", "storm"]))
def test_prism_mutations(data, chain, flavour):
    tra, srew, lab = to_prism(chain, flavour=flavour)
    which = data.draw(st.sampled_from(["tra", "srew", "lab"]))
    texts = {"tra": tra, "srew": srew, "lab": lab}
    texts[which] = data.draw(mutated(texts[which]))
    got = outcome(read_prism, texts["tra"], texts["srew"], texts["lab"])
    if got is not None:
        again = read_prism(*to_prism(got, flavour=flavour)[:2])
        assert again == got


@tallied(accepts=True)
@FUZZ
@given(st.data(), small_chains)
def test_csv_mutations(data, chain):
    edges, rewards = to_edge_csv(chain)
    which = data.draw(st.sampled_from(["edges", "rewards"]))
    if which == "edges":
        edges = data.draw(mutated(edges))
    else:
        rewards = data.draw(mutated(rewards))
    got = outcome(read_edge_csv, edges, rewards)
    if got is not None:
        assert read_edge_csv(*to_edge_csv(got)) == got


@tallied(accepts=False)
@FUZZ
@given(st.text(max_size=300), st.sampled_from(["drn", "tra", "csv"]))
def test_other_readers_random_text(text, kind):
    reader = {"drn": read_drn, "tra": read_prism, "csv": read_edge_csv}[kind]
    outcome(reader, text)


# -- constructors and expressions -----------------------------------------------------------------
scalars = st.one_of(st.integers(-3, 3), st.fractions(max_denominator=5), st.floats(allow_nan=True), st.booleans(),
                    st.none(), st.text(max_size=6), st.sampled_from(["1/2", "0.5", "1e999999999", "nan", "-1"]))


valid_entries = small_chains.map(lambda c: ([[str(x) for x in row] for row in c.P], [str(x) for x in c.r]))


@tallied(accepts=True)
@FUZZ
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(st.lists(st.lists(scalars, min_size=n, max_size=n), min_size=n, max_size=n),
                                                     st.lists(scalars, min_size=n, max_size=n))) | valid_entries)
def test_constructor_with_arbitrary_entries(P_r):
    P, r = P_r
    got = outcome(exactpte.MarkovRewardProcess, P, r)
    if got is not None:
        assert from_dict(chain_to_dict(got)) == got


expression_tokens = st.sampled_from(["p", "q", "1", "2", "0.5", "1/2", "+", "-", "*", "/", "^", "**", "(", ")", "64", "9", " ",
                                     "x", "1e5", "__import__", "."])


valid_expressions = st.tuples(st.sampled_from(["p", "q", "2", "1/2", "(p - q)", "p^2", "(1 - p)**3"]), st.sampled_from(["+", "-", "*", "/"]),
                              st.sampled_from(["p", "q", "3", "2/3", "(q + 1)", "q**2"])).map(" ".join)
"""Expressions valid by construction (no denominator vanishes identically): the round trip is judged in every run."""


@tallied(accepts=True)
@FUZZ
@given(st.lists(expression_tokens, max_size=25).map("".join) | valid_expressions)
def test_expressions_from_tokens(text):
    F = RationalFunctionField(["p", "q"])
    got = outcome(parse_expression, text, F)
    if got is not None:
        assert parse_expression(F.to_text(got), F) == got  # what is printed parses back to the same function


# -- oracle candidates ------------------------------------------------------------------------------
state_vectors = st.dictionaries(st.sampled_from(["rho", "h", "g_star", "v_star"]),
                                st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.5, -0.25, 0.25]),
                                         min_size=2, max_size=2), min_size=1, max_size=2)
"""Well-formed candidates for the periodic example, NaN and infinities among their floats: read, then judged."""


@tallied(accepts=True)
@FUZZ
@given(st.dictionaries(st.sampled_from(["rho", "h", "g_star", "v_star", "classes", "periods", "basis", "theta", "bogus", "g"]),
                       json_values, min_size=1, max_size=3) | state_vectors,
       st.floats(allow_nan=True, allow_infinity=True) | st.just(1e-9))
def test_oracle_candidates(candidate, atol):
    dec = _PERIODIC
    report = outcome(compare, candidate, dec, atol=atol)
    if report is not None:
        for f in report.findings:  # a candidate holding NaN or inf never agrees
            values = candidate.get(f.key)
            if f.ok and values is not None and f.key in ("rho", "h", "g_star", "v_star", "theta"):
                flat = values if isinstance(values, list) else [values]
                assert all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in flat)
                assert all(v == v and v not in (float("inf"), float("-inf")) for v in flat if isinstance(v, float))


_PERIODIC = exactpte.decompose(exactpte.example("periodic"))


# -- code payloads --------------------------------------------------------------------------------
PAYLOADS = [
    "__import__('os').system('touch {marker}')",
    "exec(\"open('{marker}', 'w').close()\")",
    "eval(\"__import__('pathlib').Path('{marker}').touch()\")",
    "(lambda: __import__('os').system('touch {marker}'))()",
    "p*0 + __import__('os').system('touch {marker}')*0",
    "().__class__.__base__.__subclasses__()",
    "{marker}",
]


def _payload_files(marker: str):
    for payload in PAYLOADS:
        pl = payload.format(marker=marker)
        yield "c.json", json.dumps({"params": ["p"], "P": [["1-p", "p"], [0, 1]], "r": [0, pl]})
        yield "c.json", json.dumps({"params": ["p"], "P": [["1-p", pl], [0, 1]], "r": [0, 0]})
        yield "c.json", json.dumps({"params": ["p"], "n": 2, "edges": [[0, 0, "1-p"], [0, 1, pl], [1, 1, 1]], "r": [0, 0]})
        yield "c.json", json.dumps({"P": [[1, 0], [0, 1]], "r": [0, pl]})
        yield "c.json", json.dumps({"params": [pl], "P": [[1]], "r": [0]})
        yield "m.drn", f"@type: DTMC\n@parameters\np\n@nr_states\n1\n@model\nstate 0 [{pl}]\n action 0\n  0 : 1\n"
        yield "m.drn", f"@type: DTMC\n@parameters\np\n@nr_states\n1\n@model\nstate 0\n action 0\n  0 : {pl}\n"
        yield "m.drn", f"@type: DTMC\n@parameters\np\n@placeholders\n$0 : {pl}\n@nr_states\n1\n@model\nstate 0\n action 0\n  0 : $0\n"
        yield "m.tra", f"1 1\n0 0 {pl}\n"
        yield "m.csv", f"0,0,{pl}\n"


def test_code_payloads_are_refused_and_nothing_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marker = str(tmp_path / "PWNED")
    count = 0
    for name, text in _payload_files(marker):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ExactpteError):
            exactpte.load(path)
        count += 1
        assert not os.path.exists(marker) and not os.path.exists("PWNED")
    assert count == 10 * len(PAYLOADS)


def test_no_file_content_reaches_an_evaluator():
    """The package never calls eval, exec, sympify or parse_expr (sympy's parser evaluates Python)."""
    forbidden = {"eval", "exec", "sympify", "parse_expr", "S", "compile", "__import__"}
    offenders = []
    for pkg in ("exactpte", "proofs_check"):
        for path in (ROOT / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    # builtins by name (eval, exec, compile, __import__); sympy's parsers also as attributes
                    if isinstance(node.func, ast.Name):
                        name = node.func.id if node.func.id in forbidden else None
                    else:
                        name = getattr(node.func, "attr", None) if getattr(node.func, "attr", None) in ("sympify", "parse_expr") else None
                    if name:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}(...)")
    assert offenders == []


def teardown_module(module):
    if TALLY:
        print("\nfuzz tally: " + ", ".join(f"{k} {v}" for k, v in sorted(TALLY.items())))
