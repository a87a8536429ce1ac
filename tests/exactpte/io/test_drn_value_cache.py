"""The DRN reader parses each distinct value text once (files repeat a few expressions on thousands
of lines): the chain it builds is the one built entry by entry, and errors still name their line."""

from __future__ import annotations

import pytest

from exactpte.errors import ChainFileError
from exactpte.io.drn import read_drn
from exactpte.model.parametric import ParametricChain

HEADER = "@type: DTMC\n@value_type: parametric\n@parameters\np q\n@reward_models\nr\n@nr_states\n{n}\n@nr_choices\n{n}\n@model\n"


def ring(n: int, *, bad_at: int | None = None, placeholder: bool = False) -> tuple[str, list[tuple[int, int, str]]]:
    """A DRN ring of ``n`` states, each leaving with ``p`` (or ``$a``) and staying with ``1-p``, and its edges."""
    lines, edges = [HEADER.format(n=n) + ("" if not placeholder else "")], []
    if placeholder:
        lines[0] = lines[0].replace("@reward_models", "@placeholders\n$a : (p)/(1)\n@reward_models")
    for s in range(n):
        go = "p" if not placeholder else "$a"
        stay = "(-1 * (p+(-1)))/(1)" if s != bad_at else "(-1 * (p+(-1))/(1)"
        lines.append(f"state {s} [{'q' if s % 2 else '0'}]\n\taction 0\n\t\t{(s + 1) % n} : {go}\n\t\t{s} : {stay}\n")
        edges += [(s, (s + 1) % n, "p"), (s, s, "1 - p")]
    return "".join(lines), edges


@pytest.mark.parametrize("placeholder", [False, True])
def test_repeated_values_give_the_chain_built_entry_by_entry(placeholder: bool) -> None:
    """A ring whose every line repeats two texts reads as the ParametricChain built from fresh entries,
    rewards included; repeated texts share one parsed value."""
    n = 40
    text, edges = ring(n, placeholder=placeholder)
    chain = read_drn(text)
    expected = ParametricChain.from_edges(n, edges, ["q" if s % 2 else 0 for s in range(n)], params=["p", "q"])
    assert chain == expected
    stays = [dict(chain.row(s))[s] for s in range(n)]
    assert all(x.num is stays[0].num and x.den is stays[0].den for x in stays)  # one parse for the one text
    assert [chain.field.to_text(x) for x in chain.r[:2]] == ["0", "q"]


def test_a_bad_value_after_good_ones_is_named_by_its_own_line() -> None:
    """The cache keeps parsed values only: a malformed text is refused on the line it is on."""
    text, _ = ring(12, bad_at=7)
    with pytest.raises(ChainFileError) as info:
        read_drn(text, source="ring.drn")
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if ln.strip() == "7 : (-1 * (p+(-1))/(1)")
    assert f"ring.drn: line {line}:" in str(info.value)


def test_rewards_written_after_the_labels_are_refused_not_dropped() -> None:
    """``state 0 init [1]``: the rewards come right after the state id; read as labels the reward 1 was lost
    silently (r = 0 while the file declares a reward model)."""
    import pytest

    from exactpte.errors import ChainFileError
    from exactpte.io.drn import read_drn

    text = ("@type: DTMC\n@reward_models\nrw\n@nr_states\n2\n@model\nstate 0 init [1]\n\taction 0\n\t\t1 : 1\n"
            "state 1 [0]\n\taction 0\n\t\t1 : 1\n")
    with pytest.raises(ChainFileError, match="line 7"):
        read_drn(text)
    assert [str(x) for x in read_drn(text.replace("state 0 init [1]", "state 0 [1] init")).r] == ["1", "0"]
