"""Files Storm writes, read with the answers Storm gives (a table of known answers, no stormpy needed).

``tests/data/storm`` holds DRN exports, made by ``make_storm_files.py`` with Storm's exact
builder, of the DTMCs stormpy ships (die, leader-3-5, brp-16-2, nand-5-2, the parametric die)
and of ``two_rewards.pm`` (two reward models, state and action rewards on a periodic class),
some of them compressed (.gz, .xz, .bz2); ``expected.json`` has Storm's exact long-run average
reward at every state for every reward model.
"""

import json

from paths import DATA as STORM_DATA

import pytest

import exactpte

DATA = STORM_DATA / "storm"
EXPECTED = json.loads((DATA / "expected.json").read_text())
CASES = [(f, name) for f, d in EXPECTED.items() for name in d["rho"]]


@pytest.mark.parametrize("file, reward_model", CASES)
def test_rho_equals_storms_exact_long_run_average(file, reward_model):
    chain = exactpte.load(DATA / file, reward_model=reward_model or None)
    assert chain.n == EXPECTED[file]["states"]
    assert [str(x) for x in exactpte.gain(chain)] == EXPECTED[file]["rho"][reward_model]


def test_action_rewards_count_as_in_storm():
    # state 4 of two_rewards.pm loops with action reward 1/2 under "steps": rho = 1/2 there, not 0
    chain = exactpte.load(DATA / "two-rewards.drn.bz2", reward_model="steps")
    assert str(exactpte.gain(chain)[4]) == "1/2"
    visits = exactpte.load(DATA / "two-rewards.drn.bz2", reward_model=1)
    assert visits == exactpte.load(DATA / "two-rewards.drn.bz2", reward_model="visits")


def test_several_reward_models_need_a_choice_and_the_error_lists_them(capsys):
    with pytest.raises(exactpte.ChainFileError, match=r"2 reward models \(steps, visits\); choose one"):
        exactpte.load(DATA / "two-rewards.drn.bz2")
    with pytest.raises(exactpte.ChainFileError, match="no reward model 'nope'; the file has steps, visits"):
        exactpte.load(DATA / "two-rewards.drn.bz2", reward_model="nope")
    from exactpte.cli.commands import main

    assert main(["decompose", str(DATA / "two-rewards.drn.bz2"), "--reward-model", "visits", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rho"] == EXPECTED["two-rewards.drn.bz2"]["rho"]["visits"]


def test_parametric_drn_with_placeholders_is_the_die_at_one_half():
    die = exactpte.load(DATA / "parametric-die.drn")
    assert isinstance(die, exactpte.ParametricChain) and die.params == ("p", "q")
    assert die.at({"p": "1/2", "q": "1/2"}) == exactpte.load(DATA / "die.drn")


def _two_rewards_explicit(tmp_path, flavour):
    """two_rewards.pm written by hand in PRISM's explicit format: transitions with action labels,
    the state rewards of "visits" in .srew and its action rewards as transition rewards in .trew."""
    chain = exactpte.load(DATA / "two-rewards.drn.bz2", reward_model="steps")  # any reward: only P is used
    action = {0: "go", 1: "go", 2: "loop", 3: "loop", 4: "stay", 5: "loop"}
    state_r = {3: 3, 4: 1}
    action_r = {0: 2, 1: 2}
    edges = list(chain.edges())
    if flavour == "prism":
        tra = [f"{chain.n} {len(edges)}"] + [f"{i} {j} {p} {action[i]}" for i, j, p in edges]
        srew = [f"{chain.n} {len(state_r)}"] + [f"{s} {x}" for s, x in state_r.items()]
        trew_rows = [f"{i} {j} {action_r[i]}" for i, j, _ in edges if i in action_r]
        trew = [f"{chain.n} {len(trew_rows)}"] + trew_rows
        names = ("m.tra", "m.srew", "m.trew")
    else:
        tra = ["dTmC"] + [f"{i} {j} {p}" for i, j, p in edges]
        srew = [f"{s} {x}" for s, x in state_r.items()]
        trew = [f"{i} {j} {action_r[i]}" for i, j, _ in edges if i in action_r]
        names = ("m.tra", "m.state.rew", "m.trans.rew")
    paths = [tmp_path / name for name in names]
    for path, lines in zip(paths, (tra, srew, trew)):
        path.write_text("\n".join(lines) + "\n")
    return paths


@pytest.mark.parametrize("flavour", ["prism", "storm"])
def test_explicit_files_with_action_labels_and_transition_rewards(tmp_path, flavour):
    tra, srew, trew = _two_rewards_explicit(tmp_path, flavour)
    chain = exactpte.load(tra, rewards=[srew, trew])
    assert [str(x) for x in exactpte.gain(chain)] == EXPECTED["two-rewards.drn.bz2"]["rho"]["visits"]
