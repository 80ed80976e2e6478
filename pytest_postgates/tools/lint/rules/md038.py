"""MD038 (no-space-in-code): Spaces inside code span elements.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import INLINE_PARSER, Document, code_spans

_LEFT_SPACE = re.compile(r"^\s(?:[^`]|$)")
_RIGHT_SPACE = re.compile(r"[^`]\s$")


def _spaced_span(content: str, start: int, end: int) -> bool:
    """Whether the code span at ``start:end`` has a blank just inside either end."""
    run = len(content[start:end]) - len(content[start:end].lstrip("`"))
    return (
        content[start + run : start + run + 1].isspace()
        or content[end - run - 1 : end - run].isspace()
    )


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD038: a code span whose content starts with a blank not followed by
    a backtick, or ends with one after something other than a backtick; reported on the
    opening line (one-line spans, or a left blank on that line), else on the closing
    line when the last content line has text."""
    for token in document.tokens:
        if token.type != "inline" or token.map is None or "`" not in token.content:
            continue
        content = token.content
        raw = code_spans(content)
        if not any(_spaced_span(content, start, end) for start, end in raw):
            continue  # no span with a blank inside: nothing to confirm with a parse
        # The spans markdown-it's inline parser makes (a backtick inside a link
        # destination or an autolink opens none), matched in order to the raw spans.
        parsed = [
            (child.markup, child.content)
            for child in INLINE_PARSER.parseInline(content)[0].children or ()
            if child.type == "code_inline"
        ]
        matched = 0
        for start, end in raw:
            run = len(content[start:]) - len(content[start:].lstrip("`"))
            inner = content[start + run : end - run]
            flat = inner.replace("\n", " ")
            padded = flat.startswith(" ") and flat.endswith(" ") and flat.strip(" ") != ""
            normal = flat[1:-1] if padded else flat
            if matched >= len(parsed) or parsed[matched] != ("`" * run, normal):
                continue
            matched += 1
            first_line = token.map[0] + content.count("\n", 0, start)
            # Continuation lines lose their indentation (micromark's linePrefix).
            split = inner.split("\n")
            rows = [
                piece if offset == 0 else piece.lstrip(" \t") for offset, piece in enumerate(split)
            ]
            if padded:  # one blank each side is padding (codeTextPadding), not content
                rows[0] = rows[0][1:]  # (a line ending as padding left this piece empty)
                if len(rows) > 1 or rows[-1]:
                    rows[-1] = rows[-1][:-1] if split[-1] else rows[-1]
            pieces = [(first_line + offset, piece) for offset, piece in enumerate(rows) if piece]
            if not pieces:
                continue
            left = bool(_LEFT_SPACE.match(pieces[0][1]))
            right = bool(_RIGHT_SPACE.search(pieces[-1][1]))
            if not (left or right):
                continue
            last_line = first_line + inner.count("\n")
            if first_line == last_line or (left and pieces[0][0] == first_line):
                yield first_line, "Spaces inside code span elements"
            elif right and pieces[-1][1].strip():
                yield last_line, "Spaces inside code span elements"
