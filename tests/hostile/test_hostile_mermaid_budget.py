"""One budget covers all of a post's mermaid diagrams (six valid 48 KB diagrams once took
87 s, 20 s each being allowed): diagrams past it are reported as unchecked on gate 1's
card, never passed, and their results are not cached. The engine is replaced here by a
stand-in that takes a known time per diagram, so the test is fast and exact."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import GateContext, blog_quality, default_settings
from pytest_postgates.post import parse_post
from pytest_postgates.tools import mermaid
from pytest_postgates.tools.mermaid import MermaidParser

SECONDS_PER_DIAGRAM = 0.4
FRONT = "---\nlayout: post\ntitle: Diagrams\ndate: 2026-01-01\n---\n"


def diagram(number: int) -> str:
    return f"flowchart TD\n  A{number} --> B{number}\n"


@pytest.fixture
def slow_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Every diagram parses, in SECONDS_PER_DIAGRAM (or times out at the limit given)."""
    limits: list[float] = []

    class Worker:
        alive = True

        def request(self, code: str, timeout: float) -> Any:
            limits.append(timeout)
            if timeout < SECONDS_PER_DIAGRAM:
                time.sleep(timeout)
                return {"kind": "timeout", "message": "did not finish"}
            time.sleep(SECONDS_PER_DIAGRAM)
            return {"kind": "ok", "type": "flowchart-v2"}

    monkeypatch.setattr(MermaidParser, "_acquire", lambda self: Worker())
    monkeypatch.setattr(MermaidParser, "_release", lambda self, worker: None)
    monkeypatch.setattr(mermaid, "_free_cpus", lambda: 1)
    yield limits


def test_a_posts_diagrams_share_one_budget(slow_engine: list[float], tmp_path: Path) -> None:
    parser = MermaidParser(tmp_path, max_workers=1)
    codes = [diagram(n) for n in range(6)]
    started = time.monotonic()
    results = parser.parse_many(codes, post_budget=1.0)
    assert time.monotonic() - started < 2.0  # not 6 x 0.4 s
    assert list(results) == codes[:2]  # parsed within the budget; the rest unchecked
    assert all(result.ok for result in results.values())
    assert all(limit <= 1.0 for limit in slow_engine)  # no diagram got more than the budget
    # Only what was parsed is cached: the next run parses the rest (with a new budget).
    assert len(list((tmp_path / "mermaid").rglob("*.json"))) == 2
    again = MermaidParser(tmp_path, max_workers=1).parse_many(codes, post_budget=1.0)
    assert list(again) == codes[:4]


def test_gate_1_reports_diagrams_past_the_budget_as_unchecked(
    slow_engine: list[float], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mermaid, "POST_BUDGET", 1.0, raising=False)
    body = "".join(f"\nDiagram {n}:\n\n```mermaid\n{diagram(n)}```\n" for n in range(5))
    path = tmp_path / "_posts" / "2026-01-01-diagrams.md"
    path.parent.mkdir()
    path.write_text(FRONT + "This post shows how pytest runs a Python plugin.\n" + body)
    context = GateContext.create(default_settings(body_line_floor=1), tmp_path / "cache")
    started = time.monotonic()
    card = blog_quality.GATE.evaluate(parse_post(path), context)
    assert time.monotonic() - started < 2.5
    assert card.verdict != "PASS"
    rows = card.detail["mermaid"]["results"]
    assert [row["kind"] for row in rows] == ["ok", "ok", "unchecked", "unchecked", "unchecked"]
    assert card.detail["mermaid"]["unchecked"] == 3
    assert "budget" in card.summary and "unchecked" in card.summary
