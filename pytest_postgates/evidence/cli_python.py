"""The command line a Python module declares with argparse, click or typer, read with the
standard library's ``ast``: its commands, and for each command every long option its parser
accepts, the ones the parser derives from a declaration included (issue 24: a flag is
judged against the parser, and a parser accepts more than the strings the code writes).

Derived, as each library derives them (tests/test_cli_conformance.py compares against the
libraries themselves where they are installed):

* typer: a parameter with a default (or an ``Option``) is an option named after it
  (``max_size`` -> ``--max-size``); a ``bool`` one without declared names is a pair
  ``--x/--no-x``; declared names replace the default (``Option("--force")`` is only
  ``--force``; ``Option("--accept/--reject")`` both); a parameter without a default, or an
  ``Argument``, is positional. Every command takes ``--help``; an app made by
  ``typer.Typer()`` (unless ``add_completion=False``) adds ``--install-completion`` and
  ``--show-completion`` (``typer.run`` does not).
* click: ``@click.option("--shout/--no-shout")`` declares both; ``version_option``,
  ``help_option``, ``password_option`` and ``confirmation_option`` add ``--version``,
  ``--help``, ``--password`` and ``--yes`` unless given names; every command takes
  ``--help``. A command's default name is its function's, dashed, without a ``_command``,
  ``_cmd``, ``_group`` or ``_grp`` suffix.
* argparse: ``--help`` unless ``add_help=False``; ``action=BooleanOptionalAction`` adds
  ``--no-x`` for each ``--x``; ``add_parser("run")`` makes a command, and the options added
  to the parser it returns (or to a group of it) are that command's; ``add_parser(name)``
  of a name made at run time (pdm's commands, one a module of a package, registered by a
  loop) leaves the table of commands open.

* decorators the module defines that apply click options (``def quiet_option(f): return
  click.option("--quiet", ...)(f)``, ``common = add_options(click.option("--theme"),
  quiet_option)``) add those options to each command they decorate.
* a command that hands the rest of its line to another program (argparse's
  ``nargs=REMAINDER``, click's ``nargs=-1`` of ``click.UNPROCESSED``) is a pass-through:
  what follows its first positional word is that program's, not the parser's.

Options whose command the reader cannot tell are the root's (accepted by every command).
A file that declares options keeps its other ``--long`` strings as the root's options too
(:func:`option_constants`: a table of options it loops over, a wrapper class that forwards
to ``add_argument``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

# The options a click decorator adds when given no names of its own.
_CLICK_OPTION_DECORATORS = {
    "version_option": "--version",
    "help_option": "--help",
    "password_option": "--password",
    "confirmation_option": "--yes",
}
_CLICK_SUFFIXES = ("command", "cmd", "group", "grp")
_COMMAND_DECORATORS = frozenset({"command", "group"})
_CONTEXT_TYPES = frozenset({"Context"})
_FRAMEWORK_MODULES = frozenset({"click", "typer", "rich_click", "argparse"})
# argparse parsers of other libraries whose options are the fields of the dataclasses they
# are given (transformers' HfArgumentParser: ``--<field>`` each, ``--no_<field>`` for a
# true bool); a file importing one has an argparse command line.
DATACLASS_PARSERS = frozenset({"HfArgumentParser"})
_DECORATING = frozenset({"click", "typer", "rich_click"})  # frameworks of decorated commands
TYPER_COMPLETION = ("--install-completion", "--show-completion")
# Calls that declare options: a file that makes one keeps its other `--long` strings as
# flags too (a table of options it loops over, a wrapper class forwarding to add_argument).
OPTION_CALLS = frozenset({"option", "Option", "add_argument", "add_option", "addoption"})
_LONG_CONSTANT = re.compile(r"--[A-Za-z][\w-]*")


@dataclass
class CliRead:
    """What one module's parser declares. ``declared``: (flag as the code writes it, its
    command, line); ``derived``: (flag, command, how the parser derives it); ``commands``:
    (name, line); ``open``: lines where commands are made at run time (the table of
    commands is not closed there); ``passthrough``: (command, line) of the commands that hand
    what follows their first positional word to another program. The root's command is
    ``""``."""

    declared: list[tuple[str, str, int]] = field(default_factory=list)
    derived: list[tuple[str, str, str]] = field(default_factory=list)
    commands: list[tuple[str, int]] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    passthrough: list[tuple[str, int]] = field(default_factory=list)  # (command, line)
    # (line, why) where the parser takes flags the module does not write (a dataclass
    # parser given a class defined elsewhere).
    open_flags: list[tuple[int, str]] = field(default_factory=list)


def read_cli(
    tree: ast.Module, frameworks: Iterable[str], dataclass_parsers: bool = False
) -> CliRead:
    """The command line ``tree`` declares with the CLI ``frameworks`` it imports; with
    ``dataclass_parsers``, the options of a :data:`DATACLASS_PARSERS` parser too (gate 15's
    table of a script's command line reads them; the API model does not yet)."""
    reader = _CliReader(frozenset(frameworks))
    reader.dataclass_parsers = dataclass_parsers
    reader.visit(tree)
    found = reader.found
    if reader.subparsers and not found.commands:
        # Subparsers made here and filled elsewhere (a loop registering the modules of a
        # package, pdm's `register_command`): the commands are not written here.
        found.open.append(reader.subparsers)
    for alias, command in reader.aliases.items():  # an alias takes its command's flags
        found.declared += [(f, alias, line) for f, c, line in found.declared if c == command]
        found.derived += [(f, alias, how) for f, c, how in found.derived if c == command]
    return found


def imports_dataclass_parser(tree: ast.Module) -> bool:
    """Whether the module imports a dataclass parser (:data:`DATACLASS_PARSERS`)."""
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name in DATACLASS_PARSERS for a in node.names)
        for node in ast.walk(tree)
    )


