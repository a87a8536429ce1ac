"""Hypothesis profiles and the session seed.

- ``ci`` (default): a bounded budget, but not derandomized: every run explores new examples.
  The seed is drawn at start, printed in the session header, and a failure replays with
  ``python -m pytest --hypothesis-seed=SEED`` (the failing example is also printed).
- ``thorough`` (``HYPOTHESIS_PROFILE=thorough``): 2,000 examples a property, by hand.
- ``fuzz`` (``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/test_fuzz.py -s``): the long
  fuzzing campaign, 2,000 inputs a test with a one-second deadline each.

Tests that are costly per example scale their budget from the active profile
(:func:`scaled`), so no test caps the ``thorough`` profile.

Optional extras: a test that needs one is marked ``@pytest.mark.extra("peers")`` (or ``plot``,
``dask``, ``docs``, ``gym``) and skips, with the reason, when the extra is missing.  With
``EXACTPTE_REQUIRE_EXTRAS=1`` (the extras stage of ``.ci/run``) such a skip is a failure instead,
so a broken install of an extra cannot pass as "skipped".  ``python -m pytest -m extra`` runs
just those tests.
"""

import contextlib
import os
import random
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=False, print_blob=True, suppress_health_check=SLOW)
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True, suppress_health_check=SLOW)
settings.register_profile("fuzz", max_examples=2000, deadline=1000, print_blob=True, suppress_health_check=SLOW)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REQUIRE_EXTRAS = os.environ.get("EXACTPTE_REQUIRE_EXTRAS", "") not in ("", "0")

# tests/data holds data and the script that regenerates it by hand (it needs stormpy): not tests
collect_ignore_glob = ["data/*"]


def scaled(fraction: float) -> settings:
    """Settings with ``fraction`` of the active profile's examples (at least 5): for costly properties."""
    return settings(max_examples=max(5, int(settings.default.max_examples * fraction)))


@contextlib.contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Fail if the block takes more than ``seconds`` of this process's CPU time (``time.process_time``).

    A hang guard for the default suite, which runs in parallel on a shared machine: the wall clock stretches with
    the load, this process's CPU time does not.  Each use states the time it measures and so its margin.  The
    budget holds also when the block raises (an expected error must come in time too)."""
    start = time.process_time()
    try:
        yield
    finally:  # also when the block raises (an expected error must come within the budget too)
        spent = time.process_time() - start
        assert spent < seconds, f"{spent:.2f} s of CPU, over the budget of {seconds} s"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line(
        "markers", 'extra(name): needs the optional extra NAME (pip install ".[NAME]"): skipped when it is '
        "missing, failed instead under EXACTPTE_REQUIRE_EXTRAS=1")
    config.addinivalue_line(
        "markers", "slow: a test of more than a few seconds; left out of the default run (addopts: -m 'not slow'), "
        "run by CI's second stage and by hand: python -m pytest -m slow")
    # one seed for the whole session, drawn here (before hypothesis' plugin reads the option) and printed;
    # pytest-xdist's workers take the controller's (pytest_configure_node), so one seed replays every worker
    if config.getoption("hypothesis_seed", default=None) is None:
        given = getattr(config, "workerinput", {}).get("hypothesis_seed")
        config.option.hypothesis_seed = given if given is not None else random.SystemRandom().randrange(2**32)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist: every worker runs with the controller's hypothesis seed."""
    node.workerinput["hypothesis_seed"] = node.config.option.hypothesis_seed


def pytest_report_header(config):
    seed = config.getoption("hypothesis_seed", default=None)
    return f"hypothesis profile {settings._current_profile}, seed {seed} (replay: python -m pytest --hypothesis-seed={seed})"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # shown even under -q, at the end where a failure is read
    terminalreporter.write_line(pytest_report_header(config))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # EXACTPTE_REQUIRE_EXTRAS=1: a test marked extra(NAME) that skipped fails, with the skip's reason
    outcome = yield
    report = outcome.get_result()
    marker = item.get_closest_marker("extra")
    if REQUIRE_EXTRAS and marker is not None and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = (f"EXACTPTE_REQUIRE_EXTRAS is set and this test needs the {marker.args[0]!r} extra "
                           f'(pip install ".[{marker.args[0]}]"), but it skipped: {reason}')
