"""The markdownlint-cli backend: found only as configured, on PATH or in the posts'
repository's ``node_modules/.bin`` (never above the repository), run over the batch with
the configuration file markdownlint reads itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from pytest_postgates.tools.lint.catalog import LintError, Violation
from pytest_postgates.tools.lint.config import load_config, repo_root_of
from pytest_postgates.tools.lint.process import (
    DEFAULT_BUDGET,
    Backend,
    argument_chunks,
    linter_failure,
    linter_timeout,
    result_key,
    run_linter,
)

MARKDOWNLINT_CLI_PIN = "0.43.0"  # what the blog's CI pins; bench/markdownlint_parity.py

SEMVER = re.compile(r"\d+\.\d+\.\d+\S*")


def find_markdownlint_cli(
    near: Iterable[Path] = (), configured: str | os.PathLike[str] | None = None
) -> tuple[str, ...] | None:
    """The command of an installed markdownlint-cli: the configured one; ``markdownlint``
    on PATH; ``node_modules/.bin/markdownlint`` at the repository root of one of ``near``
    (where ``npm install`` puts the CI's pinned version). None if none.

    Only inside a repository: a post outside any repository, or a ``node_modules`` in a
    folder above the repository (another user's, ``/tmp``'s, the filesystem root's), never
    gets a program run from there."""
    if configured:
        command = shutil.which(str(configured)) or str(configured)
        return (command,) if Path(command).is_file() else None
    on_path = shutil.which("markdownlint")
    if on_path:
        return (on_path,)
    names = ("markdownlint.cmd", "markdownlint") if os.name == "nt" else ("markdownlint",)
    for root in dict.fromkeys(repo_root_of(start.resolve()) for start in near):
        if root is None:
            continue
        for name in names:
            candidate = root / "node_modules" / ".bin" / name
            if candidate.is_file():
                return (str(candidate),)
    return None


def run_markdownlint_cli(
    backend: Backend,
    paths: Sequence[Path],
    config: Path | None,
    work: Path,
    budget: float = DEFAULT_BUDGET,
) -> dict[str, list[Violation]]:
    """markdownlint-cli over ``paths`` with ``config`` (markdownlint reads it itself, so
    JSONC, YAML and ``extends`` are its own); cli2 files and "no file" are written out as
    the JSON object they stand for."""
    if config is None or config.name.startswith(".markdownlint-cli2."):
        target = work / "markdownlint.json"
        target.write_text(json.dumps(load_config(config)), encoding="utf-8")
        config = target
    output = work / "markdownlint-out.json"
    found: dict[str, list[Violation]] = {str(path): [] for path in paths}
    for chunk in argument_chunks(paths):
        output.unlink(missing_ok=True)
        command = [*backend.command, "--json", "--output", str(output), "--config", str(config)]
        timeout = linter_timeout(len(chunk), budget)
        result = run_linter([*command, "--", *map(str, chunk)], work, timeout)
        if result.returncode not in (0, 1) or (result.returncode == 1 and not output.is_file()):
            raise linter_failure("markdownlint-cli", result, work)
        text = output.read_text(encoding="utf-8") if output.is_file() else ""
        try:
            items = json.loads(text) if text.strip() else []
        except json.JSONDecodeError:
            raise LintError(f"markdownlint-cli wrote no JSON: {text[:200]!r}") from None
        for item in items:
            names = item.get("ruleNames") or ["?"]
            rule = str(names[0])
            message = str(item.get("ruleDescription", ""))
            if item.get("errorDetail"):
                message += f" [{item['errorDetail']}]"
            if item.get("errorContext"):
                message += f' [Context: "{item["errorContext"]}"]'
            key = (
                item["fileName"]
                if item["fileName"] in found
                else result_key(item["fileName"], work)
            )
            found.setdefault(key, []).append(
                Violation(
                    int(item["lineNumber"]),
                    rule,
                    str(names[1] if len(names) > 1 else rule),
                    message,
                )
            )
    return found
