"""MD036 (no-emphasis-as-heading): Emphasis used instead of a heading.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import INLINE_PARSER, Document

# Inside emphasis, what micromark (with markdownlint's extensions) parses as tokens other
# than plain text: escapes, character references, math, text directives, GFM autolinks,
# and any "[" (a label start, even one that never becomes a link).
_NOT_PLAIN_TEXT = re.compile(
    r"\\[!-/:-@\[-`{-~]|&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|\$[^$]*\$"
    r"|(?<![:\\]):[A-Za-z]|www\.|https?://|[\w.+-]+@[\w-]+\.\w|\["
)
ALL_PUNCTUATION = ".,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f"
_EMPHASIS_WRAP = re.compile(r"^(\*\*?|__?)\S.*\1$")


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    tokens = document.tokens
    punctuation = options.get("punctuation")
    punctuation = ALL_PUNCTUATION if punctuation is None else str(punctuation)
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.level != 0 or token.map is None:
            continue
        content = tokens[index + 1].content
        # One line that is wholly one emphasis: only then can the paragraph's one child be
        # an emphasis holding one piece of text. Its inline parse is a one-line affair.
        if "\n" in content or not _EMPHASIS_WRAP.match(content):
            continue
        children = [
            child
            for child in INLINE_PARSER.parseInline(content)[0].children or ()
            if child.type != "text" or child.content
        ]
        if len(children) != 3 or children[0].type not in ("em_open", "strong_open"):
            continue
        text = children[1]
        if text.type != "text" or _NOT_PLAIN_TEXT.search(text.content):
            continue
        if punctuation and text.content[-1:] in punctuation:
            continue
        yield token.map[0], f'Emphasis used instead of a heading [Context: "{text.content}"]'
