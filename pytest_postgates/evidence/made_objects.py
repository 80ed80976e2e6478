"""The members of an object a CommonJS module makes with a function of its own and exports
(``module.exports = internals.root()``, joi's root): read off the factory's body as far as
the file shows them, else open with the reason (issue 26).

The factory's returned local starts as an object literal; the members its body adds are
counted: ``root.x = ...``, ``Object.assign(root, <object>)``, ``Object.defineProperty(root,
"x", ...)`` and computed ones in a loop over values the file writes as literals
(``for (const m of ["allow", "valid"]) root[m] = ...``, ``for (const t of
Object.keys(internals.types))``, ``for (const a in internals.aliases)``, a ``new Set`` of
those, or a member of the literal holding one). An object literal the file names by a path
(``internals.methods``) counts with what the file's top-level statements assign to that path
(``internals.types.binary = ...``). Handed to a function of a required module
(``Trace.setup(root)``), the object gets the members that function assigns on its
parameter: :func:`parameter_members` reads them where the module exports it
(``exports.setup = function (root) { root.trace = ... }``). Anything else the body does
with the object (a computed key the file does not show, a spread, a call of another
function with it) leaves it open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence.file_table import field_of, node_text, string_value

# A member list holding OPEN says the members are not all known.
OPEN = "*"
_FUNCTIONS = frozenset(
    {"function_expression", "function", "arrow_function", "function_declaration",
     "generator_function_declaration", "method_definition", "class", "class_declaration"}
)  # fmt: skip
_MAX_DEPTH = 8


@dataclass
class MadeObject:
    """What a factory's returned object holds: its members, the required modules' functions
    it is handed to (``[local, function]``) and, when open, why."""

    members: list[str] = field(default_factory=list)
    handed: list[list[str]] = field(default_factory=list)
    open: str = ""


def _named(node: Any) -> list[Any]:
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


class _File:
    """A file's top level: the functions and object literals it names by a path."""

    def __init__(self, source: bytes, root: Any) -> None:
        self.source = source
        self.functions: dict[str, Any] = {}
        self.values: dict[str, Any] = {}
        self.added: dict[str, list[str]] = {}  # path -> keys assigned on it (`a.b.k = v`)
        pending = _named(root)
        while pending:
            node = pending.pop(0)
            if node.type in ("if_statement", "statement_block", "else_clause"):
                pending[:0] = _named(node)  # `if (Buffer) { internals.types.binary = ... }`
                continue
            if node.type in ("function_declaration", "generator_function_declaration"):
                name = field_of(node, "name")
                if name is not None:
                    self.functions[self.text(name)] = node
            elif node.type in ("lexical_declaration", "variable_declaration"):
                for declarator in _named(node):
                    self.bind(field_of(declarator, "name"), field_of(declarator, "value"))
            elif node.type == "expression_statement" and _named(node):
                assigned = _named(node)[0]
                if assigned.type == "assignment_expression":
                    self.bind(field_of(assigned, "left"), field_of(assigned, "right"))

    def text(self, node: Any) -> str:
        return "".join(node_text(self.source, node).split()) if node is not None else ""

    def bind(self, target: Any, value: Any) -> None:
        if target is None or value is None:
            return
        path = self.text(target)
        if value.type in ("function_expression", "function", "arrow_function"):
            self.functions.setdefault(path, value)
            return
        if target.type == "member_expression":
            owner, key = path.rsplit(".", 1) if "." in path else ("", "")
            if owner and key:
                self.added.setdefault(owner, []).append(key)
        self.values.setdefault(path, value)


