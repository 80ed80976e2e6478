"""Scorecard names: the post -> scorecard-stem mapping is injective, collisions are found
after sanitising (and truncating), so one post's scorecards never overwrite another's."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import Blog

LONG = "2026-01-01-" + "x" * 200
# Pairs of file names that sanitise (or truncate) to the same scorecard stem.
COLLIDING = {
    "space-underscore": ("a b.md", "a_b.md"),
    "dots": ("..md", "_.md"),
    "hidden": (".hidden.md", "hidden.md"),
    "long": (LONG + "-one.md", LONG + "-two.md"),
    "non-ascii": ("café.md", "cafè.md"),
    "case": ("Post.md", "post.md"),  # one file on a case-insensitive file system
}


@pytest.mark.parametrize("case", sorted(COLLIDING))
def test_posts_whose_names_sanitise_alike_keep_their_own_scorecards(
    pytester: pytest.Pytester, blog: Blog, case: str
) -> None:
    failing, passing = COLLIDING[case]
    blog.post(failing, body=blog.NO_ENTITY)
    blog.post(passing, body=blog.GOOD)
    result = pytester.runpytest("_posts", "--postgates-only=11")
    result.assert_outcomes(passed=1, failed=1)
    folder = blog.path / ".postgates" / "scorecards"
    overall = [json.loads(p.read_text("utf-8")) for p in folder.glob("*-overall.json")]
    by_post = {card["post"]: card["overall"] for card in overall}
    assert by_post == {f"_posts/{failing}": "FAIL", f"_posts/{passing}": "PASS"}
    gate_files = sorted(folder.glob("*-gate11-narrative_opening.json"))
    assert len(gate_files) == 2
    names = {p.name.casefold() for p in folder.glob("*.json")}
    assert len(names) == 4  # case-insensitive file systems keep them apart too
    verdicts = sorted(json.loads(p.read_text("utf-8"))["verdict"] for p in gate_files)
    assert verdicts == ["FAIL", "PASS"]
