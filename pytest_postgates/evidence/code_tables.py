"""API tables of the repository at a commit, for gate 15 (code samples use a real API).

Per source file, what a code sample can name from it, as tree-sitter reads it (the same
parsers as :mod:`pytest_postgates.evidence.repomap`):

* JavaScript/TypeScript: the export table (``export const/function/class/type/interface/
  enum``, ``export { a as b }``, ``export { a as b } from``, ``export * from``,
  ``export * as ns from``, ``export default``, ``export =``, CommonJS ``module.exports``),
  the file's imports (to follow a re-exported or inherited name to its file), its classes
  and interfaces with their members (methods, properties, accessors, static members,
  constructor parameter properties) and what they extend, the keys of exported object
  literals, and, in files that import yargs or commander, the CLI's commands and options.
* Python: top-level names (``__all__``, assignments, defs, classes, imports), star imports,
  a module ``__getattr__``, and argparse/click/typer commands and options.

The tables are cached on disk next to the index (keyed by commit, table version, the
extractor's source, grammar version and the list of source files); each file is parsed
the first time a sample reaches it and added to the cache file (merged under a lock), so
xdist workers and later runs load what any of them parsed instead of parsing again.
Following chains across files (what a module exports after ``export *``, inherited
members) is done on demand by
:mod:`pytest_postgates.evidence.api_lookup`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.repomap import (
    LANGUAGES,
    grammar_version,
    load_parsers,
    source_paths,
)
from pytest_postgates.fileio import locked

TABLES_VERSION = 2  # 2: the cache file is JSON lines, appended to
# The repo map's 512 KiB cut would drop NeuroLink's main class (src/lib/neurolink.ts is
# 551 KiB); bundles are skipped by name instead.
MAX_SOURCE_CHARS = 4 * 1024 * 1024
_BUNDLE = re.compile(r"(?:^|/)(?:[^/]*-dist|dist|build|vendor|node_modules)/|\.min\.js$")
_OPTION_SPEC_KEYS = frozenset(
    {"type", "describe", "description", "desc", "alias", "default", "choices", "demandOption"}
)
_LONG_FLAG = re.compile(r"--([A-Za-z0-9][A-Za-z0-9_.-]*)")
_JS_CLI_MODULES = {"yargs": "yargs", "commander": "commander"}
_PY_CLI_MODULES = {"argparse": "argparse", "click": "click", "typer": "typer"}
# A relative specifier in quotes, and what must stand before it for it to be imported
# (``from "./x"``, ``import "./x"``, ``import("./x")``, ``require("./x")``).
_RELATIVE_STRING = re.compile(r"""(["'`])(\.[^"'`\n]*)\1""")
_IMPORT_BEFORE = re.compile(r"(?:\bfrom|\bimport|\brequire)\s*\(?\s*$")


@dataclass
class FileTable:
    """What one source file declares and exports (plain data: it round-trips JSON)."""

    language: str  # "js" or "python"
    # exported name -> local binding ("" when the value has no local name).
    exports: dict[str, str] = field(default_factory=dict)
    # exported name -> [specifier, imported name] ("*" for ``export * as ns from``).
    reexports: dict[str, list[str]] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)  # ``export * from`` specifiers
    export_equals: str | None = None  # ``export = X`` / ``module.exports = X`` binding
    imports: dict[str, list[str]] = field(default_factory=dict)  # local -> [spec, name]
    # local name -> kind (class, interface, function, const, type, enum, namespace, ...)
    locals: dict[str, str] = field(default_factory=dict)
    # class or interface -> {"members": [...], "static": [...], "extends": [...]}
    classes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    objects: dict[str, list[str]] = field(default_factory=dict)  # const x = {keys}
    deps: list[str] = field(default_factory=list)  # relative import specifiers
    # Python: __all__ (None when absent), ``from m import *`` modules, module __getattr__.
    all: list[str] | None = None
    module_getattr: bool = False
    # CLI definitions found in the file.
    cli_frameworks: list[str] = field(default_factory=list)
    commands: list[list[Any]] = field(default_factory=list)  # [name, nested, line]
    options: list[str] = field(default_factory=list)  # long option names

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, [], {}, False)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileTable:
        return cls(**data)


