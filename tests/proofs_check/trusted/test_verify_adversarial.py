"""Adversarial input for the small trusted checker (proofs_check/verify.py): no traceback and no hang on hostile
files, the size of hostile numbers bounded by a budget, and valid claims still accepted (red-team review)."""

from __future__ import annotations

import json

import pytest

import exactpte
from proofs_check.trusted import verify as trusted
from proofs_check.cli import main
from conftest import cpu_budget

BRANCHING = exactpte.example("branching")


def chain_dict(chain) -> dict:
    return {"n": chain.n, "edges": [[i, j, str(p)] for i, j, p in chain.edges()], "r": [str(x) for x in chain.r]}


def claim_of(chain) -> dict:
    return json.loads(exactpte.decompose(chain).to_json(include_hitting_times=True))


def fast(f, *args, limit=10.0, **kw):
    """``f(*args, **kw)``, returned or raised within ``limit`` seconds of this process's CPU (:func:`cpu_budget`).
    Measured: every call of the default suite below takes under 0.1 s of CPU (a margin of 20 or more), the slow
    witness-system test 7.5 s (limit 30); what each guards took from 8 s to minutes."""
    with cpu_budget(limit):
        return f(*args, **kw)


@pytest.mark.parametrize("which", ["claim", "chain"])
def test_deeply_nested_json_is_a_named_error_not_a_recursion_error(tmp_path, which):
    path = tmp_path / f"{which}.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        trusted.load_json(path, exact_floats=which == "chain")


def test_a_decimal_literal_with_a_huge_exponent_in_a_chain_file_is_refused_at_once(tmp_path):
    path = tmp_path / "chain.json"
    path.write_text('{"P": [[1]], "r": [1e999999999]}')
    with pytest.raises(ValueError, match="exponent"):
        fast(trusted.load_json, path, exact_floats=True)
    path.write_text('{"P": [[1]], "r": [-2.5e-9999]}')  # a 4-digit exponent is read exactly, as in a string
    assert trusted.load_json(path, exact_floats=True)["r"][0] == -25 * trusted.Fraction(1, 10**10000)


def test_a_sparse_chain_with_a_huge_n_and_few_edges_is_refused_at_once():
    with pytest.raises(ValueError, match="n must be"):
        fast(trusted.verify, {}, {"n": 10**12, "edges": [[0, 0, 1]], "r": [0]})


def test_json_integers_beyond_the_int_digit_limit_are_read(tmp_path):
    big = "1" + "0" * 4999 + "7"  # Python refuses int(str) past 4,300 digits by default: json.load raised a bare ValueError
    chain = exactpte.MarkovRewardProcess.from_edges(3, [(0, 1, 1), (1, 0, 1), (2, 0, "1/3"), (2, 2, "2/3")], [big, 0, 1])
    claim = json.dumps(claim_of(chain))
    assert f'"{big}"' in claim
    (tmp_path / "claim.json").write_text(claim.replace(f'"{big}"', big))
    (tmp_path / "chain.json").write_text(json.dumps(chain_dict(chain)).replace(f'"{big}"', big))
    assert main(["verify", str(tmp_path / "claim.json"), "--chain", str(tmp_path / "chain.json")]) == 0


def _cycle(n):
    edges = [(i, (i + 1) % n, 1) for i in range(1, n)] + [(0, 0, "1/2"), (0, 1, "1/2")]
    return exactpte.MarkovRewardProcess.from_edges(n, edges, [1] + [0] * (n - 1))


@pytest.mark.slow
def test_many_distinct_denominators_are_refused_by_the_size_budget_not_multiplied_out():
    # before: 1,600 entries 1/(10^300 + k) (a 0.5 MB claim) took 14 s, and the time grows with the square of n
    chain = _cycle(1600)
    claim = {k: v for k, v in claim_of(chain).items() if k in ("classes", "stationary", "rho")}
    claim["h"] = [f"1/{10**300 + 2 * k + 1}" for k in range(chain.n)]
    with pytest.raises(ValueError, match="size budget"):
        fast(trusted.verify, claim, chain_dict(chain), limit=5)


@pytest.mark.parametrize("key", ["h", "basis"])
def test_a_number_of_a_million_digits_is_refused_by_the_size_budget(key):
    claim = claim_of(BRANCHING)  # before: 8 s to read the number, 24 s more to print it in the failure
    if key == "h":
        claim["h"][0] = "7" * 10**6
    else:
        claim["basis"][5][0] = "1/" + "3" * 10**6
    with pytest.raises(ValueError, match="size budget"):
        fast(trusted.verify, claim, chain_dict(BRANCHING), limit=2)


def test_the_size_budget_can_be_raised():
    claim = claim_of(BRANCHING)
    claim["h"][0] = "7" * 70_000
    with pytest.raises(ValueError, match="size budget"):
        trusted.verify(claim, chain_dict(BRANCHING))
    report = trusted.verify(claim, chain_dict(BRANCHING), size_factor=10**6)
    assert not report.valid and report.failure[:2] == ("h", 0)


