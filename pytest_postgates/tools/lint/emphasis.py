"""Emphasis and strong emphasis with their source positions, for MD049 and MD050.

markdown-it's inline tokens carry no positions; markdownlint reports the line of each
micromark ``emphasisSequence`` / ``strongSequence`` and looks at the characters next to
them. The inline rules of this parser are wrapped so that every token records where in
the inline content its rule matched; a delimiter run pushes one token per character, so
the token an emphasis becomes knows its character exactly."""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document, code_spans
from pytest_postgates.tools.lint.structure import (
    Container,
    strip_containers,
    table_cells,
    walk_containers,
)

_POSITION = "postgates_position"
_END = "postgates_end"
_RULE = "postgates_rule"


def _positioned(name: str, rule: Callable[[StateInline, bool], bool]) -> Callable[..., bool]:
    def wrapped(state: StateInline, silent: bool) -> bool:
        # Pending text becomes one token when the rule pushes its first: not the rule's.
        start, count = state.pos, len(state.tokens) + (1 if state.pending else 0)
        matched = rule(state, silent)
        if matched and not silent:
            for offset, token in enumerate(state.tokens[count:]):
                if _POSITION not in token.meta:
                    # A delimiter run is one token per character, in order.
                    token.meta[_POSITION] = start + offset if name == "emphasis" else start
                    token.meta[_END] = start + offset + 1 if name == "emphasis" else state.pos
                    token.meta[_RULE] = name
        return matched

    return wrapped


def _parser() -> MarkdownIt:
    # No text_join: escapes and entities stay tokens of their own, as in micromark.
    md = MarkdownIt("commonmark").disable("text_join")
    for rule in md.inline.ruler.__rules__:
        rule.fn = _positioned(rule.name, rule.fn)
    md.inline.ruler.__cache__ = None
    return md


_PARSER = _parser()
# A document's inline parses by content: MD049 and MD050 read the same parse (one looks
# for emphasis, the other for strong emphasis), so it is made once.
_PARSES: weakref.WeakKeyDictionary[Document, dict[str, list[Token]]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Sequence:
    line: int  # line index in the document
    before: str  # the character before the opening sequence ("" at the start)
    after: str  # the character after the closing sequence ("" at the end)
    markup: str
    close_line: int


def _without_math(content: str) -> str:
    """Inline math (micromark's math extension: ``$...$`` paired like code spans, unless
    it starts inside a code span) made a code span of the same length, so that its markers
    are no emphasis."""
    if "$" not in content:
        return content
    code = code_spans(content)
    pieces: list[str] = []
    last = 0
    pointer = 0  # both lists are sorted: one sweep
    for start, end in code_spans(content, char="$"):
        while pointer < len(code) and code[pointer][1] <= start:
            pointer += 1
        if pointer < len(code) and code[pointer][0] <= start:
            continue
        pieces.append(content[last:start])
        span = content[start:end]
        ticks = len(span) - len(span.lstrip("$"))
        closing = len(span) - len(span.rstrip("$"))
        inner = re.sub(r"[^\n]", "x", span[ticks : len(span) - closing])
        pieces.append("`" * ticks + inner + "`" * closing)
        last = end
    pieces.append(content[last:])
    return "".join(pieces)


def emphasis(document: Document, strong: bool) -> Iterator[Sequence]:
    """Every emphasis (or, with ``strong``, strong emphasis) outside code and HTML
    blocks, in document order of its opening sequence. The cells of a table row beyond
    its header's count, which markdown-it drops, are read as micromark reads them."""
    raw = document.raw_lines
    parses = _PARSES.setdefault(document, {})
    columns = 0
    row: tuple[int, list[Container]] | None = None
    for block, containers in walk_containers(document.tokens, raw):
        if block.type == "table_open":
            columns = 0
        elif block.type == "th_open":
            columns += 1
        elif block.type == "tr_open" and block.map is not None:
            row = (block.map[0], list(containers))
        elif block.type == "tr_close" and row is not None:
            index, around = row
            text, _, _ = strip_containers(raw[index], around, index)
            for cell in table_cells(text)[columns:]:
                yield from _sequences(cell.strip(), index, strong, document.env, parses)
            row = None
        elif block.type == "inline" and block.map is not None:
            yield from _sequences(block.content, block.map[0], strong, document.env, parses)


def _sequences(
    content: str,
    first_line: int,
    strong: bool,
    env: dict[str, Any],
    parses: dict[str, list[Token]],
) -> Iterator[Sequence]:
    if "*" not in content and "_" not in content:
        return
    opening = "strong_open" if strong else "em_open"
    closing = "strong_close" if strong else "em_close"
    width = 2 if strong else 1
    source = _without_math(content)
    children = parses.get(source)
    if children is None:
        children = parses[source] = _PARSER.parseInline(source, env)[0].children or []
    stack: list[tuple[int, Token]] = []
    found: list[tuple[Token, Token]] = []
    for child in _flatten(children):
        if child.type == opening:
            stack.append((len(found), child))
            found.append((child, child))
        elif child.type == closing and stack:
            slot, opener = stack.pop()
            found[slot] = (opener, child)
    breaks = [index for index, char in enumerate(source) if char == "\n"]
    for opener, closer in found:
        start = _start_of(opener, strong)
        end = _start_of(closer, False) + width  # a closer's token is its first char
        before = source[start - 1] if start > 0 else ""
        after = source[end] if end < len(source) else ""
        yield Sequence(
            first_line + bisect_left(breaks, start),
            before,
            after,
            opener.markup,
            first_line + bisect_left(breaks, end),
        )


def positioned_children(content: str, env: dict[str, Any]) -> list[Token]:
    """The inline tokens of one block's content, each (but pending text) with the
    offsets where its rule started and ended (:func:`position`)."""
    return _PARSER.parseInline(content, env)[0].children or []


def position(token: Token) -> tuple[int, int] | None:
    """(start, end) offsets in the inline content of a token's source, if recorded."""
    if _POSITION not in token.meta:
        return None
    return int(token.meta[_POSITION]), int(token.meta.get(_END, token.meta[_POSITION]))


def _start_of(token: Token, strong_opener: bool) -> int:
    position: Any = token.meta.get(_POSITION, 0)
    # markdown-it makes the inner character of an opening pair the strong_open token.
    return int(position) - (1 if strong_opener else 0)


def _flatten(children: list[Token]) -> Iterator[Token]:
    for child in children:
        yield child
        if child.children:
            yield from _flatten(child.children)
