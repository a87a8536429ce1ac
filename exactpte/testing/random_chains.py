"""Random reducible periodic chains, valid by construction: the names of
:mod:`exactpte.model.random_chains`, for test suites.

The construction lives on the ``model`` floor since ``exactpte conform --corpus random:K`` (product
code, which never imports :mod:`exactpte.testing`) draws the same chains; this module keeps the path
test suites, benchmarks and ``proofs_check`` import them from.

Examples
--------
>>> random_chain(60, seed=1).n
60
"""

from exactpte.model.random_chains import (
    FAMILIES,
    ChainBounds,
    ChainSpec,
    IntSource,
    build_chain,
    draw_spec,
    draw_sweep_chain,
    parametrize,
    randint_of,
    random_chain,
    random_chain_arrays,
    random_small_chain,
    sweep_chain,
)

__all__ = ["ChainBounds", "build_chain", "randint_of", "draw_spec", "random_chain", "random_small_chain", "parametrize", "ChainSpec", "FAMILIES",
           "draw_sweep_chain", "sweep_chain", "random_chain_arrays", "IntSource"]