def test_valid_claims_are_within_the_size_budget():
    big = 10**3000 + 1  # large rewards and large denominators in the chain raise the budget with them
    chain = exactpte.MarkovRewardProcess.from_edges(
        4, [(0, 1, 1), (1, 0, 1), (2, 0, f"1/{big}"), (2, 2, f"{big - 1}/{big}"), (3, 2, "1/2"), (3, 1, "1/2")], [big, 0, 1, -big])
    assert trusted.verify(claim_of(chain), chain_dict(chain)).valid


def test_the_cli_refuses_a_claim_beyond_the_size_budget_with_exit_2_and_takes_size_factor(tmp_path, capsys):
    claim = claim_of(BRANCHING)
    claim["h"][0] = "7" * 70_000
    (tmp_path / "claim.json").write_text(json.dumps(claim))
    (tmp_path / "chain.json").write_text(json.dumps(chain_dict(BRANCHING)))
    args = ["verify", str(tmp_path / "claim.json"), "--chain", str(tmp_path / "chain.json")]
    assert main(args) == 2 and "size budget" in capsys.readouterr().err
    assert main(args + ["--size-factor", "1000000"]) == 1


def test_a_corrupt_gzip_file_is_a_named_error_and_a_byte_order_mark_is_read(tmp_path):
    import gzip

    text = json.dumps(claim_of(BRANCHING)).encode()
    data = gzip.compress(text)
    (tmp_path / "bad.json.gz").write_bytes(data[:20] + bytes(b ^ 0x55 for b in data[20:60]) + data[60:])
    with pytest.raises(ValueError, match="cannot read"):  # before: zlib.error, a traceback and exit 1 ("invalid")
        trusted.load_json(tmp_path / "bad.json.gz")
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + text)
    assert trusted.verify(trusted.load_json(tmp_path / "bom.json"), chain_dict(BRANCHING)).valid


def test_a_missing_file_is_named_without_errno(tmp_path):
    with pytest.raises(ValueError, match=r"nosuch\.json: cannot read \(No such file or directory\)$"):
        trusted.load_json(tmp_path / "nosuch.json")


def test_non_string_keys_through_the_python_api_are_unknown_keys_not_a_type_error():
    report = trusted.verify({**claim_of(BRANCHING), 1: "x", "zz": 2}, chain_dict(BRANCHING))
    assert not report.valid and report.failure[0] in (1, "zz")


def test_chain_numbers_follow_the_documented_limits_of_exactpte_readers():
    # docs/formats.md: a decimal exponent of at most +-100,000 and at most 1,000,000 digits; verify.py refused
    # exponents of 5 digits that exactpte.load reads, and spent minutes on a chain number of 10^7 digits
    chain = {"n": 1, "edges": [[0, 0, 1]], "r": ["1e-10000"]}
    assert exactpte.loads(json.dumps(chain)).r[0] * 10**10000 == 1
    claim = {"classes": [[0]], "stationary": [["1"]], "rho": ["1/1" + "0" * 10000]}
    assert trusted.verify(claim, chain).valid
    long = "7" * (10**7)
    with pytest.raises(ValueError, match="not an exact number") as e:
        fast(trusted.verify, claim, {**chain, "r": [long]}, limit=2)
    assert len(str(e.value)) < 300  # the number is not printed back in full


def test_a_long_garbage_string_is_not_printed_back_in_full():
    claim = claim_of(BRANCHING)
    claim["h"][0] = "x" * 50_000
    report = trusted.verify(claim, chain_dict(BRANCHING))
    assert not report.valid and report.failure[:2] == ("h", 0) and len(report.text()) < 2000


def test_a_repeated_key_is_named(tmp_path):
    text = json.dumps(claim_of(BRANCHING)).replace('"h": [', '"h": ["9", "9", "9", "9", "9", "9", "9"], "h": [')
    (tmp_path / "claim.json").write_text(text)
    with pytest.raises(ValueError, match=r"twice in one object: \['h'\]"):
        trusted.load_json(tmp_path / "claim.json")


# -- a second adversarial review ---------------------------------------------------------------------------------
def _labelled(chain) -> dict:
    return {**chain_dict(chain), "labels": list(chain.labels)}


@pytest.mark.parametrize("labels", [lambda ls: ls[::-1], lambda ls: ["a"] * len(ls), lambda ls: ls[:-1], lambda ls: [1] * len(ls)])
def test_labels_that_are_not_the_chains_fail(labels):
    """verify compared no label with the chain's: reversed labels, or seven copies of one, were VALID."""
    claim = claim_of(BRANCHING)
    report = trusted.verify({**claim, "labels": labels(claim["labels"])}, _labelled(BRANCHING))
    assert not report.valid and report.failure[0] == "labels"
    assert trusted.verify(claim, _labelled(BRANCHING)).valid  # the chain's own labels hold


