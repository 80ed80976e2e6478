"""Help-output listings on a page, and their flags and commands judged against the
product's parser in the API model (gate 15).

A page often shows what a program's ``--help`` prints, in a fence (text, console, no
language, a shell fence after its command) or an indented block::

    Usage: webpack-cli [options]
    Options:
      -c, --config <value...>   Provide path to a webpack configuration file.
    Commands:
      init|create|new [options]  Initialize a new webpack project.

A block is such a listing when its text has that shape (:func:`read_listing`): a
``Usage: <prog>`` line or a section header (``Options:``, ``Global options:``,
``Commands:``) with entries under it, option entries grouped under headers of their own
(``Basic configuration:``), or, with no header, lines that are all option entries
(``-f, --force   description``, descriptions wrapped deeper) or all command entries
(``name|alias [args]   description``).

Whose listing it is (:func:`listing_program`): the program its usage line runs, else the
command line the block prompts (``$ tidy clean --help``), else the page's command line
nearest above it (for a block of command entries with no header, only one that asks for
help). Each listed long flag is then judged as gate 2 judges a flag the page gives the
product's command (:func:`~pytest_postgates.helpers.command_lines.judge_on_lines`), and
each listed command against the parser's commands (:func:`judge_listing`). A listing of
another program (``npm --help``), of a product whose parser the model did not read, or
whose parser makes commands or options at run time (the model's tables are then not the
whole CLI) is listed unjudged with the reason: never grounded, never a finding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.helpers.command_lines import (
    OPEN,
    PROMPT,
    CommandLine,
    judge_on_lines,
    read_command_line,
    split_commands,
)
from pytest_postgates.helpers.model_grounding import ModelDecision

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.helpers.sample_checks import SampleReport

# The languages of a fence that may hold what a program prints (an untagged one too).
LISTING_LANGS = frozenset(
    {"", "text", "txt", "plain", "plaintext", "console", "output", "none", "shell-session",
     "terminal", "bash", "sh", "shell", "zsh", "help"}
)  # fmt: skip
_USAGE = re.compile(r"^\s*usage:\s+(\S.*)$", re.IGNORECASE)
_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z -]{0,40}):\s*$")
_PROMPTED = re.compile(r"^\s*(?:\$|>|%)\s+\S")
# An entry's term is its text up to the first run of two spaces (its description after).
_COLUMNS = re.compile(r"\s{2,}|\t")
_LONG = re.compile(r"(?<![\w-])--(?:\[no-\])?([A-Za-z0-9][\w.-]*)")
_PLACEHOLDER = re.compile(r"<[^<>]*>|\[(?!no-\])[^\[\]]*\]|\{[^{}]*\}")
_NAMES = re.compile(r"[a-z][\w:-]*(?:\s*[|,]\s*[a-z][\w:-]*)*")
_ARGUMENT = re.compile(r"[\[<][^\s]*[\]>]|\.\.\.|[A-Z][A-Z0-9_-]*(?:\.\.\.)?")
# Commander adds a `help` command to a program that has commands.
_DERIVED_COMMANDS = {"commander": ("help",)}


@dataclass(frozen=True)
class Entry:
    """One listed flag (``kind`` ``flag``: a long option, ``--config``) or command
    (``command``: its name, with the aliases the line gives), at its line of the page."""

    line: int
    kind: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Listing:
    """A help listing: where it starts, its usage line's words after ``usage:`` and the
    words of a command line the block prompts (each with its line), its entries, and
    whether a usage line or a header opens it (else its entries alone gave its shape);
    ``head``, its first line as written."""

    line: int
    entries: tuple[Entry, ...]
    usage: tuple[tuple[str, ...], int] | None = None
    prompted: tuple[tuple[str, ...], int] | None = None
    headed: bool = True
    head: str = ""


def read_listings(text: str, first: int) -> list[Listing]:
    """The help listings of one block (its first line is page line ``first``): one per
    command line it prompts (``$ tool --help``, then ``$ tool serve --help``) and per usage
    line that follows entries, each read by :func:`read_listing`."""
    lines = text.splitlines()
    starts = [0]
    seen = False  # an entry-like line since the last start
    for at, line in enumerate(lines):
        if at and (_PROMPTED.match(line) or (seen and _USAGE.match(line))):
            starts.append(at)
            seen = False
        seen = seen or line.lstrip().startswith("-")
    ends = [*starts[1:], len(lines)]
    found = (
        read_listing("\n".join(lines[a:b]), first + a) for a, b in zip(starts, ends, strict=True)
    )
    return [listing for listing in found if listing is not None]


def read_listing(text: str, first: int) -> Listing | None:
    """The help listing ``text`` holds (its first line is page line ``first``), or None
    when its text does not have the shape of one."""
    usage: tuple[tuple[str, ...], int] | None = None
    prompted: tuple[tuple[str, ...], int] | None = None
    section: str | None = None
    headed = False
    entries: list[Entry] = []
    indents: list[int] = []
    stray: list[int] = []  # indentation of lines that are neither entries nor headers
    grouped = False  # a header of any name (`Basic configuration:`)
    # The program's words that yargs writes before each command it lists (`tool serve
    # [port]`): its usage line's, or a bare one's (`tool <command>`) opening the block.
    program: tuple[str, ...] = ()
    for offset, raw in enumerate(text.splitlines()):
        line = raw.rstrip()
        if not line.strip():
            continue
        at = first + offset
        indent = len(line) - len(line.lstrip())
        usage_line = _USAGE.match(line)
        if usage_line is not None:
            if usage is None:
                usage = (tuple(_words(usage_line.group(1))), at)
                program = _program_words(usage[0])
            headed, section = True, None
            continue
        if not entries and not program and indent == 0 and not _HEADER.match(line):
            program = _program_words(tuple(line.split()))
        if _PROMPTED.match(line):
            if prompted is None and not entries:
                words = next(split_commands(PROMPT.sub("", line, count=1)), [])
                prompted = (tuple(words), at) if words else None
            continue
        header = _HEADER.match(line)
        if header is not None:
            section = _section(header.group(1))
            headed = headed or section in ("flag", "command")
            grouped = True
            continue
        found = _entry(
            _unprefixed(line, program) if section == "command" else line, at, section, headed
        )
        if found:
            entries.extend(found)
            indents.append(indent)
        else:
            stray.append(indent)
    if not entries:
        return None
    kinds = {e.kind for e in entries}
    grouped = grouped and kinds == {"flag"} and len(indents) >= 2
    # No usage line, no header of options or commands, no options grouped under headers of
    # their own: only entries, and wrapped descriptions deeper than them.
    bare = len(indents) >= 2 and len(kinds) == 1 and all(s > min(indents) for s in stray)
    if not (headed or grouped or bare):
        return None
    head = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return Listing(first, tuple(entries), usage, prompted, headed, head)


def _program_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The literal words a usage line opens with (the program and its command path), when
    a placeholder follows them (``tool remote <command>``); else none."""
    literal = [w for w in words[: next((i for i, w in enumerate(words) if w[:1] in "<[-"), 0)]]
    return tuple(literal) if literal and len(literal) < len(words) else ()


