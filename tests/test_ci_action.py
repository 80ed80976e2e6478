"""The GitHub Action's step logic (issue 27): pytest_postgates/ci_action.py, which
action.yml calls. tests/test_ci_integration.py runs the Action's steps end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates import ci_action, cli


def test_pytest_arguments_keep_the_cache_and_split_the_inputs() -> None:
    environ = {
        "POSTGATES_PATHS": " _posts  docs/*.md ",
        "POSTGATES_ARGS": "-n 2 --postgates-only=1,2",
        "POSTGATES_OFFLINE": "true",
        "POSTGATES_SARIF": "out dir/p.sarif",
        "POSTGATES_SCORECARDS": ".postgates/scorecards",
    }
    assert ci_action.pytest_arguments(environ) == [
        "_posts",
        "docs/*.md",  # never globbed: pytest gets the text as written
        "--postgates-offline",
        "--postgates-sarif=out dir/p.sarif",
        "--postgates-scorecards=.postgates/scorecards",
        "-rfE",
        "-n",
        "2",
        "--postgates-only=1,2",
    ]
    # The result cache lives in pytest's cache folder: the Action never turns it off.
    assert "no:cacheprovider" not in ci_action.pytest_arguments(environ)
    assert "--postgates-offline" not in ci_action.pytest_arguments({"POSTGATES_OFFLINE": "no"})


@pytest.mark.parametrize(
    ("code", "name", "words"),
    [
        ("0", "passed", None),
        ("1", "gates-failed", "the gates failed: a hard gate failed"),
        (
            "2",
            "could-not-run",
            "the gates could not run: pytest was interrupted (pytest exit code 2)",
        ),
        ("3", "could-not-run", "could not run: pytest hit an internal error (pytest exit code 3)"),
        ("4", "could-not-run", "could not run: pytest refused its arguments"),
        ("5", "no-posts", "no post was collected from _posts docs, so nothing was gated"),
        ("", "could-not-run", "the gates step did not run"),
        ("137", "could-not-run", "could not run: it stopped (pytest exit code 137)"),
    ],
)
def test_outcome_tells_could_not_run_from_gates_failed(
    code: str, name: str, words: str | None
) -> None:
    result = ci_action.outcome(code, "_posts docs")
    assert result.name == name
    assert result.failed == (name != "passed")
    if words is None:
        assert result.message is None
    else:
        assert result.message is not None and words in result.message
        if name != "gates-failed":
            assert "gates failed" not in result.message


def test_verdict_step_prints_one_escaped_error_and_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert ci_action.verdict_step({"EXIT_CODE": "0"}) == 0
    assert "::" not in capsys.readouterr().out
    assert ci_action.verdict_step({"EXIT_CODE": "4"}) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("::error title=postgates could-not-run::the gates could not run: ")
    # A path input with a line break and a "%" cannot end the command or start another.
    assert ci_action.verdict_step({"EXIT_CODE": "5", "POSTGATES_PATHS": "a%\n::warning::x"}) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert "from a%25\\n::warning::x, so nothing" in line


def test_gates_step_runs_pytest_and_writes_exit_code_and_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[list[str]] = []

    def fake_run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        ran.append(command)
        return subprocess.CompletedProcess(command, 4)

    monkeypatch.setattr(subprocess, "run", fake_run)
    output = tmp_path / "output"
    output.write_text("earlier=1\n")
    environ = {"GITHUB_OUTPUT": str(output), "POSTGATES_PATHS": "_posts"}
    assert ci_action.gates_step(environ) == 0  # the verdict step fails the job, later
    assert ran == [[sys.executable, "-m", "pytest", "_posts", "-rfE"]]
    assert output.read_text() == "earlier=1\nexit-code=4\noutcome=could-not-run\n"


def test_the_postgates_command_runs_the_action_steps(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EXIT_CODE", "1")
    assert cli.main(["action", "verdict"]) == 1
    assert capsys.readouterr().out.startswith("::error title=postgates gates-failed::")
    assert cli.main(["action", "nonsense"]) == 2
