"""The CLI table of a Python file (see :mod:`.code_tables`): the argparse/click/typer
commands and options it declares, its top-level functions and classes (a command a
function makes is tabled where it is declared) and star imports. Gate 15 judges Python
samples against the API model, which records what a file imports
(:class:`~.model_facts.ImportSite`, read by :mod:`.model_python`); only the CLI
frameworks a file imports are read from its imports here."""

from __future__ import annotations

import ast
from typing import Any

from pytest_postgates.evidence.cli_python import (
    DATACLASS_PARSERS,
    imports_dataclass_parser,
    option_constants,
    read_cli,
)
from pytest_postgates.evidence.file_table import (
    OPEN_COMMANDS,
    PY_CLI_MODULES,
    FileTable,
    field_of,
    node_text,
)

# argparse's parse calls that return the words they do not take instead of failing.
_KEEPS_UNKNOWN = frozenset({"parse_known_args", "parse_known_intermixed_args"})


class PythonTables:
    """The table of one Python file, read from its syntax tree."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.table = FileTable("python")

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    def build(self, root: Any) -> FileTable:
        table = self.table
        for child in root.named_children:
            self.statement(child)
        if table.cli_frameworks or any(n.encode() in self.source for n in DATACLASS_PARSERS):
            self.cli()
        return table

    def statement(self, node: Any) -> None:
        table = self.table
        kind = node.type
        if kind == "decorated_definition":
            node = field_of(node, "definition") or node
            kind = node.type
        if kind in ("function_definition", "class_definition"):
            name = self.text(field_of(node, "name"))
            table.locals[name] = "class" if kind == "class_definition" else "function"
        elif kind == "import_statement":
            for name in node.named_children:
                dotted = field_of(name, "name") if name.type == "aliased_import" else name
                self.framework(self.text(dotted))
        elif kind == "import_from_statement":
            module = self.text(field_of(node, "module_name"))
            self.framework(module)
            if any(c.type == "wildcard_import" for c in node.named_children):
                table.stars.append(module)
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

    def framework(self, module: str) -> None:
        """Note the CLI framework ``module`` belongs to, if any, once."""
        head = PY_CLI_MODULES.get(module.split(".")[0])
        if head and head not in self.table.cli_frameworks:
            self.table.cli_frameworks.append(head)

    def cli(self) -> None:
        """The commands and options of the file's parser, as the API model reads them
        (:func:`~.cli_python.read_cli`): one reading of a Python command line for gates 2
        and 15."""
        try:
            tree = ast.parse(self.source)
        except (SyntaxError, ValueError):
            return  # Python cannot run it: no parser of the product is declared here
        table = self.table
        if "argparse" not in table.cli_frameworks and imports_dataclass_parser(tree):
            table.cli_frameworks.append("argparse")  # HfArgumentParser is an ArgumentParser
        if not table.cli_frameworks:
            return
        read = read_cli(tree, table.cli_frameworks, dataclass_parsers=True)
        table.open_flags += [[line, why, ""] for line, why in read.open_flags]
        table.commands += [[name, False, line] for name, line in read.commands]
        table.commands += [[OPEN_COMMANDS, False, line] for line in read.open]
        tabled: set[str] = set()
        for flag, command, _line in read.declared:
            tabled.add(flag)
            self.option(flag, command)
        # A derived option (`--no-x`, `--help`) joins the options of a command the code
        # gives options; it alone does not close a command's options (as before the model
        # read them: a command without declared options is judged against all of them).
        for flag, command, _how in read.derived:
            self.option(flag, command if command in table.command_options else None)
        # The file's other `--long` strings: options it declares through a table or a
        # wrapper the reader does not follow, accepted by every command (as the model has it).
        for flag, _line in option_constants(tree):
            name = flag.removeprefix("--")
            if flag not in tabled and name not in table.options:
                table.options.append(name)
                table.command_options.setdefault("", []).append(name)
        table.passthrough = sorted({command for command, _line in read.passthrough})
        for node in ast.walk(tree):
            # `parser.parse_known_args()` keeps what it does not declare for other code (a
            # second parser, a library's): the file's flags are not all written here.
            called = node.func if isinstance(node, ast.Call) else None
            if _no_abbreviations(node):
                table.exact_flags = True
            if isinstance(called, ast.Attribute) and called.attr in _KEEPS_UNKNOWN:
                why = f"{called.attr}() keeps the flags its parser does not declare"
                table.open_flags.append([called.lineno, why, ""])

    def option(self, flag: str, command: str | None) -> None:
        """Table ``flag`` (``--x``) as an option of the file, and of ``command`` unless None."""
        name = flag.removeprefix("--")
        if name not in self.table.options:
            self.table.options.append(name)
        own = self.table.command_options.setdefault(command, []) if command is not None else []
        if command is not None and name not in own:
            own.append(name)


def _no_abbreviations(node: ast.AST) -> bool:
    """``ArgumentParser(..., allow_abbrev=False)`` (argparse's default takes a unique
    prefix of a long option for it)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return callee.endswith("ArgumentParser") and any(
        k.arg == "allow_abbrev" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in node.keywords
    )
