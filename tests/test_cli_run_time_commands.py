"""A command registry the CLI fills at run time (issue 24): argparse subparsers handed to a
loop that registers one command per module of a package (pdm's ``register_command``). The
model cannot list those commands by a sound general reading, so a command it does not
table, and the flags after it, are unjudged with the reason: never a finding."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.gates import code_samples
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

CORE = """import argparse
import importlib
import pkgutil

from tool.commands.base import BaseCommand

COMMANDS = importlib.import_module("tool.commands").__path__


class Core:
    def init_parser(self):
        self.parser = argparse.ArgumentParser(prog="tool")
        self.parser.add_argument("--verbose", action="store_true")
        self.subparsers = self.parser.add_subparsers()
        for _, name, _ in pkgutil.iter_modules(COMMANDS):
            module = importlib.import_module(f"tool.commands.{name}")
            klass = module.Command
            self.register_command(klass, klass.name or name)

    def register_command(self, command, name=None):
        command.register_to(self.subparsers, name)


def main():
    Core().init_parser()
"""
BASE = """import argparse


class BaseCommand:
    name = None

    @classmethod
    def register_to(cls, subparsers, name=None):
        parser = subparsers.add_parser(name or cls.name, help=cls.__doc__)
        cls().add_arguments(parser)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        pass
"""
COMPLETION = """from tool.commands.base import BaseCommand


class Command(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("shell", nargs="?")
        parser.add_argument("--lockfile")
"""
FILES = {
    "pyproject.toml": '[project]\nname = "tool"\nversion = "1"\n\n'
    '[project.scripts]\ntool = "tool.core:main"\n',
    "tool/__init__.py": "",
    "tool/core.py": CORE,
    "tool/commands/__init__.py": "",
    "tool/commands/base.py": BASE,
    "tool/commands/completion.py": COMPLETION,
}


def test_commands_registered_at_run_time_leave_the_command_table_open(tmp_path: Path) -> None:
    sources = {path: text for path, text in FILES.items() if path.endswith(".py")}
    model = build_model("c", sources)
    # Both places say so: a command named at run time, and subparsers filled elsewhere.
    assert model.cli.open
    assert sorted(model.facts.open_commands) == ["tool/commands/base.py:9", "tool/core.py:14"]
    repo = make_repo(tmp_path / "repo", FILES)
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    # Gate 2: a flag after a command the model does not table is unjudged, with why.
    body = "```bash\ntool completions zsh --lockfilie x\n```\n\nSee `--lockfilie`.\n"
    entry = token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), "--lockfilie")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-command")
    assert "makes at run time" in entry["reason"]
    # Gate 15: the command itself is unjudged with the reason, not "no commands".
    body = "Run it:\n\n```bash\ntool completions zsh\n```\n"
    card = code_samples.GATE.evaluate(make_post(body, tmp_path, name="2026-06-04-t.md"), ctx)
    assert not card.detail["violations"]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("completions: the CLI adds commands at run time (tool/core.py" in r for r in reasons)
