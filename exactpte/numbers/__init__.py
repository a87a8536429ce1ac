"""Numbers: user input turned into exact rationals, one direction per module.

- :mod:`~exactpte.numbers.scalars` — one user scalar → ``fmpq`` (ints, ``Fraction``, ``"p/q"`` and
  decimal strings, sympy rationals; floats refused unless a conversion is asked for);
- :mod:`~exactpte.numbers.arrays` — matrix-, vector- and edge-like input → raw sparse rows;
- :mod:`~exactpte.numbers.from_floats` — float models → exact rows under one stated rule.

The opposite direction (exact → float) is :mod:`exactpte.model.to_float`.
"""

from exactpte.numbers.scalars import FloatPolicy, parse_number, to_fmpq

__all__ = ["FloatPolicy", "parse_number", "to_fmpq"]
