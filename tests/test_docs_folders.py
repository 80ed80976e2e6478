"""Docs folders (issue 13): Markdown files without front matter are posts with an empty
front matter. Gate 1 reports NO_FRONT_MATTER only where front matter is required; every
other gate judges the body; malformed front matter is still an ERROR."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog


def test_docs_folder_without_front_matter_runs_every_gate_on_the_body(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\n')
    blog.raw("docs/guide.md", ("# Guide\n\n" + blog.GOOD).encode())
    blog.raw("docs/claims.md", ("# Claims\n\n" + blog.CLAIMS).encode())
    result = pytester.runpytest("docs", "--postgates-only=1,11,13", "-rA")
    # guide: 1, 11 and 13 pass; claims: 1 and 11 pass, 13 (advisory) fails as xfailed.
    result.assert_outcomes(passed=2 + 2, xpassed=1, xfailed=1)
    result.stdout.no_fnmatch_line("*ERROR*")
    card = blog.card("guide-gate1-blog_quality.json")
    assert card["verdict"] == "PASS"
    assert card["detail"]["front_matter"]["front_matter_required"] is False


def test_posts_folder_without_front_matter_fails_gate_1_not_errors(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.raw("_posts/2026-01-01-bare.md", blog.GOOD.encode())
    result = pytester.runpytest("--postgates-only=1,11", "--postgates-all", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_posts/2026-01-01-bare.md:1: NO_FRONT_MATTER no front matter*"])
    assert blog.card("2026-01-01-bare-gate11-narrative_opening.json")["verdict"] == "PASS"


def test_require_front_matter_setting_applies_to_docs_folders(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\nrequire_front_matter = true\n')
    blog.raw("docs/guide.md", blog.GOOD.encode())
    result = pytester.runpytest("docs", "--postgates-only=1", "-rA")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*NO_FRONT_MATTER*"])


def test_malformed_front_matter_in_a_docs_folder_is_still_an_error(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    blog.pyproject('paths = ["docs"]\n')
    blog.raw("docs/broken.md", b"---\ntitle: [unclosed\n---\n" + blog.GOOD.encode())
    result = pytester.runpytest("docs", "--postgates-only=1,11", "--postgates-all")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*FRONT_MATTER_YAML front matter is not valid YAML*"])
