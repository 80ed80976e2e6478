"""MD025 (single-title): Multiple top-level headings in the same document.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, front_matter_has_title, heading_level


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD025: a heading of the top level after one on the first line of
    the content, or any such heading when the front matter has a title."""
    level = heading_level(options)
    titled = front_matter_has_title(document, options.get("front_matter_title"))
    seen = False
    tokens = document.tokens
    for position, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None or token.tag != f"h{level}":
            continue
        if seen or titled:
            inline = tokens[position + 1]
            text = inline.content.strip() if inline.type == "inline" else ""
            yield (
                token.map[0],
                f'Multiple top-level headings in the same document [Context: "{text}"]',
            )
        elif token.map[0] == 0:
            seen = True