class _Factory:
    def __init__(self, file: _File, local: str, literal: Any) -> None:
        self.file = file
        self.local = local
        self.literal = literal
        self.made = MadeObject()
        self.loops: dict[str, list[str] | None] = {}

    def fail(self, reason: str) -> None:
        if not self.made.open:
            self.made.open = reason

    # ----------------------------------------------------------- values the file writes
    def value(self, path: str) -> Any:
        if path.startswith(self.local + "."):
            return _pair_value(self.file, self.literal, path[len(self.local) + 1 :])
        if path in self.file.values:
            return self.file.values[path]
        if "." in path:
            owner, key = path.rsplit(".", 1)
            found = self.value(owner)
            if found is not None and found.type == "object":
                return _pair_value(self.file, found, key)
        return None

    def keys(self, node: Any, depth: int = 0) -> list[str] | None:
        """The keys of the object ``node`` is (a literal, or a path naming one)."""
        if node is None or depth > _MAX_DEPTH:
            return None
        if node.type in ("identifier", "member_expression"):
            path = self.file.text(node)
            literal = self.value(path)
            found = self.keys(literal, depth + 1) if literal is not None else None
            if found is None:
                return None
            return found + self.file.added.get(path, [])
        if node.type != "object":
            return None
        keys: list[str] = []
        for member in _named(node):
            if member.type == "shorthand_property_identifier":
                keys.append(node_text(self.file.source, member))
            elif member.type in ("pair", "method_definition"):
                key = field_of(member, "key") or field_of(member, "name")
                if key is None or key.type == "computed_property_name":
                    return None
                keys.append(node_text(self.file.source, key).strip("'\"`"))
            else:
                return None  # a spread: keys the file does not show
        return keys

    def strings(self, node: Any, depth: int = 0) -> list[str] | None:
        """The strings a loop over ``node`` takes: an array of literals, ``Object.keys`` of
        an object the file shows, a ``new Set`` of either, or a path naming one."""
        if node is None or depth > _MAX_DEPTH:
            return None
        if node.type == "array":
            found = [string_value(self.file.source, item) for item in _named(node)]
            return None if any(s is None for s in found) else [s for s in found if s is not None]
        if node.type in ("identifier", "member_expression"):
            return self.strings(self.value(self.file.text(node)), depth + 1)
        if node.type in ("call_expression", "new_expression"):
            callee = field_of(node, "function") or field_of(node, "constructor")
            arguments = _named(field_of(node, "arguments"))
            name = self.file.text(callee)
            if name == "Object.keys" and len(arguments) == 1:
                return self.keys(arguments[0], depth + 1)
            if name == "Set" and len(arguments) == 1:
                return self.strings(arguments[0], depth + 1)
        return None

    # ----------------------------------------------------------- the factory's body
    def read(self, body: Any) -> MadeObject:
        keys = self.keys(self.literal)
        if keys is None:
            self.fail(f"the object {self.local} starts as has keys the file does not show")
        else:
            self.made.members += keys
        pending = _named(body)
        while pending:
            node = pending.pop(0)
            if node.type in _FUNCTIONS:
                continue  # run later, if at all: what it does is not the factory's making
            if node.type in ("for_in_statement", "for_of_statement"):
                self.loop(node)
            elif node.type == "assignment_expression":
                self.assignment(node)
            elif node.type == "call_expression":
                self.call(node)
            pending[:0] = _named(node)
        self.made.members = list(dict.fromkeys(self.made.members))
        return self.made

    def loop(self, node: Any) -> None:
        variable, right = field_of(node, "left"), field_of(node, "right")
        if variable is None or variable.type != "identifier":
            return
        of = any(child.type == "of" for child in node.children)
        self.loops[self.file.text(variable)] = self.strings(right) if of else self.keys(right)

    def assignment(self, node: Any) -> None:
        left = field_of(node, "left")
        if left is None:
            return
        if left.type == "member_expression" and self.file.text(field_of(left, "object")) == (
            self.local
        ):
            self.made.members.append(self.file.text(field_of(left, "property")))
        elif (
            left.type == "subscript_expression"
            and self.file.text(field_of(left, "object")) == self.local
        ):
            index = field_of(left, "index")
            if _symbol_key(self.file, left):
                return  # `root[Symbol.for("x")] = ...`: no member a name reaches
            literal = string_value(self.file.source, index)
            if literal is not None:
                self.made.members.append(literal)
                return
            taken = self.loops.get(self.file.text(index)) if index is not None else None
            if taken is None:
                self.fail(f"{self.file.text(left)[:40]}: a computed key the file does not show")
            else:
                self.made.members += taken

    def call(self, node: Any) -> None:
        callee = self.file.text(field_of(node, "function"))
        arguments = _named(field_of(node, "arguments"))
        handed = [i for i, a in enumerate(arguments) if self.file.text(a) == self.local]
        if not handed:
            return
        if callee in ("Object.assign", "Object.defineProperties") and handed == [0]:
            for added in arguments[1:]:
                keys = self.keys(added)
                if keys is None:
                    self.fail(f"{callee}({self.local}, ...) adds keys the file does not show")
                else:
                    self.made.members += keys
            return
        if callee == "Object.defineProperty" and handed == [0] and len(arguments) > 1:
            literal = string_value(self.file.source, arguments[1])
            if literal is None:
                self.fail(f"{callee}({self.local}, ...) adds a key the file does not show")
            else:
                self.made.members.append(literal)
            return
        owner, _, function = callee.rpartition(".")
        if handed == [0] and owner and "." not in owner and function:
            self.made.handed.append([owner, function])
            return
        self.fail(f"{self.local} is handed to {callee[:40]}(), which may add members")


