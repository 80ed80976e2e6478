"""Gate 15's reader of JavaScript/TypeScript fences: it follows what each sample name
holds (a product module, one of its exports, an instance made with ``new``, a value of a
type the sample does not show) and hands every import, re-export and member use to the
post's :class:`~pytest_postgates.helpers.sample_checks.SampleChecker`."""

from __future__ import annotations

from typing import Any

from pytest_postgates.helpers.sample_checks import SampleChecker, SampleReport, SampleValue


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _string(source: bytes, node: Any) -> str | None:
    if node is None or node.type != "string":
        return None
    return _text(source, node)[1:-1]


class JsSample:
    def __init__(self, gate: SampleChecker, report: SampleReport) -> None:
        self.gate = gate
        self.report = report
        self.values: dict[str, SampleValue] = {}

    def fence(self, content: str, first_line: int, tsx: bool) -> None:
        if self.gate.package not in content and not any(
            name.split(".")[-1] in content for name in self.values
        ):
            return  # neither imports the product nor uses a name bound to it
        parsers = self.gate.parsers
        source = content.encode("utf-8")
        tree = parsers["tsx" if tsx else "typescript"].parse(source)
        self.source = source
        self.first = first_line
        self.lines = content.splitlines()
        self.walk(tree.root_node, getattr(tree, "language", None))

    def line(self, node: Any) -> int:
        row: int = node.start_point[0]
        return self.first + row

    def line_text(self, node: Any) -> str:
        row = node.start_point[0]
        return self.lines[row] if row < len(self.lines) else ""

    def walk(self, root: Any, language: Any = None) -> None:
        # The nodes the gate reads, in source order (a binding precedes its uses), found by
        # a tree-sitter query in C; a Python walk where the query API is missing.
        order = _query_nodes(root, language)
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

    # -------------------------------------------------------------- bindings
    def product(self, spec: str | None) -> bool:
        package = self.gate.package
        return bool(spec) and (spec == package or str(spec).startswith(package + "/"))

    def import_statement(self, node: Any) -> None:
        spec = _string(self.source, node.child_by_field_name("source"))
        if not self.product(spec):
            return
        assert spec is not None
        type_only = any(c.type == "type" for c in node.children)
        module = self.gate.module_for(spec, type_only, self.line(node), self.line_text(node))
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if clause is None or module is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.bind(_text(self.source, part), module, "default", node)
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    self.values[_text(self.source, ids[0])] = SampleValue("namespace", module)
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type != "import_specifier":
                        continue
                    name = _text(self.source, specifier.child_by_field_name("name"))
                    alias = specifier.child_by_field_name("alias")
                    local = _text(self.source, alias) if alias is not None else name
                    self.bind(local, module, name.strip("'\""), node)

    def reexport(self, node: Any) -> None:
        spec = _string(self.source, node.child_by_field_name("source"))
        if not self.product(spec):
            return
        assert spec is not None
        module = self.gate.module_for(spec, False, self.line(node), self.line_text(node))
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if module is None or clause is None:
            return
        for specifier in clause.named_children:
            if specifier.type == "export_specifier":
                name = _text(self.source, specifier.child_by_field_name("name")).strip("'\"")
                self.gate.check_export(module, name, self.line(node), self.line_text(node))

    def bind(self, local: str, module: str, name: str, node: Any) -> None:
        binding = self.gate.check_export(module, name, self.line(node), self.line_text(node))
        if binding is not None:
            self.values[local] = SampleValue("export", module, name, binding)
        else:
            # Not exported (a violation) or not judged: its members cannot be judged either.
            self.values[local] = SampleValue("unknown", origin=f"{name}, not a judged export")

    def assignment(self, node: Any) -> None:
        """``x = new X()`` and ``this.x = new X()``: the name holds an instance."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or left.type not in ("identifier", "member_expression"):
            return
        key = _text(self.source, left)
        inner = right
        while inner.type in ("await_expression", "parenthesized_expression") and (
            inner.named_children
        ):
            inner = inner.named_children[0]
        if inner.type == "new_expression":
            constructor = inner.child_by_field_name("constructor")
            held = self.values.get(_text(self.source, constructor)) if constructor else None
            if held is not None and held.kind == "export":
                self.values[key] = SampleValue("instance", held.module, held.name, held.binding)
                return
            if held is not None and held.kind == "unknown":
                self.values[key] = held
                return
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
        if _text(self.source, function) not in ("require", "import"):
            return None
        return _string(self.source, arguments.named_children[0])

    def declarator(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            return
        spec = self.require(value)
        if spec is not None:
            if not self.product(spec):
                return
            module = self.gate.module_for(spec, False, self.line(node), self.line_text(node))
            if module is None:
                return
            if name.type == "identifier":
                self.values[_text(self.source, name)] = SampleValue("namespace", module)
            elif name.type == "object_pattern":
                for item in name.named_children:
                    if item.type == "shorthand_property_identifier_pattern":
                        local = imported = _text(self.source, item)
                    elif item.type == "pair_pattern":
                        imported = _text(self.source, item.child_by_field_name("key"))
                        local = _text(self.source, item.child_by_field_name("value"))
                    else:
                        continue
                    self.bind(local, module, imported, node)
            return
        if name.type != "identifier":
            return
        local = _text(self.source, name)
        inner = value
        while (
            inner.type
            in (
                "await_expression",
                "parenthesized_expression",
                "as_expression",
                "non_null_expression",
            )
            and inner.named_children
        ):
            inner = inner.named_children[0]
        if inner.type == "new_expression":
            constructor = inner.child_by_field_name("constructor")
            held = self.values.get(_text(self.source, constructor)) if constructor else None
            if held is not None and held.kind == "export":
                self.values[local] = SampleValue("instance", held.module, held.name, held.binding)
                return
            if held is not None and held.kind == "unknown":
                self.values[local] = held
                return
            if constructor is not None and constructor.type == "member_expression":
                target = self.values.get(
                    _text(self.source, constructor.child_by_field_name("object"))
                )
                if target is not None and target.kind == "namespace":
                    prop = _text(self.source, constructor.child_by_field_name("property"))
                    found = self.gate.lookup.find_export(target.module, prop)
                    self.values[local] = SampleValue("instance", target.module, prop, found)
                    return
        elif inner.type in ("call_expression", "member_expression", "identifier"):
            root = inner
            while root.type in ("call_expression", "member_expression"):
                root = root.child_by_field_name(
                    "function" if root.type == "call_expression" else "object"
                )
                if root is None:
                    return
            if root.type == "identifier" and _text(self.source, root) in self.values:
                if inner.type == "identifier":
                    self.values[local] = self.values[_text(self.source, root)]
                else:
                    origin = " ".join(_text(self.source, inner).split())[:60]
                    self.values[local] = SampleValue("unknown", origin=origin)
                return
        self.values.pop(local, None)  # a sample name rebound to something else

    # -------------------------------------------------------------- uses
    def member(self, node: Any) -> None:
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is None or prop is None:
            return
        if obj.type == "member_expression":
            inner = obj.child_by_field_name("object")
            if inner is None or inner.type != "this":
                return
        elif obj.type != "identifier":
            return
        held = self.values.get(_text(self.source, obj))
        if held is None or prop.type == "private_property_identifier":
            return
        name = _text(self.source, prop)
        line, text = self.line(node), self.line_text(node)
        parent = node.parent
        beyond = (
            parent is not None
            and parent.type == "member_expression"
            and parent.child_by_field_name("object") == node
        )
        if parent is not None and parent.type == "call_expression" and parent.parent is not None:
            grand = parent.parent
            beyond = (
                grand.type == "member_expression" and grand.child_by_field_name("object") == parent
            )
        used = f"{_text(self.source, obj)}.{name}"
        if held.kind == "unknown":
            self.report.skip(
                line,
                text,
                f"{used}: the type of the value ({held.origin}) is not shown in the sample",
            )
            return
        if held.kind == "namespace":
            self.gate.check_export(held.module, name, line, text)
        else:
            self.gate.check_member(held, name, line, text)
        if beyond:
            self.report.skip(line, text, f"chain beyond one member after {used}")


_QUERY_TEXT = (
    "(import_statement) @n (export_statement) @n (variable_declarator) @n "
    "(assignment_expression) @n (member_expression) @n"
)
_QUERIES: dict[int, Any] = {}


def _query_nodes(root: Any, language: Any) -> list[Any] | None:
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
