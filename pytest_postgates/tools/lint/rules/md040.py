"""MD040 (fenced-code-language): Fenced code blocks should have a language specified.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document

_MD040 = "Fenced code blocks should have a language specified"


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD040: every fence names a language; with ``allowed_languages``,
    one of those literal names (``js`` is not ``javascript``); with ``language_only``,
    nothing after it."""
    allowed = options.get("allowed_languages")
    allowed = [str(name) for name in allowed] if isinstance(allowed, list) else []
    language_only = bool(options.get("language_only"))
    for token in document.tokens:
        if token.type != "fence" or token.map is None:
            continue
        line = document.raw_lines[token.map[0]]
        at = line.find(token.markup)
        words = line[at + len(token.markup) :].split() if at >= 0 else token.info.split()
        if not words:
            yield token.map[0], _MD040
        elif allowed and words[0] not in allowed:
            yield (
                token.map[0],
                f'{_MD040} ["{words[0]}" is not allowed]',
            )
        if language_only and len(words) > 1:
            yield (
                token.map[0],
                f"{_MD040} [Info string contains more than language]",
            )
