"""The GitHub Action's steps (``action.yml``), as code that tests can reach.

    postgates action gates     run pytest on the inputs; write exit-code and outcome
    postgates action verdict   fail the job, saying whether the gates failed or could not run

The Action hands its inputs over in environment variables (never spliced into a script):
``POSTGATES_PATHS``, ``POSTGATES_ARGS`` (both split on white space, never globbed),
``POSTGATES_OFFLINE``, ``POSTGATES_SARIF``, ``POSTGATES_SCORECARDS``; the verdict step reads
``EXIT_CODE`` and ``POSTGATES_PATHS``. Step outputs go to ``$GITHUB_OUTPUT``.

pytest's exit code says what happened, and the verdict says it in words: 1 is a verdict on
the posts (a hard gate failed); 2 (interrupted), 3 (internal error) and 4 (usage error) mean
the gates could not run at all; 5 means no post was collected, so nothing was gated.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.escaping import one_line, workflow_data

PASSED = "passed"
GATES_FAILED = "gates-failed"
NO_POSTS = "no-posts"
COULD_NOT_RUN = "could-not-run"

_COULD_NOT_RUN_REASONS = {
    2: "pytest was interrupted",
    3: "pytest hit an internal error",
    4: "pytest refused its arguments or the configuration (a usage error)",
}


@dataclass(frozen=True)
class Outcome:
    """What a gates run came to: its name (the ``outcome`` output) and the one line the
    job shows (None when it passed)."""

    name: str
    message: str | None = None

    @property
    def failed(self) -> bool:
        return self.name != PASSED


def pytest_arguments(environ: Mapping[str, str]) -> list[str]:
    """The pytest command line of the gates step. pytest's cache folder stays on: the
    result cache and the indexes live there (persist ``.pytest_cache`` to reuse them)."""
    arguments = environ.get("POSTGATES_PATHS", "").split()
    if environ.get("POSTGATES_OFFLINE", "").strip().lower() == "true":
        arguments.append("--postgates-offline")
    sarif = environ.get("POSTGATES_SARIF", "")
    if sarif:
        arguments.append(f"--postgates-sarif={sarif}")
    scorecards = environ.get("POSTGATES_SCORECARDS", "")
    if scorecards:
        arguments.append(f"--postgates-scorecards={scorecards}")
    return [*arguments, "-rfE", *environ.get("POSTGATES_ARGS", "").split()]


def outcome(exit_code: str, paths: str = "") -> Outcome:
    """The outcome of a gates step that ended with pytest's ``exit_code`` (text, as a step
    output is; empty when the step did not run)."""
    code = exit_code.strip()
    if code == "0":
        return Outcome(PASSED)
    if code == "1":
        return Outcome(
            GATES_FAILED,
            "the gates failed: a hard gate failed on at least one post (pytest exit code 1); "
            "the findings are in the gates step's log, the job summary and the SARIF report",
        )
    if code == "5":
        named = one_line(paths.strip() or "the paths input")
        return Outcome(
            NO_POSTS,
            f"no post was collected from {named}, so nothing was gated (pytest exit code 5); "
            "name the folders of posts in the paths input, or set paths under "
            "[tool.postgates]",
        )
    if not code:
        return Outcome(
            COULD_NOT_RUN, "the gates could not run: the gates step did not run (see above)"
        )
    reason = _COULD_NOT_RUN_REASONS.get(int(code) if code.isdigit() else -1, "it stopped")
    return Outcome(
        COULD_NOT_RUN,
        f"the gates could not run: {reason} (pytest exit code {one_line(code)}); "
        "see the gates step's log",
    )


def _write_outputs(environ: Mapping[str, str], values: Mapping[str, str]) -> None:
    target = environ.get("GITHUB_OUTPUT")
    lines = "".join(f"{key}={value}\n" for key, value in values.items())
    if target:
        with Path(target).open("a", encoding="utf-8") as stream:
            stream.write(lines)
    else:
        sys.stdout.write(lines)


def gates_step(environ: Mapping[str, str]) -> int:
    """Run pytest as the gates step; the step itself always succeeds (the upload and the
    summary come first), the verdict step fails the job."""
    command = [sys.executable, "-m", "pytest", *pytest_arguments(environ)]
    code = subprocess.run(command, check=False).returncode
    result = outcome(str(code), environ.get("POSTGATES_PATHS", ""))
    _write_outputs(environ, {"exit-code": str(code), "outcome": result.name})
    return 0


def verdict_step(environ: Mapping[str, str]) -> int:
    """One ``::error`` line that says what happened, and the job's failure, unless the
    gates passed."""
    result = outcome(environ.get("EXIT_CODE", ""), environ.get("POSTGATES_PATHS", ""))
    if not result.failed:
        print("postgates: every hard gate passed")
        return 0
    print(f"::error title=postgates {result.name}::{workflow_data(result.message or '')}")
    return 1


def main(arguments: Sequence[str], environ: Mapping[str, str] | None = None) -> int:
    steps = {"gates": gates_step, "verdict": verdict_step}
    if len(arguments) != 1 or arguments[0] not in steps:
        print("usage: postgates action {gates|verdict}", file=sys.stderr)
        return 2
    return steps[arguments[0]](os.environ if environ is None else environ)
