"""The prose view (pytest_postgates.prose): what the gates read of a post's prose.

Plain examples pin each reader's behaviour; hypothesis checks the properties every gate
relies on, on generated Markdown: positions map back to the file, blanking keeps length
and line structure, and sentences cover their paragraph.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pytest_postgates import prose
from pytest_postgates.post import Post, parse_post
from pytest_postgates.prose import (
    CODE_MARK,
    HtmlReading,
    blank_code,
    blank_code_and_urls,
    sentence_spans,
)
from tests.helpers import make_post

FRONT = b"---\ntitle: t\n---\n"


def post_of(body: str) -> Post:
    """A post parsed from bytes (no file: hypothesis runs many examples)."""
    return parse_post(Path("2026-06-03-prose.md"), FRONT + body.encode("utf-8"))


# ---------------------------------------------------------------------- examples
def test_the_view_is_built_once_per_post(tmp_path: Path) -> None:
    post = make_post("One paragraph.\n", tmp_path)
    assert post.prose is post.prose
    assert post.prose.paragraphs is post.prose.paragraphs


def test_paragraphs_have_file_lines_and_stop_at_related_posts(tmp_path: Path) -> None:
    post = make_post(
        "First line\nsecond line.\n\n- a list item\n\n> quoted\n\n```\nnot prose.\n```\n\n"
        "**Related posts:**\n\nAfter the boundary.\n",
        tmp_path,
    )
    found = [(p.line, p.end_line, p.top_level, p.source) for p in post.prose.paragraphs]
    assert found == [
        (6, 7, True, "First line\nsecond line."),
        (9, 9, False, "a list item"),
        (11, 11, False, "quoted"),
    ]


def test_the_two_sentence_boundaries_are_named_options() -> None:
    text = "See e.g. the file post.py now. it ends. Then A. Smith wrote `x`. Done"
    assert prose.split_sentences(text, "punctuation") == [
        "See e.g.",
        "the file post.py now.",
        "it ends.",
        "Then A.",
        "Smith wrote `x`.",
        "Done",
    ]
    assert prose.split_sentences(text, "sentence_start") == [
        "See e.g. the file post.py now. it ends.",
        "Then A. Smith wrote `x`.",
        "Done",
    ]
    assert prose.split_sentences(f"It returns. {CODE_MARK} runs.", "sentence_start") == [
        "It returns.",
        f"{CODE_MARK} runs.",
    ]


def test_sentences_carry_their_line_and_code(tmp_path: Path) -> None:
    post = make_post("Read `a.b. c` first. Then\nthe `x.ts` file! ` ` Done?\n", tmp_path)
    (paragraph,) = post.prose.paragraphs
    found = [(s.line, s.text, s.has_code, s.code_texts) for s in paragraph.sentences()]
    assert found == [
        (6, "Read `a.b. c` first.", True, ["a.b. c"]),
        (6, "Then the `x.ts` file!", True, ["x.ts"]),
        (7, "` ` Done?", True, []),
    ]


def test_reading_text_and_plain_text(tmp_path: Path) -> None:
    post = make_post(
        "Use `parse_post` and [the docs](https://x.invalid) {% raw %}![img](a.png) "
        "<b>bold</b> **now**.\n",
        tmp_path,
    )
    (paragraph,) = post.prose.paragraphs
    assert paragraph.reading_text == f"Use {CODE_MARK} and the docs bold now."
    # The judged gates' plain text keeps what a model may need: image text, HTML, Liquid.
    assert paragraph.plain == "Use parse_post and the docs {% raw %}img <b>bold</b> now."
    words = ["Use", "code", "and", "the", "docs", "bold", "now"]
    assert prose.words(paragraph.reading_text) == words


def test_links_of_every_kind_with_their_lines(tmp_path: Path) -> None:
    post = make_post(
        "A [link](https://a.example/x) and\n![img](/i.png) <https://b.example>.\n\n"
        '<div><a href="https://c.example">c</a></div>\n\n'
        "See {% post_url 2026-01-01-other %}.\n\n```\n[not](https://code.example)\n```\n",
        tmp_path,
    )
    assert [(link.line, link.url, link.kind) for link in post.prose.links] == [
        (6, "https://a.example/x", "link"),
        (7, "/i.png", "image"),
        (7, "https://b.example", "autolink"),
        (9, "https://c.example", "html"),
        (11, "{% post_url 2026-01-01-other %}", "liquid"),
    ]


def test_prose_lines_blank_code_and_optionally_urls_and_skip_code(tmp_path: Path) -> None:
    post = make_post(
        "Call `f()` at https://x.example/a now.\n\n<!-- html -->\n\n```\ncode\n```\n", tmp_path
    )
    with_urls = dict(post.prose.lines(html="source", urls=True))
    code_only = dict(post.prose.lines(html="rendered", urls=False))
    assert with_urls[6] == "Call       at " + " " * len("https://x.example/a") + " now."
    assert code_only[6] == "Call       at https://x.example/a now."
    assert with_urls[8] == "<!-- html -->" and code_only[8] == ""  # a comment shows nothing
    assert not {10, 11, 12} & (with_urls.keys() | code_only.keys())  # the fence


def test_a_code_span_that_wraps_lines_is_blanked_on_each(tmp_path: Path) -> None:
    """A line-by-line scan sees one unmatched backtick per line of a code span that wraps
    (a paragraph or list item continued inside the span): its pieces are blanked anyway,
    so that no gate reads code as prose."""
    post = make_post(
        "- It says\n  `waited\n  0.40 s` and ends.\n\nPlain `a b\nc 0.50 s` here, `x` too.\n",
        tmp_path,
    )
    for html in ("source", "rendered"):
        lines = dict(post.prose.lines(html=html, urls=False))
        assert (
            lines[7] == " " * len("  `waited") and lines[8] == " " * len("  0.40 s`") + " and ends."
        )
        assert (
            lines[10] == "Plain " + " " * len("`a b")
            and lines[11] == " " * len("c 0.50 s`") + " here,     too."
        )


# -------------------------------------------------------------------- properties
_PIECES = st.sampled_from(
    [
        "word",
        "Word",
        "e.g.",
        "A.",
        "v1.2.3",
        "post.py",
        ". ",
        "! ",
        "? ",
        "...",
        '." ',
        ") ",
        " ",
        " ",
        "\n",
        "\n\n",
        "`code.x`",
        "``a ` b``",
        "`",
        "[text](https://a.example/p)",
        "<https://b.example>",
        "https://c.example/q",
        "![alt](i.png)",
        "**bold**",
        "_em_",
        "<b>x</b>",
        "<div>\n",
        "</div>",
        "<code>",
        "</code>",
        "<pre>",
        "<!-- c",
        "-->",
        '<a href="u">',
        "</a>",
        "&nbsp;",
        "&#10;",
        "{% raw %}",
        "- ",
        "> ",
        "1. ",
        "# ",
        "```\n",
        "    ",
        "\t",
        "\u00e9t\u00e9",
        "\u201cquoted\u201d ",
        "\r\n",
    ]
)
_MARKDOWN = st.lists(_PIECES, max_size=60).map("".join)
_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


def test_code_span_sentence_finds_the_span_in_its_sentence(tmp_path: Path) -> None:
    post = make_post(
        "Use timeouts. Set `timeout` on each\nrequest, for example `retry`.\n"
        'He said "stop." `Then` it ran.\n\n'
        "# Heading `h1`\n\n| a | b |\n|---|---|\n| `c1` | for example `c2` |\n",
        tmp_path,
    )
    view = post.prose
    # The span, not the first place its text stands ("timeouts"); the sentence runs on
    # across the line break, whitespace folded.
    assert view.code_span_sentence(6, "timeout") == (
        "Set `timeout` on each request, for example `retry`.",
        5,
    )
    assert view.code_span_sentence(7, "retry") == (
        "Set `timeout` on each request, for example `retry`.",
        44,
    )
    # A closing quote ends a sentence; a code span starts one as a capital does.
    assert view.code_span_sentence(8, "Then") == ("`Then` it ran.", 1)
    # Headings and table cells are blocks of their own.
    assert view.code_span_sentence(10, "h1") == ("Heading `h1`", 9)
    assert view.code_span_sentence(14, "c2") == ("for example `c2`", 13)
    # A span that is not there (wrong line, wrong text) is not found.
    assert view.code_span_sentence(7, "timeout") == ("", -1)
    assert view.code_span_sentence(6, "absent") == ("", -1)


@_SETTINGS
@given(_MARKDOWN)
def test_code_span_sentences_hold_their_span(body: str) -> None:
    post = post_of(body)
    if post.fatal_problems:
        return
    for span in post.prose_code_spans:
        text = span.text.strip()
        if not text:
            continue
        sentence, offset = post.prose.code_span_sentence(span.line, text)
        if offset >= 0:  # found: the offset points at the span's text, on one line
            assert sentence[offset : offset + len(text)] == " ".join(text.split()) or (
                sentence[offset:].startswith(text.split()[0])
            )
            assert "\n" not in sentence


@_SETTINGS
@given(_MARKDOWN)
def test_paragraph_and_sentence_positions_round_trip_to_the_file(body: str) -> None:
    post = post_of("Intro.\n\n" + body)
    if post.fatal_problems:
        return
    for paragraph in post.prose.paragraphs:
        assert post.body_start_line <= paragraph.line <= paragraph.end_line <= len(post.lines)
        for number, text in paragraph.source_lines():
            # Container markers and indentation are not the paragraph's: what is left of
            # each source line stands on the file line the view names.
            assert text.strip() in post.lines[number - 1]
        for boundary in ("punctuation", "sentence_start"):
            for sentence in paragraph.sentences(boundary):  # type: ignore[arg-type]
                assert paragraph.line <= sentence.line <= paragraph.end_line
                first_word = sentence.text.split()[0]
                assert first_word in post.lines[sentence.line - 1]
    for link in post.prose.links:
        assert post.body_start_line <= link.line <= len(post.lines)


@_SETTINGS
@given(st.lists(_PIECES.filter(lambda p: "\n" not in p), max_size=40).map("".join))
def test_blanking_preserves_length_and_columns(line: str) -> None:
    for blanked in (blank_code(line), blank_code_and_urls(line)):
        assert len(blanked) == len(line)
        # Only spaces are put in; everything else stays in its column.
        assert all(new in (old, " ") for old, new in zip(line, blanked, strict=True))
    assert all(
        new in (old, " ")
        for old, new in zip(blank_code(line), blank_code_and_urls(line), strict=True)
    )


@_SETTINGS
@given(_MARKDOWN)
# A code span wrapping a line break, then `code` and inline HTML: both readings blank the
# wrapped span's closing backtick, so neither pairs it with the next one (found by
# hypothesis: rendered_line used to read `<a href="u">` as HTML, lines() as code).
@example('`\r\n`code.x`<a href="u">`code.x`')
def test_prose_lines_keep_the_line_structure(body: str) -> None:
    post = post_of(body)
    if post.fatal_problems:
        return
    expected = [
        n for n in range(post.body_start_line, len(post.lines) + 1) if n not in post.code_lines
    ]
    readings: tuple[HtmlReading, ...] = ("source", "rendered")
    for html in readings:
        for urls in (True, False):
            lines = post.prose.lines(html=html, urls=urls)
            assert [number for number, _ in lines] == expected
            for number, text in lines:
                # As written: the same columns. Rendered: the same columns as the rendered
                # line with its code kept (what gate 7 reads words from).
                source = post.lines[number - 1] if html == "source" else None
                source = source if source is not None else post.prose.rendered_line(number)
                assert "\n" not in text and len(text) == len(source)


_WORDLIKE = re.compile(r"[^\W_]|" + CODE_MARK)


@_SETTINGS
@given(st.lists(_PIECES, max_size=60).map("".join), st.booleans())
def test_sentences_cover_the_paragraph_text(text: str, with_code_mark: bool) -> None:
    if with_code_mark:
        text = text.replace("`code.x`", CODE_MARK)
    for boundary in ("punctuation", "sentence_start"):
        spans = sentence_spans(text, boundary)  # type: ignore[arg-type]
        position = 0
        for start, end in spans:
            assert position <= start < end <= len(text)  # in order, never overlapping
            assert text[start:end] == text[start:end].strip()
            gap = text[position:start]
            if boundary == "punctuation":
                assert not gap.strip()  # nothing visible falls between sentences
            else:
                assert _WORDLIKE.search(gap) is None  # no word falls between sentences
            position = end
        tail = text[position:]
        assert not tail.strip() if boundary == "punctuation" else not _WORDLIKE.search(tail)


@_SETTINGS
@given(_MARKDOWN)
def test_paragraph_sentences_cover_their_source(body: str) -> None:
    post = post_of(body)
    if post.fatal_problems:
        return
    for paragraph in post.prose.paragraphs:
        sentences = paragraph.sentences("punctuation")
        # Whitespace aside, the sentences are the paragraph's source, in order.
        assert "".join("".join(s.text.split()) for s in sentences) == "".join(
            paragraph.source.split()
        )
