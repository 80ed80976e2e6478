"""MD023 (heading-start-left): Headings must start at the beginning of the line.

markdownlint 0.36.1's algorithm: a heading whose first line has blanks before it beyond its
containers' prefixes (micromark's ``linePrefix`` right before the heading: inside a
block quote the one blank after ``>`` belongs to the quote, inside a list item its
content indentation belongs to the item).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import strip_containers, walk_containers

MESSAGE = "Headings must start at the beginning of the line"


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any(
        line[:1] in (" ", "\t", ">") or line[:1].isdigit() or line[:1] in "*+-" for line in lines
    )


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    raw = document.raw_lines
    for token, containers in walk_containers(document.tokens, raw):
        if token.type != "heading_open" or token.map is None:
            continue
        start = token.map[0]
        rest, _, _ = strip_containers(raw[start], containers, start)
        if rest[:1] in (" ", "\t"):
            yield start, f'{MESSAGE} [Context: "{document.lines[start].strip()}"]'
