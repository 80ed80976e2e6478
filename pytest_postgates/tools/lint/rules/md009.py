"""MD009 (no-trailing-spaces): Trailing spaces.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import JS_SPACE, Document, code_spans


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD009: trailing whitespace other than exactly ``br_spaces`` spaces
    (a hard break; strict: only at the end of a paragraph's inner lines, never in a code
    span), outside code blocks (a fence's own lines count) and, with
    ``list_item_empty_lines``, outside lists except their items' trailing blank lines."""
    br_spaces = options.get("br_spaces")
    try:
        br = int(2 if br_spaces is None else br_spaces)
    except (TypeError, ValueError):
        br = 2
    expected = 0 if br < 2 else br
    strict = bool(options.get("strict"))
    list_lines = bool(options.get("list_item_empty_lines"))
    lines = document.lines
    candidates = []
    for index, line in enumerate(lines):
        trailing = len(line) - len(line.rstrip(JS_SPACE))
        if trailing and (strict or trailing != expected):
            candidates.append((index, trailing))
    if not candidates:
        return
    tokens = document.tokens
    code: set[int] = set()
    for token in tokens:
        if token.map is None:
            continue
        if token.type == "fence":
            code.update(range(token.map[0] + 1, token.map[1] - 1))
        elif token.type == "code_block":
            code.update(range(*token.map))
    in_lists: set[int] = set()
    if list_lines:
        for token in tokens:
            if token.type in ("bullet_list_open", "ordered_list_open") and token.map:
                in_lists.update(range(*token.map))
        for token in tokens:
            if token.type == "list_item_open" and token.map:
                last = token.map[1] - 1
                while last > token.map[0] and not lines[last].strip():
                    in_lists.discard(last)  # an item's trailing blank lines are checked
                    last -= 1
    paragraph: set[int] = set()
    code_spans_at: set[int] = set()
    if strict:
        for token in tokens:
            if token.type == "paragraph_open" and token.map:
                paragraph.update(range(token.map[0], token.map[1] - 1))
            elif token.type == "inline" and token.map and "`" in token.content:
                first = token.map[0]
                for start, end in code_spans(token.content):
                    top = first + token.content.count("\n", 0, start)
                    bottom = first + token.content.count("\n", 0, end)
                    code_spans_at.update(range(top, bottom))
    for index, trailing in candidates:
        if index in code or index in in_lists:
            continue
        if trailing == expected and not (
            strict and (index not in paragraph or index in code_spans_at)
        ):
            continue
        lead = "" if expected == 0 else "0 or "
        yield index, f"Trailing spaces [Expected: {lead}{expected}; Actual: {trailing}]"
