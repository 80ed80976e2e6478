"""MD020 (no-missing-space-closed-atx): No space inside hashes on closed atx style heading.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import JS_SPACE, Document, block_lines


def _closed_atx(line: str) -> tuple[str, str, bool] | None:
    """markdownlint's MD020 pattern, linear: (left blanks, right blanks, escaped closing)
    of a closed-looking ATX line (``#...`` content without ``#`` ``#...``), else None."""
    if not line.startswith("#"):
        return None
    text = line.rstrip(JS_SPACE)
    closing = len(text) - len(text.rstrip("#"))
    if closing == 0:
        return None
    start = len(text) - closing
    escaped = start > 0 and text[start - 1] == "\\"
    if escaped and closing < 2:
        return None
    middle_end = start - 1 if escaped else start
    opening = len(text) - len(text.lstrip("#"))
    if opening >= middle_end:
        return None
    middle = text[opening:middle_end]
    content = middle.strip(" \t")
    if not content or "#" in content or content.endswith("\\"):
        return None
    left = middle[: len(middle) - len(middle.lstrip(" \t"))]
    right = middle[len(middle.rstrip(" \t")) :]
    return left, right, escaped


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    lines = document.lines
    candidates = []
    for index, line in enumerate(lines):
        shape = _closed_atx(line)
        if shape is not None and (not shape[0] or not shape[1] or shape[2]):
            candidates.append(index)
    if not candidates:
        return
    ignored = block_lines(document.tokens, ("fence", "code_block", "html_block"))
    for index in candidates:
        if index not in ignored:
            yield (
                index,
                (
                    "No space inside hashes on closed atx style heading "
                    f'[Context: "{lines[index].strip()}"]'
                ),
            )
