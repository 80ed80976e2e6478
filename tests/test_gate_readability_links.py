"""Gate 6, readability_links: Flesch and sentence limits per prose paragraph, internal
links against the corpus, external links through the checker (loopback server only)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates import prose
from pytest_postgates.batch import RunBatches
from pytest_postgates.gates import GateContext, default_settings
from pytest_postgates.gates import readability_links as gate
from pytest_postgates.helpers import readability
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from pytest_postgates.tools import links
from pytest_postgates.tools import site as site_model
from tests.helpers import make_post
from tests.test_links import LinkServer, serve

if TYPE_CHECKING:
    from tests.conftest import Blog

BODY_LINE = 6  # FRONT_MATTER is five lines
EASY = (
    "The cat sat on the mat. It was a warm day, and the sun was out. "
    "The dog ran to the park and back again."
)
HARD = (
    "Notwithstanding considerable organisational interdependencies, comprehensive "
    "institutionalisation necessitates extraordinarily sophisticated administrative "
    "infrastructure modernisation initiatives."
)
# One sentence of 44 words and many clauses, most words long: hard to read by any
# editor's standard.
HARD_LONG = (
    "Notwithstanding considerable organisational interdependencies, comprehensive "
    "institutionalisation of the deployment configuration necessitates extraordinarily "
    "sophisticated administrative infrastructure, continuous observability instrumentation, "
    "and meticulously documented operational responsibilities across every participating "
    "engineering organisation, which, unsurprisingly, complicates authorisation, "
    "reconciliation and verification responsibilities considerably for every new contributor."
)
# Short sentences of long words: a low Flesch score from vocabulary alone.
LONG_WORDS = (
    "Institutionalisation necessitates documentation. Modernisation necessitates "
    "observability. Authentication necessitates authorisation. Configuration necessitates "
    "validation. Organisations necessitate accountability. Virtualisation necessitates "
    "orchestration. Serialisation necessitates deserialisation."
)


def nine_sentences(words: str = "is short") -> str:
    return " ".join(f"Sentence number {n} {words}." for n in range(1, 10))


@pytest.fixture
def server() -> Iterator[LinkServer]:
    yield from serve()


@pytest.fixture(autouse=True)
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "BACKOFF", 0.01)


def ctx(
    tmp_path: Path, posts: tuple[Path, ...] = (), run_dir: Path | None = None, **settings: Any
) -> GateContext:
    """A context whose link cache lives in ``tmp_path`` (never the user's cache folder)."""
    return GateContext.create(
        default_settings(**settings), tmp_path / "cache", RunBatches(run_dir, posts)
    )


# The seeds' blog's house style, adopted as a blog that enforces it sets it: the tests of
# the sentence limit and the Flesch verdict judge them enforced (a project that sets none
# of these keys gets them as advice: test_house_style_*).
HOUSE_STYLE = {
    "max_paragraph_sentences": gate.DEFAULT_MAX_PARAGRAPH_SENTENCES,
    "flesch_floor": gate.DEFAULT_FLESCH_FLOOR,
    "post_flesch_floor": gate.DEFAULT_POST_FLESCH_FLOOR,
    "max_hard_prose_share": gate.DEFAULT_MAX_HARD_PROSE_SHARE,
}


def run(body: str, tmp_path: Path, **settings: Any) -> Scorecard:
    settings = {**HOUSE_STYLE, **settings}
    return gate.GATE.evaluate(make_post(body, tmp_path), ctx(tmp_path, **settings))


def run_unadopted(body: str, tmp_path: Path, **settings: Any) -> Scorecard:
    """The gate under settings that set none of the house-style keys."""
    return gate.GATE.evaluate(make_post(body, tmp_path), ctx(tmp_path, **settings))


def codes(card: Scorecard) -> list[tuple[int | None, str]]:
    return [(f.line, f.code) for f in card.findings]


# ============================================================================ sentences
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One sentence here.", 1),
        ("First one. Second one! Third one? Fourth.", 4),
        ("Edit post.py and run v1.2.3 of the tool. Then stop.", 2),
        ("Use a linter, e.g. Ruff, vs. others. It is fast.", 2),
        ("Ask J. Smith about it. He knows.", 2),
        ("The parser said \u201cdone.\u201d Then it exited.", 2),
        (f"It returns. {readability.CODE_MARK} runs next.", 2),  # a sentence opening on code
        ("lower case after a period. does not split", 1),
        ("See https://example.com/a.b for more. It helps.", 2),
        ("No final stop", 1),
        ("...", 0),
    ],
)
def test_split_sentences(text: str, count: int) -> None:
    assert len(readability.split_sentences(text)) == count


def test_flesch_formula() -> None:
    # 6 words, 6 one-syllable words, 1 sentence: 206.835 - 1.015 * 6 - 84.6 * 1
    assert readability.flesch_reading_ease("The cat sat on the mat.") == 116.15
    assert readability.flesch_reading_ease("") == 0.0
    assert readability.flesch_reading_ease(HARD) < 0 < readability.flesch_reading_ease(EASY)


def test_syllables_need_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """textstat's English syllable path downloads CMUdict; the gate must not."""
    import socket

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("network access while scoring")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    readability.syllables.cache_clear()
    assert readability.syllables("readability") >= 3
    assert readability.flesch_reading_ease(EASY + " " + HARD) != 0


