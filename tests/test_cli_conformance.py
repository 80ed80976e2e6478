"""Conformance of the API model's command line (evidence/cli_python.py) with the parsers'
own view: tiny CLIs are written as source, read by the model, then imported and asked
what they accept (argparse: each parser's option strings; click and typer: each command's
``params`` with their ``opts`` and ``secondary_opts``, and its help option). Every long
flag a command accepts must be the model's for that command, and nothing more.

argparse is the standard library's and always runs; click and typer run where installed
(skipped with the reason otherwise).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_postgates.evidence.cli_python import read_cli
from pytest_postgates.evidence.model_facts import ModelFacts, normal_flag
from pytest_postgates.evidence.model_python import read_python

ARGPARSE_CLI = """
import argparse


def build() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("-q", "--quiet", action="store_true")
    parser.add_argument("--color", action=argparse.BooleanOptionalAction)
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", aliases=["r"])
    run.add_argument("--fast", action="store_true")
    run.add_argument("target")
    output = run.add_mutually_exclusive_group()
    output.add_argument("--json", action=argparse.BooleanOptionalAction)
    output.add_argument("--text", action="store_true")
    build = commands.add_parser("build", add_help=False)
    build.add_argument("-o", "--out-dir")
    return parser
"""

CLICK_CLI = """
import click


@click.group()
@click.version_option("1.0")
def cli():
    pass


@cli.command()
@click.option("--shout/--no-shout", default=False)
@click.option("-c", "--count", default=1)
@click.option("--quiet", is_flag=True)
@click.option("-v", "verbose", is_flag=True)
@click.option("--upper/--lower", " /-L", default=True)
def greet_command(shout, count, quiet, verbose, upper):
    pass


@cli.command(name="rm")
@click.confirmation_option()
@click.password_option("--secret")
def remove(secret):
    pass
"""

# Options a module's own decorators apply (mkdocs's shape): a function applying one, a
# name bound to a helper's call over option calls and such functions.
CLICK_SHARED_CLI = """
import click


def add_options(*opts):
    def inner(f):
        for option in reversed(opts):
            f = option(f)
        return f

    return inner


def quiet_option(f):
    return click.option("-q", "--quiet", is_flag=True, expose_value=False)(f)


def color_option(f):
    return click.option("--color/--no-color", default=None, expose_value=False)(f)


common_options = add_options(quiet_option, color_option)
common_config_options = add_options(
    click.option("-f", "--config-file", expose_value=False),
    click.option("-s", "--strict/--no-strict", default=None, expose_value=False),
)


@click.group()
@click.version_option("1.0", "-V", "--version")
@common_options
def cli():
    pass


@cli.command(name="build")
@common_config_options
@common_options
@click.option("--clean", is_flag=True)
def build_command(clean):
    pass


@cli.command(name="new")
@common_options
def new_command():
    pass
"""

TYPER_CLI = """
from typing import Annotated, Optional

import typer

app = typer.Typer()


@app.callback()
def main(verbose: bool = False, log_file: str = "out.log") -> None:
    pass


@app.command()
def hello(
    ctx: typer.Context,
    name: str,
    female: bool = False,
    formal: Annotated[bool, typer.Option("--formal/--informal")] = False,
    force: bool = typer.Option(False, "--force"),
    max_size: Optional[int] = None,
    maybe: Annotated[Optional[bool], typer.Option()] = None,
    city: Annotated[str, typer.Argument()] = "Paris",
    port: Annotated[int, typer.Option("-p", "--port")] = 80,
    short_only: Annotated[int, typer.Option("-s")] = 1,
) -> None:
    pass


@app.command("bye-all")
def goodbye(accept: bool = typer.Option(True, "--accept/--reject", "-a")) -> None:
    pass
"""

TYPER_RUN_CLI = """
import typer


def main(name: str, lastname: str = "", formal: bool = False) -> None:
    pass


if __name__ == "__main__":
    typer.run(main)
