"""The text a reader sees of raw HTML in a post: tags dropped, entities decoded, comments,
scripts and styles left out, line breaks kept where they were.

Rendered text is what readers read, so a number in a ``<div>`` is a claim like one in a
paragraph and a name in ``<code>`` is a token like a backticked one. Every function keeps
the source's line structure (one output line per input line), so findings keep their file
lines. The scan is linear: each ``<`` is looked at once, and a tag ends at the first ``>``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

# Elements whose content is code: blanked where prose numbers are read (like code spans
# and fences), and the names in ``<code>`` outside ``<pre>`` are inline code tokens.
CODE_ELEMENTS = frozenset({"code", "pre"})
# Elements whose content is never shown.
HIDDEN_ELEMENTS = frozenset({"script", "style", "template"})
# Phrasing elements: dropping the tag joins the text around it ("4<b>2</b>0 ms" is 420 ms);
# any other tag separates words, as a block or a cell boundary does.
INLINE_ELEMENTS = frozenset(
    "a abbr b bdi bdo big cite code data del dfn em font i ins kbd mark q s samp small span "
    "strong sub sup time tt u var wbr".split()
)
_TAG_START = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])")
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+))""", re.IGNORECASE)
# Named and numeric character references; the trailing ``;`` is required, as CommonMark
# requires it. A Markdown backslash escape (``\&amp;``) is literal text there.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MARKDOWN_ENTITY = re.compile(r"(?<!\\)" + _ENTITY.pattern)
_NOT_NEWLINE = re.compile(r"[^\n]")


def decode_entities(text: str, *, markdown: bool = False) -> str:
    """``text`` with its character references decoded; a decoded line break is a space,
    so the text keeps its lines."""
    if "&" not in text:
        return text
    pattern = _MARKDOWN_ENTITY if markdown else _ENTITY
    return pattern.sub(_decoded, text)


def _decoded(match: re.Match[str]) -> str:
    return html.unescape(match.group(0)).replace("\n", " ").replace("\r", " ")


def _newlines(markup: str) -> str:
    return "\n" * markup.count("\n")


