"""MD046 (code-block-style): Code block style.

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
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        actual = "fenced" if token.type == "fence" else "indented"
        if expected == "consistent":
            expected = actual
        if actual != expected:
            yield token.map[0], f"Code block style [Expected: {expected}; Actual: {actual}]"
