"""Opt-in like pytest-mypy: posts are collected only when the run asks for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

UNIT_TEST = "def test_unit():\n    assert 1 + 1 == 2\n"


def postgates_lines(result: pytest.RunResult) -> list[str]:
    """The lines the plugin printed (the header's and its hints)."""
    return [line for line in result.outlines if line.startswith("postgates:")]


@pytest.fixture
def project(blog: Blog, monkeypatch: pytest.MonkeyPatch) -> Blog:
    """A project with its own unit tests and fixture posts under test/source/**/_posts,
    and no postgates configuration; inner runs do not pass --postgates."""
    monkeypatch.setenv("PYTEST_ADDOPTS", f"{blog.ONLY_PINNED} {blog.QUIET_INNER_RUNS}")
    blog.raw("test/test_unit.py", UNIT_TEST.encode())
    blog.post(folder="test/source/site/_posts")
    blog.raw("test/README.md", b"# Tests\n\nHow to run the tests.\n")
    return blog


def test_a_run_that_asks_for_nothing_is_untouched(project: Blog) -> None:
    result = project.pytester.runpytest("-v")
    result.assert_outcomes(passed=1)
    assert "_posts" not in result.stdout.str()
    assert postgates_lines(result) == []  # no header lines
    assert not (project.path / ".postgates").exists()  # no scorecards


def test_testpaths_are_not_named_paths(project: Blog) -> None:
    project.raw("pytest.ini", b"[pytest]\ntestpaths = test\n")
    result = project.pytester.runpytest("-v")
    result.assert_outcomes(passed=1)
    assert postgates_lines(result) == []


def test_the_flag_asks_for_posts(project: Blog) -> None:
    result = project.pytester.runpytest("--postgates", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["test/source/site/_posts/2026-01-01-good.md::narrative_opening"])


def test_a_tool_postgates_table_asks_for_posts(project: Blog) -> None:
    project.pyproject("offline = true\n")
    result = project.pytester.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["test/source/site/_posts/2026-01-01-good.md::narrative_opening"])


def test_a_postgates_ini_key_asks_for_posts(project: Blog) -> None:
    project.raw("tox.ini", b"[pytest]\npostgates_offline = true\n")
    result = project.pytester.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["test/source/site/_posts/2026-01-01-good.md::narrative_opening"])


def test_a_named_posts_folder_and_a_named_post_ask_for_posts(project: Blog) -> None:
    posts = "test/source/site/_posts"
    result = project.pytester.runpytest(posts, "--collect-only", "-q")
    result.stdout.fnmatch_lines([f"{posts}/2026-01-01-good.md::narrative_opening"])
    result = project.pytester.runpytest(f"{posts}/2026-01-01-good.md", "--collect-only", "-q")
    result.stdout.fnmatch_lines([f"{posts}/2026-01-01-good.md::narrative_opening"])


def test_a_named_test_folder_gates_no_fixture_post_and_says_what_to_set(project: Blog) -> None:
    """A folder holding tests and Markdown is not a folder of posts: its README and its
    fixture posts are left alone, and one line says what to set."""
    result = project.pytester.runpytest("test", "-v")
    result.assert_outcomes(passed=1)
    assert "_posts" not in result.stdout.str()
    hints = postgates_lines(result)
    assert len(hints) == 1
    assert "paths" in hints[0] and "--postgates" in hints[0]


def test_a_named_docs_folder_is_a_folder_of_posts(project: Blog) -> None:
    """``pytest docs/`` gates every Markdown file under docs/, recursively, with no
    ``paths`` setting."""
    project.post("index.md", folder="docs", front={"title": "Home"})
    project.post("setup.md", folder="docs/guide", front={"title": "Setup"})
    result = project.pytester.runpytest("docs", "--collect-only", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert sorted(ids) == [
        "docs/guide/setup.md::call_graph_claims",
        "docs/guide/setup.md::narrative_opening",
        "docs/index.md::call_graph_claims",
        "docs/index.md::narrative_opening",
    ]
    assert "README" not in result.stdout.str()


def test_xdist_workers_follow_the_controllers_activation(project: Blog) -> None:
    project.post("index.md", folder="docs", front={"title": "Home"})
    result = project.pytester.runpytest_subprocess("docs", "-n", "2", "-p", "xdist")
    result.assert_outcomes(passed=1, xpassed=1)
    inactive = project.pytester.runpytest_subprocess("-n", "2", "-p", "xdist")
    inactive.assert_outcomes(passed=1)


def test_a_run_without_activation_reads_no_setting(
    project: Blog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing of postgates runs in an unrelated session: not even a broken seeds'
    environment variable is read, while a run that asks for posts reports it."""
    monkeypatch.setenv("SYMBOL_GROUNDING_THRESHOLD", "many")
    project.pytester.runpytest().assert_outcomes(passed=1)
    asked = project.pytester.runpytest("--postgates")
    assert asked.ret == pytest.ExitCode.USAGE_ERROR