def _unprefixed(line: str, program: tuple[str, ...]) -> str:
    """A command entry without the program's words yargs writes before it."""
    words = line.split()
    if program and len(words) > len(program) and tuple(words[: len(program)]) == program:
        indent = line[: len(line) - len(line.lstrip())]
        return indent + line.lstrip()[len(" ".join(program)) :].lstrip()
    return line


def _section(title: str) -> str:
    lower = title.lower()
    if "command" in lower:
        return "command"
    if "option" in lower or "flag" in lower:
        return "flag"  # `Options:`, `Global options:`, argparse's `optional arguments:`
    return "other"


def _entry(line: str, at: int, section: str | None, headed: bool) -> list[Entry]:
    """The entries one line lists: its long flags (an option's line) or its command."""
    body = line.strip()
    term, *rest = _COLUMNS.split(body, maxsplit=1)
    if term.startswith("-") and section != "command":
        # An option's line under any header but the commands' (help groups its options
        # under names of its own: `Basic configuration:`, `Caching:`).
        if not headed and not rest:
            return []  # with no header, an option's line has its description beside it
        bare = _PLACEHOLDER.sub(" ", term)
        names = list(dict.fromkeys(f"--{m.group(1)}" for m in _LONG.finditer(bare)))
        return [Entry(at, "flag", name, tuple(n for n in names if n != name)) for name in names]
    if section == "command" or (section is None and not headed and rest):
        # The names (`init|new`, `init, new`), then only placeholders of arguments.
        head, *arguments = re.sub(r"\s*([|,])\s*", r"\1", term).split()
        if not _NAMES.fullmatch(head) or not all(_ARGUMENT.fullmatch(w) for w in arguments):
            return []
        names = [n for n in re.split(r"[|,]", head) if n]
        return [Entry(at, "command", names[0], tuple(names[1:]))]
    return []


def _words(text: str) -> list[str]:
    return next(split_commands(text), [])


