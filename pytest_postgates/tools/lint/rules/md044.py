"""MD044 (proper-names): Proper names should have the correct capitalization.

markdownlint 0.36.1's algorithm: each configured name (longest first) is searched, in any
case, in the text micromark gives as ``data`` (prose of paragraphs, headings, table cells,
link and image text: not link destinations, references or definitions), in code
(``code_blocks``: code span and code block lines, not fence lines) and in HTML
(``html_elements``: HTML text and comments); a name is bounded by non-word characters
unless it starts or ends with one, and may carry underscores (``_name_``). A match that
is not exactly one of the names is reported unless a longer name already matched there or
it lies in a literal autolink (a URL or an email address: micromark's own token in prose;
in code from the URL's start to the end of the line, as markdownlint's exclusion reads).
As in micromark, the text of an HTML block (not a comment) is read as Markdown without
HTML blocks and indented code.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.emphasis import position, positioned_children

MESSAGE = "Proper names should have the correct capitalization"
_WORD = "A-Za-z0-9_"  # JavaScript's \w
# The HTML block's lines read again as markdownlint's micromark reparse does.
_REPARSER = MarkdownIt("commonmark").enable("table").disable(["html_block", "code"])
# GFM literal autolinks (www., http(s)://, email addresses), their trailing punctuation
# taken off as GFM does.
_URL = re.compile(r"(?<![^\s*_~(])(?:https?://|www\.)[^\s<]*", re.IGNORECASE)
_EMAIL = re.compile(r"(?<![\w.+/-])[\w.+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
_MARKERS = re.compile(r"([*_]+)")
_TRAILING = re.compile(r"[?!.,:*_~]+$")


@dataclass
class _Segment:
    line: int
    text: str
    # Code, or a comment line: markdownlint's autolink exclusion runs from a URL's start
    # to the end of the text there.
    code: bool = False


def _autolinks(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in _URL.finditer(text):
        url = _TRAILING.sub("", match.group(0))
        while url.endswith(")") and url.count(")") > url.count("("):
            url = _TRAILING.sub("", url[:-1])
        spans.append((match.start(), match.start() + len(url)))
    spans.extend((m.start(), m.end()) for m in _EMAIL.finditer(text))
    return sorted(spans)


def _lines_of(source: str) -> list[int]:
    return [index for index, char in enumerate(source) if char == "\n"]


def _inline_segments(
    source: str, first_line: int, env: dict[str, Any], code: bool, html: bool
) -> Iterator[_Segment]:
    breaks = _lines_of(source)
    line = first_line
    run: list[str] = []
    run_line = line
    autolink = 0
    depth = 0  # inside emphasis or link text

    def flush() -> Iterator[_Segment]:
        if run:
            text = "".join(run)
            last = 0
            for start, end in _autolinks(text):  # micromark's own tokens: no data
                yield _Segment(run_line, text[last:start])
                last = end
            yield _Segment(run_line, text[last:])
            run.clear()

    for child in _walk(positioned_children(source, env)):
        span = position(child)
        if span is not None:
            line = first_line + bisect_right(breaks, span[0] - 1) if span[0] else first_line
        if child.type in ("em_open", "strong_open", "link_open"):
            depth += 1
        elif child.type in ("em_close", "strong_close", "link_close"):
            depth = max(depth - 1, 0)
        if child.type == "text" and not autolink:
            if not run:
                run_line = line
            if depth:
                run.append(child.content)  # inside emphasis or link text markers join
            else:
                # At the top every run of markers is an attention sequence of its own.
                for piece in _MARKERS.split(child.content):
                    if _MARKERS.fullmatch(piece):
                        yield from flush()
                        run_line = line
                    elif piece:
                        run.append(piece)
        else:
            yield from flush()
            if child.type == "link_open" and child.markup == "autolink":
                autolink += 1
            elif child.type == "link_close" and autolink:
                autolink -= 1
            elif child.type == "code_inline" and code and span is not None:
                ticks = len(child.markup)
                body = source[span[0] + ticks : span[1] - ticks]
                for offset, piece in enumerate(body.split("\n")):
                    yield _Segment(line + offset, piece, code=True)
            elif child.type == "html_inline" and html:
                # Each line of HTML text is parsed again for autolinks, as a comment line
                # of an HTML block is (a comment an HTML block's text holds: `<div>` then
                # `> <!--` / `> see https://...` / `> -->`).
                for offset, piece in enumerate(child.content.split("\n")):
                    urls = not piece.lstrip().startswith("<")
                    yield _Segment(line + offset, piece, code=urls)
        if span is not None:
            line = first_line + bisect_right(breaks, span[1] - 1) if span[1] else first_line
    yield from flush()


def _walk(children: Sequence[Token]) -> Iterator[Token]:
    for child in children:
        if child.type == "image":
            # The alt text (its own parse: no positions of this content) after the image.
            yield Token("link_open", "", 1, markup="image", meta=dict(child.meta))
            for inner in child.children or ():
                inner.meta = {}
                yield inner
            yield Token("link_close", "", -1, markup="image")
            continue
        yield child


def _segments(
    tokens: Sequence[Token],
    raw_lines: Sequence[str],
    offset: int,
    env: dict[str, Any],
    code: bool,
    html: bool,
) -> Iterator[_Segment]:
    for token in tokens:
        if token.map is None:
            continue
        start = offset + token.map[0]
        if token.type == "inline":
            yield from _inline_segments(token.content, start, env, code, html)
        elif token.type == "fence" and code:
            for number in range(token.content.count("\n")):
                yield _Segment(start + 1 + number, raw_lines[start + 1 + number], code=True)
        elif token.type == "code_block" and code:
            for number in range(token.content.rstrip("\n").count("\n") + 1):
                yield _Segment(start + number, raw_lines[start + number], code=True)
        elif token.type == "html_block":
            lines = raw_lines[start : offset + token.map[1]]
            if token.content.lstrip().startswith("<!--"):
                if html:
                    # markdownlint parses each line again for autolinks: one that reads
                    # as HTML itself (``<!-- x``) has none.
                    for number, text in enumerate(lines):
                        urls = not text.lstrip().startswith("<")
                        yield _Segment(start + number, text, code=urls)
                continue
            inner_env: dict[str, Any] = {}
            inner = _REPARSER.parse("\n".join(lines), inner_env)
            yield from _segments(inner, raw_lines, start, {**env, **inner_env}, code, html)


def _pattern(name: str) -> re.Pattern[str]:
    start = "" if re.match(f"[^{_WORD}]", name) else f"(?<![{_WORD}])_*"
    end = "" if re.search(f"[^{_WORD}]$", name) else f"_*(?![{_WORD}])"
    return re.compile(f"({start})({re.escape(name)}){end}", re.IGNORECASE)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    names = options.get("names")
    names = [str(name) for name in names] if isinstance(names, list) else []
    if not names:
        return
    names.sort(key=lambda name: (-len(name), name.casefold(), name))
    code = True if options.get("code_blocks") is None else bool(options.get("code_blocks"))
    html = True if options.get("html_elements") is None else bool(options.get("html_elements"))
    segments = list(_segments(document.tokens, document.raw_lines, 0, document.env, code, html))
    folded = [segment.text.casefold() for segment in segments]
    # Per segment: the ranges names matched (or autolinks excluded) so far, sorted, with
    # the running maximum of their ends: an overlap test is one bisection.
    taken: dict[int, _Ranges] = {}
    for number, segment in enumerate(segments):
        if segment.code:  # markdownlint's exclusion: from the URL's start to the end
            taken[number] = _Ranges(
                [(start, len(segment.text)) for start, _ in _autolinks(segment.text)]
            )
    for name in names:
        pattern = _pattern(name)
        key = name.casefold()
        for number, segment in enumerate(segments):
            if key not in folded[number]:
                continue
            ranges = taken.setdefault(number, _Ranges([]))
            added = []
            for match in pattern.finditer(segment.text):
                found = match.group(2)
                start, end = match.start(2), match.end(2)
                if found not in names and not ranges.overlaps(start, end):
                    yield segment.line, f"{MESSAGE} [Expected: {name}; Actual: {found}]"
                added.append((start, end))
            ranges.extend(added)


class _Ranges:
    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self._ranges: list[tuple[int, int]] = []
        self._starts: list[int] = []
        self._max_end: list[int] = []
        self.extend(ranges)

    def extend(self, ranges: list[tuple[int, int]]) -> None:
        if not ranges:
            return
        self._ranges = sorted(self._ranges + ranges)
        self._starts = [start for start, _ in self._ranges]
        self._max_end = list(accumulate((end for _, end in self._ranges), max))

    def overlaps(self, start: int, end: int) -> bool:
        """Whether a range [a, b) with a < end and start < b is here."""
        count = bisect_left(self._starts, end)
        return count > 0 and self._max_end[count - 1] > start


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    names = options.get("names")
    if not isinstance(names, list) or not names:
        return False
    text = "\n".join(lines).casefold()
    return any(str(name).casefold() in text for name in names)
