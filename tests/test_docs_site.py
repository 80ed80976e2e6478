"""Issue 28: the docs site under ``docs/``. Its generated parts (gate table, settings tables,
CLI reference) equal what the declarations generate, every gate has its page with its
anchor, and ``mkdocs build --strict`` builds it (skipped, with the reason, only where the
``docs`` extra is not installed; ``.ci/run`` installs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_postgates import docs_pages
from pytest_postgates.gates import GATES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_the_generated_pages_are_not_stale() -> None:
    assert docs_pages.stale_pages(DOCS) == {}, f"regenerate them: {docs_pages.GENERATOR}"


def _copy_docs(tmp_path: Path) -> Path:
    shutil.copytree(DOCS, tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path / "docs"


def test_a_hand_edited_or_unmarked_generated_part_is_stale(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    page = docs / GATES[0].docs_page
    page.write_text(page.read_text(encoding="utf-8").replace("| 200", "| 150"), encoding="utf-8")
    cli = docs / "cli.md"
    cli.write_text(
        cli.read_text(encoding="utf-8").replace(docs_pages.CLI_END, ""), encoding="utf-8"
    )
    stale = docs_pages.stale_pages(docs)
    assert stale[GATES[0].docs_page].startswith("stale; regenerate it")
    assert "cli-reference" in stale["cli.md"] and "missing" in stale["cli.md"]
    assert len(stale) == 2
    # --update rewrites them; --check then passes.
    assert docs_pages.main(["--check", str(docs)]) == 1
    cli.write_text(cli.read_text(encoding="utf-8") + docs_pages.CLI_END + "\n", encoding="utf-8")
    assert docs_pages.main(["--update", str(docs)]) == 0
    assert docs_pages.main(["--check", str(docs)]) == 0


def test_every_gate_has_a_page_with_its_anchor_and_its_settings() -> None:
    for gate in GATES:
        page = (DOCS / gate.docs_page).read_text(encoding="utf-8")
        assert f'<a id="{gate.help_anchor}"></a>' in page, gate.name
        assert docs_pages.gate_settings_start(gate) in page, gate.name
        for heading in ("## What it checks", "## Settings", "## How to fix a finding"):
            assert heading in page, (gate.name, heading)
        assert f"postgates-disable-next-line {gate.name}" in page


def test_the_cli_reference_names_every_option_of_the_plugin_and_the_command() -> None:
    reference = docs_pages.cli_reference()
    for option in ("--postgates", "--postgates-repo PATH", "--postgates-offline", "--only IDS"):
        assert f"`{option}`" in reference, option


def _mkdocs() -> list[str]:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install '.[docs]'")
    pytest.importorskip("material", reason="mkdocs-material (the docs extra) is not installed")
    return [sys.executable, "-m", "mkdocs", "build", "--strict"]


def test_the_docs_site_builds_with_strict(tmp_path: Path) -> None:
    built = subprocess.run(
        [*_mkdocs(), "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "gates" / "01-blog-quality" / "index.html").is_file()


def test_strict_fails_on_a_broken_link_or_anchor(tmp_path: Path) -> None:
    """The strict build is a check: a link to a missing page or anchor fails it."""
    docs = _copy_docs(tmp_path / "project")
    for broken in ("[gone](nowhere.md)", "[gone](gates/index.md#no-such-anchor)"):
        (docs / "index.md").write_text(f"# Home\n\n{broken}\n", encoding="utf-8")
        built = subprocess.run(
            [*_mkdocs(), "-f", str(docs.parent / "mkdocs.yml"), "-d", str(tmp_path / "site")],
            capture_output=True,
            text=True,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        assert built.returncode != 0, broken


def test_gate_2_page_lists_every_rule_of_the_api_model() -> None:
    from pytest_postgates.helpers.model_grounding import RULES

    page = (DOCS / "gates" / "02-symbol-grounding.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"| `{rule.name}` | `{rule.decides}` |" in page, rule.name
