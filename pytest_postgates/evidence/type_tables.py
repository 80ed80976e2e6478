"""One TypeScript file's declared types, read with tree-sitter for gate 2's type-directed
key rule (:mod:`.type_model` resolves them): every type alias, interface and class with its
fields and their declared types, every method signature of a class or interface, and every
top-level function with its parameters' types. Types are kept as small tuples (``Expr``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence.file_table import field_of, node_text

# A type expression, plain data:
#   ("ref", name, (args...))        a named type, generic arguments in order
#   ("obj", {field: (expr, line, text)}, index)   an object type; index: (expr, text) | None
#   ("union", (items...)) / ("inter", (items...)) / ("array", elem)
#   ("prim", word)                  string, number, unknown, any, object, undefined, ...
#   ("str", value)                  a string literal type
#   ("other", node type)            a function, tuple, literal, conditional, mapped ... type
#   ("other", "index_type_query", expr)   `keyof T`, with the type it takes the keys of
#   ("mapped", P, keys, value)      `{ [P in keys]: value }` (no `as` clause)
#   ("cond", checked, extends, then, else)   `checked extends extends ? then : else`
#   ("index", object, key)          `object[key]`, an indexed access
Expr = tuple[Any, ...]
# The callable name under which a type's call signatures are kept (``(url, options?):
# ResponsePromise`` in ``declare const ky: { ... }`` or an interface): what calling a
# value of that type takes.
CALL_SIGNATURE = "(call)"


# ---------------------------------------------------------------------- one file's table


@dataclass
class Declaration:
    """A type alias, interface or class: its generic parameters (name, default), its body
    (an alias's type; an interface's or class's fields as an object type) and what it
    extends."""

    name: str
    kind: str  # alias | interface | class
    line: int
    params: tuple[tuple[str, Expr | None], ...]
    body: Expr
    extends: tuple[Expr, ...] = ()
    # A class's fields that ``keyof`` leaves out or its body does not write: protected and
    # private ones, and the constructor's parameter properties (``constructor(protected
    # readonly em: EntityManager)``): name -> (type, line, as written, whether public).
    hidden: dict[str, tuple[Expr, int, str, bool]] = field(default_factory=dict)


@dataclass(frozen=True)
class Parameter:
    name: str
    type: Expr | None  # None: written without a type annotation
    rest: bool = False


@dataclass(frozen=True)
class Signature:
    line: int
    params: tuple[Parameter, ...]
    declared_only: bool  # an overload or interface signature, not an implementation
    returns: str = ""  # the declared return type as written ("" when not declared)
    # Its type parameters' constraints (`extend<T extends Array<Got | Options>>`): name, type.
    bounds: tuple[tuple[str, Expr], ...] = ()
    # The class an implementation with no declared return type makes: every ``return`` of
    # its body (nested functions aside) is a ``new`` of that one class, written as a name
    # (``return new Chart(item, config)``), which is the type the call gives; else "".
    made: str = ""


@dataclass
class TypeTable:
    types: dict[str, list[Declaration]] = field(default_factory=dict)
    # container ("" for the file's functions) -> callable name -> its signatures
    callables: dict[str, dict[str, list[Signature]]] = field(default_factory=dict)
    # A variable the file declares with a type (`const fs: typeof import("fs-extra")`,
    # `declare const jest: Jest`) -> that type as written, spaces collapsed.
    values: dict[str, str] = field(default_factory=dict)
    # `import https = require("https")`: name -> the module required.
    required: dict[str, str] = field(default_factory=dict)
    # The namespaces the file declares (`declare namespace fastify { ... }`), whose types
    # are read as the file's own: `fastify.FastifyHttpOptions` is `FastifyHttpOptions`.
    namespaces: set[str] = field(default_factory=set)


# A JavaScript file's parameters (the TypeScript grammar wraps each in required_parameter).
_JS_PARAMETERS = frozenset(
    {"identifier", "assignment_pattern", "rest_pattern", "object_pattern", "array_pattern"}
)


def static_side(name: str) -> str:
    """The container a class's static methods are tabled under (TypeScript writes the
    class's static side ``typeof Name``)."""
    return f"typeof {name}"


def _named(node: Any) -> list[Any]:
    """A node's named children without comments (tree-sitter keeps comments as named
    nodes, and may even give one a field name)."""
    return [child for child in node.named_children if child.type != "comment"]


def _field(node: Any, name: str) -> Any:
    found = field_of(node, name)
    if found is not None and found.type == "comment":
        # A comment between the `=` (or `:`) and the value took the field: the value is
        # the last named child that is not a comment.
        rest = _named(node)
        return rest[-1] if rest else None
    return found


# What a callable object type's members come from besides its own: a function's.
_FUNCTION: Expr = ("ref", "Function", ())


def _callable(node: Any) -> bool:
    """Whether an object type has a call signature (and no construct signature, which
    keeps it unread)."""
    kinds = {member.type for member in _named(node)}
    return "call_signature" in kinds and "construct_signature" not in kinds


def _intersected(node: Any) -> list[Any]:
    """The parts of an intersection type (``A & B & C`` nests), none for another type."""
    if node is None or node.type != "intersection_type":
        return []
    parts: list[Any] = []
    for part in _named(node):
        parts += _intersected(part) if part.type == "intersection_type" else [part]
    return parts


# What a ``return`` inside them returns is not the enclosing function's.
_NESTED_SCOPES = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "generator_function_declaration", "generator_function", "method_definition",
     "class_declaration", "class", "abstract_class_declaration"}
)  # fmt: skip


