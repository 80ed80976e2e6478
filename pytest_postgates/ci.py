"""CI entry points of the ``postgates`` command: the pre-commit hook and the GitHub job
summary.

    postgates hook [--online] FILE... [-- PYTEST_ARGS...]
    postgates summary [--scorecards DIR] [--output FILE] [--base-url URL]

``hook`` is what ``.pre-commit-hooks.yaml`` runs on the staged Markdown files: of those it
gates the ones pytest would collect as posts without being named (under a ``_posts``
folder, or under a ``paths`` entry of ``[tool.postgates]`` or of a ``postgates_paths`` key in
the project's pytest configuration), so a staged README or CHANGELOG is never gated by
accident. Offline by default (no link requests from a commit hook); ``--online`` checks
external links too. pytest runs without the project's own pytest setup (hook_config.py).
Exit codes: 0 the gates passed (or no staged file is a post), 1 the gates failed, 2 a bad
argument, 3 the gates could not run (the message says why).

``summary`` reads the overall files of a run's scorecards folder and writes a Markdown job
summary: per-gate pass counts and every failing post, linked to the file at the commit
(``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA`` unless ``--base-url``). It
appends to ``--output`` (``$GITHUB_STEP_SUMMARY`` in a GitHub job), else prints.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pytest_postgates import config as settings_module
from pytest_postgates import hook_config
from pytest_postgates.escaping import markdown_text
from pytest_postgates.post import is_markdown

EXIT_OK = 0
EXIT_GATES_FAILED = 1
EXIT_USAGE = 2
# The hook could not gate at all (pytest did not start, the settings are broken, nothing was
# collected): not a verdict on the posts, so not the exit code of failing gates.
EXIT_COULD_NOT_RUN = 3


# ------------------------------------------------------------------------- the hook
def post_files(files: Sequence[str], start: Path) -> list[str]:
    """The files among ``files`` that are posts by the plugin's folder rule, under the
    settings of the project they belong to (pyproject.toml or its pytest configuration)."""
    markdown = [name for name in files if is_markdown(Path(name))]
    if not markdown:
        return []
    setup = hook_config.project_setup(markdown, start)
    return [name for name in markdown if setup.is_post(name)]


def hook(arguments: Sequence[str]) -> int:
    extra: list[str] = []
    arguments = list(arguments)
    if "--" in arguments:
        cut = arguments.index("--")
        arguments, extra = arguments[:cut], arguments[cut + 1 :]
    parser = argparse.ArgumentParser(prog="postgates hook")
    parser.add_argument("--online", action="store_true", help="check external links too")
    parser.add_argument("files", nargs="*", metavar="FILE")
    args = parser.parse_args(arguments)
    markdown = [name for name in args.files if is_markdown(Path(name))]
    try:
        setup = hook_config.project_setup(markdown, Path.cwd()) if markdown else None
    except settings_module.SettingsError as exc:
        print(f"postgates hook: could not run the gates: {exc}", file=sys.stderr)
        return EXIT_COULD_NOT_RUN
    posts = [name for name in markdown if setup is not None and setup.is_post(name)]
    if setup is None or not posts:
        print(f"postgates hook: no posts among {len(args.files)} staged Markdown file(s)")
        return EXIT_OK
    import pytest

    with tempfile.TemporaryDirectory(prefix="postgates-hook-") as scratch:
        empty_config = Path(scratch) / "pytest.ini"
        empty_config.write_text("[pytest]\n", encoding="utf-8")
        pytest_args = [*posts, *setup.pytest_arguments(empty_config), "-q", "--tb=no", "-rfE"]
        # This module imported the plugin before pytest could rewrite its asserts: harmless.
        pytest_args += ["-W", "ignore::pytest.PytestAssertRewriteWarning", *extra]
        if not args.online:
            pytest_args.append("--postgates-offline")
        with hook_config.without_pytest_addopts():
            code = pytest.main(pytest_args)
    if code == pytest.ExitCode.OK:
        return EXIT_OK
    if code == pytest.ExitCode.TESTS_FAILED:
        print(f"postgates hook: the gates failed on the staged posts ({len(posts)} gated)")
        return EXIT_GATES_FAILED
    reason = (
        f"no gate item was collected from {len(posts)} post(s)"
        if code == pytest.ExitCode.NO_TESTS_COLLECTED
        else f"pytest exited with {pytest.ExitCode(code).name} (exit code {int(code)})"
    )
    print(
        f"postgates hook: could not run the gates: {reason}; see the lines above",
        file=sys.stderr,
    )
    return EXIT_COULD_NOT_RUN


# ---------------------------------------------------------------------- the summary
def read_overall(folder: Path) -> list[dict[str, Any]]:
    """Every overall file of a scorecards folder, by post."""
    reports = []
    for path in sorted(folder.glob("*-overall.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("post"), str):
            reports.append(data)
    return sorted(reports, key=lambda report: report["post"])


def _link(post: str, base_url: str | None) -> str:
    """The post's path as literal code text (a file name's backticks, ``|``, ``<!--`` or
    line breaks never become Markdown), linked when there is a base URL."""
    shown = f"<code>{markdown_text(post)}</code>"
    if not base_url:
        return shown
    return f"[{shown}]({base_url.rstrip('/')}/{quote(post, safe='/')})"


def _count(value: Any) -> int:
    """A count read from an overall file (written by the plugin, but a file on disk)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def summary_markdown(reports: Sequence[Mapping[str, Any]], base_url: str | None) -> str:
    """The job summary: one table row per gate, then the failing posts."""
    from pytest_postgates.gates import POSITION

    gates: dict[int, dict[str, Any]] = {}
    for report in reports:
        for entry in report.get("gates", ()):
            row = gates.setdefault(
                _count(entry["gate"]),
                {"name": str(entry["name"]), "advisory": entry["advisory"], "counts": {}},
            )
            row["counts"][entry["verdict"]] = row["counts"].get(entry["verdict"], 0) + 1
    failing = [report for report in reports if report.get("overall") != "PASS"]
    lines = [
        "## postgates",
        "",
        f"{len(reports) - len(failing)} of {len(reports)} post(s) pass every hard gate.",
        "",
        "| gate | name | kind | pass | fail | error | skip |",
        "|---:|---|---|---:|---:|---:|---:|",
    ]
    for gate_id in sorted(gates, key=lambda g: POSITION.get(g, 99)):
        row = gates[gate_id]
        counts = row["counts"]
        kind = "advisory" if row["advisory"] else "hard"
        lines.append(
            f"| {gate_id} | <code>{markdown_text(row['name'])}</code> | {kind} | "
            f"{counts.get('PASS', 0)} | {counts.get('FAIL', 0)} | {counts.get('ERROR', 0)} | "
            f"{counts.get('SKIP', 0)} |"
        )
    if failing:
        lines += ["", "### Failing posts", ""]
        for report in failing:
            names = {entry["gate"]: str(entry["name"]) for entry in report.get("gates", ())}
            blocking = ", ".join(
                f"gate {markdown_text(str(gate))} "
                f"<code>{markdown_text(names.get(gate, str(gate)))}</code>"
                for gate in report.get("failing_gates", ())
            )
            cut = report.get("short_circuited_at")
            note = f"; short-circuited at gate {markdown_text(str(cut))}" if cut else ""
            lines.append(f"- {_link(report['post'], base_url)}: {blocking or 'FAIL'}{note}")
    return "\n".join(lines) + "\n"


def _default_base_url(environ: Mapping[str, str]) -> str | None:
    repository, sha = environ.get("GITHUB_REPOSITORY"), environ.get("GITHUB_SHA")
    if not repository or not sha:
        return None
    server = environ.get("GITHUB_SERVER_URL", "https://github.com")
    return f"{server}/{repository}/blob/{sha}"


def summary(arguments: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="postgates summary")
    parser.add_argument("--scorecards", default=".postgates/scorecards", type=Path)
    parser.add_argument(
        "--output", default=os.environ.get("GITHUB_STEP_SUMMARY") or None, type=Path
    )
    parser.add_argument("--base-url", default=_default_base_url(os.environ))
    args = parser.parse_args(list(arguments))
    reports = read_overall(args.scorecards)
    if not reports:
        print(f"postgates summary: no overall files in {args.scorecards}", file=sys.stderr)
        return EXIT_USAGE
    text = summary_markdown(reports, args.base_url)
    if args.output is None:
        sys.stdout.write(text)
    else:
        with args.output.open("a", encoding="utf-8") as stream:
            stream.write(text)
    return EXIT_OK
