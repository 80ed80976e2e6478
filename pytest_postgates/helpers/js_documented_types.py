"""Gate 15's reading of the product's types a TypeScript fence shows as declarations (issue
26): docs reproduce an interface or an object type alias of the product to document it
(``interface TransformOptions { config: Config; instrument: boolean }``). A declaration
named like exactly one interface or class of the product, outside ``declare module`` and
``declare global`` (where a reader adds members to the product's types), is that type
shown: each field or method it lists is judged against the members the product declares
for it (inherited ones included), and one the product does not declare is a finding with
the nearest real names. A declaration that shares less than half of its fields with the
product's type is the reader's own type of that name (``interface User`` beside an ORM's
``User``), and so is one a fence declares beside code of its own (a class, a function,
statements: the types that code uses): its fields are listed unjudged with that reason.
Where the product's type cannot be followed to its end, the fields are listed unjudged with
why. Takes the fence reader (:class:`~pytest_postgates.helpers.js_reading.FenceReading`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.js_tree import named_nodes, node_string, node_text
from pytest_postgates.helpers.sample_checks import did_you_mean

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading

# A fence that may declare a named object type (a cheap test before parsing it).
DECLARES_TYPE = re.compile(r"\b(?:interface\s+[A-Z]\w*|type\s+[A-Z]\w*(?:<[^=]*>)?\s*=\s*\{)")
# Where a declaration adds to another module's or the global types: the reader's members.
_AMBIENT = frozenset({"ambient_declaration", "module", "internal_module"})
_FIELDS = frozenset({"property_signature", "method_signature"})
_DECLARATIONS = frozenset({"interface_declaration", "type_alias_declaration", "enum_declaration",
                           "ambient_declaration", "import_statement", "comment",
                           "empty_statement"})  # fmt: skip
# What every object has from Object.prototype: a field of that name is no claim of a type's
# own (unlike ``name`` or ``length``, which a function has but a data object need not).
_PROTOTYPE = frozenset({"constructor", "toString", "toLocaleString", "valueOf",
                        "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"})  # fmt: skip


def fence(sample: FenceReading, content: str, first_line: int, tsx: bool) -> None:
    """Read a TypeScript fence for the product's types it declares (a cheap test first)."""
    if DECLARES_TYPE.search(content):
        sample.source, sample.first, sample.lines = content.encode(), first_line, sample.shown
        tree = sample.gate.parsers["tsx" if tsx else "typescript"].parse(sample.source)
        documented(sample, tree.root_node)


def documented(sample: FenceReading, root: Any) -> None:
    """Judge each product type the fence (its syntax tree ``root``) shows declared."""
    types = sample.types()
    if types is None:
        return
    # A fence of declarations only documents types; one with code of its own (a class, a
    # function, statements) declares the types that code uses: the reader's.
    own_code = any(not _declaration(child) for child in root.named_children)
    for node in named_nodes(root):
        body = _object_body(node)
        if body is None or _ambient(node):
            continue
        named = node.child_by_field_name("name")
        name = node_text(sample.source, named) if named is not None else ""
        if not name or name in sample.values:
            continue  # an import of that name: the page adds to the product's type
        cls = types.resolve(name, "")
        if cls is None or not types.entries(cls):
            continue  # no type of the product, or several: the page's own
        fields = list(_fields(sample.source, body))
        if not fields:
            continue
        if own_code:
            why = (f"the fence declares {name} beside code of its own: the reader's type "
                   f"named like the product's ({cls[1]}), maybe")  # fmt: skip
            for line_row, field in fields:
                line, used = sample.first + line_row, f"{name}.{field}"
                sample.report.skip(line, _shown(sample, line_row), f"{used}: {why}", used)
            continue
        real, open_reason = types.members(cls)
        where = f"{cls[1]} ({name})"
        if open_reason is not None:
            for line_row, field in fields:
                line = sample.first + line_row
                sample.report.skip(line, _shown(sample, line_row),
                                   f"{name}.{field}: {open_reason}", f"{name}.{field}")  # fmt: skip
            continue
        shown = {field for _, field in fields}
        shared = shown & real
        if len(shared) * 2 < len(shown):
            for line_row, field in fields:
                line = sample.first + line_row
                sample.report.skip(line, _shown(sample, line_row),
                                   f"{name}.{field}: the page's {name} shares {len(shared)} of "
                                   f"its {len(shown)} fields with the product's {name} "
                                   f"({cls[1]}): the reader's own type, maybe",
                                   f"{name}.{field}")  # fmt: skip
            continue
        for line_row, field in fields:
            line = sample.first + line_row
            sample.report.count("member", line, f"{name}.{field}")
            if field in real or field in _PROTOTYPE:
                continue
            close = types.nearest(field, real)
            sample.report.violation(line, "member", f"{name}.{field}", where,
                                    f"the page shows {name}, the product's type ({cls[1]}), "
                                    f"with a field {field} it does not declare"
                                    f"{did_you_mean(close)}", close)  # fmt: skip


def _declaration(node: Any) -> bool:
    """Whether a top-level statement only declares (a type, an import, a comment)."""
    if node.type == "export_statement":
        inner = node.child_by_field_name("declaration")
        return inner is None or _declaration(inner)
    return node.type in _DECLARATIONS


def _shown(sample: FenceReading, row: int) -> str:
    return sample.lines[row] if row < len(sample.lines) else ""


def _object_body(node: Any) -> Any:
    """The body of an interface, or of a type alias that is one object type."""
    if node.type == "interface_declaration":
        return node.child_by_field_name("body")
    if node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        return value if value is not None and value.type == "object_type" else None
    return None


def _ambient(node: Any) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _AMBIENT:
            return True
        parent = parent.parent
    return False


def _fields(source: bytes, body: Any) -> Iterator[tuple[int, str]]:
    """(row in the fence, name) of each field and method a declaration's body lists."""
    for item in body.named_children:
        if item.type not in _FIELDS:
            continue
        key = item.child_by_field_name("name")
        if key is None or key.type not in ("property_identifier", "string"):
            continue  # a computed key (`[Symbol.iterator]`) names no field by its text
        word = node_string(source, key) if key.type == "string" else node_text(source, key)
        if word:
            yield key.start_point[0], word
