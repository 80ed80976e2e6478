"""The declared types of a TypeScript repository, as far as gate 2's type-directed key rule
needs them (issue 10): which type a parameter of a class method or a function has, and
what type a field at a key path of that type has.

Per source file, :mod:`.type_tables` reads (with tree-sitter, the parsers of
:mod:`.repomap`) every type alias, interface and class with its fields and their declared
types, every method signature of a class or interface, and every top-level function with
its parameters' types. Names are followed across files by gate 15's module lookup
(:class:`~pytest_postgates.evidence.api_lookup.ApiLookup`: imports, re-exports,
``export *``), so a name means what the file that writes it imports, never "some type of
that name somewhere". The resolver (:class:`TypeModel`) expands aliases, generics,
unions, intersections, ``Partial``/``Omit``/``Pick``/``Record``, ``extends``, mapped types,
indexed access and conditional types that test for an object (:mod:`.type_operators`), and
answers ``None`` (cannot tell) for anything else: any other conditional, ``typeof``, a
type parameter without an argument, a name it cannot follow. Nothing is guessed.

Each file is parsed the first time a question reaches it and kept as long as the
repository index (the model lives in ``RepoIndex.memo``: one commit), so a process parses
a file once; the few files a post's calls reach cost little (NeuroLink's 551 KiB
``neurolink.ts`` about 0.1 s), and the module tables the lookup follows imports with are
gate 15's, cached on disk.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from typing import Any

from pytest_postgates.evidence import shared_parses
from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
from pytest_postgates.evidence.read_keys import ReadKeys, Seen, outside_function, read_keys
from pytest_postgates.evidence.source_repairs import repaired
from pytest_postgates.evidence.type_follow import (
    KNOWN_PACKAGES,
    declared_import,
    known_keys,
    node_declarations,
    package_declarations,
    qualified_declarations,
    source_text,
    typed_file,
)
from pytest_postgates.evidence.type_operators import (
    BUILTIN_WRAPPERS,
    any_string,
    conditional_shapes,
    excluded_shapes,
    function_parameter,
    indexed_shapes,
    indexed_type,
    mapped_shapes,
    part_shapes,
)
from pytest_postgates.evidence.type_shapes import MAX_DEPTH, MAX_MEMBERS, FieldRef, Shape, TypeRef
from pytest_postgates.evidence.type_tables import (
    Declaration,
    Expr,
    Signature,
    TypeTable,
    read_type_table,
)

_ARRAYS = frozenset({"Array", "ReadonlyArray"})
# type-fest's wrappers (read only where the name is imported from it): those whose keys are
# their first argument's, and Merge and Except (the module's Omit), expanded below.
_TYPE_FEST_MODULES = KNOWN_PACKAGES
_TYPE_FEST_SAME = frozenset(
    {"PartialDeep", "ReadonlyDeep", "RequiredDeep", "Simplify", "Writable", "SetOptional",
     "SetRequired", "SetNonNullable", "PartialOnUndefinedDeep"}
)  # fmt: skip
_FUNCTION_MEMBERS = ("apply", "arguments", "bind", "call", "caller", "length", "name",
                     "prototype", "toString")  # fmt: skip
# Value types that make an index signature free-form: any key, any value.
FREE_VALUES = frozenset({"unknown", "any"})


# ---------------------------------------------------------------------- resolution


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

    def __init__(self, lookup: ApiLookup, parser_for: Any, code_parser_for: Any = None) -> None:
        self.lookup = lookup
        self._parser_for = parser_for  # path -> tree-sitter parser or None
        # path -> the parser of a JavaScript file's code (the keys a function reads), or None
        self._code_parser_for = code_parser_for
        self._tables: dict[str, TypeTable | None] = {}
        self._read: dict[tuple[str, str, int, tuple[str, ...], bool], ReadKeys | None] = {}
        self._code: dict[str, tuple[bytes, Any] | None] = {}
        self._lock = threading.Lock()

    def table(self, path: str) -> TypeTable | None:
        with self._lock:
            if path in self._tables:
                return self._tables[path]
        text, parser = source_text(self, path), self._parser_for(path)
        # The API model's build read it already where it kept it (shared_parses).
        kept = shared_parses.take_type_table(path, text, parser) if text and parser else None
        try:
            if kept is not None:
                table: TypeTable | None = kept
            else:
                table = read_type_table(text, parser) if text is not None and parser else None
        except RecursionError:  # nested past the reader's depth (a package's 1,000-member union)
            table = None
        with self._lock:
            self._tables.setdefault(path, table)
            return self._tables[path]

    def read_keys(
        self,
        path: str,
        name: str,
        position: int,
        keys: tuple[str, ...] = (),
        seen: Seen = frozenset(),
        returns: bool = False,
    ) -> ReadKeys | None:
        """The keys the JavaScript function ``name`` of ``path`` reads from its parameter
        ``position``, below the key path ``keys`` (:mod:`.read_keys`, calls of the product's
        other files followed); None when the file or function is not read. ``seen``: the
        functions on the way to this one (a read cut short on that way is not kept);
        ``returns``: the caller follows what the function returns."""
        key = (path, name, position, keys, returns)
        with self._lock:
            if key in self._read:
                return self._read[key]
            known = path in self._code
        if not known:
            parser = self._code_parser_for(path) if self._code_parser_for is not None else None
            text = self.lookup.tables.text(path) if self.lookup.tables.text is not None else None
            parsed: tuple[bytes, Any] | None = None
            if parser is not None and text is not None:
                source = text.encode("utf-8")
                tree = parser.parse(source)
                if tree.root_node.has_error:  # a known misread only; the rest as read
                    source, tree = repaired(parser, source, tree)
                parsed = (source, tree.root_node)
            with self._lock:
                self._code[path] = parsed
        parsed = self._code[path]
        outside = partial(self._outside, path)
        found = (
            read_keys(parsed[0], parsed[1], name, position, keys, outside, seen, path, returns)
            if parsed
            else None
        )
        if seen and (found is None or found.partial):
            return found  # cut short on this way: right for it alone
        with self._lock:
            self._read.setdefault(key, found)
            return self._read[key]

    def _outside(
        self, path: str, callee: str, index: int, keys: tuple[str, ...], seen: Seen
    ) -> ReadKeys | None:
        """The keys a function of another of the product's files that ``path`` calls
        (``callee``) reads from its argument ``index``; None when it is no such function."""
        target = outside_function(self.lookup, path, callee)
        if target is None:
            return None
        if (target[0], target[1], index, keys) in seen:
            return ReadKeys(partial=True)  # on the way already: its keys are counted there
        return self.read_keys(target[0], target[1], index, keys, seen, returns=True)

    # ---------------------------------------------------------------- names
    def declarations(self, path: str, name: str) -> tuple[str, list[Declaration]] | None:
        """The declarations a name written in ``path`` means: declared there, or imported
        (followed through re-exports)."""
        table = self.table(path)
        if table is None:
            return None
        space, dot, last = name.partition(".")
        if dot and space in table.namespaces:
            if last in table.types:
                return path, table.types[last]  # a type of a namespace the file declares
            if "." in last:
                # A namespace inside it, or one it re-exports (`export namespace doc {
                # export { printer } }`, then `doc.printer.Options`): the file's names.
                return self.declarations(path, last)
        if dot:
            return qualified_declarations(self, path, space, last)
        if name in table.types:
            return path, table.types[name]
        binding = self.lookup.local_binding(path, name)
        if not isinstance(binding, Binding) or binding.path == path:
            if (twin := declared_import(self, path, name)) is not None:
                return twin
            outside = not isinstance(binding, Binding) or path.startswith("/")
            return package_declarations(self, path, name) if outside else None
        where = typed_file(self, binding.path)
        target = self.table(where)
        if target is None or binding.local not in target.types:
            return None
        return where, target.types[binding.local]

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
            # `A & (B | C)` is `(A & B) | (A & C)`: a product of each part's members.
            combined: list[list[Shape]] = [[]]
            for item in expr[1]:
                if item == ("obj", {}, None) and len(expr[1]) > 1:
                    continue  # `T & {}` (a callable type's body of call signatures): T's keys
                shapes = part_shapes(self, TypeRef(item, ref.path, ref.bound), depth + 1)
                if not shapes or any(shape.array_of is not None for shape in shapes):
                    return None
                combined = [[*done, shape] for done in combined for shape in shapes]
                if len(combined) > MAX_MEMBERS:
                    return None
            return [_merge(parts) for parts in combined]
        if tag == "obj":
            fields, index = expr[1], expr[2]
            if not fields and index is None:
                return None  # `{}`: any non-null value
            return [self._object_shape("", fields, index, ref)]
        if tag == "ref":
            return self._ref_shapes(ref, depth)
        if tag == "mapped":
            return mapped_shapes(self, ref, depth)
        if tag == "cond":
            return conditional_shapes(self, ref, depth)
        if tag == "index":
            return indexed_shapes(self, ref, depth)
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
        declared = self.declarations(ref.path, name)
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
        if name in BUILTIN_WRAPPERS and len(arg) == 1:
            return self.shapes(arg[0], depth + 1)
        if name in _ARRAYS and len(arg) == 1:
            return [Shape({}, [], "", array_of=arg[0])]
        if name == "Exclude" and len(arg) == 2 and self.global_name(ref.path, name):
            return excluded_shapes(self, arg[0], arg[1], depth)
        if name == "Record" and len(arg) == 2:
            keys = self.literal_keys(arg[0])
            if any_string(self, arg[0], depth):
                text = f"Record<string, {_show(args[1])}>"
                return [Shape({}, [FieldRef(arg[1], "", "[key: string]", ref.path, text)], "")]
            if keys is None:
                return None
            return [
                Shape(
                    {k: [FieldRef(arg[1], "", k, ref.path, _show(args[1]))] for k in keys}, [], ""
                )
            ]
        if name == "Function" and not arg and self.global_name(ref.path, name):
            # What an interface with call signatures extends (type_tables): a function's
            # own members; no object literal is one.
            unknown = TypeRef(("prim", "unknown"), ref.path)
            members = {k: [FieldRef(unknown, name, k, "", "unknown")] for k in _FUNCTION_MEMBERS}
            return [Shape(members, [], name, callable=True)]
        wrapper = self._imported(ref.path, name, _TYPE_FEST_MODULES)
        if wrapper in _TYPE_FEST_SAME and arg:
            return self.shapes(arg[0], depth + 1)  # the keys are T's (PartialDeep<T>, ...)
        if wrapper == "Merge" and len(arg) == 2:
            return self._merged(arg[0], arg[1], depth)
        if wrapper == "Except":
            name = "Omit"  # type-fest's Omit, written before TypeScript had one
        known = known_keys(self, ref.path, name) if not arg else None
        if known is not None:  # Node's and the web platform's, known without reading them
            unknown = TypeRef(("prim", "unknown"), ref.path)
            fields = {k: [FieldRef(unknown, name, k, "", "unknown")] for k in sorted(known)}
            return [Shape(fields, [], name)]
        node = node_declarations(self, ref.path, name) if not arg else None
        if node is not None:  # the rest of Node's, read in @types/node when installed
            member = TypeRef(("ref", node[1][0].name, ()), node[0])
            return self.shapes(member, depth + 1)
        left_out = _omitted(args[0], args[1]) if name == "Pick" and len(arg) == 2 else None
        if left_out is not None:
            # `Pick<T, Exclude<keyof T, K>>`: Omit as written before TypeScript had it (K
            # a parameter of the alias it is written in: the argument bound to it).
            bound = ref.lookup(left_out[1]) if left_out[0] == "ref" and not left_out[2] else None
            name, keys_ref = "Omit", bound or TypeRef(left_out, ref.path, ref.bound)
        elif len(arg) == 2:
            keys_ref = arg[1]
        if name in ("Omit", "Pick") and len(arg) == 2:
            keys = self.literal_keys(keys_ref)
            shapes = self.shapes(arg[0], depth + 1)
            if shapes is None:
                return None
            if keys is None:
                # Keys the model cannot list (`Exclude<keyof T, keyof typeof C.DEFAULTS>`):
                # T's own keys bound what is kept, and a key outside them is none of its.
                return shapes
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

    def literal_keys(self, ref: TypeRef, depth: int = 0) -> set[str] | None:
        """The string literals a key type is (``'get' | 'post'``, through aliases:
        ``Record<HTTPAlias, ...>``); None when it is anything else."""
        keys = _string_keys(ref.expr)
        if keys is not None or depth > MAX_DEPTH:
            return keys
        expr = ref.expr
        if expr[0] == "index":
            # `Registry[K]['scales']`: the keys each field it reads is declared to hold.
            read = indexed_type(self, ref, depth + 1)
            if read is None:
                return None
            union: set[str] = set()
            for entry in read:
                more = self.literal_keys(entry.type, depth + 1)
                if more is None:
                    return None
                union |= more
            return union
        if expr[0] == "other" and expr[1] == "index_type_query" and len(expr) == 3:
            # `keyof T`: the keys of a closed object type (one shape, no index signature)
            shapes = self.shapes(TypeRef(expr[2], ref.path, ref.bound), depth + 1)
            if not shapes or len(shapes) != 1 or shapes[0].index or shapes[0].array_of:
                return None
            return set(shapes[0].fields)
        if expr[0] == "union":
            found: set[str] = set()
            for item in expr[1]:
                more = self.literal_keys(TypeRef(item, ref.path, ref.bound), depth + 1)
                if more is None:
                    return None
                found |= more
            return found
        if expr[0] != "ref":
            return None
        if expr[1] in ("Extract", "Exclude") and len(expr[2]) == 2 and not self._declared(ref):
            whole, by = (self.literal_keys(TypeRef(e, ref.path, ref.bound), depth + 1)
                         for e in expr[2])  # fmt: skip
            if whole is None or by is None:
                return None
            return whole & by if expr[1] == "Extract" else whole - by
        if expr[2]:
            return None
        bound = ref.lookup(ref.expr[1])
        if bound is not None:
            return self.literal_keys(bound, depth + 1)
        declared = self.declarations(ref.path, ref.expr[1])
        if declared is None or len(declared[1]) != 1 or declared[1][0].kind != "alias":
            return None
        return self.literal_keys(TypeRef(declared[1][0].body, declared[0]), depth + 1)

    def _declared(self, ref: TypeRef) -> bool:
        """Whether the name a reference uses is declared or imported in its file (not
        TypeScript's own utility type of that name)."""
        return ref.lookup(ref.expr[1]) is not None or not self.global_name(ref.path, ref.expr[1])

    def _imported(self, path: str, name: str, modules: frozenset[str]) -> str:
        """The name ``name`` (written in ``path``) has in the module it is imported from,
        when that is one of ``modules``; else ""."""
        table = self.lookup.tables.files.get(path)
        found = table.imports.get(name) if table is not None else None
        if not found or len(found) != 2 or found[0] not in modules:
            return ""
        return name if found[1] == "*" else found[1]

    def _merged(self, first: TypeRef, second: TypeRef, depth: int) -> list[Shape] | None:
        """type-fest's ``Merge<A, B>``: A's keys that B does not declare, and B's."""
        left, right = self.shapes(first, depth + 1), self.shapes(second, depth + 1)
        if left is None or right is None or len(left) != 1 or len(right) != 1:
            return None
        if left[0].array_of is not None or right[0].array_of is not None:
            return None
        kept = {k: v for k, v in left[0].fields.items() if k not in right[0].fields}
        fields = {**kept, **right[0].fields}
        return [Shape(fields, left[0].index + right[0].index, "")]  # named by its alias

    def global_name(self, path: str, name: str) -> bool:
        """Whether ``name`` in ``path`` is the global type (neither imported nor declared)."""
        table = self.lookup.tables.files.get(path)
        return table is not None and name not in table.imports and name not in table.locals

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

    def callback_parameter(
        self, start: TypeRef, path: tuple[str, ...], index: int, arity: int = 0
    ) -> TypeRef | None:
        """The declared type of parameter ``index`` of a function written (with ``arity``
        required parameters) at ``path`` of a value of type ``start``
        (``hooks.afterResponse[]`` of got's options: its ``AfterResponseHook``'s
        ``response``); None when a step, or which function type it is, cannot be told."""
        if not path:
            held = [start]
        else:
            found = self.container(start, path[:-1])
            if found is None:
                return None
            held = []
            for shape in found[0]:
                if path[-1] == "[]":
                    held += [shape.array_of] if shape.array_of is not None else []
                elif shape.array_of is None:
                    held += [entry.type for entry in shape.fields.get(path[-1], [])]
        # Compared, not hashed: an object type written in place holds its fields as a dict.
        typed: list[TypeRef | None] = []
        for ref in held:
            parameter = function_parameter(self, ref, index, 0, arity)
            if parameter not in typed:
                typed.append(parameter)
        return typed[0] if len(typed) == 1 else None

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
    return Shape(fields, rename(shape.index), owner, callable=shape.callable)


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
    callable_ = any(part.callable for part in parts)
    return Shape(fields, index, own or (parts[0].owner if parts else ""), callable=callable_)


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


def _omitted(picked: Expr, keys: Expr) -> Expr | None:
    """``K`` when ``keys`` is ``Exclude<keyof picked, K>``, else None."""
    if keys[0] != "ref" or keys[1] != "Exclude" or len(keys[2]) != 2:
        return None
    whole, left_out = keys[2]
    return left_out if whole == ("other", "index_type_query", picked) else None


def _show(expr: Expr) -> str:
    if expr[0] in ("prim", "str"):
        return str(expr[1])
    if expr[0] == "ref":
        return str(expr[1])
    return "..."
