"""Chain bounds are checked once, where they are given, and every drawn chain keeps within them."""

import pytest
from hypothesis import given

from exactpte.errors import UsageError
from exactpte.testing.random_chains import ChainBounds, draw_spec
from exactpte.testing.strategies import chain_specs, chains


@pytest.mark.parametrize("bad, message", [
    (dict(min_classes=5, max_classes=2), "min_classes = 5 exceeds max_classes = 2"),
    (dict(min_transient=3, max_transient=1), "min_transient = 3 exceeds max_transient = 1"),
    (dict(min_first_period=3, max_period=2), "min_first_period = 3 exceeds max_period = 2"),
    (dict(max_period=0), "max_period must be at least 1"),
    (dict(max_transient=-1), "max_transient must be at least 0"),
    (dict(max_states=1, min_classes=2), "no room for min_classes = 2"),
    (dict(max_phase_size=2.5), "max_phase_size must be an integer"),
    (dict(max_classes=True), "max_classes must be an integer"),
])
def test_inconsistent_bounds_are_refused_when_the_strategy_is_made(bad, message):
    for make in (lambda: ChainBounds(**bad), lambda: chains(**bad), lambda: chain_specs(**bad),
                 lambda: draw_spec(lambda lo, hi: lo, **bad)):
        with pytest.raises(UsageError, match=message):
            make()


def test_an_unknown_bound_is_named():
    with pytest.raises(UsageError, match="unknown chain bound.*max_clases"):
        chains(max_clases=2)


@given(chains(min_classes=2, max_classes=3, max_period=3, max_phase_size=2, max_transient=4))
def test_drawn_chains_keep_within_their_bounds(m):
    s = m.structure
    assert 2 <= len(s.classes) <= 3 and max(s.periods) <= 3 and len(s.transient) <= 4
    assert all(len(phase) <= 2 for cyc in s.cyclic_classes for phase in cyc)


@given(chain_specs(bounds=ChainBounds(max_states=6, min_transient=2, max_transient=3)))
def test_specs_honour_lower_bounds_within_max_states(spec):
    assert spec.n <= 6 and 2 <= spec.n_transient <= 3