# ============================================================================ paragraphs
def test_easy_paragraph_passes(tmp_path: Path) -> None:
    card = run(EASY + "\n", tmp_path)
    assert card.verdict == "PASS", card.findings
    assert card.detail["paragraphs_checked"] == card.detail["paragraphs_scored"] == 1
    assert card.detail["flesch_floor"] == gate.DEFAULT_FLESCH_FLOOR
    assert card.detail["readability"]["verdict"] == "PASS"
    assert card.detail["post_flesch"] is not None and card.detail["post_flesch"] > 90


def test_hard_paragraphs_holding_a_large_share_of_the_prose_fail_the_post(
    tmp_path: Path,
) -> None:
    card = run(f"{EASY}\n\n{HARD_LONG}\n", tmp_path)
    assert card.verdict == "FAIL"
    # The pooled post scores under 30 too: a post-level finding without a line.
    assert codes(card) == [(None, "HARD_TO_READ"), (BODY_LINE + 2, "LOW_FLESCH")]
    (low,) = card.detail["low_flesch"]
    assert low["line"] == BODY_LINE + 2 and low["flesch"] < gate.DEFAULT_FLESCH_FLOOR
    assert low["text"].startswith("Notwithstanding") and low["words"] == 41
    assert "its longest sentence has 41 words" in low["why"]
    easy_words = len(readability.words_of(EASY))
    assert card.detail["hard_prose_share"] == round(41 / (41 + easy_words), 4)
    assert (
        "1 hard-to-read paragraph holds 62% of the post's prose words"
        in card.detail["readability"]["reason"]
    )


def test_hard_paragraphs_alone_fail_a_post_whose_pooled_score_passes(tmp_path: Path) -> None:
    body = "\n\n".join([EASY] * 6 + [HARD_LONG]) + "\n"
    card = run(body, tmp_path)
    assert card.verdict == "FAIL"
    assert codes(card) == [(BODY_LINE + 12, "LOW_FLESCH")]
    assert card.detail["post_flesch"] >= gate.DEFAULT_POST_FLESCH_FLOOR
    assert card.summary.startswith("hard to read: 1 hard-to-read paragraph holds 21%")


def test_suppressing_a_hard_paragraph_recomputes_the_share(tmp_path: Path) -> None:
    body = "\n\n".join([EASY] * 6 + [HARD_LONG]) + "\n"
    context = ctx(tmp_path, **HOUSE_STYLE)
    result = gate.GATE.check(make_post(body, tmp_path), context)
    (hard,) = result.findings
    kept = replace(result, findings=[])  # what the runner leaves after the directive
    card = gate.GATE.decided(kept, context.settings, suppressed=True)
    assert card.verdict == "PASS" and card.summary.endswith("(after suppression)")
    assert card.detail["readability"]["verdict"] == "PASS"
    assert card.detail["hard_prose_share"] == 0.0
    assert hard.code == "LOW_FLESCH"


def test_one_hard_paragraph_in_a_readable_post_is_reported_not_failed(tmp_path: Path) -> None:
    body = "\n\n".join([EASY] * 8 + [HARD_LONG] + [EASY] * 8) + "\n"
    card = run(body, tmp_path)
    assert card.verdict == "PASS", card.findings
    (low,) = card.detail["low_flesch"]  # still listed, with its score and why
    assert low["line"] == BODY_LINE + 16 and low["flesch"] < 0
    assert card.detail["hard_prose_share"] < gate.DEFAULT_MAX_HARD_PROSE_SHARE
    assert card.detail["readability"] == {
        "verdict": "PASS",
        "reason": card.detail["readability"]["reason"],
    }
    assert "hard-to-read paragraphs hold 9% of its words" in card.detail["readability"]["reason"]


def test_a_post_whose_pooled_prose_scores_under_the_post_floor_fails(tmp_path: Path) -> None:
    card = run(f"{LONG_WORDS}\n\n{LONG_WORDS}\n\n{EASY}\n", tmp_path)
    assert card.verdict == "FAIL"
    assert codes(card) == [(None, "HARD_TO_READ")]
    assert card.detail["post_flesch"] < gate.DEFAULT_POST_FLESCH_FLOOR
    assert "under 30" in card.detail["readability"]["reason"]


def test_low_score_from_long_words_alone_is_listed_with_its_reason(tmp_path: Path) -> None:
    body = "\n\n".join([EASY] * 6 + [LONG_WORDS] + [EASY] * 6) + "\n"
    card = run(body, tmp_path)
    assert card.verdict == "PASS", card.findings
    assert card.detail["low_flesch"] == []
    (listed,) = card.detail["low_flesch_not_flagged"]
    assert listed["line"] == BODY_LINE + 12 and listed["flesch"] < 0
    assert "its longest sentence has 3 words" in listed["reason"]
    assert "long words" in listed["reason"]


def test_floors_and_share_are_configurable(tmp_path: Path) -> None:
    hard = f"{EASY}\n\n{HARD_LONG}\n"
    relaxed = run(hard, tmp_path, flesch_floor=-1000.0)
    assert relaxed.detail["low_flesch"] == [] and codes(relaxed) == [(None, "HARD_TO_READ")]
    assert run(hard, tmp_path, max_hard_prose_share=0.7).verdict == "FAIL"  # post floor
    lenient = run(hard, tmp_path, max_hard_prose_share=0.7, post_flesch_floor=-1000.0)
    assert lenient.verdict == "PASS" and len(lenient.detail["low_flesch"]) == 1
    card = run(EASY + "\n", tmp_path, post_flesch_floor=200.0)
    assert codes(card) == [(None, "HARD_TO_READ")]
    assert card.detail["post_flesch_floor"] == 200.0
    loose = run(f"{LONG_WORDS}\n\n{EASY}\n", tmp_path, post_flesch_floor=-1000.0)
    assert loose.verdict == "PASS" and loose.detail["post_flesch_floor"] == -1000.0


