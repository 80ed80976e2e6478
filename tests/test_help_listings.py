"""Help-output listings on a page (helpers/help_listings.py): read from fences and indented
blocks by their shape, given to the program their usage line or the command line above
them runs, and each listed flag and command judged by gate 15 against the product's
parser in the API model; another program's listing, or one of a parser the model reads
only partly, is listed unjudged."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.helpers.help_listings import Entry, read_listing, read_listings

# ---------------------------------------------------------------------- the reader

WEBPACK_STYLE = """Usage: tool [entries...] [options]
Alternative usage to run commands: tool [command] [options]

The build tool.

Options:
  -c, --config <pathToConfigFile...>      Provide path to a configuration file.
  --config-name <name...>                 Name of the configuration to use.
  -h, --help [verbose]                    Display help for commands and options.
  --[no-]color                            Enable colors on console.

Commands:
  build|bundle|b [entries...] [options]   Run the build.
  init, new [path]                        Initialize a project.
"""


def test_a_listing_with_usage_options_and_commands() -> None:
    listing = read_listing(WEBPACK_STYLE, 10)
    assert listing is not None and listing.headed
    assert listing.usage == (("tool", "[entries...]", "[options]"), 10)
    assert listing.entries == (
        Entry(16, "flag", "--config"),
        Entry(17, "flag", "--config-name"),
        Entry(18, "flag", "--help"),
        Entry(19, "flag", "--color"),
        Entry(22, "command", "build", ("bundle", "b")),
        Entry(23, "command", "init", ("new",)),
    )


def test_an_option_block_with_no_header_and_wrapped_descriptions() -> None:
    text = (
        "-d, --dev                check only devDependencies\n"
        "-e, --error-level        set the error-level. 1: exits with error code 0 if no\n"
        "                         errors occur.\n"
        "--jsonUpgraded           output upgraded dependencies in json\n"
    )
    listing = read_listing(text, 70)
    assert listing is not None and not listing.headed
    assert [(e.line, e.name) for e in listing.entries] == [
        (70, "--dev"),
        (71, "--error-level"),
        (73, "--jsonUpgraded"),
    ]


def test_argparse_help_with_metavars_and_a_prompt() -> None:
    text = (
        "$ tidy lock --help\n"
        "usage: tidy lock [-h] [-L LOCKFILE]\n\n"
        "options:\n"
        "  -h, --help            show this help message and exit\n"
        "  -L LOCKFILE, --lockfile LOCKFILE\n"
        "                        the lockfile\n"
    )
    listing = read_listing(text, 1)
    assert listing is not None
    assert listing.prompted == (("tidy", "lock", "--help"), 1)
    assert [e.name for e in listing.entries] == ["--help", "--lockfile"]


def test_options_grouped_under_headers_of_their_own() -> None:
    text = (
        "Usage: tool [options] file.js\n\n"
        "Basic configuration:\n"
        "  --no-config-lookup          Disable look up\n"
        "  -c, --config path::String   Use this configuration\n\n"
        "Caching:\n"
        "  --cache                     Only check changed files\n\n"
        "Commands:\n"
        "  --not-a-command             an option's line among commands is not read\n"
    )
    listing = read_listing(text, 1)
    assert listing is not None
    assert [e.name for e in listing.entries] == ["--no-config-lookup", "--config", "--cache"]


def test_options_grouped_under_headers_with_a_bare_usage_line() -> None:
    text = (
        "tool [options] file.js [dir]\n\n"
        "Basic configuration:\n"
        "  --no-config-lookup          Disable look up\n"
        "  --ext [String]              Specify extensions\n"
    )
    listing = read_listing(text, 1)
    assert listing is not None and not listing.usage
    assert [e.name for e in listing.entries] == ["--no-config-lookup", "--ext"]
    # One option under a header is no listing's shape, nor is a header over prose.
    assert read_listing("Note:\n  --ext [String]   Specify extensions\n", 1) is None
    assert read_listing("Note:\n  the tool reads files.\n  It is fast.\n", 1) is None


YARGS_STYLE = """tool <command>

Commands:
  tool serve [port]  start the server
  tool remote <cmd>  manage remotes
  tool completion    generate a completion script

Options:
  --version  Show version number                                       [boolean]
  --help     Show help                                                 [boolean]
"""


def test_yargs_writes_the_program_before_each_command_it_lists() -> None:
    """yargs lists each command after the program's name (`$0 serve [port]`): the name is
    the program's, the command is the word after it."""
    listing = read_listing(YARGS_STYLE, 1)
    assert listing is not None
    assert [(e.kind, e.name) for e in listing.entries] == [
        ("command", "serve"),
        ("command", "remote"),
        ("command", "completion"),
        ("flag", "--version"),
        ("flag", "--help"),
    ]
    usage = "Usage: tool remote <command>\n\nCommands:\n  tool remote add  add one\n"
    listing = read_listing(usage, 1)
    assert listing is not None and [e.name for e in listing.entries] == ["add"]


