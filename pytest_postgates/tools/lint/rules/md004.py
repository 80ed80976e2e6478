"""MD004 (ul-style): Unordered list style.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, tokens_after

_MARKER_STYLE = {"-": "dash", "+": "plus", "*": "asterisk"}
_NEXT_STYLE = {"dash": "plus", "plus": "asterisk", "asterisk": "dash"}
_UL_STYLES = frozenset({"asterisk", "consistent", "dash", "plus", "sublist"})


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    tokens = document.tokens
    style = str(options.get("style") or "consistent")
    expected = style if style in _UL_STYLES else "dash"
    nesting_styles: dict[int, str] = {}
    open_lists = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_close", "ordered_list_close"):
            open_lists -= 1
            continue
        if token.type == "ordered_list_open":
            open_lists += 1
            continue
        if token.type != "bullet_list_open":
            continue
        nesting = open_lists
        open_lists += 1
        for inner in tokens_after(tokens, index):
            if inner.type == "bullet_list_close" and inner.level == token.level:
                break
            if inner.type != "list_item_open" or inner.level != token.level + 1:
                continue
            actual = _MARKER_STYLE.get(inner.markup, "dash")
            if style == "sublist":
                if nesting not in nesting_styles:
                    above = nesting_styles.get(nesting - 1)
                    nesting_styles[nesting] = _NEXT_STYLE[actual] if actual == above else actual
                expected = nesting_styles[nesting]
            elif expected == "consistent":
                expected = actual
            if actual != expected and inner.map is not None:
                yield (
                    inner.map[0],
                    f"Unordered list style [Expected: {expected}; Actual: {actual}]",
                )
