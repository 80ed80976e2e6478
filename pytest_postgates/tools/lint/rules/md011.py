"""MD011 (no-reversed-links): Reversed link syntax.

markdownlint 0.36.1's algorithm: ``(text)[destination]`` found by its regular expression
on each line outside code blocks, unless the match overlaps a code span.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of

_REVERSED_LINK = re.compile(r"(^|[^\\])\(([^()]+)\)\[([^\]^][^\]]*)\](?!\()")


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any(")[" in line and _REVERSED_LINK.search(line) for line in lines)


def _code_columns(document: Document) -> dict[int, set[int]]:
    """Line -> the columns (0-based, of the document line) inside code spans."""
    model = model_of(document)
    columns: dict[int, set[int]] = {}
    # where each content line starts in its document line (content lines lose the
    # container prefixes and indentation)
    shifts: dict[tuple[int, int], int] = {}
    for index, start, end in model.code:
        content = model.contents[index]
        text = content.text
        line_start = text.rfind("\n", 0, start) + 1
        while line_start < end:
            line_end = text.find("\n", line_start)
            line_end = len(text) if line_end < 0 else line_end
            piece = text[line_start:line_end]
            line = content.line_of(line_start)
            shift = shifts.get((index, line_start))
            if shift is None:
                raw = document.raw_lines[line] if line < len(document.raw_lines) else ""
                shift = shifts[index, line_start] = max(raw.find(piece), 0) if piece else 0
            low, high = max(start, line_start), min(end, line_end)
            columns.setdefault(line, set()).update(
                range(shift + low - line_start, shift + high - line_start)
            )
            line_start = line_end + 1
    return columns


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    model = model_of(document)
    code_columns: dict[int, set[int]] | None = None
    for index, line in enumerate(document.lines):
        if index in model.code_block_lines or ")[" not in line:
            continue
        for match in _REVERSED_LINK.finditer(line):
            pre, text, destination = match.group(1), match.group(2), match.group(3)
            if text.endswith("\\") or destination.endswith("\\"):
                continue
            start = match.start() + len(pre)
            if code_columns is None:
                code_columns = _code_columns(document) if model.code else {}
            covered = code_columns.get(index, set())
            if any(column in covered for column in range(start, match.end())):
                continue
            yield index, f"Reversed link syntax [{match.group(0)[len(pre) :]}]"
