"""Gate 15, code_samples (advisory by default): the API a code sample uses exists at the ref.

Gate 14 checks that a sample imports the real package and an exported subpath. One level
down nothing checked: ``import { NeuroLinkSession } from "@juspay/neurolink"`` (the
package is right, the class is not), ``neurolink.generateStream()`` on a real class, or
``npx @juspay/neurolink generate --temperatur 0.2``. This gate reads the fences a reader
would copy and checks, against the repository's API tables at the ref
(:mod:`pytest_postgates.evidence.code_tables`, built once per commit):

* JavaScript/TypeScript: every name imported or re-exported from the product package is
  exported by the module the package's ``exports`` resolve the specifier to (followed back
  from the build target to its source, then through re-exports); a default import needs a
  default export; members used on an imported class or object, or on an instance made with
  ``new``, are declared (inherited ones included); an ``exports`` target whose source does
  not exist is ``missing_target``.
* Shell: the subcommand and every long flag of the product's ``bin`` (``npx <pkg>``,
  ``<bin>``, ``pnpm dlx``, ``yarn dlx``, ``bunx``) are defined by its CLI source.
* Python, for a Python product: ``from pkg.mod import name`` and ``import pkg.mod``.

What it cannot judge (chains beyond one member, values of unknown type, an ``export *``
of another package, a CLI framework it does not read) is listed as ``unjudged`` with the
reason, never counted as grounded.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomllib

from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError, resolution
from pytest_postgates.evidence.api_lookup import (
    OBJECT_MEMBERS,
    ApiLookup,
    Binding,
    CliTable,
    Unknown,
    normal_flag,
)
from pytest_postgates.evidence.code_tables import TABLES_VERSION, code_tables
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers.code_fences import PYTHON_LANGS, fence_kind
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

GATE_VERSION = 1
CODES = {
    "named_export": "UNKNOWN_EXPORT",
    "default_export": "NO_DEFAULT_EXPORT",
    "member": "UNKNOWN_MEMBER",
    "missing_target": "MISSING_TARGET",
    "cli_command": "UNKNOWN_COMMAND",
    "cli_flag": "UNKNOWN_FLAG",
    "python_import": "UNKNOWN_PYTHON_NAME",
}
BUILTIN_FLAGS = {
    "yargs": {"help", "version"},
    "commander": {"help", "version"},
    "argparse": {"help"},
    "click": {"help"},
    "typer": {"help", "install-completion", "show-completion"},
}
RUNNERS = (
    ("npx",),
    ("pnpm", "dlx"),
    ("pnpm", "exec"),
    ("yarn", "dlx"),
    ("bunx",),
    ("npm", "exec"),
    ("pipx", "run"),
    ("uvx",),
)
_PROMPT = re.compile(r"^\s*(?:\$|>|%|#)\s+")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PLACEHOLDER = re.compile(r"^[<\[{].*[>\]}]$|^\.\.\.$|\$")
_STOP = {"&&", "||", ";", "|", "&", ">", ">>", "2>", "<", "2>&1", "\\"}


@dataclass
class _Report:
    checked: int = 0
    checked_by_kind: dict[str, int] = field(default_factory=dict)
    unjudged: list[dict[str, Any]] = field(default_factory=list)
    violations: list[dict[str, Any]] = field(default_factory=list)
    resolved: dict[str, str] = field(default_factory=dict)  # specifier -> source file
    suggestions: dict[int, list[str]] = field(default_factory=dict)

    def count(self, kind: str) -> None:
        self.checked += 1
        self.checked_by_kind[kind] = self.checked_by_kind.get(kind, 0) + 1

    def skip(self, line: int, text: str, reason: str) -> None:
        entry = {"line": line, "text": text.strip()[:160], "reason": reason}
        if entry not in self.unjudged:
            self.unjudged.append(entry)

    def violation(
        self, line: int, kind: str, name: str, where: str, reason: str, close: list[str]
    ) -> None:
        self.suggestions[len(self.violations)] = close
        self.violations.append(
            {"line": line, "kind": kind, "name": name, "where_looked": where, "reason": reason}
        )


def _close(name: str, candidates: Iterable[str]) -> list[str]:
    # Only names of about the same length can be close; difflib over thousands is slow.
    slack = max(2, len(name) // 3)
    lower = name.lower()
    head = lower[:4] if len(name) >= 3 else None  # a shared prefix counts from 3 letters
    # One pass: about the same length, or the same first four letters.
    pool = sorted(
        {
            c
            for c in candidates
            if c
            and (
                (abs(len(c) - len(name)) <= slack and c != name and not c.startswith("_"))
                or (head is not None and c.lower().startswith(head))
            )
        }
    )
    if len(pool) > 200:
        pool = [c for c in pool if c[:1].lower() == name[:1].lower()]
    prefix = [c for c in pool if len(lower) >= 3 and c.lower().startswith(lower[:4])]
    spelled = difflib.get_close_matches(name, pool, n=3, cutoff=0.7)
    return list(dict.fromkeys([*spelled, *prefix]))[:3]


# ---------------------------------------------------------------------- JS / TS samples


@dataclass
class _Value:
    """What a sample name holds: an export of a product module (``binding`` is where it
    is declared), an instance of one, or a value of a type the sample does not show."""

    kind: str  # "namespace" | "export" | "instance" | "unknown"
    module: str = ""  # the source file of the imported module
    name: str = ""  # the imported name
    binding: Binding | Unknown | None = None
    origin: str = ""  # for "unknown": what the value came from


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _string(source: bytes, node: Any) -> str | None:
    if node is None or node.type != "string":
        return None
    return _text(source, node)[1:-1]


class _JsSample:
    def __init__(self, gate: _Run, report: _Report) -> None:
        self.gate = gate
        self.report = report
        self.values: dict[str, _Value] = {}

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
        return self.first + node.start_point[0]

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
                    self.values[_text(self.source, ids[0])] = _Value("namespace", module)
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
            self.values[local] = _Value("export", module, name, binding)
        else:
            # Not exported (a violation) or not judged: its members cannot be judged either.
            self.values[local] = _Value("unknown", origin=f"{name}, not a judged export")

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
                self.values[key] = _Value("instance", held.module, held.name, held.binding)
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
                self.values[_text(self.source, name)] = _Value("namespace", module)
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
                self.values[local] = _Value("instance", held.module, held.name, held.binding)
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
                    self.values[local] = _Value("instance", target.module, prop, found)
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
                    self.values[local] = _Value("unknown", origin=origin)
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


# ---------------------------------------------------------------------- the run


class _Run:
    """One post's check: the package, its manifest, the lookup and the report."""

    def __init__(
        self,
        package: str,
        manifest: dict[str, Any],
        lookup: ApiLookup,
        parsers: dict[str, Any],
        ref: str,
    ) -> None:
        self.package = package
        self.manifest = manifest
        self.lookup = lookup
        self.parsers = parsers
        self.ref = ref
        self.report = _Report()
        self._modules: dict[tuple[str, bool], str | Unknown | None] = {}

    # -------------------------------------------------------------- modules
    def module_for(self, spec: str, type_only: bool, line: int, text: str) -> str | None:
        """The source file a product specifier's module is read from; None after reporting
        why it cannot be (unjudged, or a missing_target violation)."""
        key = (spec, type_only)
        if key not in self._modules:
            self._modules[key] = self._resolve(spec, type_only, line, text)
        found = self._modules[key]
        if isinstance(found, Unknown):
            self.report.skip(line, text, found.reason)
            return None
        return found

    def _resolve(self, spec: str, type_only: bool, line: int, text: str) -> str | Unknown | None:
        result = resolution.resolve_specifier(
            self.manifest, spec, "import", type_only, self.lookup.files
        )
        if not result.ok or result.target is None:
            return Unknown(f"{spec} does not resolve ({result.code}); gate 14 reports it")
        source = self.lookup.source_for(result.target)
        if source.path is not None:
            self.report.resolved[spec] = source.path
            return source.path
        if source.expected:
            self.report.count("target")
            where = f"exports {result.key or '.'} -> {result.target} -> {source.expected}"
            reason = f"{spec} resolves to {result.target}, but {source.missing}"
            if source.index:
                built = result.target.rsplit(".", 1)[0] + "/index.js"
                reason += f" ({source.index} exists; it builds to {built}, not {result.target})"
            self.report.violation(line, "missing_target", spec, where, reason, [])
            return None
        return Unknown(f"{spec} resolves to {result.target}: {source.missing}; set source_map")

    def check_export(self, module: str, name: str, line: int, text: str) -> Binding | None:
        found = self.lookup.find_export(module, name)
        if isinstance(found, Unknown):
            self.report.skip(line, text, f"{name}: {found.reason}")
            return None
        self.report.count("export")
        if found is not None:
            return found
        exported = self.lookup.export_names(module)
        names = exported if isinstance(exported, set) else set()
        if name == "default":
            self.report.violation(
                line,
                "default_export",
                "default",
                module,
                f"{module} has no default export; import the names it exports by name",
                _close("", []),
            )
        else:
            self.report.violation(
                line,
                "named_export",
                name,
                module,
                f"{name} is not exported by {module} (nor by what it re-exports)",
                _close(name, names),
            )
        return None

    def check_member(self, held: _Value, name: str, line: int, text: str) -> None:
        binding = held.binding
        static = held.kind == "export"
        if not isinstance(binding, Binding):
            reason = binding.reason if isinstance(binding, Unknown) else "not declared"
            self.report.skip(line, text, f"{held.name}.{name}: {reason}")
            return
        if binding.kind in ("function", "value", "const", "namespace", "type", "member"):
            what = {"const": "a constant", "value": "a value", "type": "a type"}.get(
                binding.kind, f"a {binding.kind}"
            )
            self.report.skip(
                line,
                text,
                f"{held.name}.{name}: {held.name} is {what}, whose members are not tabled",
            )
            return
        if name in OBJECT_MEMBERS:
            self.report.count("member")
            return
        members, incomplete = self.lookup.members(binding, static)
        if name in members:
            self.report.count("member")
            return
        if incomplete is not None:
            self.report.skip(line, text, f"{held.name}.{name}: {incomplete.reason}")
            return
        self.report.count("member")
        which = "static member" if static and binding.kind == "class" else "member"
        other, _ = self.lookup.members(binding, not static)
        note = ""
        if name in other:
            note = (
                " (it is an instance member: call it on `new " + held.name + "()`)"
                if static
                else " (it is a static member of the class)"
            )
        self.report.violation(
            line,
            "member",
            f"{held.name}.{name}",
            f"{binding.path} ({binding.local})",
            f"{held.name} declares no {which} {name}{note}",
            _close(name, members),
        )

    # -------------------------------------------------------------- CLI
    def check_cli_line(
        self, line: int, text: str, words: list[str], cli: CliTable | Unknown, bin_name: str
    ) -> None:
        if isinstance(cli, Unknown):
            self.report.skip(line, text, cli.reason)
            return
        frameworks = [f for f in cli.frameworks if f in BUILTIN_FLAGS]
        if not frameworks:
            self.report.skip(
                line,
                text,
                f"the CLI source ({cli.entry}) uses no framework the "
                "gate reads (yargs, commander, argparse, click, typer)",
            )
            return
        options = cli.options | {o for f in frameworks for o in BUILTIN_FLAGS[f]}
        args = list(words)
        if "--" in args:
            args = args[: args.index("--")]
        if args and not args[0].startswith("-"):
            command = args[0]
            if _PLACEHOLDER.search(command):
                self.report.skip(line, text, f"{command} is a placeholder, not a command")
            elif not cli.commands:
                self.report.skip(line, text, f"{cli.entry} defines no commands the gate reads")
            elif command in cli.commands:
                self.report.count("command")
            elif cli.has_default_command:
                self.report.skip(
                    line,
                    text,
                    f"{command}: the CLI has a default command, so this may be its argument",
                )
            else:
                self.report.count("command")
                self.report.violation(
                    line,
                    "cli_command",
                    command,
                    ", ".join(cli.read[:4]),
                    f"{bin_name} defines no command {command}",
                    _close(command, cli.commands),
                )
        for word in args:
            if not word.startswith("--") or len(word) < 3:
                continue
            flag = word[2:].split("=", 1)[0]
            if _PLACEHOLDER.search(flag) or not re.fullmatch(r"[A-Za-z0-9][\w.-]*", flag):
                self.report.skip(line, text, f"--{flag} is a placeholder, not a flag")
                continue
            self.report.count("flag")
            normal = normal_flag(flag)
            negated = normal[3:] if normal.startswith("no-") else None
            if normal in options or (negated is not None and negated in options):
                continue
            self.report.violation(
                line,
                "cli_flag",
                f"--{flag}",
                ", ".join(cli.read[:4]),
                f"{bin_name} defines no option --{flag} (for any command)",
                [f"--{c}" for c in _close(normal, options)],
            )

    # -------------------------------------------------------------- Python
    def check_python(self, line: int, text: str, top: str) -> None:
        try:
            statement = _python_imports(text)
        except ValueError:
            return
        for module, names in statement:
            if module.split(".")[0] != top:
                continue
            path = self.lookup.python_module(module)
            self.report.count("python")
            if path is None:
                parent = module.rsplit(".", 1)[0] if "." in module else ""
                parent_path = self.lookup.python_module(parent) if parent else None
                pool = self.lookup.python_names(parent_path) if parent_path is not None else set()
                self.report.violation(
                    line,
                    "python_import",
                    module,
                    parent_path or top,
                    f"no module {module} at {self.ref}",
                    _close(module.rsplit(".", 1)[-1], pool if isinstance(pool, set) else []),
                )
                continue
            self.report.resolved[module] = path
            defined = self.lookup.python_names(path) if names else set()
            for name in names:
                if isinstance(defined, Unknown):
                    self.report.skip(line, text, f"{name}: {defined.reason}")
                    continue
                self.report.count("python")
                if name not in defined:
                    self.report.violation(
                        line,
                        "python_import",
                        f"{module}.{name}",
                        path,
                        f"{name} is not defined or imported in {path}",
                        _close(name, defined),
                    )


