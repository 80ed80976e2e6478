"""The suite's own run: tests marked ``bench`` (timed work, benchmark corpora) are left out of
the default run and the CI's, and run when asked for; CI runs the README's test command and
ends with the slowest tests."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent

TIMED = """
import pytest

@pytest.mark.bench
def test_timed():
    pass

def test_plain():
    pass
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """A small suite with this repository's bench hooks and marker registration."""
    pytester.makeconftest(
        "from tests.conftest import pytest_addoption, pytest_collection_modifyitems\n"
    )
    pytester.makeini("[pytest]\nmarkers =\n    bench: a bench\n")
    pytester.makepyfile(test_suite=TIMED)
    return pytester


def test_bench_tests_are_deselected_by_default(suite: pytest.Pytester) -> None:
    result = suite.runpytest("-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(["PASSED test_suite.py::test_plain"])


@pytest.mark.parametrize(
    ("args", "passed", "deselected"),
    [
        (["--run-bench"], 2, 0),
        (["-m", "bench"], 1, 1),
        (["-m", "bench or not bench"], 2, 0),
        (["-m", "not bench"], 1, 1),
    ],
)
def test_bench_tests_run_when_asked_for(
    suite: pytest.Pytester, args: list[str], passed: int, deselected: int
) -> None:
    result = suite.runpytest("-p", "no:cacheprovider", *args)
    result.assert_outcomes(passed=passed, deselected=deselected)


def _marks(obj: object) -> set[str]:
    marks = getattr(obj, "pytestmark", [])
    return {mark.name for mark in (marks if isinstance(marks, list) else [marks])}


def test_the_timed_and_corpus_tests_are_benches_and_their_neighbours_are_not() -> None:
    from tests import test_gate_markdownlint_conformance, test_lint_linear_time, test_scan
    from tests.hostile import test_regex_growth

    assert "bench" in _marks(test_regex_growth)
    assert "bench" in _marks(test_gate_markdownlint_conformance)
    assert "bench" in _marks(test_lint_linear_time.test_adversarial_text_is_scanned_in_linear_time)
    assert "bench" in _marks(test_scan.test_scanner_matches_the_regex_on_a_real_corpus)
    # Their files' correctness tests stay in the default run.
    assert "bench" not in _marks(test_lint_linear_time)
    assert "bench" not in _marks(test_lint_linear_time.test_code_spans_pair_runs_of_equal_length)
    assert "bench" not in _marks(test_scan)
    assert "bench" not in _marks(test_scan.test_scanner_matches_what_the_regex_matched)


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", quick_start, re.S)
    (command,) = [c for c in commands if '".[test]"' in c]
    return command.strip()


def test_ci_runs_the_readmes_test_command_and_prints_the_slowest_tests() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1].strip() == _readme_test_command()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = pyproject["tool"]["pytest"]["ini_options"]
    assert any(option.startswith("--durations=") for option in pytest_options["addopts"])
    assert any(marker.startswith("bench:") for marker in pytest_options["markers"])
