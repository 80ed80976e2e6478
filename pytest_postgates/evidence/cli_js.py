"""The command line a JavaScript/TypeScript file declares, read from its syntax tree for
the file's table (:mod:`.tables_js`): yargs and commander commands and options, option
tables (``{ name: { type, describe } }``), optionator's option lists
(``{ option: "name", type }``), command-line-args option definitions
(``[{ name: "json", type: Boolean, alias: "j" }]``) and meow's flags
(``meow(help, { flags: { json: { type: "boolean" } } })``) and args' options
(``.option(["c", "colorize"], "Force color")``, a name or an array of a short and a long one).

Where the parser takes flags the file does not list, the file's flag set is open
(``FileTable.open_flags``): an option named by a value made at run time
(``.option(flags)``, ``new Option(spec.flags)``), a table spread from another module or
from a value made at run time (``...flagsFromCore``), and meow without a flag spec (meow 3
hands its options to minimist, which takes any flag)."""

from __future__ import annotations

from typing import Any

from pytest_postgates.evidence.file_table import (
    LONG_FLAG,
    OPEN_COMMANDS,
    FileTable,
    captured,
    field_of,
    node_text,
    string_value,
)

OPTION_SPEC_KEYS = frozenset(
    {"type", "describe", "description", "desc", "alias", "default", "choices", "demandOption"}
)
_CLI_QUERY = "(call_expression) @n (object) @n (new_expression) @n"
_PAIR_QUERY = "(pair) @n"
_DEFINITIONS_QUERY = "(array) @n (call_expression) @n"
_DECLARATOR_QUERY = "(variable_declarator) @n"
# command-line-args' option types are constructors (a function of the value in general).
DEFINITION_TYPES = frozenset({"Boolean", "String", "Number"})
_LITERALS = frozenset({"object", "array"})


