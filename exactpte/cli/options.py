"""What every command line of the project shares (``exactpte`` and ``proofs-check``): option types that
name the rule they enforce, the one-line-error :class:`ArgumentParser`, the chain-input options and
their loader, and :func:`run_guarded` (a named error is one line and exit 2).  Public: other front
ends build on these rather than on the ``exactpte`` command's own parser.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, cast

from exactpte.cli.float_route import float_route, float_rows, load_float_chain, suggestion
from exactpte.cli.types import discount, figure_size, nonnegative_int, positive_int, tolerance
from exactpte.errors import ExactpteError, NegativeEntryError, RowSumError, UsageError, brief
from exactpte.deprecation import renamed

if TYPE_CHECKING:  # the chain machinery loads only when a command runs (start-up time)
    from exactpte.model.chain import Chain

__all__ = ["ArgumentParser", "add_chain_options", "add_command", "load_chain", "parse_anchors", "positive_int",
           "nonnegative_int", "tolerance", "figure_size", "discount", "run_guarded", "require_writable_file", "require_writable_folder"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_output": "require_writable_file", "check_folder": "require_writable_folder"})

PICTURE_ENDINGS = (".svg", ".png", ".pdf")


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error exits 2 with one line and no usage dump: the line ends by naming
    the help that lists the options (``exactpte decompose: error: ... (see 'exactpte decompose --help')``)."""

    def error(self, message: str) -> NoReturn:  # noqa: D401 - argparse's signature
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def add_chain_options(sp: argparse.ArgumentParser, *, positional: bool = True) -> Any:
    """The chain-input options every command that reads a chain shares (here and in ``proofs-check``):
    the chain file (positional, or ``--chain FILE`` for commands whose positional argument is
    something else) or ``--example NAME``, and ``--rewards``, ``--labels``, ``--reward-model`` for
    the formats that keep rewards and labels apart (read by :func:`load_chain`).  Returns the
    required group of sources, for a command that reads something else in their place (``check --mdp``)."""
    src = sp.add_mutually_exclusive_group(required=True)
    if positional:
        src.add_argument("file", nargs="?", help="chain file: .json, .drn (Storm), .tra (PRISM explicit) or .csv, "
                                                 "optionally .gz/.xz/.bz2 compressed")
    else:
        src.add_argument("--chain", metavar="FILE", help="the chain file (.json, .drn, .tra or .csv, optionally compressed)")
    src.add_argument("--example", metavar="NAME", help="a built-in example (see 'exactpte examples')")
    sp.add_argument("--rewards", metavar="FILE", action="append",
                    help="reward file: .srew/.state.rew and/or .trew/.trans.rew for a .tra chain, a CSV for a .csv chain "
                         "(repeat for state and transition rewards); without one such a chain has r = 0 (said in a note)")
    sp.add_argument("--labels", metavar="FILE", help="PRISM .lab file for a .tra chain (checked for form)")
    sp.add_argument("--reward-model", metavar="NAME", help="the reward model of a .drn file with several")
    return src


def add_command(sub: Any, name: str, summary: str, examples: Sequence[str]) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and ends with worked ``examples``
    (the same summary is its line in the parent's command list)."""
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples)
    description = textwrap.fill(summary[0].upper() + summary[1:] + ".", width=78)  # the raw formatter keeps the examples' lines
    return cast(argparse.ArgumentParser, sub.add_parser(name, help=summary, description=description, epilog=epilog,
                                                         formatter_class=argparse.RawDescriptionHelpFormatter))


def require_writable_file(path: str | None, option: str, *, picture: bool = False) -> None:
    """Refuse, before any work, an output file that cannot be written: its folder missing or not
    writable, or (``picture``) an ending other than ``.svg``, ``.png``, ``.pdf`` or no matplotlib, so a
    long run never ends in a traceback over its last write.

    >>> require_writable_file("out/x.json", "--json")
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: --json out/x.json: no folder 'out' to write it in
    """
    if path is None:
        return
    if picture and not path.lower().endswith(PICTURE_ENDINGS):
        raise UsageError(f"{option} takes a .svg, .png or .pdf file, got {path!r}")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {path}: no folder {folder!r} to write it in")
    if os.path.isdir(path) or not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {path}: cannot write there" + (" (a directory)" if os.path.isdir(path) else ""))
    if picture:
        from exactpte.plots.common import pyplot

        pyplot()  # the plot extra, named when missing


