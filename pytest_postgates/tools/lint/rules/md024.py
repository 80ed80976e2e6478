"""MD024 (no-duplicate-heading): Multiple headings with the same content.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    tokens = document.tokens
    siblings_only = bool(options.get("siblings_only"))
    known: dict[int, list[str]] = {1: []}
    last_level = 1
    seen = known[1]
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        inline = tokens[index + 1]
        text = re.sub(r"[\r\n]+", " ", inline.content) if inline.type == "inline" else ""
        if siblings_only:
            level = int(token.tag[1])
            while last_level < level:
                last_level += 1
                known[last_level] = []
            while last_level > level:
                known[last_level] = []
                last_level -= 1
            seen = known[level]
        if text in seen:
            yield (
                token.map[0],
                f'Multiple headings with the same content [Context: "{text.strip()}"]',
            )
        else:
            seen.append(text)
