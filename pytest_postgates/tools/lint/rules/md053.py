"""MD053 (link-image-reference-definitions): Link and image reference definitions
should be needed.

markdownlint 0.36.1's algorithm: a definition no reference or shortcut uses, and each
later definition of a label already defined, unless the label is ignored (``//`` by
default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.references import reference_data


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("]:" in line for line in lines)


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    ignored_option = options.get("ignored_definitions")
    ignored = set(ignored_option) if isinstance(ignored_option, list) else {"//"}
    data = reference_data(document)
    for label, (line, _destination) in data.definitions.items():
        if label not in ignored and label not in data.references and label not in data.shortcuts:
            yield line, f'Unused link or image reference definition: "{label}"'
    for label, line in data.duplicates:
        if label not in ignored:
            yield line, f'Duplicate link or image reference definition: "{label}"'
