"""MD049 (emphasis-style): Emphasis style.

markdownlint 0.36.1's algorithm: every emphasis uses the configured marker (``consistent``: the
first one's); with ``underscore`` an asterisk emphasis inside a word (a word character
just before or after it) is allowed, as ``_`` cannot do that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.emphasis import emphasis


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return style_may_differ(lines, options)


def may_open_underscore(text: str) -> bool:
    """Whether an "_" delimiter run in ``text`` may open emphasis. A run preceded by a
    letter or digit is both left- and right-flanking, so "_" cannot open there
    (CommonMark's rule 2, as markdown-it applies it to the source text): snake_case words
    hold only such runs. A ``str.find`` walk: a regex tries every position."""
    index = text.find("_")
    while index >= 0:
        if index == 0 or not (text[index - 1].isalnum() or text[index - 1] == "_"):
            return True
        index = text.find("_", index + 1)
    return False


def style_may_differ(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    style = str(options.get("style") or "consistent")
    text = "\n".join(lines)
    if style == "asterisk":
        return may_open_underscore(text)
    if style == "underscore":
        return "*" in text
    if style == "consistent":
        return "*" in text and may_open_underscore(text)
    return "_" in text and "*" in text


def _word(char: str) -> bool:
    return len(char) == 1 and (char.isascii() and (char.isalnum() or char == "_"))


def style_findings(
    document: Document, options: Mapping[str, Any], strong: bool, name: str
) -> Iterable[tuple[int, str]]:
    style = str(options.get("style") or "consistent")
    for sequence in emphasis(document, strong):
        actual = "asterisk" if sequence.markup[0] == "*" else "underscore"
        if style == "consistent":
            style = actual
        if style == actual:
            continue
        if style == "underscore" and (_word(sequence.before) or _word(sequence.after)):
            continue
        detail = f"{name} [Expected: {style}; Actual: {actual}]"
        yield sequence.line, detail
        yield sequence.close_line, detail


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    return style_findings(document, options, False, "Emphasis style")
