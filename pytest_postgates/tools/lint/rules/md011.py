"""MD011 (no-reversed-links): Reversed link syntax.

markdownlint 0.36.1's algorithm: ``(text)[destination]`` found by its regular expression
on each line outside code blocks, unless the match overlaps a code span.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.micromark import model_of

_REVERSED_LINK = re.compile(r"(^|[^\\])\(([^()]+)\)\[([^\]^][^\]]*)\](?!\()")


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any(")[" in line and _REVERSED_LINK.search(line) for line in lines)


def _code_columns(document: Any) -> dict[int, set[int]]:
    """Line -> the columns (0-based, of the document line) inside code spans."""
    model = model_of(document)
    columns: dict[int, set[int]] = {}
    for index, start, end in model.code:
        content = model.contents[index]
        text = content.text
        for offset in range(start, end):
            if text[offset] == "\n":
                continue
            line = content.line_of(offset)
            line_start = text.rfind("\n", 0, offset) + 1
            line_end = text.find("\n", offset)
            piece = text[line_start : line_end if line_end >= 0 else len(text)]
            raw = document.raw_lines[line] if line < len(document.raw_lines) else ""
            shift = raw.find(piece) if piece else 0
            columns.setdefault(line, set()).add(max(shift, 0) + offset - line_start)
    return columns


def check(document: Any, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
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