def _symbol_key(file: _File, subscript: Any) -> bool:
    """Whether ``subscript`` (``root[Symbol.for("x")]``) is keyed by a symbol."""
    index = file.text(field_of(subscript, "index"))
    return index.startswith(("Symbol.", "Symbol("))


def _pair_value(file: _File, literal: Any, key: str) -> Any:
    """The value of ``key`` in an object literal (a dotted key walks nested literals)."""
    head, _, rest = key.partition(".")
    for member in _named(literal):
        if member.type != "pair":
            continue
        written = node_text(file.source, field_of(member, "key")).strip("'\"`")
        if written == head:
            value = field_of(member, "value")
            if not rest:
                return value
            return _pair_value(file, value, rest) if value is not None else None
    return None


def made_object(source: bytes, root: Any, call: Any) -> MadeObject | None:
    """The object ``call`` (a call of a function the file declares, ``internals.root()``)
    returns, when that function returns a local that starts as an object literal; None
    when it is no such factory."""
    file = _File(source, root)
    function = file.functions.get(file.text(field_of(call, "function")))
    if function is None or _named(field_of(call, "arguments")):
        return None
    body = field_of(function, "body")
    statements = _named(body)
    returned = next((s for s in reversed(statements) if s.type == "return_statement"), None)
    value = _named(returned)[0] if returned is not None and _named(returned) else None
    if value is None or value.type != "identifier":
        return None
    local = file.text(value)
    literal = None
    for statement in statements:
        if statement.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in _named(statement):
            if file.text(field_of(declarator, "name")) == local:
                literal = field_of(declarator, "value")
    if literal is None or literal.type != "object":
        return None
    return _Factory(file, local, literal).read(body)


def parameter_members(source: bytes, root: Any) -> dict[str, list[str]]:
    """Export name -> the members a function the module exports (``exports.setup =
    function (root) { root.trace = ... }``) assigns on its first parameter (OPEN among
    them when it may add others: a computed key, the parameter handed on)."""
    file = _File(source, root)
    found: dict[str, list[str]] = {}
    for path, function in file.functions.items():
        name = path.removeprefix("module.").removeprefix("exports.")
        if not path.startswith(("exports.", "module.exports.")) or "." in name:
            continue
        parameters = _named(field_of(function, "parameters"))
        if not parameters or parameters[0].type != "identifier":
            continue
        found[name] = _assigned(file, field_of(function, "body"), file.text(parameters[0]))
    return found


def _assigned(file: _File, body: Any, local: str) -> list[str]:
    members: list[str] = []
    pending = _named(body)
    while pending:
        node = pending.pop(0)
        if node.type in _FUNCTIONS:
            continue
        if node.type == "assignment_expression":
            left = field_of(node, "left")
            owner = file.text(field_of(left, "object")) if left is not None else ""
            if owner == local and left.type == "member_expression":
                members.append(file.text(field_of(left, "property")))
            elif owner == local and not _symbol_key(file, left):
                members.append(OPEN)
        elif node.type == "call_expression" and any(
            file.text(a) == local for a in _named(field_of(node, "arguments"))
        ):
            members.append(OPEN)
        pending[:0] = _named(node)
    return list(dict.fromkeys(members))
