"""Snapshot baselines (--postgates-snapshot): syrupy pins each gate's scorecard."""

from __future__ import annotations

import json

import pytest

from tests.helpers import GATE11_ADOPTED

FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
CLEAN = "We run pytest over Python posts.\n"
BROCHURE = "Our plugin is a paradigm shift for teams.\n"  # gate 11 FAIL (no entity, phrase)


@pytest.fixture
def blog(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:cacheprovider -p no:hypothesispytest "
        "--postgates-only=11,13 "
        "--postgates-snapshot",
    )
    posts = pytester.path / "_posts"
    posts.mkdir()
    (posts / "2026-01-01-clean.md").write_text(FRONT + CLEAN)
    (posts / "2026-01-01-brochure.md").write_text(FRONT + BROCHURE)
    return pytester


def test_known_failures_are_pinned_and_then_pass(blog: pytest.Pytester) -> None:
    blog.runpytest("--snapshot-update").assert_outcomes(passed=4)
    pinned = blog.path / "_posts" / "__snapshots__" / "2026-01-01-brochure"
    assert json.loads((pinned / "narrative_opening.json").read_text())["verdict"] == "FAIL"
    # Gate 13 costs nothing, so it runs after gate 11 failed and its own verdict is pinned.
    assert json.loads((pinned / "call_graph_claims.json").read_text())["verdict"] == "PASS"
    blog.runpytest().assert_outcomes(passed=4)


def test_a_change_in_findings_fails_with_a_readable_diff(blog: pytest.Pytester) -> None:
    blog.runpytest("--snapshot-update")
    post = blog.path / "_posts" / "2026-01-01-brochure.md"
    post.write_text(FRONT + "Our plugin is a paradigm shift and a game-changer for teams.\n")
    result = blog.runpytest()
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*narrative_opening (gate 11) scorecard differs from the pinned snapshot*",
            '*-     "banned_phrase_count": 1,',
            '*+     "banned_phrase_count": 2,',
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_works_under_xdist_and_reports_unused_snapshots(blog: pytest.Pytester) -> None:
    blog.runpytest("--snapshot-update")
    result = blog.runpytest_subprocess("-n", "2")
    result.assert_outcomes(passed=4)
    (blog.path / "_posts" / "2026-01-01-clean.md").unlink()
    result = blog.runpytest()
    result.stdout.fnmatch_lines(["*snapshot*unused*"])


def test_a_pinned_pass_that_starts_failing_fails(blog: pytest.Pytester) -> None:
    blog.runpytest("--snapshot-update")
    (blog.path / "_posts" / "2026-01-01-clean.md").write_text(FRONT + "Now it is cutting-edge.\n")
    result = blog.runpytest()
    # Gate 11 now fails; gate 13 still runs (free gates are never short-circuited) and
    # still matches its pinned PASS.
    result.assert_outcomes(passed=3, failed=1)
