"""The command line a JavaScript/TypeScript file declares, read from its syntax tree for
the file's table (:mod:`.tables_js`): yargs and commander commands and options, option
tables (``{ name: { type, describe } }``) and optionator's option lists
(``{ option: "name", type }``)."""

from __future__ import annotations

from typing import Any

from pytest_postgates.evidence.file_table import (
    LONG_FLAG,
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


class JsCliReader:
    """Reads the CLI of one file into its table (mixed into the file's table builder)."""

    source: bytes
    language: Any
    table: FileTable

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    def cli(self, node: Any, nested: bool) -> None:
        """Commands and options anywhere in the file; ``nested`` once inside a command's
        builder (a subcommand, not a top-level command)."""
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
                self.add_flags(string_value(self.source, arguments.named_children[0]))
        return False

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
        builder = pairs.get("builder")
        if builder is not None and builder.type == "object":
            self.option_table(builder)
        return bool(names)

    def option_table(self, node: Any) -> None:
        """``{ name: { type, alias, describe }, ... }``: option names and long aliases."""
        for member in node.named_children:
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