def listing_program(
    listing: Listing, lines: Sequence[CommandLine], model: ApiModel, package: str
) -> CommandLine | None:
    """The command line whose help the listing shows: its usage line's, the one its block
    prompts, or the page's nearest above it (``lines``, the page's command lines); None
    when none names one (a block of command entries with no header takes only a command
    line that asks for help)."""
    found: CommandLine | None = None
    for given in (listing.usage, listing.prompted):
        if found is None and given is not None and given[0]:
            found = read_command_line(list(given[0]), given[1], model, package)
    if found is None:
        above = [line for line in lines if line.line < listing.line]
        found = max(above, key=lambda line: line.line) if above else None
    if found is not None and not listing.headed and listing.entries[0].kind == "command":
        # Lines of names and descriptions alone are a listing of commands only after a
        # command line that asks for help (else a table of packages, files, versions).
        asks = "help" in found.flags or "-h" in found.flags or found.command == "help"
        return found if asks else None
    return found


def judge_listing(
    listing: Listing, program: CommandLine | None, model: ApiModel
) -> tuple[list[tuple[Entry, ModelDecision]], str | None]:
    """Each entry's decision, or (no decisions, the reason) when the listing is not
    judged: its program is not named, is another program than the product's, or is the
    product's but its parser is not (wholly) in the model."""
    if program is None:
        return [], NO_PROGRAM
    why = _not_judged(program, model)
    # A table of commands the model reads whole is judged though the flag set is open.
    commands_why = _not_judged(program, model, "command")
    listed = any(entry.kind == "command" for entry in listing.entries)
    if why is not None and (commands_why is not None or program.command or not listed):
        return [], why
    decisions: list[tuple[Entry, ModelDecision]] = []
    for entry in listing.entries:
        if entry.kind == "flag" and why is not None:
            decisions.append((entry, ModelDecision("unjudged", "model-listing", reason=why)))
        elif entry.kind == "flag":
            decided = judge_on_lines(entry.name, [program], model)
            if decided.outcome == "ungrounded":
                decided = ModelDecision(
                    decided.outcome, "model-listing", reason=f"listed in its help: {decided.reason}"
                )
            decisions.append((entry, decided))
        else:
            decisions.append((entry, _judge_command(entry, model)))
    return decisions, None


NO_PROGRAM = (
    "a help listing whose program the page does not name (no usage line, no command line above it)"
)


def _not_judged(program: CommandLine, model: ApiModel, kind: str = "") -> str | None:
    """Why a listing of ``program``'s help is not judged (None: it is); of its commands
    alone (``kind`` ``command``), the flag set may be open."""
    name = f"the help of `{program.program}`"
    if not program.product:
        return f"{name} (line {program.line}): another program's flags and commands"
    if not model.cli.present:
        return f"{name}: the model read no parser of the product's command line"
    made = model.cli.partly_read if kind != "command" else model.cli.open_command
    if made is not None or program.command == OPEN:
        return (
            f"{name}: the model reads the product's parser only in part "
            f"({made or 'a command it makes at run time'}): its tables are not the whole "
            "command line"
        )
    return None


def _judge_command(entry: Entry, model: ApiModel) -> ModelDecision:
    commands = model.commands
    if not commands:
        return ModelDecision(
            "unjudged",
            "model-listing",
            reason="the product's parser declares no commands the model reads",
        )
    for name in (entry.name, *entry.aliases):
        if name in commands:
            return ModelDecision("grounded", "model-listing", where=commands[name])
    for framework in model.facts.cli_frameworks:
        if entry.name in _DERIVED_COMMANDS.get(framework, ()):
            return ModelDecision("grounded", "model-listing", where=f"{framework} adds it")
    near = model.nearest(entry.name, list(commands))
    hint = f"; did you mean {' or '.join(f'`{n}`' for n in near[:3])}?" if near else ""
    return ModelDecision(
        "ungrounded",
        "model-listing",
        reason=f"listed in its help: the product's command line declares no command "
        f"`{entry.name}`{hint}",
    )


def report_listing(
    report: SampleReport,
    listing: Listing,
    lines: Sequence[CommandLine],
    model: ApiModel,
    package: str,
) -> None:
    """Gate 15's record of one listing: each judged entry counted (and a miss reported as
    an unknown flag or command), what is not judged listed with the reason."""
    program = listing_program(listing, lines, model, package)
    if program is None and not listing.headed and listing.entries[0].kind == "command":
        return  # names and descriptions, not shown as any program's help: no listing
    decisions, why = judge_listing(listing, program, model)
    if why is not None:
        report.skip(listing.line, listing.head, f"{why} ({len(listing.entries)} listed)")
        for entry in listing.entries:  # each listed flag and command, by its name
            report.skip(entry.line, entry.name, why)
        return
    for entry, decided in decisions:
        if decided.outcome == "unjudged":
            report.skip(entry.line, entry.name, decided.reason)
            continue
        report.count(entry.kind, entry.line, entry.name)
        if decided.outcome == "ungrounded":
            kind = "cli_flag" if entry.kind == "flag" else "cli_command"
            where = "the API model's command line"
            report.violation(entry.line, kind, entry.name, where, decided.reason, [])
