"""MD050 (strong-style): Strong style.

markdownlint 0.36.1's algorithm (MD049's for strong emphasis): every strong emphasis
uses the configured marker (``consistent``: the first one's); with ``underscore`` an
asterisk one inside a word is allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.rules.md049 import style_findings, style_may_differ


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return style_may_differ(lines, options)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    return style_findings(document, options, True, "Strong style")
