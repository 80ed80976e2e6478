"""MD032 (blanks-around-lists): Lists should be surrounded by blank lines.

markdownlint 0.36.1's algorithm: each list not inside another list (lists in block quotes
count) has a blank line (markdownlint's isBlankLine) before its first line and after its
last line with content.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import (
    content_end,
    is_blank_line,
    line_at,
    lists,
)

MESSAGE = "Lists should be surrounded by blank lines"


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    lines = document.lines
    for block in lists(document):
        if block.nested:
            continue
        if not is_blank_line(line_at(lines, block.start - 1)):
            yield block.start, f'{MESSAGE} [Context: "{_context(lines[block.start])}"]'
        end = content_end(document.raw_lines, block.start, block.after)
        if not is_blank_line(line_at(lines, end + 1)):
            yield end, f'{MESSAGE} [Context: "{_context(lines[end])}"]'


def _context(line: str) -> str:
    text = line.strip()
    return text if len(text) <= 30 else text[:30] + "..."
