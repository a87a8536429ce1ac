"""The ``exactpte`` command line: ``main(argv) -> int`` (:mod:`~exactpte.cli.commands`) and the
options every command shares, public for other front ends such as ``proofs-check``
(:mod:`~exactpte.cli.options`)."""

from exactpte.cli.commands import main

__all__ = ["main"]
