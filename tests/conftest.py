import os

from hypothesis import HealthCheck, settings

# CI: bounded and reproducible.  thorough: for long runs by hand (HYPOTHESIS_PROFILE=thorough).
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# tests/data holds data and the script that regenerates it by hand (it needs stormpy): not tests
collect_ignore_glob = ["data/*"]

# fuzz: the long fuzzing campaign (HYPOTHESIS_PROFILE=fuzz python -m pytest tests/test_fuzz.py -s)
settings.register_profile(
    "fuzz",
    max_examples=2000,
    deadline=1000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
