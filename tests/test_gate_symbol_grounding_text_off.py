"""Gate 2's text groundings of code names and its prose-only listing, turned off by name with
``symbol_rules_off`` (an ablation, as every other rule of the gate): the token then goes to
the anchors, and is listed ``not-anchored`` when none ties it to the product."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

FILES = {
    "pyproject.toml": '[project]\nname = "tidy"\nversion = "1.0"\n',
    "tidy/__init__.py": "from .core import Cleaner\n",
    "tidy/core.py": "class Cleaner:\n    def run(self) -> None: ...\n",
    # A key the code writes in a string: found by the text search, not declared.
    "tidy/tools.py": 'TOOLS = {"scan_tree": 2}\n',
    # A name only prose writes.
    "README.md": "# tidy\n\nCall `sweep_all` to clean everything.\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tidy"), FILES)


def _decided(body: str, token: str, tmp: Path, repo: Path, **settings: Any) -> tuple[str, str]:
    tmp.mkdir(parents=True, exist_ok=True)
    ctx = repo_context(repo, tmp / "cache", symbol_unanchored_claims=False, **settings)
    entry = token_outcome(gate.GATE.evaluate(make_post(body, tmp), ctx), token)
    return entry["outcome"], entry.get("rule", "")


@pytest.mark.parametrize("off", [("text",), ("text-grounding",)])
def test_a_text_grounding_turned_off_leaves_the_token_to_the_anchors(
    off: tuple[str, ...], repo: Path, tmp_path: Path
) -> None:
    body = "Pass `scan_tree` to the cleaner.\n"
    assert _decided(body, "scan_tree", tmp_path / "on", repo)[0] == "grounded"
    turned_off = _decided(body, "scan_tree", tmp_path / "off", repo, symbol_rules_off=off)
    assert turned_off == ("unjudged", "not-anchored")


def test_prose_only_turned_off_leaves_the_token_to_the_anchors(repo: Path, tmp_path: Path) -> None:
    body = "Call `sweep_all` first.\n"
    assert _decided(body, "sweep_all", tmp_path / "on", repo) == ("unjudged", "prose-only")
    turned_off = _decided(
        body, "sweep_all", tmp_path / "off", repo, symbol_rules_off=("prose-only",)
    )
    assert turned_off == ("unjudged", "not-anchored")
