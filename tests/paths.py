"""Where the test suite's files are: the repository root, the tests folder and its data (the test files
sit at different depths of tests/, mirroring the packages)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
GOLDEN = TESTS / "golden"
EXAMPLES = ROOT / "examples"