def test_compounds_are_scored_as_their_parts(tmp_path: Path) -> None:
    assert readability.words_of("A production-ready read/write path, input\u2014output.") == [
        "A", "production", "ready", "read", "write", "path", "input", "output",
    ]  # fmt: skip
    assert readability.words_of("snake_case and don't") == ["snake_case", "and", "don't"]
    joined = (
        "We ship a production-ready, well-tested read/write cache with built-in retries and "
        "rate-limited fan-out for real-time workloads in multi-region deployments today."
    )
    spaced = joined.replace("-", " ").replace("/", " ")
    post = make_post(joined + "\n\n" + spaced + "\n", tmp_path)
    first, second = gate.prose_paragraphs(post)
    assert first.flesch == second.flesch and first.words == second.words == 28
    # Read as one word each, the compounds would have pulled the score down.
    legacy_words = prose.words(joined)
    assert len(legacy_words) == 20
    legacy = readability.flesch_of(20, 1, sum(readability.syllables(w) for w in legacy_words))
    assert first.flesch is not None and first.flesch > legacy + 10


def test_more_than_eight_sentences_is_a_long_paragraph(tmp_path: Path) -> None:
    eight = " ".join(f"Sentence number {n} is short." for n in range(1, 9))
    card = run(f"{eight}\n\n{nine_sentences()}\n", tmp_path)
    assert codes(card) == [(BODY_LINE + 2, "LONG_PARAGRAPH")]
    assert card.detail["long_paragraphs"][0]["sentences"] == 9


def test_sentence_limit_is_configurable(tmp_path: Path) -> None:
    assert run(nine_sentences() + "\n", tmp_path, max_paragraph_sentences=9).verdict == "PASS"
    card = run(EASY + "\n", tmp_path, max_paragraph_sentences=2)
    assert codes(card) == [(BODY_LINE, "LONG_PARAGRAPH")]


def test_house_style_unadopted_is_advice_on_the_card_not_a_failure(tmp_path: Path) -> None:
    """A project that sets none of the sentence-limit or Flesch keys has not adopted the
    seeds' blog's house style: what it would find is listed with the reason, the gate
    passes; one key set enforces that rule (and only that one)."""
    body = f"{LONG_WORDS}\n\n{LONG_WORDS}\n\n{nine_sentences()}\n"
    card = run_unadopted(body, tmp_path)
    assert card.verdict == "PASS", card.findings
    assert card.findings == []
    house = card.detail["house_style"]
    assert [f["code"] for f in house["max_paragraph_sentences"]["findings"]] == ["LONG_PARAGRAPH"]
    assert [f["code"] for f in house["flesch_floor"]["findings"]] == ["HARD_TO_READ"]
    assert "not adopted" in house["flesch_floor"]["reason"]
    assert "`max_hard_prose_share`" in house["flesch_floor"]["reason"]
    assert "house-style advice, not enforced: 1 HARD_TO_READ, 1 LONG_PARAGRAPH" in card.summary
    sentences = run_unadopted(body, tmp_path, max_paragraph_sentences=8)
    assert [code for _, code in codes(sentences)] == ["LONG_PARAGRAPH"]
    assert list(sentences.detail["house_style"]) == ["flesch_floor"]
    flesch = run_unadopted(body, tmp_path, post_flesch_floor=30.0)
    assert [code for _, code in codes(flesch)] == ["HARD_TO_READ"]
    assert list(flesch.detail["house_style"]) == ["max_paragraph_sentences"]
    # Adopted in full, the card has no house-style entry at all (the corpus's snapshots).
    assert "house_style" not in run(EASY + "\n", tmp_path).detail


def test_a_paragraph_wrapped_over_lines_is_one_paragraph(tmp_path: Path) -> None:
    wrapped = nine_sentences().replace(". ", ".\n")
    card = run(wrapped + "\n", tmp_path)
    assert codes(card) == [(BODY_LINE, "LONG_PARAGRAPH")]


def test_lists_tables_quotes_headings_code_and_html_are_not_paragraphs(tmp_path: Path) -> None:
    nine = nine_sentences()
    body = (
        f"# {HARD}\n\n"
        f"- {nine}\n- {HARD}\n\n"
        f"1. {nine}\n\n"
        f"> {nine}\n> {HARD}\n\n"
        f"| a | b |\n|---|---|\n| {HARD} | {nine} |\n\n"
        f"```text\n{nine}\n{HARD}\n```\n\n"
        f"    {HARD}\n\n"
        f"<div>\n{nine}\n</div>\n\n"
        f"{EASY}\n"
    )
    card = run(body, tmp_path)
    assert card.verdict == "PASS", card.findings
    assert card.detail["paragraphs_checked"] == 1


def test_related_posts_block_is_not_prose(tmp_path: Path) -> None:
    card = run(f"{EASY}\n\n**Related posts:**\n\n{HARD}\n", tmp_path)
    assert card.verdict == "PASS" and card.detail["paragraphs_checked"] == 1


def test_markup_is_stripped_before_scoring(tmp_path: Path) -> None:
    plain = make_post(EASY + "\n", tmp_path, name="2026-06-03-plain.md")
    marked = make_post(
        "The cat sat on the [mat](https://example.com/extraordinarily/polysyllabic/path). "
        'It was a **warm** day, and the <span class="x">sun</span> was out. '
        "The dog ran to the _park_ and back again.{: .note }\n",
        tmp_path,
        name="2026-06-03-marked.md",
    )
    (a,) = gate.prose_paragraphs(plain)
    (b,) = gate.prose_paragraphs(marked)
    assert a.text == b.text and a.flesch == b.flesch


