"""MD037 (no-space-in-emphasis): Spaces inside emphasis markers.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from pytest_postgates.tools.lint.document import Document, code_spans
from pytest_postgates.tools.lint.micromark import inline_children

# Inline parse that leaves every unmatched emphasis marker a text token of its own (no
# fragments_join), as micromark leaves it a "data" token.
_EMPHASIS_PARSER = MarkdownIt("commonmark").disable(["text_join", "fragments_join"])
SPACED_MARKER = re.compile(r"[*_][ \t]|[ \t][*_]")
_EMPHASIS_MARKERS = frozenset({"_", "__", "___", "*", "**", "***"})
_BREAKS = frozenset({"softbreak", "hardbreak"})


def _visible(token: Token) -> str:
    """What a token stands for on its line, as far as blank-or-not goes."""
    if token.type == "text":
        return token.content
    if token.type == "text_special":
        return token.markup or token.content
    return "x"  # markup, code, HTML, links and images: never blank


def _blank_then_text(children: Iterable[Token], reverse: bool) -> bool:
    """Whether the line's text next to a marker, read away from it (``children`` in that
    order, ``reverse`` for text before the marker), is a blank run and then a non-blank:
    ``\\s+\\S`` after the marker, ``\\S\\s+$`` before it. Stops as soon as that is
    decided, so a line of thousands of markers costs linear time, not quadratic."""
    blank = False
    for child in children:
        if child.type in _BREAKS:
            return False
        text = _visible(child)
        for char in reversed(text) if reverse else text:
            if char.isspace():
                blank = True
            else:
                return blank
    return False


def _md037_runs(children: Sequence[Token]) -> list[list[tuple[int, str, int, int]]]:
    """Groups (one per parent: the inline content, each emphasis, link and image) of
    unmatched emphasis runs: (line offset, marker, index of the run's first token, index
    after its last)."""
    groups: list[list[tuple[int, str, int, int]]] = [[]]
    stack = [0]
    line = 0
    index = 0
    while index < len(children):
        child = children[index]
        if child.type in _BREAKS:
            line += 1
        elif child.type == "html_inline":
            line += child.content.count("\n")
        elif child.type in ("em_open", "strong_open", "link_open", "s_open"):
            groups.append([])
            stack.append(len(groups) - 1)
        elif child.type in ("em_close", "strong_close", "link_close", "s_close"):
            if len(stack) > 1:
                stack.pop()
        elif child.type == "text" and child.content in ("*", "_"):
            end = index + 1
            while end < len(children) and children[end].type == "text":
                if children[end].content != child.content:
                    break
                end += 1
            marker = child.content * (end - index)
            # Inside emphasis and link text micromark joins a leftover marker to the data
            # next to it: only a marker between two non-text tokens stays one of its own.
            inner = len(stack) > 1
            before = children[index - 1] if index else None
            after = children[end] if end < len(children) else None
            joined = inner and any(
                other is not None and other.type == "text" and other.content
                for other in (before, after)
            )
            if marker in _EMPHASIS_MARKERS and not joined:
                groups[stack[-1]].append((line, marker, index, end))
            index = end
            continue
        index += 1
    return groups


def _opaque_spans(content: str) -> str:
    """``content`` with what micromark (with markdownlint's extensions) reads as no text
    made plain letters, line breaks kept: math (``$...$``, ``$$...$$``, paired like code
    spans) and HTML comments by CommonMark 0.31 (``<!-->``, ``<!--->``, ``<!-- ... -->``;
    markdown-it follows the older rule), unless they start inside a code span."""
    if "$" not in content and "<!--" not in content:
        return content
    code = code_spans(content)
    spans: list[tuple[int, int]] = []
    if "$" in content:
        spans.extend(code_spans(content, char="$"))
    position = 0
    while True:
        start = content.find("<!--", position)
        if start < 0:
            break
        if content.startswith(("<!-->", "<!--->"), start):
            end = start + (5 if content.startswith("<!-->", start) else 6)
        else:
            close = content.find("-->", start + 4)
            if close < 0:
                break
            end = close + 3
        spans.append((start, end))
        position = end
    kept: list[tuple[int, int]] = []
    pointer = 0  # code spans and candidates both sorted: one sweep
    for start, end in sorted(spans):
        while pointer < len(code) and code[pointer][1] <= start:
            pointer += 1
        if not (pointer < len(code) and code[pointer][0] <= start):
            kept.append((start, end))
    pieces: list[str] = []
    last = 0
    for start, end in kept:
        if start < last:
            continue
        pieces.append(content[last:start])
        pieces.append(re.sub(r"[^\n]", "x", content[start:end]))
        last = end
    pieces.append(content[last:])
    return "".join(pieces)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD037: unmatched emphasis markers of one kind, paired in order within
    their parent, with a blank just inside: after the first of a pair (then text on that
    line) or before the second (after text on that line)."""
    for token in document.tokens:
        if token.type != "inline" or token.map is None:
            continue
        if not SPACED_MARKER.search(token.content):
            continue
        content = _opaque_spans(token.content)
        # the micromark model's parse of this content, when the model is built (issue 15)
        children = inline_children(document, token) if content is token.content else None
        if children is None:
            children = _EMPHASIS_PARSER.parseInline(content, document.env)[0].children or []
        for group in _md037_runs(children):
            by_marker: dict[str, list[tuple[int, int, int]]] = {}
            for line, marker, start, end in group:
                by_marker.setdefault(marker, []).append((line, start, end))
            for marker, runs in by_marker.items():
                for pair in range(0, len(runs) - 1, 2):
                    line, _, end = runs[pair]
                    following = (children[i] for i in range(end, len(children)))
                    if _blank_then_text(following, reverse=False):
                        yield token.map[0] + line, f"Spaces inside emphasis markers [{marker}]"
                    line, start, _ = runs[pair + 1]
                    preceding = (children[i] for i in range(start - 1, -1, -1))
                    if _blank_then_text(preceding, reverse=True):
                        yield token.map[0] + line, f"Spaces inside emphasis markers [{marker}]"