def _returns_of(body: Any) -> list[Any]:
    """The values of a function body's ``return`` statements (nested functions and classes
    aside); None for a bare ``return``."""
    found: list[Any] = []
    todo = list(_named(body))
    while todo:
        node = todo.pop()
        if node.type in _NESTED_SCOPES:
            continue
        if node.type == "return_statement":
            found.append(_first(node))
            continue
        todo.extend(_named(node))
    return found


def _first(node: Any) -> Any:
    rest = _named(node)
    return rest[0] if rest else None


class _Reader:
    def __init__(self, source: bytes) -> None:
        self.source = source
        self.table = TypeTable()

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    def line(self, node: Any) -> int:
        return int(node.start_point[0]) + 1

    # ---------------------------------------------------------------- types
    def expr(self, node: Any) -> Expr:
        if node is None:
            return ("other", "missing")
        kind = node.type
        if kind == "type_annotation":
            return self.expr(_first(node))
        if kind == "parenthesized_type":
            return self.expr(_first(node))
        if kind == "type_identifier":
            return ("ref", self.text(node), ())
        if kind == "nested_type_identifier":
            return ("ref", self.text(node), ())  # ns.X: not followed (answers None)
        if kind == "generic_type":
            name = _field(node, "name")
            args = _field(node, "type_arguments")
            arguments = tuple(self.expr(a) for a in _named(args)) if args is not None else ()
            return ("ref", self.text(name) if name is not None else "", arguments)
        if kind == "predefined_type":
            return ("prim", self.text(node))
        if kind == "literal_type":
            inner = _first(node)
            if inner is not None and inner.type == "string":
                return ("str", self.text(inner)[1:-1])
            if inner is not None and inner.type in ("undefined", "null"):
                return ("prim", inner.type)
            return ("other", "literal")
        if kind in ("union_type", "intersection_type"):
            items: list[Expr] = []
            tag = "union" if kind == "union_type" else "inter"
            for child in _named(node):
                item = self.expr(child)
                # `A | B | C` nests left; flatten it.
                items.extend(item[1] if item[0] == tag else (item,))
            return (tag, tuple(items))
        if kind == "array_type":
            return ("array", self.expr(_first(node)))
        if kind == "readonly_type":
            return self.expr(_first(node))
        if kind == "index_type_query":
            return ("other", kind, self.expr(_first(node)))
        if kind == "conditional_type":
            parts = ("left", "right", "consequence", "alternative")
            return ("cond", *(self.expr(_field(node, part)) for part in parts))
        if kind == "lookup_type" and len(_named(node)) == 2:
            whole, key = _named(node)
            return ("index", self.expr(whole), self.expr(key))
        if kind in ("opting_type_annotation", "omitting_type_annotation"):
            return self.expr(_first(node))
        if kind == "function_type":
            # Its parameters' types: what a callback of this type is called with.
            params = tuple(p.type or ("prim", "any") for p in self.parameters(node))
            return ("other", kind, params)
        if kind == "object_type":
            return self.object_type(node)
        return ("other", kind)

    def object_type(self, node: Any, callable_ok: bool = False) -> Expr:
        """``callable_ok``: the type of a value (``declare const ky: { ... }``), whose call
        signatures are kept apart (:data:`CALL_SIGNATURE`) rather than making it no record."""
        fields: dict[str, tuple[Expr, int, str]] = {}
        index: tuple[Expr, str] | None = None
        for member in _named(node):
            if member.type == "call_signature" and callable_ok:
                continue
            if member.type == "property_signature":
                name = _field(member, "name")
                annotation = _field(member, "type")
                if name is None:
                    continue
                key = self.text(name).strip("'\"")
                text = self.text(annotation).lstrip(":").strip() if annotation else "any"
                typed = self.expr(annotation) if annotation is not None else ("prim", "any")
                fields[key] = (typed, self.line(member), text)
            elif member.type == "method_signature":
                name = _field(member, "name")
                if name is not None:
                    key = self.text(name).strip("'\"")
                    # The type of a property of a function type (what a function written
                    # there is called with); overloads: which one applies is not told.
                    params = tuple(p.type or ("prim", "any") for p in self.parameters(member))
                    signature: Expr = ("other", "function_type", params)
                    if key in fields:
                        signature = ("other", "method")
                    fields[key] = (signature, self.line(member), "method")
            elif member.type == "index_signature":
                clause = next((c for c in _named(member) if c.type == "mapped_type_clause"), None)
                if clause is not None:
                    return self.mapped(clause, _field(member, "type"), len(_named(node)))
                key_type = _field(member, "index_type")
                value = _field(member, "type")
                if key_type is None or self.text(key_type) != "string" or value is None:
                    return ("other", "index_signature")  # a number or symbol key
                index = (self.expr(value), self.text(value).lstrip(":").strip())
            else:
                # call or construct signatures: not a plain record of fields
                return ("other", member.type)
        return ("obj", fields, index)

    def mapped(self, clause: Any, value: Any, members: int) -> Expr:
        """``{ [P in K]: V }``: the parameter, the keys and the value type; a key remapped
        with ``as``, or a mapped member beside other members, is not read."""
        parts = _named(clause)
        name, keys = _field(clause, "name"), _field(clause, "type")
        if members != 1 or len(parts) != 2 or name is None or keys is None:
            return ("other", "mapped_type")
        typed = self.expr(value) if value is not None else ("prim", "any")
        return ("mapped", self.text(name), self.expr(keys), typed)

    def type_params(self, node: Any) -> tuple[tuple[str, Expr | None], ...]:
        params = _field(node, "type_parameters")
        if params is None:
            return ()
        found = []
        for param in _named(params):
            name = _field(param, "name")
            default = _field(param, "value")
            if default is not None and default.type == "default_type":
                default = _first(default)
            found.append((self.text(name) if name else "", self.expr(default) if default else None))
        return tuple(found)

    # ---------------------------------------------------------------- callables
    def parameters(self, node: Any) -> tuple[Parameter, ...]:
        params = _field(node, "parameters")
        if params is None:
            return ()
        found = []
        for param in _named(params):
            if param.type in _JS_PARAMETERS:
                found.append(self.js_parameter(param))
                continue
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            pattern = _field(param, "pattern")
            if pattern is not None and pattern.type == "this":
                continue  # `this: Context`: the receiver's type, not an argument
            annotation = _field(param, "type")
            rest = pattern is not None and pattern.type == "rest_pattern"
            # `...items`: the parameter is named `items` (the dots say it is the rest).
            named = _first(pattern) if rest else pattern
            found.append(
                Parameter(
                    self.text(named) if named is not None else "",
                    self.expr(annotation) if annotation is not None else None,
                    rest,
                )
            )
        return tuple(found)

    def js_parameter(self, param: Any) -> Parameter:
        """A parameter as the JavaScript grammar writes it (no type): ``a``, ``a = 1``,
        ``...rest``, or a destructuring pattern (named as written)."""
        rest = param.type == "rest_pattern"
        named = _first(param) if rest else param
        if named is not None and named.type == "assignment_pattern":
            named = _field(named, "left")
        return Parameter(self.text(named) if named is not None else "", None, rest)

    def add_callable(self, container: str, name: str, node: Any, declared_only: bool) -> None:
        by_name = self.table.callables.setdefault(container, {})
        declared = _field(node, "return_type")
        returns = self.text(declared).lstrip(":").strip() if declared is not None else ""
        made = "" if declared is not None or declared_only else self.made_class(node)
        by_name.setdefault(name, []).append(
            Signature(
                self.line(node),
                self.parameters(node),
                declared_only,
                returns,
                self.bounds(node),
                made,
            )
        )

    def made_class(self, node: Any) -> str:
        """The one class every ``return`` of a function's body is a ``new`` of (an arrow
        function's expression body counts as its return), written as a plain name; "" when
        a return gives anything else (or nothing), or the body returns nowhere. An async
        function gives a promise and a generator an iterator: neither is followed."""
        body = _field(node, "body")
        if body is None or any(c.type in ("async", "*") for c in node.children):
            return ""
        returned = [body] if body.type != "statement_block" else _returns_of(body)
        names: set[str] = set()
        for value in returned:
            while value is not None and value.type == "parenthesized_expression":
                value = _first(value)
            constructor = _field(value, "constructor") if value is not None else None
            if value is None or value.type != "new_expression" or constructor is None:
                return ""
            if constructor.type != "identifier":
                return ""  # `new ns.Client()`, `new (x())()`: not followed
            names.add(self.text(constructor))
        return names.pop() if len(names) == 1 else ""

    def bounds(self, node: Any) -> tuple[tuple[str, Expr], ...]:
        params = _field(node, "type_parameters")
        found = []
        for param in _named(params) if params is not None else ():
            name, constraint = _field(param, "name"), _field(param, "constraint")
            if name is not None and constraint is not None and _first(constraint) is not None:
                found.append((self.text(name), self.expr(_first(constraint))))
        return tuple(found)

    # ---------------------------------------------------------------- statements
    def build(self, root: Any) -> TypeTable:
        for child in _named(root):
            self.statement(child)
        return self.table

    def statement(self, node: Any) -> None:
        kind = node.type
        if kind == "export_statement":
            declaration = _field(node, "declaration")
            if declaration is not None:
                self.statement(declaration)
            return
        if kind == "ambient_declaration":
            for child in _named(node):
                self.statement(child)
            return
        if kind == "expression_statement":
            for child in _named(node):
                if child.type in ("internal_module", "module"):
                    self.statement(child)  # `namespace X {}` at the top level
            return
        if kind == "import_statement":
            # `import https = require("https")`: the module a name is (Node's option types).
            for clause in _named(node):
                if clause.type == "import_require_clause":
                    names = [c for c in _named(clause) if c.type == "identifier"]
                    spec = [c for c in _named(clause) if c.type == "string"]
                    if names and spec:
                        required = self.text(spec[0]).strip("'\"`")
                        self.table.required[self.text(names[0])] = required
            return
        if kind in ("internal_module", "module"):
            named = _field(node, "name")
            if named is not None and named.type == "identifier":
                self.table.namespaces.add(self.text(named))
            block = _field(node, "body")
            for child in _named(block) if block is not None else ():
                self.statement(child)  # a namespace's types are read as the file's
            return
        name_node = _field(node, "name")
        name = self.text(name_node) if name_node is not None else ""
        body: Expr
        if kind == "type_alias_declaration" and name:
            value = _field(node, "value")
            if value is not None and value.type == "object_type" and _callable(value):
                # `type Log = { (entry: LogEntry): void; formatters?: ... }`: a function with
                # properties of its own; its call signatures are kept as callables.
                body = ("inter", (_FUNCTION, self.object_type(value, callable_ok=True)))
                for member in _named(value):
                    self.member_callable(name, member)
            else:
                body = self.expr(value)
                # `type Got = { extend(...): Got } & Record<...>`: the methods an object
                # part declares are the alias's, as an interface's would be.
                for part in _intersected(value):
                    for member in _named(part) if part.type == "object_type" else ():
                        if member.type in ("method_signature", "property_signature"):
                            self.member_callable(name, member)
            self.declare(Declaration(name, "alias", self.line(node), self.type_params(node), body))
        elif kind == "interface_declaration" and name:
            body_node = _field(node, "body")
            body = (
                self.object_type(body_node, callable_ok=True)
                if body_node is not None
                else ("obj", {}, None)
            )
            extends: list[Expr] = (
                [_FUNCTION] if body_node is not None and _callable(body_node) else []
            )
            for child in _named(node):
                if child.type == "extends_type_clause":
                    extends += [self.expr(t) for t in _named(child)]
            self.declare(
                Declaration(
                    name, "interface", self.line(node), self.type_params(node), body, tuple(extends)
                )
            )
            if body_node is not None:
                for member in _named(body_node):
                    self.member_callable(name, member)
        elif kind in ("class_declaration", "abstract_class_declaration") and name:
            self.class_declaration(node, name)
        elif kind in ("function_declaration", "function_signature") and name:
            self.add_callable("", name, node, kind == "function_signature")
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                value = _field(declarator, "value")
                target = _field(declarator, "name")
                declared = _field(declarator, "type")
                if declared is not None and target is not None and target.type == "identifier":
                    written = " ".join(self.text(declared).lstrip(":").split())
                    self.table.values.setdefault(self.text(target), written)
                annotation = declared if value is None else None
                typed = _first(annotation) if annotation is not None else None
                if typed is not None and typed.type == "object_type" and target is not None:
                    self.value_type(self.text(target), typed)
                if (
                    declarator.type == "variable_declarator"
                    and target is not None
                    and target.type == "identifier"
                    and value is not None
                    and value.type in ("arrow_function", "function_expression", "function")
                ):
                    self.add_callable("", self.text(target), value, False)

    def value_type(self, name: str, node: Any) -> None:
        """``declare const ky: { (url, options?): R; get(url, options?): R }``: the inline
        type is declared under the constant's name, as an interface is (its members, and
        its call signatures as :data:`CALL_SIGNATURE`), unless a type of that name is."""
        if name in self.table.types:
            return
        body = self.object_type(node, callable_ok=True)
        self.declare(Declaration(name, "interface", self.line(node), (), body))
        for member in _named(node):
            self.member_callable(name, member)

    def member_callable(self, container: str, member: Any) -> None:
        if member.type == "call_signature":
            self.add_callable(container, CALL_SIGNATURE, member, True)
            return
        name = _field(member, "name")
        if name is None:
            return
        if member.type == "method_signature":
            self.add_callable(container, self.text(name), member, True)
        elif member.type == "property_signature":
            annotation = _field(member, "type")
            function = _first(annotation) if annotation is not None else None
            if function is not None and function.type == "function_type":
                self.add_callable(container, self.text(name), function, True)

    def class_declaration(self, node: Any, name: str) -> None:
        fields: dict[str, tuple[Expr, int, str]] = {}
        hidden: dict[str, tuple[Expr, int, str, bool]] = {}
        extends: list[Expr] = []
        for child in _named(node):
            if child.type == "class_heritage":
                for clause in _named(child):
                    if clause.type == "extends_clause":
                        value = _field(clause, "value")
                        if value is not None and value.type == "identifier":
                            extends.append(("ref", self.text(value), ()))
                        elif value is not None:
                            extends.append(("other", value.type))
        body = _field(node, "body")
        for member in _named(body) if body is not None else ():
            member_name = _field(member, "name")
            if member_name is None:
                continue
            key = self.text(member_name)
            quoted = _quoted_name(member_name)  # got's `['constructor']: typeof Request`
            key = self.text(quoted) if quoted is not None else key
            # What `keyof` of the class has (got's `Except<Options, ...>` of a class of
            # accessors): its public instance members, not #private, private, protected.
            public = (member_name.type == "property_identifier" or quoted is not None) and not any(
                c.type == "accessibility_modifier" and self.text(c) != "public"
                for c in member.children
            )
            if member.type in (
                "method_definition",
                "method_signature",
                "abstract_method_signature",
            ):
                if any(c.type == "static" or self.text(c) == "static" for c in member.children[:3]):
                    # called on the class, never on an instance: the class's static side
                    self.add_callable(
                        static_side(name), key, member, member.type != "method_definition"
                    )
                    continue
                self.add_callable(name, key, member, member.type != "method_definition")
                if public and key != "constructor":
                    self.class_member(fields, key, member)
                if key == "constructor":
                    self.parameter_properties(member, hidden)
            elif member.type == "public_field_definition":
                annotation = _field(member, "type")
                typed = self.expr(annotation) if annotation is not None else ("other", "untyped")
                text = self.text(annotation).lstrip(":").strip() if annotation else ""
                if public:
                    fields[key] = (typed, self.line(member), text)
                else:
                    hidden[key] = (typed, self.line(member), text, False)
        # A public parameter property (`constructor(public event: string)`) is a field.
        fields.update({k: v[:3] for k, v in hidden.items() if v[3] and k not in fields})
        self.declare(
            Declaration(
                name,
                "class",
                self.line(node),
                self.type_params(node),
                ("obj", fields, None),
                tuple(extends),
                hidden,
            )
        )

    def parameter_properties(
        self, constructor: Any, hidden: dict[str, tuple[Expr, int, str, bool]]
    ) -> None:
        """``constructor(protected readonly em: EntityManager)``: each parameter written
        with an accessibility modifier or ``readonly`` is a field of the class too."""
        params = _field(constructor, "parameters")
        for param in _named(params) if params is not None else ():
            modifiers = [
                self.text(c) for c in param.children
                if c.type == "accessibility_modifier" or self.text(c) == "readonly"
            ]  # fmt: skip
            pattern, annotation = _field(param, "pattern"), _field(param, "type")
            if not modifiers or pattern is None or pattern.type != "identifier":
                continue
            typed = self.expr(annotation) if annotation is not None else ("other", "untyped")
            text = self.text(annotation).lstrip(":").strip() if annotation is not None else ""
            public = not any(m in ("private", "protected") for m in modifiers)
            hidden[self.text(pattern)] = (typed, self.line(param), text, public)

    def class_member(self, fields: dict[str, tuple[Expr, int, str]], key: str, member: Any) -> None:
        """A method or accessor as a field: a setter's value type (what an object literal
        writes there), else a getter's declared type, else a method."""
        words = [self.text(c) for c in member.children[:2]]
        how = next((w for w in words if w in ("get", "set")), "")
        typed: Expr = ("other", "method")
        text = "method"
        if how == "set":
            params = self.parameters(member)
            if params and params[0].type is not None:
                typed = params[0].type
                annotation = next((c for c in _named(_field(member, "parameters"))), None)
                written = _field(annotation, "type") if annotation is not None else None
                text = self.text(written).lstrip(":").strip() if written is not None else ""
        elif how == "get":
            declared = _field(member, "return_type")
            if key in fields and fields[key][2] != "method":
                return  # a setter's type already read
            if declared is None:  # `get exitCode() {...}`: a key all the same, its type unsaid
                fields[key] = (("other", "untyped"), self.line(member), "")
                return
            typed, text = self.expr(declared), self.text(declared).lstrip(":").strip()
        elif key in fields:
            return
        fields[key] = (typed, self.line(member), text)

    def declare(self, declaration: Declaration) -> None:
        self.table.types.setdefault(declaration.name, []).append(declaration)


def read_type_table(text: str, parser: Any) -> TypeTable:
    source = text.encode("utf-8")
    return _Reader(source).build(parser.parse(source).root_node)


def read_type_tree(source: bytes, root: Any) -> TypeTable:
    """The table of a file already parsed (``root`` is its syntax tree's root node)."""
    return _Reader(source).build(root)


def _quoted_name(node: Any) -> Any:
    """The string fragment a computed member name written as one string is
    (``['constructor']``); None for any other name."""
    if node.type != "computed_property_name" or len(node.named_children) != 1:
        return None
    inner = node.named_children[0]
    fragments = [c for c in inner.named_children if c.type == "string_fragment"]
    return fragments[0] if inner.type == "string" and len(fragments) == 1 else None
