"""The keys a JavaScript function reads from an options parameter (issue 26): what gate 15
judges an option object's keys against when no declaration types the parameter
(``function build(opts) { ... opts.mkdir ... }``), or beside a hand-written declaration
that may lag the code (a key the code reads is no defect).

A parameter is followed through the function's body (nested functions included, as they
close over it): member reads (``opts.mkdir``, ``opts['sync']``), destructuring (in the
parameter list or ``const { a, b } = opts``), ``'key' in opts``, aliases (``const o =
opts || {}``), merges with defaults (``Object.assign({}, defaults, opts)``, ``{
...defaults, ...opts }``: the merged object is followed too, and the keys of a
defaults object the file writes as a literal count as read), calls of another top-level
function of the same file it is passed to, and calls of a function another file of the
product declares, imported or required by a relative path (``normalize(opts)``,
``utils.normalize(opts)``: the ``outside`` reader, :func:`outside_function`, resolves it);
what such a function returns of the options (``const o = normalize(opts)``, a merge
returned) is followed from the call on in the caller. Keys below a key are read the same
way (``read_keys(..., path=("retry",))``: the keys read from ``opts.retry``, ``const {
retry: { limit } } = opts``, ``const r = opts.retry; r.limit``). Any other use can read keys
the reader does not see (passed to a function it does not follow, stored on ``this``,
returned by the function asked for, a computed key, a rest pattern, its keys iterated): the
key set is then open, with the reason, and the caller judges nothing against it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence.api_lookup import ApiLookup, Binding

MAX_DEPTH = 6
# Operators whose value is one of their operands: the options flow through them.
_FLOWS = frozenset({"||", "??", "&&"})
# Operators that only test the value.
_TESTS = frozenset({"===", "!==", "==", "!=", "instanceof"})
_ITERATES = frozenset({"keys", "entries", "values", "getOwnPropertyNames", "freeze"})
_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function"}
)


@dataclass(frozen=True)
class ReadKeys:
    """The keys read (``fields``); ``reason`` when the read may be incomplete (open): the
    fields are then the keys seen read (the reader goes on past the use that opens the
    set), a lower bound that a declared type may be widened by, never closed by."""

    fields: frozenset[str] = frozenset()
    reason: str = ""
    # Read for a caller that follows what the function returns: the function returns the
    # options (or an object made of them), each at the key path still to go below it
    # (``()``: the options as asked for).
    returned: frozenset[tuple[str, ...]] = frozenset()
    # Cut short by the way it was reached (a function already on the way, too deep): right
    # for that way only, so not kept for another.
    partial: bool = field(default=False, compare=False)


# Where a function is followed into: (its callee as written, the argument's position, the
# key path below the argument, the functions already on the way); None when the callee is
# no function of the product's that the reader can read.
Seen = frozenset[tuple[str, str, int, tuple[str, ...]]]
Outside = Callable[[str, int, tuple[str, ...], Seen], "ReadKeys | None"]


def read_keys(
    source: bytes,
    root: Any,
    name: str,
    position: int,
    path: tuple[str, ...] = (),
    outside: Outside | None = None,
    seen: Seen = frozenset(),
    file: str = "",
    returns: bool = False,
) -> ReadKeys | None:
    """The keys the top-level function ``name`` of a file (its syntax tree's ``root``)
    reads from its parameter ``position`` (below the keys ``path`` of it); None when the
    file has no such function. ``outside`` follows calls of another file's functions;
    ``seen`` the functions already on the way (``file`` names this one among them);
    ``returns``: the caller follows what the function returns (``const o =
    normalize(opts)``), so returning the options is no use the key set must stay open for
    (:attr:`ReadKeys.returned`)."""
    reader = _Reader(source, root, outside, file)
    if name not in reader.functions:
        return None
    return reader.function(name, position, seen, path, returns)


def _named(node: Any) -> list[Any]:
    return [c for c in node.named_children if c.type != "comment"]


class _Reader:
    def __init__(self, source: bytes, root: Any, outside: Outside | None, file: str) -> None:
        self.source = source
        self.outside = outside
        self.file = file
        self.functions: dict[str, Any] = {}
        self.objects: dict[str, Any] = {}  # top-level `const NAME = { ... }`
        self.arrays: dict[str, frozenset[str]] = {}  # top-level `const NAMES = ['a', 'b']`
        for node in _named(root):
            if node.type == "export_statement":
                node = node.child_by_field_name("declaration") or node
            if node.type == "function_declaration":
                named = node.child_by_field_name("name")
                if named is not None:
                    self.functions.setdefault(self.text(named), node)
            elif node.type in ("lexical_declaration", "variable_declaration"):
                for declarator in _named(node):
                    target = declarator.child_by_field_name("name")
                    value = declarator.child_by_field_name("value")
                    if target is None or value is None or target.type != "identifier":
                        continue
                    if value.type in _FUNCTIONS:
                        self.functions.setdefault(self.text(target), value)
                    elif value.type == "object":
                        self.objects.setdefault(self.text(target), value)
                    elif node.type == "lexical_declaration" and self.text(node).startswith("const"):
                        strings = self.strings(value)
                        if strings is not None:
                            self.arrays.setdefault(self.text(target), strings)
            elif node.type == "expression_statement" and _named(node):
                # `module.exports = function prettyFactory (options) { ... }`
                assigned = _named(node)[0]
                value = assigned.child_by_field_name("right")
                if assigned.type == "assignment_expression" and value is not None:
                    named = value.child_by_field_name("name")
                    if value.type in ("function_expression", "function") and named is not None:
                        self.functions.setdefault(self.text(named), value)

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def strings(self, node: Any) -> frozenset[str] | None:
        """The strings an array literal of string literals only holds; None otherwise."""
        if node.type != "array":
            return None
        items = _named(node)
        if not all(item.type == "string" for item in items):
            return None
        return frozenset(self.text(item).strip("'\"`") for item in items)

    def loop_strings(self, key: Any) -> frozenset[str] | None:
        """The strings an identifier used as a computed key ranges over: the ``const``
        variable of an enclosing ``for (const key of NAMES)`` (or of an array literal),
        NAMES a top-level constant array of string literals (fastify's ``routerKeys``)."""
        name = self.text(key)
        loop = key.parent
        while loop is not None and loop.type not in _FUNCTIONS:
            if loop.type == "for_in_statement" and _loop_of(loop, self.text) == name:
                right = loop.child_by_field_name("right")
                if right is None:
                    return None
                if right.type == "identifier":
                    return self.arrays.get(self.text(right))
                return self.strings(right)
            loop = loop.parent
        return None

    # ------------------------------------------------------------ one function
    def function(
        self, name: str, position: int, seen: Seen, path: tuple[str, ...], returns: bool
    ) -> ReadKeys:
        node = self.functions[name]
        seen = seen | {(self.file, name, position, path)}
        params = node.child_by_field_name("parameters")
        found = _named(params) if params is not None else []
        if params is None and node.child_by_field_name("parameter") is not None:
            found = [node.child_by_field_name("parameter")]  # `opts => ...`
        if position >= len(found):
            return ReadKeys(reason=f"{name}() declares no parameter {position + 1}")
        param = found[position]
        if param.type == "assignment_pattern":
            param = param.child_by_field_name("left")
        walk = _Walk(self, name, seen, returns)
        body = node.child_by_field_name("body")
        walk.body = body
        if param is not None and param.type == "object_pattern":
            walk.pattern(param, path)
            if body is not None and walk.aliases:
                walk.follow(body)
        elif param is not None and param.type == "identifier":
            if body is not None and walk.uses(body, "arguments"):
                walk.open(f"{name}() reads its arguments through `arguments`")
            elif body is not None:
                walk.alias(self.text(param), path)
                walk.follow(body)
        else:
            kind = param.type if param is not None else "missing"
            walk.open(f"{name}()'s parameter {position + 1} is a {kind.replace('_', ' ')}")
        return ReadKeys(frozenset(walk.keys), walk.reason, frozenset(walk.returned), walk.partial)


class _Walk:
    """One parameter's reads in one function's body: the keys read at the key path each
    followed value holds (``rest``: the keys still to go down before the keys counted)."""

    def __init__(self, reader: _Reader, function: str, seen: Seen, returns: bool) -> None:
        self.reader = reader
        self.function = function
        self.seen = seen
        self.returns = returns
        self.returned: set[tuple[str, ...]] = set()
        self.partial = False
        self.keys: set[str] = set()
        self.reason = ""
        self.body: Any = None
        self.aliases: list[tuple[str, tuple[str, ...]]] = []

    def alias(self, name: str, rest: tuple[str, ...]) -> None:
        if (name, rest) not in self.aliases:
            self.aliases.append((name, rest))

    def open(self, reason: str) -> None:
        if not self.reason:
            self.reason = reason

    def follow(self, body: Any) -> None:
        # Past a use that opens the set the reading goes on: the keys seen read are a
        # lower bound (ReadKeys), which a declared type that lags the code is widened by.
        done = 0
        while done < len(self.aliases):
            name, rest = self.aliases[done]
            done += 1
            for use in self.uses(body, name):
                self.value(use, name, rest)

    def uses(self, node: Any, name: str) -> list[Any]:
        found: list[Any] = []
        todo = [node]
        while todo:
            current = todo.pop()
            if current.type in ("identifier", "shorthand_property_identifier"):
                if self.reader.text(current) == name and not self._declares(current):
                    found.append(current)
                continue
            todo.extend(reversed(current.named_children))
        return found

    @staticmethod
    def _declares(node: Any) -> bool:
        parent = node.parent
        if parent is None:
            return False
        if parent.type == "variable_declarator":
            return bool(parent.child_by_field_name("name") == node)
        if parent.type == "formal_parameters":
            return True
        if parent.type in ("assignment_pattern", "object_assignment_pattern"):
            return bool(parent.child_by_field_name("left") == node)  # `{ r = {} }`, `(o = {})`
        if parent.type == "pair_pattern":
            return bool(parent.child_by_field_name("value") == node)  # `{ retry: r }`
        if parent.type == "arrow_function":
            return bool(parent.child_by_field_name("parameter") == node)
        return False

    def pattern(self, node: Any, rest: tuple[str, ...] = ()) -> None:
        """The keys a destructuring pattern takes (``{ a, b: c, d = 1 }``); below a key
        (``rest``), what the pattern binds that key's value to is followed."""
        text = self.reader.text
        named: set[str] = set()
        for part in _named(node):
            if part.type == "shorthand_property_identifier_pattern":
                named.add(text(part))
                self._bound(text(part), part, rest)
            elif part.type == "object_assignment_pattern":
                left = part.child_by_field_name("left")
                if left is not None:
                    named.add(text(left))
                    self._bound(text(left), left, rest)
            elif part.type == "pair_pattern":
                key = part.child_by_field_name("key")
                if key is not None and key.type in ("property_identifier", "string"):
                    named.add(text(key).strip("'\"`"))
                    self._bound(text(key).strip("'\"`"), part.child_by_field_name("value"), rest)
                else:
                    self.open(f"{self.function}() destructures its options with a computed key")
            elif part.type == "rest_pattern":
                if not rest or rest[0] not in named:
                    what = text(part)[3:]
                    self.open(f"{self.function}() keeps the rest of its options (...{what})")
            else:
                self.open(f"{self.function}() destructures its options as {part.type}")

    def _bound(self, key: str, target: Any, rest: tuple[str, ...]) -> None:
        """A key a pattern takes: counted, or below a key the value it binds followed."""
        if not rest:
            self.keys.add(key)
            return
        if key != rest[0] or target is None:
            return
        if target.type in ("assignment_pattern", "object_assignment_pattern"):
            target = target.child_by_field_name("left")
        if target is None:
            return
        if target.type in ("identifier", "shorthand_property_identifier_pattern"):
            self.alias(self.reader.text(target), rest[1:])
        elif target.type == "object_pattern":
            self.pattern(target, rest[1:])
        else:
            self.open(f"{self.function}() destructures {key} as {target.type}")

    def literal_keys(self, node: Any, rest: tuple[str, ...] = ()) -> None:
        """The keys an object literal writes (a defaults object merged with the options),
        below the key path ``rest`` of it."""
        text = self.reader.text
        for part in _named(node):
            if part.type == "pair":
                key = part.child_by_field_name("key")
                if key is None or key.type not in ("property_identifier", "string"):
                    continue
                if not rest:
                    self.keys.add(text(key).strip("'\"`"))
                elif text(key).strip("'\"`") == rest[0]:
                    value = part.child_by_field_name("value")
                    if value is not None:
                        self.merged(value, rest[1:])
            elif part.type == "shorthand_property_identifier" and not rest:
                self.keys.add(text(part))

    def merged(self, node: Any, rest: tuple[str, ...] = ()) -> None:
        """A defaults object merged beside the options: a literal's keys, or a top-level
        constant object's."""
        if node.type == "object":
            self.literal_keys(node, rest)
        elif node.type == "identifier" and self.reader.text(node) in self.reader.objects:
            self.literal_keys(self.reader.objects[self.reader.text(node)], rest)

    # ------------------------------------------------------------ where a value goes
    def value(self, node: Any, shown: str, rest: tuple[str, ...] = ()) -> None:
        """``node`` holds the options (or an object made of them, or the value at a key
        path of them when ``rest`` is the path below it still to go): read what its
        parent does with it."""
        parent = node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            node, parent = parent, parent.parent
        if parent is None:
            return
        kind = parent.type
        field = _field_of(parent, node)
        text = self.reader.text
        if node.type == "shorthand_property_identifier":
            self.open(f"{self.function}() puts its options {shown} in an object")
        elif kind in ("member_expression", "subscript_expression") and field == "object":
            key = parent.child_by_field_name("property" if kind == "member_expression" else "index")
            name = ""
            if key is not None and key.type.endswith("property_identifier"):
                name = text(key)
            elif key is not None and key.type == "string":
                name = text(key).strip("'\"`")
            ranges = self.reader.loop_strings(key) if not name and key is not None else None
            if ranges is not None and not rest:
                self.keys |= ranges  # each name of a constant list (`for (const k of KEYS)`)
            elif ranges is not None:
                if rest[0] in ranges:
                    self.value(parent, f"{shown}[{text(key)}]", rest[1:])
            elif not name:
                self.open(f"{self.function}() reads {shown} with a computed key")
            elif not rest:
                self.keys.add(name)
            elif name == rest[0]:
                self.value(parent, f"{shown}.{name}", rest[1:])
        elif kind == "variable_declarator" and field == "value":
            target = parent.child_by_field_name("name")
            if target is not None and target.type == "identifier":
                self.alias(text(target), rest)
            elif target is not None and target.type == "object_pattern":
                self.pattern(target, rest)
            else:
                self.open(f"{self.function}() destructures {shown} as an array")
        elif kind == "assignment_expression":
            target = parent.child_by_field_name("left")
            if field == "left":
                return  # reassigned: the new value's own uses are read where they are
            if target is not None and target.type == "identifier":
                self.alias(text(target), rest)
            else:
                self.open(f"{self.function}() stores {shown} in {text(target)[:40]}")
        elif kind == "binary_expression":
            operator = parent.child_by_field_name("operator")
            op = text(operator) if operator is not None else ""
            if op in _FLOWS:
                self.value(parent, shown, rest)
            elif op == "in" and field == "right":
                left = parent.child_by_field_name("left")
                if left is not None and left.type == "string":
                    if not rest:
                        self.keys.add(text(left).strip("'\"`"))
                else:
                    self.open(f"{self.function}() tests {shown} for a computed key")
            elif op not in _TESTS:
                self.open(f"{self.function}() uses {shown} with {op}")
        elif kind == "ternary_expression":
            if field != "condition":
                self.value(parent, shown, rest)
        elif kind in ("unary_expression", "expression_statement"):
            if kind == "unary_expression" and text(parent).startswith("delete"):
                self.open(f"{self.function}() deletes from {shown}")
        elif kind in ("if_statement", "while_statement", "do_statement"):
            pass  # a test of the value
        elif kind == "spread_element":
            self.spread(parent, shown, rest)
        elif kind == "arguments":
            self.argument(parent, node, shown, rest)
        elif kind == "for_in_statement":
            self.open(f"{self.function}() iterates the keys of {shown}")
        elif self.returns and (
            kind == "return_statement" or (kind == "arrow_function" and field == "body")
        ):
            self.returned.add(rest)  # the caller follows the value the call gives
        else:
            where = kind.replace("_", " ")
            self.open(f"{self.function}() uses its options {shown} in a {where}")

    def spread(self, spread: Any, shown: str, rest: tuple[str, ...]) -> None:
        holder = spread.parent
        if holder is None or holder.type != "object":
            self.open(f"{self.function}() spreads {shown} into a call")
            return
        for part in _named(holder):
            if part.type == "spread_element":
                inner = _named(part)
                if inner:
                    self.merged(inner[0], rest)
        self.literal_keys(holder, rest)
        self.value(holder, shown, rest)

    def argument(self, arguments: Any, node: Any, shown: str, rest: tuple[str, ...]) -> None:
        call = arguments.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is None:
            self.open(f"{self.function}() passes {shown} to a constructor it does not read")
            return
        name = self.reader.text(callee)
        index = next(i for i, a in enumerate(_named(arguments)) if a == node)
        if name == "Object.assign" and index > 0:
            for other in _named(arguments):
                if other != node:
                    self.merged(other, rest)
            first = _named(arguments)[0]
            held = call.parent.type if call.parent is not None else ""
            if first.type == "object" or held in ("variable_declarator", "assignment_expression"):
                self.value(call, shown, rest)
            else:
                self.open(f"{self.function}() copies {shown} onto {self.reader.text(first)[:40]}")
        elif name.startswith("Object.") and name[7:] in _ITERATES:
            self.open(f"{self.function}() iterates the keys of {shown} ({name}())")
        elif len(self.seen) >= MAX_DEPTH:
            self.partial = True
            self.open(f"{self.function}() passes {shown} to {name[:40]}(), too deep to follow")
        elif name in self.reader.functions:
            if (self.reader.file, name, index, rest) in self.seen:
                self.partial = True  # on the way already: its keys are counted there
                return
            self.add(self.reader.function(name, index, self.seen, rest, True), call, name)
        else:
            found = (
                self.reader.outside(name, index, rest, self.seen) if self.reader.outside else None
            )
            if found is None:
                self.open(
                    f"{self.function}() passes {shown} to {name[:40]}(), which is not followed"
                )
            else:
                self.add(found, call, name)

    def add(self, found: ReadKeys, call: Any, name: str) -> None:
        """The keys a function the options are passed to reads; what it returns of them
        (``const o = normalize(opts)``) followed from the call on."""
        self.keys |= found.fields
        self.partial = self.partial or found.partial
        if found.reason:
            self.open(found.reason)
        for rest in sorted(found.returned):
            self.value(call, f"{name[:40]}()", rest)


def _loop_of(loop: Any, text: Callable[[Any], str]) -> str:
    """The variable a ``for (const x of ...)`` binds ("" for another loop: ``in``, ``let``,
    a pattern, whose variable may be reassigned or is no name)."""
    kind, left = loop.child_by_field_name("kind"), loop.child_by_field_name("left")
    operator = loop.child_by_field_name("operator")
    if kind is None or text(kind) != "const" or operator is None or text(operator) != "of":
        return ""
    return text(left) if left is not None and left.type == "identifier" else ""


def _field_of(parent: Any, child: Any) -> str:
    """The field name ``child`` fills in ``parent`` ("" when none)."""
    for index, candidate in enumerate(parent.children):
        if candidate == child:
            return parent.field_name_for_child(index) or ""
    return ""


_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def outside_function(lookup: ApiLookup, path: str, callee: str) -> tuple[str, str] | None:
    """The file and name of the function a call in ``path`` names by an import or require
    of another of the product's files (``normalize(o)`` with ``const normalize =
    require('./normalize')``, ``utils.merge(o)``, ``import { merge } from './utils'``);
    None when the callee is no such function."""
    head, dot, member = callee.partition(".")
    if not _IDENT.fullmatch(head) or (dot and not _IDENT.fullmatch(member)):
        return None
    table = lookup.table(path)
    if table is None or head not in table.imports or head in table.locals:
        return None
    found = lookup.local_binding(path, head)
    if isinstance(found, Binding) and found.kind == "namespace":
        target = lookup.table(found.path)
        if dot:
            found = lookup.find_export(found.path, member)
        elif target is not None and target.export_equals:
            local = target.export_equals
            found = Binding(found.path, local, target.locals.get(local, "value"))
        else:
            return None
    elif dot:
        return None
    if not isinstance(found, Binding) or found.kind != "function" or found.path == path:
        return None
    return found.path, found.local
