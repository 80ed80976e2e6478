"""Running a linter program: the backend that was found, its version, the command line
cut into chunks, the subprocess with its timeout and a scrubbed environment.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_postgates.tools.lint.catalog import LintError

TIMEOUT_SECONDS = 600
# Keep a command line well under every platform's limit; a larger corpus is linted in a
# few large chunks, which is still a handful of processes per run.
MAX_ARGUMENT_CHARS = 100_000


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
    chunks: list[list[Path]] = [[]]
    size = 0
    for path in paths:
        length = len(str(path)) + 1
        if chunks[-1] and size + length > MAX_ARGUMENT_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(path)
        size += length
    return [chunk for chunk in chunks if chunk]


def run_linter(command: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # Neither linter may pick up configuration from where pytest happens to run, nor the
    # rc package's ``markdownlint_*`` environment variables: cwd is an empty folder.
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.lower().startswith("markdownlint_")
    }
    env.setdefault("NO_COLOR", "1")
    try:
        return subprocess.run(
            list(command),
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise LintError(f"{Path(command[0]).name} did not finish in {TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise LintError(f"cannot start {Path(command[0]).name}: {exc.strerror}") from None


def linter_failure(name: str, result: subprocess.CompletedProcess[str], work: Path) -> LintError:
    """The linter's last words, with the scratch folder's path taken out (scorecards hold
    no absolute paths)."""
    tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
    said = " | ".join(tail).replace(f"{work}{os.sep}", "").replace(str(work), ".")
    return LintError(f"{name} exited with status {result.returncode}: {said}")


def result_key(path: str | Path, cwd: Path) -> str:
    return str((cwd / path).resolve())
