"""Command line: ``exactpte decompose``, ``exactpte examples``.

Thin by design: :func:`main` parses, calls the library, prints.  Errors on
input are printed as one line naming the problem, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .chainfile import load
from .decomposition import decompose
from .errors import ExactpteError
from .examples import EXAMPLES, example

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="exactpte", description="Exact persistent-transient decomposition of Markov reward processes.")
    p.add_argument("--version", action="version", version=f"exactpte {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("decompose", help="decompose a chain file or a built-in example")
    src = d.add_mutually_exclusive_group(required=True)
    src.add_argument("file", nargs="?", help="chain file (JSON)")
    src.add_argument("--example", metavar="NAME", help="a built-in example (see 'exactpte examples')")
    fmt = d.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="the JSON contract (numbers as 'p/q' strings)")
    fmt.add_argument("--latex", action="store_true", help="a LaTeX tabular")
    fmt.add_argument("--table", action="store_true", help="the per-state table only")
    d.add_argument("--anchors", metavar="A,B,...", help="one anchor state per cyclic class, in (class, phase) order")
    d.add_argument("--no-p-inf", action="store_true", help="leave the dense P_inf out of --json")
    d.add_argument("--hitting-times", action="store_true", help="add expected anchor hitting times to --json")
    d.add_argument("--indent", type=int, default=None, help="indent --json output")

    sub.add_parser("examples", help="list the built-in examples, one a line, name first")
    return p


def _parse_anchors(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ExactpteError(f"--anchors takes comma-separated state indices, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    args = _parser().parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "examples":
            width = max(len(k) for k in EXAMPLES)
            for name, desc in EXAMPLES.items():
                print(f"{name.ljust(width)}  {desc}", file=out)
            return 0
        chain = example(args.example) if args.example else load(args.file)
        dec = decompose(chain, anchors=_parse_anchors(args.anchors))
        if args.json:
            print(dec.to_json(include_P_inf=not args.no_p_inf, include_hitting_times=args.hitting_times, indent=args.indent), file=out)
        elif args.latex:
            print(dec.to_latex(), file=out)
        elif args.table:
            print(dec.table(), file=out)
        else:
            print(dec, file=out)
        return 0
    except KeyError as e:  # unknown example name
        print(f"exactpte: error: {e.args[0]}", file=sys.stderr)
        return 2
    except ExactpteError as e:
        print(f"exactpte: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
