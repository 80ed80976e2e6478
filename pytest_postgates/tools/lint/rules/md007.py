"""MD007 (ul-indent): Unordered list indentation.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, marker_columns


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD007: a bullet item's marker at ``nesting * indent`` (plus
    ``start_indent`` when ``start_indented``) from its line's last blockquote prefix,
    nesting counted over bullet lists up to the nearest blockquote; bullet lists inside an
    ordered list are not checked."""

    def number(key: str, default: int) -> int:
        try:
            return int(options.get(key) or default)
        except (TypeError, ValueError):
            return default

    indent = number("indent", 2)
    start = number("start_indent", indent) if options.get("start_indented") else 0
    columns = marker_columns(document)
    stack: list[str] = []  # open containers: "ul", "ol", "bq"
    nesting_of: list[int | None] = []  # per open bullet list: its nesting (None: unchecked)
    for token in document.tokens:
        kind = {"bullet_list_open": "ul", "ordered_list_open": "ol", "blockquote_open": "bq"}
        if token.type in kind:
            if token.type == "bullet_list_open":
                nesting: int | None = 0
                for above in reversed(stack):
                    if above == "ul":
                        assert nesting is not None
                        nesting += 1
                        continue
                    if above == "ol":
                        nesting = None
                    break
                nesting_of.append(nesting)
            stack.append(kind[token.type])
            continue
        if token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            if stack.pop() == "ul":
                nesting_of.pop()
            continue
        if token.type != "list_item_open" or not stack or stack[-1] != "ul":
            continue
        nesting = nesting_of[-1]
        if nesting is None or id(token) not in columns:
            continue
        index, column, _ = columns[id(token)]
        line = document.lines[index]
        before = line[: len(line) - len(line.lstrip(" \t>"))]
        adjustment = 0
        quote = before.rfind(">")
        if quote >= 0:
            adjustment = quote + 1 + (1 if line[quote + 1 : quote + 2] in (" ", "\t") else 0)
        expected = start + nesting * indent
        actual = column - adjustment
        if actual != expected:
            yield index, f"Unordered list indentation [Expected: {expected}; Actual: {actual}]"
