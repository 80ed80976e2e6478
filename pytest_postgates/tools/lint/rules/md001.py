"""MD001 (heading-increment): Heading levels should only increment by one level at a time.

markdownlint 0.36.1's algorithm: a heading more than one level below the heading before it (any
heading before it, at any depth: markdownlint keeps no per-section state).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import headings

MESSAGE = "Heading levels should only increment by one level at a time"


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("#" in line or line.lstrip(" >").startswith(("=", "-")) for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    previous = sys.maxsize
    for heading in headings(document):
        if heading.level > previous + 1:  # addErrorDetailIf: only a difference
            yield heading.start, f"{MESSAGE} [Expected: h{previous + 1}; Actual: h{heading.level}]"
        previous = heading.level
