"""bench/wiring_recall.py on a small repository and blog built here: the census of the
claims gate 16 read and the seeded sample of the lines it did not read, against labels
written here, give the precision of `contradicted` and the recall of false claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

SOURCES = {
    "src/lib/engine.ts": """
import { loadConfig } from "./config";
export class Engine {
  run(): void { loadConfig(); }
  stop(): void {}
}
""",
    "src/lib/config.ts": "export function loadConfig(): object { return {}; }\n",
}
POST = """---
layout: post
title: T
date: 2026-01-01
---
The `Engine.run()` method calls `loadConfig()` first.

The `Engine.stop()` method calls `loadConfig()` again.

Under the hood `ghostStep()` calls `loadConfig()` as well.

The engine calls the config loader when it stops.

One generate call is all it takes.
"""


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("# labels\n" + "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_recall_is_estimated_from_the_census_and_the_seeded_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", SOURCES)
    posts = tmp_path / "blog" / "_posts"
    posts.mkdir(parents=True)
    name = "2026-01-01-engine.md"
    (posts / name).write_text(POST, encoding="utf-8")
    census = _write(
        tmp_path / "census.jsonl",
        [
            {"post": name, "line": 6, "subject": "Engine.run() -> loadConfig()", "label": "true"},
            {"post": name, "line": 8, "subject": "Engine.stop() -> loadConfig()", "label": "false"},
            # A false claim the gate read and could not judge: a miss of the census.
            {"post": name, "line": 10, "subject": "ghostStep() -> loadConfig()", "label": "false"},
            # A false claim the labeller found on a read line that the gate did not read.
            {"post": name, "line": 6, "subject": "Engine.run() -> stop()", "label": "false"},
        ],
    )
    bench = load_bench("wiring_recall", "wiring_recall.py")
    # The two lines gate 16 did not read (12 and 14); the labeller read both.
    sample = _write(
        tmp_path / "sample.jsonl",
        [
            {"lines": 2, "seed": 7},
            {
                "post": name,
                "line": 12,
                "claim": "Engine.stop -> loadConfig",
                "label": "false",
                "miss": "no code name",
            },
        ],
    )
    argv = ["--repo", str(repo), "--posts", str(posts), "--ref", "HEAD", "--seed", "7"]
    code = bench.main([*argv, "--census", str(census), "--sample", str(sample)])
    out = capsys.readouterr().out
    assert code == 0
    assert "frame: 5 claim lines, 3 read by gate 16, 2 not read" in out
    assert "false claims read: 3, contradicted 1" in out
    assert f"miss (on a read line) {name}:6 Engine.run() -> stop()" in out
    assert f"miss (read) {name}:10 ghostStep() -> loadConfig(): unjudged" in out
    assert f"miss {name}:12 Engine.stop -> loadConfig: no code name" in out
    # 1 contradicted of 3 read + 1 found in 2 of the 2 lines not read.
    assert "false claims: 3 read + 1 in 2 of the 2 lines not read (about 4.0" in out
    assert "recall of false claims: 1/4.0 (25.0%, 95% Wilson 4.6-69.9%)" in out
    assert "precision of contradicted: 1/1 labelled false (100.0%, 95% Wilson 20.7-100.0%)" in out
    assert "the recall figure has no meaning yet" in out
    # Labels written with another seed are not used.
    other = _write(tmp_path / "other.jsonl", [{"lines": 2, "seed": 8}])
    bench.main([*argv, "--census", str(census), "--sample", str(other)])
    assert "labelled with seed 8, not 7: not used" in capsys.readouterr().out


def test_held_out_projects_are_measured_on_their_docs_with_their_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = {
        "pkg/__init__.py": "",
        "pkg/jobs.py": (
            "def run_jobs():\n    load_settings()\n\n\n"
            "def load_settings():\n    return {}\n\n\n"
            "def flush_metrics():\n    return None\n"
        ),
        "docs/jobs.md": (
            "# Jobs\n\n`run_jobs()` calls `flush_metrics()` at the end.\n\n"
            "`run_jobs()` calls `load_settings()` first.\n"
        ),
    }
    work = make_repo(tmp_path / "work", sources)
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    labels = _write(
        tmp_path / "holdout.jsonl",
        [
            {"project": "acme/kit", "lines": 0, "seed": 7},
            *(
                {
                    "project": "acme/kit",
                    "post": "jobs.md",
                    "line": line,
                    "subject": pair,
                    "label": label,
                }
                for line, pair, label in (
                    (3, "run_jobs() -> flush_metrics()", "false"),
                    (5, "run_jobs() -> load_settings()", "true"),
                )
            ),
            # Another project's label is not this one's.
            {
                "project": "acme/other",
                "post": "jobs.md",
                "line": 5,
                "subject": "run_jobs() -> load_settings()",
                "label": "false",
            },
        ],
    )
    bench = load_bench("wiring_recall", "wiring_recall.py")
    argv = ["--mirrors", str(mirrors), "--holdout", str(labels), "--seed", "7"]
    out_json = tmp_path / "results.json"
    projects = ["--project", "acme/kit", "--project", "acme/none"]
    assert bench.main([*argv, *projects, "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "== acme/kit at " in out and "frame: 2 claim lines, 2 read by gate 16" in out
    assert "precision of contradicted: 1/1 labelled false (100.0%" in out
    assert "recall of false claims: 1/1.0 (100.0%" in out
    assert "== acme/none: no mirror at" in out
    (table,) = json.loads(out_json.read_text(encoding="utf-8"))["tables"]
    # posts, contradicted, precision (low, high), false claims, recall (low, high)
    assert table["rows"] == [["acme/kit", 1, 100.0, 20.7, 100.0, 1.0, 100.0, 20.7, 100.0]]
