"""CI entry points of the ``postgates`` command: the pre-commit hook and the GitHub job
summary.

    postgates hook [--online] FILE... [-- PYTEST_ARGS...]
    postgates summary [--scorecards DIR] [--output FILE] [--base-url URL]

``hook`` is what ``.pre-commit-hooks.yaml`` runs on the staged Markdown files: of those it
gates the ones pytest would collect as posts without being named (under a ``_posts``
folder, or under a ``paths`` entry of ``[tool.postgates]``), so a staged README or
CHANGELOG is never gated by accident. Offline by default (no link requests from a commit
hook); ``--online`` checks external links too.

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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pytest_postgates import config as settings_module
from pytest_postgates.escaping import markdown_text
from pytest_postgates.gates import SETTINGS_TYPES
from pytest_postgates.post import is_markdown

EXIT_OK = 0
EXIT_GATES_FAILED = 1
EXIT_USAGE = 2


# ------------------------------------------------------------------------- the hook
def post_files(files: Sequence[str], start: Path) -> list[str]:
    """The files among ``files`` that are posts by the plugin's folder rule."""
    pyproject = settings_module.find_pyproject(start)
    settings = settings_module.Settings.declare(SETTINGS_TYPES)
    if pyproject is not None:
        settings = settings_module.from_pyproject(settings, pyproject)
    posts = []
    for name in files:
        path = Path(name)
        if not is_markdown(path):
            continue
        absolute = Path(os.path.abspath(path))
        if "_posts" in absolute.parts[:-1] or any(
            settings_module.in_folder(absolute, folder) for folder in settings.paths
        ):
            posts.append(name)
    return posts


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
    try:
        posts = post_files(args.files, Path.cwd())
    except settings_module.SettingsError as exc:
        print(f"postgates hook: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not posts:
        print(f"postgates hook: no posts among {len(args.files)} staged Markdown file(s)")
        return EXIT_OK
    import pytest

    pytest_args = [*posts, "-q", "-p", "no:cacheprovider", "--tb=no", "-rfE"]
    # This module imported the plugin before pytest could rewrite its asserts: harmless.
    pytest_args += ["-W", "ignore::pytest.PytestAssertRewriteWarning", *extra]
    if not args.online:
        pytest_args.append("--postgates-offline")
    code = pytest.main(pytest_args)
    if code == pytest.ExitCode.OK:
        return EXIT_OK
    if code == pytest.ExitCode.TESTS_FAILED:
        return EXIT_GATES_FAILED
    return EXIT_USAGE


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