def _python_imports(text: str) -> list[tuple[str, list[str]]]:
    """``from a.b import x, y as z`` -> [("a.b", ["x", "y"])]; ``import a.b`` -> [("a.b", [])]."""
    stripped = text.strip()
    match = re.match(r"from\s+([\w.]+)\s+import\s+\(?([^#)]*)", stripped)
    if match:
        names = [part.split(" as ")[0].strip() for part in match.group(2).split(",")]
        return [(match.group(1), [n for n in names if re.fullmatch(r"\w+", n)])]
    match = re.match(r"import\s+([\w.,\s]+?)(?:\s+as\s+\w+)?\s*(?:#.*)?$", stripped)
    if match:
        return [(m.strip().split(" as ")[0], []) for m in match.group(1).split(",") if m.strip()]
    return []


# ---------------------------------------------------------------------- shell lines


def _shell_commands(content: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line offset, text, words) of each simple command, continuation lines joined."""
    lines = content.splitlines()
    index = 0
    while index < len(lines):
        start = index
        text = lines[index]
        while text.rstrip().endswith("\\") and index + 1 < len(lines):
            index += 1
            text = text.rstrip()[:-1] + " " + lines[index]
        index += 1
        text = _PROMPT.sub("", text, count=1)
        try:
            words = shlex.split(text, comments=True)
        except ValueError:
            words = text.split()
        segment: list[str] = []
        for word in [*words, ";"]:
            if word in _STOP:
                if segment:
                    yield start, text, segment
                segment = []
            else:
                segment.append(word)


def _invocation(
    words: list[str], package: str, bins: dict[str, str], python_top: str | None = None
) -> tuple[str, list[str]] | None:
    """(bin name, arguments) when ``words`` run the product's CLI."""
    while words and (_ENV.match(words[0]) or words[0] in ("sudo", "time", "env")):
        words = words[1:]
    if not words:
        return None
    if python_top and len(words) >= 3 and re.fullmatch(r"python3?(?:\.\d+)?", words[0]):
        # `python -m pkg ...` runs the package's __main__, the same CLI as its script.
        if words[1] == "-m" and words[2] == python_top and bins:
            return next(iter(bins)), words[3:]
        return None
    for runner in RUNNERS:
        if tuple(words[: len(runner)]) == runner:
            rest = words[len(runner) :]
            while rest and rest[0].startswith("-"):
                rest = rest[1:]  # npx -y / --yes / --package=...
            if not rest:
                return None
            name = rest[0]
            bare = name[: name.index("@", 1)] if name.find("@", 1) > 0 else name
            if bare == package or bare in bins:
                bin_name = bare if bare in bins else next(iter(bins), bare)
                return bin_name, rest[1:]
            return None
    if words[0] in bins:
        return words[0], words[1:]
    return None


