"""Random edits of a valid file's text, token- and line-aware so that most results stay near-valid: what the
readers' fuzz tests and the DRN reader's route comparison feed the readers."""

from hypothesis import strategies as st

TOKENS = ["0", "1", "-", "/", ".", "e", "9" * 30, "1e999999999", "p", "q", "(", ")", "*", "^", "**", ",", ":", "[", "]",
          "{", "}", '"', "state", "action", "@model", "@type: DTMC", "@nr_states", "\n", " ", "\t", "NaN", "null", "true",
          "\x00", "\xff", "é", "__import__('os')", "$0"]


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` after a few random edits, token- and line-aware so that most results stay near-valid; no edit in some
    draws (the valid file itself, so the round trip of an accepted input is judged in every run, not by chance)."""
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "dup_line", "drop_line", "swap_lines"]))
        lines = text.split("\n")
        if kind in ("dup_line", "drop_line", "swap_lines") and len(lines) > 1:
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup_line":
                lines.insert(i, lines[i])
            elif kind == "drop_line":
                del lines[i]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
            continue
        pos = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 3)):]
        elif kind == "insert":
            text = text[:pos] + draw(st.sampled_from(TOKENS)) + text[pos:]
        else:
            text = text[:pos] + draw(st.sampled_from(TOKENS)) + text[pos + draw(st.integers(1, 3)):]
    return text


