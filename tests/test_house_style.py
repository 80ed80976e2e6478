"""House style (helpers/house_style.py) through the plugin: a blog that sets none of the
seeds' house-style keys gets gate 1's body-line floor and gate 6's sentence limit as advice
on the card, never a failure; the same blog with the keys set fails on them (issue 27)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

NINE_SENTENCES = " ".join(f"Sentence number {n} is short." for n in range(1, 10))


def test_a_blog_without_house_style_settings_gets_advice_not_failures(blog: Blog) -> None:
    blog.post("2026-01-01-short.md", body=blog.GOOD + "\n" + NINE_SENTENCES + "\n")
    run = ("--postgates-only=1,6", "--postgates-offline", "_posts")

    result = blog.pytester.runpytest(*run)
    result.assert_outcomes(passed=2)
    floor = blog.card("2026-01-01-short-gate1-blog_quality.json")
    assert floor["verdict"] == "PASS" and floor["detail"]["by_code"] == {}
    (short,) = floor["detail"]["house_style"]["body_line_floor"]["findings"]
    assert short["code"] == "BODY_TOO_SHORT" and "under the floor of 200" in short["message"]
    sentences = blog.card("2026-01-01-short-gate6-readability_links.json")
    assert sentences["verdict"] == "PASS"
    advice = sentences["detail"]["house_style"]["max_paragraph_sentences"]
    assert [f["code"] for f in advice["findings"]] == ["LONG_PARAGRAPH"]
    assert "`max_paragraph_sentences`" in advice["reason"]

    # The blog adopts both: the same post fails both gates on them.
    blog.pyproject("body_line_floor = 200\nmax_paragraph_sentences = 8\n")
    result = blog.pytester.runpytest(*run)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*BODY_TOO_SHORT*", "*LONG_PARAGRAPH*"])
    adopted = blog.card("2026-01-01-short-gate6-readability_links.json")
    assert list(adopted["detail"]["house_style"]) == ["flesch_floor"]  # not adopted


@pytest.mark.parametrize("key", ["flesch_floor", "post_flesch_floor", "max_hard_prose_share"])
def test_one_flesch_key_adopts_the_flesch_verdict(blog: Blog, key: str) -> None:
    blog.post("2026-01-01-short.md")
    blog.pyproject(f"{key} = 0.5\n")
    result = blog.pytester.runpytest("--postgates-only=6", "--postgates-offline", "_posts")
    result.assert_outcomes(passed=1)
    card = blog.card("2026-01-01-short-gate6-readability_links.json")
    assert list(card["detail"]["house_style"]) == ["max_paragraph_sentences"]


def test_a_front_matter_date_that_differs_from_the_file_name_is_advice_until_adopted(
    blog: Blog,
) -> None:
    """Jekyll builds a post whose front matter date differs from its file name's (the front
    matter date dates and links it): a blog that never adopted the agreement gets it as
    advice; one that sets ``enforce_date_matches_file_name`` fails the post on it."""
    front = {"layout": "post", "title": "A post", "date": "2026-01-02"}
    blog.post("2026-01-01-moved.md", front=front)
    run = ("--postgates-only=1", "--postgates-offline", "-o", "postgates_body_line_floor=1")

    result = blog.pytester.runpytest(*run, "_posts")
    result.assert_outcomes(passed=1)
    card = blog.card("2026-01-01-moved-gate1-blog_quality.json")
    assert card["verdict"] == "PASS" and card["detail"]["by_code"] == {}
    advice = card["detail"]["house_style"]["enforce_date_matches_file_name"]
    (finding,) = advice["findings"]
    assert finding["code"] == "FRONT_MATTER_DATE"
    assert "2026-01-02 does not match the file name's 2026-01-01" in finding["message"]
    assert "`enforce_date_matches_file_name = true`" in advice["reason"]
    assert card["detail"]["front_matter"]["date_matches_filename"] is False

    blog.pyproject("enforce_date_matches_file_name = true\n")
    result = blog.pytester.runpytest(*run, "_posts")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*FRONT_MATTER_DATE*does not match the file name*"])

    # A date that does not parse is never house style: it fails unadopted too.
    blog.pyproject("")
    blog.post("2026-01-01-moved.md", front={**front, "date": "next tuesday"})
    result = blog.pytester.runpytest(*run, "_posts")
    result.assert_outcomes(failed=1)
