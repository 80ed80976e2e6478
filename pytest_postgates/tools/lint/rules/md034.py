"""MD034 (no-bare-urls): Bare URL used.

markdownlint 0.36.1's algorithm: every GFM autolink literal (``www.``, ``http(s)://``,
e-mail) outside HTML blocks, except one between a pair of matching inline HTML tags and
one right between ``<`` and ``>`` (micromark issue 164).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pytest_postgates.tools.lint.autolinks import literal_autolinks
from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import model_of
from pytest_postgates.tools.lint.rules.md033 import tag_info


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any(("://" in line or "www" in line.lower() or "@" in line) for line in lines)


def _hidden_ranges(tags: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """(start, end) of each stretch from an opening tag to its matching closing tag, as
    markdownlint skips siblings: same name, nesting counted, the scan resuming after the
    closing tag. (Matches found with one stack per name: linear in the tags.)"""
    infos = [tag_info(text) for _start, _end, text in tags]
    matching: dict[int, int] = {}
    stacks: dict[str, list[int]] = {}
    for index, info in enumerate(infos):
        if info is None:
            continue
        name, closing = info
        if not closing:
            stacks.setdefault(name, []).append(index)
        elif stacks.get(name):
            matching[stacks[name].pop()] = index
    ranges: list[tuple[int, int]] = []
    index = 0
    while index < len(tags):
        if index in matching:
            ranges.append((tags[index][0], tags[matching[index]][1]))
            index = matching[index]
        index += 1
    return ranges


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
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
        lows = [low for low, _high in hidden]
        text = content.text
        for start, end in literal_autolinks(content):
            before = bisect_right(lows, start) - 1
            if before >= 0 and start < hidden[before][1]:
                continue
            if text[:start].endswith("<") and text[end:].startswith(">"):
                continue
            url = text[start:end]
            yield content.line_of(start), f'Bare URL used [Context: "{url}"]'