"""


def _model(source: str) -> ModelFacts:
    facts = read_python({"tinycli/__init__.py": "", "tinycli/cli.py": source})
    assert not facts.unread
    return facts


def _module(source: str, tmp_path: Path, name: str) -> ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclass-like introspection of typer looks the module up
    spec.loader.exec_module(module)
    return module


def _longs(strings: Any) -> set[str]:
    return {normal_flag(s) for s in strings if s.startswith("--")}


def _model_view(facts: ModelFacts) -> dict[str, set[str]]:
    return {command: set(flags) for command, flags in facts.command_flags.items()}


def test_argparse_cli_matches_argparse(tmp_path: Path) -> None:
    parser = _module(ARGPARSE_CLI, tmp_path, "tiny_argparse").build()
    real: dict[str, set[str]] = {}

    def walk(current: argparse.ArgumentParser, command: str) -> None:
        own = real.setdefault(command, set())
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, name)
            else:
                own |= _longs(action.option_strings)

    walk(parser, "")
    assert _model_view(_model(ARGPARSE_CLI)) == real
    # What the parser accepts, asked of the parser itself: the derived ones included.
    assert parser.parse_args(["--no-color", "run", "--no-json", "x"]).json is False


def _click_view(command: Any, click: ModuleType, name: str = "") -> dict[str, set[str]]:
    context = click.Context(command)
    own: set[str] = set()
    for param in command.get_params(context):  # the help option included
        if param.param_type_name == "option":  # (typer's vendored click has its own classes)
            own |= _longs([*param.opts, *param.secondary_opts])
    view = {name: own}
    if isinstance(getattr(command, "commands", None), dict):
        for child_name, child in command.commands.items():
            view.update(_click_view(child, click, child_name))
    return view


def test_click_cli_matches_click(tmp_path: Path) -> None:
    click = pytest.importorskip("click", reason="click is not installed in this environment")
    module = _module(CLICK_CLI, tmp_path, "tiny_click")
    assert _model_view(_model(CLICK_CLI)) == _click_view(module.cli, click)


def test_click_options_of_the_modules_own_decorators_match_click(tmp_path: Path) -> None:
    click = pytest.importorskip("click", reason="click is not installed in this environment")
    module = _module(CLICK_SHARED_CLI, tmp_path, "tiny_click_shared")
    real = _click_view(module.cli, click)
    assert real["build"] >= {"config-file", "strict", "no-strict", "quiet", "color", "clean"}
    assert _model_view(_model(CLICK_SHARED_CLI)) == real


def test_a_command_passing_the_rest_of_its_line_through_is_read() -> None:
    source = (
        "import argparse\nimport click\n\n"
        "def build():\n    parser = argparse.ArgumentParser()\n"
        "    commands = parser.add_subparsers()\n    run = commands.add_parser('run')\n"
        "    run.add_argument('script', nargs='?')\n"
        "    run.add_argument('args', nargs=argparse.REMAINDER)\n"
        "    show = commands.add_parser('show')\n    show.add_argument('names', nargs='*')\n\n"
        "@click.command(name='exec')\n"
        "@click.argument('argv', nargs=-1, type=click.UNPROCESSED)\ndef exec_(argv): ...\n"
    )
    read = read_cli(ast.parse(source), ["argparse", "click"])
    assert sorted(command for command, _line in read.passthrough) == ["exec", "run"]


def _typer_click(typer: ModuleType) -> ModuleType:
    """The click typer builds its commands with (recent typer vendors one, typer._click)."""
    vendored = importlib.util.find_spec("typer._click")
    if vendored is not None:
        return importlib.import_module("typer._click")
    return importlib.import_module("click")


def test_typer_cli_matches_typer(tmp_path: Path) -> None:
    typer = pytest.importorskip("typer", reason="typer is not installed in this environment")
    click = _typer_click(typer)
    module = _module(TYPER_CLI, tmp_path, "tiny_typer")
    real = _click_view(typer.main.get_command(module.app), click)
    assert _model_view(_model(TYPER_CLI)) == real


def test_typer_run_cli_matches_typer(tmp_path: Path) -> None:
    typer = pytest.importorskip("typer", reason="typer is not installed in this environment")
    click = _typer_click(typer)
    module = _module(TYPER_RUN_CLI, tmp_path, "tiny_typer_run")
    app = typer.Typer(add_completion=False)  # what typer.run builds
    app.command()(module.main)
    real = _click_view(typer.main.get_command(app), click)
    assert _model_view(_model(TYPER_RUN_CLI)) == real


def test_derived_flags_are_the_models_without_being_written() -> None:
    # Checked in the test environment whatever is installed: the model's own answer.
    facts = _model(TYPER_CLI)
    derived = facts.derived_flags
    assert {"no-female", "help", "install-completion", "show-completion"} <= set(derived)
    assert "no-force" not in derived and "no-formal" not in derived  # names given
    assert "female" in facts.flags and "install-completion" not in facts.flags
    assert "bool parameter female" in derived["no-female"]


def test_typers_own_cli_matches_typer() -> None:
    # A real CLI: the `typer` command, read by the model from the installed package's
    # source and asked of typer itself. Its `run` command is made at run time (the reader's
    # app), which the model lists as an open command table.
    typer = pytest.importorskip("typer", reason="typer is not installed in this environment")
    cli = pytest.importorskip("typer.cli", reason="this typer has no typer.cli")
    folder = Path(typer.__file__).parent
    sources = {
        str(path.relative_to(folder.parent)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.py"))
    }
    facts = read_python(sources)
    real = _click_view(typer.main.get_command(cli.app), _typer_click(typer))
    assert _model_view(facts) == real
    assert facts.open_commands  # `typer main.py run ...` runs a command made at run time


def test_commands_a_loop_makes_from_a_literal_are_read_and_any_other_loop_leaves_them_open(
    tmp_path: Path,
) -> None:
    # This project's own CLI: commands declared for --help from a module-level table.
    source = (
        "import argparse\n\n"
        "def build():\n    parser = argparse.ArgumentParser()\n"
        "    commands = parser.add_subparsers(dest='command')\n"
        "    commands.add_parser('run')\n"
        "    for name, text in DELEGATED.items():\n"
        "        commands.add_parser(name, help=text)\n"
        "    for name in ('check', 'fix'):\n        commands.add_parser(name)\n"
        "    return parser\n\n"
        "DELEGATED = {'hook': 'the hook', 'explain': 'why'}\n"
    )
    read = read_cli(ast.parse(source), ["argparse"])
    real = _module(source, tmp_path, "tiny_looped").build()
    (subparsers,) = [a for a in real._actions if isinstance(a, argparse._SubParsersAction)]
    assert sorted(name for name, _line in read.commands) == sorted(subparsers.choices)
    assert read.open == []
    # Names a loop takes from anything else (a registry, a call) are made at run time.
    registry = source.replace("DELEGATED.items()", "registry().items()")
    assert read_cli(ast.parse(registry), ["argparse"]).open
