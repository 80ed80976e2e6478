"""Gate 7, numerical_claims: every number with a unit in prose is cited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.changelog import records_releases
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
        "The last line says `waited\n0.40 s` and ends.",  # a code span wrapping lines, too
        "- As in\n  `postgates: look-ahead: the main process waited\n  0.40 s`).",  # in a list
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


# ====================================================== what is not a claim (issue 10)
RULE_FILES = {
    "CHANGELOG.md": "# Changelog\n\n## 1.0.0\n\n- First release.\n",
    "src/poller.ts": (
        "// Polls a remote job until it finishes.\n"
        "export const POLL_INTERVAL_MS = 3_000;\n"
        "export const POLL_BUDGET_MS = 300_000;\n"
        "export function pollUntilDone() {}\n"
    ),
    "src/memory/limits.ts": "const MAX_RETRIEVAL_LIMIT = 200_000;\nconst OTHER = 7;\n",
    "src/big.ts": "".join(f"export const line{n} = {n};\n" for n in range(12)),
    "dist/bundle.js": "const BUNDLED_WAIT_MS = 9000;\n",
    "docs/models.md": "| Model | Context |\n|---|---|\n| `acme-large-2` | 131K |\n",
    "docs/limits.md": "The free plan allows 40 requests per minute for every key.\n",
    "src/music/ChimeMusic.ts": (
        "export class ChimeMusic {}\n"
        + "".join(f"// filler line {n}\n" for n in range(20))
        + "const CHIME_POLL_MS = 4_000;\n"
    ),
}


@pytest.fixture(scope="module")
def code_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("rules"), RULE_FILES, message="Initial import")


def _judged(body: str, tmp_path: Path, repo: Path) -> tuple[Scorecard, dict[str, Any]]:
    """The card and, per number, its outcome: the exempt rule, "cited:<by>" or "uncited"."""
    card = _check(body, tmp_path, repo)
    outcome: dict[str, Any] = {}
    for claim in card.detail["claims"]:
        by = claim["cited_by"]
        outcome[claim["number"]] = f"cited:{by}" if by else "uncited"
    for item in card.detail["exempt"]:
        outcome[item["number"]] = item["rule"]
    return card, outcome


def test_a_constant_next_to_the_named_symbol_cites(tmp_path: Path, code_repo: Path) -> None:
    card, outcome = _judged(
        "`pollUntilDone()` asks for the status every 3 seconds (`POLL_INTERVAL_MS`) within "
        "a 5-minute budget.\n",
        tmp_path,
        code_repo,
    )
    assert outcome["3"].startswith("cited:repository: src/poller.ts:2 (near `")
    assert "3_000 in milliseconds" in outcome["3"]
    # 5 minutes = 300_000 ms stands next to POLL_INTERVAL_MS, keyed POLL_BUDGET_MS: the key
    # shares "poll" with the symbol's line only on the symbol's own line, so it needs the
    # sentence's words: "budget" is one.
    assert outcome["5"].startswith("cited:repository: src/poller.ts:3")
    assert card.verdict == "PASS"


def test_a_value_the_named_symbol_does_not_hold_is_uncited(tmp_path: Path, code_repo: Path) -> None:
    card, outcome = _judged(
        "`POLL_INTERVAL_MS` makes the poller wait 4 seconds between requests.\n",
        tmp_path,
        code_repo,
    )
    assert outcome == {"4": "uncited"} and card.verdict == "FAIL"


def test_a_constant_the_sentence_names_in_words_cites(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged(
        "Each retrieval has a hard limit of 200,000 characters.\n", tmp_path, code_repo
    )
    assert outcome["200000"].startswith("cited:repository: src/memory/limits.ts:1")
    # The same value under a name the sentence does not spell out is not cited by it.
    _, other = _judged("An upload is capped at 200,000 characters.\n", tmp_path, code_repo)
    assert other == {"200000": "uncited"}


def test_lines_of_a_named_file_are_counted_at_the_ref(tmp_path: Path, code_repo: Path) -> None:
    _, right = _judged("The module `src/big.ts` is 12 lines long.\n", tmp_path, code_repo)
    assert right["12"] == "cited:repository: src/big.ts (12 lines at the ref)"
    _, wrong = _judged("The module `src/big.ts` is 40 lines long.\n", tmp_path, code_repo)
    assert wrong == {"40": "uncited"}


def test_generated_files_are_not_searched(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged("`BUNDLED_WAIT_MS` waits 9 seconds.\n", tmp_path, code_repo)
    assert outcome == {"9": "uncited"}


def test_a_documented_model_context_cites(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged("`acme-large-2` reads a 131K context.\n", tmp_path, code_repo)
    assert outcome["131"].startswith("cited:repository: docs/models.md:3 (near `acme-large-2`")


SAMPLE = "```ts\nconst client = createClient({ timeout: 30000, retries: 3 });\n```\n\n"


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        ("The client gives up after a 30 s timeout.", "post-sample-config"),
        ("The client gives up after a 30-second timeout.", "post-sample-config"),
        ("The client gives up after a 45 s timeout.", "uncited"),  # not the sample's value
        ("Each request waits 30 s for a reply.", "uncited"),  # no shared word with the key
    ],
)
def test_values_of_the_posts_own_sample_configuration(
    prose: str, expected: str, tmp_path: Path, code_repo: Path
) -> None:
    card, outcome = _judged(SAMPLE + prose + "\n", tmp_path, code_repo)
    assert list(outcome.values()) == [expected]
    if expected != "uncited":
        (item,) = card.detail["exempt"]
        assert "30000 (in milliseconds) in the post's own code at line 7" in item["reason"]


def test_diagrams_and_comments_are_not_sample_configuration(
    tmp_path: Path, code_repo: Path
) -> None:
    body = (
        '```mermaid\nflowchart LR\n  A["timeout: 30000"] --> B\n```\n\n'
        "```ts\n// the timeout is 30 s\nrun();\n```\n\n"
        "The client gives up after a 30 s timeout.\n"
    )
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"30": "uncited"}


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        (
            "With 4 workers at 250 ms each, the batch takes 1 s.",
            {"250": "post-arithmetic-input", "1": "post-arithmetic"},
        ),
        (
            "A queue of 1,000 jobs at 2 seconds per job needs about 33 minutes.",
            {"2": "post-arithmetic-input", "33": "post-arithmetic"},
        ),
        (
            "Each call waits 30 seconds. Five calls in a row add up to 150 seconds.",
            {"30": "uncited", "150": "post-arithmetic"},  # no premise cue before 30 s
        ),
        (
            "With 3 of 4 calls failing, the failure rate is 75%.",
            {"75": "post-arithmetic"},
        ),
        # Measured: the result of a change is a claim, and so are its inputs.
        (
            "The new cache cut latency from 400 ms to 100 ms, a 75% reduction.",
            {"400": "uncited", "100": "uncited", "75": "uncited"},
        ),
        # Not arithmetic: 7 is no combination of the other numbers.
        ("With 4 workers at 250 ms each, the batch takes 7 s.", {"250": "uncited", "7": "uncited"}),
    ],
)
def test_arithmetic_on_the_posts_own_inputs(
    prose: str, expected: dict[str, str], tmp_path: Path, code_repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, code_repo)
    assert outcome == expected


def test_arithmetic_reasons_name_the_formula(tmp_path: Path, code_repo: Path) -> None:
    card, _ = _judged("With 4 workers at 250 ms each, the batch takes 1 s.\n", tmp_path, code_repo)
    reasons = {item["number"]: item["reason"] for item in card.detail["exempt"]}
    assert reasons["1"] == "= 4 \u00d7 250 ms, from the sentence's numbers"
    assert reasons["250"] == "a premise of the sentence's own calculation (4 \u00d7 250 ms)"


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        ("If a call takes 900ms, the breaker opens.", {"900": "hypothetical"}),
        ("Suppose the queue holds 20 MB of events.", {"20": "hypothetical"}),
        ("Assuming a 2 s round trip, retries are cheap.", {"2": "hypothetical"}),
        ("A large result, say, a 50KB file, must be chunked.", {"50": "hypothetical"}),
        ("A large result (a 50KB file, for example) must be chunked.", {"50": "hypothetical"}),
        (
            "If a model accepts 512 tokens, configure the chunker for 512 tokens.",
            {"512": "post-illustration"},
        ),
        # Outside the supposition's clause: a claim.
        ("If you enable it, the index answers in 12 ms.", {"12": "uncited"}),
        ("If you enable caching, it cuts latency by 40%.", {"40": "uncited"}),
        ("When the cache is warm, lookups take 3 ms.", {"3": "uncited"}),  # not a supposition
    ],
)
def test_hypothetical_conditionals(
    prose: str, expected: dict[str, str], tmp_path: Path, code_repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, code_repo)
    assert outcome == expected


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        ("Start with 5,000 tokens and tune from there.", "advice"),
        ("- **Canary:** route 5% of traffic to the new version.", "advice"),
        ("The default budget starts at 5,000 tokens.", "uncited"),  # a statement, not advice
    ],
)
def test_recommended_values(prose: str, expected: str, tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, code_repo)
    assert list(outcome.values()) == [expected]


@pytest.mark.parametrize(
    "prose",
    [
        "For example, the new index cut latency by 40%.",
        "If you upgrade, the p99 fell to 120 ms in our benchmark.",
        "With 4 workers the pipeline is 3x faster.",
        "Suppose you switch: retries dropped by 30% overnight.",
        "Start the pool and you save 200 ms per request.",
        "Say you turn it on; in production it shaved 45 ms off each call.",
    ],
)
def test_measured_sounding_claims_are_never_exempt(
    prose: str, tmp_path: Path, code_repo: Path
) -> None:
    """A cue elsewhere in the sentence (if, for example, with, say, start) never exempts
    a number that reports an effect or a measurement."""
    card, outcome = _judged(SAMPLE + prose + "\n", tmp_path, code_repo)
    assert set(outcome.values()) == {"uncited"}, outcome
    assert card.verdict == "FAIL"
    assert all("measured-sounding" in item.get("note", "") for item in card.detail["uncited"])


def test_a_measured_claim_matching_a_sample_value_still_fails(
    tmp_path: Path, code_repo: Path
) -> None:
    body = "```yaml\ntimeout: 40\n```\n\nThe timeout change cut latency by 40%.\n"
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"40": "uncited"}


def test_dimensions_and_expressions_are_not_amounts(tmp_path: Path, code_repo: Path) -> None:
    card, outcome = _judged(
        "Frames are 1280 x 720 pixels. Watch for N+1 queries.\n", tmp_path, code_repo
    )
    assert outcome == {"1280": "dimension", "1": "expression"}
    assert card.verdict == "PASS"
    assert card.summary.endswith("2 not claims (see exempt)")


def test_table_rows_are_not_sentences_for_arithmetic(tmp_path: Path, code_repo: Path) -> None:
    body = "| size | a | b | c |\n|---|---|---|---|\n| 1K | 5 ms | 3 ms | 2 ms |\n"
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"5": "uncited", "3": "uncited", "2": "uncited", "1": "uncited"}


def test_the_repositorys_text_states_it_in_the_same_words(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged("The free plan gives 40 requests per minute.\n", tmp_path, code_repo)
    assert outcome["40"] == "cited:repository: docs/limits.md states '40 requests per minute'"
    # Two words that are only the unit and a function word are not "the same words".
    _, other = _judged("It handles 40 requests for you.\n", tmp_path, code_repo)
    assert other == {"40": "uncited"}


def test_a_constant_in_the_file_of_a_named_class(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged(
        "`ChimeMusic.generate()` submits a job and polls it every 4 seconds.\n",
        tmp_path,
        code_repo,
    )
    assert outcome["4"].startswith("cited:repository: src/music/ChimeMusic.ts:22 (in the file")
    _, other = _judged(
        "`ChimeMusic.generate()` submits a job and waits 4 seconds.\n", tmp_path, code_repo
    )
    assert other == {"4": "uncited"}  # the constant's key shares no word with the sentence


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("- **Rollback:** error rate above 5%, latency over 2 seconds.\n", "threshold"),
        ("- **Too large** (over 2000 characters): chunks mix topics.\n", "threshold"),
        ("| metric | alert |\n|---|---|\n| errors | > 1% error rate |\n", "threshold"),
        # A measured cell of a table is not a threshold, bound or not.
        ("| step | overhead |\n|---|---|\n| router | < 0.1ms |\n", "uncited"),
        # A capability stated in a list item is a claim.
        ("- Handles over 10,000 requests per second.\n", "uncited"),
    ],
)
def test_thresholds_the_post_sets(
    body: str, expected: str, tmp_path: Path, code_repo: Path
) -> None:
    _, outcome = _judged(body, tmp_path, code_repo)
    assert expected in outcome.values() and len(set(outcome.values())) == 1, outcome


def test_headings_quotations_attributions_and_anecdotes(tmp_path: Path, code_repo: Path) -> None:
    body = (
        "## The 13-Minute Fix\n\n"
        'The assistant answers: "Field B is at 18% moisture, water it tomorrow."\n\n'
        "The gate's header comment in `opening-check.mjs` states the share: about 4% of posts.\n\n"
        "I opened the issue on a Monday. The reply came within 24 hours.\n"
    )
    card, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {
        "13": "heading",
        "18": "quotation",
        "4": "attributed",
        "24": "anecdote",
    }
    reasons = {item["number"]: item["reason"] for item in card.detail["exempt"]}
    assert "`opening-check.mjs`" in reasons["4"] and "unverified" in reasons["4"]


def test_measured_claims_in_a_quote_or_story_still_fail(tmp_path: Path, code_repo: Path) -> None:
    body = (
        'The release notes say "the cache is 3x faster now."\n\n'
        "I rebuilt the index and it cut query time by 40%.\n"
    )
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"3": "uncited", "40": "uncited"}


def test_a_footnote_that_links_a_source_cites(tmp_path: Path, code_repo: Path) -> None:
    filler = "A paragraph that talks about something else entirely, at some length.\n\n" * 4
    body = (
        "| task | saving |\n|---|---|\n| summaries | ~90% cheaper* |\n\n"
        + filler
        + "> **\\*Estimate:** from the [pricing page](https://example.com/pricing).\n"
    )
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"90": "cited:footnote: line 18"}
    _, unlinked = _judged(
        "| task | saving |\n|---|---|\n| summaries | ~90% cheaper* |\n\n> \\*An estimate.\n",
        tmp_path,
        code_repo,
    )
    assert unlinked == {"90": "uncited"}


def test_a_model_size_that_is_part_of_a_model_name(tmp_path: Path, code_repo: Path) -> None:
    body = "We ran TinyChat-270M locally. The 270M model misses the schema.\n"
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"270": "identifier"}
    _, other = _judged("The 270M model misses the schema.\n", tmp_path, code_repo)
    assert other == {"270": "uncited"}


def test_a_supposition_lists_its_premises(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged(
        "If 80% of jobs pass first time, 15% need a retry, and 5% fail, the queue stays short.\n",
        tmp_path,
        code_repo,
    )
    assert outcome == {"80": "hypothetical", "15": "hypothetical", "5": "hypothetical"}


def test_a_code_span_links_the_sentence_to_the_sample(tmp_path: Path, code_repo: Path) -> None:
    body = (
        "```ts\nconst limiter = new RateLimiter(10, 60000);\n```\n\n"
        "The `RateLimiter` keeps callers under 10 queries per minute.\n"
    )
    card, outcome = _judged(body, tmp_path, code_repo)
    assert outcome == {"10": "post-sample-config"}
    assert "shared words: limiter, rate" in card.detail["exempt"][0]["reason"]


def test_rows_of_the_posts_own_estimate_table(tmp_path: Path, code_repo: Path) -> None:
    estimate = "| report | runs | Est. tokens |\n|---|---|---|\n| daily | 30x | 5K |\n"
    _, outcome = _judged(estimate, tmp_path, code_repo)
    assert set(outcome.values()) == {"estimate"}
    measured = "| report | runs | tokens |\n|---|---|---|\n| daily | 30x | 5K |\n"
    _, other = _judged(measured, tmp_path, code_repo)
    assert set(other.values()) == {"uncited"}


def test_an_example_given_right_before_the_number(tmp_path: Path, code_repo: Path) -> None:
    _, outcome = _judged(
        "Some embedders have a strict limit (like 512 tokens) on each input.\n",
        tmp_path,
        code_repo,
    )
    assert outcome == {"512": "hypothetical"}
    _, other = _judged("The embedder looks like it stops at 512 tokens.\n", tmp_path, code_repo)
    assert other == {"512": "uncited"}


def test_diffstats_of_a_commit_the_post_names(tmp_path: Path, code_repo: Path) -> None:
    from tests.helpers import git

    sha = git(code_repo, "rev-parse", "HEAD").strip()[:9]
    body = (
        f"Commit `{sha}` touched {len(RULE_FILES)} files; it adds `src/memory/limits.ts` in "
        "2 lines.\n\nThe same commit changes 40 files.\n"
    )
    _, outcome = _judged(body, tmp_path, code_repo)
    assert outcome[str(len(RULE_FILES))] == (
        f"cited:repository: commit {sha} changes {len(RULE_FILES)} files"
    )
    assert (
        outcome["2"]
        == f"cited:repository: commit {sha} changes src/memory/limits.ts by +2/-0 lines"
    )
    assert outcome["40"] == "uncited"


def test_on_a_docs_page_only_measured_figures_need_a_source(tmp_path: Path) -> None:
    """A docs site's page states the product's own defaults and limits (issue 27: vitest's
    "a 5-second timeout", "files with 100% coverage" failed the gate): rule ``reference``.
    A measured figure still needs a source there, a blog post keeps every rule, and the
    setting makes every number a claim again."""
    site = make_repo(tmp_path / "site", {"mkdocs.yml": "site_name: x\n", "src/a.py": "X = 1\n"})
    (site / "docs").mkdir()
    body = (
        "Each test has a 5-second timeout unless you set another.\n\n"
        "This option hides files with 100% coverage from the report.\n\n"
        "The runner is 3x faster than the old one in our benchmark.\n"
    )
    page = make_post(body, site / "docs", name="config.md", front="")
    card = gate.GATE.evaluate(page, repo_context(site, tmp_path / "cache"))
    assert [(c["number"], c["unit"]) for c in card.detail["uncited"]] == [("3", "x")]
    assert [(e["number"], e["rule"]) for e in card.detail["exempt"]] == [
        ("5", "reference"),
        ("100", "reference"),
    ]
    forced = gate.GATE.evaluate(
        page, repo_context(site, tmp_path / "cache2", unmeasured_numbers_are_claims=True)
    )
    assert [c["number"] for c in forced.detail["uncited"]] == ["5", "100", "3"]
    blog_root = make_repo(tmp_path / "blog", {"_config.yml": "title: x\n", "src/a.py": "X = 1\n"})
    (blog_root / "_posts").mkdir()
    post = make_post(body, blog_root / "_posts", name="2026-06-03-a.md")
    blog = gate.GATE.evaluate(post, repo_context(blog_root, tmp_path / "cache3"))
    assert [c["number"] for c in blog.detail["uncited"]] == ["5", "100", "3"]


def test_a_repository_without_a_product_lists_uncited_numbers_as_advice(tmp_path: Path) -> None:
    """An essay blog (issue 27: karpathy.github.io failed 9 of 23 posts on the author's own
    measurements, worked examples and a short story): a repository that declares no product
    and keeps no CHANGELOG, for a post naming no evidence files, has nothing to hold a
    number against. Its uncited numbers are advice with the reason, never a failure; a
    package name, a CHANGELOG, evidence files or the setting make them findings again."""
    body = "Home scales overstate body fat by 60% on average.\n"
    blog = make_repo(tmp_path / "blog", {"_config.yml": "title: x\n", "_posts/.keep": ""})
    post = make_post(body, blog / "_posts", name="2026-06-03-a.md")
    card = gate.GATE.evaluate(post, repo_context(blog, tmp_path / "c1"))
    assert card.verdict == "PASS" and card.findings == []
    assert [c["number"] for c in card.detail["uncited"]] == ["60"]
    advice = card.detail["house_style"]["numbers_need_sources"]
    assert [f["code"] for f in advice["findings"]] == ["UNCITED_NUMBER"]
    assert "declares no product" in advice["reason"] and "`numbers_need_sources" in advice["reason"]
    assert "1 UNCITED_NUMBER" in card.summary
    forced = gate.GATE.evaluate(
        post, repo_context(blog, tmp_path / "c2", numbers_need_sources=True)
    )
    assert [f.code for f in forced.findings] == ["UNCITED_NUMBER"]
    assert "house_style" not in forced.detail
    front = "---\nlayout: post\ntitle: T\ndate: 2026-06-03\nanchor_paths: [_config.yml]\n---\n"
    anchored = make_post(body, blog / "_posts", name="2026-06-03-b.md", front=front)
    assert gate.GATE.evaluate(anchored, repo_context(blog, tmp_path / "c3")).verdict == "FAIL"
    for name, text in (("package.json", '{"name": "acme"}'), ("CHANGELOG.md", "# Changelog\n")):
        product = make_repo(tmp_path / name, {"_posts/.keep": "", name: text})
        post = make_post(body, product / "_posts", name="2026-06-03-a.md")
        card = gate.GATE.evaluate(post, repo_context(product, tmp_path / f"cache-{name}"))
        assert [f.code for f in card.findings] == ["UNCITED_NUMBER"], name


def test_a_sites_news_page_is_not_a_changelog(tmp_path: Path) -> None:
    """A Jekyll blog's ``news.md`` is a page of announcements, not a record of releases
    (issue 27: ljvmiranda921.github.io's news page made its essays a product's, and the
    author's own measurements failed as uncited). A NEWS file that records releases, and a
    file named CHANGELOG, still make a product's repository."""
    body = "Our method recalls 85.5% of the spans.\n"
    news_page = (
        "---\nlayout: null\ntitle: News\ndate: 2026-08-01\n---\n\n"
        '<div class="news-item">\n<p>**Aug 2026**: my paper on v2 data was accepted.</p>\n'
        "</div>\n\n* Jun 2026: I gave a talk at 2026-06-01's workshop.\n"
    )
    blog = make_repo(tmp_path / "blog", {"_config.yml": "title: x\n", "news.md": news_page})
    (blog / "_posts").mkdir()
    post = make_post(body, blog / "_posts", name="2026-06-03-a.md")
    card = gate.GATE.evaluate(post, repo_context(blog, tmp_path / "c1"))
    assert card.verdict == "PASS" and card.findings == []
    assert "keeps no CHANGELOG" in card.detail["house_style"]["numbers_need_sources"]["reason"]
    for name, text in (
        ("NEWS.md", "# acme 1.2.0\n\n* Faster parsing.\n"),
        ("NEWS", "* Noteworthy changes in release 1.2 (2024-01-05) [stable]\n"),
        ("HISTORY.rst", "History\n=======\n\n0.3.0 (2024-01-05)\n------------------\n"),
        ("CHANGELOG.md", "# Changelog\n"),
    ):
        product = make_repo(tmp_path / name, {"_config.yml": "title: x\n", name: text})
        (product / "_posts").mkdir()
        post = make_post(body, product / "_posts", name="2026-06-03-a.md")
        card = gate.GATE.evaluate(post, repo_context(product, tmp_path / f"cache-{name}"))
        assert [f.code for f in card.findings] == ["UNCITED_NUMBER"], name


@pytest.mark.parametrize(
    ("text", "releases"),
    [
        ("## [1.2.0] - 2024-01-05\n", True),
        ("## 2024-01-05\n\n- fixed\n", True),
        ("v2.0\n----\n", True),
        ("Version 1.2 brings speed.\n", True),
        ("Release notes\n\n1.0.3 (2023)\n", True),
        ("acme 3.1\n=======\n", True),
        ("---\ntitle: News\ndate: 2024-01-05\n---\n\nI gave a talk.\n", False),
        ("* Jun 2026: a talk on v2.0 of our tool\n", False),
        ("## Talks\n\nAt 2024-01-05 I spoke about 1.5x speedups.\n", False),
    ],
)
def test_what_records_releases(text: str, releases: bool) -> None:
    assert records_releases(text) is releases
