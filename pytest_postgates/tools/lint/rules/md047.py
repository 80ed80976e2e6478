"""MD047 (single-trailing-newline): Files should end with a single newline character.

markdownlint 0.36.1's algorithm: the last line (of the text after front matter, HTML comment
content cleared) is not blank, so the file does not end with a line break.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.structure import is_blank_line

MESSAGE = "Files should end with a single newline character"


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return bool(lines) and not is_blank_line(lines[-1])


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    lines = document.lines
    if lines and not is_blank_line(lines[-1]):
        yield len(lines) - 1, MESSAGE
