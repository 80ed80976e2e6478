"""``postgates run``: overall JSON per post on stdout and the seeds' exit-code contract."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import pytest

from pytest_postgates import cli

if TYPE_CHECKING:
    from tests.conftest import Blog

GOOD = "_posts/2026-01-01-good.md"
BAD = "_posts/2026-01-02-bad.md"
CLAIMS = "_posts/2026-01-03-claims.md"


def json_documents(text: str) -> list[dict[str, Any]]:
    """Every JSON object printed on stdout, in order (they are indented, one after another)."""
    decoder = json.JSONDecoder()
    documents, index = [], 0
    text = text.strip()
    while index < len(text):
        document, index = decoder.raw_decode(text, index)
        documents.append(document)
        while index < len(text) and text[index].isspace():
            index += 1
    return documents


def verdicts(report: dict[str, Any]) -> list[tuple[int, str]]:
    return [(gate["gate"], gate["verdict"]) for gate in report["gates"]]


@pytest.fixture
def run_cli(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Any:
    """Call ``cli.main`` in-process from the pytester dir; return (exit code, JSON, stderr)."""
    monkeypatch.chdir(pytester.path)
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY_CLAIMS)
    blog.post("2026-01-03-claims.md", blog.CLAIMS)

    def run(*argv: str) -> tuple[int, list[dict[str, Any]], str]:
        capsys.readouterr()
        code = cli.main(["run", *argv])
        out, err = capsys.readouterr()
        return code, json_documents(out), err

    return run


def test_passing_post_exits_0_and_prints_overall(run_cli: Any) -> None:
    """A post whose hard gates pass: exit 0, its overall JSON on stdout."""
    code, reports, _ = run_cli(GOOD)
    assert code == cli.EXIT_OK == 0
    assert len(reports) == 1
    report = reports[0]
    assert (report["post"], report["overall"], report["short_circuited_at"]) == (GOOD, "PASS", None)
    assert verdicts(report) == [(11, "PASS"), (13, "PASS")]


def test_failing_hard_gate_exits_1(run_cli: Any) -> None:
    """A hard gate FAIL: exit 1, overall FAIL, findings on stderr; the free gate 13 still
    runs, the paid judge gate 4 is short-circuited."""
    code, reports, err = run_cli(BAD)
    assert code == cli.EXIT_GATES_FAILED == 1
    assert [(r["post"], r["overall"], r["short_circuited_at"]) for r in reports] == [
        (BAD, "FAIL", None)
    ]
    assert verdicts(reports[0]) == [(11, "FAIL"), (13, "FAIL")]
    assert f"{BAD}: gate 11 narrative_opening (hard) FAIL" in err
    assert f"{BAD}:6: NO_ENTITY " in err
    code, reports, err = run_cli(BAD, "--only=11,13,4")
    assert [(r["overall"], r["short_circuited_at"]) for r in reports] == [("FAIL", 11)]
    assert verdicts(reports[0]) == [(4, "SKIP"), (11, "FAIL"), (13, "FAIL")]


def test_advisory_failure_never_changes_exit_code(run_cli: Any) -> None:
    """Gate 13 FAIL alone: overall PASS and exit 0."""
    code, reports, _ = run_cli(CLAIMS)
    assert code == 0
    assert [(r["overall"], verdicts(r)) for r in reports] == [
        ("PASS", [(11, "PASS"), (13, "FAIL")])
    ]


def test_all_disables_short_circuit(run_cli: Any) -> None:
    """``--all`` runs gate 13 after gate 11 failed; the exit code is still 1."""
    code, reports, _ = run_cli("--all", BAD)
    assert code == 1
    assert [(r["short_circuited_at"], verdicts(r)) for r in reports] == [
        (None, [(11, "FAIL"), (13, "FAIL")])
    ]


def test_only_runs_the_named_gates(run_cli: Any) -> None:
    """``--only=11`` runs gate 11 alone; ``--only=13`` judges a bad opening not at all."""
    code, reports, _ = run_cli("--only=11", GOOD)
    assert (code, [verdicts(r) for r in reports]) == (0, [[(11, "PASS")]])
    code, reports, _ = run_cli("--only=13", BAD)
    assert (code, [verdicts(r) for r in reports]) == (0, [[(13, "FAIL")]])


@pytest.mark.parametrize(
    ("options", "expected"),
    [(["--all"], [(11, "FAIL"), (13, "FAIL")]), (["--only=11"], [(11, "FAIL")])],
    ids=["all", "only"],
)
def test_options_after_posts_as_documented(
    run_cli: Any, options: list[str], expected: list[tuple[int, str]]
) -> None:
    """``postgates run DRAFT.md --all`` / ``--only=11`` (the documented order) work."""
    code, reports, _ = run_cli(BAD, *options)
    assert (code, [verdicts(r) for r in reports]) == (1, [expected])


def test_several_posts_one_report_each(run_cli: Any) -> None:
    """One JSON object per post, sorted by path; any hard failure makes the exit code 1."""
    code, reports, _ = run_cli(GOOD, CLAIMS, BAD)
    assert code == 1
    assert [(r["post"], r["overall"]) for r in reports] == [
        (GOOD, "PASS"),
        (BAD, "FAIL"),
        (CLAIMS, "PASS"),
    ]


def test_folder_argument_runs_its_posts(run_cli: Any) -> None:
    """A ``_posts`` folder argument runs every post in it."""
    code, reports, _ = run_cli("_posts")
    assert code == 1
    assert sorted(r["post"] for r in reports) == [GOOD, BAD, CLAIMS]


def test_markdown_outside_posts_named_directly(run_cli: Any, blog: Blog) -> None:
    """A draft outside ``_posts`` named on the command line is a post too."""
    blog.post("draft.md", folder="drafts")
    code, reports, _ = run_cli("drafts/draft.md")
    assert (code, [r["post"] for r in reports]) == (0, ["drafts/draft.md"])


def test_no_posts_found_exits_2(run_cli: Any, blog: Blog) -> None:
    """A folder that holds no posts: exit 2, nothing on stdout, a message on stderr."""
    blog.raw("notes/notes.txt", b"Plain text, not a post.\n")
    code, reports, err = run_cli("notes")
    assert (code, reports) == (cli.EXIT_USAGE, [])
    assert code == 2
    assert "no posts were collected from notes" in err


def test_missing_file_exits_2(run_cli: Any) -> None:
    """A path that does not exist is a usage error, not a pass."""
    code, reports, _ = run_cli("_posts/missing.md")
    assert (code, reports) == (2, [])


def test_unknown_gate_id_exits_2(run_cli: Any) -> None:
    """``--only`` with an unknown id is a usage error."""
    code, reports, _ = run_cli(GOOD, "--only=99")
    assert (code, reports) == (2, [])


def test_module_entry_point_in_a_subprocess(pytester: pytest.Pytester, blog: Blog) -> None:
    """``python -m pytest_postgates run`` behaves like the console script."""
    blog.post("2026-01-01-good.md")
    blog.post("2026-01-02-bad.md", blog.NO_ENTITY)
    good = pytester.run(sys.executable, "-m", "pytest_postgates", "run", GOOD)
    assert good.ret == 0
    assert (pytester.path / ".postgates" / "scorecards" / "2026-01-01-good-overall.json").is_file()
    assert [(r["post"], r["overall"]) for r in json_documents(good.stdout.str())] == [
        (GOOD, "PASS")
    ]
    bad = pytester.run(sys.executable, "-m", "pytest_postgates", "run", "--all", GOOD, BAD)
    assert bad.ret == 1
    assert [(r["post"], r["overall"]) for r in json_documents(bad.stdout.str())] == [
        (GOOD, "PASS"),
        (BAD, "FAIL"),
    ]
    bad.stderr.fnmatch_lines([f"{BAD}:6: NO_ENTITY *"])


def test_explain_prints_the_rule_that_decided_a_token(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(pytester.path)
    blog.raw("src/app.py", b"class Renderer:\n    def render(self) -> None: ...\n")
    body = "This post shows how pytest calls `Renderer.render` and `Renderer.paint` in Python.\n"
    blog.post("2026-01-01-good.md", body)
    blog.git_init()
    capsys.readouterr()
    assert cli.main(["explain", GOOD, "Renderer"]) == 0
    out = capsys.readouterr().out
    assert "`Renderer.render` is grounded (rule model-found)" in out
    assert "found in: src/app.py" in out
    assert "`Renderer.paint` is ungrounded (rule model-rooted-miss)" in out
    assert "the rule decides ungrounded" in out
    assert cli.main(["explain", GOOD, "noSuchTokenAnywhere"]) == 2
    assert "no token holding" in capsys.readouterr().err


def test_explain_runs_without_the_projects_own_pytest_setup(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A project whose own pytest setup needs what this environment lacks (httpx's warning
    filter naming trio, a conftest.py importing it): explain gates the post all the same,
    as the pre-commit hook does, under the project's postgates settings."""
    monkeypatch.chdir(pytester.path)
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no_such_plugin_here")
    blog.raw(
        "pyproject.toml",
        b"[tool.pytest.ini_options]\n"
        b'filterwarnings = ["error", "ignore:x:no_such_module_here.SomeWarning"]\n'
        b"[tool.postgates]\nsymbol_unanchored_claims = true\n",
    )
    blog.raw("conftest.py", b"import no_such_module_here\n")
    blog.raw("src/app.py", b"class Renderer:\n    def render(self) -> None: ...\n")
    blog.post("2026-01-01-good.md", "This post shows how pytest calls `Renderer.paint`.\n")
    blog.git_init()
    capsys.readouterr()
    assert cli.main(["explain", GOOD, "Renderer"]) == 0
    assert "`Renderer.paint` is ungrounded" in capsys.readouterr().out


def test_explain_says_when_gate_2_could_not_run(
    pytester: pytest.Pytester,
    blog: Blog,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A gate that errored judged no token: explain says why, not "no token holding"."""
    monkeypatch.chdir(pytester.path)
    blog.post("2026-01-01-good.md", "This post shows how pytest calls `Renderer.render`.\n")
    blog.git_init()
    capsys.readouterr()
    assert cli.main(["explain", GOOD, "Renderer", "--", "--postgates-ref=no-such-ref"]) == 2
    err = capsys.readouterr().err
    assert "gate 2 could not run" in err
    assert "no-such-ref" in err
    assert "no token holding" not in err


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    """`postgates --help` names the commands dispatched to their own parsers too (they
    were missing from --help and from the generated CLI reference)."""
    from pytest_postgates import cli

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    shown = capsys.readouterr().out
    for command in ("run", "merge", "hook", "summary", "action", "explain"):
        assert f"    {command} " in shown, command
