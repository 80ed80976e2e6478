"""Gate 15 on the command line of a Python package built with setuptools (issue 26): the
console scripts setup.py or setup.cfg declares are the product's executables, so a shell
fence that runs one is judged against its parser, named by pyproject.toml or not. Before,
a package with no PEP 621 table had no executables and its shell fences were named by no
card."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

CLI = (
    "import argparse\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--verbose', action='store_true')\n    parser.parse_args()\n"
)
PACKAGING = {
    "setup.py": {
        "setup.py": (
            "from setuptools import setup\nsetup(name='pkg', packages=['pkg'],\n"
            "      entry_points={'console_scripts': ['tool = pkg.cli:main']})\n"
        )
    },
    "setup.cfg": {
        "setup.py": "from setuptools import setup\nsetup()\n",
        "setup.cfg": (
            "[metadata]\nname = pkg\n\n[options.entry_points]\nconsole_scripts =\n"
            "    tool = pkg.cli:main\n"
        ),
    },
    "pyproject without a project table": {
        "pyproject.toml": "[build-system]\nrequires = ['setuptools']\n",
        "setup.py": (
            "from setuptools import setup\nsetup(name='pkg',\n"
            "      entry_points={'console_scripts': ['tool = pkg.cli:main']})\n"
        ),
    },
}


@pytest.mark.parametrize("packaging", sorted(PACKAGING))
def test_a_setuptools_script_is_judged_against_its_parser(packaging: str, tmp_path: Path) -> None:
    files = {**PACKAGING[packaging], "pkg/__init__.py": "", "pkg/cli.py": CLI}
    repo = make_repo(tmp_path / "repo", files)
    card = sample_card("$ tool --verbse data.txt\n$ tool --verbose data.txt\n", "console",
                       tmp_path, repo)  # fmt: skip
    assert sample_violations(card) == [("cli_flag", "--verbse")], card.detail
    reason = card.detail["violations"][0]["reason"]
    assert "did you mean `--verbose`?" in reason, reason
    checked = {(c["name"], c["kind"]) for c in card.detail["checked_names"]}
    assert ("--verbose", "flag") in checked, card.detail


def test_a_script_whose_parser_the_gate_cannot_read_is_listed(tmp_path: Path) -> None:
    files = {
        **PACKAGING["setup.py"],
        "pkg/__init__.py": "",
        "pkg/cli.py": "import sys\n\ndef main():\n    return '--verbose' in sys.argv\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    card = sample_card("tool --verbse data.txt\n", "bash", tmp_path, repo)
    assert sample_violations(card) == []
    assert any("uses no framework the gate reads" in r for r in unjudged_reasons(card))
