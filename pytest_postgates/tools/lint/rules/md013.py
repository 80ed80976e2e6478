"""MD013 (line-length): Line length.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document, code_spans, line_ranges, replace_spans


def _utf16_length(line: str) -> int:
    """The line's length as JavaScript counts it (UTF-16 code units)."""
    return len(line) if line.isascii() else len(line.encode("utf-16-le")) // 2


def _beyond(line: str, limit: int) -> str:
    """What follows the first ``limit`` UTF-16 code units of ``line``."""
    if line.isascii():
        return line[limit:]
    units = 0
    for index, char in enumerate(line):
        if units >= limit:
            return line[index:]
        units += 2 if ord(char) > 0xFFFF else 1
    return ""


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD013: a line longer (in UTF-16 units) than the limit for its kind
    (code block, heading, other), with whitespace beyond the limit unless strict or stern;
    tables, code blocks and headings exempt where their option is false; link reference
    definitions exempt; unless strict, lines of links only (and, stern, lines of one word)
    exempt."""

    def number(key: str, default: int) -> int:
        value = options.get(key)
        try:
            return int(value) if value else default
        except (TypeError, ValueError):
            return default

    line_length = number("line_length", 80)
    heading_length = number("heading_line_length", line_length)
    code_length = number("code_block_line_length", line_length)
    strict = bool(options.get("strict"))
    stern = bool(options.get("stern"))

    def included(key: str) -> bool:
        value = options.get(key)
        return True if value is None else bool(value)

    include_code, include_tables = included("code_blocks"), included("tables")
    include_headings = included("headings")
    lines = document.lines
    shortest = min(line_length, heading_length, code_length)
    candidates = [i for i, line in enumerate(lines) if _utf16_length(line) > shortest]
    if not candidates:
        return
    plain = (
        line_length == heading_length == code_length
        and include_code
        and include_tables
        and include_headings
    )
    headings: set[int] = set()
    code: set[int] = set()
    tables: set[int] = set()
    if not plain:
        tokens = document.tokens
        headings = line_ranges(tokens, ("heading_open",))
        code = line_ranges(tokens, ("fence", "code_block"))
        tables = line_ranges(tokens, ("table_open",))
    definitions: set[int] | None = None
    for index in candidates:
        line = lines[index]
        in_code, is_heading = index in code, index in headings
        if (not include_code and in_code) or (not include_tables and index in tables):
            continue
        if not include_headings and is_heading:
            continue
        limit = code_length if in_code else heading_length if is_heading else line_length
        rest = _beyond(line, limit)
        if not rest or (not (strict or stern) and not re.search(r"\s", rest)):
            continue
        if definitions is None:
            definitions = _definition_lines(lines)
        if index in definitions:
            continue
        if not strict and ((stern and STERN_EXEMPT.match(line)) or link_only(line)):
            continue
        yield index, f"Line length [Expected: {limit}; Actual: {_utf16_length(line)}]"


STERN_EXEMPT = re.compile(r"^(?:[#>\s]*\s)?\S*$")
DEFINITION = re.compile(r"^ {0,3}\[(?:[^\]\\]|\\.)+\]:")
_DEFINITION_ONLY_LABEL = re.compile(r"^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*$")
_TITLE_START = re.compile(r"^[ \t]*[\"'(]")


def _definition_lines(lines: Sequence[str]) -> set[int]:
    """Line indices of link reference definitions, their continuation lines included (a
    label alone on its line takes the destination from the next one; a title may follow
    on the line after the destination), as markdownlint's definitionLineIndices hold."""
    found: set[int] = set()
    for index, line in enumerate(lines):
        if not DEFINITION.match(line):
            continue
        found.add(index)
        following = index + 1
        label_only = _DEFINITION_ONLY_LABEL.match(line) and following < len(lines)
        if label_only and lines[following].strip():
            found.add(following)
            following += 1
        if following < len(lines) and _TITLE_START.match(lines[following]):
            found.add(following)
    return found


# Each part stops at the next opening character of its own kind ("[", "(", "<"), so no
# attempt rescans what a later attempt will scan (linear on "[[[[" or "<a:<a:<a:").
_LINKISH = re.compile(
    r"!?\[[^\[\]]*\]\([^()]*\)|!?\[[^\[\]]*\]\[[^\[\]]*\]|<[a-z][a-z0-9+.-]*:[^<>\s]*>"
    r"|https?://\S+|www\.\S+",
    re.I,
)
_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")

_DELIMITER_RUN = re.compile(r"\*+|_+|~~+")


def _without_emphasis(text: str) -> str:
    """``text`` without its emphasis (markers and what they enclose), paired in one pass
    with a stack per marker character: a run followed by a non-blank may open, a run after
    a non-blank closes the nearest open run of its character (and whatever opened inside
    it). Linear, unlike removing ``*...*`` pairs with a regex until none is left."""
    stacks: dict[str, list[int]] = {"*": [], "_": [], "~": []}
    opened: list[tuple[str, int]] = []  # every open run, innermost last
    spans: list[tuple[int, int]] = []
    for match in _DELIMITER_RUN.finditer(text):
        start, end = match.span()
        char = text[start]
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if stacks[char] and not before.isspace():
            opener = stacks[char][-1]
            while opened and opened[-1][1] >= opener:
                other, _ = opened.pop()
                stacks[other].pop()
            spans.append((opener, end))
        elif not after.isspace():
            stacks[char].append(start)
            opened.append((char, start))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    kept: list[str] = []
    last = 0
    for start, end in merged:
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    return "".join(kept)


def link_only(line: str) -> bool:
    """An approximation of markdownlint's "link-only line": it has a link, image or
    autolink and no text directly in a paragraph. Heading and table lines have none at
    all; text inside emphasis or code spans is not direct either."""
    line = replace_spans(line, code_spans(line, escapes=False), blank=False)
    if not _LINKISH.search(line):
        return False
    if _HEADING_LINE.match(line) or line.strip().startswith("|"):
        return True
    body = re.sub(r"^(?:[>\s]*(?:[*+-]|\d{1,9}[.)])?\s+)*", "", line)
    # Emphasis markers left around removed links enclose no text of the paragraph.
    return not _without_emphasis(_LINKISH.sub("", body)).strip(" \t*_~")
