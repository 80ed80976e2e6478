"""The edges of a mermaid flowchart that gate 16 judges as call edges: between nodes that
name functions (a ``name()`` label, or a camelCase node id as gate 13's detector reads
them), a label that says anything but a call making the edge control or data flow."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from pytest_postgates.helpers.wiring_names import Subject, subject


@dataclass(frozen=True)
class Edge:
    """A flowchart edge between two nodes that name functions."""

    line: int
    source: Subject
    target: Subject
    text: str


_NODE = re.compile(
    r"(?P<id>[A-Za-z_][\w-]*)\s*"
    r"(?P<shape>\[\[.*?\]\]|\[\(.*?\)\]|\(\[.*?\]\)|\(\(.*?\)\)|\[.*?\]|\(.*?\)|\{.*?\}|>.*?\])?"
)
_ARROW = re.compile(
    r"\s*(?:<?-->|<?==>|<?-\.->|--\s(?P<mid>[^-\n]*?)-->|==\s(?P<mid2>[^=\n]*?)==>"
    r"|-\.\s(?P<mid3>[^.\n]*?)\.->)(?:\|(?P<pipe>[^|\n]*)\|)?\s*"
)
# An edge's label that says it is a call; any other label ("throws", "yes", "result")
# makes the edge control or data flow, not a call.
_CALL_LABEL = re.compile(r"^\W*(?:calls?|invokes?|delegates?(?: to)?)\W*$", re.IGNORECASE)
# A class diagram relation's label after a colon (`A --> B : "extends"`) that says the
# relation is inheritance: no call.
_COLON_LABEL = re.compile(r"\s*:\s*(?P<label>.+)$")
_INHERITS = re.compile(r"\b(?:extends|inherits?|implements|subclass(?:es)?)\b|继承", re.I)
_LABEL_CALL = re.compile(r"(?:new\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$#][\w$]*)*\s*\([^()]*\)")
_CAMEL_ID = re.compile(r"[a-z][a-zA-Z]{4,}")
_CAMEL = re.compile(r"[a-z][A-Z]")


def _node_subject(node_id: str, shape: str | None) -> Subject | None:
    """The function a node names: its label is that call or name and nothing else (a
    label that says more, "`streamText()` via executeStreamInner", is a stage, not a
    function); a node without a label by a camelCase id."""
    if not shape:
        return subject(node_id) if _CAMEL_ID.fullmatch(node_id) and _CAMEL.search(node_id) else None
    label = re.sub(r"^[\[({>\"' ]+|[\]}\"' ]+$", "", shape)
    while label.endswith(")") and label.count(")") > label.count("("):
        label = label[:-1]  # the shape's own `)`
    if _LABEL_CALL.fullmatch(label) or (_CAMEL_ID.fullmatch(label) and _CAMEL.search(label)):
        return subject(label)
    return None


def mermaid_edges(content: str, first_line: int) -> list[Edge]:
    """The edges between function-naming nodes of one flowchart's text (``first_line``:
    the file line of its first line). A node's label, once given, names it everywhere."""
    labels: dict[str, Subject | None] = {}
    pairs: list[tuple[int, str, str, str]] = []  # (line, source id, target id, text)
    for offset, raw in enumerate(content.splitlines()):
        for statement in raw.split(";"):
            chain: list[str] = []
            labelled: list[bool] = []  # whether the arrow after chain[i] has a label not a call
            at = 0
            statement = statement.strip()
            while at < len(statement):
                node = _NODE.match(statement, at)
                if node is None:
                    break
                node_id = node.group("id")
                if node.group("shape") or node_id not in labels:
                    labels[node_id] = _node_subject(node_id, node.group("shape"))
                chain.append(node_id)
                arrow = _ARROW.match(statement, node.end())
                if arrow is None:
                    said = _COLON_LABEL.match(statement, node.end())
                    if said is not None and labelled and _INHERITS.search(said.group("label")):
                        labelled[-1] = True
                    break
                label = next((g for g in arrow.group("mid", "mid2", "mid3", "pipe") if g), "")
                labelled.append(bool(label.strip()) and not _CALL_LABEL.match(label))
                at = arrow.end()
            for (source_id, target_id), flow in zip(
                itertools.pairwise(chain), labelled, strict=False
            ):
                if not flow:
                    pairs.append((first_line + offset, source_id, target_id, statement))
    edges: list[Edge] = []
    for line, source_id, target_id, text in pairs:
        source, target = labels.get(source_id), labels.get(target_id)
        if source is None or target is None:
            continue
        if (source.name, source.owner) != (target.name, target.owner):  # one call twice
            edges.append(Edge(line, source, target, text))
    return edges
