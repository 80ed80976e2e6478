"""Running a linter program: the backend that was found, its version, the command line
cut into chunks, the subprocess with its timeout and a scrubbed environment.

Timeouts follow the run's ``gate_timeout`` (issue 16), so that a post that makes the
linter hang costs a few budgets, not a fixed ten minutes per bisection level. One linter
process lints at most :data:`FILES_PER_PROCESS` files and may take
:func:`linter_timeout` seconds: the budget plus :data:`SECONDS_PER_FILE` per file, at most
:data:`BATCH_BUDGETS` budgets. A healthy linter is far inside that: rumdl lints the 130
posts of the real corpus in 0.23 s of CPU, markdownlint-cli 0.43.0 in 10 s (77 ms a post,
every rule on), which on this shared 2-CPU machine at a load of 13 took 66 s of wall time;
half a second per file covers that sixfold slowdown. When the batch fails,
:mod:`.isolation` lints again in chunks of 16 and then post by post, each under the same
rule (about one budget each), so one hanging post costs at most ``BATCH_BUDGETS + 2``
budgets and a few seconds (default budget 60 s: 180 s + 68 s + 60.5 s).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.tools.lint.catalog import LintError

# config.Settings.gate_timeout's default: the budget when a caller names none.
DEFAULT_BUDGET = 60.0
# Keep a command line well under every platform's limit, and each process small enough
# that its timeout stays a few budgets: a larger corpus is linted in several processes
# (one Node start each, about a second), still a handful per run.
MAX_ARGUMENT_CHARS = 100_000
FILES_PER_PROCESS = 200
SECONDS_PER_FILE = 0.5
BATCH_BUDGETS = 3.0


def linter_timeout(files: int, budget: float = DEFAULT_BUDGET) -> float:
    """Seconds one linter process over ``files`` files may run: ``budget`` (the run's
    ``gate_timeout``) plus :data:`SECONDS_PER_FILE` per file, at most
    :data:`BATCH_BUDGETS` budgets."""
    return min(budget + SECONDS_PER_FILE * files, BATCH_BUDGETS * budget)


@dataclass(frozen=True)
class Backend:
    """A linter that can run: its name, the command that starts it and its version."""

    name: str
    command: tuple[str, ...]
    version: str


def program_version(command: Sequence[str], parse: re.Pattern[str]) -> str | None:
    try:
        result = subprocess.run(
            [*command, "--version"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    match = parse.search(result.stdout)
    return match.group(1) if match and match.groups() else (match.group(0) if match else None)


def argument_chunks(paths: Sequence[Path]) -> list[list[Path]]:
    """``paths`` cut into the file lists of linter processes: within the command-line
    limit, and at most :data:`FILES_PER_PROCESS` files each."""
    chunks: list[list[Path]] = [[]]
    size = 0
    for path in paths:
        length = len(str(path)) + 1
        full = len(chunks[-1]) >= FILES_PER_PROCESS
        if chunks[-1] and (full or size + length > MAX_ARGUMENT_CHARS):
            chunks.append([])
            size = 0
        chunks[-1].append(path)
        size += length
    return [chunk for chunk in chunks if chunk]


def run_linter(
    command: Sequence[str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    """``command`` run to completion within ``timeout`` seconds; on the deadline its whole
    process group is killed (``npx`` and Node start children that would keep the pipes
    open) and :class:`LintError` says so."""
    # Neither linter may pick up configuration from where pytest happens to run, nor the
    # rc package's ``markdownlint_*`` environment variables: cwd is an empty folder.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.lower().startswith("markdownlint_")
    }
    env.setdefault("NO_COLOR", "1")
    name = Path(command[0]).name
    try:
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        raise LintError(f"cannot start {name}: {exc.strerror}") from None
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError, ValueError):
            process.communicate(timeout=5)
        raise LintError(f"{name} did not finish in {timeout:g} s") from None
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _kill_group(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            process.kill()


def linter_failure(name: str, result: subprocess.CompletedProcess[str], work: Path) -> LintError:
    """The linter's last words, with the scratch folder's path taken out (scorecards hold
    no absolute paths)."""
    tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
    said = " | ".join(tail).replace(f"{work}{os.sep}", "").replace(str(work), ".")
    return LintError(f"{name} exited with status {result.returncode}: {said}")


def result_key(path: str | Path, cwd: Path) -> str:
    return str((cwd / path).resolve())
