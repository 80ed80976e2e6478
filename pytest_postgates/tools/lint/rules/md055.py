"""MD055 (table-pipe-style): Table pipe style.

markdownlint 0.36.1's algorithm (see :mod:`pytest_postgates.tools.lint.rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pytest_postgates.tools.lint.document import QUOTE_PREFIX, Document


def _pipes(line: str) -> tuple[bool, bool]:
    row = QUOTE_PREFIX.sub("", line).strip()
    return row.startswith("|"), row.endswith("|") and not row.endswith("\\|")


_PIPE_STYLES = {
    (True, True): "leading_and_trailing",
    (True, False): "leading_only",
    (False, True): "trailing_only",
    (False, False): "no_leading_or_trailing",
}


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    """markdownlint's MD055: every table row (delimiter rows too) with the configured
    leading/trailing pipes, or, "consistent", with the document's first row's."""
    style = str(options.get("style") or "consistent")
    leading = style not in ("no_leading_or_trailing", "trailing_only")
    trailing = style not in ("no_leading_or_trailing", "leading_only")
    rows: list[int] = []
    header = -1
    ended = False
    for token in document.tokens:
        if token.type == "table_open" and token.map is not None:
            header = token.map[0]
            ended = False
            rows.extend((header, header + 1))  # the header row, then the delimiter row
        elif token.type == "tr_open" and token.map is not None and token.map[0] != header:
            line = document.lines[token.map[0]] if token.map[0] < len(document.lines) else ""
            # A ":::" directive (markdownlint's micromark has the extension) ends the
            # table; markdown-it reads it, and what follows, as rows.
            ended = ended or QUOTE_PREFIX.sub("", line).startswith(":::")
            if not ended:
                rows.append(token.map[0])
    for index in rows:
        if index >= len(document.lines):
            continue
        actual = _pipes(document.lines[index])
        if style == "consistent":
            style = _PIPE_STYLES[actual]
            leading, trailing = actual
        for want, got, side in ((leading, actual[0], "leading"), (trailing, actual[1], "trailing")):
            if want != got:
                detail = f"{'Missing' if want else 'Unexpected'} {side} pipe"
                yield (
                    index,
                    (
                        f"Table pipe style [Expected: {style}; Actual: {_PIPE_STYLES[actual]}; "
                        f"{detail}]"
                    ),
                )