# ---------------------------------------------------------------------- check / decide


def _bins(manifest: dict[str, Any], package: str) -> dict[str, str]:
    value = manifest.get("bin")
    if isinstance(value, str):
        return {package.rsplit("/", 1)[-1]: value}
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}
    return {}


def _python_project(files: resolution.IndexFiles) -> tuple[str, dict[str, str]] | None:
    text = files.read_text("pyproject.toml")
    if not text:
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    name = project.get("name") if isinstance(project, dict) else None
    if not isinstance(name, str):
        return None
    scripts = project.get("scripts") if isinstance(project.get("scripts"), dict) else {}
    return name, {k: v for k, v in scripts.items() if isinstance(v, str)}


def _empty_detail(settings: Settings) -> dict[str, Any]:
    return {
        "checked": 0,
        "checked_by_kind": {},
        "unjudged": [],
        "violations": [],
        "sources_read": [],
        "resolved": {},
        "package": settings.package,
        "ref": settings.ref,
    }


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    fences = [(fence, fence_kind(fence)) for fence in post.fences]
    fences = [(fence, kind) for fence, kind in fences if kind is not None]
    if not fences:
        return CheckResult([], _empty_detail(settings))
    try:
        index = context.evidence.index_for(post.path)
        evidence = context.evidence.for_post(post.path)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    parsers = load_parsers()
    if isinstance(parsers, str):
        raise CannotJudge("ERROR", parsers)
    files = resolution.IndexFiles(index)
    try:
        manifest = resolution.read_manifest(files) or {}
    except ValueError:
        raise CannotJudge("ERROR", f"package.json at {settings.ref} is not valid JSON") from None
    python = _python_project(files)
    package = settings.package or manifest.get("name") or evidence.package_name
    if not isinstance(package, str) or not package:
        raise CannotJudge("ERROR", f"no package name: set 'package' (at {settings.ref})")
    tables = code_tables(index, context.evidence.cache_dir)
    shared_key = ("code_samples.lookup", str(index.root), index.commit, settings.source_map)
    shared = context.memo.get(shared_key)
    if shared is None or shared.tables is not tables:
        shared = context.memo[shared_key] = ApiLookup(tables, files, manifest, settings.source_map)
    lookup = shared.for_post()
    run = _Run(package, manifest, lookup, parsers, settings.ref)
    report = run.report
    sample = _JsSample(run, report)
    cli: CliTable | Unknown | None = None
    bins = _bins(manifest, package)
    python_top = python[0].replace("-", "_").lower() if python else None
    if python:
        bins.update({name: target for name, target in python[1].items()})
    for fence, kind in fences:
        first = fence.start_line + 1
        if kind == "code":
            sample.fence(fence.content, first, fence.lang in ("tsx", "jsx"))
        elif kind == "python" and python_top:
            for offset, text in enumerate(fence.content.splitlines()):
                if re.match(r"\s*(from|import)\s", text):
                    run.check_python(first + offset, text, python_top)
        elif kind == "shell" and bins:
            for offset, text, words in _shell_commands(fence.content):
                found = _invocation(words, package, bins, python_top)
                if found is None:
                    continue
                if cli is None:
                    cli_key = (*shared_key, "cli")
                    if cli_key not in context.memo:
                        context.memo[cli_key] = _cli_table(
                            shared, bins, python is not None and not manifest
                        )
                    cli = context.memo[cli_key]
                    if isinstance(cli, CliTable):
                        lookup.read.extend(p for p in cli.read if p not in lookup.read)
                run.check_cli_line(first + offset, text, found[1], cli, found[0])
    tables.save()
    detail = {
        "checked": report.checked,
        "checked_by_kind": report.checked_by_kind,
        "unjudged": report.unjudged,
        "violations": report.violations,
        "sources_read": list(lookup.read),
        "resolved": report.resolved,
        "package": package,
        "ref": settings.ref,
    }
    if isinstance(cli, CliTable):
        detail["cli"] = {
            "entry": cli.entry,
            "frameworks": cli.frameworks,
            "read": cli.read,
        }
    findings = []
    for number, item in enumerate(report.violations):
        close = report.suggestions.get(number) or []
        fix = f"use what the code at {settings.ref} defines"
        if close:
            fix += f"; close real names: {', '.join(close)}"
        findings.append(Finding(item["line"], CODES[item["kind"]], item["reason"], fix))
    return CheckResult(findings, detail)


