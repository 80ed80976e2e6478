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
    "pkg/__init__.py": "",
    "pkg/peers.py": (
        "def ping_peer(n):\n    if n:\n        pong_peer(n - 1)\n\n\n"
        "def pong_peer(n):\n    if n:\n        ping_peer(n - 1)\n"
    ),
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
    # of its two callees, `ping_peer()` and `pong_peer()` (snake_case) each other,
    # `fetchSettings()` returns a `Promise<Settings>`, and the four pairs as mermaid edges;
    # all true, all verified.
    assert "generated control: 9/9 verified, 0 contradicted, 0 unjudged" in out
    generated = bench.generated_post(_model(repo), 2, 60)
    assert "`fetchSettings()` returns a `Promise<Settings>`." in generated
    assert "`ping_peer()` calls `pong_peer()`." in generated
    # The seed draws `parseYaml` for `Engine.run()`, which reaches it through
    # `loadConfig()`: no wrong wiring, listed and left out. Reversed, the edge
    # `loadConfig() --> parseYaml()` is a flow `bootConfig()` runs in that order, and
    # `pong_peer() --> ping_peer()` a call the code makes: the same.
    assert "not wrong (through a path) 2026-01-01-engine.md:6" in out
    reversed_flow = "2026-01-01-engine.md:10 parseYaml() -> loadConfig()"
    assert f"not wrong (run in that order) {reversed_flow}" in out
    assert "not wrong (a direct call) generated-claims.md:22 pong_peer() -> ping_peer()" in out
    assert "call-swap: 14/14 contradicted" in out
    assert "edge-rewire: 15/15 contradicted" in out
    assert "edge-reverse: 1/1 contradicted" in out
    # `Promise<Settings>` changed to `Promise<Engine>` and `Promise<Report>`.
    assert "return-change: 2/2 contradicted" in out
    assert "planted: 32/32 contradicted (100.0%" in out
    assert "miss" not in out


def _model(repo: Path) -> object:
    from pytest_postgates.evidence.api_model import api_model

    context = repo_context(repo, repo.parent / "cache")
    return api_model(context.evidence.index_for(repo / "x.md"), context.evidence.cache_dir)
