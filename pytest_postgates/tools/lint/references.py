"""markdownlint's reference data (getReferenceLinkImageData): the definitions, the
references and shortcuts that use them, and duplicate definitions, read from the micromark
model of :mod:`.micromark` (outside HTML blocks). What MD052, MD053, MD054 and MD039 read.
Split from :mod:`.micromark` (issue 14: one concern per module).
"""

from __future__ import annotations

import weakref
from bisect import bisect_left
from dataclasses import dataclass, replace

from pytest_postgates.tools.lint.document import Document
from pytest_postgates.tools.lint.micromark import (
    Link,
    Model,
    data_text,
    model_of,
    normalize_reference,
    undefined_references,
)


@dataclass
class ReferenceData:
    references: dict[str, list[int]]
    shortcuts: dict[str, list[int]]
    definitions: dict[str, tuple[int, str | None]]
    duplicates: list[tuple[str, int]]


_REFERENCES: weakref.WeakKeyDictionary[Document, ReferenceData] = weakref.WeakKeyDictionary()


def definitions_of(document: Document) -> dict[str, tuple[int, str | None]]:
    """markdownlint's ``definitions`` map alone (normalised label -> (line, destination)),
    without parsing for undefined references."""
    cached = _REFERENCES.get(document)
    if cached is not None:
        return cached.definitions
    definitions: dict[str, tuple[int, str | None]] = {}
    for definition in sorted(model_of(document).definitions, key=lambda d: d.line):
        definitions.setdefault(
            normalize_reference(definition.label), (definition.line, definition.destination)
        )
    return definitions


def _without_constructs(model: Model, link: Link, spans: dict[int, list[tuple[int, int]]]) -> str:
    """An undefined reference's first label with each link or image inside it (which
    micromark formed: markers, not data) reduced to one plain character. ``spans``: the
    (start, end) of the links and images of each content, sorted."""
    ordered = spans.get(link.content, [])
    low = bisect_left(ordered, (link.label_start, -1))
    high = bisect_left(ordered, (link.label_end, -1))
    if low >= high:
        return link.label
    pieces: list[str] = []
    position = link.label_start
    text = model.contents[link.content].text
    for start, end in ordered[low:high]:
        if start < position or end > link.label_end:
            continue
        pieces.append(text[position:start] + "x")
        position = end
    pieces.append(text[position : link.label_end])
    return "".join(pieces)


def reference_data(document: Document) -> ReferenceData:
    """markdownlint's getReferenceLinkImageData (outside HTML blocks)."""
    cached = _REFERENCES.get(document)
    if cached is not None:
        return cached
    model = model_of(document)
    references: dict[str, list[int]] = {}
    shortcuts: dict[str, list[int]] = {}
    definitions: dict[str, tuple[int, str | None]] = {}
    duplicates: list[tuple[str, int]] = []
    for definition in sorted(model.definitions, key=lambda d: d.line):
        key = normalize_reference(definition.label)
        if key in definitions:
            duplicates.append((key, definition.line))
        else:
            definitions[key] = (definition.line, definition.destination)
    spans: dict[int, list[tuple[int, int]]] | None = None
    footnotes = {
        normalize_reference(found.label)
        for found in model.definitions
        if found.label.startswith("^")
    }
    for link in [*model.links, *undefined_references(model)]:
        if link.in_html_flow or link.style == "inline":
            continue
        label = link.reference if link.style == "full" and link.reference else link.label
        shortcut = link.style == "shortcut"
        if not link.defined:
            if link.style == "full" and normalize_reference(link.reference or "") in footnotes:
                # "[text][^note]": the note is a footnote call (recorded as one), "[text]"
                # the shim's shortcut
                label, link = link.label, replace(link, style="shortcut")
                shortcut = True
            label = data_text(label)
            if spans is None:
                spans = {}
                for other in model.links:
                    spans.setdefault(other.content, []).append((other.start, other.end))
                for found in spans.values():
                    found.sort()
            first = data_text(_without_constructs(model, link, spans))
            if link.style == "full" and not (first.strip() and "]" not in first):
                shortcut = True  # the shim recorded no first label to pair with
        target = shortcuts if shortcut else references
        target.setdefault(normalize_reference(label), []).append(link.line)
    for line, label in model.footnote_calls:
        shortcuts.setdefault(normalize_reference(label), []).append(line)
    cached = ReferenceData(references, shortcuts, definitions, duplicates)
    _REFERENCES[document] = cached
    return cached
