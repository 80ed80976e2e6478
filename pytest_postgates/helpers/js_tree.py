"""The syntax side of gate 15's JavaScript/TypeScript fence reader: tree-sitter node text,
the nodes a fence reader visits in source order, destructuring patterns, and expressions
that hold their one child's value."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

# Expressions that hold the value of their one child (``await x`` also unwraps a Promise,
# which the declared return types are read through).
PASS_THROUGH = frozenset(
    {"await_expression", "parenthesized_expression", "as_expression", "non_null_expression",
     "satisfies_expression"}
)  # fmt: skip


# A method call handed a package as its argument (`app.register(require("@x/mysql"), ...)`,
# `app.use(helmet)` after `import helmet from "helmet"`): a plugin that may add members to
# the value it is handed to (`app`).
_PASSED_REQUIRE = re.compile(
    r"([A-Za-z_$][\w$]*)\s*\.[\w$]+\(\s*(?:require|import)\(\s*['\"]([^'\"./][^'\"]*)['\"]"
)
_IMPORTED = re.compile(r"import\s+([A-Za-z_$][\w$]*)\s+from\s+['\"]([^'\"./][^'\"]*)['\"]")
_PASSED_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*\.[\w$]+\(\s*([A-Za-z_$][\w$]*)\s*[,)]")


def plugins_passed(content: str, product: str) -> dict[str, str]:
    """The values of a fence handed a package other than ``product`` by a method call (a
    plugin), each with that package (read once per text and product in a run: the page's
    reader and each reading of its folder read the same fences)."""
    return dict(_plugins_passed(content, product))


@functools.lru_cache(maxsize=4096)
def _plugins_passed(content: str, product: str) -> dict[str, str]:
    found = {m.group(1): m.group(2) for m in _PASSED_REQUIRE.finditer(content)}
    imported = {m.group(1): m.group(2) for m in _IMPORTED.finditer(content)}
    for match in _PASSED_NAME.finditer(content):
        if match.group(2) in imported:
            found.setdefault(match.group(1), imported[match.group(2)])
    return {v: p for v, p in found.items() if p != product and not p.startswith(product + "/")}


def node_text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def node_string(source: bytes, node: Any) -> str | None:
    if node is None or node.type != "string":
        return None
    return node_text(source, node)[1:-1]


def pattern_names(pattern: Any) -> list[Any]:
    """The identifiers a destructuring pattern (``{ a, b: c }``, ``[x, y]``) binds."""
    found = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            found.append(node)
        elif node.type == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        else:
            stack.extend(node.named_children)
    return found


def unwrap(node: Any) -> Any:
    while node.type in PASS_THROUGH and node.named_children:
        node = node.named_children[0]
    return node


_QUERY_TEXT = (
    "(import_statement) @n (export_statement) @n (variable_declarator) @n "
    "(assignment_expression) @n (member_expression) @n (call_expression) @n "
    "(new_expression) @n (required_parameter) @n (optional_parameter) @n "
    "(arrow_function) @n (for_in_statement) @n (catch_clause) @n (function_declaration) @n "
    "(class_declaration) @n (interface_declaration) @n"
)
_QUERIES: dict[int, Any] = {}


def query_nodes(root: Any, language: Any) -> list[Any] | None:
    """The nodes a fence reader visits, in source order (a binding before its uses), found
    by a tree-sitter query in C; None where the query API is missing."""
    if language is None:
        return None
    try:
        import tree_sitter

        query = _QUERIES.get(id(language))
        if query is None:
            query = _QUERIES[id(language)] = tree_sitter.Query(language, _QUERY_TEXT)
        captures = tree_sitter.QueryCursor(query).captures(root)
    except Exception:  # an older binding without QueryCursor: walk in Python instead
        return None
    nodes = captures.get("n", []) if isinstance(captures, dict) else [n for n, _ in captures]
    return sorted(nodes, key=lambda node: (node.start_byte, -node.end_byte))


def named_nodes(root: Any) -> Iterator[Any]:
    """``root`` and every named node under it, in document order (depth first)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def import_specifiers(source: bytes, named: Any) -> Iterator[tuple[Any, str, str]]:
    """Each specifier of a ``named_imports`` node, with the name it imports and the local it
    binds. One written in destructuring's rename syntax (``{ create: actualCreate }``, which
    tree-sitter reads as an ERROR holding ``create :`` before the specifier
    ``actualCreate``) imports the name before the colon under the one after it."""
    renamed: str | None = None
    for child in named.named_children:
        parts = child.children
        if child.type == "ERROR" and [p.type for p in parts] == ["import_specifier", ":"]:
            renamed = node_text(source, parts[0].child_by_field_name("name"))
            continue
        if child.type != "import_specifier":
            renamed = None
            continue
        name = node_text(source, child.child_by_field_name("name"))
        alias = child.child_by_field_name("alias")
        local = node_text(source, alias) if alias is not None else name
        if renamed is not None and alias is None:
            name = renamed
        renamed = None
        yield child, name.strip("'\""), local