def test_inline_code_counts_as_one_short_word(tmp_path: Path) -> None:
    sentence = "Call `createConversationMemoryFactoryWithOptions()` before you start the next run"
    post = make_post(f"{sentence} and then {sentence.lower()} once more today.\n", tmp_path)
    (paragraph,) = gate.prose_paragraphs(post)
    assert paragraph.words == 21
    plain = "Call code before you start the next run"
    assert paragraph.flesch == readability.flesch_reading_ease(
        f"{plain} and then {plain.lower()} once more today."
    )
    assert paragraph.flesch is not None and paragraph.flesch > 70


def test_short_paragraphs_are_not_scored_alone_but_count_in_the_post(tmp_path: Path) -> None:
    card = run("Institutionalisation considerations.\n\n" + EASY + "\n", tmp_path)
    assert card.verdict == "PASS"
    assert card.detail["paragraphs_checked"] == 2 and card.detail["paragraphs_scored"] == 1
    assert card.detail["not_scored_alone"]["lines"] == [BODY_LINE]
    assert "under 20 words" in card.detail["not_scored_alone"]["reason"]
    alone = run(EASY + "\n", tmp_path)
    assert card.detail["post_flesch"] < alone.detail["post_flesch"]  # pooled into the post


def test_image_only_paragraph_is_not_prose(tmp_path: Path) -> None:
    card = run("![An extraordinarily polysyllabic alternative](img.png)\n\n" + EASY, tmp_path)
    assert card.detail["paragraphs_checked"] == 1


