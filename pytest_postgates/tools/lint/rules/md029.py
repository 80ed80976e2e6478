"""MD029 (ol-prefix): Ordered list item prefix.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document, tokens_after

_LIST_STYLE_EXAMPLE = {"one": "1/1/1", "ordered": "1/2/3", "zero": "0/0/0"}


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    tokens = document.tokens
    style = str(options.get("style") or "one_or_ordered")
    for index, token in enumerate(tokens):
        if token.type != "ordered_list_open":
            continue
        items: list[Token] = []
        for inner in tokens_after(tokens, index):
            if inner.type == "ordered_list_close" and inner.level == token.level:
                break
            if inner.type == "list_item_open" and inner.level == token.level + 1:
                items.append(inner)
        values = [int(item.info) if item.info.isdigit() else 0 for item in items]
        expected = 1
        incrementing = False
        if len(values) >= 2 and (values[1] != 1 or values[0] == 0):
            incrementing = True
            if values[0] == 0:
                expected = 0
        list_style = style
        if list_style == "one_or_ordered":
            list_style = "ordered" if incrementing else "one"
        elif list_style == "zero":
            expected = 0
        elif list_style == "one":
            expected = 1
        for item, actual in zip(items, values, strict=True):
            if actual != expected and item.map is not None:
                example = _LIST_STYLE_EXAMPLE.get(list_style, list_style)
                yield (
                    item.map[0],
                    f"Ordered list item prefix [Expected: {expected}; Actual: {actual}; "
                    f"Style: {example}]",
                )
            if list_style == "ordered":
                expected += 1
