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
