"""MD022 (blanks-around-headings): Headings should be surrounded by blank lines.

markdownlint 0.36.1's algorithm: ``lines_above`` blank lines before each heading's first line
and ``lines_below`` after its last (a number, or one per level from h1; -1 switches a
side off), counted up to the number wanted; blank as markdownlint's isBlankLine (a
``>``-only line is blank).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import (
    Heading,
    headings,
    is_blank_line,
)

MESSAGE = "Headings should be surrounded by blank lines"


def _number(value: Any) -> float:
    """JavaScript's Number() for the values a configuration holds (NaN for the rest)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if value is None:
        return 0.0
    if isinstance(value, str):
        try:
            return float(value.strip() or 0)
        except ValueError:
            return float("nan")
    return float("nan")


def _lines_for(setting: Any) -> Callable[[Heading], float]:
    if isinstance(setting, list):
        per_level = [1.0] * 6
        for index, value in enumerate(setting[:6]):
            per_level[index] = _number(value)
        return lambda heading: per_level[heading.level - 1]
    count = 1.0 if setting is None else _number(setting)
    return lambda heading: count


def _format(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _blanks(lines: Sequence[str], index: int, step: int, wanted: float) -> float:
    """markdownlint's count of blank lines from ``index`` on (``step`` -1: upward), up to
    ``wanted``; past the file's edge every line counts as blank (``lines[-1]`` is
    undefined), so the count is ``wanted`` there, without walking that far."""
    actual = 0
    while actual < wanted:
        if not 0 <= index < len(lines):
            return wanted
        if not is_blank_line(lines[index]):
            break
        actual += 1
        index += step
    return actual


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("#" in line or line.lstrip(" >").startswith(("=", "-")) for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    above_for = _lines_for(options.get("lines_above"))
    below_for = _lines_for(options.get("lines_below"))
    lines = document.lines
    for heading in headings(document):
        context = lines[heading.start].strip()
        wanted = above_for(heading)
        if wanted >= 0:
            actual = _blanks(lines, heading.start - 1, -1, wanted)
            if actual != wanted:
                yield (
                    heading.start,
                    (
                        f"{MESSAGE} [Expected: {_format(wanted)}; Actual: {actual}; Above] "
                        f'[Context: "{context}"]'
                    ),
                )
        wanted = below_for(heading)
        if wanted >= 0:
            actual = _blanks(lines, heading.end + 1, 1, wanted)
            if actual != wanted:
                yield (
                    heading.start,
                    (
                        f"{MESSAGE} [Expected: {_format(wanted)}; Actual: {actual}; Below] "
                        f'[Context: "{context}"]'
                    ),
                )
