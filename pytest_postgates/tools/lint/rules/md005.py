"""MD005 (list-indent): Inconsistent indentation for list items at the same level.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, marker_columns, tokens_after


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD005: every item of a bullet list at its first item's column; an
    ordered list's items at the first one's column, or (once one is not) all with their
    markers ending where the first one's ends (right-aligned numbers)."""
    columns = marker_columns(document)
    tokens = document.tokens
    for position, token in enumerate(tokens):
        if token.type not in ("bullet_list_open", "ordered_list_open"):
            continue
        items = []
        for inner in tokens_after(tokens, position):
            if inner.type == token.type.replace("_open", "_close") and inner.level == token.level:
                break
            nested = inner.level == token.level + 1
            if inner.type == "list_item_open" and nested and id(inner) in columns:
                items.append(columns[id(inner)])
        if not items:
            continue
        expected_indent = items[0][1]
        expected_end = 0
        end_matching = False
        for index, actual_indent, marker in items:
            if token.type == "bullet_list_open":
                if actual_indent != expected_indent:
                    yield (
                        index,
                        (
                            "Inconsistent indentation for list items at the same level "
                            f"[Expected: {expected_indent}; Actual: {actual_indent}]"
                        ),
                    )
                continue
            actual_end = actual_indent + 1 + len(marker) - 1
            expected_end = expected_end or actual_end
            if expected_indent != actual_indent or end_matching:
                if expected_end == actual_end:
                    end_matching = True
                else:
                    detail = (
                        f"Expected: ({expected_end}); Actual: ({actual_end})"
                        if end_matching
                        else f"Expected: {expected_indent}; Actual: {actual_indent}"
                    )
                    yield (
                        index,
                        (f"Inconsistent indentation for list items at the same level [{detail}]"),
                    )
