"""MD027 (no-multiple-space-blockquote): Multiple spaces after blockquote symbol.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, line_ranges


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD027: blanks after a blockquote's ``>`` and its one optional space
    (micromark's linePrefix right after a blockQuotePrefix): before a nested ``>``, or on
    any quoted line but a list item's continuation lines and code."""
    tokens = document.tokens
    quoted: set[int] = set()
    continued: set[int] = set()  # lines of list items after their first (listItemIndent)
    depth = 0
    for token in tokens:
        if token.type == "blockquote_open":
            depth += 1
            if token.map is not None:
                quoted.update(range(*token.map))
        elif token.type == "blockquote_close":
            depth -= 1
        elif token.type == "list_item_open" and depth and token.map is not None:
            continued.update(range(token.map[0] + 1, token.map[1]))
    code = line_ranges(tokens, ("fence", "code_block"))
    for index in sorted(quoted):
        line = document.lines[index]
        position = len(line) - len(line.lstrip(" "))
        if position > 3 or line[position : position + 1] != ">":
            continue
        while position < len(line) and line[position] == ">":
            position += 1
            if line[position : position + 1] in (" ", "\t"):
                position += 1
            blanks = len(line) - position - len(line[position:].lstrip(" \t"))
            if not blanks:
                continue
            nested = line[position + blanks : position + blanks + 1] == ">"
            if nested or (index not in continued and index not in code):
                yield index, f'Multiple spaces after blockquote symbol [Context: "{line}"]'
            break
