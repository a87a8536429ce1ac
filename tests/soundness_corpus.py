"""Statements for the soundness tests: false ones (each false on a chain with at most three states) covering
entries, hashing, sets, text, labels, ordering, conversions, identity and type tests, exceptions caught, and true
ones that must stay proved on every support graph with at most three states.  Each is ``(label, func)``."""

from __future__ import annotations

import math

import flint


def _caught(chain, dec):
    try:
        return str(dec.rho[0]) != "1/2"
    except Exception:  # the refusal is recorded: catching it hides nothing
        return True


def _helper_identity(x, y):
    return x is y


FALSE = [
    # entries
    ("false:no_entry_is_a_half", lambda chain, dec: all(2 * p != 1 for _i, _j, p in chain.edges())),
    ("false:entries_of_a_row_differ", lambda chain, dec: all(p != q for row in chain.P for k, p in enumerate(row)
                                                             for q in row[k + 1:] if p != 0 and q != 0)),
    ("false:no_step_is_certain", lambda chain, dec: all(p < 1 for s in range(chain.n) for _j, p in chain.row(s))),
    ("false:absorbing_state_0_never", lambda chain, dec: dec.P_inf[0][0] != 1),
    # hashing and sets
    ("false:class_gains_distinct", lambda chain, dec: len(set(dec.class_gain)) == len(dec.class_gain)),
    ("false:rewards_distinct", lambda chain, dec: len({x for x in chain.r}) == chain.n),
    ("false:bias_takes_n_values", lambda chain, dec: chain.n == 1 or len(dict.fromkeys(dec.h)) == chain.n),
    ("false:stationary_values_distinct", lambda chain, dec: len(set(dec.stationary[0])) == len(dec.stationary[0])),
    # text
    ("false:rho_never_a_half_text", lambda chain, dec: str(dec.rho[0]) != "1/2"),
    ("false:bias_never_negative_text", lambda chain, dec: "-" not in repr(dec.h[0])),
    ("false:g_star_never_zero_text", lambda chain, dec: f"{dec.g_star[0]}" != "0"),
    ("false:caught_refusal", _caught),
    # labels
    ("false:last_self_loop_or_first", lambda chain, dec: chain.P[chain.n - 1][chain.n - 1] == 0 or chain.P[0][0] != 0),
    ("false:state_0_recurrent", lambda chain, dec: not dec.transient or dec.transient[0] != 0),
    ("false:last_state_transient_when_any", lambda chain, dec: not dec.transient or dec.transient[-1] == chain.n - 1),
    # ordering
    ("false:gain_increasing", lambda chain, dec: sorted(dec.rho) == list(dec.rho)),
    ("false:last_reward_largest", lambda chain, dec: max(chain.r) == chain.r[-1]),
    ("false:first_stationary_smallest", lambda chain, dec: min(dec.stationary[0]) == dec.stationary[0][0]),
    # conversions
    ("false:gain_float_not_a_half", lambda chain, dec: float(dec.rho[0]) != 0.5),
    ("false:bias_truncates_to_zero", lambda chain, dec: int(dec.h[0]) == 0),
    ("false:g_star_rounds_to_zero", lambda chain, dec: round(dec.g_star[0]) == 0),
    ("false:gain_floor_nonpositive", lambda chain, dec: math.floor(dec.rho[0]) <= 0),
    ("false:bias_nonzero_abs", lambda chain, dec: abs(dec.h[0]) > 0),
    ("false:v_star_nonzero_on_transient", lambda chain, dec: all(dec.v_star[s] for s in dec.transient)),
    ("false:reward_gaps_divide", lambda chain, dec: all((x - y) / (x - y) == 1 for x, y in zip(chain.r, chain.r[1:]))),
    # identity and type tests
    ("false:gain_objects_differ", lambda chain, dec: dec.rho[0] is not dec.rho[-1]),
    ("false:identity_in_a_helper", lambda chain, dec: not _helper_identity(dec.rho[0], dec.rho[-1])),
    ("false:not_an_fmpq", lambda chain, dec: not isinstance(dec.rho[0], flint.fmpq)),
    ("false:type_name", lambda chain, dec: type(dec.h[0]).__name__ != "fmpq"),
    ("false:id_differs", lambda chain, dec: id(dec.rho[0]) != id(dec.rho[-1])),
]
"""False statements: each fails on some chain with at most three states (the tests check that by brute force too)."""

TRUE = [
    ("true:stationary_in_unit_interval", lambda chain, dec: all(0 < x <= 1 for pi in dec.stationary for x in pi)),
    ("true:gain_constant_on_classes", lambda chain, dec: all(dec.rho[s] == dec.rho[m[0]] for m in dec.classes for s in m)),
    ("true:rows_sum_to_one", lambda chain, dec: all(sum(row) == 1 for row in chain.P)),
    ("true:entries_positive", lambda chain, dec: all(p > 0 for _i, _j, p in chain.edges())),
    ("true:basis_in_unit_interval", lambda chain, dec: all(abs(x) <= 1 for row in dec.basis for x in row)),
    ("true:first_anchor_is_class_minimum", lambda chain, dec: all(dec.anchors[i][0] == min(m) for i, m in enumerate(dec.classes))),
    ("true:gain_is_harmonic", lambda chain, dec: list(chain.matvec(dec.rho)) == list(dec.rho)),
    ("true:aperiodic_g_star_is_gain", lambda chain, dec: any(d > 1 for d in dec.periods) or list(dec.g_star) == list(dec.rho)),
    ("true:row_sums_one_value", lambda chain, dec: len(set(sum(row) for row in chain.P)) == 1),
    ("true:stationary_sums_to_one_text", lambda chain, dec: str(sum(dec.stationary[0])) == "1"),
    ("true:stationary_sums_to_one_float", lambda chain, dec: float(sum(dec.stationary[0])) == 1.0),
    ("true:absorption_nonnegative", lambda chain, dec: all(x >= 0 for row in dec.absorption for x in row)),
    ("true:p_inf_vanishes_on_transient_columns", lambda chain, dec: all(dec.P_inf[s][y] == 0 for s in range(chain.n) for y in dec.transient)),
    ("true:bias_bridge", lambda chain, dec: all(h == v + p - q for h, v, p, q in
                                                zip(dec.h, dec.v_star, dec.psi, dec.P_inf_apply(dec.v_star)))),
    ("true:hitting_times_nonnegative", lambda chain, dec: all(t >= 0 for t in dec.hitting_times)),
    ("true:no_labels", lambda chain, dec: chain.labels is None),
    ("true:v_star_zero_at_anchors", lambda chain, dec: all(dec.v_star[a] == 0 for _i, _k, a in dec.anchor_list)),
]
"""True statements: proved on every support graph with at most three states."""
