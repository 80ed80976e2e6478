"""MD031 (blanks-around-fences): Fenced code blocks should be surrounded by blank lines.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import ANY_ORDERED, BULLET, QUOTE_PREFIX, Document
from pytest_postgates.tools.lint.structure import is_blank_line

_MD031 = "Fenced code blocks should be surrounded by blank lines"


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD031: a blank line before each fence and after its last line (the
    closing fence, or the last line a list item or quote ended it at); with
    ``list_items: false``, fences inside lists are not checked."""
    list_items = options.get("list_items")
    include_lists = True if list_items is None else bool(list_items)
    lines = document.lines
    depth = 0

    def line_at(index: int) -> str | None:
        return lines[index] if 0 <= index < len(lines) else None

    for token in document.tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "fence" and token.map is not None and (include_lists or not depth):
            start, end = token.map[0], token.map[1] - 1
            closing = QUOTE_PREFIX.sub("", line_at(end) or "").strip()
            closed = (
                end > start
                and closing.startswith(token.markup)
                and not closing.strip(token.markup[0])
            )
            following = line_at(end + 1) or ""
            if not closed and (BULLET.match(following) or ANY_ORDERED.match(following)):
                # A fence its list item ends when the next item starts is no unclosed
                # fence for micromark: it ends with that line break, on the next item.
                end += 1
            context = (line_at(start) or "").strip()
            if not is_blank_line(line_at(start - 1)):
                yield start, f'{_MD031} [Context: "{context}"]'
            last = end
            if not is_blank_line(line_at(last + 1)) and not is_blank_line(line_at(last)):
                yield last, f'{_MD031} [Context: "{(line_at(last) or "").strip()}"]'
