"""Gate 7, numerical_claims: every number with a unit in prose is cited."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import numerical_claims as gate
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from tests.helpers import FRONT_MATTER, make_post, make_repo, repo_context

FILES = {
    "CHANGELOG.md": (
        "# Changelog\n\n## 2.0.0\n\n- Retries now back off for 250ms.\n- Cache is 3x faster.\n"
    ),
    "src/compaction.ts": "export const pruneProtectTokens = 40_000;\nconst timeoutMs = 1500;\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("nums"), FILES, message="Cut the p99 to 120 ms")


def _check(body: str, tmp_path: Path, repo: Path, front: str = FRONT_MATTER) -> Scorecard:
    return gate.GATE.evaluate(
        make_post(body, tmp_path, front=front), repo_context(repo, tmp_path / "cache")
    )


@pytest.mark.parametrize(
    ("text", "number", "unit"),
    [
        ("It takes 200ms.", "200", "ms"),
        ("It takes 200 ms.", "200", "ms"),
        ("About 1.5 seconds.", "1.5", "s"),
        ("Within 5 minutes", "5", "min"),
        ("A 40,000-token budget", "40000", "tokens"),
        ("Uses 512 MB of memory", "512", "MB"),
        ("Saves 50% of calls", "50", "%"),
        ("It is 10x faster", "10", "x"),
        ("It is 10\u00d7 faster", "10", "x"),
        ("It is 3 times faster", "3", "x"),
        ("An 8K tokens window", "8", "K"),
        ("Serves 1,200 req/s", "1200", "req/s"),
        ("Handles 300 QPS", "300", "req/s"),
        ("Touched 12 files", "12", "files"),
        ("Added 250 lines", "250", "lines"),
        ("Cut 2 hours", "2", "h"),
        ("Waits 200 s between tries", "200", "s"),
    ],
)
def test_numbers_with_units_are_claims(
    text: str, number: str, unit: str, tmp_path: Path, repo: Path
) -> None:
    card = _check(text + "\n", tmp_path, repo)
    assert [(c["number"], c["unit"]) for c in card.detail["claims"]] == [(number, unit)]


@pytest.mark.parametrize(
    "text",
    [
        "Released in 2026 with version 1.2.3.",  # no unit
        "Run `sleep 200ms` in a shell.",  # inline code is exempt
        "See https://example.com/50%-off and 0x1F.",  # URL, hex
        "The 1990s were different.",  # a decade, not seconds
        "It returned 402s or 404s.",  # HTTP responses, not seconds
        "OAuth 2.0 Token exchange.",  # a name, not 2 tokens
        "A 2x2 grid.",  # not a multiplier
        "The minimum is fine; 5 minimal cases.",  # not minutes
    ],
)
def test_non_claims(text: str, tmp_path: Path, repo: Path) -> None:
    assert _check(text + "\n", tmp_path, repo).detail["claims"] == []


def test_numbers_in_fenced_code_are_exempt(tmp_path: Path, repo: Path) -> None:
    card = _check("```python\ntime.sleep(5)  # 5 seconds, 429 status\n```\n", tmp_path, repo)
    assert card.detail["claims"] == [] and card.verdict == "PASS"


def test_a_link_within_200_characters_cites(tmp_path: Path, repo: Path) -> None:
    near = "Latency fell to 87ms in [the benchmark](https://example.com/bench).\n"
    far = "Latency fell to 87ms. " + "Filler words here. " * 15 + "[A link](https://example.com).\n"
    assert _check(near, tmp_path, repo).verdict == "PASS"
    card = _check(far, tmp_path, repo)
    assert card.verdict == "FAIL"
    assert card.detail["uncited"][0]["number"] == "87"
    assert card.findings[0].line == 6 and card.findings[0].code == "UNCITED_NUMBER"


def test_evidence_cites_changelog_commit_messages_and_anchor_files(
    tmp_path: Path, repo: Path
) -> None:
    body = (
        "Retries back off for 250 ms.\n"  # CHANGELOG
        "The cache is 3x faster.\n"  # CHANGELOG, small number with its unit
        "The p99 is now 120ms.\n"  # commit message
        "Compaction protects 40,000 tokens and times out after 1.5 seconds.\n"  # anchor: 40_000
    )
    front = FRONT_MATTER.replace(
        "layout: post", "layout: post\nanchor_paths:\n  - src/compaction.ts"
    )
    card = _check(body, tmp_path, repo, front=front)
    cited = {c["number"]: c["cited_by"] for c in card.detail["claims"]}
    assert cited == {
        "250": "CHANGELOG.md",
        "3": "CHANGELOG.md",
        "120": "commit messages",
        "40000": "src/compaction.ts",
        "1.5": None,
    }
    assert card.verdict == "FAIL"  # 1.5 seconds is nowhere (1500 is, but not as 1.5 s)


def test_small_numbers_need_their_unit_in_evidence(tmp_path: Path, repo: Path) -> None:
    # "3" occurs in the CHANGELOG only as "3x": it does not cite "3 seconds".
    assert _check("It waits 3 seconds.\n", tmp_path, repo).verdict == "FAIL"


def test_missing_anchor_file_is_reported(tmp_path: Path, repo: Path) -> None:
    front = FRONT_MATTER.replace("layout: post", "layout: post\nevidence: src/missing.ts")
    card = _check("It takes 250ms.\n", tmp_path, repo, front=front)
    assert card.detail["missing_evidence"] == ["src/missing.ts"]


def test_separators_are_normalised() -> None:
    assert gate.normalise_number("40_000") == gate.normalise_number("40,000") == "40000"
    assert gate.normalise_number("1,234,567") == "1234567"
    assert gate.normalise_number("1,23") == "1,23"


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet="0123456789 ,._%xms KMBtokensQPS[]()`-\n", max_size=200))
def test_claim_finding_never_raises(tmp_path: Path, body: str) -> None:
    post = parse_post(tmp_path / "p.md", (FRONT_MATTER + body).encode())
    if post.fatal_problems:
        return
    for line, _offset, match, _prose in gate.find_claims(post):
        assert post.body_start_line <= line <= len(post.lines)
        assert match.group(1)[0].isdigit()


def test_evidence_needs_the_unit_and_ignores_hashes_and_urls() -> None:
    changelog = "Fixed in a420fd18 (https://x.example/420ms). Retries wait 250ms. 100+ models."
    assert not gate._evidence_contains("420", "ms", changelog, anchored=False)
    assert gate._evidence_contains("250", "ms", changelog, anchored=False)
    assert not gate._evidence_contains("100", "K", changelog, anchored=False)
    assert gate._evidence_contains("100", "K", "budget = 100", anchored=True)
