"""bench/wiring_recall.py on a small repository and blog built here: the census of the
claims gate 16 read and the seeded sample of the lines it did not read, against labels
written here, give the precision of `contradicted` and the recall of false claims."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import load_bench, make_repo

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
    assert "precision of contradicted: 1/1 labelled false (100.0%)" in out
    assert "false claims read: 2, contradicted 1" in out
    assert f"miss (read) {name}:10 ghostStep() -> loadConfig(): unjudged" in out
    assert f"miss {name}:12 Engine.stop -> loadConfig: no code name" in out
    # 1 contradicted of 2 read + 1 found in 2 of the 2 lines not read.
    assert "false claims: 2 read + 1 in 2 of the 2 lines not read (about 3.0" in out
    assert "recall 33.3%" in out
    assert "the recall figure has no meaning yet" in out
    # Labels written with another seed are not used.
    other = _write(tmp_path / "other.jsonl", [{"lines": 2, "seed": 8}])
    bench.main([*argv, "--census", str(census), "--sample", str(other)])
    assert "labelled with seed 8, not 7: not used" in capsys.readouterr().out
