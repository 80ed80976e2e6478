"""Gate 7: the rules that clear the false classes of issue 10 (the post's own samples,
arithmetic and suppositions, the code's and the docs' own figures), each with its reason in
the scorecard, and the measured claims next to them that must stay flagged."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.commits import CommitStats
from pytest_postgates.gates import numerical_claims as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

FILES = {
    "CHANGELOG.md": "# Changelog\n\n## 1.0.0\n\n- First release.\n",
    "docs/voice.md": (
        "# Voice agents\n\nTurn detection loads the end-of-utterance model, which adds\n"
        "~230 MB per worker process once it starts.\n"
    ),
    "docs/status.md": "- **Memory usage**: <230MB for 100 active sessions\n",
    "src/rag/reranker.ts": "const prompt = `Text: ${text.slice(0, 300)}`;\n",
    "src/mcp/toolAnnotations.ts": (
        'if (description.length > 120) {\n  complexity = "medium";\n}\n'
    ),
    "src/misc/other.ts": "if (content.length > 120) {}\nconst s = body.slice(0, 300);\n",
    # Common words are common in a real repository: the rule weighs shared words by rarity.
    **{
        f"src/filler/module{n}.ts": "// memory usage for active users and sessions\n"
        for n in range(40)
    },
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("rules10"), FILES, message="Initial import")


def _judged(
    body: str, tmp_path: Path, repo: Path, title: str = "Test post"
) -> tuple[Scorecard, dict[str, Any]]:
    """The card and, per number as written, its outcome: the exempt rule, "cited:<by>" or
    "uncited" (the last decision for a number written twice)."""
    front = FRONT_MATTER.replace("title: Test post", f"title: {title}")
    card = gate.GATE.evaluate(
        make_post(body, tmp_path, front=front), repo_context(repo, tmp_path / "cache")
    )
    outcome: dict[str, Any] = {}
    for claim in card.detail["claims"]:
        by = claim["cited_by"]
        outcome[claim["number"]] = f"cited:{by}" if by else "uncited"
    for item in card.detail["exempt"]:
        outcome[item["number"]] = item["rule"]
    return card, outcome


def _reason(card: Scorecard, number: str) -> str:
    for item in card.detail["exempt"]:
        if item["number"] == number:
            return str(item["reason"])
    for item in card.detail["claims"]:
        if item["number"] == number:
            return str(item["cited_by"])
    raise AssertionError(number)


# ---------------------------------------------------------------- the post's own samples
@pytest.mark.parametrize(
    ("fence", "prose", "expected"),
    [
        # A "text" fence that reads as code is the post's sample.
        (
            "```text\nconst sampler = new RatioSampler(0.1);\n```",
            "The sketch applies a 10% fallback ratio to everything else.",
            "post-sample-config",
        ),
        # A text fence of console output is not.
        ("```text\nratio 0.1 done\n```", "It applies a 10% fallback ratio.", "uncited"),
        # The words of a value's comment say what it is.
        (
            "```ts\nconst policy = {\n  timeout: 86400000, // 24 hours for procurement review\n"
            "};\n```",
            "Orders above the limit need procurement approval within 24 hours.",
            "post-sample-config",
        ),
        # The unit's own word names the key ("percent: 5" for "5%").
        (
            "```ts\nconst stages = [{ percent: 5 }, { percent: 25 }];\n```",
            "A rollback returns to the initial 5% of traffic.",
            "post-sample-config",
        ),
        # A decimal as written may share its key with the whole sentence.
        (
            '```ts\nconst ja = { voice: "ja-JP", speed: 0.9 };\n```',
            "At full speed the answers feel rushed, while a slightly slower delivery, "
            "which the team settled on after many listening sessions, (0.9x) sounds calm.",
            "post-sample-config",
        ),
        # Written with its unit in the code itself (a prompt string).
        (
            "```ts\nconst q = `Generate a demand forecast for the next 12 weeks`;\n```",
            "The demand agent produces a 12-week forecast.",
            "post-sample-config",
        ),
        # ... but not when the sentence shares no word with that line.
        (
            "```ts\nconst q = `Generate a demand forecast for the next 12 weeks`;\n```",
            "Shipping took 12 weeks.",
            "uncited",
        ),
    ],
)
def test_values_of_the_posts_own_samples(
    fence: str, prose: str, expected: str, tmp_path: Path, repo: Path
) -> None:
    card, outcome = _judged(f"{fence}\n\n{prose}\n", tmp_path, repo)
    assert list(outcome.values())[-1] == expected, card.detail
    if expected != "uncited":
        assert "in the post's own code at line" in card.detail["exempt"][-1]["reason"]


def test_lines_the_posts_own_sample_measures(tmp_path: Path, repo: Path) -> None:
    sample = "```tsx\n" + "".join(f"const line{n} = {n};\n" for n in range(74)) + "```\n\n"
    card, outcome = _judged(
        sample + "This gives you a chat UI in under 80 lines of component code.\n",
        tmp_path,
        repo,
    )
    assert outcome["80"] == "post-sample-size"
    assert "has 74 lines" in _reason(card, "80")
    _, other = _judged(sample + "The old UI took 300 lines of code.\n", tmp_path, repo)
    assert other["300"] == "uncited"
    # Only the sample the sentence follows: a long one further up says nothing.
    _, before = _judged(
        sample + "```ts\nrun();\n```\n\nThis takes under 80 lines.\n", tmp_path, repo
    )
    assert before["80"] == "uncited"


# ---------------------------------------------------------------- suppositions and arithmetic
def test_an_illustrative_value_named_again_later_in_the_post(tmp_path: Path, repo: Path) -> None:
    body = (
        "If 85% of items pass on Tier 1, 12% need Tier 2, and 3% need Tier 3, the blend "
        "is cheap.\n\nSome other paragraph.\n\n"
        "- **12% Tier 2**: products needing nuanced descriptions\n\n"
        "Separately, 3% of requests failed last week.\n"
    )
    card, _outcome = _judged(body, tmp_path, repo)
    rules = [(e["line"], e["number"], e["rule"]) for e in card.detail["exempt"]]
    assert (10, "12", "post-illustration") in rules
    assert "next to tier" in next(e for e in card.detail["exempt"] if e["line"] == 10)["reason"]
    # No word in common with the supposition: a claim.
    assert [(c["line"], c["number"]) for c in card.detail["uncited"]] == [(12, "3")]


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        # "mean" as a verb measures nothing.
        (
            "Start with 5,000 tokens. A budget does not mean the model always uses 5,000 tokens.",
            {"5000": "post-illustration"},
        ),
        ("The mean latency was 45 ms.", {"45": "uncited"}),
        # A scenario the post sets up, and a premise "with an average of".
        (
            "For a 10K daily pipeline with an average of 500 tokens per description (input + "
            "output), the tiers differ a lot.",
            {"500": "hypothetical"},
        ),
        ("Our pipeline averaged 500 tokens per description.", {"500": "uncited"}),
        ("For a 10K daily pipeline, even a 10% cache hit rate helps.", {"10": "hypothetical"}),
        (
            "Start low and raise it until you see 429 errors, then back off by 20%.",
            {"20": "advice"},
        ),
    ],
)
def test_suppositions_and_advice(
    prose: str, expected: dict[str, str], tmp_path: Path, repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, repo)
    assert {k: v for k, v in outcome.items() if k in expected} == expected


def test_steps_of_a_backoff_the_paragraph_describes(tmp_path: Path, repo: Path) -> None:
    sample = "```ts\nconst retryDelayMs = 1000;\n```\n\n"
    card, outcome = _judged(
        sample + "Retries use exponential backoff: the first retry waits 1 second, the second "
        "waits 2 seconds, the third waits 4 seconds.\n",
        tmp_path,
        repo,
    )
    assert outcome == {"1": "post-sample-config", "2": "post-arithmetic", "4": "post-arithmetic"}
    assert "1 second doubled 2 time(s)" in _reason(card, "4")
    # No backoff named, or a base that is itself a claim: the steps are claims.
    _, plain = _judged(
        sample + "The first retry waits 1 second, the second waits 2 seconds.\n", tmp_path, repo
    )
    assert plain["2"] == "uncited"
    _, unsourced = _judged(
        "With exponential backoff, p50 is 100 ms and p99 is 400 ms.\n", tmp_path, repo
    )
    assert unsourced == {"100": "uncited", "400": "uncited"}


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        # A rate the post sets up ("per call") is a premise of what follows from it.
        (
            "NeuroLink keeps calling, wasting 30 seconds per call. The model might attempt "
            "five tool calls in sequence, resulting in 150 seconds of waiting.",
            {"150": "post-arithmetic"},
        ),
        # A count plus the one thing the sentence adds.
        (
            "An ensemble of 3 models plus a judge costs roughly 4x a single model call.",
            {"4": "post-arithmetic"},
        ),
        ("An ensemble of 3 models costs roughly 4x a single model call.", {"4": "uncited"}),
        # Words to tokens at about 4/3 tokens per word.
        ("A 300-word memory adds roughly 400 tokens to each call.", {"400": "post-arithmetic"}),
        ("A 300-word memory adds 900 tokens to each call.", {"900": "uncited"}),
        # A price is reported, not assumed: the ratio of two prices stays a claim.
        (
            "Flash costs $0.000075 per 1K tokens while GPT-4o costs $0.0006 per 1K tokens, "
            "an 8x difference.",
            {"8": "uncited"},
        ),
    ],
)
def test_counting_arithmetic(
    prose: str, expected: dict[str, str], tmp_path: Path, repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, repo)
    assert {k: v for k, v in outcome.items() if k in expected} == expected


def test_a_parameter_count_names_a_model(tmp_path: Path, repo: Path) -> None:
    _, outcome = _judged("A 360M-parameter GGUF model loses context.\n", tmp_path, repo)
    assert outcome == {"360": "identifier"}
    _, other = _judged("The index holds 360M vectors.\n", tmp_path, repo)
    assert other == {"360": "uncited"}


def test_rows_of_a_table_that_says_it_is_an_estimate(tmp_path: Path, repo: Path) -> None:
    table = (
        "| Component | Cost | Notes |\n|---|---|---|\n"
        "| Estimated daily usage | 50 queries/farm | season |\n"
        "| Annual cost | ~$21/year | 7-month growing season |\n"
    )
    _, outcome = _judged(table, tmp_path, repo)
    assert outcome["7"] == "estimate"
    _, other = _judged(table.replace("Estimated daily", "Daily"), tmp_path, repo)
    assert other["7"] == "uncited"


# ---------------------------------------------------------------- the repository's figures
def test_a_figure_the_paragraph_already_cited(tmp_path: Path, repo: Path) -> None:
    card, _outcome = _judged(
        "The model needs 230MB, see [the guide](https://example.com/guide). "
        + "It loads once per worker and stays resident for the life of the process. " * 4
        + "That 230MB is paid once.\n\nLater, 230MB again.\n",
        tmp_path,
        repo,
    )
    cited = [c["cited_by"] for c in card.detail["claims"]]
    assert cited[:2] == ["link", "link (as cited at line 6)"]
    assert card.detail["uncited"][0]["line"] == 8  # another paragraph: not the same claim


@pytest.mark.parametrize(
    ("title", "prose", "expected"),
    [
        # The docs write the figure in the sentence's own (uncommon) words.
        (
            "Scaling voice agents",
            "The end-of-utterance model costs about 230MB per worker.",
            "cited:repository: docs/voice.md:4 writes '230 MB'",
        ),
        # A status page's "<230MB for 100 active sessions" shares only common words.
        ("Release notes", "Memory usage stays at 230MB for active users.", "uncited"),
        # Never for a measured-sounding number.
        (
            "Scaling voice agents",
            "The end-of-utterance model cut memory by 230MB per worker.",
            "uncited",
        ),
    ],
)
def test_a_figure_the_repository_writes(
    title: str, prose: str, expected: str, tmp_path: Path, repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, repo, title=title)
    assert outcome["230"].startswith(expected), outcome


def test_a_copy_of_the_post_in_the_repository_cites_nothing(tmp_path: Path) -> None:
    prose = "The end-of-utterance model costs about 230MB, paid once per worker process."
    files = {"blog/post.md": prose + "\n", **{f"src/f{n}.ts": "// filler\n" for n in range(40)}}
    copy = make_repo(tmp_path / "copy", files)
    _, outcome = _judged(prose + "\n", tmp_path, copy, title="Scaling voice agents")
    assert outcome == {"230": "uncited"}


@pytest.mark.parametrize(
    ("title", "prose", "expected"),
    [
        (
            "Reranking strategies",
            "The batch prompt lists each document (truncated to 300 characters).",
            "cited:repository: src/rag/reranker.ts:1 (slice(0, 300))",
        ),
        ("Caching strategies", "Each document is truncated to 300 characters.", "uncited"),
        (
            "Tool annotations",
            "Descriptions longer than 120 characters get a medium complexity.",
            "cited:repository: src/mcp/toolAnnotations.ts:1 (length > 120)",
        ),
        # The length of something else the sentence does not name.
        ("Tool annotations", "Names longer than 120 characters are rejected.", "uncited"),
        # A bound stated without a bound's words is not looked for.
        ("Reranking strategies", "The reranker reads 300 characters.", "uncited"),
    ],
)
def test_a_length_bound_in_the_code(
    title: str, prose: str, expected: str, tmp_path: Path, repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, repo, title=title)
    assert list(outcome.values()) == [expected]


# ---------------------------------------------------------------- commits and sources
def _two_commits(root: Path) -> tuple[Path, str]:
    body = "".join(f"export const value{n} = {n};\n" for n in range(20))
    repo = make_repo(root, {"src/mistral.ts": body, "CHANGELOG.md": "# Changelog\n"})
    changed = body.replace("value1 =", "other1 =").replace("value2 =", "other2 =")
    (repo / "src/fireworks.ts").write_text(changed, encoding="utf-8")
    (repo / "src/mistral.ts").write_text(body + "// touched\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Add fireworks")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def test_commit_stats_read_files_lines_and_copies(tmp_path: Path) -> None:
    repo, sha = _two_commits(tmp_path / "repo")
    stats = CommitStats(repo)
    assert sorted(stats.files(sha)) == ["src/fireworks.ts", "src/mistral.ts"]
    assert stats.numstat(sha, "src/mistral.ts") == (1, 0)
    ((similarity, source, target),) = stats.copies(sha, ("src/fireworks.ts", "src/mistral.ts"))
    assert (source, target) == ("src/mistral.ts", "src/fireworks.ts")
    expected = subprocess.run(
        ["git", "-C", str(repo), "diff-tree", "-r", "-C", "-C", sha],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"C{similarity:03d}" in expected
    assert stats.files("0" * 40) == [] and stats.numstat("0" * 40, "x") is None


def test_a_similarity_git_scores_in_a_commit_the_post_names(tmp_path: Path) -> None:
    repo, sha = _two_commits(tmp_path / "repo")
    ((similarity, _, _),) = CommitStats(repo).copies(sha, ("src/fireworks.ts", "src/mistral.ts"))
    body = (
        f"In commit `{sha[:9]}`, git scored `fireworks.ts` as {similarity}% similar to "
        f"`mistral.ts`. Another {similarity + 1}% of `fireworks.ts` matches `mistral.ts`.\n"
    )
    card, _ = _judged(body, tmp_path, repo)
    cited = {c["number"]: c["cited_by"] for c in card.detail["claims"]}
    assert cited[str(similarity)] == (
        f"repository: commit {sha[:9]} scores src/fireworks.ts as a {similarity}% copy of "
        "src/mistral.ts"
    )
    assert cited[str(similarity + 1)] is None


def test_a_diffstat_of_a_commit_the_repository_lacks(tmp_path: Path, repo: Path) -> None:
    card, _outcome = _judged(
        "The recovery commit `39e51a7` landed with a diffstat of 50 files.\n\n"
        "The rewrite touched 50 files.\n",
        tmp_path,
        repo,
    )
    (item,) = card.detail["exempt"]
    assert item["rule"] == "attributed" and "39e51a7" in item["reason"]
    assert [c["line"] for c in card.detail["uncited"]] == [8]


def test_a_paragraph_that_quotes_a_file_of_another_codebase(tmp_path: Path, repo: Path) -> None:
    body = (
        "`narrative-opening.mjs` names its reason in its header comment. The check, as "
        "stated in the code, reads the opening 1,200 characters.\n\n"
        "`reranker.ts` names its reason in its header comment. The check, as stated in "
        "the code, reads the first 1,300 characters.\n"
    )
    card, outcome = _judged(body, tmp_path, repo)
    assert outcome["1200"] == "attributed"
    assert "`narrative-opening.mjs`, a file the repository does not hold" in _reason(card, "1200")
    assert outcome["1300"] == "uncited"  # the repository holds reranker.ts: checkable


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        # Where it was measured, later in the clause, makes an example cue no exemption.
        (
            "For instance, the router alone accounts for 26% of the token spend in production.",
            "uncited",
        ),
        ("For instance, the router answers in 45 ms at p95.", "uncited"),
        ("For instance, a router may answer in 45 ms.", "hypothetical"),
        # The place must be in the number's own clause.
        ("For instance, it takes 45 ms, which we later saw in production.", "hypothetical"),
    ],
)
def test_where_it_was_measured_keeps_a_claim(
    prose: str, expected: str, tmp_path: Path, repo: Path
) -> None:
    _, outcome = _judged(prose + "\n", tmp_path, repo)
    assert list(outcome.values()) == [expected]
