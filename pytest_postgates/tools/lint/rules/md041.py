"""MD041 (first-line-heading): First line in a file should be a top-level heading.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, front_matter_has_title, heading_level

_HTML_TAG_NAME = re.compile(r"^\s*<([A-Za-z][A-Za-z0-9-]*)")


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD041: the first block that is not an HTML comment is a heading of
    the top level (or an HTML ``<hN>`` of it), unless the front matter has a title."""
    level = heading_level(options)
    if front_matter_has_title(document, options.get("front_matter_title")):
        return
    for token in document.tokens:
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        if token.type == "html_block":
            content = token.content.strip()
            if content.startswith("<!--") and content.endswith("-->"):
                continue
            tag = _HTML_TAG_NAME.match(content)
            error = tag is None or tag.group(1).lower() != f"h{level}"
        else:
            error = token.type != "heading_open" or token.tag != f"h{level}"
        if error:
            line = document.lines[token.map[0]] if token.map[0] < len(document.lines) else ""
            yield (
                token.map[0],
                f'First line in a file should be a top-level heading [Context: "{line}"]',
            )
        return
