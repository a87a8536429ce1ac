"""Where ``proofs-check`` writes its reports: ``--json`` on every command, ``-`` (or no file) for stdout, and the one
word for each verdict in every table.

Examples
--------
>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_json_option(p, "the verdicts")
>>> p.parse_args(["--json"]).json, p.parse_args(["--json", "-"]).json, p.parse_args(["--json", "r.json"]).json
('-', '-', 'r.json')
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from exactpte.errors import ExactpteError

__all__ = ["add_json_option", "write_json", "to_stdout", "WORDS", "word"]

WORDS = {"held": "held", "failed": "FAILED", "not applicable": "not applicable", "not claimed": "not claimed",
         "not checked": "not checked", "not provable": "not provable"}
"""How a verdict's status reads in every table (``docs/verdict-strength.md``): the words of the JSON ``status``
field, a failure in capitals so it stands out."""


def word(status: str) -> str:
    """A verdict's status as the tables print it (:data:`WORDS`)."""
    return WORDS.get(status, status)


def add_json_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json [FILE]``: ``what`` as JSON, to ``FILE``, or to stdout with ``-`` or no ``FILE``."""
    parser.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                        help=f"write {what} as JSON to FILE ('-' or no FILE: to stdout)")


def to_stdout(target: str | None) -> bool:
    """Whether ``--json`` asks for stdout."""
    return target == "-"


def write_json(data: Any, target: str) -> None:
    """``data`` as indented JSON to stdout (``-``) or to the file ``target`` (a named error when it cannot be written)."""
    if to_stdout(target):
        json.dump(data, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    try:
        with open(target, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
    except OSError as e:
        raise ExactpteError(f"--json {target}: cannot write the report ({e.strerror})") from None
