"""The one registry of the decomposition's quantities: name, paper symbol, LaTeX, kind, doc, label.

Every list of quantity names in the package is derived from :data:`REGISTRY` (the JSON
contract's keys and their order, the per-state columns of the tables, the lazily computed
fields of :class:`~exactpte.Decomposition`, the oracle's key groups, what certified
enclosures cover), so a quantity is added or renamed in one place.

Kinds: ``"state"`` (a vector indexed by state), ``"class"`` (one number per closed class),
``"class distribution"`` (per closed class, a vector over its states), ``"coordinate"`` (one
number per basis column ``(i, k)``), ``"n x N"``, ``"n x classes"``, ``"n x n"`` (matrices
with rows indexed by state) and ``"structure"`` (exact graph facts).

Examples
--------
>>> QUANTITY_KEYS[:4], PER_STATE
(('basis', 'theta', 'g_star', 'v_star'), ('g_star', 'v_star', 'rho', 'h', 'psi'))
>>> all(q.name in QUANTITY_KEYS for q in REGISTRY.values() if q.in_json and q.kind != "structure")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from exactpte.model.interface import Only

__all__ = ["Kind", "Only", "Quantity", "REGISTRY", "quantity", "QUANTITY_KEYS", "CORE", "COMPUTED", "PER_STATE", "STATE_KEYS",
           "TABLE_QUANTITIES", "PER_CLASS_KEYS", "MATRIX_KEYS", "STRUCTURE_KEYS", "NESTED"]


Kind = Literal["state", "class", "class distribution", "coordinate", "n x N", "n x classes", "n x n", "structure"]


@dataclass(frozen=True)
class Quantity:
    """One quantity: ``name`` (the attribute and JSON key), the paper's ``symbol`` and ``latex``,
    its ``kind``, a short ``doc``, the paper ``label`` it is defined or characterised in;
    ``in_json``: a key of the JSON contract; ``optional``: computed only when asked (an
    ``include_*`` option of ``to_dict``), never in the default tables."""

    name: str
    symbol: str
    latex: str
    kind: Kind
    doc: str
    label: str
    in_json: bool = True
    optional: bool = False

    @property
    def nested(self) -> bool:
        """Whether a value is a list of rows (matrices and per-class distributions)."""
        return self.kind in ("class distribution", "n x N", "n x classes", "n x n")


_ALL = (
    # the JSON contract's quantity keys, in the contract's order (golden files depend on it)
    Quantity("basis", "b", r"b", "n x N", "``basis[s][c] = b_{i,k}(s)``, columns in ``(class, phase)`` order.",
             "def:main_b"),
    Quantity("theta", "θ*", r"\theta^\star", "coordinate", "``θ*_{i,k} = g*(a_{i,k})`` in basis-column order.",
             "def:theta_star"),
    Quantity("g_star", "g*", r"g^\star_\Pi", "state", "``g* ∈ K(P)`` with ``r = g* + (I - P) v*``.", "thm:wellposed"),
    Quantity("v_star", "v*", r"v^\star_\Pi", "state", "``v*``, zero at the anchors, with ``r = g* + (I - P) v*``.",
             "thm:wellposed"),
    Quantity("rho", "ρ", r"\rho", "state", "The classical gain ``ρ = P∞ r``.", "sec:formulation"),
    Quantity("h", "h", r"h", "state", "The normalized bias: ``r = ρ + (I - P) h``, ``P∞ h = 0``.",
             "eq:poisson"),
    Quantity("psi", "ψ", r"\psi_\Pi", "state", "``ψ ∈ K ∩ ker P∞`` with ``g* = ρ + (I - P) ψ``.",
             "thm:comparison_gain_bias"),
    Quantity("stationary", "π", r"\pi", "class distribution",
             "``stationary[i]``: the stationary distribution of ``F_i``, aligned with ``classes[i]``.", "sec:formulation"),
    Quantity("class_gain", "γ", r"\gamma", "class", "``class_gain[i] = π_i · r``.", "sec:formulation"),
    Quantity("P_inf", "P∞", r"P^\infty", "n x n", "The Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)``.", "sec:formulation"),
    Quantity("hitting_times", "E[τ_A]", r"\mathbb E_s[\tau_A]", "state",
             "``E_s[τ_A]``, the expected hitting time of the anchor set (0 at anchors).", "app:evaluation_extra_proofs",
             optional=True),
    # computed by the decomposition, not keys of the contract
    Quantity("absorption", "α", r"\alpha", "n x classes",
             "``absorption[s][i] = α_i(s)``, the probability of ending in ``F_i``.", "sec:formulation", in_json=False),
    Quantity("psi_coords", "c", r"c", "coordinate", "Coordinates of ``ψ`` in the basis ``b``.",
             "thm:comparison_gain_bias", in_json=False),
    # structure (exact graph work; in the contract's structure keys)
    Quantity("classes", "F_i", r"F_i", "structure", "Closed classes ``F_i`` (sorted states).", "lem:recurrent_decomp"),
    Quantity("periods", "d_i", r"d_i", "structure", "Period ``d_i`` of every closed class.", "lem:recurrent_decomp"),
    Quantity("cyclic_classes", "C_{i,k}", r"C_{i,k}", "structure", "``cyclic_classes[i][k]``: the states of ``C_{i,k}``.",
             "lem:recurrent_decomp"),
    Quantity("transient", "T", r"\mathsf T", "structure", "The transient states.", "lem:recurrent_decomp"),
    Quantity("anchors", "a_{i,k}", r"a_{i,k}", "structure", "One anchor state per cyclic class.", "subsec:anchor_gauge_basis"),
)

REGISTRY: dict[str, Quantity] = {q.name: q for q in _ALL}
"""Every quantity by name, in the JSON contract's order."""