# ============================================================================ internal
def write_post(folder: Path, name: str, body: str = EASY + "\n", front: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(
        f"---\nlayout: post\ntitle: T\ndate: {name[:10]}\n{front}---\n{body}", encoding="utf-8"
    )
    return path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A Jekyll site: dated permalinks, a url and a baseurl, three posts."""
    (tmp_path / "_config.yml").write_text(
        "url: https://blog.example.com\nbaseurl: /blog\n"
        "collections:\n  posts:\n    output: true\n    permalink: /:year/:month/:day/:title/\n",
        encoding="utf-8",
    )
    posts = tmp_path / "_posts"
    write_post(posts, "2026-01-02-other-post.md")
    write_post(posts, "2026-02-03-renamed.md", front="slug: custom-slug\n")
    write_post(posts, "2026-03-04-explicit.md", front="permalink: /special/place/\n")
    return tmp_path


def check_in_site(site: Path, body: str, **settings: Any) -> Scorecard:
    path = write_post(site / "_posts", "2026-06-03-the-post.md", EASY + "\n\n" + body)
    return gate.GATE.evaluate(parse_post(path), ctx(site, **settings))


@pytest.mark.parametrize(
    "link",
    [
        "/posts/other-post/",
        "/posts/other-post",
        "/posts/other-post/#a-heading",
        "/posts/custom-slug/",
        "/blog/posts/other-post/",
        "/2026/01/02/other-post/",
        "/blog/2026/01/02/other-post/",
        "/2026/02/03/custom-slug/",
        "/special/place/",
        "https://blog.example.com/blog/posts/other-post/",
        "https://blog.example.com/2026/01/02/other-post/",
        "2026-01-02-other-post.md",
        "./2026-01-02-other-post.md#intro",
        "../_posts/2026-01-02-other-post.md",
        "/assets/img/not-a-post.png",
        "#a-heading",
        "mailto:someone@example.com",
    ],
)
def test_internal_links_that_resolve(site: Path, link: str) -> None:
    card = check_in_site(site, f"See [the other post]({link}) for more.\n")
    assert card.verdict == "PASS", card.findings


@pytest.mark.parametrize(
    "link",
    [
        "/posts/no-such-post/",
        "/blog/posts/no-such-post/",
        "/2026/01/02/no-such-post/",
        "/2026/01/03/other-post/",  # right slug, wrong date
        "https://blog.example.com/posts/no-such-post/",
        "2026-01-02-missing.md",
        "../drafts/2026-01-02-other-post.md",
    ],
)
def test_internal_links_that_do_not_resolve(site: Path, link: str) -> None:
    card = check_in_site(site, f"See [the other post]({link}) for more.\n")
    assert codes(card) == [(BODY_LINE + 2, "BROKEN_INTERNAL_LINK")]
    (broken,) = card.detail["internal_links"]["broken"]
    assert broken["url"] == link and broken["line"] == BODY_LINE + 2


def test_the_sites_own_absolute_urls_are_not_requested(site: Path) -> None:
    path = write_post(
        site / "_posts",
        "2026-06-03-the-post.md",
        "[a](https://blog.example.com/posts/other-post/) [b](https://elsewhere.example/x)\n",
    )
    index = gate.site_index(path)
    assert gate._external_urls_of(parse_post(path), index) == ["https://elsewhere.example/x"]


def test_liquid_post_url_tags(site: Path) -> None:
    ok = check_in_site(site, "Read {% post_url 2026-01-02-other-post %} first.\n")
    assert ok.verdict == "PASS" and ok.detail["internal_links"]["checked"] == 1
    bad = check_in_site(site, "Read {% post_url 2026-01-02-gone %} first.\n")
    assert codes(bad) == [(BODY_LINE + 2, "BROKEN_INTERNAL_LINK")]


def test_a_liquid_tag_written_in_a_code_span_is_text_not_a_link(site: Path) -> None:
    """A page about Jekyll's tags shows them in code spans; only a tag outside code is a
    link (a code span and a real tag on one line: the real one alone is checked)."""
    shown = check_in_site(site, "`{% link /etc/passwd %}` resolves inside the site only.\n")
    assert shown.verdict == "PASS" and shown.detail["internal_links"]["checked"] == 0
    both = check_in_site(
        site, "`{% post_url 2026-01-02-gone %}` or {% post_url 2026-01-02-gone %}\n"
    )
    assert codes(both) == [(BODY_LINE + 2, "BROKEN_INTERNAL_LINK")]


def test_posts_in_other_folders_of_the_run_resolve(tmp_path: Path) -> None:
    elsewhere = write_post(tmp_path / "other" / "_posts", "2026-01-01-far-away.md")
    path = write_post(tmp_path / "_posts", "2026-06-03-x.md", "See [it](/posts/far-away/).\n")
    alone = gate.GATE.evaluate(parse_post(path), ctx(tmp_path))
    assert codes(alone) == [(BODY_LINE, "BROKEN_INTERNAL_LINK")]
    together = gate.GATE.evaluate(parse_post(path), ctx(tmp_path, posts=(path, elsewhere)))
    assert together.verdict == "PASS", together.findings


def test_without_a_config_jekyll_date_style_is_assumed(tmp_path: Path) -> None:
    write_post(tmp_path / "_posts", "2026-01-02-other.md")
    path = write_post(
        tmp_path / "_posts",
        "2026-06-03-x.md",
        "[a](/2026/01/02/other.html) and [b](/2026/01/02/nope.html).\n",
    )
    card = gate.GATE.evaluate(parse_post(path), ctx(tmp_path))
    assert [b["url"] for b in card.detail["internal_links"]["broken"]] == ["/2026/01/02/nope.html"]


def test_posts_front_matter_default_permalink(tmp_path: Path) -> None:
    """Chirpy-style sites set the permalink as a front-matter default for posts."""
    (tmp_path / "_config.yml").write_text(
        "defaults:\n  - scope: {path: '', type: posts}\n    values: {permalink: /p/:title/}\n",
        encoding="utf-8",
    )
    write_post(tmp_path / "_posts", "2026-01-02-other.md")
    path = write_post(tmp_path / "_posts", "2026-06-03-x.md", "[a](/p/other/) and [b](/p/nope/).\n")
    card = gate.GATE.evaluate(parse_post(path), ctx(tmp_path))
    assert [b["url"] for b in card.detail["internal_links"]["broken"]] == ["/p/nope/"]


# ============================================================================ external
def test_external_links_through_the_checker(tmp_path: Path, server: LinkServer) -> None:
    live, gone = server.ok("/live"), server.status("/gone", 404)
    body = (
        f"{EASY}\n\n"
        f"A [live page]({live}) and\na [gone page]({gone}).\n\n"
        "Also [a metadata link](http://169.254.169.254/latest/) here.\n\n"
        "And [a broken one](http://exa_mple..com/) too.\n"
    )
    card = run(body, tmp_path, allow_hosts=(server.allow,))
    assert card.verdict == "FAIL"
    assert codes(card) == [(BODY_LINE + 3, "DEAD_LINK"), (BODY_LINE + 7, "MALFORMED_URL")]
    detail = card.detail["links"]
    assert detail["checked"] == 2 and detail["ok"] == 1
    assert [(d["url"], d["code"]) for d in detail["dead"]] == [(gone, 404)]
    # An address a post shows for its reader's own machine is an example, never requested.
    assert detail["blocked"] == []
    assert "cloud metadata address" in detail["examples"][0]["reason"]
    assert detail["malformed"][0]["url"] == "http://exa_mple..com/"
    assert [row["status"] for row in detail["urls"]] == ["ok", "dead", "example", "malformed"]


def test_unverified_links_pass_unless_configured(tmp_path: Path, server: LinkServer) -> None:
    down = server.status("/down", 503)
    body = f"{EASY}\n\nThe [status page]({down}) is down.\n"
    card = run(body, tmp_path, allow_hosts=(server.allow,))
    assert card.verdict == "PASS"
    (row,) = card.detail["links"]["unverified"]
    assert row["code"] == 503 and "503" in row["reason"]
    strict = run(body, tmp_path, allow_hosts=(server.allow,), unverified_links_fail=True)
    assert codes(strict) == [(BODY_LINE + 2, "UNVERIFIED_LINK")]


def test_a_loopback_server_is_an_example_unless_allowed(tmp_path: Path, server: LinkServer) -> None:
    body = f"{EASY}\n\nSee [it]({server.ok('/x')}).\n"
    card = run(body, tmp_path)
    assert card.verdict == "PASS" and codes(card) == []
    (example,) = card.detail["links"]["examples"]
    assert "loopback address" in example["reason"] and "allow_hosts" in example["reason"]
    assert server.requests("/x") == 0
    allowed = run(body, tmp_path, allow_hosts=(server.allow,))
    assert allowed.detail["links"]["ok"] == 1 and allowed.detail["links"]["examples"] == []
    assert server.requests("/x") == 1


def test_link_exclude_and_offline_never_request(tmp_path: Path, server: LinkServer) -> None:
    gone = server.status("/gone", 404)
    body = f"{EASY}\n\nSee [it]({gone}) and <https://example.com/>.\n"
    excluded = run(body, tmp_path, allow_hosts=(server.allow,), link_exclude=("/gone$", "example"))
    assert excluded.verdict == "PASS"
    assert len(excluded.detail["links"]["excluded"]) == 2
    offline = run(body, tmp_path, allow_hosts=(server.allow,), offline=True)
    assert offline.verdict == "PASS"
    assert [r["url"] for r in offline.detail["links"]["unchecked"]] == [gone]
    assert [r["url"] for r in offline.detail["links"]["examples"]] == ["https://example.com/"]
    assert server.requests("/gone") == 0


def test_each_url_is_requested_once_for_many_posts(tmp_path: Path, server: LinkServer) -> None:
    shared = server.ok("/shared")
    folder = tmp_path / "_posts"
    paths = tuple(
        write_post(
            folder,
            f"2026-01-0{n}-p{n}.md",
            f"{EASY}\n\n[S]({shared}), [O]({server.ok(f'/own{n}')}).\n",
        )
        for n in range(1, 6)
    )
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    # Two "workers": separate contexts and batches sharing one run folder, as under xdist.
    workers = [ctx(tmp_path, paths, run_dir, allow_hosts=(server.allow,)) for _ in range(2)]
    for index, path in enumerate(paths):
        card = gate.GATE.evaluate(parse_post(path), workers[index % 2])
        assert card.verdict == "PASS", card.findings
    assert server.requests("/shared") == 1
    assert all(server.requests(f"/own{n}") == 1 for n in range(1, 6))


def test_disk_cache_spares_the_next_run(tmp_path: Path, server: LinkServer) -> None:
    path = write_post(tmp_path / "_posts", "2026-01-01-p.md", f"See [it]({server.ok('/c')}).\n")
    for run_number in range(3):
        run_dir = tmp_path / f"run{run_number}"
        run_dir.mkdir()
        card = gate.GATE.evaluate(
            parse_post(path), ctx(tmp_path, (path,), run_dir, allow_hosts=(server.allow,))
        )
        assert card.detail["links"]["ok"] == 1
    assert server.requests("/c") == 1
    card = gate.GATE.evaluate(
        parse_post(path),
        ctx(tmp_path, (path,), allow_hosts=(server.allow,), link_cache_max_age=0),
    )
    assert card.detail["links"]["ok"] == 1 and server.requests("/c") == 2


def test_a_post_with_hundreds_of_links(tmp_path: Path, server: LinkServer) -> None:
    items = "\n".join(f"- [link {n}]({server.ok(f'/l/{n}')})" for n in range(300))
    started = time.monotonic()
    card = run(f"{EASY}\n\n{items}\n", tmp_path, allow_hosts=(server.allow,))
    assert card.verdict == "PASS", card.findings[:3]
    assert card.detail["links"]["ok"] == 300 and sum(server.hits.values()) == 300
    assert time.monotonic() - started < 30


def test_a_five_megabyte_post_finishes(tmp_path: Path, server: LinkServer) -> None:
    live = server.ok("/big")
    # Long prose paragraphs with links and code, and a fence now and then: markdown-it-py
    # needs ~15 s per megabyte of list items, which would time the parser, not the gate.
    paragraph = f"{EASY} The [page]({live}) has more, with `code` in it. {EASY}\n\n"
    block = paragraph * 10 + "```python\nprint('hello')\n```\n\n"
    body = block * (5_000_000 // len(block) + 1)
    assert len(body) >= 5_000_000
    started = time.monotonic()
    card = run(body, tmp_path, allow_hosts=(server.allow,))
    elapsed = time.monotonic() - started
    assert card.verdict == "PASS"
    assert card.detail["links"]["ok"] == body.count(live)
    assert server.requests("/big") == 1
    assert elapsed < 120, elapsed


def test_malformed_links_do_not_crash(tmp_path: Path) -> None:
    body = (
        f"{EASY}\n\n"
        "[a](<http://exa mple.com>) [b](http://[::1/) [c](htps://example.com)\n"
        "[d](http://example.com:99999/) [e](http//example.com)\n"
    )
    card = run(body, tmp_path, offline=True)
    assert card.verdict == "FAIL"
    assert [code for _, code in codes(card)] == ["MALFORMED_URL"] * 5
    assert {line for line, _ in codes(card)} == {BODY_LINE + 2, BODY_LINE + 3}


def test_html_links_are_checked(tmp_path: Path) -> None:
    body = f'{EASY}\n\n<a href="http://10.0.0.1/">intranet</a> and <img src="https://cdn.jsdelivr.net/a.png">\n'
    card = run(body, tmp_path, offline=True)
    assert [r["url"] for r in card.detail["links"]["examples"]] == ["http://10.0.0.1/"]
    assert [r["url"] for r in card.detail["links"]["unchecked"]] == [
        "https://cdn.jsdelivr.net/a.png"
    ]


def test_bound_html_attributes_are_expressions_not_links(tmp_path: Path) -> None:
    """A VitePress page binds ``:src`` to a JavaScript template literal (issue 27: vitest's
    docs/guide/ide.md failed as MALFORMED_URL); the page evaluates it, nothing to check."""
    body = (
        f"{EASY}\n\n"
        "<img :src=\"`https://x.example/cover-${isDark ? 'light' : 'dark' }.png`\" alt=\"logo\">\n"
        '<a v-bind:href="base + \'guide/\'">guide</a> <img src="http://10.0.0.1/a.png">\n'
    )
    card = run(body, tmp_path, offline=True)
    assert [r["url"] for r in card.detail["links"]["urls"]] == ["http://10.0.0.1/a.png"]


def test_links_in_code_are_not_links(tmp_path: Path) -> None:
    body = f"{EASY}\n\n```markdown\n[dead](http://10.0.0.1/)\n```\n\nRun `curl http://10.0.0.1/`.\n"
    card = run(body, tmp_path, offline=True)
    assert card.verdict == "PASS" and card.detail["links"]["urls"] == []


def test_scorecard_is_stable(tmp_path: Path) -> None:
    body = f"{EASY}\n\n{HARD}\n\n[x](/posts/nope/) <https://example.com/a>\n"
    first = run(body, tmp_path, offline=True).to_dict()
    second = run(body, tmp_path, offline=True).to_dict()
    assert first == second
    import json

    assert str(tmp_path) not in json.dumps(first)


# ============================================================================ plugin
def test_gate_6_under_xdist_requests_each_url_once(blog: Blog, server: LinkServer) -> None:
    shared = server.ok("/shared")
    gone = server.status("/gone", 404)
    for n in range(4):
        links_md = f"[shared]({shared})" + (f" and [gone]({gone})" if n == 0 else "")
        blog.post(f"2026-01-0{n + 1}-p{n}.md", f"{blog.GOOD}\nSee {links_md}.\n")
    blog.pyproject(f'allow_hosts = ["{server.allow}"]\n')
    result = blog.pytester.runpytest_subprocess("-n", "2", "--postgates-only=6")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*2026-01-01-p0.md:*DEAD_LINK*/gone*"])
    assert server.requests("/shared") == 1
    assert server.requests("/gone") == 1
    card = blog.card("2026-01-01-p0-gate6-readability_links.json")
    assert [row["status"] for row in card["detail"]["links"]["urls"]] == ["ok", "dead"]


def test_an_online_run_shows_link_check_progress(blog: Blog, server: LinkServer) -> None:
    """Issue 27: after collection, an online run said nothing while it asked every link
    of the site; now the terminal shows how many links on how many hosts, then a closing
    line with the statuses."""
    for n in range(3):
        urls = " ".join(f"[l{k}]({server.ok(f'/p{n}/{k}')})" for k in range(2))
        blog.post(f"2026-01-0{n + 1}-p{n}.md", f"{blog.GOOD}\nSee {urls}.\n")
    blog.pyproject(f'allow_hosts = ["{server.allow}"]\n')
    result = blog.pytester.runpytest("--postgates-only=6")
    result.stdout.fnmatch_lines(
        [
            "postgates: checking 6 links on 1 host (--postgates-offline skips them)...",
            "postgates: checked 6 links on 1 host in * s: 6 ok",
        ]
    )
    offline = blog.pytester.runpytest("--postgates-only=6", "--postgates-offline")
    assert "postgates: check" not in offline.stdout.str()


RAW_SHAPES = """---
title: T
---
See [docs](https://a.example/docs "Title") and ![chart](https://a.example/chart.png).
A ``code span with [x](https://code.example/span)`` and `[y](https://code.example/one)`.
<https://a.example/auto> and <a href="https://a.example/html">html</a>.

[ref]: https://a.example/ref "Ref"
   [ref2]: <https://a.example/ref2>

```bash
curl [z](https://code.example/fence)
```

````markdown
```
[w](https://code.example/nested)
```
````

~~~
[v](https://code.example/tilde)
~~~
Back in prose: [after](https://a.example/after).
"""


def test_raw_link_urls_skip_code_and_find_every_link_form() -> None:
    # Unused reference definitions are no links (the parsed post has none for them).
    urls = gate.raw_link_urls(RAW_SHAPES)
    assert urls == [
        "https://a.example/docs",
        "https://a.example/chart.png",
        "https://a.example/auto",
        "https://a.example/html",
        "https://a.example/after",
    ]


def test_raw_link_urls_match_the_parsed_links(tmp_path: Path) -> None:
    path = write_post(tmp_path / "_posts", "2026-01-01-p.md", RAW_SHAPES.split("---\n", 2)[2])
    parsed = {link.url for link in gate.links_in(parse_post(path)) if link.kind != "liquid"}
    assert set(gate.raw_link_urls(path.read_text(encoding="utf-8"))) == parsed


def test_the_url_batch_requests_nothing_shown_only_as_code(
    tmp_path: Path, server: LinkServer
) -> None:
    in_code = server.ok("/in-code")
    linked = server.ok("/linked")
    folder = tmp_path / "_posts"
    paths = (
        write_post(folder, "2026-01-01-a.md", f"{EASY}\n\n```text\n[x]({in_code})\n```\n"),
        write_post(
            folder, "2026-01-02-b.md", f"{EASY}\n\nSee `[x]({in_code})` and [y]({linked}).\n"
        ),
    )
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    context = ctx(tmp_path, paths, run_dir, allow_hosts=(server.allow,))
    for path in paths:
        assert gate.GATE.evaluate(parse_post(path), context).verdict == "PASS"
    assert server.requests("/in-code") == 0
    assert server.requests("/linked") == 1


_SEGMENT_KINDS = st.sampled_from(["link", "image", "autolink", "html", "span", "fence", "tilde"])


@given(
    st.lists(st.tuples(_SEGMENT_KINDS, st.integers(0, 999)), max_size=12),
    st.booleans(),
)
def test_raw_link_urls_find_prose_links_and_nothing_in_code(
    segments: list[tuple[str, int]], crlf: bool
) -> None:
    lines, expected = [], []
    for kind, number in segments:
        url = f"https://h{number}.example/p{number}"
        if kind == "link":
            lines.append(f"Read [this]({url}) now.")
        elif kind == "image":
            lines.append(f"![alt]({url})")
        elif kind == "autolink":
            lines.append(f"Go to <{url}>.")
        elif kind == "html":
            lines.append(f'<p><a href="{url}">x</a></p>')
        elif kind == "span":
            lines.append(f"Code: `` [x]({url}) `` and `<{url}>`.")
        elif kind == "fence":
            lines += ["```text", f"[x]({url})", "```"]
        else:
            lines += ["~~~~", "```", f"<{url}>", "```", "~~~~"]
        if kind in ("link", "image", "autolink", "html"):
            expected.append(url)
        lines.append("")
    text = ("\r\n" if crlf else "\n").join(lines)
    assert gate.raw_link_urls(text.replace("\r\n", "\n")) == expected


@given(st.text(max_size=400))
def test_raw_link_urls_never_raise(text: str) -> None:
    assert isinstance(gate.raw_link_urls(text), list)


# ------------------------------------------------------------------ cache inputs (disk)
DISK_BODY = """
Links: [setup](../docs/setup.md), [spaced](../docs/notes%20one.md#part), {% link docs/usage.md %},
{% post_url 2026-01-01-other %}, [a post](/posts/other/), [web](https://example.com/x.md),
[anchor](#top), [image](img.png) and [mkdocs style](../docs/Guide.MARKDOWN).
"""


def _disk_site(tmp_path: Path) -> Path:
    (tmp_path / "_config.yml").write_text("permalink: /posts/:title/\n")
    posts = tmp_path / "_posts"
    posts.mkdir()
    (posts / "2026-01-01-other.md").write_text("---\ntitle: O\n---\nOther.\n")
    (posts / "img.png").write_bytes(b"")
    (tmp_path / "docs").mkdir()
    for name in ("setup.md", "usage.md", "Guide.MARKDOWN", "notes one.md"):
        (tmp_path / "docs" / name).write_text("# Doc\n")
    return posts


def test_linked_file_names_exactly_the_files_a_links_verdict_reads(tmp_path: Path) -> None:
    """The files gate 6's cache key stats are the files judge_internal reads: removing a
    named file flips that link's verdict, removing every other file flips none."""
    posts = _disk_site(tmp_path)
    post = make_post(DISK_BODY, posts, name="2026-01-02-post.md")
    site = gate.site_index(post.path, tuple(sorted(posts.glob("*.md"))))
    named = {link.url: site_model.linked_file(link, post) for link in post.prose.links}
    assert {url: path for url, path in named.items() if path is not None} == {
        "../docs/setup.md": posts / "../docs/setup.md",
        "../docs/notes%20one.md#part": posts / "../docs/notes one.md",
        "{% link docs/usage.md %}": tmp_path / "docs/usage.md",
        "../docs/Guide.MARKDOWN": posts / "../docs/Guide.MARKDOWN",
    }

    def verdicts() -> dict[str, bool | None]:
        judged = {link.url: gate.judge_internal(link, post, site) for link in post.prose.links}
        return {url: None if v is None else v.resolves for url, v in judged.items()}

    before = verdicts()
    assert all(before[url] for url, path in named.items() if path is not None)
    for url, path in named.items():
        if path is not None:
            moved = path.with_name(path.name + ".moved")
            path.rename(moved)
            assert verdicts() == before | {url: False}, url
            moved.rename(path)
    (posts / "img.png").unlink()
    (posts / "2026-01-01-other.md").rename(tmp_path / "elsewhere.md")  # the site model keeps it
    assert verdicts() == before


def test_run_wide_work_is_done_once_per_run_not_per_post(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15 (corpus scale): the link checker and the site model's digest are made once
    for the run's posts (each cost grew with the corpus, per post: quadratic at 1,000),
    and the cards are those of a fresh context per post."""
    paths = tuple(
        write_post(
            tmp_path / "_posts",
            f"2026-01-{day:02d}-post-{day}.md",
            f"{EASY}\n\nSee [the docs](https://docs.python.org/3/{day}).\n",
        )
        for day in range(1, 9)
    )
    made: list[int] = []
    digests: list[int] = []
    original_checker = links.LinkChecker.from_settings.__func__  # type: ignore[attr-defined]
    original_digest = site_model.site_digest

    def counting_checker(cls: type[links.LinkChecker], *args: Any) -> links.LinkChecker:
        made.append(1)
        return original_checker(cls, *args)  # type: ignore[no-any-return]

    def counting_digest(site: site_model.SiteIndex) -> str:
        digests.append(1)
        return original_digest(site)

    monkeypatch.setattr(links.LinkChecker, "from_settings", classmethod(counting_checker))
    monkeypatch.setattr(gate, "site_digest", counting_digest)
    shared = ctx(tmp_path, posts=paths, offline=True)
    keys = [gate.cache_inputs(path, shared) for path in paths]
    cards = [gate.GATE.evaluate(parse_post(path), shared) for path in paths]
    assert (len(made), len(digests)) == (1, 1)
    assert len(set(keys)) == 1 and keys[0] is not None
    alone = [
        gate.GATE.evaluate(parse_post(path), ctx(tmp_path, posts=paths, offline=True))
        for path in paths
    ]
    assert [c.to_dict() for c in cards] == [c.to_dict() for c in alone]
    # every post's URL went through the shared checker (offline: not requested)
    assert all(len(card.detail["links"]["unchecked"]) == 1 for card in cards), cards[0].detail
