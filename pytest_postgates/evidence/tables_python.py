"""The CLI table of a Python file (see :mod:`.code_tables`): the argparse/click/typer
commands and options it declares, its top-level functions and classes (a command a
function makes is tabled where it is declared) and star imports. Gate 15 judges Python
samples against the API model, which records what a file imports
(:class:`~.model_facts.ImportSite`, read by :mod:`.model_python`); only the CLI
frameworks a file imports are read from its imports here."""

from __future__ import annotations

from typing import Any

from pytest_postgates.evidence.file_table import (
    LONG_FLAG,
    OPEN_COMMANDS,
    PY_CLI_MODULES,
    FileTable,
    field_of,
    node_text,
)


class PythonTables:
    """The table of one Python file, read from its syntax tree."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.table = FileTable("python")
        self.subparsers = 0  # the line of the file's first `add_subparsers()`

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

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

    def cli(self, root: Any) -> None:
        stack: list[Any] = [root]
        while stack:
            node = stack.pop()
            if node.type == "call":
                self.cli_call(node)
            elif node.type == "decorated_definition":
                self.cli_decorated(node)
            stack.extend(node.named_children)
        if self.subparsers and not self.table.commands:
            # Subparsers made here and filled elsewhere (a loop registering the modules of
            # a package, pdm's `register_command`): the commands are not written here.
            self.table.commands.append([OPEN_COMMANDS, False, self.subparsers])

    def strings(self, arguments: Any) -> list[str]:
        return [self.text(c).strip("'\"") for c in arguments.named_children if c.type == "string"]

    def keyword(self, arguments: Any, name: str) -> Any:
        for child in arguments.named_children:
            if child.type == "keyword_argument" and self.text(field_of(child, "name")) == name:
                return field_of(child, "value")
        return None

    def cli_call(self, node: Any) -> None:
        function = field_of(node, "function")
        arguments = field_of(node, "arguments")
        if function is None or arguments is None or function.type != "attribute":
            return
        method = self.text(field_of(function, "attribute"))
        if method == "add_argument":
            for text in self.strings(arguments):
                for match in LONG_FLAG.finditer(text):
                    if text.startswith("--"):
                        self.table.options.append(match.group(1))
        elif method == "add_subparsers":
            self.subparsers = self.subparsers or node.start_point[0] + 1
        elif method == "add_parser":
            first = next((c for c in arguments.named_children if c.type != "comment"), None)
            if first is not None and first.type not in ("string", "keyword_argument"):
                # `add_parser(name or cls.name)`: a command named at run time.
                self.table.commands.append([OPEN_COMMANDS, False, node.start_point[0] + 1])
            names = self.strings(arguments)[:1]
            aliases = self.keyword(arguments, "aliases")
            if aliases is not None:
                names += [self.text(c).strip("'\"") for c in aliases.named_children]
            for name in names:
                self.table.commands.append([name, False, node.start_point[0] + 1])
        elif method in ("add_typer", "add_command"):
            self.added_command(node, method, arguments)

    def added_command(self, node: Any, method: str, arguments: Any) -> None:
        """``app.add_typer(sub, name="utils")``, ``group.add_command(cmd, "name")``: a
        command of that name. ``add_command(obj)`` of an object this file does not define as
        a function (typer's own CLI adds the reader's app as ``run``) or a name that is no
        string makes a command at run time: the table of commands is then open."""
        given = self.keyword(arguments, "name")
        strings = self.strings(arguments)
        line = node.start_point[0] + 1
        if given is not None:
            name = self.text(given).strip("'\"") if given.type == "string" else OPEN_COMMANDS
        elif method == "add_command" and strings:
            name = strings[0]
        elif method == "add_command":
            first = arguments.named_children[0] if arguments.named_children else None
            local = first is not None and self.table.locals.get(self.text(first)) == "function"
            name = "" if local else OPEN_COMMANDS  # a decorated function: already tabled
        else:
            name = ""  # add_typer(sub): sub's own commands, already tabled where declared
        if name:
            self.table.commands.append([name, False, line])

    def cli_decorated(self, node: Any) -> None:
        definition = field_of(node, "definition")
        function_name = self.text(field_of(definition, "name")) if definition is not None else ""
        own: list[str] = []  # the options this function declares
        command_of: str | None = None  # the command it defines (None: none, a root callback)
        for decorator in (c for c in node.named_children if c.type == "decorator"):
            call = decorator.named_children[0] if decorator.named_children else None
            if call is None:
                continue
            function = field_of(call, "function") if call.type == "call" else call
            arguments = field_of(call, "arguments") if call.type == "call" else None
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
                    command_of = command
            elif tail == "option" and arguments is not None:
                for text in self.strings(arguments):
                    for flag in text.split("/"):
                        match = LONG_FLAG.search(flag.strip())
                        if match and flag.strip().startswith("--"):
                            own.append(match.group(1))
        if definition is not None and "typer" in self.table.cli_frameworks:
            params = field_of(definition, "parameters")
            for param in params.named_children if params is not None else ():
                value = field_of(param, "value")
                annotation = field_of(param, "type")
                # `port: Annotated[int, typer.Option("--port")] = 8000`: the Option is in
                # the parameter's type, its default (if any) is a plain value.
                if annotation is not None and "Option(" in self.text(annotation):
                    value = annotation
                if value is not None and "Option(" in self.text(value):
                    declared = [m.group(1) for m in LONG_FLAG.finditer(self.text(value))]
                    if declared:
                        own.extend(declared)
                    else:
                        pname = self.text(field_of(param, "name") or param)
                        own.append(pname.replace("_", "-"))
        self.table.options.extend(own)
        # A command's options are its own; a callback's or root group's are the root's.
        attributed = self.table.command_options.setdefault(command_of or "", [])
        attributed.extend(o for o in own if o not in attributed)
