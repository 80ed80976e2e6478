"""MD052 (reference-links-images): Reference links and images should use a label that
is defined.

markdownlint 0.36.1's algorithm: every full or collapsed reference (and, with
``shortcut_syntax``, shortcut reference) whose normalised label has no definition,
undefined ones included as markdownlint's labelEnd shim records them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.references import reference_data


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    # full and collapsed references have "][" (shortcuts count only with shortcut_syntax)
    if options.get("shortcut_syntax"):
        return any("]" in line for line in lines)
    return any("][" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    data = reference_data(document)
    entries = list(data.references.items())
    if options.get("shortcut_syntax"):
        entries += list(data.shortcuts.items())
    for label, lines in entries:
        if label not in data.definitions:
            for line in lines:
                yield line, f'Missing link or image reference definition: "{label}"'
