"""Hypothesis strategies for random reducible periodic chains: an alias of :mod:`exactpte.testing.strategies`."""

from .testing.strategies import chain_specs, chains, edge_case_chains, generic_points, parametric_chains

__all__ = ["chain_specs", "chains", "edge_case_chains", "parametric_chains", "generic_points"]