def _cli_table(lookup: ApiLookup, bins: dict[str, str], python: bool) -> CliTable | Unknown:
    target = next(iter(bins.values()))
    if python:
        module = target.split(":", 1)[0]
        path = lookup.python_module(module)
        if path is None:
            return Unknown(f"the script's module {module} is not a tracked file")
        top = path.split("/")[0] if not path.startswith("src/") else "/".join(path.split("/")[:2])
        table = lookup.cli(path)
        # A Python CLI's parts are the package's modules that import the framework.
        extra = []
        for other in lookup.tables.files:
            if not other.startswith(top + "/") or not other.endswith(".py") or other in table.read:
                continue
            if not lookup.tables.may_define_cli(other):
                continue
            found = lookup.tables.files.get(other)
            if found is not None and found.cli_frameworks:
                extra.append(other)
        for extra_path in extra:
            more = lookup.cli(extra_path)
            table.read.extend(more.read)
            table.frameworks.extend(f for f in more.frameworks if f not in table.frameworks)
            for name, where in more.commands.items():
                table.commands.setdefault(name, []).extend(where)
            table.options |= more.options
        return table
    source = lookup.source_for(target)
    if source.path is None:
        return Unknown(f"the bin {target} has no source file ({source.missing}); set source_map")
    return lookup.cli(source.path)


