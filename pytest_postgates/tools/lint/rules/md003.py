"""MD003 (heading-style): Heading style.

markdownlint 0.36.1's algorithm: every heading in the configured style (``consistent``: the
first heading's), where ``setext_with_atx`` and ``setext_with_atx_closed`` allow ATX
(open or closed) headings from level 3 on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import headings


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("#" in line or line.lstrip(" >").startswith(("=", "-")) for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    style = str(options.get("style") or "consistent")
    for heading in headings(document):
        actual = heading.style
        if style == "consistent":
            style = actual
        if actual == style:
            continue
        h12 = heading.level <= 2
        if style == "setext_with_atx" and (
            (h12 and actual == "setext") or (not h12 and actual == "atx")
        ):
            continue
        if style == "setext_with_atx_closed" and (
            (h12 and actual == "setext") or (not h12 and actual == "atx_closed")
        ):
            continue
        expected = style
        if style == "setext_with_atx":
            expected = "setext" if h12 else "atx"
        elif style == "setext_with_atx_closed":
            expected = "setext" if h12 else "atx_closed"
        if expected != actual:  # addErrorDetailIf reports only a difference
            yield heading.start, f"Heading style [Expected: {expected}; Actual: {actual}]"