class LazyFiles(Mapping[str, FileTable]):
    """The tables by path, each file parsed the first time it is asked for: a sample
    reaches a fraction of a repository (609 of NeuroLink's 1,125 source files for the
    whole blog), so parsing everything up front would be most of the gate's cold cost."""

    def __init__(
        self,
        paths: Iterable[str],
        parsed: dict[str, FileTable],
        absent: set[str],
        read: Callable[[str], FileTable | None] | None,
    ) -> None:
        self._paths = frozenset(p for p in paths if p not in absent)
        self._parsed = parsed
        self._absent = set(absent)
        self._read = read
        self._lock = threading.Lock()
        self.fresh: set[str] = set()  # parsed in this process, not yet in the cache file

    def __contains__(self, path: object) -> bool:
        return path in self._parsed or (path in self._paths and path not in self._absent)

    def __getitem__(self, path: str) -> FileTable:
        table = self._parsed.get(path)
        if table is not None:
            return table
        if path not in self._paths or path in self._absent or self._read is None:
            raise KeyError(path)
        with self._lock:
            table = self._parsed.get(path)
            if table is None:
                table = self._read(path)
                if table is None:
                    self._absent.add(path)
                    self.fresh.add(path)
                    raise KeyError(path)
                self._parsed[path] = table
                self.fresh.add(path)
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(p for p in self._paths | set(self._parsed) if p not in self._absent))

    def __len__(self) -> int:
        return len(self._paths | set(self._parsed))

    def take_fresh(self) -> list[tuple[str, FileTable | None]]:
        """The files parsed since the last call (None: not readable), in path order."""
        with self._lock:
            rows = [(path, self._parsed.get(path)) for path in sorted(self.fresh)]
            self.fresh.clear()
        return rows


def scan_imports(text: str) -> list[str]:
    """The relative specifiers a JavaScript/TypeScript file imports, static or dynamic
    (``import ... from``, ``export ... from``, ``import "./x"``, ``import("./x")``,
    ``require("./x")``, anywhere but on comment lines), in source order.

    A scan of the text, not a parse: the CLI walk follows the imports of hundreds of
    files to find the few that define commands, and parsing each was most of gate 15's
    cold cost. It finds every import the parse finds, and also the dynamic ones inside
    functions (a CLI's lazily loaded command modules belong to it).
    """
    found: list[str] = []
    for match in _RELATIVE_STRING.finditer(text):
        start = match.start()
        if not _IMPORT_BEFORE.search(text, max(0, start - 40), start):
            continue
        line = text[text.rfind("\n", 0, start) + 1 : start].lstrip()
        if line.startswith(("//", "*", "/*")):
            continue  # a JSDoc example or a commented-out import
        found.append(match.group(2))
    return found


@dataclass
class CodeTables:
    commit: str
    available: bool
    reason: str = ""
    files: Mapping[str, FileTable] = field(default_factory=dict)
    cache_file: Path | None = None
    # The text of a source file the tables read (None: not read; see ``_source_text``).
    text: Callable[[str], str | None] | None = None
    _imports: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def imports_of(self, path: str) -> list[str]:
        """The relative specifiers ``path`` imports (:func:`scan_imports`; none for a
        Python file or a file the tables do not read)."""
        found = self._imports.get(path)
        if found is None:
            language = LANGUAGES.get(Path(path).suffix.lower())
            text = self.text(path) if self.text is not None and language != "python" else None
            found = self._imports[path] = scan_imports(text) if text is not None else []
        return found

    def may_define_cli(self, path: str) -> bool:
        """False when ``path`` cannot import a CLI framework (the name is not in its
        text), so its table need not be parsed to know it defines no commands."""
        if self.text is None:
            return True
        text = self.text(path)
        modules = _PY_CLI_MODULES if path.endswith((".py", ".pyi")) else _JS_CLI_MODULES
        return text is not None and any(module in text for module in modules)

    def save(self) -> None:
        """Append the files parsed in this process since the last save to the cache file
        (JSON lines, one file a line, under its lock), so xdist workers and later runs
        reuse them. Appending costs what was parsed; rewriting the whole file after every
        post that parsed something cost more than the parsing it saved."""
        files = self.files
        if self.cache_file is None or not isinstance(files, LazyFiles):
            return
        rows = files.take_fresh()
        if not rows:
            return
        lines = [
            json.dumps(
                {"path": path, "table": table.to_json()}
                if table is not None
                else {"path": path, "absent": True},
                sort_keys=True,
                ensure_ascii=False,
            )
            for path, table in rows
        ]
        # One write per save; the leading newline ends a line a killed writer left.
        with (
            locked(self.cache_file.with_suffix(".lock")),
            open(self.cache_file, "a", encoding="utf-8") as handle,
        ):
            handle.write("\n" + "\n".join(lines) + "\n")


# ---------------------------------------------------------------------- JS / TS


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _string_value(source: bytes, node: Any) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(
        c.type == "template_substitution" for c in node.named_children
    ):
        return None
    return _text(source, node)[1:-1]


def _field(node: Any, name: str) -> Any:
    return node.child_by_field_name(name) if node is not None else None


