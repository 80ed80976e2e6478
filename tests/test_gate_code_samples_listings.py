"""Gate 15 on help-output listings (helpers/help_listings.py): a flag or command a page
lists as the product's --help output is judged against the product's parser in the API
model, by the command whose help it is; another program's listing, or a listing of a
parser that makes options at run time, is listed unjudged, never a finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

CLI_JS = (
    'const { Command, Option } = require("commander");\n'
    'const program = new Command("tool");\n'
    'program.version("1.0").option("-t, --temperature <value>", "t");\n'
    'program.command("serve <dir>").option("--port <n>").option("--no-open");\n'
    'program.addOption(new Option("--log-level <level>"));\n'
)


def _repo(root: Path, cli: str = CLI_JS) -> Path:
    manifest = {"name": "tool", "bin": "./lib/cli.js", "main": "./lib/index.js"}
    return make_repo(
        root,
        {
            "package.json": json.dumps(manifest),
            "lib/index.js": "module.exports = { run };\nfunction run() {}\n",
            "lib/cli.js": cli,
        },
    )


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _repo(tmp_path_factory.mktemp("tool"))


POST = "2026-06-03-test.md"  # make_post's file name


def _check(body: str, tmp_path: Path, repo: Path) -> Scorecard:
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _found(card: Scorecard) -> list[tuple[str, str, int]]:
    return [(v["kind"], v["name"], v["line"]) for v in card.detail["violations"]]


def _line(tmp_path: Path, text: str) -> int:
    """The file line of ``text`` in the post _check wrote (front matter included)."""
    lines = (tmp_path / POST).read_text(encoding="utf-8").splitlines()
    return next(at for at, line in enumerate(lines, 1) if text in line)


HELP = """Intro.

