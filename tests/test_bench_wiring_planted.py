"""bench/wiring_planted.py on a small repository and blog built here: it plants wrong
wiring into claims gate 16 verifies and reports the share contradicted, beside the
unplanted control."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import load_bench, make_repo, repo_context

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
export function bootConfig(): void {
  parseYaml("");
  loadConfig();
}
export class Settings { verbose = false; }
export async function fetchSettings(): Promise<Settings> { return new Settings(); }
""",
    "src/lib/metrics.ts": """
export function auditTrail(): void {}
export function flushMetrics(): void {}
export function rotateLogs(): void {}
export function sampleRate(): number { return 1; }
export class Report { lines = 0; }
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
    code = bench.main(["--repo", str(repo), "--posts", str(posts), "--ref", "HEAD", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "unplanted control: 0 contradicted of 2 claims" in out
    # Claims drawn from the model: `loadConfig()` calls `parseYaml()`, `bootConfig()` one
    # of its two callees, `fetchSettings()` returns a `Promise<Settings>`, and the two
    # pairs as mermaid edges; all true, all verified.
    assert "generated control: 5/5 verified, 0 contradicted, 0 unjudged" in out
    assert "`fetchSettings()` returns a `Promise<Settings>`." in bench.generated_post(
        _model(repo), 2, 60
    )
    # The seed draws `parseYaml` for `Engine.run()`, which reaches it through
    # `loadConfig()`: no wrong wiring, listed and left out. Reversed, the edge
    # `loadConfig() --> parseYaml()` is a flow `bootConfig()` runs in that order: the same.
    assert "not wrong (through a path) 2026-01-01-engine.md:6" in out
    assert (
        "not wrong (run in that order) 2026-01-01-engine.md:10 parseYaml() -> loadConfig()" in out
    )
    assert "call-swap: 8/8 contradicted" in out
    assert "edge-rewire: 9/9 contradicted" in out
    assert "edge-reverse: 1/1 contradicted" in out
    # `Promise<Settings>` changed to `Promise<Engine>` and `Promise<Report>`.
    assert "return-change: 2/2 contradicted" in out
    assert "planted: 20/20 contradicted (100.0%" in out
    assert "miss" not in out


def _model(repo: Path) -> object:
    from pytest_postgates.evidence.api_model import api_model

    context = repo_context(repo, repo.parent / "cache")
    return api_model(context.evidence.index_for(repo / "x.md"), context.evidence.cache_dir)
