"""The prose of a post, read once from the markdown-it tokens the post already has.

A gate that reads prose reads it here, never with a scanner of its own: paragraphs with
their file lines, sentences, words, links, and the prose lines with inline code spans and
URLs blanked (same length, same columns). ``Post.prose`` builds the view on first use and
keeps it on the parsed post, so every gate of a post shares one.

Where gates read prose differently on purpose the difference is a named option of one
reader, not a second reader: sentences end at ``boundary="punctuation"`` (what the judged
gates send a model) or at ``boundary="sentence_start"`` (what readability scores: the next
sentence must start like one, abbreviations and initials do not end one); prose lines keep
or blank URLs and read raw HTML as written or as rendered.

This module knows nothing of :mod:`pytest_postgates.post` (the post imports it), only of
the small :class:`ParsedPost` shape it reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, Protocol

from markdown_it.token import Token

from pytest_postgates.html_text import render as render_html
from pytest_postgates.scan import (
    Alternation,
    Delimited,
    Found,
    SchemeUrl,
    closed_by,
    closed_by_string,
    markdown_link,
)
from pytest_postgates.scan_markdown import CodeSpanExact, CodeSpanLazy, Emphasis

CODE_MARK = "\x00"  # stands for an inline code span in reading text (one word)

Boundary = Literal["punctuation", "sentence_start"]
# How prose lines read raw HTML: as written, or as the text a reader sees.
HtmlReading = Literal["source", "rendered"]


class ParsedPost(Protocol):
    """What the view reads of a parsed post (:class:`pytest_postgates.post.Post`)."""

    tokens: list[Token]
    lines: list[str]
    body_start_line: int

    @property
    def related_posts_line(self) -> int | None: ...

    @property
    def code_lines(self) -> frozenset[int]: ...

    @property
    def html_lines(self) -> frozenset[int]: ...


# ------------------------------------------------------------------------- blanking
# The code-span and URL patterns of prose lines, scanned in linear time
# (pytest_postgates.scan): as regexes, a line of backtick runs, of ``](`` or of
# ``a.a.a.`` took minutes.
_LINE_CODE_SPAN = CodeSpanExact()  # (?<!`)(`+)(?!`).+?(?<!`)\1(?!`)
_LINE_URL = Alternation(
    r"\]\([^)\s]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b[a-z][a-z0-9+.-]*://\S+",
    [
        Delimited(r"\]\([^)\s]*\)", re.compile(r"\]\("), closed_by(")\\s", ")")),
        Delimited(
            r"<[a-z][a-z0-9+.-]*:[^>\s]*>",
            re.compile(r"<[a-z][a-z0-9+.-]*+:", re.I),
            closed_by(">\\s", ">", re.I),
        ),
        SchemeUrl(r"\b[a-z][a-z0-9+.-]*://\S+", r"\S+", re.I),
    ],
)


def _spaces(match: Found) -> str:
    return " " * (match.end() - match.start())


def blank_code(line: str) -> str:
    """A prose line with its inline code spans blanked (same length, same columns)."""
    if "`" not in line:  # every code span has one: most lines are returned as they are
        return line
    return _LINE_CODE_SPAN.sub(_spaces, line)


def _may_hold_url(line: str) -> bool:
    """False when no alternative of :data:`_LINE_URL` can match: each needs ``](``,
    ``://``, or a ``<`` with a ``:`` after it. A substring test costs far less than the
    scanner, and most prose lines hold no URL."""
    if "](" in line or "://" in line:
        return True
    angle = line.find("<")
    return angle >= 0 and line.find(":", angle) >= 0


def blank_code_and_urls(line: str) -> str:
    """A prose line with inline code spans and URLs (link targets, autolinks, bare
    ``scheme://`` URLs) blanked: same length, same columns."""
    blanked = blank_code(line)
    return _LINE_URL.sub(_spaces, blanked) if _may_hold_url(blanked) else blanked


# ------------------------------------------------------------------------ sentences
# A run of sentence-final punctuation, then closing quotes/brackets; possessive and never
# starting inside a run of punctuation, so a long run of ``.`` is read once.
_END_RUN = re.compile(r"(?<![.!?])[.!?]++[\"'\u201d\u2019)\]]*+")
_WHITESPACE = re.compile(r"\s")
# What follows the end of a sentence when the next must start like one: space and a
# capital, a digit, an opening quote or bracket, emphasis or code; or only space.
_SENTENCE_START = re.compile(r"\s+[\"'\u201c\u2018(\[*_]*[A-Z0-9" + CODE_MARK + r"]|\s*$")
_WORDLIKE = re.compile(r"[^\W_]|" + CODE_MARK)
ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx fig no mr mrs ms dr prof sr jr st inc ltd co a.k.a u.s".split()
)
_WORD_OR_DOT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.")


def _last_word(text: str) -> str | None:
    """``re.search(r"([A-Za-z][A-Za-z.]*)$", text).group(1)``, read from the end: the regex
    re-read a long run of letters from each of its letters when the text did not end in it.
    """
    end = len(text) - 1 if text.endswith("\n") else len(text)  # "$" also matches there
    start = end
    while start > 0 and text[start - 1] in _WORD_OR_DOT:
        start -= 1
    while start < end and text[start] == ".":
        start += 1
    return text[start:end] if start < end else None


def sentence_ends(text: str, boundary: Boundary) -> Iterator[re.Match[str]]:
    """The runs of sentence-final punctuation (closing quotes and brackets included) that
    ``boundary`` lets end a sentence, before abbreviations are considered. In linear time:
    runs never overlap, and each reads ahead only over the whitespace after it."""
    follows = _SENTENCE_START if boundary == "sentence_start" else _WHITESPACE
    for run in _END_RUN.finditer(text):
        if follows.match(text, run.end()) is not None:
            yield run


def sentence_spans(text: str, boundary: Boundary = "punctuation") -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, surrounding whitespace left out.

    A sentence ends at a run of ``.``, ``!`` or ``?`` (closing quotes and brackets
    included). ``boundary`` says what must follow:

    - ``"punctuation"``: whitespace. Every such run ends a sentence; a piece with no
      visible character is not one. What the judged gates send a model.
    - ``"sentence_start"``: whitespace and something that starts a sentence (a capital, a
      digit, an opening quote or bracket, emphasis, :data:`CODE_MARK`), or the end of the
      text; ``e.g.``, ``vs.`` (:data:`ABBREVIATIONS`) and single initials do not end one,
      and a piece without a word is not a sentence. What readability scores: file names,
      versions and URLs (``post.py``, ``1.2.3``) have no space after the dot.
    """
    reading = boundary == "sentence_start"
    spans: list[tuple[int, int]] = []
    start = 0

    def keep(begin: int, end: int) -> None:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        piece = text[begin:end]
        if piece and (not reading or _WORDLIKE.search(piece) is not None):
            spans.append((begin, end))

    for run in sentence_ends(text, boundary):
        if run.end() <= start:
            continue
        if reading and run.group(0).startswith("."):
            word = _last_word(text[start : run.start()])
            if word:
                token = word.lower().rstrip(".")
                if token in ABBREVIATIONS or (len(token) == 1 and word.isupper()):
                    continue
        keep(start, run.end())
        start = run.end()
    keep(start, len(text))
    return spans


def split_sentences(text: str, boundary: Boundary = "punctuation") -> list[str]:
    """The sentences of plain ``text`` (see :func:`sentence_spans`)."""
    return [text[start:end] for start, end in sentence_spans(text, boundary)]


# ---------------------------------------------------------------------------- words
_WORD_STRIP = re.compile(r"[^\w\s']")
CODE_WORD = "code"  # what a code span counts as in words: one word


def words(text: str) -> list[str]:
    """Words as textstat counts them: punctuation removed (a hyphenated word is one word),
    contractions kept, each :data:`CODE_MARK` one word."""
    return _WORD_STRIP.sub("", text.replace(CODE_MARK, f" {CODE_WORD} ")).split()


# ---------------------------------------------------------------------- paragraphs
# Inline Markdown source as the judged gates read it, scanned in linear time.
_CODE_SPAN = CodeSpanLazy()  # (`+)(.+?)\1, DOTALL
_LINK = Delimited(r"!?\[([^\]]*)\]\([^)]*\)", re.compile(r"!?\["), markdown_link("\\]", ")", True))
_EMPHASIS = Emphasis()  # (?<!\w)(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?!\w)
# \{%.*?%\}|\{\{.*?\}\}|\{:[^}]*\} (DOTALL), scanned in linear time: as a regex, every
# unclosed ``{%`` read the rest of the paragraph again.
_LIQUID = Alternation(
    r"\{%.*?%\}|\{\{.*?\}\}|\{:[^}]*\}",
    [
        Delimited(r"\{%.*?%\}", re.compile(r"\{%"), closed_by_string("%}")),
        Delimited(r"\{\{.*?\}\}", re.compile(r"\{\{"), closed_by_string("}}")),
        Delimited(r"\{:[^}]*\}", re.compile(r"\{:"), closed_by_string("}")),
    ],
)
LIQUID = _LIQUID  # also what code_references strips from headings and link text
_SPACE_RUN = re.compile(r"\s+")


@dataclass(frozen=True)
class Sentence:
    line: int  # file line the sentence starts on
    text: str  # its inline Markdown source on one line

    @property
    def has_code(self) -> bool:
        return _CODE_SPAN.search(self.text) is not None

    @property
    def code_texts(self) -> list[str]:
        """The text of each inline code span, stripped; empty spans left out."""
        found = (match.group(2) for match in _CODE_SPAN.finditer(self.text))
        return [text.strip() for text in found if text and text.strip()]


@dataclass(frozen=True, eq=False)
class Paragraph:
    """A Markdown paragraph (list items and block quotes included)."""

    line: int  # file line of its first line
    end_line: int  # file line of its last line
    top_level: bool  # not inside a list, block quote or table
    source: str  # its inline Markdown source, stripped
    inline: Token = field(repr=False)

    def sentences(self, boundary: Boundary = "punctuation") -> list[Sentence]:
        """Its sentences, each with the file line it starts on and its source on one line.
        Punctuation inside code spans (``a.b``, ``x.ts``) never ends a sentence."""
        source = self.source
        masked = mask_code_spans(source)
        return [
            Sentence(self.line + source.count("\n", 0, start), " ".join(source[start:end].split()))
            for start, end in sentence_spans(masked, boundary)
        ]

    @cached_property
    def plain(self) -> str:
        """The source as a reader reads it: link text without URLs, no emphasis or
        backtick markers, one line. For models that were trained on plain text."""
        return plain(self.source)

    @cached_property
    def reading_text(self) -> str:
        """The rendered text a reader reads, one line: text and link text kept, images,
        inline HTML, Liquid tags and kramdown attribute lists dropped, each inline code
        span one :data:`CODE_MARK` (an identifier reads as one word)."""
        parts: list[str] = []
        for child in self.inline.children or ():
            if child.type == "text":
                parts.append(child.content)
            elif child.type == "code_inline":
                parts.append(CODE_MARK)
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
        text = _LIQUID.sub(" ", "".join(parts))
        return _SPACE_RUN.sub(" ", text).strip()

    def source_lines(self) -> Iterator[tuple[int, str]]:
        """(file line, source text) for each line of the paragraph."""
        for offset, text in enumerate(self.source.split("\n")):
            yield self.line + offset, text


def _code_mark(match: Found) -> str:
    return CODE_MARK + "x" * (match.end() - match.start() - 1)


def mask_code_spans(source: str) -> str:
    """Inline Markdown source with each code span one :data:`CODE_MARK` word of the same
    length: punctuation inside code (``a.b``, ``x.ts``) never ends a sentence, and a code
    span starts one as a capital does."""
    return _CODE_SPAN.sub(_code_mark, source)


def plain(markdown: str) -> str:
    """Inline Markdown as a reader reads it: link text without URLs, no emphasis or
    backtick markers, one line."""
    spans: list[str] = []

    def hold(match: Found) -> str:
        spans.append((match.group(2) or "").strip())
        return f"\ue000{len(spans) - 1}\ue001"

    text = _CODE_SPAN.sub(hold, markdown)  # set aside: no link or emphasis rule applies
    text = _EMPHASIS.sub(r"\2", _LINK.sub(r"\1", text))
    text = re.sub("\ue000(\\d+)\ue001", lambda m: spans[int(m.group(1))], text)
    return " ".join(text.split())


# ---------------------------------------------------------------------------- links
@dataclass(frozen=True)
class Link:
    line: int
    url: str
    kind: str  # link, image, autolink, html, liquid


# ``href``/``src`` attributes; a bound one (Vue's ``:src``, ``v-bind:href``, as VitePress
# pages write them) holds a JavaScript expression the page evaluates, not a URL.
HTML_URL = re.compile(r"""(?<![:\w.])(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
LIQUID_LINK = re.compile(r"\{%-?\s*(post_url|link)\s+(\S+?)\s*-?%\}")


def _inline_links(inline: Token, first_line: int) -> Iterator[Link]:
    line = first_line
    for child in inline.children or ():
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "link_open":
            href = str(child.attrs.get("href", ""))
            yield Link(line, href, "autolink" if child.markup == "autolink" else "link")
        elif child.type == "image":
            yield Link(line, str(child.attrs.get("src", "")), "image")
        elif child.type == "html_inline":
            yield from html_links(child.content, line)
            line += child.content.count("\n")
        # A text child's line breaks are decoded references (``&#10;``), never the
        # source's: those are softbreak and hardbreak children.


def html_links(html: str, first_line: int) -> Iterator[Link]:
    """``href`` and ``src`` attributes of raw HTML, with their file lines."""
    for match in HTML_URL.finditer(html):
        url = match.group(1) if match.group(1) is not None else match.group(2)
        yield Link(first_line + html.count("\n", 0, match.start()), url.strip(), "html")


# ----------------------------------------------------------------------------- view
class ProseView:
    """The prose of one parsed post (see the module docstring). Built by ``Post.prose``."""

    def __init__(self, post: ParsedPost) -> None:
        self._post = post
        self._lines: dict[tuple[HtmlReading, bool], tuple[tuple[int, str], ...]] = {}
        self._code_spans: dict[int, list[tuple[int, str, int]]] = {}
        self._sentence_spans: dict[tuple[int, Boundary], list[tuple[int, int]]] = {}

    @cached_property
    def paragraphs(self) -> tuple[Paragraph, ...]:
        """Every paragraph with visible source before the Related-posts line, in order:
        paragraph tokens only, so fenced code, HTML blocks, headings and tables are not
        prose, and the Related-posts block is a link list, not content."""
        post = self._post
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
            source = inline.content.strip()
            if inline.type == "inline" and source:
                end_line = post.body_start_line + token.map[1] - 1
                found.append(Paragraph(line, end_line, token.level == 0, source, inline))
        return tuple(found)

    def sentences(self, boundary: Boundary = "punctuation") -> Iterator[Sentence]:
        """Every sentence of every paragraph, in order."""
        for paragraph in self.paragraphs:
            yield from paragraph.sentences(boundary)

    @cached_property
    def _inline_blocks(self) -> tuple[tuple[int, int, str], ...]:
        """(first file line, last file line, inline source) of every block holding inline
        Markdown: paragraphs, headings and table cells (code spans stand in all three)."""
        post = self._post
        return tuple(
            (
                post.body_start_line + token.map[0],
                post.body_start_line + token.map[1] - 1,
                token.content,
            )
            for token in post.tokens
            if token.type == "inline" and token.map is not None
        )

    def section_heading(self, line: int) -> str:
        """The text of the heading whose section holds file ``line`` (the heading itself
        when the line is one; "" before the first): "Removed in v2" says what its section's
        names are."""
        found = ""
        for heading_line, text in self._headings:
            if heading_line > line:
                break
            found = text
        return found

    @cached_property
    def _headings(self) -> tuple[tuple[int, str], ...]:
        """(file line, inline text) of every heading, in order."""
        post, tokens = self._post, self._post.tokens
        return tuple(
            (post.body_start_line + token.map[0], tokens[at + 1].content)
            for at, token in enumerate(tokens)
            if token.type == "heading_open" and token.map is not None and at + 1 < len(tokens)
        )

    def column_header(self, line: int, text: str) -> str:
        """The header of the table column whose body cell on file ``line`` holds ``text``
        ("" when no such cell): a column headed "Before" or "V1" says what its cells
        are."""
        return self._column_headers.get((line, text), ("", []))[0]

    def table_headers(self, line: int, text: str) -> list[str]:
        """Every header of the table whose body cell on ``line`` holds ``text``."""
        return self._column_headers.get((line, text), ("", []))[1]

    @cached_property
    def _column_headers(self) -> dict[tuple[int, str], tuple[str, list[str]]]:
        """(file line, code span) -> its column's header and the table's headers."""
        post = self._post
        found: dict[tuple[int, str], tuple[str, list[str]]] = {}
        headers: list[str] = []
        column, in_head, row_line = 0, False, 0
        for token in post.tokens:
            if token.type == "thead_open":
                headers, in_head = [], True
            elif token.type == "thead_close":
                in_head = False
            elif token.type == "tr_open":
                column = 0
                row_line = post.body_start_line + token.map[0] if token.map else 0
            elif token.type in ("th_open", "td_open"):
                column += 1
            elif token.type == "inline" and column:
                if in_head:
                    headers.append(token.content.strip())
                elif column <= len(headers):
                    for match in _CODE_SPAN.finditer(token.content):
                        key = (row_line, match.group(2) or "")
                        found.setdefault(key, (headers[column - 1], headers))
            elif token.type == "table_close":
                headers, column = [], 0
        return found

    @cached_property
    def _blocks_by_line(self) -> dict[int, list[int]]:
        """The inline blocks (indices, in order) covering each file line: a lookup per
        code span instead of a pass over every block of the post."""
        found: dict[int, list[int]] = {}
        for index, (first, last, _) in enumerate(self._inline_blocks):
            for line in range(first, last + 1):
                found.setdefault(line, []).append(index)
        return found

    def _block_code_spans(self, index: int) -> list[tuple[int, str, int]]:
        """(file line it opens on, content, content offset) of each code span of an inline
        block, scanned once per block."""
        spans = self._code_spans.get(index)
        if spans is None:
            first, _, source = self._inline_blocks[index]
            spans = [
                (first + source.count("\n", 0, match.start()), match.group(2) or "", match.start(2))
                for match in _CODE_SPAN.finditer(source)
            ]
            self._code_spans[index] = spans
        return spans

    def _block_sentences(self, index: int, boundary: Boundary) -> list[tuple[int, int]]:
        key = (index, boundary)
        spans = self._sentence_spans.get(key)
        if spans is None:
            source = self._inline_blocks[index][2]
            spans = self._sentence_spans[key] = sentence_spans(mask_code_spans(source), boundary)
        return spans

    def code_span_sentence(
        self, line: int, text: str, boundary: Boundary = "sentence_start"
    ) -> tuple[str, int]:
        """The sentence holding the code span that opens on file ``line`` and holds
        ``text``, on one line (whitespace runs folded to one space), and the offset of
        ``text`` in it; ``("", -1)`` when no such span is found. A sentence is cut as
        :meth:`Paragraph.sentences` cuts one, inside its block (a heading and a table cell
        are blocks of their own). Each block's code spans and sentences are found once
        per view: gate 2 asks for thousands of spans per corpus."""
        for index in self._blocks_by_line.get(line, ()):
            source = self._inline_blocks[index][2]
            for opens_on, content, offset in self._block_code_spans(index):
                if opens_on != line or text not in content:
                    continue
                at = offset + content.find(text)
                for start, end in self._block_sentences(index, boundary):
                    if start <= at < end:
                        folded = _SPACE_RUN.sub(" ", source[start:end])
                        return folded, len(_SPACE_RUN.sub(" ", source[start:at]))
        return "", -1

    @cached_property
    def links(self) -> tuple[Link, ...]:
        """Every link of the body outside code (Markdown links, images, autolinks, HTML
        ``href``/``src``, Liquid ``post_url``/``link`` tags), with its file line."""
        post = self._post
        found: list[Link] = []
        for token in post.tokens:
            if token.map is None:
                continue
            start = post.body_start_line + token.map[0]
            if token.type == "inline":
                found.extend(_inline_links(token, start))
            elif token.type == "html_block":
                found.extend(html_links(token.content, start))
        # Liquid tags outside code: a tag written in a code span (a page about Jekyll's
        # tags) is text, so the lines are read with code spans blanked.
        for number, text in self.lines(html="source", urls=False):
            if "{%" not in text:
                continue
            for match in LIQUID_LINK.finditer(text):
                found.append(Link(number, f"{{% {match.group(1)} {match.group(2)} %}}", "liquid"))
        found.sort(key=lambda link: link.line)
        return tuple(found)

    def lines(self, *, html: HtmlReading, urls: bool) -> tuple[tuple[int, str], ...]:
        """(file line, text) of every body line outside fenced and indented code, inline
        code spans blanked (same length, same columns); ``urls`` blanks URLs too.

        ``html="source"`` keeps raw HTML as written (tags and all). ``html="rendered"``
        reads what a reader sees: HTML blocks, inline HTML and character references
        rendered (tags dropped, entities decoded, ``<code>``/``<pre>`` content blanked as
        code spans are); :meth:`rendered_line` is the same text with code kept, column for
        column. Built once per option set."""
        key = (html, urls)
        found = self._lines.get(key)
        if found is None:
            post = self._post
            code = post.code_lines
            rendered = html == "rendered"
            blank = blank_code_and_urls if urls else blank_code
            lines: list[tuple[int, str]] = []
            for number in range(post.body_start_line, len(post.lines) + 1):
                if number in code:
                    continue
                source = self._line_source(number, rendered)
                if not rendered:
                    lines.append((number, blank(source)))
                    continue
                text = self._rendered(number, source)[1]
                if urls and _may_hold_url(text):
                    text = _LINE_URL.sub(_spaces, text)
                lines.append((number, text))
            found = self._lines[key] = tuple(lines)
        return found

    def _line_source(self, number: int, rendered: bool) -> str:
        """Body line ``number`` with the pieces of a code span that wraps lines blanked
        first, so that the line's own scan never pairs their backtick with another on the
        line (`` ` `` ending a wrapped span, then `code` and `<a>` after it)."""
        source = self._post.lines[number - 1]
        for piece in self._wrapped_code_pieces.get(number, ()):
            at = source.find(piece)
            # Rendered, a piece holding markup would not keep its columns.
            if at >= 0 and not (rendered and ("<" in piece or "&" in piece)):
                source = source[:at] + " " * len(piece) + source[at + len(piece) :]
        return source

    @cached_property
    def _wrapped_code_pieces(self) -> dict[int, list[str]]:
        """file line -> the pieces on it of code spans that wrap onto another line (a
        line-by-line scan sees an unmatched backtick on each of their lines, so
        :meth:`lines` blanks them from here): each piece as the line writes it."""
        found: dict[int, list[str]] = {}
        for first, _, source in self._inline_blocks:
            if "`" not in source or "\n" not in source:
                continue
            for match in _CODE_SPAN.finditer(source):
                if "\n" not in match.group(0):
                    continue
                line = first + source.count("\n", 0, match.start())
                for offset, piece in enumerate(match.group(0).split("\n")):
                    if piece.strip():
                        found.setdefault(line + offset, []).append(piece.strip())
        return found

    def rendered_line(self, number: int) -> str:
        """The rendered text of body line ``number`` with its code kept: what
        ``lines(html="rendered", ...)`` blanks, column for column (a wrapped code span's
        pieces are blanked in both: they pair backticks across lines)."""
        return self._rendered(number, self._line_source(number, rendered=True))[0]

    @cached_property
    def _html_blocks(self) -> dict[int, tuple[str, str]]:
        """file line -> (rendered text, code blanked) of every line of a raw HTML block."""
        post = self._post
        found: dict[int, tuple[str, str]] = {}
        for token in post.tokens:
            if token.type != "html_block" or token.map is None:
                continue
            first = post.body_start_line + token.map[0]
            last = post.body_start_line + token.map[1] - 1
            shown = render_html(token.content)
            for offset, number in enumerate(range(first, last + 1)):
                if offset < len(shown.lines):
                    found[number] = (shown.lines[offset], shown.blanked[offset])
        return found

    def _rendered(self, number: int, source: str | None = None) -> tuple[str, str]:
        """(rendered text, code blanked) of body line ``number`` (or of ``source`` standing
        for it): an HTML block's line as HTML, any other line as Markdown whose inline HTML
        and entities are rendered outside its code spans."""
        block = self._html_blocks.get(number)
        if block is not None:
            return block
        if source is None:
            source = self._post.lines[number - 1]
        if "<" not in source and "&" not in source:
            return source, blank_code(source)
        text: list[str] = []
        blanked: list[str] = []
        position = 0
        for span in _LINE_CODE_SPAN.finditer(source):
            piece = render_html(source[position : span.start()], markdown=True).lines[0]
            code = source[span.start() : span.end()]
            text += [piece, code]
            blanked += [piece, " " * len(code)]
            position = span.end()
        piece = render_html(source[position:], markdown=True).lines[0]
        return "".join([*text, piece]), "".join([*blanked, piece])
