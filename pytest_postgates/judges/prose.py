"""The prose of a post as judged gates see it: paragraphs and sentences with file lines.

Read from the Post's markdown-it tokens (never re-parsed): paragraph tokens only, so
fenced code, HTML blocks, headings and tables are not prose; everything from the
Related-posts line on is a link list, not content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.scan import CodeSpanLazy, Delimited, Emphasis, markdown_link

if TYPE_CHECKING:
    from pytest_postgates.post import Post

# The code-span, link and emphasis patterns, scanned in linear time (pytest_postgates.scan)
_CODE_SPAN = CodeSpanLazy()  # (`+)(.+?)\1, DOTALL
# A sentence ends at . ! or ? (closing quotes/brackets allowed) before whitespace.
_SENTENCE_END = re.compile(r"[.!?][\"')\]\u201d\u2019]*\s+")
_LINK = Delimited(r"!?\[([^\]]*)\]\([^)]*\)", re.compile(r"!?\["), markdown_link("\\]", ")", True))
_EMPHASIS = Emphasis()  # (?<!\w)(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?!\w)


@dataclass(frozen=True)
class Paragraph:
    line: int  # file line of the paragraph's first line
    text: str  # the paragraph's inline Markdown source


@dataclass(frozen=True)
class Sentence:
    line: int
    text: str

    @property
    def has_code(self) -> bool:
        return _CODE_SPAN.search(self.text) is not None


def paragraphs(post: Post) -> list[Paragraph]:
    """Prose paragraphs (list items and block quotes included), before Related posts."""
    stop = post.related_posts_line
    found: list[Paragraph] = []
    tokens = post.tokens
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.map is None or index + 1 >= len(tokens):
            continue
        line = post.body_start_line + token.map[0]
        if stop is not None and line >= stop:
            break
        inline = tokens[index + 1]
        content = inline.content.strip()
        if inline.type == "inline" and content:
            found.append(Paragraph(line, content))
    return found


def sentences(paragraph: Paragraph) -> list[Sentence]:
    """Sentences of a paragraph, each with the file line it starts on. Full stops inside
    code spans (``a.b``, ``x.ts``) do not end a sentence."""
    source = paragraph.text
    masked = _CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), source)
    result: list[Sentence] = []
    start = 0
    for match in _SENTENCE_END.finditer(masked):
        _append(result, paragraph, source, start, match.end())
        start = match.end()
    _append(result, paragraph, source, start, len(source))
    return result


def _append(
    result: list[Sentence], paragraph: Paragraph, source: str, start: int, end: int
) -> None:
    piece = source[start:end]
    text = " ".join(piece.split())
    if text:
        offset = start + (len(piece) - len(piece.lstrip()))
        result.append(Sentence(paragraph.line + source.count("\n", 0, offset), text))


def plain(markdown: str) -> str:
    """Inline Markdown as a reader reads it: link text without URLs, no emphasis or
    backtick markers, one line. For models that were trained on plain text."""
    spans: list[str] = []

    def hold(match: re.Match[str]) -> str:
        spans.append(match.group(2).strip())
        return f"\ue000{len(spans) - 1}\ue001"

    text = _CODE_SPAN.sub(hold, markdown)  # set aside: no link or emphasis rule applies
    text = _EMPHASIS.sub(r"\2", _LINK.sub(r"\1", text))
    text = re.sub("\ue000(\\d+)\ue001", lambda m: spans[int(m.group(1))], text)
    return " ".join(text.split())
