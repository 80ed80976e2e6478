"""Commands a JavaScript/TypeScript CLI makes in a function of its own from what its callers
pass (a command factory): ``makeCommand(options) { program.command(options.name) }``,
called as ``cli.makeCommand({ name: "info", alias: "i" })`` or with a constant written as
such an object (webpack-cli's commands, made by one method for the CLI and for each of its
workspace packages).

A ``.command()`` whose name is a parameter of its function (or that parameter's ``name``)
is made at run time as far as its own file says (:func:`.cli_model.js_run_time_commands`).
The model follows the parameter to every call of the function in the product's code: where
each call passes an object written in place, or a constant of its file bound to one, or
either of two such (``a ? b : c``), the commands are those objects' names (the first word
of ``name``, and each ``alias``), made by the factory's file; one call that passes anything
else, or no call at all, leaves the table of commands open as before. Commands a package
outside the product makes through the factory (a plugin) are that package's, not the
product's."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_postgates.evidence.file_table import captured, field_of, node_text, string_value

_CALLS = "(call_expression) @n"
_DECLARATORS = "(variable_declarator) @n"
_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
    }
)


@dataclass(frozen=True)
class Factory:
    """A ``.command()`` at ``line`` of ``path`` naming its command by parameter ``index``
    (its ``name`` member when ``member``) of the function or method ``function``."""

    path: str
    line: int
    function: str
    index: int
    member: bool


def _nodes(root: Any, language: Any, query: str, kind: str) -> list[Any]:
    found = captured(root, language, query)
    if found is not None:
        return found
    nodes, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == kind:
            nodes.append(node)
        stack.extend(node.named_children)
    return nodes


def factories(
    path: str, root: Any, source: bytes, language: Any, lines: list[int]
) -> list[Factory]:
    """The command factories among the ``.command()`` calls at ``lines`` (those the file
    makes at run time)."""
    found: list[Factory] = []
    for call in _nodes(root, language, _CALLS, "call_expression"):
        line = call.start_point[0] + 1
        arguments = field_of(call, "arguments")
        if line not in lines or arguments is None or not arguments.named_children:
            continue
        first = arguments.named_children[0]
        member = first.type == "member_expression"
        if member and node_text(source, field_of(first, "property")) != "name":
            continue
        head = field_of(first, "object") if member else first
        if head is None or head.type != "identifier":
            continue
        enclosing = _enclosing(call)
        if enclosing is None:
            continue
        name, parameters = enclosing
        given = node_text(source, head)
        names = [_parameter_name(source, p) for p in parameters]
        if name and given in names:
            found.append(Factory(path, line, name, names.index(given), member))
    return found


def _enclosing(node: Any) -> tuple[str, list[Any]] | None:
    """The name and parameters of the function or method around ``node``."""
    current = node.parent
    while current is not None and current.type not in _FUNCTIONS:
        current = current.parent
    if current is None:
        return None
    name_node = field_of(current, "name")
    if name_node is None and current.parent is not None:
        name_node = field_of(current.parent, "name")  # const make = (options) => ...
    parameters = field_of(current, "parameters") or field_of(current, "parameter")
    if name_node is None or parameters is None:
        return None
    items = parameters.named_children if parameters.type == "formal_parameters" else [parameters]
    return name_node.text.decode("utf-8", "replace"), [p for p in items if p.type != "comment"]


def _parameter_name(source: bytes, node: Any) -> str:
    inner = field_of(node, "pattern") or field_of(node, "left") or node
    return node_text(source, inner) if inner.type == "identifier" else ""


def resolve(
    found: list[Factory], sources: Mapping[str, str], parsers: Mapping[str, Any], language_of: Any
) -> dict[Factory, list[str] | None]:
    """Each factory's commands from every call of its function in ``sources`` (None: a
    call passes what the model cannot read, or the function is never called)."""
    results: dict[Factory, list[str] | None] = {}
    for factory in found:
        call = re.compile(rf"\b{re.escape(factory.function)}\s*\(")
        names: list[str] | None = []
        calls = 0
        for path, text in sources.items():
            if names is None:
                break
            if not call.search(text):
                continue
            parser = parsers.get(language_of(path, text) or "")
            if parser is None:
                names = None
                break
            source = text.encode("utf-8")
            tree = parser.parse(source)
            language = getattr(tree, "language", None)
            for given in _arguments(tree.root_node, source, language, factory):
                calls += 1
                read = _names(given, source, tree.root_node, language)
                if read is None:
                    names = None
                    break
                names.extend(n for n in read if n not in names)
        results[factory] = names if calls else None
    return results


def _arguments(root: Any, source: bytes, language: Any, factory: Factory) -> list[Any]:
    """The argument each call of the factory's function in this file passes to it."""
    given: list[Any] = []
    for call in _nodes(root, language, _CALLS, "call_expression"):
        function = field_of(call, "function")
        if function is None:
            continue
        callee = (
            field_of(function, "property") if function.type == "member_expression" else function
        )
        if callee is None or node_text(source, callee) != factory.function:
            continue
        arguments = field_of(call, "arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        given.append(args[factory.index] if factory.index < len(args) else None)
    return given


def _names(node: Any, source: bytes, root: Any, language: Any) -> list[str] | None:
    """The command names an argument gives: an object's ``name`` (first word) and
    ``alias``, a constant bound to such an object in the file, either branch of a
    conditional; None for anything else."""
    if node is None:
        return None
    if node.type == "parenthesized_expression" and node.named_children:
        return _names(node.named_children[0], source, root, language)
    if node.type == "ternary_expression":
        branches = [field_of(node, "consequence"), field_of(node, "alternative")]
        read = [_names(b, source, root, language) for b in branches]
        return None if any(r is None for r in read) else [n for r in read for n in r or []]
    if node.type == "identifier":
        bound = _bound_object(node_text(source, node), root, source, language)
        return _names(bound, source, root, language) if bound is not None else None
    if node.type != "object":
        return None
    pairs = {
        node_text(source, field_of(p, "key")).strip("'\"`"): field_of(p, "value")
        for p in node.named_children
        if p.type == "pair" and field_of(p, "key") is not None
    }
    name = string_value(source, pairs.get("name"))
    if not name or not name.split():
        return None
    found = [name.split()[0]]
    alias = pairs.get("alias")
    items = alias.named_children if alias is not None and alias.type == "array" else [alias]
    found += [v for v in (string_value(source, item) for item in items if item) if v]
    return found


def _bound_object(name: str, root: Any, source: bytes, language: Any) -> Any:
    """The object literal a ``const`` of the file named ``name`` is declared with (the
    only declaration of that name), else None."""
    bound = [
        field_of(d, "value")
        for d in _nodes(root, language, _DECLARATORS, "variable_declarator")
        if node_text(source, field_of(d, "name")) == name
    ]
    if len(bound) != 1 or bound[0] is None:
        return None
    value = bound[0]
    while value.type in ("as_expression", "satisfies_expression") and value.named_children:
        value = value.named_children[0]
    return value if value.type == "object" else None
