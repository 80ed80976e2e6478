"""The declared types of a TypeScript repository, as far as gate 2's type-directed key rule
needs them (issue 10): which type a parameter of a class method or a function has, and
what type a field at a key path of that type has.

Per source file, :func:`type_table` reads (with tree-sitter, the parsers of
:mod:`.repomap`) every type alias, interface and class with its fields and their declared
types, every method signature of a class or interface, and every top-level function with
its parameters' types. Names are followed across files by gate 15's module lookup
(:class:`~pytest_postgates.evidence.api_lookup.ApiLookup`: imports, re-exports,
``export *``), so a name means what the file that writes it imports, never "some type of
that name somewhere". Types are kept as small tuples (see ``Expr``); the resolver
(:class:`TypeModel`) expands aliases, generics, unions, intersections, ``Partial``/
``Omit``/``Pick``/``Record`` and ``extends``, and answers ``None`` (cannot tell) for
anything else: a conditional or mapped type, ``typeof``, an indexed access, a type
parameter without an argument, a name it cannot follow. Nothing is guessed.

Each file is parsed the first time a question reaches it and kept for the life of the
repository index (``RepoIndex.memo``: one commit), so a run parses a file once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
from pytest_postgates.evidence.file_table import field_of, node_text

# A type expression, plain data:
#   ("ref", name, (args...))        a named type, generic arguments in order
#   ("obj", {field: (expr, line, text)}, index)   an object type; index: (expr, text) | None
#   ("union", (items...)) / ("inter", (items...)) / ("array", elem)
#   ("prim", word)                  string, number, unknown, any, object, undefined, ...
#   ("str", value)                  a string literal type
#   ("other", node type)            a function, tuple, literal, conditional, mapped ... type
Expr = tuple[Any, ...]
MAX_DEPTH = 24
_BUILTIN_WRAPPERS = frozenset({"Partial", "Required", "Readonly", "NonNullable"})
_ARRAYS = frozenset({"Array", "ReadonlyArray"})
_NOTHING = frozenset({"undefined", "null", "void", "never"})
# Value types that make an index signature free-form: any key, any value.
FREE_VALUES = frozenset({"unknown", "any"})


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


@dataclass
class TypeTable:
    types: dict[str, list[Declaration]] = field(default_factory=dict)
    # container ("" for the file's functions) -> callable name -> its signatures
    callables: dict[str, dict[str, list[Signature]]] = field(default_factory=dict)


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
        if kind == "object_type":
            return self.object_type(node)
        return ("other", kind)

    def object_type(self, node: Any) -> Expr:
        fields: dict[str, tuple[Expr, int, str]] = {}
        index: tuple[Expr, str] | None = None
        for member in _named(node):
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
                    fields[self.text(name)] = (("other", "method"), self.line(member), "method")
            elif member.type == "index_signature":
                if any(c.type == "mapped_type_clause" for c in _named(member)):
                    return ("other", "mapped_type")
                key_type = _field(member, "index_type")
                value = _field(member, "type")
                if key_type is None or self.text(key_type) != "string" or value is None:
                    return ("other", "index_signature")  # a number or symbol key
                index = (self.expr(value), self.text(value).lstrip(":").strip())
            else:
                # call or construct signatures: not a plain record of fields
                return ("other", member.type)
        return ("obj", fields, index)

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
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            pattern = _field(param, "pattern")
            annotation = _field(param, "type")
            rest = pattern is not None and pattern.type == "rest_pattern"
            found.append(
                Parameter(
                    self.text(pattern) if pattern is not None else "",
                    self.expr(annotation) if annotation is not None else None,
                    rest,
                )
            )
        return tuple(found)

    def add_callable(self, container: str, name: str, node: Any, declared_only: bool) -> None:
        by_name = self.table.callables.setdefault(container, {})
        by_name.setdefault(name, []).append(
            Signature(self.line(node), self.parameters(node), declared_only)
        )

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
        name_node = _field(node, "name")
        name = self.text(name_node) if name_node is not None else ""
        if kind == "type_alias_declaration" and name:
            body = self.expr(_field(node, "value"))
            self.declare(Declaration(name, "alias", self.line(node), self.type_params(node), body))
        elif kind == "interface_declaration" and name:
            body_node = _field(node, "body")
            body = self.object_type(body_node) if body_node is not None else ("obj", {}, None)
            extends: list[Expr] = []
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
                if (
                    declarator.type == "variable_declarator"
                    and target is not None
                    and target.type == "identifier"
                    and value is not None
                    and value.type in ("arrow_function", "function_expression", "function")
                ):
                    self.add_callable("", self.text(target), value, False)

    def member_callable(self, container: str, member: Any) -> None:
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
            if member.type in (
                "method_definition",
                "method_signature",
                "abstract_method_signature",
            ):
                if any(c.type == "static" or self.text(c) == "static" for c in member.children[:3]):
                    continue  # a static method is not called on an instance
                self.add_callable(name, key, member, member.type != "method_definition")
            elif member.type == "public_field_definition":
                annotation = _field(member, "type")
                typed = self.expr(annotation) if annotation is not None else ("other", "untyped")
                text = self.text(annotation).lstrip(":").strip() if annotation else ""
                fields[key] = (typed, self.line(member), text)
        self.declare(
            Declaration(
                name,
                "class",
                self.line(node),
                self.type_params(node),
                ("obj", fields, None),
                tuple(extends),
            )
        )

    def declare(self, declaration: Declaration) -> None:
        self.table.types.setdefault(declaration.name, []).append(declaration)


def read_type_table(text: str, parser: Any) -> TypeTable:
    source = text.encode("utf-8")
    return _Reader(source).build(parser.parse(source).root_node)


# ---------------------------------------------------------------------- resolution


@dataclass(frozen=True)
class TypeRef:
    """A type expression and the file whose names it uses (with generic arguments bound)."""

    expr: Expr
    path: str
    bound: tuple[tuple[str, TypeRef], ...] = ()

    def lookup(self, name: str) -> TypeRef | None:
        return next((ref for key, ref in self.bound if key == name), None)


@dataclass(frozen=True)
class FieldRef:
    """One declared field (or an index signature) a key path passes through."""

    type: TypeRef
    owner: str  # the declared type the field belongs to ("" for an anonymous object)
    name: str  # the field name, "[key: string]" for an index signature
    where: str  # path:line
    text: str  # the declared type as written


@dataclass
class Shape:
    """An object type after expansion: its fields (each may come from several declarations
    of an intersection) and its string index signatures."""

    fields: dict[str, list[FieldRef]]
    index: list[FieldRef]
    owner: str
    array_of: TypeRef | None = None  # set for an array type instead


@dataclass
class FreeForm:
    """The answer that decides: the object written at the key path has a free-form type."""

    container: str  # e.g. "GenerateOptions.context"
    call: str  # the call the object is passed to, e.g. "NeuroLink.generate()"
    declared: str  # the type as declared, e.g. "StandardRecord"
    expands_to: str  # what it resolves to, e.g. "Record<string, unknown>"
    where: str  # path:line of the field (or parameter)


class TypeModel:
    """Types of one repository commit, read lazily file by file."""

    def __init__(self, lookup: ApiLookup, parser_for: Any) -> None:
        self.lookup = lookup
        self._parser_for = parser_for  # path -> tree-sitter parser or None
        self._tables: dict[str, TypeTable | None] = {}
        self._lock = threading.Lock()

    def table(self, path: str) -> TypeTable | None:
        with self._lock:
            if path in self._tables:
                return self._tables[path]
        text = self.lookup.tables.text(path) if self.lookup.tables.text is not None else None
        parser = self._parser_for(path)
        table = read_type_table(text, parser) if text is not None and parser is not None else None
        with self._lock:
            self._tables.setdefault(path, table)
            return self._tables[path]

    # ---------------------------------------------------------------- names
    def declarations(self, path: str, name: str) -> tuple[str, list[Declaration]] | None:
        """The declarations a name written in ``path`` means: declared there, or imported
        (followed through re-exports)."""
        table = self.table(path)
        if table is None:
            return None
        if name in table.types:
            return path, table.types[name]
        binding = self.lookup.local_binding(path, name)
        if not isinstance(binding, Binding) or binding.path == path:
            return None
        target = self.table(binding.path)
        if target is None or binding.local not in target.types:
            return None
        return binding.path, target.types[binding.local]

    def signatures(
        self, path: str, container: str, method: str, depth: int = 0
    ) -> tuple[str, list[Signature]] | None:
        """A class's or interface's (``container``) signatures of ``method``, inherited ones
        found through ``extends``; for a function, ``container`` is ``""``."""
        if depth > MAX_DEPTH:
            return None
        table = self.table(path)
        if table is None:
            return None
        found = table.callables.get(container, {}).get(method)
        if found:
            declared = [s for s in found if s.declared_only]
            return path, declared or found
        if not container:
            return None
        declarations = table.types.get(container, [])
        for declaration in declarations:
            for base in declaration.extends:
                if base[0] != "ref":
                    return None
                target = self.declarations(path, base[1])
                if target is None:
                    return None
                base_path, base_declarations = target
                result = self.signatures(base_path, base_declarations[0].name, method, depth + 1)
                if result is not None:
                    return result
        return None

    # ---------------------------------------------------------------- shapes
    def shapes(self, ref: TypeRef, depth: int = 0) -> list[Shape] | None:
        """The object shapes a type may be (a union's members; primitives and functions
        contribute none), or None when the type cannot be expanded."""
        if depth > MAX_DEPTH:
            return None
        expr = ref.expr
        tag = expr[0]
        if tag == "prim":
            if expr[1] in ("unknown", "any", "object"):
                return None  # accepts any object, but is not a record the product declares
            return []
        if tag in ("str", "other"):
            return [] if tag == "str" or expr[1] in ("function_type", "literal") else None
        if tag == "array":
            return [Shape({}, [], "", array_of=TypeRef(expr[1], ref.path, ref.bound))]
        if tag == "union":
            found: list[Shape] = []
            for item in expr[1]:
                shapes = self.shapes(TypeRef(item, ref.path, ref.bound), depth + 1)
                if shapes is None:
                    return None
                found += shapes
            return found
        if tag == "inter":
            parts = []
            for item in expr[1]:
                shapes = self.shapes(TypeRef(item, ref.path, ref.bound), depth + 1)
                if shapes is None or len(shapes) != 1 or shapes[0].array_of is not None:
                    return None
                parts.append(shapes[0])
            return [_merge(parts)]
        if tag == "obj":
            fields, index = expr[1], expr[2]
            if not fields and index is None:
                return None  # `{}`: any non-null value
            return [self._object_shape("", fields, index, ref)]
        if tag == "ref":
            return self._ref_shapes(ref, depth)
        return None

    def _object_shape(
        self,
        owner: str,
        fields: dict[str, tuple[Expr, int, str]],
        index: tuple[Expr, str] | None,
        ref: TypeRef,
        line: int = 0,
    ) -> Shape:
        return Shape(
            {
                name: [
                    FieldRef(
                        TypeRef(typed, ref.path, ref.bound), owner, name, f"{ref.path}:{at}", text
                    )
                ]
                for name, (typed, at, text) in fields.items()
            },
            [
                FieldRef(
                    TypeRef(index[0], ref.path, ref.bound),
                    owner,
                    "[key: string]",
                    f"{ref.path}:{line}" if line else ref.path,
                    index[1],
                )
            ]
            if index is not None
            else [],
            owner,
        )

    def _ref_shapes(self, ref: TypeRef, depth: int) -> list[Shape] | None:
        _tag, name, args = ref.expr
        bound = ref.lookup(name)
        if bound is not None and not args:
            return self.shapes(bound, depth + 1)
        declared = self.declarations(ref.path, name) if "." not in name else None
        if declared is None:
            return self._builtin_shapes(ref, depth)
        path, declarations = declared
        params = declarations[0].params
        if len(args) > len(params):
            return None
        binding: list[tuple[str, TypeRef]] = []
        for position, (param, default) in enumerate(params):
            if position < len(args):
                binding.append((param, TypeRef(args[position], ref.path, ref.bound)))
            elif default is not None:
                binding.append((param, TypeRef(default, path, ())))
            else:
                return None  # a type parameter without an argument
        bound_args = tuple(binding)
        if declarations[0].kind == "alias":
            if len(declarations) != 1:
                return None
            shapes = self.shapes(TypeRef(declarations[0].body, path, bound_args), depth + 1)
            return None if shapes is None else [_owned(shape, name) for shape in shapes]
        # Interfaces (merged declarations) and classes: own fields, then what they extend.
        parts: list[Shape] = []
        for declaration in declarations:
            body = declaration.body
            if body[0] != "obj":
                return None
            parts.append(
                self._object_shape(
                    declaration.name,
                    body[1],
                    body[2],
                    TypeRef(body, path, bound_args),
                    declaration.line,
                )
            )
            for base in declaration.extends:
                shapes = self.shapes(TypeRef(base, path, bound_args), depth + 1)
                if shapes is None or len(shapes) != 1 or shapes[0].array_of is not None:
                    return None
                parts.append(shapes[0])
        return [_merge(parts, own=declarations[0].name)]

    def _builtin_shapes(self, ref: TypeRef, depth: int) -> list[Shape] | None:
        _tag, name, args = ref.expr
        arg = [TypeRef(a, ref.path, ref.bound) for a in args]
        if name in _BUILTIN_WRAPPERS and len(arg) == 1:
            return self.shapes(arg[0], depth + 1)
        if name in _ARRAYS and len(arg) == 1:
            return [Shape({}, [], "", array_of=arg[0])]
        if name == "Record" and len(arg) == 2:
            keys = _string_keys(args[0])
            if args[0] == ("prim", "string"):
                text = f"Record<string, {_show(args[1])}>"
                return [Shape({}, [FieldRef(arg[1], "", "[key: string]", ref.path, text)], "")]
            if keys is None:
                return None
            return [
                Shape(
                    {k: [FieldRef(arg[1], "", k, ref.path, _show(args[1]))] for k in keys}, [], ""
                )
            ]
        if name in ("Omit", "Pick") and len(arg) == 2:
            keys = _string_keys(args[1])
            shapes = self.shapes(arg[0], depth + 1)
            if keys is None or shapes is None:
                return None
            kept = []
            for shape in shapes:
                if shape.array_of is not None:
                    return None
                if name == "Omit":
                    fields = {k: v for k, v in shape.fields.items() if k not in keys}
                    kept.append(Shape(fields, shape.index, shape.owner))
                else:
                    fields = {k: v for k, v in shape.fields.items() if k in keys}
                    kept.append(Shape(fields, [], shape.owner))
            return kept
        return None

    def is_free_value(self, ref: TypeRef, depth: int = 0) -> bool:
        """Whether an index signature's value type is unknown or any (through aliases)."""
        expr = ref.expr
        if expr[0] == "prim":
            return bool(expr[1] in FREE_VALUES)
        if expr[0] != "ref" or expr[2] or depth > MAX_DEPTH:
            return False
        bound = ref.lookup(expr[1])
        if bound is not None:
            return self.is_free_value(bound, depth + 1)
        declared = self.declarations(ref.path, expr[1])
        if declared is None or len(declared[1]) != 1 or declared[1][0].kind != "alias":
            return False
        return self.is_free_value(TypeRef(declared[1][0].body, declared[0]), depth + 1)

    # ---------------------------------------------------------------- key paths
    def container(
        self, start: TypeRef, path: tuple[str, ...]
    ) -> tuple[list[Shape], list[FieldRef]] | None:
        """The shapes the object written at ``path`` (keys, ``[]`` for an array element)
        of a value of type ``start`` may have, and the declared fields the last key step
        went through; None when a step cannot be resolved or no declaration holds a key."""
        current = self.shapes(start)
        last: list[FieldRef] = []
        for step in path:
            if current is None:
                return None
            following: list[FieldRef] = []
            next_shapes: list[Shape] = []
            for shape in current:
                if step == "[]":
                    if shape.array_of is not None:
                        more = self.shapes(shape.array_of)
                        if more is None:
                            return None
                        next_shapes += more
                    continue
                if shape.array_of is not None:
                    continue
                following += shape.fields.get(step) or shape.index
            for ref in following:
                more = self.shapes(ref.type)
                if more is None:
                    return None
                next_shapes += more
            if step != "[]":
                if not following:
                    return None  # no declaration holds this key: nothing to say
                last = following
            current = next_shapes
        if current is None:
            return None
        return current, last

    def free_form_at(self, start: TypeRef, path: tuple[str, ...], origin: str) -> FreeForm | None:
        """Whether the object written at ``path`` of a value of type ``start`` has a
        free-form record type in every declaration that can hold it; None when it does not
        or anything cannot be resolved."""
        found = self.container(start, path)
        if found is None or not found[0]:
            return None
        shapes, last = found
        for shape in shapes:
            if shape.array_of is not None or not shape.index:
                return None  # a closed object type: its keys are the product's
            if not all(self.is_free_value(entry.type) for entry in shape.index):
                return None
        expands = shapes[0].index[0]
        if last:
            field_ref = last[0]
            container = f"{field_ref.owner}.{field_ref.name}" if field_ref.owner else field_ref.name
            return FreeForm(container, "", field_ref.text, _index_text(expands), field_ref.where)
        return FreeForm(origin, "", _show(start.expr), _index_text(expands), expands.where)

    def closed_at(self, start: TypeRef, path: tuple[str, ...], origin: str) -> str | None:
        """The name of the object type written at ``path`` when it is closed in every
        declaration that can hold it (object types without an index signature): its keys
        are the product's, so a key written there is a claim about the product."""
        found = self.container(start, path)
        if found is None or not found[0]:
            return None
        shapes, last = found
        if any(shape.array_of is not None or shape.index for shape in shapes):
            return None
        if last:
            field_ref = last[0]
            return f"{field_ref.owner}.{field_ref.name}" if field_ref.owner else field_ref.name
        owners = sorted({shape.owner for shape in shapes if shape.owner})
        return " | ".join(owners) if owners else _show(start.expr)

    def closed_with(self, start: TypeRef, path: tuple[str, ...], key: str) -> bool:
        """Whether the object written at ``path`` has a closed type in every declaration
        that can hold it (no index signature) and one of them declares ``key``: an
        invented key there is a claim about the product (the recall bench plants there)."""
        found = self.container(start, path)
        if found is None or not found[0]:
            return False
        shapes = found[0]
        if any(shape.array_of is not None or shape.index for shape in shapes):
            return False
        return any(key in shape.fields for shape in shapes)


