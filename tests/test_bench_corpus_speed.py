"""bench/corpus_speed.py: a run that did not run its tests stops the bench (no figures)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str, path: Path) -> Any:
    sys.path.insert(0, str(path.parent))  # the bench imports its sibling grounding_speed
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


corpus_speed = _load("corpus_speed", BENCH / "corpus_speed.py")


def _run(returncode: int, stdout: str, stderr: str = "") -> Any:
    result = subprocess.CompletedProcess(["pytest"], returncode, stdout, stderr)
    return corpus_speed.Run(1.0, 1.0, result)


@pytest.mark.parametrize(
    "last_line",
    [
        "8000 passed in 66.64s (0:01:06)",
        "7605 passed, 96 failed, 299 xfailed in 20.06s",
        "2400 tests collected in 1.78s",
        "1 test collected in 0.01s",
        "12 passed, 3 warnings in 0.50s",
    ],
)
def test_a_pytest_result_line_is_an_outcome(last_line: str) -> None:
    run = _run(1 if "failed" in last_line else 0, f"....\n{last_line}\n")
    assert corpus_speed.check_outcome("serial", run) is run


@pytest.mark.parametrize(
    ("returncode", "stdout", "stderr"),
    [
        # A python without the plugin's dependencies: pytest stops before any test.
        (1, "", "ImportError while loading conftest '/x/conftest.py'.\nNo module named 'yaml'"),
        (4, "ERROR: usage: pytest [options]\n", "error: unrecognized arguments: -n"),
        (5, "no tests ran in 0.01s\n", ""),
        # Collection errors: a result line, but the run was interrupted.
        (2, "!!! Interrupted: 3 errors during collection !!!\n3 errors in 2.01s\n", ""),
        (0, "", ""),
    ],
)
def test_a_run_without_a_result_stops_the_bench(returncode: int, stdout: str, stderr: str) -> None:
    with pytest.raises(corpus_speed.RunFailed, match=r"run 'n2 cold' did not run its tests"):
        corpus_speed.check_outcome("n2 cold", _run(returncode, stdout, stderr))


def test_the_result_line_of_a_real_run_is_recognised(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_a(): pass\ndef test_b(): assert False\n")
    result = pytester.runpytest_subprocess("-q", "-p", "no:randomly", "-p", "no:cacheprovider")
    run = _run(result.ret, "\n".join(result.outlines), "\n".join(result.errlines))
    assert corpus_speed.check_outcome("plain", run) is run


def test_main_exits_non_zero_with_the_reason_when_a_run_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(argv: list[str] | None = None) -> int:
        raise corpus_speed.RunFailed("run 'warm-up' did not run its tests (exit status 4)")

    monkeypatch.setattr(corpus_speed, "measure", failing)
    assert corpus_speed.main([]) == 2
    assert "corpus_speed: run 'warm-up' did not run its tests" in capsys.readouterr().err


def test_the_best_parallel_wall_is_the_cpu_spread_over_the_cpus_or_the_busiest_process() -> None:
    processes = [{"cpu": 12.4}, {"cpu": 13.0}, {"cpu": 14.0}]
    assert corpus_speed.best_wall(processes, 2) == pytest.approx(19.7)
    # One process cannot be split: a busy controller bounds the run by itself.
    assert corpus_speed.best_wall([{"cpu": 30.0}, {"cpu": 2.0}], 4) == 30.0
    assert corpus_speed.best_wall([], 2) == 0.0
