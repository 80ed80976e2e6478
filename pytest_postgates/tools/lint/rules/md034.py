"""MD034 (no-bare-urls): Bare URL used.

markdownlint 0.36.1's algorithm: every GFM autolink literal (``www.``, ``http(s)://``,
e-mail) outside HTML blocks, except one between a pair of matching inline HTML tags and
one right between ``<`` and ``>`` (micromark issue 164).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.micromark import literal_autolinks, model_of
from pytest_postgates.tools.lint.rules.md033 import tag_info


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any(("://" in line or "www" in line.lower() or "@" in line) for line in lines)


def _hidden_ranges(tags: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """(start, end) of each stretch from an opening tag to its matching closing tag, as
    markdownlint skips siblings: same name, nesting counted."""
    ranges: list[tuple[int, int]] = []
    index = 0
    while index < len(tags):
        start, _end, text = tags[index]
        opening = tag_info(text)
        if opening and not opening[1]:
            count = 1
            for later in range(index + 1, len(tags)):
                candidate = tag_info(tags[later][2])
                if candidate and candidate[0] == opening[0]:
                    if candidate[1]:
                        count -= 1
                        if count == 0:
                            ranges.append((start, tags[later][1]))
                            index = later
                            break
                    else:
                        count += 1
        index += 1
    return ranges


def check(document: Any, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    model = model_of(document)
    tags_by_content: dict[int, list[tuple[int, int, str]]] = {}
    for html in model.html:
        tags_by_content.setdefault(html.block, []).append(
            (html.start, html.start + len(html.text), html.text)
        )
    for index, content in enumerate(model.contents):
        if content.in_html_flow:
            continue
        hidden = _hidden_ranges(tags_by_content.get(index, []))
        text = content.text
        for start, end in literal_autolinks(content):
            if any(low <= start < high for low, high in hidden):
                continue
            if text[:start].endswith("<") and text[end:].startswith(">"):
                continue
            url = text[start:end]
            yield content.line_of(start), f'Bare URL used [Context: "{url}"]'
