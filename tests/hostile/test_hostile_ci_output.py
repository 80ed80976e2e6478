"""Hostile posts and file names injecting CI output (issue 25).

A GitHub runner acts on a log line that starts with ``::`` (``::add-mask::``, ``::warning``),
and a job summary is Markdown. Every string a post or a file name brings is escaped for the
medium it lands in (pytest_postgates.escaping): a newline in a ``postgates: expect:`` key or
in a file name never starts a line of its own, and a file name's backticks, ``|``, line
breaks or ``<!--`` never rewrite the job summary.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates import ci, cli
from pytest_postgates.escaping import (
    markdown_text,
    one_line,
    printable,
    workflow_data,
    workflow_property,
)
from pytest_postgates.reports import github_annotations
from pytest_postgates.session import file_name_problem

if TYPE_CHECKING:
    from tests.conftest import Blog

LEGIT_COMMANDS = ("::error file=", "::warning file=")


def _command_lines(text: str) -> list[str]:
    """Lines a GitHub runner would act on that the plugin did not mean as annotations."""
    return [
        line
        for line in text.splitlines()
        if line.lstrip().startswith(("::", "##[")) and not line.startswith(LEGIT_COMMANDS)
    ]


def test_no_line_of_the_run_is_a_workflow_command_a_post_wrote(
    pytester: pytest.Pytester, blog: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    blog.post(name="2026-01-01-a\n::warning::pwned by name.md", body=blog.NO_ENTITY)
    blog.post("2026-01-02-b.md", body=blog.NO_ENTITY, expect={"x\n::add-mask::secret": "FAIL"})
    blog.post(
        "2026-01-03-c.md",
        body="This post is about a Python plugin.\n\n"
        "It is a paradigm shift\n::add-mask::in a finding.\n",
    )
    result = pytester.runpytest(
        "_posts", "--postgates-only=11", "-rA", "--postgates-feedback=feedback.txt"
    )
    output = result.stdout.str() + "\n" + result.stderr.str()
    assert _command_lines(output) == []
    feedback = (pytester.path / "feedback.txt").read_text(encoding="utf-8")
    assert _command_lines(feedback) == []
    # Still named, visibly escaped, on one line.
    assert "_posts/2026-01-01-a\\n::warning::pwned by name.md" in output
    assert "x\\n::add-mask::secret" in output
    annotations = [line for line in result.stdout.lines if line.startswith("::error")]
    assert len(annotations) == 3
    assert all("\n" not in line for line in annotations)


@pytest.mark.parametrize(
    "name",
    ["a\nb.md", "a\rb.md", "a\u2028b.md", "::warning::x.md", "  ::add-mask::x.md", "##[group]x.md"],
)
def test_a_file_name_that_would_break_a_log_line_is_refused(name: str) -> None:
    assert file_name_problem(Path("_posts") / name) is not None


@pytest.mark.parametrize("name", ["2026-01-01-a b.md", "caf\u00e9.md", "a::b.md", "x#y.md"])
def test_ordinary_file_names_are_not_refused(name: str) -> None:
    assert file_name_problem(Path("_posts") / name) is None


def _report(post: str, failing: bool) -> dict[str, Any]:
    verdict = "FAIL" if failing else "PASS"
    return {
        "post": post,
        "overall": verdict,
        "failing_gates": [11] if failing else [],
        "short_circuited_at": None,
        "gates": [{"gate": 11, "name": "narrative_opening", "advisory": False, "verdict": verdict}],
    }


HOSTILE_NAME = "_posts/x`\n\n## All posts passed\n\n<!--"


@pytest.mark.parametrize("base_url", [None, "https://github.com/o/r/blob/abc"])
def test_a_file_name_never_rewrites_the_job_summary(base_url: str | None) -> None:
    reports = [_report(HOSTILE_NAME, True), _report("_posts/z|later.md", True)]
    text = ci.summary_markdown(reports, base_url)
    lines = text.splitlines()
    assert "## All posts passed" not in lines
    assert "<!--" not in text and re.search(r"(?<!\\)`", text) is None  # escaped, shown
    failing = [line for line in lines if line.startswith("- ")]
    assert len(failing) == 2  # the later post is still listed, not hidden in a comment
    assert "later.md" in failing[1] and "\\|later" in failing[1]


def test_the_job_summary_reads_hostile_overall_files(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "a-overall.json").write_text(json.dumps(_report(HOSTILE_NAME, True)))
    (folder / "b-overall.json").write_text(json.dumps(_report("_posts/z.md", True)))
    output = tmp_path / "summary.md"
    assert ci.summary(["--scorecards", str(folder), "--output", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    assert "<!--" not in text and "\n## All posts passed" not in text
    assert "0 of 2 post(s) pass every hard gate." in text


def test_postgates_run_prints_findings_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    collector = cli._Collector()
    post = "_posts/a\n::warning::b.md"
    collector.overall = {post: {"post": post, "overall": "FAIL"}}
    collector.records = {
        post: {
            11: {
                "gate": 11,
                "name": "narrative_opening",
                "advisory": False,
                "verdict": "FAIL",
                "summary": "one\n::add-mask::two",
                "findings": [[3, "BANNED_PHRASE", "quoted\n::add-mask::three", ""]],
            }
        }
    }
    cli._print_results(collector)
    captured = capsys.readouterr()
    assert _command_lines(captured.out + captured.err) == []


def test_github_annotations_escape_a_file_name_and_a_finding() -> None:
    records = {
        "_posts/a\n::warning::b,c.md": {
            11: {
                "gate": 11,
                "name": "narrative_opening",
                "advisory": False,
                "verdict": "FAIL",
                "findings": [[3, "X", "quoted\n::add-mask::secret 100%", ""]],
            }
        }
    }
    (line,) = github_annotations(records)
    assert line.startswith("::error file=_posts/a%0A%3A%3Awarning%3A%3Ab%2Cc.md,line=3,")
    assert line.endswith("::X: quoted%0A::add-mask::secret 100%25")


def test_the_escaping_helpers() -> None:
    assert printable("ok\n  ::add-mask::x\n##[group]y\n") == (
        "ok\n  \\x3a:add-mask::x\n\\x23#[group]y\n"
    )
    assert one_line("a\nb\u2028c\rd") == "a\\nb\\u2028c\\x0dd"
    assert one_line("::warning::x") == "\\x3a:warning::x"
    assert workflow_data("a%\r\nb") == "a%25\\x0d%0Ab"
    assert workflow_property("a:b,c") == "a%3Ab%2Cc"
    assert markdown_text("a`b|c<!--d\ne_f") == "a\\`b\\|c\\<\\!--d\\\\ne\\_f"
