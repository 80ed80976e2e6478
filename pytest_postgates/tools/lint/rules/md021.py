"""MD021 (no-multiple-space-closed-atx): Multiple spaces inside hashes on closed atx style heading.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document, md019_md021


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    return md019_md021(document, True)