@pytest.mark.parametrize("labels", [[5, 5, 5, 5, 5, 5, 5], ["a"] * 7, ["a"]])
def test_a_chain_whose_labels_break_the_format_is_unusable(labels):
    with pytest.raises(ValueError, match="labels null or n distinct strings"):
        trusted.verify(claim_of(BRANCHING), {**chain_dict(BRANCHING), "labels": labels})


@pytest.mark.slow
def test_a_witness_system_that_fills_in_is_refused_quickly_not_solved_for_minutes():
    """A claim of rho and h alone on a random sparse 500-state chain made verify solve for the stationary
    distribution by dense elimination (49 s); past SOLVE_OPS elimination steps it is unusable, at once."""
    import random

    n, rng, edges = 500, random.Random(500), []
    for i in range(n):
        succ = {(i + 1) % n} | set(rng.sample(range(n), 2))
        edges += [[i, j, f"1/{len(succ)}"] for j in succ]
    chain = {"n": n, "edges": edges, "r": [i % 3 for i in range(n)]}
    claim = {"classes": [list(range(n))], "class_gain": ["1"]}
    with pytest.raises(ValueError, match="fills in past"):
        fast(trusted.verify, claim, chain, limit=30)


def test_numbers_in_failure_messages_are_quoted_short():
    """A wrong class gain of 60,000 digits came back in full (120 KB of output); messages quote numbers in at
    most 60 characters and say how long they are."""
    claim = claim_of(BRANCHING)
    claim["class_gain"][0] = "1" + "0" * 60_000
    report = trusted.verify(claim, chain_dict(BRANCHING))
    assert not report.valid and report.failure[0] == "class_gain"
    assert len(report.text()) < 2000 and "60001 characters" in report.text()


def test_a_chain_decimal_of_5000_digits_is_read_exactly():
    """Python's 4,300-digit limit on int(str) stopped the reader before verify lifted it; digits go through Decimal."""
    literal = "0." + "0" * 4999 + "1"
    chain = json.loads('{"n": 1, "edges": [[0, 0, 1]], "r": [' + literal + ']}', parse_float=str)
    claim = {"classes": [[0]], "stationary": [["1"]], "class_gain": [f"1/1{'0' * 5000}"]}
    assert trusted.verify(claim, chain).valid


def test_the_file_reader_reads_a_long_decimal_literal(tmp_path):
    path = tmp_path / "chain.json"
    path.write_text('{"n": 1, "edges": [[0, 0, 1]], "r": [0.' + "0" * 4999 + "1]}")
    chain = trusted.load_json(path, exact_floats=True)
    assert trusted.verify({"classes": [[0]], "class_gain": [f"1/1{'0' * 5000}"]}, chain).valid


def test_a_factored_claim_is_judged_through_its_names_and_a_wrong_name_fails():
    chain = exactpte.example("paper-benchmark")
    claim = json.loads(exactpte.decompose(chain).to_json(factored=True))
    assert trusted.verify(claim, chain_dict(chain)).valid
    name = next(k for k, v in claim["denominators"].items() if len(v) > 10)
    claim["denominators"][name] = str(int(claim["denominators"][name]) + 1)
    assert not trusted.verify(claim, chain_dict(chain)).valid


def test_a_factored_claim_whose_names_would_explode_is_not_written_out():
    # a 180 KB claim naming one 15,000-digit denominator 12,000 times: written out into the text (as verify did), 180 MB of
    # JSON, parsed again (0.86 GB and 7 s for 20,000 uses); read through the name, each entry shares one integer
    import tracemalloc

    chain = exactpte.example("branching")
    claim = claim_of(chain)
    claim["denominators"] = {"D1": "7" * 15_000}
    claim["labels"] = ["1/D1"] * 12_000  # labels are not numbers: never rewritten (and of the wrong length: FAIL)
    tracemalloc.start()
    report = fast(trusted.verify, claim, chain_dict(chain))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert not report.valid and report.failure[0] == "labels"
    assert peak < 20 * 2**20


def test_a_label_that_looks_like_a_named_fraction_is_not_rewritten():
    chain = exactpte.MarkovRewardProcess.from_edges(2, [(0, 1, 1), (1, 0, 1)], [1, 0], labels=["s/D1", "t"])
    data = {**chain_dict(chain), "labels": ["s/D1", "t"]}
    claim = {**claim_of(chain), "denominators": {"D1": "5"}}
    assert trusted.verify(claim, data).valid
    data["labels"] = ["s/5", "t"]  # a claim whose label is "s/D1" is not the chain's "s/5"
    assert trusted.verify(claim, data).failure[0] == "labels"