_CLI_QUERY = "(call_expression) @n (object) @n (new_expression) @n"
_PAIR_QUERY = "(pair) @n"
_QUERIES: dict[tuple[int, str], Any] = {}


def _captured(root: Any, language: Any, text: str) -> list[Any] | None:
    """The nodes a tree-sitter query captures (found in C, where a Python walk over every
    node of a large CLI file was most of its cost); None without the query API."""
    if language is None:
        return None
    try:
        import tree_sitter

        query = _QUERIES.get((id(language), text))
        if query is None:
            query = _QUERIES[(id(language), text)] = tree_sitter.Query(language, text)
        captures = tree_sitter.QueryCursor(query).captures(root)
    except Exception:  # an older binding without QueryCursor: walk in Python instead
        return None
    return list(captures.get("n", [])) if isinstance(captures, dict) else [n for n, _ in captures]


class _JsTables:
    def __init__(self, source: bytes, language: Any = None) -> None:
        self.source = source
        self.language = language
        self.table = FileTable("js")

    def text(self, node: Any) -> str:
        return _text(self.source, node)

    def build(self, root: Any) -> FileTable:
        for child in root.named_children:
            self.statement(child)
        table = self.table
        # `export { a as b }` of an imported name is a re-export in all but syntax.
        for name, local in list(table.exports.items()):
            if local in table.imports and local not in table.locals:
                table.reexports[name] = list(table.imports[local])
                del table.exports[name]
        if table.cli_frameworks:
            self.cli(root, nested=False)
        return table

    # -------------------------------------------------------------- statements
    def statement(self, node: Any, exported: bool = False) -> None:
        table = self.table
        kind = node.type
        if kind == "export_statement":
            self.export(node)
            return
        if kind == "import_statement":
            self.import_statement(node)
            return
        if kind in ("function_declaration", "generator_function_declaration", "function_signature"):
            self.declare(node, "function", exported)
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
            body = _field(node, "body")
            if name and body is not None:
                keys = [self.text(_field(m, "name") or m) for m in body.named_children]
                table.objects[name] = [k.strip("'\"") for k in keys]
        elif kind in ("internal_module", "module"):
            self.declare(node, "namespace", exported)
        elif kind in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                if declarator.type == "variable_declarator":
                    self.declarator(declarator, exported)
        elif kind == "ambient_declaration":
            for child in node.named_children:
                self.statement(child, exported)
        elif kind == "expression_statement" and node.named_children:
            expression = node.named_children[0]
            if expression.type == "assignment_expression":
                self.commonjs(expression)

    def declare(self, node: Any, kind: str, exported: bool) -> str:
        name_node = _field(node, "name")
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
        name_node = _field(declarator, "name")
        value = _field(declarator, "value")
        if name_node is None:
            return
        spec = self.require_spec(value) if value is not None else None
        head = _JS_CLI_MODULES.get(spec.split("/")[0]) if spec else None
        if head and head not in table.cli_frameworks:
            table.cli_frameworks.append(head)
        if name_node.type == "object_pattern" and value is not None:
            # const { a, b: c } = require("./x")
            for item in name_node.named_children:
                if item.type == "shorthand_property_identifier_pattern":
                    local = imported = self.text(item)
                elif item.type == "pair_pattern":
                    imported = self.text(_field(item, "key"))
                    local = self.text(_field(item, "value"))
                else:
                    continue
                if spec is not None:
                    table.imports[local] = [spec, imported]
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
        table.locals.setdefault(name, kind)
        if exported:
            table.exports[name] = name

    def require_spec(self, value: Any) -> str | None:
        """``require("x")`` / ``await import("x")`` -> ``x``."""
        node = value
        if node.type == "await_expression" and node.named_children:
            node = node.named_children[0]
        if node.type != "call_expression":
            return None
        function = _field(node, "function")
        arguments = _field(node, "arguments")
        if function is None or arguments is None or not arguments.named_children:
            return None
        if self.text(function) not in ("require", "import"):
            return None
        return _string_value(self.source, arguments.named_children[0])

    def object_keys(self, node: Any) -> list[str]:
        keys: list[str] = []
        for member in node.named_children:
            if member.type == "shorthand_property_identifier":
                keys.append(self.text(member))
            elif member.type in ("pair", "method_definition"):
                key = _field(member, "key") or _field(member, "name")
                if key is not None:
                    keys.append(self.text(key).strip("'\"`"))
            elif member.type == "spread_element":
                keys.append("...")  # unknown keys: lookups on this object are unjudged
        return keys

    def export(self, node: Any) -> None:
        table = self.table
        source_node = _field(node, "source")
        spec = _string_value(self.source, source_node) if source_node is not None else None
        if spec is not None and spec.startswith("."):
            table.deps.append(spec)
        declaration = _field(node, "declaration")
        is_default = any(child.type == "default" for child in node.children)
        if declaration is not None:
            if is_default:
                name = self.declare_default(declaration)
                table.exports["default"] = name
            else:
                self.statement(declaration, exported=True)
            return
        value = _field(node, "value")
        if value is not None or is_default:
            if value is not None and value.type == "identifier":
                table.exports["default"] = self.text(value)
            elif value is not None and value.type in ("class", "class_expression"):
                name = self.text(_field(value, "name")) if _field(value, "name") else ""
                key = name or "default"
                self.class_members(value, key)
                table.locals.setdefault(key, "class")
                table.exports["default"] = key
            elif value is not None and value.type == "object":
                table.objects["default"] = self.object_keys(value)
                table.locals.setdefault("default", "object")
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
                name = self.text(_field(specifier, "name")).strip("'\"")
                alias_node = _field(specifier, "alias")
                alias = self.text(alias_node).strip("'\"") if alias_node is not None else name
                if spec is not None:
                    table.reexports[alias] = [spec, name]
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
        name_node = _field(declaration, "name")
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
        spec = _string_value(self.source, _field(node, "source"))
        if spec is None:
            return
        if spec.startswith("."):
            table.deps.append(spec)
        head = _JS_CLI_MODULES.get(spec.split("/")[0])
        if head and head not in table.cli_frameworks:
            table.cli_frameworks.append(head)
        clause = next((c for c in node.named_children if c.type == "import_clause"), None)
        if clause is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                table.imports[self.text(part)] = [spec, "default"]
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    table.imports[self.text(ids[0])] = [spec, "*"]
            elif part.type == "named_imports":
                for specifier in part.named_children:
                    if specifier.type != "import_specifier":
                        continue
                    name = self.text(_field(specifier, "name")).strip("'\"")
                    alias = _field(specifier, "alias")
                    local = self.text(alias) if alias is not None else name
                    table.imports[local] = [spec, name]

    def class_members(self, node: Any, name: str) -> None:
        body = _field(node, "body")
        members: list[str] = []
        static: list[str] = []
        extends: list[str] = []
        for child in node.named_children:
            if child.type == "class_heritage":
                for clause in child.named_children:
                    if clause.type == "extends_clause":
                        value = _field(clause, "value")
                        if value is not None:
                            extends.append(self.text(value))
                        else:
                            extends.extend(self.text(c) for c in clause.named_children[:1])
            elif child.type in ("extends_type_clause", "extends_clause"):
                extends.extend(
                    self.text(c) for c in child.named_children if c.type != "type_arguments"
                )
        if node.type in ("class", "class_expression"):
            # `class extends Base {}` as an expression: the heritage is a direct child too.
            pass
        if body is not None:
            for member in body.named_children:
                kind = member.type
                key = _field(member, "name") or _field(member, "property")
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
                        params = _field(member, "parameters")
                        for param in params.named_children if params is not None else ():
                            modifier = any(
                                c.type in ("accessibility_modifier", "readonly")
                                or self.text(c) == "readonly"
                                for c in param.children
                            )
                            pattern = _field(param, "pattern")
                            if modifier and pattern is not None:
                                members.append(self.text(pattern))
                        continue
                    (static if is_static else members).append(member_name)
        entry = self.table.classes.setdefault(name, {"members": [], "static": [], "extends": []})
        entry["members"].extend(m for m in members if m not in entry["members"])
        entry["static"].extend(m for m in static if m not in entry["static"])
        entry["extends"].extend(e for e in extends if e not in entry["extends"])

    def commonjs(self, assignment: Any) -> None:
        table = self.table
        left = _field(assignment, "left")
        right = _field(assignment, "right")
        if left is None or right is None:
            return
        target = "".join(self.text(left).split())
        if target == "module.exports":
            if right.type == "object":
                for key in self.object_keys(right):
                    if key != "...":
                        table.exports[key] = key if key in table.locals else ""
                    else:
                        table.export_equals = ""
                table.locals.setdefault("module.exports", "object")
            elif right.type == "identifier":
                table.export_equals = self.text(right)
            else:
                table.export_equals = ""
            return
        for prefix in ("module.exports.", "exports."):
            rest = target[len(prefix) :]
            if target.startswith(prefix) and re.fullmatch(r"[A-Za-z_$][\w$]*", rest):
                local = self.text(right) if right.type == "identifier" else ""
                if right.type in ("class", "class_expression"):
                    self.class_members(right, rest)
                    table.locals.setdefault(rest, "class")
                    local = rest
                table.exports[rest] = local
                return

    # -------------------------------------------------------------- CLI (yargs, commander)
    def cli(self, node: Any, nested: bool) -> None:
        """Commands and options anywhere in the file; ``nested`` once inside a command's
        builder (a subcommand, not a top-level command)."""
        found = _captured(node, self.language, _CLI_QUERY)
        if found is None:
            self._cli_walk(node, nested)
            return
        # The nodes in source order, parents first (as the walk visits them); a node is
        # nested when a command definition encloses it, tracked by the enclosing ends.
        enclosing: list[int] = []
        for current in sorted(found, key=lambda n: (n.start_byte, -n.end_byte)):
            while enclosing and enclosing[-1] <= current.start_byte:
                enclosing.pop()
            if self.cli_node(current, nested or bool(enclosing)):
                enclosing.append(current.end_byte)

    def _cli_walk(self, node: Any, nested: bool) -> None:
        stack: list[tuple[Any, bool]] = [(node, nested)]
        while stack:
            current, inside = stack.pop()
            child_inside = self.cli_node(current, inside) or inside
            for child in reversed(current.named_children):
                stack.append((child, child_inside))

    def cli_node(self, current: Any, inside: bool) -> bool:
        """Read one node; True when it defines a command (what it encloses is nested)."""
        kind = current.type
        if kind == "call_expression":
            return self.cli_call(current, inside)
        if kind == "object":
            return self.cli_object(current, inside)
        if kind == "new_expression":
            constructor = _field(current, "constructor")
            arguments = _field(current, "arguments")
            if (
                constructor is not None
                and self.text(constructor) in ("Command", "commander.Command")
                and arguments is not None
                and arguments.named_children
            ):
                name = _string_value(self.source, arguments.named_children[0])
                if name:
                    self.add_command(name, inside, current)
            elif (
                constructor is not None
                and self.text(constructor) == "Option"
                and arguments is not None
                and arguments.named_children
            ):
                self.add_flags(_string_value(self.source, arguments.named_children[0]))
        return False

    def add_command(self, text: str, nested: bool, node: Any) -> None:
        words = text.split()
        if words:
            self.table.commands.append([words[0], nested, node.start_point[0] + 1])

    def add_flags(self, text: str | None) -> None:
        if text:
            for match in _LONG_FLAG.finditer(text):
                self.add_option(match.group(1))

    def add_option(self, name: str) -> None:
        if name and name not in self.table.options:
            self.table.options.append(name)

    def cli_call(self, node: Any, inside: bool) -> bool:
        function = _field(node, "function")
        arguments = _field(node, "arguments")
        if function is None or function.type != "member_expression" or arguments is None:
            return False
        method = self.text(_field(function, "property") or function)
        args = list(arguments.named_children)
        if not args:
            return False
        first = args[0]
        if method == "command":
            names = self.command_names(first)
            for name in names:
                self.add_command(name, inside, node)
            if len(args) >= 3 and args[2].type == "object":
                self.option_table(args[2])
            return bool(names)
        if method in ("option", "requiredOption", "addOption", "positional"):
            text = _string_value(self.source, first)
            if text is None:
                return False
            if method == "positional":
                return False
            if text.lstrip().startswith("-"):
                self.add_flags(text)  # commander: "-t, --temperature <value>"
            else:
                self.add_option(text)  # yargs: .option("temperature", {...})
                if len(args) >= 2 and args[1].type == "object":
                    self.aliases(args[1])
            return False
        if method == "options" and first.type == "object":
            self.option_table(first)
        elif method == "alias":
            for arg in args:
                value = _string_value(self.source, arg)
                if value and len(value) > 1:
                    self.add_option(value)
                elif arg.type == "array":
                    for item in arg.named_children:
                        value = _string_value(self.source, item)
                        if value and len(value) > 1:
                            self.add_option(value)
        elif method in ("boolean", "string", "number", "array", "count"):
            for arg in args:
                value = _string_value(self.source, arg)
                if value:
                    self.add_option(value)
        return False

    def command_names(self, node: Any) -> list[str]:
        value = _string_value(self.source, node)
        if value is not None:
            return [value]
        if node.type == "array":
            return [v for v in (_string_value(self.source, c) for c in node.named_children) if v]
        return []

    def cli_object(self, node: Any, inside: bool) -> bool:
        """A yargs CommandModule ``{ command: "x", builder: ... }``: a command; its
        builder's contents are nested."""
        pairs = {
            self.text(_field(p, "key")).strip("'\""): _field(p, "value")
            for p in node.named_children
            if p.type == "pair" and _field(p, "key") is not None
        }
        command = pairs.get("command")
        # An MCP server spec ({command: "npx", args}) is not a command definition.
        if command is None or not set(pairs) & {
            "describe",
            "description",
            "desc",
            "handler",
            "builder",
            "aliases",
        }:
            return False
        names = self.command_names(command)
        for name in names:
            self.add_command(name, inside, node)
        builder = pairs.get("builder")
        if builder is not None and builder.type == "object":
            self.option_table(builder)
        return bool(names)

    def option_table(self, node: Any) -> None:
        """``{ name: { type, alias, describe }, ... }``: option names and long aliases."""
        for member in node.named_children:
            if member.type == "pair":
                key = _field(member, "key")
                value = _field(member, "value")
                if key is None:
                    continue
                self.add_option(self.text(key).strip("'\"`"))
                if value is not None and value.type == "object":
                    self.aliases(value)
            elif member.type == "shorthand_property_identifier":
                self.add_option(self.text(member))

    def aliases(self, spec: Any) -> None:
        for pair in spec.named_children:
            if pair.type != "pair" or self.text(_field(pair, "key")).strip("'\"") != "alias":
                continue
            value = _field(pair, "value")
            items = value.named_children if value is not None and value.type == "array" else [value]
            for item in items:
                text = _string_value(self.source, item)
                if text and len(text) > 1:
                    self.add_option(text)

    def option_specs(self, root: Any) -> None:
        """Objects whose values read as yargs option specs (``{ type, describe, alias }``),
        wherever they are (shared option tables spread into builders)."""
        found = _captured(root, self.language, _PAIR_QUERY)
        if found is None:
            found = []
            stack = [root]
            while stack:
                current = stack.pop()
                found.append(current)
                stack.extend(current.named_children)
        else:
            # The walk's order (parents first, last child first): options keep their order.
            found.sort(key=lambda n: (-n.end_byte, n.start_byte))
        for current in found:
            if current.type == "pair":
                value = _field(current, "value")
                key = _field(current, "key")
                if value is not None and key is not None and value.type == "object":
                    inner = {
                        self.text(_field(p, "key")).strip("'\"")
                        for p in value.named_children
                        if p.type == "pair" and _field(p, "key") is not None
                    }
                    if inner & _OPTION_SPEC_KEYS and (
                        "type" in inner or "alias" in inner or inner & {"describe", "description"}
                    ):
                        self.add_option(self.text(key).strip("'\"`"))
                        self.aliases(value)