def test_each_prompted_help_in_one_block_is_its_own_listing() -> None:
    text = (
        "$ tool --help\n"
        "Usage: tool [options] [command]\n"
        "  --verbose   say more\n"
        "$ tool serve --help\n"
        "Usage: tool serve [options]\n"
        "  --port <n>  the port\n"
        "Usage: other [options]\n"
        "  --flag      another's\n"
    )
    listings = read_listings(text, 5)
    assert [(lst.line, lst.prompted, [e.name for e in lst.entries]) for lst in listings] == [
        (5, (("tool", "--help"), 5), ["--verbose"]),
        (8, (("tool", "serve", "--help"), 8), ["--port"]),
        (11, None, ["--flag"]),
    ]
    assert [lst.head for lst in listings] == [
        "$ tool --help",
        "$ tool serve --help",
        "Usage: other [options]",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "import x from 'y'\nconst a = 1\n",
        "We run the tool. It is fast.\nThen it stops.\n",
        # A row of text beside other text: no shape of entries alone.
        "--flag   one\nA sentence at the entries' indentation.\n",
        "src/     the source\nlib/     the build\n",
        "Options:\n  no entries here, only text\n",
    ],
)
def test_text_of_another_shape_is_no_listing(text: str) -> None:
    assert read_listing(text, 1) is None


_FLAG_NAME = st.from_regex(r"[a-z][a-z0-9]{1,8}(?:-[a-z0-9]{1,6}){0,2}", fullmatch=True)
_DESCRIPTION = st.from_regex(r"[A-Za-z][a-z]{1,8}(?: [a-z]{1,8}){0,5}\.?", fullmatch=True)


@given(
    st.lists(st.tuples(_FLAG_NAME, _DESCRIPTION, st.booleans()), min_size=1, max_size=8),
    st.booleans(),
    st.integers(min_value=1, max_value=500),
)
def test_every_generated_option_is_read_at_its_line(
    rows: list[tuple[str, str, bool]], header: bool, first: int
) -> None:
    names = list(dict.fromkeys(name for name, _, _ in rows))
    lines = ["Options:"] if header else []
    for name in names:
        _, description, short = next(r for r in rows if r[0] == name)
        term = f"-{name[0]}, --{name}" if short else f"--{name} <value>"
        lines.append(f"  {term:<30}  {description}")
    listing = read_listing("\n".join(lines) + "\n", first)
    if not header and len(names) < 2:
        assert listing is None  # one line with no header is no listing's shape
        return
    assert listing is not None
    offset = 1 if header else 0
    assert [(e.line, e.name) for e in listing.entries] == [
        (first + offset + at, f"--{name}") for at, name in enumerate(names)
    ]


@given(st.text(max_size=400))
def test_any_text_reads_without_error_and_entries_are_in_it(text: str) -> None:
    listing = read_listing(text, 1)
    if listing is not None:
        lines = text.splitlines()
        for entry in listing.entries:
            written = lines[entry.line - 1]
            assert entry.name.lstrip("-") in written


# ---------------------------------------------------------------------- the model's side


def test_a_parser_that_makes_its_commands_at_run_time_is_marked() -> None:
    model = build_model(
        "c",
        {
            "cli.js": (
                'const { Command, Option } = require("commander");\n'
                "const program = new Command();\n"
                "for (const spec of specs) {\n"
                "  program.command(spec.name).description(spec.description);\n"
                "  program.addOption(new Option(spec.flags, spec.description));\n"
                "}\n"
                'program.option("--color");\n'
            ),
            "yargs.js": (
                'const yargs = require("yargs");\n'
                "yargs.command(require('./serve')).command(serveCommand)"
                '.option("port", { type: "number" });\n'
            ),
        },
    )
    # yargs' command modules (a variable, a factory's call) leave it closed.
    assert model.facts.open_commands == ["cli.js:4"]
    assert [where.split(": ")[0] for where in model.facts.open_flags] == ["cli.js:5"]
    assert model.cli.partly_read == "cli.js:4"


def test_a_commander_command_named_by_a_variable_is_made_at_run_time() -> None:
    model = build_model(
        "c",
        {
            "cli.js": (
                'const { Command } = require("commander");\n'
                "const program = new Command();\n"
                'for (const name of ["build", "watch"]) program.command(name);\n'
                'program.command("serve");\n'
            ),
        },
    )
    assert model.facts.open_commands == ["cli.js:3"]
