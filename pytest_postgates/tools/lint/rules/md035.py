"""MD035 (hr-style): Horizontal rule style.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document


def break_text(line: str) -> str:
    """A thematic break's text as micromark takes it: from its first marker to its last,
    after any container prefix or list marker on the line (``> - * * *`` -> ``* * *``)."""
    stripped = line.rstrip()
    if not stripped:
        return ""
    char = stripped[-1]
    start = len(stripped)
    while start > 0 and stripped[start - 1] in (char, " ", "\t"):
        start -= 1
    return stripped[start:].strip()


def maybe_break(text: str) -> bool:
    return text[-1:] in ("*", "-", "_") and len(text.replace(" ", "").replace("\t", "")) >= 3


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD035: every thematic break's text as the configured one (or the
    first one's), wherever the break sits (lists and blockquotes included)."""
    style = str(options.get("style") or "consistent").strip()
    for token in document.tokens:
        if token.type != "hr" or token.map is None:
            continue
        text = break_text(document.lines[token.map[0]])
        if style == "consistent":
            style = text
        if text != style:
            yield token.map[0], f"Horizontal rule style [Expected: {style}; Actual: {text}]"
