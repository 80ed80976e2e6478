"""MD051 (link-fragments): Link fragments should be valid.

markdownlint 0.36.1's algorithm: the fragments a document defines are its headings'
GitHub slugs (``-1``, ``-2`` for repeats), ``{#id}`` anchors in heading text and the
``id`` (any tag) or ``name`` (``<a>``) of HTML tags; each inline link's and each
definition's destination ``#fragment`` (outside HTML blocks) must be one of them (or a
``#L12``-style line fragment). A fragment that differs only in case is reported unless
``ignore_case``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from pytest_postgates.tools.lint.autolinks import literal_autolinks
from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import Content, model_of
from pytest_postgates.tools.lint.rules.md033 import tag_info

_ID = re.compile(r"\sid\s*=\s*['\"]?([^'\"\s>]*)", re.IGNORECASE)
_NAME = re.compile(r"\sname\s*=\s*['\"]?([^'\"\s>]*)", re.IGNORECASE)
_ANCHOR = re.compile(r"\{(#[a-z\d]+(?:[-_][a-z\d]+)*)\}")
_LINE_FRAGMENT = re.compile(r"^#(?:L\d+(?:C\d+)?-L\d+(?:C\d+)?|L\d+)$")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ESCAPE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
# encodeURIComponent leaves these alone
_URI_SAFE = "-_.!~*'()"


def encode_uri_component(text: str) -> str:
    return quote(text, safe=_URI_SAFE)


def _word(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LMN" or category == "Pc" or char in "- "


def _heading_text(content: Content) -> str:
    """The heading's data, escapes, code and math text (what markdownlint joins): no
    HTML, entities, autolinks, images or destinations, no literal autolinks."""
    text = content.text
    keep = [True] * len(text)
    for start, end, kind in content.spans:
        if kind == "escape":
            keep[start] = False  # the backslash; the character is kept
        elif kind == "code":
            run = len(text[start:end]) - len(text[start:end].lstrip("`"))
            inner = text[start + run : end - run]
            padded = (
                len(inner) >= 2 and inner[0] in " \n" and inner[-1] in " \n" and inner.strip(" \n")
            )
            for offset in range(start, end):
                keep[offset] = False
            first, last = start + run + (1 if padded else 0), end - run - (1 if padded else 0)
            for offset in range(first, last):
                keep[offset] = text[offset] != "\n"
        elif kind in ("link", "image", "html", "entity", "autolink", "emphasis"):
            if kind == "link":
                label_end = _label_end(text, start, end)
                keep[start] = False
                for offset in range(label_end, end):
                    keep[offset] = False
            else:
                for offset in range(start, end):
                    keep[offset] = False
    for start, end in literal_autolinks(content):
        for offset in range(start, end):
            keep[offset] = False
    # emphasis markers are not data either: unpaired ones stay text (as in micromark)
    return "".join(char for offset, char in enumerate(text) if keep[offset] and char != "\n")


def _label_end(text: str, start: int, end: int) -> int:
    """The "]" ending the label of the link at ``start:end`` (scanning back from the
    tail is unsafe; scan forward, brackets balanced, escapes skipped)."""
    depth = 0
    position = start
    while position < end:
        char = text[position]
        if char == "\\":
            position += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return position
        position += 1
    return end


def may_violate(lines: Sequence[str], options: Mapping[str, Any]) -> bool:
    return any("#" in line and ("](" in line or "]:" in line) for line in lines) or (
        any("#" in line for line in lines) and any("](" in line or "]:" in line for line in lines)
    )


def check(document: Document, options: Mapping[str, Any]) -> Iterable[tuple[int, str]]:
    ignore_case = bool(options.get("ignore_case"))
    model = model_of(document)
    targets: list[tuple[int, str]] = []
    for link in model.links:
        if link.in_html_flow:
            continue
        if link.kind == "link" and link.style == "inline" and link.destination is not None:
            targets.append((link.line, link.destination))
        elif (
            link.kind == "image"
            and link.inside is not None
            and link.destination is not None
            and link.style == "inline"
        ):
            targets.append((link.inside.line, link.destination))
    for definition in model.definitions:
        if definition.destination is not None:
            targets.append((definition.line, definition.destination))
    if not any("#" in destination for _line, destination in targets):
        return  # no fragment to check: the headings' fragments are not needed (issue 15)
    fragments: dict[str, int] = {}
    for index, _line in model.headings:
        content = model.contents[index]
        if content.in_html_flow:
            continue
        fragment = "#" + encode_uri_component(
            "".join(char for char in _heading_text(content).lower() if _word(char)).replace(
                " ", "-"
            )
        )
        if fragment != "#":
            count = fragments.get(fragment, 0)
            if count:
                fragments[f"{fragment}-{count}"] = 0
            fragments[fragment] = count + 1
            for match in _ANCHOR.finditer(content.text):
                fragments.setdefault(match.group(1), 1)
    for html in model.html:
        info = tag_info(html.text)
        if info and not info[1]:
            anchor = _ID.search(html.text) or (
                _NAME.search(html.text) if info[0].lower() == "a" else None
            )
            if anchor:
                fragments["#" + anchor.group(1)] = 0
    # the first fragment (in insertion order) of each lower-case spelling
    by_lower: dict[str, str] = {}
    for key in fragments:
        by_lower.setdefault(key.lower(), key)
    for line, destination in sorted(targets):
        text = _ESCAPE.sub(r"\1", _ENTITY.sub("", destination))
        encoded = "#" + encode_uri_component(text[1:])
        if len(text) > 1 and text.startswith("#") and encoded not in fragments:
            if _LINE_FRAGMENT.match(encoded):
                continue
            lower = text.lower()
            mixed = by_lower.get(lower)
            if mixed is not None:
                if not ignore_case and mixed != text:
                    yield (
                        line,
                        f"Link fragments should be valid [Expected: {mixed}; Actual: {text}]",
                    )
            else:
                yield line, "Link fragments should be valid"
