"""MD045 (no-alt-text): Images should have alternate text (alt text).

markdownlint 0.36.1's algorithm: a Markdown image with an empty label (outside HTML
blocks), and an ``<img>`` tag without an ``alt`` attribute (HTML blocks included).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of
from pytest_postgates.tools.lint.rules.md033 import tag_info

# markdownlint's getHtmlAttributeRe("alt")
_ALT = re.compile(r"\salt\s*=\s*['\"]?([^'\"\s>]*)", re.IGNORECASE)


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("![" in line or "<" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    model = model_of(document)
    message = "Images should have alternate text (alt text)"
    found = [
        link.line
        for link in model.links
        if link.kind == "image" and not link.in_html_flow and link.label == ""
    ]
    for html in model.html:
        info = tag_info(html.text)
        if info and not info[1] and info[0].lower() == "img" and not _ALT.search(html.text):
            found.append(html.line)
    for line in found:
        yield line, message
