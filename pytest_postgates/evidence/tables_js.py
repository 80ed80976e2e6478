"""The API table of a JavaScript/TypeScript file (see :mod:`.code_tables`): exports,
re-exports, imports, classes and interfaces with their members, object-literal keys and,
in a file that imports yargs or commander, the CLI's commands and options."""

from __future__ import annotations

import re
from typing import Any

from pytest_postgates.evidence import made_objects
from pytest_postgates.evidence.cli_js import JsCliReader
from pytest_postgates.evidence.file_table import (
    JS_CLI_MODULES,
    FileTable,
    field_of,
    string_value,
)


class JsTables(JsCliReader):
    """The table of one JavaScript/TypeScript file, read from its syntax tree."""

    def __init__(self, source: bytes, language: Any = None, declarations: bool = False) -> None:
        self.source = source
        self.language = language
        self.table = FileTable("js")
        self.declarations = declarations  # a declaration file (.d.ts, .d.mts, .d.cts)
        self.assigned_exports = False  # `module.exports = <a value, not an object>`
        # Inside `declare module "dep" { }`: the package whose declarations it augments.
        self.augments = ""

    def build(self, root: Any) -> FileTable:
        statements = root.named_children
        # A declaration file that is a module and has no `export { }`, `export *`, `export =`
        # nor `export default x` exports every top-level declaration, as TypeScript has it.
        exports = [c for c in statements if c.type == "export_statement"]
        implicit = (
            self.declarations
            and (bool(exports) or any(c.type == "import_statement" for c in statements))
            and all(field_of(c, "declaration") is not None for c in exports)
        )
        self.root = root
        for child in statements:
            self.statement(child, exported=implicit)
        table = self.table
        if b"exports." in self.source:
            table.parameter_members = made_objects.parameter_members(self.source, root)
        es_exports = any(
            c.type == "export_statement" and not any(t.type == "=" for t in c.children)
            for c in exports
        )
        if self.assigned_exports and es_exports and table.export_equals is not None:
            table.commonjs_shim = True
        # `export { a as b }` of an imported name is a re-export in all but syntax.
        for name, local in list(table.exports.items()):
            if local in table.imports and local not in table.locals:
                table.reexports[name] = list(table.imports[local])
                del table.exports[name]
        if table.cli_frameworks:
            self.cli(root, nested=False)
        if "command-line-args" in table.cli_frameworks:
            self.definitions(root)
        return table

    # -------------------------------------------------------------- statements
    def statement(self, node: Any, exported: bool = False, ambient: bool = False) -> None:
        table = self.table
        kind = node.type
        if kind == "export_statement":
            self.export(node)
            return
        if kind == "import_statement":
            self.import_statement(node)
            return
        if kind in ("function_declaration", "generator_function_declaration", "function_signature"):
            name = self.declare(node, "function", exported)
            keys = self.returned_keys(field_of(node, "body"))
            if name and keys:
                table.objects[f"{name}()"] = keys
        elif kind in ("class_declaration", "abstract_class_declaration", "class"):
            name = self.declare(node, "class", exported)
            if name:
                self.class_members(node, name)
        elif kind == "interface_declaration":
            name = self.declare(node, "interface", exported)
            if name:
                self.class_members(node, name)
        elif kind == "type_alias_declaration":
            self.declare(node, "type", exported)
        elif kind == "enum_declaration":
            name = self.declare(node, "enum", exported)
            body = field_of(node, "body")
            if name and body is not None:
                keys = [self.text(field_of(m, "name") or m) for m in body.named_children]
                table.objects[name] = [k.strip("'\"") for k in keys]
        elif kind in ("internal_module", "module"):
            # `declare module "x" { }` augments module x: no name of this file's.
            named = field_of(node, "name")
            augments = named is not None and named.type == "string"
            name = self.declare(node, "namespace", exported and not augments)
            body = field_of(node, "body")
            if name and body is not None:
                outer = self.augments
                if augments and not name.startswith((".", "/")):
                    self.augments = name
                try:
                    self.namespace(name, body, ambient)
                finally:
                    self.augments = outer
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    self.declarator(declarator, exported)
        elif kind == "ambient_declaration":
            for child in node.named_children:
                self.statement(child, exported, ambient=True)
        elif kind == "expression_statement" and node.named_children:
            expression = node.named_children[0]
            if expression.type == "assignment_expression":
                self.commonjs(expression)
            elif expression.type in ("internal_module", "module"):
                self.statement(expression, exported, ambient)  # `namespace X {}` at top level

    def namespace(self, name: str, body: Any, ambient: bool) -> None:
        """A namespace's declarations are the file's (their classes and members), its
        exports its own. In an ambient namespace (``declare namespace``) without an
        ``export { }`` or ``export =``, every declaration is exported, as TypeScript has it."""
        table = self.table
        statements = [c for c in body.named_children if c.type != "comment"]
        explicit = any(
            c.type == "export_statement" and field_of(c, "declaration") is None for c in statements
        )
        outer, table.exports = table.exports, {}
        try:
            for child in statements:
                self.statement(child, exported=ambient and not explicit, ambient=ambient)
            names = table.namespaces.setdefault(name, [])
            names.extend(n for n in table.exports if n != "default" and n not in names)
        finally:
            table.exports = outer

    def declare(self, node: Any, kind: str, exported: bool) -> str:
        name_node = field_of(node, "name")
        if name_node is None:
            return ""
        name = self.text(name_node).strip("'\"")
        # A class and an interface (or a namespace) of one name merge in TypeScript.
        self.table.locals.setdefault(name, kind)
        if exported:
            self.table.exports[name] = name
        return name

    def declarator(self, declarator: Any, exported: bool) -> None:
        table = self.table
        name_node = field_of(declarator, "name")
        value = field_of(declarator, "value")
        if name_node is None:
            return
        spec = self.require_spec(value) if value is not None else None
        head = JS_CLI_MODULES.get(spec.split("/")[0]) if spec else None
        if head and head not in table.cli_frameworks:
            table.cli_frameworks.append(head)
        if name_node.type == "object_pattern" and value is not None:
            # const { a, b: c } = require("./x")
            for item in name_node.named_children:
                if item.type == "shorthand_property_identifier_pattern":
                    local = imported = self.text(item)
                elif item.type == "pair_pattern":
                    imported = self.text(field_of(item, "key"))
                    local = self.text(field_of(item, "value"))
                else:
                    continue
                if spec is not None:
                    table.imports[local] = [spec, imported]
                    table.import_lines[local] = declarator.start_point[0] + 1
                else:
                    table.locals.setdefault(local, "const")
                if exported:
                    table.exports[local] = local
            return
        if name_node.type != "identifier":
            return
        name = self.text(name_node)
        if value is not None:
            spec = self.require_spec(value)
            if spec is not None:
                table.imports[name] = [spec, "*"]
                table.import_lines[name] = declarator.start_point[0] + 1
                if spec.startswith("."):
                    table.deps.append(spec)
                if exported:
                    table.exports[name] = name
                return
        kind = "const"
        if value is not None:
            inner = value
            if inner.type in ("as_expression", "satisfies_expression") and inner.named_children:
                inner = inner.named_children[0]
            if inner.type in ("class", "class_expression"):
                kind = "class"
                self.class_members(inner, name)
            elif inner.type in ("arrow_function", "function_expression", "function"):
                kind = "function"
            elif inner.type == "object":
                kind = "object"
                table.objects[name] = self.object_keys(inner)
        if kind == "const":
            typed = self.value_type(declarator, value)
            annotation = field_of(declarator, "type") if value is None else None
            inline = annotation.named_children[0] if annotation is not None else None
            if inline is not None and inline.type == "object_type" and name not in table.classes:
                # `declare const ky: { (url, options?): R; get(...): R }`: the inline type
                # is read as an interface of the constant's name (type_tables does too).
                table.classes[name] = {"members": self.type_members(inline), "static": [],
                                       "extends": []}  # fmt: skip
                typed = f"type:{name}"
            if typed:
                table.value_types.setdefault(name, typed)
        table.locals.setdefault(name, kind)
        if exported:
            table.exports[name] = name

    def type_members(self, node: Any) -> list[str]:
        """The members an object type declares (methods and properties)."""
        found: list[str] = []
        for member in node.named_children:
            key = field_of(member, "name")
            if member.type in ("method_signature", "property_signature") and key is not None:
                found.append(self.text(key).strip("'\""))
        return list(dict.fromkeys(found))

    def value_type(self, declarator: Any, value: Any) -> str:
        """How a constant's declaration says its type (see ``FileTable.value_types``):
        its annotation, else the function a call makes it with or the class it is a
        ``new`` of, named bare; "" when it says none."""
        annotation = field_of(declarator, "type") if declarator is not None else None
        if annotation is not None:
            return "type:" + self.text(annotation).lstrip(":").strip()
        inner = value
        while inner is not None and inner.type in ("await_expression", "parenthesized_expression"):
            inner = inner.named_children[0] if inner.named_children else None
        if inner is None or inner.type not in ("call_expression", "new_expression"):
            return ""
        made = field_of(inner, "function" if inner.type == "call_expression" else "constructor")
        if made is None or made.type != "identifier":
            return ""
        return ("call:" if inner.type == "call_expression" else "new:") + self.text(made)

    def require_spec(self, value: Any) -> str | None:
        """``require("x")`` / ``await import("x")`` -> ``x``."""
        node = value
        if node.type == "await_expression" and node.named_children:
            node = node.named_children[0]
        if node.type != "call_expression":
            return None
        function = field_of(node, "function")
        arguments = field_of(node, "arguments")
        if function is None or arguments is None or not arguments.named_children:
            return None
        if self.text(function) not in ("require", "import"):
            return None
        return string_value(self.source, arguments.named_children[0])

    def object_keys(self, node: Any) -> list[str]:
        keys: list[str] = []
        for member in node.named_children:
            if member.type == "shorthand_property_identifier":
                keys.append(self.text(member))
            elif member.type in ("pair", "method_definition"):
                key = field_of(member, "key") or field_of(member, "name")
                if key is not None:
                    keys.append(self.text(key).strip("'\"`"))
            elif member.type == "spread_element":
                keys.append("...")  # unknown keys: lookups on this object are unjudged
        return keys

    def export(self, node: Any) -> None:
        table = self.table
        source_node = field_of(node, "source")
        spec = string_value(self.source, source_node) if source_node is not None else None
        if spec is not None and spec.startswith("."):
            table.deps.append(spec)
        declaration = field_of(node, "declaration")
        is_default = any(child.type == "default" for child in node.children)
        if declaration is not None:
            if is_default:
                name = self.declare_default(declaration)
                table.exports["default"] = name
            else:
                self.statement(declaration, exported=True)
            return
        value = field_of(node, "value")
        if value is not None or is_default:
            if value is not None and value.type == "identifier":
                table.exports["default"] = self.text(value)
            elif value is not None and value.type in ("class", "class_expression"):
                name = self.text(field_of(value, "name")) if field_of(value, "name") else ""
                key = name or "default"
                self.class_members(value, key)
                table.locals.setdefault(key, "class")
                table.exports["default"] = key
            elif value is not None and value.type == "object":
                table.objects["default"] = self.object_keys(value)
                table.locals.setdefault("default", "object")
                table.exports["default"] = "default"
            elif value is not None and (typed := self.value_type(None, value)):
                # `export default createInstance()`: a constant made by a call (or a
                # `new`), typed by what the function declares it returns.
                table.value_types["default"] = typed
                table.locals.setdefault("default", "const")
                table.exports["default"] = "default"
            else:
                table.exports["default"] = ""
            return
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if clause is not None:
            for specifier in clause.named_children:
                if specifier.type != "export_specifier":
                    continue
                name = self.text(field_of(specifier, "name")).strip("'\"")
                alias_node = field_of(specifier, "alias")
                alias = self.text(alias_node).strip("'\"") if alias_node is not None else name
                if spec is not None:
                    table.reexports[alias] = [spec, name]
                    table.import_lines[alias] = node.start_point[0] + 1
                else:
                    table.exports[alias] = name
            return
        if namespace is not None and spec is not None:
            names = [c for c in namespace.named_children]
            if names:
                table.reexports[self.text(names[0]).strip("'\"")] = [spec, "*"]
            return
        if spec is not None:
            if any(child.type == "*" for child in node.children):
                table.stars.append(spec)
            return
        # `export = X` (TypeScript's CommonJS export)
        identifiers = [c for c in node.named_children if c.type == "identifier"]
        if any(child.type == "=" for child in node.children):
            table.export_equals = self.text(identifiers[0]) if identifiers else ""

    def declare_default(self, declaration: Any) -> str:
        kind = declaration.type
        name_node = field_of(declaration, "name")
        name = self.text(name_node) if name_node is not None else "default"
        if kind in ("class_declaration", "abstract_class_declaration", "class"):
            self.class_members(declaration, name)
            self.table.locals.setdefault(name, "class")
        elif "function" in kind:
            self.table.locals.setdefault(name, "function")
        else:
            self.statement(declaration)
        return name

    def import_statement(self, node: Any) -> None:
        table = self.table
        spec = string_value(self.source, field_of(node, "source"))
        if spec is None:
            return
        if spec.startswith("."):
            table.deps.append(spec)
        head = JS_CLI_MODULES.get(spec.split("/")[0])
        if head and head not in table.cli_frameworks:
            table.cli_frameworks.append(head)
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if clause is None:
            return
        line = node.start_point[0] + 1
        for part in clause.named_children:
            if part.type == "identifier":
                table.import_lines[self.text(part)] = line
                table.imports[self.text(part)] = [spec, "default"]
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    table.imports[self.text(ids[0])] = [spec, "*"]
                    table.import_lines[self.text(ids[0])] = line
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type != "import_specifier":
                        continue
                    name = self.text(field_of(specifier, "name")).strip("'\"")
                    alias = field_of(specifier, "alias")
                    local = self.text(alias) if alias is not None else name
                    table.imports[local] = [spec, name]
                    table.import_lines[local] = line

    def class_members(self, node: Any, name: str) -> None:
        body = field_of(node, "body")
        members: list[str] = []
        static: list[str] = []
        extends: list[str] = []
        for child in node.named_children:
            if child.type == "class_heritage":
                clauses = child.named_children
                for clause in clauses:
                    if clause.type == "extends_clause":
                        value = field_of(clause, "value")
                        if value is not None:
                            extends.append(self.text(value))
                        else:
                            extends.extend(self.text(c) for c in clause.named_children[:1])
                if clauses and not any(c.type.endswith("_clause") for c in clauses):
                    # JavaScript's grammar: `extends Base` holds the expression itself.
                    extends.append(self.text(clauses[0]))
            elif child.type in ("extends_type_clause", "extends_clause"):
                extends.extend(
                    self.text(c) for c in child.named_children if c.type != "type_arguments"
                )
        if self.augments:
            # Declaration merging into another package's type: the rest of its members are
            # that package's (written as TypeScript names a module's type).
            extends.append(f'import("{self.augments}").{name}')
        if body is not None:
            for member in body.named_children:
                kind = member.type
                key = field_of(member, "name") or field_of(member, "property")
                if kind in ("method_signature", "property_signature") and key is None:
                    key = next((c for c in member.named_children), None)
                if key is None:
                    continue
                member_name = self.text(key).strip("'\"")
                if kind in (
                    "method_definition",
                    "method_signature",
                    "abstract_method_signature",
                    "public_field_definition",
                    "field_definition",
                    "property_signature",
                ):
                    is_static = any(c.type == "static" for c in member.children)
                    if member_name == "constructor" and kind == "method_definition":
                        # `this.location = null` in the constructor makes a field.
                        members.extend(self._this_fields(field_of(member, "body")))
                        params = field_of(member, "parameters")
                        for param in params.named_children if params is not None else ():
                            modifier = any(
                                c.type in ("accessibility_modifier", "readonly")
                                or self.text(c) == "readonly"
                                for c in param.children
                            )
                            pattern = field_of(param, "pattern")
                            if modifier and pattern is not None:
                                members.append(self.text(pattern))
                        continue
                    (static if is_static else members).append(member_name)
        entry = self.table.classes.setdefault(name, {"members": [], "static": [], "extends": []})
        entry["members"].extend(m for m in members if m not in entry["members"])
        entry["static"].extend(m for m in static if m not in entry["static"])
        entry["extends"].extend(e for e in extends if e not in entry["extends"])

    def returned_keys(self, body: Any) -> list[str]:
        """The keys of the object a factory returns (``return { a, b }``, or ``const app =
        { a, b }; ... return app``, with what ``Object.defineProperties(app, {...})``,
        ``Object.assign(app, {...})`` and ``app.c = ...`` add in the body's own statements):
        the members of the instance a package's factory makes (fastify's ``fastify()``)."""
        statements = body.named_children if body is not None else []
        returned = next((s for s in reversed(statements) if s.type == "return_statement"), None)
        value = (
            returned.named_children[0] if returned is not None and returned.named_children else None
        )
        if value is None or value.type not in ("object", "identifier"):
            return []
        if value.type == "object":
            return self.object_keys(value)
        local, keys = self.text(value), []
        for statement in statements:
            for node in statement.named_children:
                if (
                    node.type == "variable_declarator"
                    and self.text(field_of(node, "name")) == local
                ):
                    made = field_of(node, "value")
                    if made is None or made.type != "object":
                        return []  # an instance of another make: its members are not these
                    keys += self.object_keys(made)
                elif node.type == "call_expression":
                    keys += self._added_keys(node, local)
                elif node.type == "assignment_expression":
                    left = field_of(node, "left")
                    if left is not None and left.type == "member_expression":
                        target, name = field_of(left, "object"), field_of(left, "property")
                        if target is not None and name is not None and self.text(target) == local:
                            keys.append(self.text(name))
        return keys

    def _added_keys(self, call: Any, local: str) -> list[str]:
        """The keys ``Object.defineProperties(local, {...})`` / ``Object.assign(local,
        {...})`` add to ``local``."""
        function, arguments = field_of(call, "function"), field_of(call, "arguments")
        if function is None or arguments is None or len(arguments.named_children) < 2:
            return []
        target, added = arguments.named_children[:2]
        if self.text(function) not in ("Object.defineProperties", "Object.assign"):
            return []
        if self.text(target) != local or added.type != "object":
            return []
        return self.object_keys(added)

    def _this_fields(self, body: Any) -> list[str]:
        """The names a constructor body assigns on ``this`` (nested functions and classes,
        which have a ``this`` of their own, aside; arrow functions share it)."""
        found: list[str] = []
        pending = list(body.named_children) if body is not None else []
        while pending:
            node = pending.pop()
            if node.type in (
                "function_expression",
                "function_declaration",
                "class",
                "class_declaration",
            ):
                continue
            if node.type == "assignment_expression":
                left = field_of(node, "left")
                target = field_of(left, "object") if left is not None else None
                name = field_of(left, "property") if left is not None else None
                this = target is not None and target.type == "this"
                if left is not None and left.type == "member_expression" and this and name:
                    found.append(self.text(name))
            pending.extend(node.named_children)
        return found

    def made(self, call: Any) -> bool:
        """``module.exports = internals.root()``: the object the file's own factory makes,
        when its members are all shown (evidence/made_objects.py); False otherwise."""
        made = made_objects.made_object(self.source, self.root, call)
        if made is None or made.open:
            return False
        table = self.table
        handed: list[list[str]] = []
        for owner, function in made.handed:
            imported = table.imports.get(owner)
            if imported is None or imported[1] != "*":
                return False  # handed to a function of no module the tables follow
            handed.append([imported[0], function])
        for key in made.members:
            table.exports[key] = key if key in table.locals else ""
        table.locals.setdefault("module.exports", "object")
        table.exports.setdefault("default", "module.exports")
        table.objects["module.exports"] = list(made.members)
        table.handed_exports = handed
        return True

    def _names_exports(self, assignment: Any) -> bool:
        left = field_of(assignment, "left")
        return left is not None and "".join(self.text(left).split()) in (
            "exports",
            "module.exports",
        )

    def commonjs(self, assignment: Any) -> None:
        table = self.table
        left = field_of(assignment, "left")
        right = field_of(assignment, "right")
        if left is None or right is None:
            return
        target = "".join(self.text(left).split())
        if target == "module.exports":
            # `module.exports = exports = Ajv`: both names are the one value.
            while right.type == "assignment_expression" and self._names_exports(right):
                right = field_of(right, "right")
            if right is None:
                return
            if right.type == "object":
                for key in self.object_keys(right):
                    if key != "...":
                        table.exports[key] = key if key in table.locals else ""
                    else:
                        table.export_equals = ""
                table.locals.setdefault("module.exports", "object")
                # Node's `import x from` a CommonJS module is its `module.exports`: the
                # object is the module's default export, its keys the object's members.
                table.exports.setdefault("default", "module.exports")
                table.objects["module.exports"] = self.object_keys(right)
                self.required_members(right)
            elif right.type == "identifier":
                table.export_equals = self.text(right)
                self.assigned_exports = True
            elif (
                right.type in ("class", "class_expression") and field_of(right, "name") is not None
            ):
                # `module.exports = class SqliteCacheStore { ... }`: the module is the class.
                name = self.text(field_of(right, "name"))
                self.class_members(right, name)
                table.locals.setdefault(name, "class")
                table.export_equals = name
                self.assigned_exports = True
            elif right.type in ("function_expression", "function") and field_of(right, "name"):
                # `module.exports = function prettyFactory (options) { ... }`: the module
                # is that function, as a declaration of the name exported would make it.
                name = self.text(field_of(right, "name"))
                table.locals.setdefault(name, "function")
                table.export_equals = name
                self.assigned_exports = True
            elif right.type == "call_expression" and self.made(right):
                pass
            else:
                table.export_equals = ""
                self.assigned_exports = True
                required = self.required(right)
                if required is not None and required[1] == "*":
                    table.required_exports["*"] = required
            return
        for prefix in ("module.exports.", "exports."):
            rest = target[len(prefix) :]
            if target.startswith(prefix) and re.fullmatch(r"[A-Za-z_$][\w$]*", rest):
                required = self.required(right)
                if required is not None:
                    table.required_exports[rest] = required
                local = self.text(right) if right.type == "identifier" else ""
                if right.type in ("class", "class_expression"):
                    self.class_members(right, rest)
                    table.locals.setdefault(rest, "class")
                    local = rest
                table.exports[rest] = local
                return
        if left.type != "member_expression" or "." not in target:
            return
        owner, _, member = target.rpartition(".")
        if right.type in ("class", "class_expression"):
            # `internals.Base = class { ... }`: a class of the product's under a path, whose
            # members are the product's (module.exports may be an instance of it).
            self.class_members(right, target)
        elif owner.endswith(".prototype") and owner[: -len(".prototype")] in table.classes:
            # `internals.Base.prototype.deny = ...`: a member added to that class.
            table.classes[owner[: -len(".prototype")]]["members"].append(member)
        elif owner in table.classes and member not in table.classes[owner]["static"]:
            # `AxiosError.from = (...) => ...` after `class AxiosError`: a static member.
            table.classes[owner]["static"].append(member)
        elif owner in table.imports and owner not in table.locals:
            # `Chart.helpers = {...}` on an imported class: a static added at run time.
            added = table.imported_statics.setdefault(owner, [])
            added += [member] if member not in added else []

    def required_members(self, node: Any) -> None:
        """The keys of ``module.exports = { ... }`` whose value is a required module or a
        member of one (``doc``, ``util: sharedUtil``, ``makeString: util.makeString``)."""
        for member in node.named_children:
            if member.type == "shorthand_property_identifier":
                key, value = self.text(member), member
            elif member.type == "pair" and field_of(member, "key") is not None:
                key, value = (
                    self.text(field_of(member, "key")).strip("'\"`"),
                    field_of(member, "value"),
                )
            else:
                continue
            required = self.required(value) if value is not None else None
            if required is not None:
                self.table.required_exports[key] = required

    def required(self, node: Any) -> list[str] | None:
        """[specifier, name] of a value that is a required module (``require("./x")``, a
        name bound to one) or a member of one (``x.name``, ``require("./x").name``); the
        name "*" for the whole module."""
        imports = self.table.imports
        if node.type in ("identifier", "shorthand_property_identifier"):
            name = self.text(node)
            found = imports.get(name) if name not in self.table.locals else None
            return list(found) if found is not None else None
        spec = self.require_spec(node)
        if spec is not None:
            return [spec, "*"]
        if node.type == "member_expression":
            owner, prop = field_of(node, "object"), field_of(node, "property")
            inner = self.required(owner) if owner is not None and prop is not None else None
            if inner is not None and inner[1] == "*":
                return [inner[0], self.text(prop)]
        return None