def quantity(name: str) -> Quantity:
    """The registry entry of ``name`` (``KeyError`` when there is none).

    Examples
    --------
    >>> quantity("g_star").label, quantity("basis").kind
    ('thm:wellposed', 'n x N')
    """
    return REGISTRY[name]


_VALUES = tuple(q for q in _ALL if q.kind != "structure")

QUANTITY_KEYS: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json)
"""The keys of the JSON contract that hold computed quantities (the rest is structure), in its order."""

CORE: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json and q.name != "P_inf" and not q.optional)
"""The contract's quantities without the dense ``P_inf`` and the optional ones: what every result kind encloses."""

COMPUTED: tuple[str, ...] = tuple(q.name for q in _VALUES if q.name != "P_inf" and not q.optional)
"""The quantities the exact decomposition computes lazily, each once (``P_inf`` is built from them)."""

STATE_KEYS: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json and q.kind == "state")
"""Per-state vectors of the contract (with the optional hitting times)."""

PER_STATE: tuple[str, ...] = tuple(q.name for q in _VALUES if q.kind == "state" and not q.optional)
"""The per-state quantities of the decomposition (the columns of the tables)."""

TABLE_QUANTITIES: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json and not q.optional
                                          and q.kind in ("coordinate", "state"))
"""What the per-state table and summary read: ``θ*`` and the per-state quantities."""

PER_CLASS_KEYS: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json and q.kind in ("class", "class distribution"))
"""Per-class keys of the contract."""

MATRIX_KEYS: tuple[str, ...] = tuple(q.name for q in _VALUES if q.in_json and q.kind in ("n x N", "n x classes", "n x n"))
"""Matrix keys of the contract (rows indexed by state)."""

STRUCTURE_KEYS: tuple[str, ...] = tuple(q.name for q in _ALL if q.kind == "structure")
"""The structure keys of the contract that a candidate may give."""

NESTED: frozenset[str] = frozenset(q.name for q in _ALL if q.nested)
"""The quantities whose values are lists of rows."""