def _owned(shape: Shape, owner: str) -> Shape:
    """An alias's anonymous object type, its fields named after the alias."""
    if shape.owner or shape.array_of is not None:
        return shape

    def rename(refs: list[FieldRef]) -> list[FieldRef]:
        return [FieldRef(r.type, r.owner or owner, r.name, r.where, r.text) for r in refs]

    fields = {name: rename(refs) for name, refs in shape.fields.items()}
    return Shape(fields, rename(shape.index), owner)


def _index_text(entry: FieldRef) -> str:
    if entry.text.startswith("Record<"):
        return entry.text
    return f"{{ [key: string]: {entry.text} }}"


def _merge(parts: list[Shape], own: str = "") -> Shape:
    fields: dict[str, list[FieldRef]] = {}
    index: list[FieldRef] = []
    for part in parts:
        for name, refs in part.fields.items():
            fields.setdefault(name, []).extend(refs)
        index += part.index
    return Shape(fields, index, own or (parts[0].owner if parts else ""))


def _string_keys(expr: Expr) -> set[str] | None:
    if expr[0] == "str":
        return {expr[1]}
    if expr[0] == "union":
        keys: set[str] = set()
        for item in expr[1]:
            if item[0] != "str":
                return None
            keys.add(item[1])
        return keys
    return None


def _show(expr: Expr) -> str:
    if expr[0] in ("prim", "str"):
        return str(expr[1])
    if expr[0] == "ref":
        return str(expr[1])
    return "..."
