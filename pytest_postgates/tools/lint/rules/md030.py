"""MD030 (list-marker-space): Spaces after list markers.

markdownlint 0.36.1's algorithm: the blanks after each list marker (the ones that belong to it:
1-4, or 1 before indented code) number ``ul_single`` / ``ol_single`` when every item of
the list is one line (as many lines as items), else ``ul_multi`` / ``ol_multi``. A list
ends as micromark ends it: a non-empty blank line after its last item counts as one of
its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import (
    list_end,
    lists,
    marker_spaces,
)

MESSAGE = "Spaces after list markers"


def _setting(options: Mapping[str, Any], name: str) -> float:
    value = options.get(name)
    if not value:
        return 1.0  # Number(value || 1)
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def _format(value: float) -> str:
    return str(int(value)) if value == value and value == int(value) else str(value)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    raw = document.raw_lines
    for block in lists(document):
        end = list_end(raw, block)
        single = end - block.start + 1 == len(block.items)
        if block.ordered:
            expected = _setting(options, "ol_single" if single else "ol_multi")
        else:
            expected = _setting(options, "ul_single" if single else "ul_multi")
        for index, containers in block.items:
            actual = marker_spaces(raw[index], containers, index)
            if actual is not None and actual != expected:
                yield index, f"{MESSAGE} [Expected: {_format(expected)}; Actual: {actual}]"