```text
Usage: tool [options] [command]

Options:
  -V, --version               output the version number
  -t, --temperature <value>   t
  --tempo <value>             an option the parser does not declare
  --log-level <level>         how much to log
  -h, --help                  display help for command

Commands:
  serve <dir>                 serve a folder
  deploy [target]             a command the parser does not declare
  help [command]              display help for command
```
"""


def test_a_listed_flag_or_command_the_parser_does_not_declare_is_a_finding(
    tmp_path: Path, repo: Path
) -> None:
    card = _check(HELP, tmp_path, repo)
    assert card.verdict == "FAIL"
    assert _found(card) == [
        ("cli_flag", "--tempo", _line(tmp_path, "--tempo")),
        ("cli_command", "deploy", _line(tmp_path, "deploy [target]")),
    ]
    # The rest were judged: the declared flags, the derived --version and --help, the
    # commands `serve` and commander's own `help`.
    assert card.detail["checked_by_kind"] == {"flag": 5, "command": 3}
    assert "`tool`, run on line" in card.detail["violations"][0]["reason"]


def test_a_subcommands_listing_is_judged_by_that_command(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "tidy",
        {
            "pyproject.toml": '[project]\nname = "tidy"\nversion = "1.0"\n\n'
            '[project.scripts]\ntidy = "tidy.cli:main"\n',
            "tidy/__init__.py": "",
            "tidy/cli.py": (
                "import typer\n\napp = typer.Typer()\n\n\n@app.command()\n"
                "def clean(dry_run: bool = False) -> None:\n    pass\n\n\n@app.command()\n"
                "def scan(depth: int = 1) -> None:\n    pass\n"
            ),
        },
    )
    body = (
        "Its help:\n\n```console\n$ tidy clean --help\nUsage: tidy clean [OPTIONS]\n\n"
        "Options:\n  --dry-run / --no-dry-run\n  --depth INTEGER  [default: 1]\n"
        "  --help           Show this message and exit.\n```\n"
    )
    card = _check(body, tmp_path, repo)
    assert _found(card) == [("cli_flag", "--depth", _line(tmp_path, "--depth INTEGER"))]
    assert "`tidy clean`" in card.detail["violations"][0]["reason"]


def test_an_option_block_after_the_products_command_line(tmp_path: Path, repo: Path) -> None:
    body = (
        "Serve a folder:\n\n```bash\n$ tool serve ./site\n```\n\nOptions\n-------\n\n"
        "    --port <n>           the port\n"
        "    --no-open            do not open a browser\n"
        "    --livereload         reload the page on change, a flag the parser\n"
        "                         does not declare\n"
    )
    card = _check(body, tmp_path, repo)
    assert _found(card) == [("cli_flag", "--livereload", _line(tmp_path, "--livereload"))]


def test_another_programs_listing_is_unjudged(tmp_path: Path, repo: Path) -> None:
    body = (
        "npm's own help:\n\n```\nUsage: npm <command>\n\nOptions:\n"
        "  --tempo          not the product's\n  --workspaces     npm's\n```\n"
    )
    card = _check(body, tmp_path, repo)
    assert card.verdict == "PASS" and not card.detail["violations"]
    assert "another program's" in card.detail["unjudged"][0]["reason"]
    # The same flags after the product's --help prompt are the product's.
    card = _check(body.replace("npm <command>", "tool [options]"), tmp_path, repo)
    assert _found(card) == [
        ("cli_flag", "--tempo", _line(tmp_path, "--tempo")),
        ("cli_flag", "--workspaces", _line(tmp_path, "--workspaces")),
    ]


def test_names_and_descriptions_are_commands_only_after_a_request_for_help(
    tmp_path: Path, repo: Path
) -> None:
    table = "```\n  serve <dir>       serve a folder\n  deploy [target]   deploy it\n```\n"
    after_run = f"Run it:\n\n```bash\ntool serve .\n```\n\nThen:\n\n{table}"
    card = _check(after_run, tmp_path, repo)
    assert not card.detail["violations"] and not card.detail["unjudged"]
    after_help = f"Its commands:\n\n```bash\nnpx tool --help\n```\n\n{table}"
    card = _check(after_help, tmp_path, repo)
    assert _found(card) == [("cli_command", "deploy", _line(tmp_path, "deploy [target]"))]


def test_a_parser_that_makes_options_at_run_time_leaves_its_listed_flags_unjudged(
    tmp_path: Path,
) -> None:
    """Options made at run time leave each listed flag unjudged; the commands, a table the
    model reads whole, are judged all the same."""
    cli = CLI_JS + "for (const spec of specs) program.addOption(new Option(spec.flags));\n"
    repo = _repo(tmp_path / "open", cli)
    card = _check(HELP, tmp_path, repo)
    assert _found(card) == [("cli_command", "deploy", _line(tmp_path, "deploy [target]"))]
    unjudged = card.detail["unjudged"]
    assert [u["text"] for u in unjudged] == [
        "--version",
        "--temperature",
        "--tempo",
        "--log-level",
        "--help",
    ]
    assert all("only in part (lib/cli.js:6: " in u["reason"] for u in unjudged)
    only_flags = HELP.split("\nCommands:")[0] + "\n```\n"
    card = _check(only_flags, tmp_path, repo)
    whole, *each = card.detail["unjudged"]
    assert card.verdict == "PASS" and "(5 listed)" in whole["reason"]
    # Never silent: each listed flag is named unjudged at its own line, with the reason.
    flags = ["--version", "--temperature", "--tempo", "--log-level", "--help"]
    assert [(u["text"], u["line"]) for u in each] == [
        (flag, _line(tmp_path, flag + " ")) for flag in flags
    ], each
    assert all(u["reason"] == each[0]["reason"] and "only in part" in u["reason"] for u in each)


def test_a_parser_that_makes_commands_at_run_time_leaves_its_listing_unjudged(
    tmp_path: Path,
) -> None:
    cli = CLI_JS + "for (const spec of specs) program.command(spec.name);\n"
    card = _check(HELP, tmp_path, _repo(tmp_path / "open", cli))
    assert card.verdict == "PASS" and not card.detail["violations"]
    unjudged, *each = card.detail["unjudged"]
    assert "only in part (lib/cli.js:6" in unjudged["reason"] and "(8 listed)" in unjudged["reason"]
    assert [u["text"] for u in each][-3:] == ["serve", "deploy", "help"] and len(each) == 8


FACTORY = (
    'const { Command } = require("commander");\n'
    "class Cli {\n"
    '  constructor() { this.program = new Command("tool"); }\n'
    "  makeCommand(options, action) {\n"
    "    const command = this.program.command(options.name);\n"
    "    command.alias(options.alias);\n"
    "    return command.action(action);\n"
    "  }\n"
    "  run(watching) {\n"
    '    const build = { name: "build [entries...]", alias: ["bundle", "b"] };\n'
    '    const watch = { name: "watch [entries...]", alias: "w" };\n'
    "    this.makeCommand(watching ? watch : build, () => {});\n"
    '    this.makeCommand({ name: "help [command]", alias: "h" }, () => {});\n'
    "  }\n"
    "}\n"
    "module.exports = Cli;\n"
)


def test_commands_a_factory_makes_from_what_its_callers_pass(tmp_path: Path) -> None:
    """A method that makes a command from its parameter's ``name`` makes the commands its
    callers pass as objects written in place or as constants (cli_factories); a listed
    command none of them makes is a finding."""
    from pytest_postgates.evidence.api_model import build_model

    model = build_model("c", {"lib/cli.js": FACTORY})
    assert not model.facts.open_commands
    assert {"build", "bundle", "b", "watch", "w", "help", "h"} <= set(model.commands)
    listing = (
        "```text\nUsage: tool [options] [command]\n\nCommands:\n"
        "  build|bundle|b [entries...]   Run it.\n  watch|w [entries...]   Watch.\n"
        "  init|new [path]   Scaffold.\n```\n"
    )
    card = _check(listing, tmp_path, _repo(tmp_path / "factory", FACTORY))
    assert _found(card) == [("cli_command", "init", _line(tmp_path, "init|new"))]
    computed = FACTORY.replace("watching ? watch : build", "specs[watching]")
    assert build_model("c", {"lib/cli.js": computed}).facts.open_commands == ["lib/cli.js:5"]


YARGS_CLI = (
    'const yargs = require("yargs");\n'
    "yargs(process.argv.slice(2))\n"
    '  .command("serve [port]", "start the server", (y) => y.option("watch"))\n'
    '  .command("build", "build it")\n'
    "  .parse();\n"
)


def test_a_yargs_listing_of_commands_after_the_programs_name(tmp_path: Path) -> None:
    """yargs writes the program's name before each command it lists: the command after it
    is judged, and one the parser does not make is a finding."""
    listing = (
        "```bash\ntool --help\n```\n\n```text\ntool <command>\n\nCommands:\n"
        "  tool serve [port]  start the server\n  tool deploy        deploy it\n\n"
        "Options:\n  --version  Show version number  [boolean]\n```\n"
    )
    card = _check(listing, tmp_path, _repo(tmp_path / "yargs", YARGS_CLI))
    assert _found(card) == [("cli_command", "deploy", _line(tmp_path, "tool deploy"))]
    assert card.detail["checked_by_kind"].get("command") == 2
