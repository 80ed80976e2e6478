"""bench/wiring_agentfiles.py on a mirror built here: the frame's files are picked by the
labels file's rules (tier 1: agent files and the architecture pages they name; tier 2: the
pages and design folders they point to, the other agents' files), and a labelled row is gated
at its commit and counted in its project's half."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

AGENTS = (
    "# Agents\n\n"
    "Read `docs/architecture-overview.md`, the pages in `Architecture/`, `notes/plan.md`,\n"
    "`README.md` and the guides in `docs/` first.\n\n"
    "`run_jobs()` calls `flush_metrics()` at the end.\n"
)
SOURCES: dict[str, str | bytes] = {
    "pkg/__init__.py": "",
    "pkg/jobs.py": (
        "def run_jobs():\n    load_settings()\n\n\n"
        "def load_settings():\n    return {}\n\n\n"
        "def flush_metrics():\n    return None\n"
    ),
    "AGENTS.md": AGENTS,
    "tests/AGENTS.md": "# a test input\n",
    "docs/architecture-overview.md": "# Overview\n",
    "docs/architecture-old.md": "# named by no agent file\n",
    "docs/guide.md": "# a user guide: `docs/` is no design folder\n",
    "Architecture/01-jobs.md": "# Jobs\n",
    "ARCHITECTURE.md": "# Architecture\n",
    "notes/plan.md": "# Plan\n",
    "README.md": "# Readme\n",
    ".cursor/rules/style.mdc": "rules\n",
}


def _mirror(tmp_path: Path) -> tuple[Path, str]:
    work = make_repo(tmp_path / "work", SOURCES)
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    return mirrors, git(work, "rev-parse", "HEAD").strip()


def test_the_files_of_each_tier_follow_the_labels_rules(tmp_path: Path) -> None:
    mirrors, head = _mirror(tmp_path)
    bench = load_bench("wiring_agentfiles", "wiring_agentfiles.py")
    repo = mirrors / "acme+kit" / "repo"
    assert bench.agent_files(repo, head) == ["AGENTS.md", "docs/architecture-overview.md"]
    assert bench.agent_files(repo, head, 2) == [
        ".cursor/rules/style.mdc",
        "ARCHITECTURE.md",
        "Architecture/01-jobs.md",
        "notes/plan.md",
    ]
    assert load_bench("wiring_mined", "wiring_mined.py").page_name(".cursor/rules/style.mdc") == (
        ".cursor__rules__style.mdc.md"
    )


def test_a_false_row_is_contradicted_and_counted_in_its_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mirrors, head = _mirror(tmp_path)
    bench = load_bench("wiring_agentfiles", "wiring_agentfiles.py")
    monkeypatch.setattr(bench, "TUNE", ("acme/kit",))
    row = {
        "project": "acme/kit",
        "frame": "sample",
        "commit": head[:12],
        "parent": head[:12],
        "path": "AGENTS.md",
        "line": 6,
        "claim": "run_jobs -> flush_metrics",
        "label": "false",
        "why": "pkg/jobs.py:1 run_jobs calls load_settings only",
    }
    labels = tmp_path / "labels.jsonl"
    labels.write_text("# rules\n" + json.dumps(row) + "\n")
    assert bench.main(["--labels", str(labels), "--mirrors", str(mirrors)]) == 0
    out = capsys.readouterr().out
    assert f"acme/kit AGENTS.md:6 at {head[:12]} (tune, sample)" in out
    assert "[false] -> contradicted" in out
    assert "tune half, agent files: false claims contradicted: 1/1" in out
    assert "tune half, agent files: true claims contradicted: 0/0" in out
