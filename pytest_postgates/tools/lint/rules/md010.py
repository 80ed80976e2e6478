"""MD010 (no-hard-tabs): Hard tabs.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document, code_spans


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD010: a hard tab anywhere, except, with ``code_blocks: false``, in
    code blocks and code spans, and in fenced blocks of an ignored language."""
    lines = document.lines
    candidates = [index for index, line in enumerate(lines) if "\t" in line]
    if not candidates:
        return
    code_blocks = options.get("code_blocks")
    include_code = True if code_blocks is None else bool(code_blocks)
    ignored_languages = {
        str(language).lower() for language in options.get("ignore_code_languages") or ()
    }
    excluded: set[int] = set()
    partial: dict[int, list[tuple[int, int]]] = {}  # line -> code span columns
    if not include_code or ignored_languages:
        for token in document.tokens:
            if token.map is None:
                continue
            if token.type == "fence":
                language = token.info.strip().split()[0].lower() if token.info.strip() else ""
                if not include_code or (ignored_languages and language in ignored_languages):
                    excluded.update(range(token.map[0] + 1, token.map[1] - 1))
            elif token.type == "code_block" and not include_code:
                excluded.update(range(*token.map))
            elif token.type == "inline" and not include_code and "`" in token.content:
                _code_span_columns(token, lines, partial)
    for index in candidates:
        if index in excluded:
            continue
        spans = sorted(partial.get(index, []))
        position = 0  # tab runs and spans both go left to right: one sweep
        for match in re.finditer(r"\t+", lines[index]):
            while position < len(spans) and spans[position][1] <= match.start():
                position += 1
            inside = position < len(spans) and spans[position][0] <= match.start()
            if not inside:
                yield index, f"Hard tabs [Column: {match.start() + 1}]"
                break


def _code_span_columns(
    token: Token, lines: Sequence[str], into: dict[int, list[tuple[int, int]]]
) -> None:
    """Add the (start, end) columns each code span of an inline token covers on each
    file line (content lines are the file lines without their container prefix)."""
    assert token.map is not None
    content = token.content
    content_lines = content.split("\n")
    starts = [0]
    for piece in content_lines[:-1]:
        starts.append(starts[-1] + len(piece) + 1)
    for start, end in code_spans(content):
        for offset, (line_start, piece) in enumerate(zip(starts, content_lines, strict=True)):
            line_end = line_start + len(piece)
            if line_end < start or line_start > end:
                continue
            index = token.map[0] + offset
            if index >= len(lines):
                continue
            line = lines[index]
            shift = len(line) - len(piece) if line.endswith(piece) else 0
            low = max(start, line_start) - line_start + shift
            high = min(end, line_end) - line_start + shift
            into.setdefault(index, []).append((low, high))
