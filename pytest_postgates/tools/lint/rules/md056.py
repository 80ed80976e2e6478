"""MD056 (table-column-count): Table column count.

markdownlint 0.36.1's algorithm: every row of a GFM table (the delimiter row included) has as
many cells as its header row. Cells are counted as micromark's table extension divides
the row (see ``table_cells``): markdown-it pads and cuts rows to the header's width, so
the row's text is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import (
    strip_containers,
    table_cells,
    walk_containers,
)

MESSAGE = "Table column count"


def cell_count(row: str) -> int:
    """The cells of a table row's text (containers' prefixes taken off)."""
    return len(table_cells(row))


_DIRECTIVE_OPEN = re.compile(r"[ \t>]*(:{3,})[A-Za-z]")
_DIRECTIVE_CLOSE = re.compile(r"(:{3,})[ \t]*$")


def _first_directive(raw: Sequence[str]) -> tuple[int, int] | None:
    """(line, colons) of the first container directive's opening fence, if any."""
    for index, line in enumerate(raw):
        opening = _DIRECTIVE_OPEN.match(line)
        if opening:
            return index, len(opening.group(1))
    return None


def _closes_directive(opening: tuple[int, int] | None, index: int, text: str) -> bool:
    """Whether a row's text is the closing fence of a container directive opened above
    (micromark's directive extension ends the table, and the container, there)."""
    close = _DIRECTIVE_CLOSE.match(text)
    return (
        close is not None
        and opening is not None
        and opening[0] < index
        and opening[1] <= len(close.group(1))
    )


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("|" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    raw = document.raw_lines
    expected = 0
    header = False
    directive = _first_directive(raw) if any(":::" in line for line in raw) else None
    for token, containers in walk_containers(document.tokens, raw):
        if token.type == "table_open":
            expected, header = 0, True
            continue
        if token.type != "tr_open" or token.map is None:
            continue
        rows = [token.map[0]]
        if header:  # the delimiter row follows the header row
            rows.append(token.map[0] + 1)
            header = False
        for index in rows:
            text, _, _ = strip_containers(raw[index], containers, index)
            if _closes_directive(directive, index, text):
                break
            actual = cell_count(text)
            expected = expected or actual
            if actual < expected:
                detail = "Too few cells, row will be missing data"
            elif actual > expected:
                detail = "Too many cells, extra data will be missing"
            else:
                continue
            yield index, f"{MESSAGE} [Expected: {expected}; Actual: {actual}; {detail}]"
