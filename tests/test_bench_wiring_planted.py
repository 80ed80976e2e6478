"""bench/wiring_planted.py on a small repository and blog built here: it plants wrong
wiring into claims gate 16 verifies and reports the share contradicted, beside the
unplanted control."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import load_bench, make_repo

SOURCES = {
    "src/lib/engine.ts": """
import { loadConfig } from "./config";
export class Engine {
  run(): void { loadConfig(); this.render(); }
  render(): void {}
}
""",
    "src/lib/config.ts": """
export function loadConfig(): object { return parseYaml(""); }
export function parseYaml(text: string): object { return {}; }
""",
    "src/lib/metrics.ts": """
export function auditTrail(): void {}
export function flushMetrics(): void {}
export function rotateLogs(): void {}
export function sampleRate(): number { return 1; }
""",
}
POST = """---
layout: post
title: T
date: 2026-01-01
---
The `Engine.run()` method calls `loadConfig()` first.

```mermaid
flowchart TD
    A["loadConfig()"] --> B["parseYaml()"]
```
"""


def test_planted_wiring_is_contradicted_and_the_control_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", SOURCES)
    posts = tmp_path / "blog" / "_posts"
    posts.mkdir(parents=True)
    (posts / "2026-01-01-engine.md").write_text(POST, encoding="utf-8")
    bench = load_bench("wiring_planted", "wiring_planted.py")
    code = bench.main(["--repo", str(repo), "--posts", str(posts), "--ref", "HEAD"])
    out = capsys.readouterr().out
    assert code == 0
    assert "unplanted control: 0 contradicted of 2 claims" in out
    # Three callees swapped in for the claim (the seed draws `parseYaml`, which `run()`
    # reaches through `loadConfig()`: no wrong wiring, listed and left out), three for the
    # edge, and the edge reversed.
    assert "not wrong (reached through a path) 2026-01-01-engine.md:6" in out
    assert "call-swap: 2/2 contradicted" in out
    assert "edge-rewire: 3/3 contradicted" in out
    assert "edge-reverse: 1/1 contradicted" in out
    assert "planted: 6/6 contradicted (100.0%" in out
    assert "miss" not in out
