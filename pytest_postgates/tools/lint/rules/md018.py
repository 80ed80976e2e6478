"""MD018 (no-missing-space-atx): No space after hash on atx style heading.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import JS_SPACE, Document, block_lines


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD018, line by line outside code and HTML blocks: ``#`` then
    anything but a blank or ``#``, on a line not ending in ``#``."""
    lines = document.lines
    candidates = [
        i
        for i, line in enumerate(lines)
        if line.startswith("#")
        and line.lstrip("#")[:1] not in ("", " ", "\t")
        and not line.rstrip(JS_SPACE).endswith("#")
        and not line.startswith("#\ufe0f\u20e3")
    ]
    if not candidates:
        return
    ignored = block_lines(document.tokens, ("fence", "code_block", "html_block"))
    for index in candidates:
        if index not in ignored:
            yield (
                index,
                f'No space after hash on atx style heading [Context: "{lines[index].strip()}"]',
            )