def _dataclass_fields(
    name: str, classes: dict[str, ast.ClassDef], seen: frozenset[str] = frozenset()
) -> tuple[list[tuple[str, int]], str]:
    """The fields (name, line) of the module's class ``name`` and of its bases, or the
    reason they are not all written here (a class or base defined elsewhere)."""
    node = classes.get(name)
    if node is None or name in seen:
        return [], f"{name} is not a class this module defines"
    fields: list[tuple[str, int]] = []
    for base in node.bases:
        if _dotted(base) == "object":
            continue
        inherited, why = _dataclass_fields(_dotted(base), classes, seen | {name})
        if why:
            return [], f"{name} extends {_dotted(base) or 'a computed base'}, not defined here"
        fields += inherited
    for statement in node.body:
        if not isinstance(statement, ast.AnnAssign) or not isinstance(statement.target, ast.Name):
            continue
        if "ClassVar" not in ast.unparse(statement.annotation):
            fields.append((statement.target.id, statement.lineno))
    return fields, ""


def option_constants(tree: ast.Module) -> list[tuple[str, int]]:
    """The ``--long`` strings of a file that declares options (:data:`OPTION_CALLS`), with
    their lines; none for a file that makes no such call."""
    constants: list[tuple[str, int]] = []
    declares = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _tail(node.func) in OPTION_CALLS:
            declares = True
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _LONG_CONSTANT.fullmatch(node.value)
        ):
            constants.append((node.value, node.lineno))
    return constants if declares else []


def long_names(texts: Iterable[str]) -> list[str]:
    """The long options of click/typer/argparse declarations (``"-f"``, ``"--force"``,
    ``"--shout/--no-shout"``, ``" /-S"``)."""
    found: list[str] = []
    for text in texts:
        for part in text.split("/"):
            part = part.strip()
            if part.startswith("--") and len(part) > 2:
                found.append(part)
    return found


def click_command_name(function: str) -> str:
    name = function.lower().replace("_", "-")
    left, dash, suffix = name.rpartition("-")
    return left if dash and suffix in _CLICK_SUFFIXES else name


