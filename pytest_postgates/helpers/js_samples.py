"""Gate 15's reader of JavaScript/TypeScript fences: it follows what each sample name
holds (a product module, one of its exports, an instance made with ``new``, a value of a
type the sample does not show) and hands every import, re-export and member use to the
post's :class:`~pytest_postgates.helpers.sample_checks.SampleChecker`."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pytest_postgates.evidence.api_lookup import Binding
from pytest_postgates.helpers import (
    js_docs_names,
    js_documented_types,
    js_handed,
    js_members,
    js_namespaces,
    js_option_keys,
    js_page_types,
    js_signatures,
    js_this,
    js_typed_literals,
    js_unbound,
)
from pytest_postgates.helpers.js_comments import QUOTED_REASON, read_comments
from pytest_postgates.helpers.js_signatures import HINT
from pytest_postgates.helpers.js_tree import (
    import_specifiers,
    node_string,
    node_text,
    pattern_names,
    plugins_passed,
    query_nodes,
    unwrap,
)
from pytest_postgates.helpers.js_types import Cls, JsTypes, declaration_file
from pytest_postgates.helpers.js_unbound import IDENTIFIER, package_word
from pytest_postgates.helpers.sample_checks import (
    SampleChecker,
    SampleReport,
    SampleValue,
)

_DECLARED = re.compile(r"\b(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)")
_STRING_NAME = re.compile(r"""(['"`])([A-Za-z_$][\w$]*)\1""")
# Nodes that bind a name without an initial value: parameters, loop variables, catches.
_BINDERS = frozenset(
    {"required_parameter", "optional_parameter", "arrow_function", "for_in_statement",
     "catch_clause"}
)  # fmt: skip


# The name of an unknown value reached from another unknown one (listed once, at its first use).
_FOLLOWS = "follows"
# The name of a value imported from a product specifier that does not resolve: its uses are
# listed once per fence, together (the import line says why).
_UNRESOLVED = "unresolved"
_HELD = frozenset({"const", "value"})  # exports a declaration file may type


class JsSample:
    def __init__(
        self,
        gate: SampleChecker,
        report: SampleReport,
        types: Callable[[], JsTypes | None] = lambda: None,
    ) -> None:
        self.gate = gate
        self.report = report
        self.values: dict[str, SampleValue] = {}
        # The model's types, built on the first question only (most fences ask none).
        self._types_of = types
        self._types: JsTypes | bool | None = False
        self.named: set[str] = set()  # identifiers the post's fences write as strings
        self.plugins: dict[str, str] = {}  # value -> a package the fence read hands it
        # Every name the post's fences bind (imports, declarations, parameters): a name
        # never bound is one the reader is expected to have (``Fastify()``).
        self.bound: set[str] = set()
        self.package_word = package_word(gate.package.rsplit("/", 1)[-1])
        # Parameters, loop variables and caught errors of the fence read: (name, the bytes
        # of the function, loop or clause they are bound in).
        self.scoped: list[tuple[str, int, int]] = []
        # Parameters of the callbacks the fence read hands to the product (js_handed).
        self.handed: list[tuple[str, int, int, str]] = []
        # Those of them the product's declared types type (js_handed): name, scope, value.
        self.typed_parameters: list[tuple[str, int, int, SampleValue]] = []
        self.parameters: dict[str, tuple[bytes, int, int, SampleValue]] = {}  # js_unbound.held
        self.literals: dict[str, tuple[Any, int]] = {}  # js_option_keys: `const o = { }`
        self.judged_literals: set[int] = set()
        self.foreign: dict[str, str] = {}  # local -> another package's module (js_handed)
        self.mocked: set[str] = set()  # modules the product's mock() replaces (js_handed)
        # Uses of values from a specifier that does not resolve, by why: (line, text, use).
        self.unresolved: dict[str, list[tuple[int, str, str]]] = {}
        self.typescript = False  # the fence read is TypeScript
        self.shown: list[str] = []  # its lines as the page writes them (comments kept)
        self.subclasses: list[js_this.Subclass] = []  # its classes over a product class
        self.page_interfaces: dict[str, dict[str, SampleValue | None]] = {}  # js_page_types
        self.page_functions: dict[str, str] = {}
        # What the docs' pages bind names to, and the bindings recorded (js_docs_names).
        self.docs_names: Callable[[str], SampleValue | None] = lambda name: None
        self.docs_declared: Callable[[str], bool] = lambda name: False
        self.bindings: list[tuple[str, int, js_docs_names.Key]] | None = None

    def fence(self, content: str, first_line: int, tsx: bool, typescript: bool = False) -> None:
        # A TypeScript fence's imports are checked as TypeScript checks them: against the
        # module's declarations (ApiLookup.find_export's ``declared``).
        self.typescript = typescript
        parser = self.gate.parsers["tsx" if tsx else "typescript"]
        self.shown = content.splitlines()  # the lines as the page writes them
        quoted: list[tuple[int, str, str]] = []
        content = read_comments(content, first_line, parser, quoted)
        self.named.update(match.group(2) for match in _STRING_NAME.finditer(content))
        # A plugin's members are judged unjudged in the fence that registers it only (a
        # post registering one somewhere says nothing of the instance in its other fences).
        self.plugins = plugins_passed(content, self.gate.package)
        # What a fence declares binds its names for the fences after it, read or not.
        self.bound.update(m.group(1) for m in _DECLARED.finditer(content))
        bare = content.lstrip().startswith("{") and content.rstrip().endswith("}")
        if bare:
            self.bare_object(content, first_line, tsx)
        if self.uses(content, first_line, tsx) or bare:  # a fence of the product's
            for line, text, name in quoted:
                self.report.skip(line, text, QUOTED_REASON, name)
        if HINT.search(content):  # after the fence's imports: a signature may name one
            self.signatures(content, first_line, tsx)
        if typescript:  # the product's types it shows declared
            js_documented_types.fence(self, content, first_line, tsx)

    def uses(self, content: str, first_line: int, tsx: bool) -> bool:
        """Read the fence's uses of the product; False when it has none to read."""
        if (
            not any(package in content for package in self.gate.packages)
            and not any(name.split(".")[-1] in content for name in self.values)
            and not js_unbound.uses_unbound(self, content)
            and not any(package_word(n) == self.package_word for n in IDENTIFIER.findall(content))
        ):
            # Neither imports the product nor uses a name bound to it: what it exports only.
            return js_typed_literals.exported_alone(self, content, first_line, tsx)
        parsers = self.gate.parsers
        source = content.encode("utf-8")
        tree = parsers["tsx" if tsx else "typescript"].parse(source)
        self.source = source
        self.first = first_line
        self.scoped, self.handed, self.typed_parameters = [], [], []
        self.literals, self.judged_literals = {}, set()
        self.lines, self.subclasses = self.shown, []
        self.unresolved = {}
        self.walk(tree.root_node, getattr(tree, "language", None))
        js_typed_literals.unpassed(self, tree.root_node)
        js_unbound.free_calls(self, tree.root_node)
        for origin, uses in self.unresolved.items():
            names = ", ".join(dict.fromkeys(used for _, _, used in uses))
            self.report.skip(uses[0][0], uses[0][1], f"{len(uses)} use(s) in this sample not "
                             f"judged ({names[:200]}): {origin}")  # fmt: skip
        return True

    def bare_object(self, content: str, first_line: int, tsx: bool) -> None:
        """A fence that is one object literal (``{ colorize: false, ... }``, which a
        parser reads as a block): read as the expression it shows."""
        self.source = f"({content}\n)".encode()
        self.first, self.lines = first_line, content.splitlines()
        parser = self.gate.parsers["tsx" if tsx else "typescript"]
        statements = parser.parse(self.source).root_node.named_children
        shown = statements[0].named_children if len(statements) == 1 else []
        if shown and shown[0].type == "parenthesized_expression":
            literal = unwrap(shown[0])
            if literal.type == "object":
                js_option_keys.bare(self, literal)

    def unresolved_value(self, local: str, spec: str) -> None:
        """``local`` holds what a product specifier that does not resolve gives."""
        self.bound.add(local)
        self.values[local] = SampleValue(
            "unknown", name=_UNRESOLVED, origin=f"{spec} does not resolve"
        )

    def signatures(self, content: str, first_line: int, tsx: bool) -> None:
        """The parameters of product functions the fence documents (js_signatures)."""
        js_signatures.fence_parameters(self, content, first_line, tsx)

    def line(self, node: Any) -> int:
        row: int = node.start_point[0]
        return self.first + row

    def linenode_text(self, node: Any) -> str:
        row = node.start_point[0]
        return self.lines[row] if row < len(self.lines) else ""

    def walk(self, root: Any, language: Any = None) -> None:
        # The nodes the gate reads, in source order (a binding precedes its uses), found by
        # a tree-sitter query in C; a Python walk where the query API is missing.
        order = query_nodes(root, language)
        if order is None:
            stack = [root]
            order = []
            while stack:
                node = stack.pop()
                order.append(node)
                stack.extend(reversed(node.named_children))
        for node in order:
            kind = node.type
            if kind == "import_statement":
                self.import_statement(node)
            elif kind == "export_statement":
                self.reexport(node)
            elif kind == "variable_declarator":
                self.declarator(node)
            elif kind == "assignment_expression":
                self.assignment(node)
            elif kind == "member_expression":
                self.member(node)
            elif kind in ("call_expression", "new_expression"):
                js_option_keys.options(self, node)
                js_handed.handed(self, node)
            elif kind in _BINDERS:
                self.parameter(node)
            elif kind in ("function_declaration", "class_declaration"):
                declared = node.child_by_field_name("name")
                if declared is not None:
                    self.bound.add(node_text(self.source, declared))
                found = js_this.subclass(self, node) if kind == "class_declaration" else None
                self.subclasses += [found] if found is not None else []
                if kind == "function_declaration":
                    js_page_types.function(self, node)
            elif kind == "interface_declaration":
                js_page_types.interface(self, node)
            if self.bindings is not None:
                js_docs_names.record(self, node, self.bindings)

    # -------------------------------------------------------------- bindings
    def product(self, spec: str | None) -> bool:
        return self.gate.site_of(spec) is not None

    def import_statement(self, node: Any) -> None:
        spec = node_string(self.source, node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if not self.product(spec):
            # Another package's names are bound: not globals, nor what an earlier fence bound.
            for local in [node_text(self.source, n) for n in pattern_names(clause or node)]:
                self.bound.add(local)
                self.values.pop(local, None)
                self.foreign[local] = spec or ""
            return
        assert spec is not None
        type_only = any(c.type == "type" for c in node.children)
        module = self.gate.module_for(spec, type_only, self.line(node), self.linenode_text(node),
                                      side_effect=clause is None)  # fmt: skip
        if clause is not None and module is None:
            for local in pattern_names(clause):
                self.unresolved_value(node_text(self.source, local), spec)
        if clause is None or module is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.bind(node_text(self.source, part), module, "default", node, type_only)
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    self.bound.add(node_text(self.source, ids[0]))
                    self.values[node_text(self.source, ids[0])] = SampleValue("namespace", module)
            elif part.type == "named_imports":
                for specifier, name, local in import_specifiers(self.source, part):
                    inline_type = any(c.type == "type" for c in specifier.children)
                    self.bind(local, self.typed_module(spec, module, name, inline_type, node),
                              name, node, type_only or inline_type)  # fmt: skip

    def reexport(self, node: Any) -> None:
        spec = node_string(self.source, node.child_by_field_name("source"))
        if not self.product(spec):
            return
        assert spec is not None
        module = self.gate.module_for(spec, False, self.line(node), self.linenode_text(node))
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if module is None or clause is None:
            return
        for specifier in clause.named_children:
            if specifier.type == "export_specifier":
                name = node_text(self.source, specifier.child_by_field_name("name")).strip("'\"")
                self.gate.check_export(module, name, self.line(node), self.linenode_text(node))

    def typed_module(self, spec: str, module: str, name: str, inline_type: bool, node: Any) -> str:
        """Where an imported name is looked up: ``import { type Config }`` reads the
        package's type declarations (its ``types`` condition), and so does a name the
        runtime module lacks and those declarations export (TypeScript imports a type
        without the ``type`` keyword too)."""
        if not inline_type and self.gate.lookup.find_export(module, name) is not None:
            return module
        typed = self.gate.module_for(spec, True, self.line(node), self.linenode_text(node))
        if typed is None or typed == module:
            return module
        if inline_type or isinstance(self.gate.lookup.find_export(typed, name), Binding):
            return typed
        return module

    def bind(self, local: str, module: str, name: str, node: Any, typed: bool = False) -> None:
        self.bound.add(local)
        line, text = self.line(node), self.linenode_text(node)
        binding = self.gate.check_export(module, name, line, text, typed or self.typescript)
        declared = js_namespaces.declared_namespace(self, binding, name)
        if declared is not None:  # `declare namespace Interceptors { function redirect() }`
            self.values[local] = declared
        elif binding is not None and binding.kind == "namespace":  # `export * as builders`
            self.values[local] = SampleValue("namespace", binding.path)
        elif binding is not None:
            self.values[local] = SampleValue("export", module, name, binding)
        else:
            # Not exported (a violation) or not judged: its members cannot be judged either.
            self.values[local] = SampleValue("unknown", origin=f"{name}, not a judged export")

    def assignment(self, node: Any) -> None:
        """``x = new X()`` and ``this.x = new X()``: the name holds what the value does."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or left.type not in ("identifier", "member_expression"):
            return
        key = node_text(self.source, left)
        self.bound.add(key)
        held = self.value_of(right)
        if held is not None:
            self.values[key] = held
        else:
            self.values.pop(key, None)

    def require(self, value: Any) -> str | None:
        node = value
        if node.type == "await_expression" and node.named_children:
            node = node.named_children[0]
        if node.type != "call_expression":
            return None
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None or not arguments.named_children:
            return None
        if node_text(self.source, function) not in ("require", "import"):
            return None
        return node_string(self.source, arguments.named_children[0])

    def declarator(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None:
            return
        for bound in [name] if name.type == "identifier" else pattern_names(name):
            self.bound.add(node_text(self.source, bound))
            self.literals.pop(node_text(self.source, bound), None)
        if name.type == "identifier" and value is not None and unwrap(value).type == "object":
            self.literals[node_text(self.source, name)] = (unwrap(value), node.end_byte)
        spec = self.require(value) if value is not None else None
        if spec is not None and not self.product(spec):
            for bound in [name] if name.type == "identifier" else pattern_names(name):
                self.foreign[node_text(self.source, bound)] = spec
            return
        # `const { group } = require("pkg").doc.builders` or `= builders`: a namespace's names.
        pattern = name.type == "object_pattern"
        held = self.value_of(value) if value is not None and (pattern or spec) else None
        if held is not None and held.kind == "declared" and pattern:
            for item in name.named_children:  # `const { redirect } = interceptors`
                imported, local = js_namespaces.pattern_item(self.source, item)
                if local:
                    shown = f"{node_text(self.source, value)}.{imported}"
                    line, text = self.line(item), self.linenode_text(item)
                    js_namespaces.check_member(self, held, shown, imported, line, text)
                    self.values[local] = js_namespaces.member_value(self, held, imported)
            return
        if held is not None and held.kind == "namespace" and pattern:
            for item in name.named_children:
                if item.type == "shorthand_property_identifier_pattern":
                    local = imported = node_text(self.source, item)
                elif item.type == "pair_pattern":
                    imported = node_text(self.source, item.child_by_field_name("key"))
                    local = node_text(self.source, item.child_by_field_name("value"))
                else:
                    continue
                self.bind(local, held.module, imported, node)
            return
        if held is not None and held.name == _UNRESOLVED and pattern:
            for bound in pattern_names(name):
                self.unresolved_value(node_text(self.source, bound), spec or "")
            return
        if spec is not None:
            if held is not None and name.type == "identifier":
                self.values[node_text(self.source, name)] = held
            return
        fields = js_page_types.returned(self, value) if value is not None else None
        if fields is not None:  # `const { orm } = initORM()`: the page's own function
            js_page_types.bind(self, name, fields)
            return
        if name.type != "identifier":
            # `const { redirect } = interceptors`: what a product value's parts hold is not
            # followed, but they are the product's, and their uses are listed unjudged.
            whole = self.value_of(value) if value is not None else None
            if whole is not None and pattern and value is not None:
                # Each key the pattern takes is a member of the value (`const { data } =
                # await client.get()`), judged as `value.data` would be.
                for item in name.named_children:
                    taken, _ = js_namespaces.pattern_item(self.source, item)
                    if taken:
                        self.member_of(whole, value, taken, self.line(item),
                                       self.linenode_text(item))  # fmt: skip
            shown = " ".join(node_text(self.source, value).split())[:60] if value else ""
            for bound in pattern_names(name):
                local = node_text(self.source, bound)
                self.values.pop(local, None)
                if whole is not None:
                    origin = f"{local}, taken apart from {shown}"
                    self.values[local] = SampleValue("unknown", origin=origin)
            return
        local = node_text(self.source, name)
        # `const c: Client = ...`: the annotation says what it holds.
        held = self.annotated(node.child_by_field_name("type"), local)
        if held is None and value is not None:
            held = self.value_of(value)
        if held is not None:
            self.values[local] = held
        else:
            self.values.pop(local, None)  # a sample name rebound to something else

    def parameter(self, node: Any) -> None:
        """``(client: Client) => ...``: a parameter annotated with a product class. Any
        other parameter, loop variable or caught error shadows what its name held before
        (``results.map(result => result.status)``): the sample no longer shows its type."""
        if node.type == "arrow_function":
            pattern = node.child_by_field_name("parameter")
        elif node.type == "for_in_statement":
            pattern = node.child_by_field_name("left")
        elif node.type == "catch_clause":
            pattern = node.child_by_field_name("parameter")
        else:
            pattern = node.child_by_field_name("pattern")
        if pattern is None:
            return
        names = [pattern] if pattern.type == "identifier" else pattern_names(pattern)
        scope = node
        if node.type.endswith("_parameter") and node.parent is not None:
            scope = node.parent.parent or node  # the function whose parameter it is
        for name in names:
            local = node_text(self.source, name)
            self.scoped.append((local, scope.start_byte, scope.end_byte))
            held = self.annotated(node.child_by_field_name("type"), local)
            if held is not None and name is pattern:
                self.values[local] = held
                self.parameters[local] = (self.source, scope.start_byte, scope.end_byte, held)
            else:
                self.values.pop(local, None)

    def annotated(self, annotation: Any, local: str) -> SampleValue | None:
        """The instance a type annotation names: a class or interface the sample imported
        from the product (a name of its own, or another library's, says nothing)."""
        if annotation is None or not annotation.named_children:
            return None
        return js_page_types.declared_type(self, annotation, local)

    # -------------------------------------------------------------- what a value holds
    def types(self) -> JsTypes | None:
        if self._types is False:
            self._types = self._types_of()
        return self._types if isinstance(self._types, JsTypes) else None

    def class_of(self, held: SampleValue) -> Cls | None:
        """The model's class an instance value is of (None: not a product class)."""
        types = self.types()
        if types is None:
            return None
        if held.kind == "typed":
            return held.name, held.module
        binding = held.binding
        if held.kind == "instance" and isinstance(binding, Binding):
            cls = (binding.local, binding.path)
            return cls if types.entries(cls) else self.required_class(held)
        return None

    def constant_class(self, held: SampleValue) -> Cls | str | None:
        """What an exported constant's declaration says it holds (JsTypes.constant_class)."""
        types, binding = self.types(), held.binding
        if types is None or not isinstance(binding, Binding) or binding.kind not in _HELD:
            return None
        found = types.constant_class(self.gate.lookup, binding) if binding.kind == "const" else None
        # A JavaScript module typed by its declaration file, a computed value too (`index.d.ts`).
        twin_file = declaration_file(held.module) if held.kind == "export" else ""
        if isinstance(found, tuple) or not twin_file or not held.name:
            return found
        twin = self.gate.lookup.find_export(twin_file, held.name)
        if isinstance(twin, Binding) and twin.kind == "const" and twin.path != binding.path:
            declared = types.constant_class(self.gate.lookup, twin)
            if isinstance(declared, tuple):
                return declared
        return found

    def required_class(self, held: SampleValue) -> Cls | None:
        """The class a CommonJS value names (``const { Agent } = require("./agent");
        module.exports = { Agent }``: the tables see a value, the model the class)."""
        binding = held.binding
        if not isinstance(binding, Binding) or binding.kind not in ("value", "const"):
            return None
        types = self.types()
        name = binding.local or held.name  # `module.exports = { Agent }`: no local name
        return types.resolve(name, binding.path) if types is not None and name else None

    def typed(
        self, cls: Cls | None, shown: str, owner: Cls | None, name: str, origin: str = "",
        open_type: bool = False,
    ) -> SampleValue:  # fmt: skip
        """An instance of ``cls``; without one, a product value of a type not known. A value
        reached from one whose type was assumed from its name is assumed too, and one
        reached from an open type (``open_type``: a type parameter's default) is open."""
        if cls is not None:
            kept = js_docs_names.carried(origin, open_type)
            return SampleValue("typed", cls[1], cls[0], origin=kept)
        if owner is not None:
            shown = f"{shown}: {owner[0]}.{name} declares no product class"
        return SampleValue("unknown", origin=shown)

    def _member(self, node: Any) -> tuple[SampleValue, str] | SampleValue | None:
        """A member expression's object value and member name; an unknown object makes
        the member unknown too; None when either part is missing or untyped."""
        inner = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        held = self.value_of(inner) if inner is not None else None
        if held is None or prop is None:
            return None
        if held.kind == "unknown":
            follows = _UNRESOLVED if held.name == _UNRESOLVED else _FOLLOWS
            return SampleValue("unknown", name=follows, origin=held.origin)
        return held, node_text(self.source, prop)

    def value_of(self, node: Any) -> SampleValue | None:
        """What an expression holds, when it comes from the product (None: it does not, or
        the sample does not say): a module, an export, an instance of a product class (made
        with ``new``, returned by a product function or method whose declared return type
        is one, a field declared as one) or a product value of a type not known."""
        node = unwrap(node)
        text = node_text(self.source, node)
        if node.type in ("identifier", "this") or text in self.values:
            at = node.start_byte
            around = [p for p in self.typed_parameters if p[0] == text and p[1] <= at < p[2]]
            if around:  # the innermost callback around the use binds the name
                return max(around, key=lambda p: p[1])[3]
            held = js_unbound.held(self, node, text)
            if held is None and node.type == "identifier" and not self.is_bound(node, text):
                held = js_unbound.conventional(self, text) or js_unbound.public_class(self, text)
            return held
        if node.type == "new_expression":
            return self.constructed(node)
        shown = " ".join(text.split())[:60]
        if node.type == "member_expression":
            base = js_this.base_field(self, self.subclasses, node)
            if base is not None:  # `this.em` in the sample's subclass of a product class
                return self.typed(base[2][0], shown, base[0], base[1], "", base[2][1])
            member = self._member(node)
            if not isinstance(member, tuple):
                return member
            owner, name = member
            if owner.kind == "declared":
                return js_namespaces.member_value(self, owner, name)
            if owner.kind == "namespace":
                found = self.gate.lookup.find_export(owner.module, name)
                if isinstance(found, Binding) and found.kind == "namespace":
                    return SampleValue("namespace", found.path)
                if isinstance(found, Binding):
                    return SampleValue("export", owner.module, name, found)
                return SampleValue("unknown", origin=shown)
            cls = self.class_of(owner)
            types = self.types()
            field = types.field_held(cls, name) if cls and types else None
            typed, open_type = field if field is not None else (None, False)
            return self.typed(typed, shown, cls, name, owner.origin, open_type)
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
            spec = self.require(node)
            if spec is not None:  # `require("pkg")`: the module, when it is the product's
                line, shown = self.line(node), self.linenode_text(node)
                module = (
                    self.gate.module_for(spec, False, line, shown) if self.product(spec) else None
                )
                if module is None and self.product(spec):
                    return SampleValue(
                        "unknown", name=_UNRESOLVED, origin=f"{spec} does not resolve"
                    )
                return self._required_default(module) if module else None
            if function is None:
                return None
            function = unwrap(function)
            types = self.types()
            if function.type == "member_expression":
                member = self._member(function)
                made = js_unbound.static_returns(self, function) if member is None else None
                if made is not None:  # `MikroORM.init()`, several product classes so named
                    return self.typed(made, shown, None, "")
                if not isinstance(member, tuple):
                    return member
                owner, name = member
                cls = self.class_of(owner) or self._constant_of(owner)
                typed = types.method_returns(cls, name) if cls and types else None
                static = self._class_itself(owner) if cls is None else None
                if static is not None and types is not None:  # `MikroORM.init()`
                    cls, typed = static, types.static_returns(static, name)
                return self.typed(typed, shown, cls, name, owner.origin)
            held = self.called(function)
            if held is None or held.name == _UNRESOLVED:
                return held
            binding = held.binding
            typed = None
            if held.kind == "export" and isinstance(binding, Binding) and types is not None:
                typed = types.function_returns(binding.path, binding.local)
            return self.typed(typed, shown, None, "")
        return None

    def _class_itself(self, held: SampleValue) -> Cls | None:
        """The product class an exported class name is (its static side is called)."""
        binding, types = held.binding, self.types()
        if held.kind != "export" or not isinstance(binding, Binding) or types is None:
            return None
        cls = (binding.local, binding.path)
        return cls if binding.kind == "class" and types.entries(cls) else None

    def _constant_of(self, held: SampleValue) -> Cls | None:
        """The class an exported constant's declaration gives (``got.extend()``'s got), or
        a module's declared value (``require("joi")``: js_namespaces.module_value_class)."""
        if held.kind == "namespace":
            return js_namespaces.module_value_class(self, held.module)
        if held.kind != "export":
            return None
        found = self.required_class(held) or self.constant_class(held)
        return found if isinstance(found, tuple) else None

    def _required_default(self, module: str) -> SampleValue:
        """What ``require()`` of a product module gives: the module, or, where it is
        ``export default got`` with the CommonJS shim ``module.exports = got`` beside it,
        that constant (typed by its declaration, as ``import got from`` has it)."""
        table = self.gate.lookup.table(module)
        local = table.export_equals if table is not None else None
        if local and table is not None and table.locals.get(local) == "const":
            found = self.gate.lookup.find_export(module, "default")
            if isinstance(found, Binding) and found.kind == "const" and found.local == local:
                return SampleValue("export", module, "default", found)
        return SampleValue("namespace", module)

    def called(self, function: Any) -> SampleValue | None:
        """What a called name holds: a module called as a function (``require("pkg")()``,
        ``const pkg = require("pkg"); pkg()``: a CommonJS module that is a function calls
        its default export), else the name's value."""
        spec = self.require(function)
        if spec is not None and self.product(spec):
            line, text = self.line(function), self.linenode_text(function)
            module = self.gate.module_for(spec, False, line, text)
            held = SampleValue("namespace", module) if module else None
        else:
            held = self.value_of(function)
        if held is None and function.type == "identifier":
            held = js_unbound.package_called(self, function)
        if held is not None and held.kind == "namespace":
            found = self.gate.lookup.find_export(held.module, "default")
            table = self.gate.lookup.table(held.module)
            local = table.export_equals if table is not None else None
            if not isinstance(found, Binding) and table is not None and local:
                # `module.exports = serve`: the module is the function itself.
                kind = table.locals.get(local)
                found = Binding(held.module, local, kind) if kind == "function" else found
            held = SampleValue("export", held.module, "default", found)
        return held

    def is_bound(self, node: Any, name: str) -> bool:
        """Whether the post binds ``name`` where ``node`` uses it (a declaration or import
        anywhere in the post, a parameter of a function around it)."""
        if name in self.bound:
            return True
        at = node.start_byte
        return any(n == name and start <= at < end for n, start, end in self.scoped)

    def constructed(self, node: Any) -> SampleValue | None:
        constructor = node.child_by_field_name("constructor")
        if constructor is None:
            return None
        written = node_text(self.source, constructor)
        held = self.values.get(written)
        if held is None and constructor.type == "identifier" and not self.is_bound(node, written):
            held = js_unbound.unbound_class(self, written, node)
        if held is not None and held.kind == "export":
            return SampleValue("instance", held.module, held.name, held.binding)
        if held is not None and held.kind == "unknown":
            return held
        if held is not None and held.kind == "namespace":
            return self.module_class(held.module, written)
        if constructor.type == "member_expression":
            target = self.values.get(
                node_text(self.source, constructor.child_by_field_name("object"))
            )
            if target is not None and target.kind == "namespace":
                prop = node_text(self.source, constructor.child_by_field_name("property"))
                found = self.gate.lookup.find_export(target.module, prop)
                return SampleValue("instance", target.module, prop, found)
        return None

    def module_class(self, module: str, shown: str) -> SampleValue:
        """What ``new`` of a module makes: an instance of the class a CommonJS module is
        (``module.exports = RetryAgent``), else a value of a type not known."""
        table = self.gate.lookup.table(module)
        local = table.export_equals if table is not None else None
        if table is not None and local and table.locals.get(local) == "class":
            types = self.types()
            if types is not None and types.entries((local, module)):
                return SampleValue("typed", module, local)
            return SampleValue("instance", module, local, Binding(module, local, "class"))
        return SampleValue("unknown", origin=f"new {shown}: {module} is no class the tables read")

    # -------------------------------------------------------------- uses
    def member(self, node: Any) -> None:
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None or prop.type == "private_property_identifier":
            return
        held = self.value_of(obj)
        name = node_text(self.source, prop)
        line, text = self.line(node), self.linenode_text(node)
        if held is None and not js_unbound.untyped_member(self, obj, name, line, text):
            js_handed.unjudged_member(self, node, obj, name, line, text)
        self.member_of(held, obj, name, line, text)

    def member_of(self, held: SampleValue | None, obj: Any, name: str, line: int,
                  text: str) -> None:  # fmt: skip
        """``name`` as a member of ``obj``'s value (``obj.name``, ``const { name } = obj``)."""
        if held is None or (held.kind == "unknown" and held.name == _FOLLOWS):
            return  # not the product's, or a step after one already listed as unjudged
        used = f"{' '.join(node_text(self.source, obj).split())[:60]}.{name}"
        if held.kind == "unknown" and held.name == _UNRESOLVED:
            self.unresolved.setdefault(held.origin, []).append((line, text, used))
            return
        if held.kind == "unknown":
            self.report.skip(
                line,
                text,
                f"{used}: the type of the value ({held.origin}) is not shown in the sample",
            )
            return
        if held.kind == "namespace":
            self.gate.check_export(held.module, name, line, text)
        elif held.kind == "declared":
            js_namespaces.check_member(self, held, used, name, line, text)
        elif held.kind == "typed":
            typed = (held.name, held.module)
            js_members.typed_member(self, typed, used, name, line, text, held.origin)
        elif (cls := self.required_class(held) or self.constant_class(held)) is not None:
            if isinstance(cls, str):  # a constant whose declared type the model cannot follow
                self.report.skip(line, text, f"{used}: {cls}")
            else:
                js_members.typed_member(self, cls, used, name, line, text)
        else:
            listed = js_signatures.listed_member(text) == (node_text(self.source, obj), name)
            self.gate.check_member(held, name, line, text, self.types(), listed)
