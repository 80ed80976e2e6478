"""One source file's API table (plain data) and the syntax-tree helpers its extractors
share: :mod:`.tables_js` reads JavaScript/TypeScript, :mod:`.tables_python` Python, and
:mod:`.code_tables` keeps the tables of a commit."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# The CLI frameworks the extractors read, by the module a file imports.
JS_CLI_MODULES = {
    "yargs": "yargs",
    "commander": "commander",
    "optionator": "optionator",
    "meow": "meow",
    # command-line-args parses by a list of option definitions that command-line-usage
    # prints: a file of either reads the same `[{ name, type, alias }]` lists.
    "command-line-args": "command-line-args",
    "command-line-usage": "command-line-args",
    # args: `.option(["c", "colorize"], description, default)`, a name or [short, long].
    "args": "args",
}
PY_CLI_MODULES = {"argparse": "argparse", "click": "click", "typer": "typer"}
# The command name that marks a CLI making commands at run time (no closed table).
OPEN_COMMANDS = "+"
LONG_FLAG = re.compile(r"--([A-Za-z0-9][A-Za-z0-9_.-]*)")


@dataclass
class FileTable:
    """What one source file declares and exports (plain data: it round-trips JSON)."""

    language: str  # "js" or "python"
    # exported name -> local binding ("" when the value has no local name).
    exports: dict[str, str] = field(default_factory=dict)
    # exported name -> [specifier, imported name] ("*" for ``export * as ns from``).
    reexports: dict[str, list[str]] = field(default_factory=dict)
    # ``export * from`` specifiers (Python: ``from m import *`` modules)
    stars: list[str] = field(default_factory=list)
    export_equals: str | None = None  # ``export = X`` / ``module.exports = X`` binding
    # ``module.exports = X`` in a file that also has ES exports (got's ``export default got;
    # module.exports = got``): what ``require`` gives, while TypeScript's declarations of the
    # file hold its ES exports only.
    commonjs_shim: bool = False
    # CommonJS exports whose value is a required module or one of its members: exported
    # name -> [specifier, imported name] ("*": the whole module), the name "*" for
    # ``module.exports = require(spec)``. Only the walk of the functions a package's entry
    # points reach reads them (public_functions): the import checks read such a value as
    # a value, as before.
    required_exports: dict[str, list[str]] = field(default_factory=dict)
    # ``module.exports = internals.root()``, an object the file's own factory makes
    # (evidence/made_objects.py): the required modules' functions it is handed to,
    # [specifier, function], whose parameter's members are exports too.
    handed_exports: list[list[str]] = field(default_factory=list)
    # CommonJS: exported function -> the members it assigns on its first parameter
    # ("*" among them: it may add others).
    parameter_members: dict[str, list[str]] = field(default_factory=dict)
    # JavaScript: local -> [spec, name] (a Python file's imports are the model's record).
    imports: dict[str, list[str]] = field(default_factory=dict)
    # The line of each import and re-export from another file or package (local or
    # exported name -> line): where the model says the product imports it.
    import_lines: dict[str, int] = field(default_factory=dict)
    # local name -> kind (class, interface, function, const, type, enum, namespace, ...)
    locals: dict[str, str] = field(default_factory=dict)
    # class or interface -> {"members": [...], "static": [...], "extends": [...]}
    classes: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # JavaScript: imported local -> the members the file assigns on it (Chart.js's UMD
    # entry: `import Chart from './core/core.controller.js'; Chart.helpers = {...}`).
    imported_statics: dict[str, list[str]] = field(default_factory=dict)
    objects: dict[str, list[str]] = field(default_factory=dict)  # const x = {keys}
    # A constant whose value's type the declaration says: local -> "type:<annotation>"
    # (``const vi: VitestUtils = ...``), "call:<function>" (``const vi = createVitest()``)
    # or "new:<class>" (``const client = new Client()``).
    value_types: dict[str, str] = field(default_factory=dict)
    # TypeScript namespace -> the names it exports (what ``export = ns`` makes the module's)
    namespaces: dict[str, list[str]] = field(default_factory=dict)
    deps: list[str] = field(default_factory=list)  # relative import specifiers
    # CLI definitions found in the file.
    cli_frameworks: list[str] = field(default_factory=list)
    commands: list[list[Any]] = field(default_factory=list)  # [name, nested, line]
    options: list[str] = field(default_factory=list)  # long option names
    # Python click/typer: command -> the long options its function declares ("" for a
    # group's callback: options of the root). Empty when the options are not attributed.
    command_options: dict[str, list[str]] = field(default_factory=dict)
    # Python: the commands that hand what follows their first positional word to another
    # program (argparse's REMAINDER, click's UNPROCESSED arguments).
    passthrough: list[str] = field(default_factory=list)
    # Where the file's parser takes flags it does not list: [line, why, specifier] (the
    # specifier of a table spread from another module, "" when nothing can close it).
    open_flags: list[list[Any]] = field(default_factory=list)
    # Python: the file makes an argparse parser with ``allow_abbrev=False`` (it takes no
    # prefix of a long option for the option; argparse's default does).
    exact_flags: bool = False

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, [], {}, False)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileTable:
        return cls(**data)


def node_text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def string_value(source: bytes, node: Any) -> str | None:
    if node is None or node.type not in ("string", "template_string"):
        return None
    if node.type == "template_string" and any(
        c.type == "template_substitution" for c in node.named_children
    ):
        return None
    return node_text(source, node)[1:-1]


def field_of(node: Any, name: str) -> Any:
    return node.child_by_field_name(name) if node is not None else None


_QUERIES: dict[tuple[int, str], Any] = {}


def captured(root: Any, language: Any, text: str) -> list[Any] | None:
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