# ---------------------------------------------------------------------- Python


class _PyTables:
    def __init__(self, source: bytes) -> None:
        self.source = source
        self.table = FileTable("python")

    def text(self, node: Any) -> str:
        return _text(self.source, node)

    def build(self, root: Any) -> FileTable:
        table = self.table
        for child in root.named_children:
            self.statement(child)
        if table.cli_frameworks:
            self.cli(root)
        return table

    def statement(self, node: Any) -> None:
        table = self.table
        kind = node.type
        if kind == "decorated_definition":
            node = _field(node, "definition") or node
            kind = node.type
        if kind in ("function_definition", "class_definition"):
            name = self.text(_field(node, "name"))
            table.locals[name] = "class" if kind == "class_definition" else "function"
            if name == "__getattr__":
                table.module_getattr = True
            if kind == "class_definition":
                self.python_class(node, name)
        elif kind == "import_statement":
            for name in node.named_children:
                target = _field(name, "alias") if name.type == "aliased_import" else None
                dotted = self.text(_field(name, "name") if target is not None else name)
                local = self.text(target) if target is not None else dotted.split(".")[0]
                table.imports[local] = [dotted, "*"]
                head = _PY_CLI_MODULES.get(dotted.split(".")[0])
                if head and head not in table.cli_frameworks:
                    table.cli_frameworks.append(head)
        elif kind == "import_from_statement":
            module = self.text(_field(node, "module_name"))
            head = _PY_CLI_MODULES.get(module.split(".")[0])
            if head and head not in table.cli_frameworks:
                table.cli_frameworks.append(head)
            if any(c.type == "wildcard_import" for c in node.named_children):
                table.stars.append(module)
                return
            for name in node.named_children[1:]:
                if name.type == "aliased_import":
                    imported = self.text(_field(name, "name"))
                    local = self.text(_field(name, "alias"))
                elif name.type == "dotted_name":
                    imported = local = self.text(name)
                else:
                    continue
                table.imports[local] = [module, imported]
        elif kind in ("expression_statement", "assignment", "augmented_assignment"):
            # Grammar versions differ on whether an assignment is wrapped in a statement.
            expression = node.named_children[0] if kind == "expression_statement" else node
            if expression is not None and expression.type in ("assignment", "augmented_assignment"):
                left = _field(expression, "left")
                for name in self._targets(left):
                    table.locals.setdefault(name, "const")
                if left is not None and self.text(left) == "__all__":
                    right = _field(expression, "right")
                    values = [
                        self.text(c)[1:-1]
                        for c in (right.named_children if right is not None else [])
                        if c.type == "string"
                    ]
                    if expression.type == "augmented_assignment":
                        table.all = [*(table.all or []), *values]
                    else:
                        table.all = values
        elif kind in ("if_statement", "try_statement", "with_statement"):
            # Names bound under `if TYPE_CHECKING:` / `try: import x except: ...` exist too.
            for child in node.named_children:
                if child.type == "block":
                    for inner in child.named_children:
                        self.statement(inner)
                elif child.type in (
                    "else_clause",
                    "except_clause",
                    "finally_clause",
                    "elif_clause",
                ):
                    for block in child.named_children:
                        if block.type == "block":
                            for inner in block.named_children:
                                self.statement(inner)

    def _targets(self, node: Any) -> list[str]:
        if node is None:
            return []
        if node.type == "identifier":
            return [self.text(node)]
        if node.type in ("pattern_list", "tuple_pattern", "list_pattern"):
            return [n for child in node.named_children for n in self._targets(child)]
        return []

    def python_class(self, node: Any, name: str) -> None:
        members: list[str] = []
        body = _field(node, "body")
        for child in body.named_children if body is not None else ():
            inner = _field(child, "definition") if child.type == "decorated_definition" else child
            if inner is None:
                continue
            if inner.type in ("function_definition", "class_definition"):
                members.append(self.text(_field(inner, "name")))
            elif inner.type in ("expression_statement", "assignment"):
                expression = inner.named_children[0] if inner.type != "assignment" else inner
                if expression is not None and expression.type == "assignment":
                    members.extend(self._targets(_field(expression, "left")))
        bases = _field(node, "superclasses")
        extends = [self.text(c) for c in bases.named_children] if bases is not None else []
        self.table.classes[name] = {"members": members, "static": [], "extends": extends}

    def cli(self, root: Any) -> None:
        stack: list[Any] = [root]
        while stack:
            node = stack.pop()
            if node.type == "call":
                self.cli_call(node)
            elif node.type == "decorated_definition":
                self.cli_decorated(node)
            stack.extend(node.named_children)

    def strings(self, arguments: Any) -> list[str]:
        return [self.text(c).strip("'\"") for c in arguments.named_children if c.type == "string"]

    def keyword(self, arguments: Any, name: str) -> Any:
        for child in arguments.named_children:
            if child.type == "keyword_argument" and self.text(_field(child, "name")) == name:
                return _field(child, "value")
        return None

    def cli_call(self, node: Any) -> None:
        function = _field(node, "function")
        arguments = _field(node, "arguments")
        if function is None or arguments is None or function.type != "attribute":
            return
        method = self.text(_field(function, "attribute"))
        if method == "add_argument":
            for text in self.strings(arguments):
                for match in _LONG_FLAG.finditer(text):
                    if text.startswith("--"):
                        self.table.options.append(match.group(1))
        elif method == "add_parser":
            names = self.strings(arguments)[:1]
            aliases = self.keyword(arguments, "aliases")
            if aliases is not None:
                names += [self.text(c).strip("'\"") for c in aliases.named_children]
            for name in names:
                self.table.commands.append([name, False, node.start_point[0] + 1])

    def cli_decorated(self, node: Any) -> None:
        definition = _field(node, "definition")
        function_name = self.text(_field(definition, "name")) if definition is not None else ""
        for decorator in (c for c in node.named_children if c.type == "decorator"):
            call = decorator.named_children[0] if decorator.named_children else None
            if call is None:
                continue
            function = _field(call, "function") if call.type == "call" else call
            arguments = _field(call, "arguments") if call.type == "call" else None
            name = self.text(function) if function is not None else ""
            tail = name.rsplit(".", 1)[-1]
            if tail in ("command", "group"):
                given = self.strings(arguments)[:1] if arguments is not None else []
                keyword = self.keyword(arguments, "name") if arguments is not None else None
                if keyword is not None:
                    given = [self.text(keyword).strip("'\"")]
                command = given[0] if given else function_name.replace("_", "-")
                if name not in ("click.group", "click.command") or given:
                    self.table.commands.append([command, False, node.start_point[0] + 1])
            elif tail == "option" and arguments is not None:
                for text in self.strings(arguments):
                    for flag in text.split("/"):
                        match = _LONG_FLAG.search(flag.strip())
                        if match and flag.strip().startswith("--"):
                            self.table.options.append(match.group(1))
        if definition is not None and "typer" in self.table.cli_frameworks:
            params = _field(definition, "parameters")
            for param in params.named_children if params is not None else ():
                value = _field(param, "value")
                if value is not None and "Option(" in self.text(value):
                    declared = [m.group(1) for m in _LONG_FLAG.finditer(self.text(value))]
                    if declared:
                        self.table.options.extend(declared)
                    else:
                        pname = self.text(_field(param, "name") or param)
                        self.table.options.append(pname.replace("_", "-"))


