"""What markdownlint's micromark tokens tell its block, heading and list rules, read from
markdown-it's block tokens and the lines: headings (level, style, first and last line),
the container prefixes of a line (micromark's ``blockQuotePrefix`` and list indentation:
what is left is the ``linePrefix``), and markdownlint's ``isBlankLine``.

The rules that use it (MD001, MD003, MD022, MD023, MD030, MD032, MD049, MD050, MD056)
read markdown-it's block tokens of the raw text, where HTML blocks are opaque as
markdownlint's default token filter leaves them."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document


def is_blank_line(line: str | None) -> bool:
    """markdownlint's isBlankLine: nothing, blanks, or only ``>`` and blanks once HTML
    comments (matched or not) are taken out."""
    if not line or not line.strip():
        return True
    while True:
        start, end = line.find("<!--"), line.find("-->")
        if end != -1 and (start == -1 or end < start):
            line = line[end + 3 :]
        elif start != -1 and end != -1:
            line = line[:start] + line[end + 3 :]
        elif start != -1:
            line = line[:start]
        else:
            break
    return not line.replace(">", "").strip()


def line_at(lines: Sequence[str], index: int) -> str | None:
    """``lines[index]`` as JavaScript reads an array: nothing outside it."""
    return lines[index] if 0 <= index < len(lines) else None


# ------------------------------------------------------------------ container prefixes
@dataclass
class Container:
    """An open block quote or list item around a block: for an item, the line of its
    marker and the column its content starts at (relative to the outer containers)."""

    kind: str  # "quote" or "item"
    first_line: int
    content_column: int = -1


_QUOTE_MARKER = re.compile(r"[ ]{0,3}>")
_ITEM_MARKER = re.compile(r"[ ]{0,3}(?:[*+-]|\d{1,9}[.)])")


def _columns(text: str, start_column: int) -> list[int]:
    """The column after each leading blank of ``text`` (tabs to the next stop of 4)."""
    columns = []
    column = start_column
    for char in text:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
        columns.append(column)
    return columns


def strip_containers(
    line: str, containers: Sequence[Container], index: int
) -> tuple[str, int, bool]:
    """(the rest of ``line`` once its containers' prefixes are taken off, the column it
    starts at, whether every container's prefix was there: a lazy line lacks some)."""
    rest, column = line, 0
    for container in containers:
        if container.kind == "quote":
            match = _QUOTE_MARKER.match(rest)
            if match is None:
                return rest, column, False
            column += match.end()
            rest = rest[match.end() :]
            if rest[:1] == " ":
                rest, column = rest[1:], column + 1
            elif rest[:1] == "\t":
                # A tab after '>' gives one column to the quote; the rest stays content.
                rest, column = rest[1:], column + 1
            continue
        if index == container.first_line:
            match = _ITEM_MARKER.match(rest)
            if match is None:  # not expected: the item starts on this line
                return rest, column, False
            marker_end = column + match.end()
            after = rest[match.end() :]
            blanks = _columns(after, marker_end)
            content = column + container.content_column
            taken = 0
            while taken < len(blanks) and blanks[taken] <= content:
                taken += 1
            rest = after[taken:]
            column = blanks[taken - 1] if taken else marker_end
            continue
        width = container.content_column
        blanks = _columns(rest, column)
        taken = 0
        while taken < len(blanks) and blanks[taken] - column <= width:
            taken += 1
        reached = blanks[taken - 1] if taken else column
        rest = rest[taken:]
        if reached - column < width and rest.strip():
            return rest, reached, False  # a lazy continuation line
        column = reached
    return rest, column, True


def item_content_column(line: str, containers: Sequence[Container], index: int) -> int:
    """The column (relative to the outer containers) where the content of the list item
    whose marker is on ``line`` starts: after the marker and 1-4 blanks, or one blank
    after it when more follow (indented code) or nothing does."""
    rest, column, _ = strip_containers(line, containers, index)
    match = _ITEM_MARKER.match(rest)
    if match is None:
        return 2
    marker_end = column + match.end()
    after = rest[match.end() :]
    blanks = _columns(after, marker_end)
    padding = (blanks[-1] if blanks else marker_end) - marker_end
    if not after[len(blanks) :].strip() or padding >= 5 or padding == 0:
        return marker_end + 1 - column
    return marker_end + padding - column


def walk_containers(
    tokens: Sequence[Token], lines: Sequence[str]
) -> Iterator[tuple[Token, list[Container]]]:
    """Each token with the block quotes and list items open around it (outermost first;
    the list is shared and changes as the walk goes on: copy it to keep it)."""
    stack: list[Container] = []
    for token in tokens:
        if token.type == "blockquote_open" and token.map is not None:
            yield token, stack
            stack.append(Container("quote", token.map[0]))
            continue
        if token.type == "list_item_open" and token.map is not None:
            yield token, stack
            first = token.map[0]
            width = item_content_column(lines[first], stack, first)
            stack.append(Container("item", first, width))
            continue
        if token.type in ("blockquote_close", "list_item_close"):
            stack.pop()
        yield token, stack


# ------------------------------------------------------------------------- headings
@dataclass(frozen=True)
class Heading:
    start: int  # line index of its text (0-based)
    end: int  # line index of its last line (a setext heading's underline)
    level: int
    style: str  # "atx", "atx_closed" or "setext"
    token: Token


_ATX_OPENING = re.compile(r"[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)*(?=#)")


def atx_closed(line: str) -> bool:
    """Whether an ATX heading line has a closing sequence (micromark: a second
    ``atxHeadingSequence``): hashes at the end after a blank, or only hashes after
    the opening ones and a blank."""
    start = _ATX_OPENING.match(line)
    text = (line[start.end() :] if start else line.lstrip()).rstrip(" \t")
    opening = len(text) - len(text.lstrip("#"))
    if opening == len(text):
        return False
    closing_start = len(text.rstrip("#"))
    return closing_start > opening and text[closing_start - 1] in " \t"


# Per document, built once for the rules that read them (MD001, MD003, MD022 read the
# headings; MD030, MD032 the lists); the rules only read them.
_HEADINGS: weakref.WeakKeyDictionary[Document, list[Heading]] = weakref.WeakKeyDictionary()
_LISTS: weakref.WeakKeyDictionary[Document, list[ListBlock]] = weakref.WeakKeyDictionary()


def headings(document: Document) -> list[Heading]:
    found = _HEADINGS.get(document)
    if found is None:
        found = _HEADINGS[document] = _find_headings(document)
    return found


def _find_headings(document: Document) -> list[Heading]:
    found = []
    for token in document.tokens:
        if token.type != "heading_open" or token.map is None:
            continue
        start, after = token.map
        if token.markup.startswith("#"):
            closed = atx_closed(document.raw_lines[start])
            level = len(token.markup)
            found.append(Heading(start, start, level, "atx_closed" if closed else "atx", token))
        else:
            level = 1 if token.markup.startswith("=") else 2
            found.append(Heading(start, after - 1, level, "setext", token))
    return found


# --------------------------------------------------------------------------- lists
_LIST_OPEN = frozenset({"bullet_list_open", "ordered_list_open"})
_LIST_CLOSE = frozenset({"bullet_list_close", "ordered_list_close"})


@dataclass
class ListBlock:
    """A list (micromark's ``listOrdered`` / ``listUnordered``): its first line, the
    lines of its items' markers (with their containers), whether it is ordered, and
    whether it sits inside another list."""

    ordered: bool
    quoted: bool  # inside a block quote
    start: int
    after: int  # markdown-it's end: the line after its last, blank lines maybe included
    nested: bool
    items: list[tuple[int, list[Container]]]
    next_list: int | None = None  # the first line of a list right after it, same level


def lists(document: Document) -> list[ListBlock]:
    """Every list, outer ones first, in document order of their start."""
    found = _LISTS.get(document)
    if found is None:
        found = _LISTS[document] = _find_lists(document)
    return found


def _find_lists(document: Document) -> list[ListBlock]:
    found: list[ListBlock] = []
    open_lists: list[ListBlock] = []
    closed: ListBlock | None = None  # a list whose close was the token before
    for token, containers in walk_containers(document.tokens, document.raw_lines):
        if closed is not None and token.type in _LIST_OPEN and token.map is not None:
            closed.next_list = token.map[0]
        closed = None
        if token.type in _LIST_OPEN and token.map is not None:
            block = ListBlock(
                token.type == "ordered_list_open",
                any(container.kind == "quote" for container in containers),
                token.map[0],
                token.map[1],
                bool(open_lists),
                [],
            )
            found.append(block)
            open_lists.append(block)
        elif token.type in _LIST_CLOSE:
            closed = open_lists.pop()
        elif token.type == "list_item_open" and token.map is not None and open_lists:
            open_lists[-1].items.append((token.map[0], list(containers)))
    return found


def content_end(raw_lines: Sequence[str], start: int, after: int) -> int:
    """The last line in ``[start, after)`` with content (micromark's list ends there:
    blank lines and lines of only ``>`` markers are no content)."""
    end = min(after, len(raw_lines)) - 1
    while end > start and not raw_lines[end].replace(">", "").strip():
        end -= 1
    return end


def list_end(raw_lines: Sequence[str], block: ListBlock) -> int:
    """The last line of a list as micromark ends it: its last line with content, or a
    blank line after that which is not empty (blanks, or a quote's ``>``) before the next
    line with content (inside a block quote, only lines that carry its ``>``); when a
    list of another kind follows in the same container, with a prefix before its marker
    (indentation or ``>``), micromark closes the list only after that prefix: on the
    next list's first line."""
    following = block.next_list
    if following is not None and raw_lines[following][:1] in (" ", "\t", ">"):
        return following
    quoted = block.quoted
    end = content_end(raw_lines, block.start, block.after)
    index = end + 1
    while index < len(raw_lines):
        line = raw_lines[index]
        if line.replace(">", "").strip():
            break
        if quoted and ">" not in line:
            break
        if line:
            end = index
        index += 1
    return end


def marker_spaces(line: str, containers: Sequence[Container], index: int) -> int | None:
    """The blanks after a list item's marker that belong to the marker (micromark's
    ``listItemPrefixWhitespace``, in characters), None when the item has no content on
    its first line (no such token). ``containers``: the ones around the item."""
    content = item_content_column(line, containers, index)
    rest, column, _ = strip_containers(line, containers, index)
    match = _ITEM_MARKER.match(rest)
    if match is None:
        return None
    after = rest[match.end() :]
    if not after.strip():
        return None
    blanks = _columns(after, column + match.end())
    content += column
    taken = 0
    while taken < len(blanks) and blanks[taken] <= content:
        taken += 1
    return taken


# --------------------------------------------------------------------------- tables
def table_cells(row: str) -> list[str]:
    """The cells of a table row's text (containers' prefixes taken off) as micromark's
    table extension divides the row: at each ``|`` not escaped by ``\\`` (code spans do
    not protect a pipe), an opening and a closing pipe starting and ending no cell."""
    text = row.strip(" \t")
    cells: list[str] = []
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "|":
            cells.append(text[start:index])
            start = index + 1
        index += 1
    cells.append(text[start:])
    if len(cells) > 1 and text.startswith("|"):
        cells.pop(0)
    if len(cells) > 1 and text.endswith("|") and not text.endswith("\\|"):
        cells.pop()
    return cells
