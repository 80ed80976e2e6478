"""MD048 (code-fence-style): Code fence style.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    tokens = document.tokens
    expected = str(options.get("style") or "consistent")
    for token in tokens:
        if token.type != "fence" or token.map is None:
            continue
        actual = "tilde" if token.markup.startswith("~") else "backtick"
        if expected == "consistent":
            expected = actual
        if actual != expected:
            yield token.map[0], f"Code fence style [Expected: {expected}; Actual: {actual}]"