# ---------------------------------------------------------------------- build and cache


def tables_for_source(path: str, text: str, parsers: dict[str, Any]) -> FileTable | None:
    """The table of one file (None for languages not read)."""
    language = LANGUAGES.get(Path(path).suffix.lower())
    if language is None or language not in parsers:
        return None
    source = text.encode("utf-8")
    tree = parsers[language].parse(source)
    root = tree.root_node
    if language == "python":
        return _PyTables(source).build(root)
    builder = _JsTables(source, getattr(tree, "language", None))
    table = builder.build(root)
    if table.cli_frameworks:
        builder.option_specs(root)
    return table


_TABLES: dict[tuple[str, str], CodeTables] = {}
_BY_INDEX: dict[tuple[str, str, str, int], CodeTables] = {}
_LOCK = threading.Lock()


def code_tables(index: RepoIndex, cache_dir: Path) -> CodeTables:
    """The tables of ``index``'s repository at its commit: from memory, from the cache
    folder, or built (by exactly one process, under a lock) and cached."""
    by_index = (str(cache_dir), str(index.root), index.commit, len(index.text_paths))
    with _LOCK:
        known = _BY_INDEX.get(by_index)
    if known is not None:
        return known  # asked once per post: the key below costs a pass over every path
    parsers = load_parsers()
    if isinstance(parsers, str):
        return CodeTables(index.commit, available=False, reason=parsers)
    paths = source_paths(index)
    # The extractor's own source is part of the key: a table built by other rules is stale.
    extractor = Path(__file__).read_bytes()
    digest = hashlib.sha1(
        b"\0".join(
            [
                grammar_version().encode(),
                extractor,
                *(p.encode("utf-8", "surrogateescape") for p in paths),
            ]
        )
    ).hexdigest()[:12]
    name = f"codetables-v{TABLES_VERSION}-{index.commit}-{digest}"
    key = (str(cache_dir), name)
    with _LOCK:
        cached = _TABLES.get(key)
        if cached is not None:
            _BY_INDEX[by_index] = cached
    if cached is not None:
        return cached
    target = cache_dir / f"{name}.jsonl"
    parsed, absent = _read_cache(target) or ({}, set())

    def read(path: str) -> FileTable | None:
        text = _source_text(index, path)
        return tables_for_source(path, text, parsers) if text is not None else None

    result = CodeTables(
        index.commit,
        True,
        files=LazyFiles(paths, parsed, absent, read),
        cache_file=target,
        text=lambda path: _source_text(index, path),
    )
    with _LOCK:
        result = _TABLES.setdefault(key, result)
        _BY_INDEX[by_index] = result
    return result


