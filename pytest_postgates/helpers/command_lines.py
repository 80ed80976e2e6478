"""The shell command lines a page runs, and whose flags they carry (gates 2 and 15).

A flag belongs to the command it follows: ``uv init --bare`` gives ``--bare`` to uv, and
``typer main.py utils docs --name x`` gives ``--name`` to the product's ``utils docs``. A
page's command lines are the lines of its shell fences (in a fence with prompts, the
prompted lines; an output line's flags are the command's above it) and its code spans
that read as a command (``ls -sh``, ``pip install --upgrade typer``). A line runs the
product when its program is one of the product's executables (console scripts,
package.json ``bin``, through a runner such as ``npx`` or ``uv run``) or ``python -m`` of
a product package with a ``__main__``.

Gate 2 judges a flag the page's lines carry by the line: after the product's command,
against that command's flags in the API model (``model-command``); after other programs
only, another tool's, listed unjudged (``other-command``). A code span that runs the
product's command is judged flag by flag the same way (:func:`judge_command_span`).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.evidence.cli_model import HOST_PREFIX, SCRIPT_PREFIX
from pytest_postgates.evidence.model_facts import normal_flag
from pytest_postgates.helpers.code_fences import fence_kind, shows_output
from pytest_postgates.helpers.model_grounding import (
    ModelDecision,
    judge_flag,
    open_flag_decision,
)

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.post import Post

# Programs that run another program's package or executable (the next word names it).
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
# Programs that run a command of the project's environment (`uv run pytest`).
ENVIRONMENT_RUNNERS = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("pipenv", "run"),
)
# Package managers that run a bin of the project by its name (`pnpm vitest`).
BIN_RUNNERS = frozenset({"pnpm", "yarn", "bun"})
# A prompt before a command (stripped): `$`, `%`, U+276F, `>`, `#`, after a virtual
# environment's name (`(venv) $`) or as `user@host:~$`.
PROMPT = re.compile(
    r"^\s*(?:\([^()\s]+\)\s+)?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#]|[$>%#\u276f])\s+"
)
ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
STOP = frozenset({"&&", "||", ";", "|", "&", ">", ">>", "2>", "<", "2>&1", "\\"})
_WRAPPERS = frozenset({"sudo", "time", "env", "nohup", "exec", "command"})
_PYTHON = re.compile(r"python(?:3(?:\.\d+)?)?|py")
_LONG = re.compile(r"--[A-Za-z0-9][\w.-]*")
_SHORT = re.compile(r"-[A-Za-z]{1,3}")
_PROGRAM = re.compile(r"[A-Za-z_.~/][\w.@/+-]*")
_DOLLAR_PROMPT = re.compile(r"^\s*\$\s")
# A session's prompt (`$`, `%`, U+276F, `(venv) $`, `user@host:~$`): a fence with one shows a
# terminal session, whose lines without one are output. (`>` and `#` are not: a `>` line
# is as often npm's output, a `#` one a comment.)
_SESSION_PROMPT = re.compile(
    r"^\s*(?:\([^()\s]+\)\s+)?(?:[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#]|[$%\u276f])\s"
)
# The command of a line whose product CLI makes commands at run time (not in the table).
OPEN = "\0open"


def shell_commands(content: str, output: bool = False) -> Iterator[tuple[int, str, list[str]]]:
    """(line offset, text, words) of each simple command, continuation lines joined; in a
    fence with a session's prompts (``$``, ``%``, U+276F, ``(venv) $``), or one whose info
    string says it shows output (``output``), of the prompted lines only (the others are
    output)."""
    prompted = output or session(content)
    for start, joined in _joined_lines(content):
        if prompted and not _SESSION_PROMPT.match(joined):
            continue
        text = PROMPT.sub("", joined, count=1)
        yield from ((start, text, words) for words in split_commands(text))


def session(content: str) -> bool:
    """Whether a fence shows a terminal session: a line of it starts with a session's
    prompt (then its lines without one are the commands' output)."""
    return any(_SESSION_PROMPT.match(line) for line in content.splitlines())


def _joined_lines(content: str) -> Iterator[tuple[int, str]]:
    """(line offset, text) of each line, a line ending in a backslash joined to the next."""
    lines = content.splitlines()
    index = 0
    while index < len(lines):
        start = index
        text = lines[index]
        while text.rstrip().endswith("\\") and index + 1 < len(lines):
            index += 1
            text = text.rstrip()[:-1] + " " + lines[index]
        index += 1
        yield start, text


def split_commands(text: str) -> Iterator[list[str]]:
    """The simple commands of one shell line (split at ``&&``, ``|``, ``;`` ...)."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    segment: list[str] = []
    for word in [*words, ";"]:
        if word in STOP:
            if segment:
                yield segment
            segment = []
        else:
            segment.append(word)


@dataclass(frozen=True)
class CommandLine:
    """One simple command of the page: its line, the program as the page runs it, whether
    that is the product's, the product's command it runs (``""``: the root, :data:`OPEN`:
    one made at run time) and the flags it carries (long ones normalised, short as written)."""

    line: int
    program: str
    product: bool
    command: str
    flags: frozenset[str]


def page_command_lines(post: Post, model: ApiModel, package: str) -> list[CommandLine]:
    """Every command line of ``post``: its shell fences' and its command-like code spans'."""
    found: list[CommandLine] = []
    for fence in post.fences:
        if fence_kind(fence) != "shell" and not _DOLLAR_PROMPT.search(fence.content):
            continue
        prompted = shows_output(fence) or session(fence.content)
        first = fence.start_line + 1
        last: CommandLine | None = None
        for offset, text in _joined_lines(fence.content):
            if prompted and not _SESSION_PROMPT.match(text):
                if last is not None and _LONG.search(text):  # the command's output
                    flags = frozenset(normal_flag(m) for m in _LONG.findall(text))
                    found.append(_with_flags(last, first + offset, flags))
                continue
            for words in split_commands(PROMPT.sub("", text, count=1)):
                last = _command_line(words, first + offset, model, package)
                if last is not None:
                    found.append(last)
    for span in post.prose_code_spans:
        text = PROMPT.sub("", span.text.strip(), count=1)
        if " " in text and not text.startswith("-"):
            for words in split_commands(text):
                line = _command_line(words, span.line, model, package)
                if line is not None and line.flags:
                    found.append(line)
    return found


def read_command_line(
    words: list[str], line: int, model: ApiModel, package: str
) -> CommandLine | None:
    """The command line ``words`` make (a help listing's usage line, say), or None when
    they name no program."""
    return _command_line(words, line, model, package)


def judge_on_lines(option: str, ours: Sequence[CommandLine], model: ApiModel) -> ModelDecision:
    """A long flag given to the product's command lines ``ours``, judged against the
    flags of the commands they run (gate 15 judges a help listing's flags so)."""
    return _judge_on_lines(option, ours, model)


def _with_flags(line: CommandLine, at: int, flags: frozenset[str]) -> CommandLine:
    return CommandLine(at, line.program, line.product, line.command, flags)


def _command_line(words: list[str], line: int, model: ApiModel, package: str) -> CommandLine | None:
    while words and (ENV.match(words[0]) or words[0] in _WRAPPERS):
        words = words[1:]
    if not words or not _PROGRAM.fullmatch(words[0]):
        return None
    program, product, args = _program(words, model, package)
    if "--" in args:
        args = args[: args.index("--")]  # what follows is passed on, not the program's
    flags = frozenset(
        normal_flag(w.split("=", 1)[0]) if w.startswith("--") else w
        for w in args
        if _LONG.match(w) or _SHORT.fullmatch(w)
    )
    command = _command_of(args, model) if product else ""
    return CommandLine(line, program, product, command, flags)


def _program(words: list[str], model: ApiModel, package: str) -> tuple[str, bool, list[str]]:
    """(program as run, whether it is the product's, its arguments)."""
    facts = model.facts
    head = words[0]
    if _PYTHON.fullmatch(head):
        if len(words) >= 3 and words[1] == "-m":
            module = words[2]
            product = module.split(".")[0] in facts.main_modules or module in facts.main_modules
            product = product or facts.executables.get(module, "").startswith(HOST_PREFIX)
            return f"{head} -m {module}", product, words[3:]
        if len(words) >= 2 and not words[1].startswith("-"):
            return f"{head} {words[1]}", False, words[2:]
        return head, False, words[1:]
    script = _script(words)
    if script is not None:
        # `npm run cli`, `pnpm cli`: a package script, the product's when it runs its bin.
        product = f"{SCRIPT_PREFIX}{script[0]}" in facts.executables
        return " ".join(words[: len(words) - len(script[1])]), product, script[1]
    for runner in (*RUNNERS, *ENVIRONMENT_RUNNERS):
        if tuple(words[: len(runner)]) == runner:
            rest = words[len(runner) :]
            while rest and rest[0].startswith("-"):
                rest = rest[1:]  # npx -y / --yes / --package=...
            if not rest:
                return " ".join(runner), False, []
            if runner in ENVIRONMENT_RUNNERS:
                return _program(rest, model, package)
            name = rest[0]
            bare = name[: name.index("@", 1)] if name.find("@", 1) > 0 else name
            product = bare == package or bare in facts.executables
            return f"{' '.join(runner)} {name}", product, rest[1:]
    if (
        head in BIN_RUNNERS
        and len(words) > 1
        and (words[1] in facts.executables or f"{SCRIPT_PREFIX}{words[1]}" in facts.executables)
    ):
        return f"{head} {words[1]}", True, words[2:]
    name = head.rsplit("/", 1)[-1]  # ./node_modules/.bin/vitest
    return head, name in facts.executables, words[1:]


def _script(words: list[str]) -> tuple[str, list[str]] | None:
    """(package script, its arguments) when ``words`` run one (``npm run cli x``,
    ``pnpm run cli x``, ``yarn cli x``); None otherwise."""
    if words[0] not in ("npm", "pnpm", "yarn", "bun") or len(words) < 2:
        return None
    if words[1] in ("run", "run-script") and len(words) >= 3:
        return words[2], words[3:]
    return None


def _command_of(args: Sequence[str], model: ApiModel) -> str:
    """The product's command a line runs: the deepest of the commands its first arguments
    name (``utils docs``); none named, the root, or a command the CLI makes at run time
    when the CLI makes some and the line names one it does not table."""
    positional = [a for a in args if not a.startswith("-")]
    for at, word in enumerate(positional):
        if word in model.commands:
            # The deepest command the words name: `utils docs` runs docs, not utils.
            while at + 1 < len(positional) and positional[at + 1] in model.commands:
                at += 1
            return positional[at]
    return OPEN if positional and model.cli.open else ""


def judge_flag_on_page(
    token: str, lines: Sequence[CommandLine], model: ApiModel
) -> ModelDecision | None:
    """A flag token by the command lines of the page that carry it (None: none does)."""
    option = re.split(r"[= ]", token.strip(), maxsplit=1)[0]
    key = normal_flag(option) if option.startswith("--") else option
    carrying = [line for line in lines if key in line.flags]
    if not carrying:
        return None
    ours = [line for line in carrying if line.product]
    if not ours:
        first = carrying[0]
        return ModelDecision(
            "unjudged",
            "other-command",
            reason=f"a flag of `{first.program}`, run on line {first.line}: another program "
            "than the product's command line",
        )
    if not option.startswith("--") or not model.cli.present:
        return None  # the model reads long options of a CLI it found
    return _judge_on_lines(option, ours, model)


def judge_command_span(text: str, line: int, model: ApiModel, package: str) -> ModelDecision | None:
    """A code span that runs the product's executable (``vitest --ui``, ``typer main.py
    utils docs --name x``): each long flag it gives the product's command is judged against
    that command's flags (None: it runs no product command, or gives it no long flag)."""
    if not model.cli.present or not _PROGRAM.match(text.strip()):
        return None
    decisions: list[ModelDecision] = []
    for words in split_commands(PROMPT.sub("", text.strip(), count=1)):
        found = _command_line(words, line, model, package)
        if found is None or not found.product:
            continue
        for word in words:
            if word.startswith("--") and len(word) > 2:
                option = word.split("=", 1)[0]
                decisions.append(_judge_on_lines(option, [found], model))
    if not decisions:
        return None
    # The first flag that is not the command's decides; all of them taken, the span grounds.
    return next((d for d in decisions if d.outcome != "grounded"), decisions[0])


def _judge_on_lines(option: str, ours: Sequence[CommandLine], model: ApiModel) -> ModelDecision:
    """A long flag the product's command lines ``ours`` carry, against their commands."""
    key = normal_flag(option)
    cli = model.cli
    hosted = [line for line in ours if _hosts(line, model)]
    if hosted and len(hosted) == len(ours) and cli.flag(option) is None:
        # The product is a plugin of the program (pytest): a flag it does not declare is
        # the host's or another plugin's, unless it is a near miss of the product's own.
        # A near miss is the product's only in the product's own namespace of flags (its
        # first word: `--postgates-al`); the host's (`--snapshot-update`) stays theirs.
        miss = judge_flag(option, model)
        ours_first = {flag.split("-", 1)[0] for flag in model.facts.flags}
        if miss is not None and miss.outcome == "ungrounded" and key.split("-", 1)[0] in ours_first:
            return miss  # model-cli: a near miss of the product's own flag
        return ModelDecision(
            "unjudged",
            "other-command",
            reason=f"a flag of `{hosted[0].program}`, run on line {hosted[0].line}, of "
            "which the product is a plugin: the host's or another plugin's",
        )
    for line in ours:
        accepted = cli.accepts(line.command, option) if line.command not in ("", OPEN) else None
        where = cli.flag(option)
        if accepted or (accepted is None and line.command != OPEN and where is not None):
            return ModelDecision("grounded", "model-command", where=where or "")
    if any(line.command == OPEN for line in ours):
        return ModelDecision(
            "unjudged",
            "model-command",
            reason=f"`{ours[0].program}` runs a command its CLI makes at run time: its "
            "flags are not in the model",
        )
    if cli.open_flags is not None:
        return open_flag_decision(option, model, "model-command")
    line = ours[0]
    known = (
        cli.flags_of(line.command)
        if line.command
        else sorted({*model.facts.flags, *model.facts.derived_flags})
    )
    near = [f"--{name}" for name in model.nearest(normal_flag(option), known)]
    what = f"`{line.program} {line.command}`" if line.command else f"`{line.program}`"
    hint = f"; did you mean {' or '.join(f'`{n}`' for n in near[:3])}?" if near else ""
    takers = [c for c, flags in model.facts.command_flags.items() if c and key in flags]
    if takers and line.command:
        hint += f" (the command{'s' if len(takers) > 1 else ''} {', '.join(sorted(takers)[:3])} "
        hint += "take it)" if len(takers) > 1 else "takes it)"
    return ModelDecision(
        "ungrounded",
        "model-command",
        reason=f"{what}, run on line {line.line}, takes no {option}{hint}",
    )


def _hosts(line: CommandLine, model: ApiModel) -> bool:
    """Whether the line runs a program the product is a plugin of (pytest)."""
    name = line.program.rsplit(" ", 1)[-1].rsplit("/", 1)[-1]
    return model.facts.executables.get(name, "").startswith(HOST_PREFIX)


def product_invocation(
    words: list[str], package: str, bins: dict[str, str], python_top: str | None = None
) -> tuple[str, list[str]] | None:
    """(bin name, arguments) when ``words`` run the product's CLI."""
    while words and (ENV.match(words[0]) or words[0] in ("sudo", "time", "env")):
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