def require_writable_folder(path: str | None, option: str) -> None:
    """Refuse, before any work, an output folder that cannot be made or written (its parent missing,
    a file of that name, no permission); the folder itself may not exist yet."""
    if path is None:
        return
    if os.path.exists(path):
        if not os.path.isdir(path) or not os.access(path, os.W_OK):
            raise UsageError(f"{option} {path}: " + ("a file, not a folder" if not os.path.isdir(path) else "cannot write there"))
        return
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent) and os.path.dirname(parent) != parent:  # makedirs makes the missing parents too
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise UsageError(f"{option} {path}: cannot make the folder ({parent} is not a writable folder)")


def parse_anchors(text: str | None) -> list[int] | None:
    """``--anchors A,B,...`` as a list of states (``None`` when not given)."""
    if text is None:
        return None
    from exactpte.io.common import index_value

    items = [x.strip() for x in text.split(",")]
    states = [index_value(x) for x in items]  # "1 2" is not 12; "-1" and "" are no states
    if None in states:
        raise UsageError(f"--anchors takes comma-separated state indices (e.g. 0,3,7), got {brief(text, quoted=True)}")
    return [s for s in states if s is not None]


def load_chain(args: argparse.Namespace, path: str | None = None) -> Chain:
    """The chain named by :func:`add_chain_options`: the file at ``path`` (else ``args.file``) with its
    reward and label files, or the built-in ``--example``."""
    from exactpte.model.examples import EXAMPLES, example
    from exactpte.io import load

    route = float_route(args)
    if getattr(args, "floats", None) == "decimal" and route:
        raise UsageError("--limit-denominator and --clip-negative read floats: they take --floats exact, not --floats decimal")
    if path is None and args.example:
        for opt in ("rewards", "labels", "reward_model", "limit_denominator", "clip_negative", "floats"):
            if getattr(args, opt, None):
                raise UsageError(f"--{opt.replace('_', '-')} applies to chain files, not to --example")
        return example(args.example)
    path = path or args.file
    if path in EXAMPLES and not os.path.exists(path):
        raise UsageError(f"no file named {path!r}; for the built-in example write --example {path}")
    if route:
        for opt in ("labels", "reward_model"):
            if getattr(args, opt, None):
                raise UsageError(f"--{opt.replace('_', '-')} does not combine with the float route (a .json chain file or a .csv edge list)")
        if args.rewards and len(args.rewards) > 1:
            raise UsageError(f"the float route takes one reward CSV, got {len(args.rewards)} --rewards files")
        return load_float_chain(path, args, getattr(args, "tol", None))
    try:
        return load(path, rewards=args.rewards, labels=args.labels, reward_model=args.reward_model)
    except (RowSumError, NegativeEntryError) as e:
        hint = _float_hint(path, args.rewards)
        if not hint:
            raise
        raise type(e)(f"{e}; from the command line: {hint}") from None


def _float_hint(path: str, rewards: Sequence[str] | None) -> str:
    """The float-route option that fits a refused .json chain file or .csv edge list (empty when none does)."""
    try:
        data = float_rows(path, rewards[0] if rewards and len(rewards) == 1 else None)
    except ExactpteError:
        return ""
    if "P" in data:
        return suggestion(data["P"])
    return suggestion(None, edges=data["edges"])


def run_guarded(prog: str, body: Callable[[], int]) -> int:
    """Run ``body`` as a command: a named error becomes one line on stderr and exit 2; a closed
    output pipe ends quietly (exit 0, nothing more written)."""
    try:
        code = body()
        sys.stdout.flush()
        return code
    except ExactpteError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (| head): stop writing, and keep Python from complaining at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