class _CliReader(ast.NodeVisitor):
    def __init__(self, frameworks: frozenset[str]) -> None:
        self.frameworks = frameworks
        self.found = CliRead()
        self.parsers: dict[str, str] = {}  # argparse variable -> the command it parses
        self.aliases: dict[str, str] = {}  # argparse command alias -> its command
        self.functions: set[str] = set()  # functions this module defines
        self.typer_functions: dict[str, str] = {}  # typer.run / app.command()(f) -> command
        # Names imported from a CLI framework (`from click import command`): a bare
        # decorator is a command only when it is one of them (rich's `@group()` is not).
        self.imported: set[str] = set()
        # Decorators the module defines that apply click options -> (flag, line).
        self.option_decorators: dict[str, list[tuple[str, int]]] = {}
        self.subparsers = 0  # the line of the module's first `add_subparsers()`
        # A loop variable's uses (by node id) -> the strings a literal the loop walks holds.
        self.looped: dict[int, list[str]] = {}
        self.classes: dict[str, ast.ClassDef] = {}  # the module's top-level classes
        self.dataclass_parsers = False  # read DATACLASS_PARSERS' options (read_cli)

    # ------------------------------------------------------------------ helpers
    def dataclass_parser(self, node: ast.Call, callee: str) -> None:
        """``HfArgumentParser(Args)`` / ``((A, B))``: the fields of the module's dataclasses
        are the root's options; one it cannot read opens them."""
        if not _keyword_false(node, "add_help"):
            self.derive("--help", "", f"{callee} is an argparse parser (-h/--help)")
        given = node.args[0] if node.args else _keyword(node, "dataclass_types")
        named = list(given.elts) if isinstance(given, (ast.Tuple, ast.List)) else [given]
        for item in named:
            fields, why = _dataclass_fields(_dotted(item) if item else "", self.classes)
            if why or item is None:
                self.found.open_flags.append((node.lineno, f"{callee}: {why or 'no class'}"))
            for name, line in fields:
                self.declare(f"--{name}", "", line)

    def declare(self, flag: str, command: str, line: int) -> None:
        self.found.declared.append((flag, command, line))

    def derive(self, flag: str, command: str, how: str) -> None:
        self.found.derived.append((flag, command, how))

    def visit_Module(self, node: ast.Module) -> None:
        # Functions handed to typer by a call (`typer.run(main)`, `app.command()(main)`)
        # are commands like decorated ones: found first, read where they are defined.
        self.classes = {c.name: c for c in node.body if isinstance(c, ast.ClassDef)}
        for inner in ast.walk(node):
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.add(inner.name)
            framework = (
                isinstance(inner, ast.ImportFrom)
                and not inner.level
                and ((inner.module or "").split(".")[0] in _FRAMEWORK_MODULES)
            )
            if framework and isinstance(inner, ast.ImportFrom):
                self.imported.update(a.asname or a.name for a in inner.names)
        for inner in ast.walk(node):
            if not isinstance(inner, ast.Call) or not inner.args:
                continue
            target = inner.args[0]
            if not isinstance(target, ast.Name):
                continue
            runs = _dotted(inner.func) == "typer.run" or (
                _dotted(inner.func) == "run" and "run" in self.imported
            )
            if runs and "typer" in self.frameworks:
                self.typer_functions[target.id] = ""
            elif isinstance(inner.func, ast.Call) and _tail(inner.func.func) == "command":
                given = _strings(inner.func.args[:1]) or _keyword_strings(inner.func, "name")
                self.typer_functions[target.id] = (
                    given[0] if given else target.id.lower().replace("_", "-")
                )
        if self.frameworks & {"click", "rich_click"}:
            self.option_decorators = _option_decorators(node)
        self.looped = _looped_names(node)
        self.generic_visit(node)

    # ------------------------------------------------------------------ click / typer
    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.function(node)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.function(node)
        self.generic_visit(node)

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        command: str | None = self.typer_functions.get(node.name)
        by_typer = command is not None
        click_options = False
        shared: list[tuple[str, int]] = []  # options of the module's own option decorators
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            callee = call.func if call is not None else decorator
            tail = _tail(callee)
            if isinstance(callee, ast.Name) and callee.id in self.option_decorators:
                shared += self.option_decorators[callee.id]
                click_options = True
                continue
            if isinstance(callee, ast.Name) and callee.id not in self.imported:
                continue  # a decorator of another library (`from rich.console import group`)
            if not self.frameworks & _DECORATING:
                continue  # argparse declares no command by a decorator
            if tail in _COMMAND_DECORATORS or (tail == "callback" and "typer" in self.frameworks):
                given = (_strings(call.args[:1]) + _keyword_strings(call, "name")) if call else []
                dotted = _dotted(callee)
                if tail == "callback" or (dotted in ("click.group", "click.command") and not given):
                    command = ""  # the root: a group's callback, a program's one command
                elif given:
                    command = given[-1]
                elif "typer" in self.frameworks and not dotted.startswith("click."):
                    command = node.name.lower().replace("_", "-")
                else:
                    command = click_command_name(node.name)
                if command:
                    self.found.commands.append((command, node.lineno))
                by_typer = by_typer or (
                    "typer" in self.frameworks and not dotted.startswith("click.")
                )
            else:
                # A click option on the function: its parameters are not typer's options.
                click_options = (
                    click_options
                    or tail in _CLICK_OPTION_DECORATORS
                    or (tail == "option" and call is not None and _dotted(callee) != "typer.Option")
                )
        if command is None:
            if "typer" in self.frameworks:
                self.typer_parameters(node, "", options_only=True)  # a command made elsewhere
            return
        self.derive("--help", command, "every click and typer command takes --help")
        for flag, line in shared:
            self.declare(flag, command, line)
        for decorator in node.decorator_list:
            if not isinstance(decorator, ast.Call):
                continue
            tail = _tail(decorator.func)
            names = long_names(_strings(decorator.args))
            if tail == "argument" and _passes_through(decorator):
                self.found.passthrough.append((command, decorator.lineno))
            if tail == "option" and _dotted(decorator.func) != "typer.Option":
                for flag in names:
                    self.declare(flag, command, decorator.lineno)
            elif tail in _CLICK_OPTION_DECORATORS:
                for flag in names:
                    self.declare(flag, command, decorator.lineno)
                if not names:
                    self.derive(_CLICK_OPTION_DECORATORS[tail], command, f"click's {tail}()")
        if by_typer and not click_options:
            self.typer_parameters(node, command)

    def typer_parameters(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, command: str, options_only: bool = False
    ) -> None:
        """The options of a typer command's parameters (``options_only``: of a function
        not known to be a command, only its explicit ``Option`` parameters)."""
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults: dict[str, ast.expr] = {
            a.arg: d for a, d in zip(reversed(positional), reversed(args.defaults), strict=False)
        }
        defaults.update(
            {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
        )
        for arg in (*positional, *args.kwonlyargs):
            annotation = arg.annotation
            info = _typer_info(defaults.get(arg.arg), annotation)
            if info == "argument" or _tail(_annotation_type(annotation)) in _CONTEXT_TYPES:
                continue
            if info is None and (options_only or arg.arg not in defaults):
                continue  # no default and no Option: a positional argument
            names = long_names(_strings(info.args)) if isinstance(info, ast.Call) else []
            declared = _strings(info.args) if isinstance(info, ast.Call) else []
            if any(text.startswith("-") or "/" in text for text in declared):
                for flag in names:  # declared names replace the default ones
                    self.declare(flag, command, node.lineno)
                continue
            name = arg.arg.replace("_", "-")
            self.declare("--" + name, command, node.lineno)
            if _is_bool(annotation):
                self.derive(
                    f"--no-{name}",
                    command,
                    f"typer: the bool parameter {arg.arg} of {node.name}() is --{name}/--no-{name}",
                )

    # ------------------------------------------------------------------ calls
    def visit_Assign(self, node: ast.Assign) -> None:
        # `run = subparsers.add_parser("run")`: options added to `run` are the command's.
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            method = value.func.attr
            owner = _dotted(value.func.value)
            command: str | None = None
            if method == "add_parser":
                given = _strings(value.args[:1])
                command = given[0] if given else None
            elif method in ("add_argument_group", "add_mutually_exclusive_group"):
                command = self.parsers.get(owner, "")
            elif _tail(value.func) == "ArgumentParser":
                command = ""
            if command is not None:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.parsers[target.id] = command
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        callee = _tail(node.func)
        owner = _dotted(node.func.value) if isinstance(node.func, ast.Attribute) else ""
        if callee == "ArgumentParser" and not _keyword_false(node, "add_help"):
            self.derive("--help", "", "argparse adds -h/--help")
        elif callee in DATACLASS_PARSERS and self.dataclass_parsers:
            self.dataclass_parser(node, callee)
        elif callee == "add_subparsers":
            self.subparsers = self.subparsers or node.lineno
        elif callee == "add_parser":
            looped = self.looped.get(id(node.args[0])) if node.args else None
            if node.args and not _strings(node.args[:1]) and looped is None:
                self.found.open.append(node.lineno)  # `add_parser(name or cls.name)`
            names = (looped or _strings(node.args[:1])) + _keyword_strings(node, "aliases")
            for name in names:
                self.found.commands.append((name, node.lineno))
                if name != names[0]:
                    self.aliases[name] = names[0]
            if names and not _keyword_false(node, "add_help"):
                self.derive("--help", names[0], "argparse adds -h/--help")
        elif callee in ("add_argument", "add_option", "addoption"):
            command = self.parsers.get(owner, "")
            names = long_names(_strings(node.args))
            for flag in names:
                self.declare(flag, command, node.lineno)
            if not names and _passes_through(node):
                self.found.passthrough.append((command, node.lineno))
            action = _keyword(node, "action")
            if action is not None and "BooleanOptionalAction" in ast.unparse(action):
                for flag in names:
                    if not flag.startswith("--no-"):
                        self.derive(
                            "--no-" + flag[2:],
                            command,
                            f"argparse's BooleanOptionalAction on {flag}",
                        )
        elif callee == "Typer" and not _keyword_false(node, "add_completion"):
            for flag in TYPER_COMPLETION:
                self.derive(flag, "", "typer.Typer() adds completion options (add_completion)")
        elif callee == "add_typer":
            given = _keyword_strings(node, "name")
            if given:
                self.found.commands.append((given[0], node.lineno))
                self.derive("--help", given[0], "every click and typer command takes --help")
        elif callee == "add_command" and self.frameworks & {"click", "typer"}:
            given = _strings(node.args[1:2]) + _keyword_strings(node, "name")
            first = node.args[0] if node.args else None
            if given:
                self.found.commands.append((given[0], node.lineno))
            elif not (isinstance(first, ast.Name) and first.id in self.functions):
                self.found.open.append(node.lineno)  # a command object made at run time
        self.generic_visit(node)


def _looped_names(module: ast.Module) -> dict[int, list[str]]:
    """Each use of a loop variable that walks a literal of strings (``for name in ("a",
    "b")``, ``for name, text in TABLE.items()`` over a module-level dict literal): the
    strings it takes, by the use's node id (``add_parser(name)`` in such a loop makes each
    of those commands, no command named at run time)."""
    literals: dict[str, list[str]] = {}
    for statement in module.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            held = _literal_strings(statement.value)
            for target in targets:
                if isinstance(target, ast.Name) and held is not None:
                    literals[target.id] = held
    found: dict[int, list[str]] = {}
    for loop in ast.walk(module):
        if not isinstance(loop, ast.For):
            continue
        walked = loop.iter
        if isinstance(walked, ast.Call) and _tail(walked.func) in ("items", "keys"):
            walked = walked.func.value if isinstance(walked.func, ast.Attribute) else walked
        held = _literal_strings(walked)
        if held is None and isinstance(walked, ast.Name):
            held = literals.get(walked.id)
        target = loop.target
        if isinstance(target, ast.Tuple) and target.elts:
            target = target.elts[0]  # `for name, text in TABLE.items()`: the key
        if held is None or not isinstance(target, ast.Name):
            continue
        for inner in ast.walk(loop):
            if isinstance(inner, ast.Name) and inner.id == target.id and inner is not target:
                found[id(inner)] = held
    return found


def _literal_strings(node: ast.expr) -> list[str] | None:
    """The strings a literal holds (a dict's keys), or None when it holds anything else."""
    items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
    if not isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set)) or items is None:
        return None
    strings = _strings([item for item in items if item is not None])
    return strings if len(strings) == len(items) and strings else None


