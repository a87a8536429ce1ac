"""Random reducible periodic chains, valid by construction, for test suites.

The generators live in :mod:`exactpte.model.random_chains` (product code uses them too: ``proofs-check sweep``,
``exactpte conform``); this module gives test suites the same names beside :mod:`exactpte.testing.strategies`.

Examples
--------
>>> from exactpte.testing.random_chains import random_small_chain
>>> random_small_chain(0).n >= 1
True
"""

from exactpte.model.random_chains import (ChainBounds, ChainSpec, FAMILIES, IntSource, build_chain, draw_spec, draw_sweep_chain, parametrize,
                                            randint_of, random_chain, random_chain_arrays, random_small_chain, sweep_chain)

__all__ = ['ChainBounds', 'build_chain', 'randint_of', 'draw_spec', 'random_chain', 'random_small_chain', 'parametrize', 'ChainSpec', 'FAMILIES', 'draw_sweep_chain', 'sweep_chain', 'random_chain_arrays', 'IntSource']
