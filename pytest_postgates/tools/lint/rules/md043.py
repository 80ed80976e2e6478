"""MD043 (required-headings): Required heading structure.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD043: the headings, as ``## Text``, follow the required list, where
    ``*`` matches any number of headings and ``+`` one or more; a missing required heading
    is reported on the last line."""
    required = options.get("headings")
    if not isinstance(required, list):
        return  # unset (markdownlint's default): nothing required; [] requires no heading
    match_case = bool(options.get("match_case"))

    def fold(text: Any) -> str:
        return str(text) if match_case else str(text).lower()

    position = 0
    any_match = False
    any_headings = False

    def expected_next() -> Any:
        nonlocal position
        value = required[position] if position < len(required) else None
        position += 1
        return value or "[None]"

    tokens = document.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        inline = tokens[index + 1]
        text = re.sub(r"[\r\n]+", " ", inline.content).strip() if inline.type == "inline" else ""
        actual = "#" * int(token.tag[1]) + " " + text
        any_headings = True
        expected = expected_next()
        if expected == "*":
            if fold(expected_next()) != fold(actual):
                any_match = True
                position -= 1
        elif expected == "+":
            any_match = True
        elif fold(expected) == fold(actual):
            any_match = False
        elif any_match:
            position -= 1
        else:
            yield (
                token.map[0],
                f"Required heading structure [Expected: {expected}; Actual: {actual}]",
            )
            return
    extra = len(required) - position
    if (extra > 1 or (extra == 1 and required[position] != "*")) and (
        any_headings or not all(heading == "*" for heading in required)
    ):
        yield (
            len(document.lines) - 1,
            f'Required heading structure [Context: "{required[position]}"]',
        )
