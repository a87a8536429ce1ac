"""The quantities a candidate may give, and their other names.

The key groups come from :mod:`exactpte.results.quantities` (the JSON contract of ``exactpte
decompose --json``); the oracle adds the absorbing-chain quantities and peers' names.

Examples
--------
>>> ALIASES["gain"], "first_passage" in KEYS
('rho', True)
"""

from __future__ import annotations

from exactpte.results.quantities import MATRIX_KEYS, PER_CLASS_KEYS, STATE_KEYS, STRUCTURE_KEYS

__all__ = ["VECTOR_KEYS", "ABSORBING_KEYS", "EXTRA_STATE_KEYS", "KEYS", "ALIASES", "NOT_NUMBERS"]

VECTOR_KEYS = STATE_KEYS  # the key groups come from exactpte.results.quantities
"""The state-indexed vectors of the contract."""
ABSORBING_KEYS = ("absorption", "fundamental", "first_passage", "total_reward")
"""Quantities of the absorbing chain (judged against :mod:`exactpte.oracle.references`)."""
EXTRA_STATE_KEYS = ("first_passage", "total_reward")
"""Per-state vectors beyond the JSON contract (also CSV columns)."""
KEYS = ("format", "n", "labels", *STRUCTURE_KEYS, "communicating_classes", *VECTOR_KEYS, "theta", *PER_CLASS_KEYS,
        *MATRIX_KEYS, *ABSORBING_KEYS, "targets")
"""Every key a candidate may give: the keys of ``exactpte decompose --json`` for a rational chain, the
absorbing-chain quantities (:data:`ABSORBING_KEYS`, ``first_passage`` with its ``targets``) and
``communicating_classes`` (to align ``periods`` given for every communicating class)."""
ALIASES = {"g": "g_star", "gstar": "g_star", "v": "v_star", "vstar": "v_star", "gain": "rho", "bias": "h",
           "absorption_probabilities": "absorption", "fundamental_matrix": "fundamental", "mfpt": "first_passage",
           "mean_first_passage": "first_passage", "hitting_time": "first_passage", "target": "targets",
           "stationary_distribution": "stationary", "stationary_distributions": "stationary",
           "recurrent_classes": "classes"}
"""Other names accepted for some keys (generic abbreviations such as ``mfpt``; the peers' own names, with
their layouts and readings, are :data:`exactpte.oracle.peers.NATIVE_NAMES`)."""
NOT_NUMBERS = frozenset(("format", "n", "labels", *STRUCTURE_KEYS, "communicating_classes", "targets"))
"""The keys whose values are not numbers to compare (headers, structure, state indices)."""