class JsCliReader:
    """Reads the CLI of one file into its table (mixed into the file's table builder)."""

    source: bytes
    language: Any
    table: FileTable
    tree_root: Any = None  # the file's syntax tree (what :meth:`bindings` reads)

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    def cli(self, node: Any, nested: bool) -> None:
        """Commands and options anywhere in the file; ``nested`` once inside a command's
        builder (a subcommand, not a top-level command)."""
        if self.tree_root is None:
            self.tree_root = node
        found = captured(node, self.language, _CLI_QUERY)
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
            function = field_of(current, "function")
            if function is not None and function.type == "identifier" and self.is_meow(function):
                self.meow(current)
                return False
            return self.cli_call(current, inside)
        if kind == "object":
            return self.cli_object(current, inside)
        if kind == "new_expression":
            constructor = field_of(current, "constructor")
            arguments = field_of(current, "arguments")
            if (
                constructor is not None
                and self.text(constructor) in ("Command", "commander.Command")
                and arguments is not None
                and arguments.named_children
            ):
                name = string_value(self.source, arguments.named_children[0])
                if name:
                    self.add_command(name, inside, current)
            elif (
                constructor is not None
                and self.text(constructor) == "Option"
                and arguments is not None
                and arguments.named_children
            ):
                first = arguments.named_children[0]
                text = string_value(self.source, first)
                if text is None:
                    self.open_at(current, f"new Option({self.text(first)}): flags made at run time")
                self.add_flags(text)
        return False

    def open_at(self, node: Any, why: str, spec: str = "") -> None:
        """The file's parser takes flags it does not list, at ``node``, for ``why``."""
        self.table.open_flags.append([node.start_point[0] + 1, why, spec])

    def add_command(self, text: str, nested: bool, node: Any) -> None:
        words = text.split()
        if words:
            self.table.commands.append([words[0], nested, node.start_point[0] + 1])

    def add_flags(self, text: str | None) -> None:
        if text:
            for match in LONG_FLAG.finditer(text):
                self.add_option(match.group(1))

    def add_option(self, name: str) -> None:
        if name and name not in self.table.options:
            self.table.options.append(name)

    def cli_call(self, node: Any, inside: bool) -> bool:
        function = field_of(node, "function")
        arguments = field_of(node, "arguments")
        if function is None or function.type != "member_expression" or arguments is None:
            return False
        method = self.text(field_of(function, "property") or function)
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
            text = string_value(self.source, first)
            if text is None and first.type == "array" and "args" in self.table.cli_frameworks:
                self.names_of(first)  # args: `.option(["c", "colorize"], ...)`
                return False
            if text is None:
                if method in ("option", "requiredOption") and first.type != "object":
                    why = f".{method}({self.text(first)[:40]}): an option named at run time"
                    self.open_at(node, why)
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
        if method == "options" and first.type == "array" and "args" in self.table.cli_frameworks:
            for spec in first.named_children:  # args: `.options([{ name, description }])`
                given = self.pairs(spec).get("name")
                if given is not None and given.type == "array":
                    self.names_of(given)
                elif given is not None:
                    self.add_option(string_value(self.source, given) or "")
        elif method == "options" and first.type == "object":
            self.option_table(first)
        elif method == "options":
            self.spread(first, node)  # `.options(shared)`: a table from elsewhere
        elif method == "alias":
            for arg in args:
                value = string_value(self.source, arg)
                if value and len(value) > 1:
                    self.add_option(value)
                elif arg.type == "array":
                    for item in arg.named_children:
                        value = string_value(self.source, item)
                        if value and len(value) > 1:
                            self.add_option(value)
        elif method in ("boolean", "string", "number", "array", "count"):
            for arg in args:
                value = string_value(self.source, arg)
                if value:
                    self.add_option(value)
        return False

    def names_of(self, array: Any) -> None:
        """An option named by an array of its names (args: ``["c", "colorize"]``): the long
        ones are its flags; a name made at run time leaves the flag set open."""
        for item in array.named_children:
            value = string_value(self.source, item)
            if value is None:
                self.open_at(array, f"{self.text(array)[:40]}: an option named at run time")
            elif len(value) > 1:
                self.add_option(value)

    def command_names(self, node: Any) -> list[str]:
        value = string_value(self.source, node)
        if value is not None:
            return [value]
        if node.type == "array":
            return [v for v in (string_value(self.source, c) for c in node.named_children) if v]
        return []

    def cli_object(self, node: Any, inside: bool) -> bool:
        """A yargs CommandModule ``{ command: "x", builder: ... }``: a command; its
        builder's contents are nested."""
        pairs = {
            self.text(field_of(p, "key")).strip("'\""): field_of(p, "value")
            for p in node.named_children
            if p.type == "pair" and field_of(p, "key") is not None
        }
        option = pairs.get("option")
        name = string_value(self.source, option) if option is not None else None
        if name and "type" in pairs and "optionator" in self.table.cli_frameworks:
            # optionator: ``{ option: "cache-location", type: "path::String", ... }``; a
            # Boolean option is also taken negated (``--no-cache``), as optionator parses it.
            self.add_option(name)
            kind = pairs["type"]
            if kind is not None and string_value(self.source, kind) == "Boolean":
                self.add_option(f"no-{name}")
            self.aliases(node)
            return False
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
        if not names:
            # `command: name === "add" ? "add <pkg>" : name`: a command named at run time.
            self.table.commands.append([OPEN_COMMANDS, inside, node.start_point[0] + 1])
        builder = pairs.get("builder")
        if builder is not None and builder.type == "object":
            self.option_table(builder)
        return True

    def option_table(self, node: Any) -> None:
        """``{ name: { type, alias, describe }, ... }``: option names and long aliases."""
        for member in node.named_children:
            if member.type == "spread_element" and member.named_children:
                self.spread(member.named_children[0], member)
            if member.type == "pair":
                key = field_of(member, "key")
                value = field_of(member, "value")
                if key is None:
                    continue
                self.add_option(self.text(key).strip("'\"`"))
                if value is not None and value.type == "object":
                    self.aliases(value)
            elif member.type == "shorthand_property_identifier":
                self.add_option(self.text(member))

    def aliases(self, spec: Any) -> None:
        for pair in spec.named_children:
            if pair.type != "pair" or self.text(field_of(pair, "key")).strip("'\"") != "alias":
                continue
            value = field_of(pair, "value")
            items = value.named_children if value is not None and value.type == "array" else [value]
            for item in items:
                text = string_value(self.source, item)
                if text and len(text) > 1:
                    self.add_option(text)

    def option_specs(self, root: Any) -> None:
        """Objects whose values read as yargs option specs (``{ type, describe, alias }``),
        wherever they are (shared option tables spread into builders)."""
        found = captured(root, self.language, _PAIR_QUERY)
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
                value = field_of(current, "value")
                key = field_of(current, "key")
                if value is not None and key is not None and value.type == "object":
                    inner = {
                        self.text(field_of(p, "key")).strip("'\"")
                        for p in value.named_children
                        if p.type == "pair" and field_of(p, "key") is not None
                    }
                    if inner & OPTION_SPEC_KEYS and (
                        "type" in inner or "alias" in inner or inner & {"describe", "description"}
                    ):
                        self.add_option(self.text(key).strip("'\"`"))
                        self.aliases(value)

    # -------------------------------------------------------------- what closes a table
    def spread(self, value: Any, at: Any) -> None:
        """A table given as ``value`` (spread into one, or passed whole): the file lists
        its options when it writes it (a literal bound here, a parameter whose callers
        pass literals here, a member of a class written here); a module's value or a
        value made at run time leaves the flag set open (a product module's is closed
        again when that module's options are read, :func:`.model_js.read_js`)."""
        head = value
        while head.type in ("member_expression", "call_expression", "parenthesized_expression"):
            inner = field_of(head, "object") or field_of(head, "function")
            if inner is None:
                inner = head.named_children[0] if head.named_children else None
            if inner is None:
                break
            head = inner
        written = self.text(value)[:60]
        if head.type in ("this", "object", "array"):
            return
        if head.type != "identifier":
            self.open_at(at, f"a table made at run time ({written})")
            return
        name = self.text(head)
        imported = self.table.imports.get(name)
        if name in ("require", "import") and value.type == "call_expression":
            arguments = field_of(value, "arguments")
            first = arguments.named_children[0] if arguments is not None else None
            spec = string_value(self.source, first) if first is not None else None
            imported = [spec, "*"] if spec else None
        if imported is not None:
            spec = imported[0] if imported[0].startswith(".") else ""
            self.open_at(at, f"a table from another module ({written}, from {imported[0]})", spec)
            return
        bound = self.bindings().get(name)
        if bound is not None and bound not in _LITERALS and value is head:
            self.open_at(at, f"a table made at run time ({written})")

    def bindings(self) -> dict[str, str]:
        """Variable -> the node type of the value it is declared with, anywhere in the file
        (the last declaration of a name; parameters are not bindings)."""
        known: dict[str, str] | None = getattr(self, "_bindings", None)
        if known is not None:
            return known
        known = {}
        root = self.tree_root
        found = captured(root, self.language, _DECLARATOR_QUERY) if root is not None else None
        for node in found or []:
            name, value = field_of(node, "name"), field_of(node, "value")
            if name is not None and name.type == "identifier" and value is not None:
                inner = value
                while (
                    inner.type
                    in ("as_expression", "satisfies_expression", "parenthesized_expression")
                    and inner.named_children
                ):
                    inner = inner.named_children[0]
                known[self.text(name)] = inner.type
        self._bindings = known
        return known

    # -------------------------------------------------------------- meow
    def is_meow(self, function: Any) -> bool:
        """Whether ``function`` (an identifier) is meow, as the file imports it."""
        name = self.text(function)
        imported = self.table.imports.get(name)
        return imported is not None and imported[0] == "meow"

    def meow(self, node: Any) -> None:
        """``meow(help, options)`` / ``meow(options)``: the flags of ``options.flags`` (a
        boolean one negated too, as meow's parser takes ``--no-x``); without a flag spec
        (meow 3: minimist options), the names of its ``alias``, ``boolean``, ``string``
        and ``default`` and an open flag set."""
        arguments = field_of(node, "arguments")
        args = list(arguments.named_children) if arguments is not None else []
        options = next((a for a in args if a.type == "object"), None)
        pairs = self.pairs(options) if options is not None else {}
        flags = pairs.get("flags")
        shorthand = [
            m
            for m in (options.named_children if options is not None else [])
            if m.type == "shorthand_property_identifier" and self.text(m) == "flags"
        ]
        if flags is None and shorthand:
            self.open_at(node, "meow's flags are a table written elsewhere (`{ flags }`)")
            return
        if flags is None:
            for key in ("alias", "boolean", "string", "default"):
                value = pairs.get(key)
                for name in self.written_names(value, key == "alias") if value else []:
                    if len(name) > 1:
                        self.add_option(name)
            self.open_at(
                node,
                "meow without a flag spec (meow 3 hands its options to minimist, which takes"
                " any flag)",
            )
            return
        if flags.type != "object":
            self.spread(flags, node)
            return
        for member in flags.named_children:
            if member.type == "spread_element" and member.named_children:
                self.spread(member.named_children[0], member)
                continue
            if member.type != "pair" or field_of(member, "key") is None:
                continue
            name = self.text(field_of(member, "key")).strip("'\"`")
            self.add_option(name)
            spec = self.pairs(field_of(member, "value"))
            kind = spec.get("type")
            if kind is not None and string_value(self.source, kind) == "boolean":
                self.add_option(f"no-{name}")
            for key in ("alias", "aliases"):
                value = spec.get(key)
                items = (
                    value.named_children if value is not None and value.type == "array" else [value]
                )
                for item in items:
                    text = string_value(self.source, item)
                    if text and len(text) > 1:
                        self.add_option(text)

    def written_names(self, value: Any, values: bool) -> list[str]:
        """The keys of an object (and its string values too, ``values``), the strings of
        an array, or a string."""
        if value.type == "object":
            pairs = [p for p in value.named_children if p.type == "pair"]
            names = [self.text(field_of(p, "key")).strip("'\"`") for p in pairs]
            if values:
                names += [string_value(self.source, field_of(p, "value")) or "" for p in pairs]
            return names
        items = value.named_children if value.type == "array" else [value]
        return [string_value(self.source, item) or "" for item in items]

    def pairs(self, node: Any) -> dict[str, Any]:
        """An object literal's ``key: value`` pairs (no object: none)."""
        if node is None or node.type != "object":
            return {}
        return {
            self.text(field_of(p, "key")).strip("'\"`"): field_of(p, "value")
            for p in node.named_children
            if p.type == "pair" and field_of(p, "key") is not None
        }

    # -------------------------------------------------------------- command-line-args
    def definitions(self, root: Any) -> bool:
        """command-line-args option definitions anywhere in the file: arrays of objects
        each with a ``name`` string and a ``type``, one type at least a constructor
        (``Boolean``, ``String``, ``Number``); their names and long aliases are options.
        The definitions a ``commandLineArgs(definitions)`` call (the library's name for
        its function) parses by are a table given whole (:meth:`spread`). True when the
        file has definitions or parses by some."""
        if self.tree_root is None:
            self.tree_root = root
        found = captured(root, self.language, _DEFINITIONS_QUERY)
        if found is None:
            found, stack = [], [root]
            while stack:
                current = stack.pop()
                if current.type in ("array", "call_expression"):
                    found.append(current)
                stack.extend(current.named_children)
        any_found = False
        for array in found:
            if array.type == "call_expression":
                any_found = self.parses_by(array) or any_found
                continue
            elements = list(array.named_children)
            objects = [self.pairs(e) for e in elements if e.type == "object"]
            shaped = all(e.type in ("object", "spread_element", "comment") for e in elements)
            if not objects or not shaped:
                continue
            named = all(string_value(self.source, o.get("name")) and "type" in o for o in objects)
            typed = any(self._constructor(o["type"]) for o in objects if "type" in o)
            if not named or not typed:
                continue
            any_found = True
            for element in elements:
                if element.type == "spread_element" and element.named_children:
                    self.spread(element.named_children[0], element)
            for spec in objects:
                self.add_option(string_value(self.source, spec["name"]) or "")
                alias = string_value(self.source, spec.get("alias"))
                if alias and len(alias) > 1:
                    self.add_option(alias)
        return any_found

    def parses_by(self, call: Any) -> bool:
        """``commandLineArgs(defs, ...)`` (or a method of that name): ``defs`` is a table
        given whole. True when the call is one."""
        function = field_of(call, "function")
        name = self.text(field_of(function, "property") or function) if function else ""
        arguments = field_of(call, "arguments")
        if name != "commandLineArgs" or arguments is None or not arguments.named_children:
            return False
        first = arguments.named_children[0]
        if first.type != "array":  # an array written here is read as definitions
            self.spread(first, call)
        return True

    def _constructor(self, node: Any) -> bool:
        if node is None:
            return False
        if node.type == "array":
            return any(self._constructor(c) for c in node.named_children)
        return node.type == "identifier" and self.text(node) in DEFINITION_TYPES