def build_tables(index: RepoIndex, paths: list[str], parsers: dict[str, Any]) -> CodeTables:
    """Every file's table at once (benchmarks and tests; the gate parses lazily)."""
    files: dict[str, FileTable] = {}
    for path in paths:
        text = _source_text(index, path)
        table = tables_for_source(path, text, parsers) if text is not None else None
        if table is not None:
            files[path] = table
    return CodeTables(
        index.commit, available=True, files=files, text=lambda path: _source_text(index, path)
    )


def _source_text(index: RepoIndex, path: str) -> str | None:
    """The text of a source file the tables read: not a bundle, not over the size cut."""
    if _BUNDLE.search(path):
        return None
    text = index.file_text(path)
    return text if text is not None and len(text) <= MAX_SOURCE_CHARS else None


def _read_cache(target: Path) -> tuple[dict[str, FileTable], set[str]] | None:
    """The tables in a cache file (the first row of a path wins; a row that does not read,
    such as one a killed writer cut short, is skipped)."""
    try:
        text = target.read_text(encoding="utf-8")
    except OSError:
        return None
    files: dict[str, FileTable] = {}
    absent: set[str] = set()
    for line in text.splitlines():
        if not line:
            continue
        try:
            row = json.loads(line)
            path = row["path"]
            if not isinstance(path, str) or path in files or path in absent:
                continue
            if row.get("absent") is True:
                absent.add(path)
            else:
                files[path] = FileTable.from_json(row["table"])
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return files, absent