def _passes_through(call: ast.Call) -> bool:
    """Whether a positional argument takes the rest of the line as it is: argparse's
    ``nargs=argparse.REMAINDER`` (``"..."``), click's ``nargs=-1, type=click.UNPROCESSED``."""
    nargs = _keyword(call, "nargs")
    if nargs is None:
        return False
    if _tail(nargs) == "REMAINDER" or (isinstance(nargs, ast.Constant) and nargs.value == "..."):
        return True
    unprocessed = _tail(_keyword(call, "type")) == "UNPROCESSED"
    return unprocessed and ast.unparse(nargs) == "-1"


def _option_decorators(module: ast.Module) -> dict[str, list[tuple[str, int]]]:
    """The module's own decorators that apply click options, with their long options:
    a function whose body applies them (``def quiet_option(f): return
    click.option("--quiet")(f)``) and a name bound to an expression of them
    (``common = add_options(click.option("--theme"), quiet_option)``), followed through
    the names they use."""
    own: dict[str, list[tuple[str, int]]] = {}
    uses: dict[str, set[str]] = {}
    for statement in module.body:
        scope: ast.AST
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.decorator_list:
                continue  # a command or a decorated helper, not an option decorator
            name, scope = statement.name, statement
        elif (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            name, scope = statement.targets[0].id, statement.value
        else:
            continue
        flags: list[tuple[str, int]] = []
        names: set[str] = set()
        for inner in ast.walk(scope):
            if isinstance(inner, ast.Call) and _dotted(inner.func) != "typer.Option":
                tail = _tail(inner.func)
                if tail == "option" or tail in _CLICK_OPTION_DECORATORS:
                    given = long_names(_strings(inner.args))
                    if not given and tail in _CLICK_OPTION_DECORATORS:
                        given = [_CLICK_OPTION_DECORATORS[tail]]
                    flags += [(flag, inner.lineno) for flag in given]
            elif isinstance(inner, ast.Name) and inner.id != name:
                names.add(inner.id)
        own[name], uses[name] = flags, names
    found: dict[str, list[tuple[str, int]]] = {}
    for name in own:
        collected: list[tuple[str, int]] = []
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen or current not in own:
                continue
            seen.add(current)
            collected += own[current]
            todo.extend(sorted(uses[current]))
        if collected:
            found[name] = collected
    return found


def _typer_info(default: ast.expr | None, annotation: ast.expr | None) -> ast.Call | str | None:
    """The parameter's ``typer.Option(...)`` call, ``"argument"`` for an Argument, or None."""
    candidates: list[ast.expr] = [default] if default is not None else []
    if isinstance(annotation, ast.Subscript) and _tail(annotation.value) == "Annotated":
        extras = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else []
        candidates += extras[1:]
    for candidate in candidates:
        if isinstance(candidate, ast.Call):
            tail = _tail(candidate.func)
            if tail == "Option":
                return candidate
            if tail == "Argument":
                return "argument"
    return None


def _annotation_type(annotation: ast.expr | None) -> ast.expr | None:
    """The type of an annotation under ``Annotated[...]``, ``Optional[...]``, ``X | None``."""
    while annotation is not None:
        if isinstance(annotation, ast.Subscript) and _tail(annotation.value) in (
            "Annotated",
            "Optional",
        ):
            inner = annotation.slice
            annotation = inner.elts[0] if isinstance(inner, ast.Tuple) else inner
        elif isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            left, right = annotation.left, annotation.right
            none = isinstance(right, ast.Constant) and right.value is None
            annotation = left if none else right
        elif isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return None
        else:
            return annotation
    return None


def _is_bool(annotation: ast.expr | None) -> bool:
    found = _annotation_type(annotation)
    return isinstance(found, ast.Name) and found.id == "bool"


def _tail(node: ast.expr | None) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _dotted(node: ast.expr | None) -> str:
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _strings(nodes: Iterable[ast.expr]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _keyword(call: ast.Call | None, name: str) -> ast.expr | None:
    for keyword in call.keywords if call is not None else []:
        if keyword.arg == name:
            return keyword.value
    return None


def _keyword_strings(call: ast.Call | None, name: str) -> list[str]:
    value = _keyword(call, name)
    if value is None:
        return []
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return _strings(value.elts)
    return _strings([value])


def _keyword_false(call: ast.Call, name: str) -> bool:
    value = _keyword(call, name)
    return isinstance(value, ast.Constant) and value.value is False