@dataclass
class _Renderer:
    """Walks raw HTML once, writing two texts of equal length line for line: ``text`` (code
    kept) and ``blanked`` (code element content as spaces)."""

    markdown: bool = False
    text: list[str] = field(default_factory=list)
    blanked: list[str] = field(default_factory=list)
    code_depth: int = 0
    anchors: list[str | None] = field(default_factory=list)
    code_elements: list[tuple[int, str]] = field(default_factory=list)  # (offset, text)
    _open_code: list[tuple[int, int]] = field(default_factory=list)  # (offset, text index)
    _pre_depth: int = 0
    # Where a search for a closing marker ran to the end without one: no later search for
    # the same marker can find one either, so none is made again (linear time).
    _unclosed: dict[str, int] = field(default_factory=dict)

    def find(self, source: str, marker: str, start: int) -> int:
        """``source.find(marker, start)``, never searching the same tail twice in vain."""
        if start >= self._unclosed.get(marker, len(source) + 1):
            return -1
        found = source.find(marker, start)
        if found < 0:
            self._unclosed[marker] = start
        return found

    def find_end_tag(self, source: str, name: str, start: int) -> re.Match[str] | None:
        key = f"</{name}"
        if start >= self._unclosed.get(key, len(source) + 1):
            return None
        found = re.compile(rf"</{name}\s*>", re.IGNORECASE).search(source, start)
        if found is None:
            self._unclosed[key] = start
        return found

    def emit(self, piece: str, *, code: bool | None = None) -> None:
        in_code = self.code_depth > 0 if code is None else code
        self.text.append(piece)
        self.blanked.append(_NOT_NEWLINE.sub(" ", piece) if in_code else piece)

    def emit_text(self, raw: str) -> None:
        if raw:
            self.emit(decode_entities(raw, markdown=self.markdown))

    def run(self, source: str) -> None:
        position = 0
        length = len(source)
        while position < length:
            opening = source.find("<", position)
            if opening < 0:
                self.emit_text(source[position:])
                return
            if self.markdown and opening > 0 and source[opening - 1] == "\\":
                self.emit_text(source[position : opening + 1])
                position = opening + 1
                continue
            self.emit_text(source[position:opening])
            position = self._markup(source, opening)

    def _markup(self, source: str, at: int) -> int:
        """Consume the markup at ``source[at] == "<"``; the offset after it."""
        if source.startswith("<!--", at):
            end = self.find(source, "-->", at + 4)
            if end < 0 and self.markdown:  # not HTML to markdown-it on this line: text
                self.emit_text("<")
                return at + 1
            stop = len(source) if end < 0 else end + 3
            self.emit(_newlines(source[at:stop]), code=False)
            return stop
        if source.startswith(("<!", "<?"), at):
            end = self.find(source, ">", at)
            if end < 0:
                self.emit_text(source[at:])
                return len(source)
            self.emit(_newlines(source[at : end + 1]), code=False)
            return end + 1
        tag = _TAG_START.match(source, at)
        end = self.find(source, ">", at) if tag else -1
        if tag is None or end < 0:
            self.emit_text("<")
            return at + 1
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        markup = source[at : end + 1]
        self_closing = markup.endswith("/>")
        if name in HIDDEN_ELEMENTS and not closing and not self_closing:
            found = self.find_end_tag(source, name, end + 1)
            # A Markdown line is read alone: what follows an unclosed element there is
            # read, not assumed hidden.
            if found is not None or not self.markdown:
                stop = len(source) if found is None else found.end()
                self.emit(_newlines(source[at:stop]), code=False)
                return stop
        spacer = "" if name in INLINE_ELEMENTS else " "
        if name == "a":
            spacer = self._anchor(markup, closing)
        elif name in CODE_ELEMENTS and not self_closing:
            self._code(name, closing, at)
        self.emit(spacer + _newlines(markup), code=False)
        return end + 1

    def _anchor(self, markup: str, closing: bool) -> str:
        """An ``<a href>`` reads as a Markdown link, so that a number beside it is cited as
        one beside ``[text](url)`` is."""
        if closing:
            href = self.anchors.pop() if self.anchors else None
            return "" if href is None else f"]({href})"
        if self.code_depth:  # a link inside code is code: no Markdown around it
            self.anchors.append(None)
            return ""
        found = _HREF.search(markup)
        href = None if found is None else next(g for g in found.groups() if g is not None)
        self.anchors.append(href.replace(")", "%29").replace("\n", "") if href else None)
        return "" if not href else "["

    def _code(self, name: str, closing: bool, at: int) -> None:
        if not closing:
            self.code_depth += 1
            self._pre_depth += name == "pre"
            if name == "code" and not self._pre_depth:
                self._open_code.append((at, len(self.text) + 1))
            return
        if self.code_depth:
            self.code_depth -= 1
        if name == "pre":
            self._pre_depth = max(0, self._pre_depth - 1)
        elif self._open_code:
            offset, index = self._open_code.pop()
            if not self._open_code:  # the outermost element: its text is read once
                self.code_elements.append((offset, "".join(self.text[index:])))


@dataclass(frozen=True)
class Rendered:
    """Rendered HTML, one entry per source line: ``lines`` with code kept and ``blanked``
    with the content of code elements blanked (same length as ``lines``, line for line)."""

    lines: tuple[str, ...]
    blanked: tuple[str, ...]


def render(source: str, *, markdown: bool = False) -> Rendered:
    """The rendered text of raw HTML (an HTML block, or with ``markdown`` a Markdown prose
    line whose inline HTML and entities are rendered the way markdown-it renders them)."""
    renderer = _Renderer(markdown=markdown)
    renderer.run(source)
    lines = "".join(renderer.text).split("\n")
    blanked = "".join(renderer.blanked).split("\n")
    return Rendered(tuple(lines), tuple(blanked))


def code_elements(source: str) -> Iterator[tuple[int, str]]:
    """(line offset in ``source``, rendered text on one line) of each ``<code>`` element of
    raw HTML that is not inside ``<pre>`` (a ``<pre>`` block is code, as a fence is)."""
    renderer = _Renderer()
    renderer.run(source)
    for offset, text in sorted(renderer.code_elements):
        yield source.count("\n", 0, offset), " ".join(text.split())
