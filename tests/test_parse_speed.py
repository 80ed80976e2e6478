"""The parse-speed shortcuts (issue 15) give exactly what the full work gives.

Each shortcut skips work that cannot change the answer: a scan that cannot match, a
markdown-it rule that has nothing to do. Each is checked here against the work it skips,
on generated text rich in the characters the skipped work looks for.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from pytest_postgates import post as post_module
from pytest_postgates import prose
from pytest_postgates.gates import blog_quality
from pytest_postgates.post import Post, parse_post

# Characters that make code spans, links, autolinks, URLs, escapes and placeholders.
_ALPHABET = st.sampled_from(
    [
        *"`\\[]()<>:/.-_*~ \tab\nxXTODOBFIMEl",
        *("://", "](", "http", "TODO", "TBD", "Todo:", "lorem ipsum", "coming soon"),
        *("[insert", "<placeholder", "XXX", "FIXME", "soon", "\u00e9", "\u212a"),
    ]
)
_TEXT = st.lists(_ALPHABET, max_size=40).map("".join)
_LINE = _TEXT.map(lambda text: text.replace("\n", " "))


@given(_LINE)
@settings(max_examples=400, deadline=None)
def test_blanking_a_line_equals_the_unfiltered_scanners(line: str) -> None:
    code = prose._LINE_CODE_SPAN.sub(prose._spaces, line)
    assert prose.blank_code(line) == code
    assert prose.blank_code_and_urls(line) == prose._LINE_URL.sub(prose._spaces, code)


def _placeholders_unfiltered(post: Post) -> list[dict[str, object]]:
    hits: list[dict[str, object]] = []
    for number, raw, text in blog_quality._scanned_lines(post):
        for _kind, pattern in blog_quality.PLACEHOLDER_PATTERNS:
            for match in pattern.finditer(text):
                hits.append(blog_quality.placeholder_hit(number, raw, text, match))
    return hits


@given(st.lists(_LINE, min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_placeholder_prefilters_never_drop_a_hit(lines: list[str]) -> None:
    text = "---\ntitle: T\nnote: " + lines[0] + "\n---\n\n" + "\n\n".join(lines) + "\n"
    post = parse_post(Path("2026-01-01-x.md"), text.encode())
    if post.fatal_problems:
        return
    assert blog_quality.find_placeholders(post) == _placeholders_unfiltered(post)


def _find_code_span_char_by_char(source: str, start: int, width: int) -> tuple[int, int] | None:
    """The scan as it was before issue 15: one character at a time."""
    index = start
    length = len(source)
    while index < length:
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char != "`":
            index += 1
            continue
        run_end = index
        while run_end < length and source[run_end] == "`":
            run_end += 1
        if run_end - index == width:
            closing = _find_run_char_by_char(source, run_end, width)
            # No closing run after this opening means none after any later one either:
            # stop, rather than search the rest again from every later run (quadratic).
            return None if closing is None else (index, closing + width)
        index = run_end
    return None


def _find_run_char_by_char(source: str, start: int, width: int) -> int | None:
    """Offset of the next backtick run of exactly ``width`` (no escapes inside code)."""
    index = start
    length = len(source)
    while index < length:
        if source[index] != "`":
            index += 1
            continue
        run_end = index
        while run_end < length and source[run_end] == "`":
            run_end += 1
        if run_end - index == width:
            return index
        index = run_end
    return None


@given(_TEXT, st.integers(0, 10), st.integers(1, 4))
@settings(max_examples=500, deadline=None)
def test_code_span_search_equals_the_character_scan(source: str, start: int, width: int) -> None:
    start = min(start, len(source))
    expected = _find_code_span_char_by_char(source, start, width)
    assert post_module._find_code_span(source, start, width) == expected


@given(_TEXT)
@settings(max_examples=300, deadline=None)
def test_code_spans_skip_only_inline_tokens_without_backticks(body: str) -> None:
    post = parse_post(Path("x.md"), body.encode())
    if post.fatal_problems:
        return
    every = []
    for token in post.tokens:
        if token.type == "inline" and token.children and token.map is not None:
            every.extend(post_module._inline_code_spans(token, post._file_line(token.map[0])))
    assert list(post.code_spans) == every


_WITH_NORMALIZE = MarkdownIt("commonmark").enable(["table", "strikethrough"])


@given(_TEXT.map(lambda text: text.replace("\r", "").replace("\0", "")))
@settings(max_examples=300, deadline=None)
def test_the_parser_without_normalize_gives_the_same_tokens(body: str) -> None:
    # parse_post hands markdown-it text with LF line ends and no NUL, which is all the
    # "normalize" rule would change.
    assert post_module.COMMONMARK.parse(body) == _WITH_NORMALIZE.parse(body)


def test_parse_post_never_hands_the_parser_a_cr_or_nul(tmp_path: Path) -> None:
    crlf = parse_post(tmp_path / "a.md", b"# T\r\n\r\nline one\rline two\r\n")
    assert "\r" not in crlf.text and {p.code for p in crlf.problems} == {"CRLF", "CR"}
    assert crlf.tokens == _WITH_NORMALIZE.parse("# T\n\nline one\nline two")
    nul = parse_post(tmp_path / "b.md", b"# T\n\nA\x00B\n")
    assert nul.tokens == [] and nul.fatal_problems[0].code == "BINARY"


def test_the_placeholder_prefilters_hold_a_literal_of_every_pattern() -> None:
    # A pattern added without a prefilter would fail loudly here, not drop hits.
    kinds = [kind for kind, _ in blog_quality.PLACEHOLDER_PATTERNS]
    assert kinds == list(blog_quality._PLACEHOLDER_PREFILTERS)
    for kind, sample in [
        ("marker", "a TODO b"),
        ("lorem ipsum", "Lorem  Ipsum"),
        ("bracketed", "[ insert the name ]"),
        ("angle", "< placeholder x>"),
        ("coming soon", "Coming Soon!"),
    ]:
        pattern = dict(blog_quality.PLACEHOLDER_PATTERNS)[kind]
        assert pattern.search(sample) is not None
        assert blog_quality._PLACEHOLDER_PREFILTERS[kind].search(sample) is not None


def _code_span_sentence_scanning_every_block(
    view: prose.ProseView, line: int, text: str, boundary: prose.Boundary
) -> tuple[str, int]:
    """ProseView.code_span_sentence as g2shape wrote it: every block, every time."""
    for first, last, source in view._inline_blocks:
        if not first <= line <= last:
            continue
        for match in prose._CODE_SPAN.finditer(source):
            content = match.group(2) or ""
            if first + source.count("\n", 0, match.start()) != line or text not in content:
                continue
            at = match.start(2) + content.find(text)
            for start, end in prose.sentence_spans(prose.mask_code_spans(source), boundary):
                if start <= at < end:
                    folded = prose._SPACE_RUN.sub(" ", source[start:end])
                    return folded, len(prose._SPACE_RUN.sub(" ", source[start:at]))
    return "", -1


_PROSE_PIECES = ["`a`", "`a.b`", " ", "\n", "\n\n", "x", "Y", ".", "! ", "# ", "| c |", "e.g."]
_PROSE = st.lists(st.sampled_from(_PROSE_PIECES), max_size=30).map("".join)


@given(_PROSE, st.sampled_from(["punctuation", "sentence_start"]))
@settings(max_examples=300, deadline=None)
def test_code_span_sentence_equals_a_scan_of_every_block(
    body: str, boundary: prose.Boundary
) -> None:
    post = parse_post(Path("x.md"), body.encode())
    if post.fatal_problems:
        return
    view = post.prose
    asked = [(span.line, span.text.strip()) for span in post.code_spans] + [(1, "a"), (2, "zz")]
    for line, text in asked:
        expected = _code_span_sentence_scanning_every_block(view, line, text, boundary)
        assert view.code_span_sentence(line, text, boundary) == expected
