"""Small builders shared by the unit tests (no pytest plugin machinery involved)."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.config import Settings
from pytest_postgates.gates import GateContext
from pytest_postgates.post import Post, parse_post

FRONT_MATTER = "---\nlayout: post\ntitle: Test post\ndate: 2026-06-03\n---\n"


def make_post(
    body: str, tmp_path: Path, name: str = "2026-06-03-test.md", front: str = FRONT_MATTER
) -> Post:
    path = tmp_path / name
    path.write_text(front + body, encoding="utf-8")
    return parse_post(path)


def context(**settings: object) -> GateContext:
    return GateContext.create(Settings(**settings))  # type: ignore[arg-type]
