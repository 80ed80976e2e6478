"""MD033 (no-inline-html): Inline HTML.

markdownlint 0.36.1's algorithm: every ``htmlText`` token that opens a tag (HTML blocks
parsed again as Markdown, comment blocks not), unless its name is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of

# markdownlint's getHtmlTagInfo
TAG_NAME = re.compile(r"^<([^!>][^/\s>]*)")


def tag_info(text: str) -> tuple[str, bool] | None:
    """(name, is a closing tag) of an htmlText token's text, as getHtmlTagInfo reads it."""
    match = TAG_NAME.match(text)
    if match is None:
        return None
    name = match.group(1)
    return (name[1:], True) if name.startswith("/") else (name, False)


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("<" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    allowed = options.get("allowed_elements")
    allowed = {str(name).lower() for name in allowed} if isinstance(allowed, list) else set()
    for html in model_of(document).html:
        info = tag_info(html.text)
        if info and not info[1] and info[0].lower() not in allowed:
            yield html.line, f"Inline HTML [Element: {info[0]}]"
