"""MD039 (no-space-in-links): Spaces inside link text.

markdownlint 0.36.1's algorithm: a link (not an image) whose label text starts or ends
with whitespace, reported on the label's first (last) line, or the next (previous) one
when the whitespace is a line break; a shortcut link only if its trimmed label is
literally a definition's (normalised) label.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of
from pytest_postgates.tools.lint.references import definitions_of

_LEADING = re.compile(r"^[^\S\r\n]+")
_TRAILING = re.compile(r"[^\S\r\n]+\Z")  # JavaScript's "$": the very end


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    # a link needs a resource, a reference or (shortcut, collapsed) a definition
    return any("](" in line or "][" in line or "]:" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    definitions = definitions_of(document)
    for link in model_of(document).links:
        if link.kind != "link" or link.in_html_flow:
            continue
        label = link.label
        valid = link.style != "shortcut" or label.strip() in definitions
        if not valid:
            continue
        context = re.sub(r"\s+", " ", f"[{label}]")
        if label.lstrip() != label:
            line = link.label_line + (0 if _LEADING.search(label) else 1)
            yield line, f'Spaces inside link text [Context: "{context}"]'
        if label.rstrip() != label:
            line = link.label_end_line - (0 if _TRAILING.search(label) else 1)
            yield line, f'Spaces inside link text [Context: "{context}"]'
