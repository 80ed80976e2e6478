"""The properties the product's code holds as maps keyed by the names its user gives
(issue 26): a plugin's ``rules`` (``plugin.rules[ruleName]``), a config's ``globals``
(``Object.keys(globals)``), ``headers: Record<string, string>``. A key written under such a
property in a page (``rules: { rule1: {} }``) is the page's own name, not one of the
product's fixed keys, so it is no near miss of a product name either.

A property ``P`` is a map when a JavaScript/TypeScript file of the product

- iterates its keys or values: ``Object.keys(x.P)``, ``Object.values``, ``Object.entries``,
  ``Object.getOwnPropertyNames``, ``for (k in x.P)``;
- reads it by a computed name held in a variable: ``x.P[name]``;
- or declares it a map: ``P: Record<string, X>``, ``P: { [key: string]: X }``,
  ``P: Map<string, X>`` (``Partial<>``/``Readonly<>`` around them too).

``x.P`` is also a local the file destructures from a property (``const { P } = options``,
``{ P: local }``, ``{ P = {} }``), or a parameter of the same name as such a local (the
value handed on: ``validateGlobals(globals)``). Spreading (``{ ...x.P }``) is no sign: an
options object is spread as often. Found by tree-sitter queries (in C) over the trees the
model's reader parses (:func:`~pytest_postgates.evidence.model_js.read_js`).
"""

from __future__ import annotations

import re
from typing import Any

_ITERATING = frozenset({"keys", "values", "entries", "getOwnPropertyNames"})
_QUERY_TEXT = """
(call_expression
  function: (member_expression object: (identifier) @object property: (property_identifier) @how)
  arguments: (arguments . (_) @iterated))
(for_in_statement right: (_) @in) @loop
(subscript_expression object: (_) @indexed index: (identifier))
(object_pattern (shorthand_property_identifier_pattern) @shorthand)
(object_pattern
  (object_assignment_pattern left: (shorthand_property_identifier_pattern) @shorthand))
(object_pattern (pair_pattern key: (property_identifier) @key value: (identifier) @local))
"""
_TYPED_QUERY = """
(property_signature name: (property_identifier) @declared type: (type_annotation) @type)
(public_field_definition name: (property_identifier) @declared type: (type_annotation) @type)
"""
# A declared type that is a map of names: `Record<string, X>`, `{ [k: string]: X }`,
# `Map<string, X>`, inside `Partial<>` or `Readonly<>`, optionally `| undefined`.
_MAP_TYPE = re.compile(
    r"^:\s*(?:(?:Partial|Readonly)<\s*)*"
    r"(?:Record<\s*string\s*,|\{\s*(?:readonly\s+)?\[\s*[\w$]+\s*:\s*string\s*\]\s*:"
    r"|(?:Readonly)?Map<\s*string\s*,)"
)
_QUERIES: dict[tuple[int, bool], Any] = {}
_WRAPPERS = ("parenthesized_expression", "non_null_expression", "as_expression")


def _query(language: Any, typed: bool) -> Any:
    key = (id(language), typed)
    if key not in _QUERIES:
        import tree_sitter

        text = _QUERY_TEXT + (_TYPED_QUERY if typed else "")
        _QUERIES[key] = tree_sitter.Query(language, text)
    return _QUERIES[key]


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def map_properties(source: bytes, root: Any, language: Any, typed: bool) -> dict[str, int]:
    """The properties one file holds as maps (see the module), each with the first line
    (1-based) that shows it; ``typed``: the file is TypeScript (its declared types read)."""
    if language is None:
        return {}
    try:
        import tree_sitter

        matches = tree_sitter.QueryCursor(_query(language, typed)).matches(root)
    except Exception:  # an older binding without QueryCursor: no maps read
        return {}
    # Locals destructured from a property (`const { globals } = options`): local -> property.
    destructured: dict[str, str] = {}
    for _, match in matches:
        for node in match.get("shorthand", []):
            destructured.setdefault(_text(source, node), _text(source, node))
        if match.get("key") and match.get("local"):
            destructured.setdefault(
                _text(source, match["local"][0]), _text(source, match["key"][0])
            )
    found: dict[str, int] = {}

    def held(node: Any) -> None:
        """The property ``node`` (an expression) is, when it is one, found a map."""
        while node.type in _WRAPPERS and node.named_children:
            node = node.named_children[0]
        name = ""
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is not None and prop.type == "property_identifier":
                name = _text(source, prop)
        elif node.type == "identifier":
            name = destructured.get(_text(source, node), "")
        if name:
            found.setdefault(name, node.start_point[0] + 1)

    for _, match in matches:
        if match.get("iterated"):
            called = _text(source, match["object"][0]), _text(source, match["how"][0])
            if called[0] == "Object" and called[1] in _ITERATING:
                held(match["iterated"][0])
        elif match.get("in"):
            operator = match["loop"][0].child_by_field_name("operator")
            if operator is not None and operator.type == "in":
                held(match["in"][0])
        elif match.get("indexed"):
            held(match["indexed"][0])
        elif match.get("declared") and _MAP_TYPE.match(_text(source, match["type"][0])):
            found.setdefault(
                _text(source, match["declared"][0]), match["declared"][0].start_point[0] + 1
            )
    return found
