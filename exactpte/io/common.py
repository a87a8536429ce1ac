"""What the file readers share: the note a reader attaches when it read decimals exactly."""

from __future__ import annotations

import re

from ..chain import MarkovRewardProcess

__all__ = ["DECIMAL_NOTE", "note_decimals"]

DECIMAL_NOTE = "decimal numbers were read as exact decimals (0.1 = 1/10), not as binary floats"


def note_decimals(chain: MarkovRewardProcess, texts) -> MarkovRewardProcess:
    """Add :data:`DECIMAL_NOTE` to ``chain.notes`` when any of ``texts`` spells a decimal number."""
    if any(re.search(r"\d\.\d|\d[eE][+-]?\d", t or "") for t in texts):
        chain.notes = chain.notes + (DECIMAL_NOTE,)
    return chain