def decide(result: CheckResult, settings: Settings) -> Decision:
    detail, findings = result.detail, result.findings
    unjudged = len(detail["unjudged"])
    if not detail["checked"] and not unjudged and not findings:
        return Decision("PASS", "no product API used in code fences")
    summary = (
        f"{len(findings)} invented API name(s) of {detail['checked']} checked"
        if findings
        else f"{detail['checked']} API name(s) checked"
    )
    if unjudged:
        summary += f", {unjudged} not judged"
    return Decision("FAIL" if findings else "PASS", summary, len(findings))


def _rules_digest() -> str:
    """A digest of the code that decides this gate's results (this module and the API
    tables and lookup): a cached result from another version of the rules is not reused."""
    import hashlib

    from pytest_postgates.evidence import api_lookup, code_tables

    digest = hashlib.sha1()
    for module in (__file__, api_lookup.__file__, code_tables.__file__):
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:12]


_RULES = _rules_digest()


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    inputs = commit_inputs(post_path, context)
    if inputs is None:
        return None
    layout = ",".join(f"{b}={s}" for b, s in context.settings.source_map)
    return f"{inputs}|tables-{TABLES_VERSION}|gate-{GATE_VERSION}-{_RULES}|{layout}"


__all__ = ["GATE", "PYTHON_LANGS", "check", "decide"]

GATE = Gate(
    id=15,
    name="code_samples",
    advisory=True,
    kind="advisory",
    description="The API a code sample uses exists: exports, members, CLI commands and flags.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
)
