"""The blog's own audit commands (gate 1's ``audit_commands``), run as the seeds' tools run:
an argument list from :func:`shlex.split` (never a shell), in the blog's root folder, with
a timeout that kills the command's whole process group, and only the output lines that
name a file kept (``! <file>: <msg>`` and ``ERROR: <path>:<line>[: <msg>]``, ANSI colours
removed), each with the file it resolves to under that root.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_postgates.evidence import GitError, find_repo_root

MAX_LINES = 20_000  # attributable output lines kept per command

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_BANG_LINE = re.compile(r"^\s*!\s+(?P<path>[^:\n]*?[^\s:]):\s*(?P<message>.*)$")
_ERROR_LINE = re.compile(
    r"^\s*ERROR:\s+(?P<path>[^\s:][^:\n]*?):(?P<line>\d+)(?::\d+)?(?:\s*[:\-]?\s*(?P<message>.*))?$"
)


def blog_root(path: Path) -> Path:
    """The folder audit tools run in: the git work tree holding the post, else the folder
    above ``_posts``, else the post's folder."""
    return _folder_root(path.resolve().parent)


@lru_cache(maxsize=256)
def _folder_root(folder: Path) -> Path:
    """Asked of git once per folder, not once per post."""
    with contextlib.suppress(GitError, OSError):
        return find_repo_root(folder)
    for candidate in (folder, *folder.parents):
        if candidate.name == "_posts":
            return candidate.parent
    return folder


def _display(argv: list[str]) -> str:
    """The command as shown in scorecards: absolute paths shortened to their names."""
    return " ".join(Path(token).name if os.path.isabs(token) else token for token in argv)


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            process.kill()


def run_audit_command(command: str, root: Path, timeout: float) -> dict[str, Any]:
    """Run one audit command and parse the lines that name a file."""
    entry: dict[str, Any] = {"command": command, "returncode": None, "error": None, "lines": []}
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        entry["error"] = f"cannot split the command {command!r}: {exc}"
        return entry
    if not argv:
        entry["error"] = "empty audit command"
        return entry
    entry["command"] = _display(argv)
    try:
        process = subprocess.Popen(
            argv,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        entry["error"] = f"{entry['command']}: cannot start: {exc.strerror or exc}"
        return entry
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_tree(process)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError, ValueError):
            process.communicate(timeout=5)
        entry["error"] = f"{entry['command']}: timed out after {timeout:g} s"
        return entry
    entry["returncode"] = process.returncode
    lines = []
    for raw in _ANSI.sub("", output.decode("utf-8", "replace")).splitlines():
        parsed = parse_audit_line(raw, root)
        if parsed is not None:
            lines.append(parsed)
            if len(lines) >= MAX_LINES:
                break
    entry["lines"] = lines
    return entry


def parse_audit_line(raw: str, root: Path) -> dict[str, Any] | None:
    match = _BANG_LINE.match(raw) or _ERROR_LINE.match(raw)
    if match is None:
        return None
    named = match.group("path").strip()
    line_text = match.groupdict().get("line")
    candidate = Path(named) if os.path.isabs(named) else root / named
    try:
        resolved = str(candidate.resolve()) if candidate.is_file() else None
    except OSError:
        resolved = None
    return {
        "path": named,
        "resolved": resolved,
        "name": named.replace("\\", "/").rsplit("/", 1)[-1],
        "line": int(line_text) if line_text else None,
        "message": (match.group("message") or "").strip(),
    }
