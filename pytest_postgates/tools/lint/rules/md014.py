"""MD014 (commands-show-output): Dollar signs used before commands without showing output.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import Document

_DOLLAR_COMMAND = re.compile(r"^(\s*)(\$\s+)")


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD014: a code block (fenced, any language, or indented) whose every
    non-blank line starts with ``$`` and a blank."""
    for token in document.tokens:
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        first = token.map[0] + (1 if token.type == "fence" else 0)
        values = [
            (first + offset, line)
            for offset, line in enumerate(token.content.split("\n"))
            if line.strip()
        ]
        if values and all(_DOLLAR_COMMAND.match(line) for _, line in values):
            for index, line in values:
                yield (
                    index,
                    (
                        "Dollar signs used before commands without showing output "
                        f'[Context: "{line}"]'
                    ),
                )
