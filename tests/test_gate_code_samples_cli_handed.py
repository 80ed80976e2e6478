"""Gate 15 on the flags of a Python CLI whose main parser reads only the command word with
``parse_known_args`` and whose commands, registered from another module with
``add_parser(self.name, add_help=False)``, hand the rest of the line to parsers built at
run time (trl: each training command's dataclass-built parser): such a flag is listed
unjudged with where the parser keeps the flags it does not declare, not reported."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "pyproject.toml": '[project]\nname = "tool"\n[project.scripts]\ntool = "tool.cli:main"\n',
    "tool/__init__.py": "",
    "tool/cli/__init__.py": 'from .main import main\n\n__all__ = ["main"]\n',
    "tool/cli/main.py": (
        "import sys\n"
        "from argparse import ArgumentParser\n\n"
        "from .commands import get_commands\n\n\n"
        "def main(argv=None):\n"
        "    commands = get_commands()\n"
        "    parser = ArgumentParser(prog='tool', allow_abbrev=False)\n"
        "    subparsers = parser.add_subparsers(dest='command')\n"
        "    for command in commands:\n"
        "        command.register(subparsers)\n"
        "    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)\n"
        "    return 0\n"
    ),
    "tool/cli/commands.py": (
        "class Training:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n\n"
        "    def register(self, subparsers):\n"
        "        subparsers.add_parser(self.name, add_help=False)\n\n\n"
        "def get_commands():\n"
        "    return [Training('sft'), Training('dpo')]\n"
    ),
    # The command's own script names it (and builds its parser from dataclasses at run time).
    "tool/scripts/sft.py": (
        "import argparse\n\n\n"
        "def make_parser(subparsers=None):\n"
        "    if subparsers is not None:\n"
        "        return subparsers.add_parser('sft', add_help=False)\n"
        "    return argparse.ArgumentParser(prog='tool sft')\n"
    ),
}


def _card(tmp_path: Path, code: str) -> Scorecard:
    repo = make_repo(tmp_path / "repo", FILES)
    body = f"Run it:\n\n```bash\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def test_a_flag_a_parse_known_args_cli_hands_on_is_unjudged(tmp_path: Path) -> None:
    card = _card(tmp_path, "tool sft --model_name_or_path Qwen --dataset_name imdb")
    assert card.detail["violations"] == []
    reasons = [str(u.get("reason", "")) for u in card.detail["unjudged"]]
    assert any("--dataset_name" in r and "tool/cli/main.py:13" in r for r in reasons), reasons
