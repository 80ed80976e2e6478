"""A post's parse is let go once every selected gate has its scorecard."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from pytest_postgates.gates import BY_ID
from pytest_postgates.runner import PostRun
from tests.helpers import FRONT_MATTER, context

BODY = "Prose with `a_name` in it.\n\n```python\nimport os\n```\n"


def _run(tmp_path: Path, gates: list[int]) -> PostRun:
    path = tmp_path / "2026-01-01-post.md"
    path.write_text(FRONT_MATTER + BODY)
    selected = [BY_ID[gate] for gate in gates]
    return PostRun(path, path.name, path.stem, context(repo=tmp_path / "none"), selected)


def test_the_parse_is_kept_until_the_last_selected_gate_then_freed(tmp_path: Path) -> None:
    run = _run(tmp_path, [13, 11])
    first = run.evaluate(BY_ID[13])
    parsed = weakref.ref(run.post)
    assert "post" in run.__dict__  # gate 11 still needs it
    second = run.evaluate(BY_ID[11])
    assert "post" not in run.__dict__
    gc.collect()
    assert parsed() is None, "something still holds the released parse"
    # The cards stay: asking again gives the same cards without parsing again.
    assert run.evaluate(BY_ID[13]) is first and run.evaluate(BY_ID[11]) is second
    assert "post" not in run.__dict__


def test_a_released_post_is_parsed_again_when_asked(tmp_path: Path) -> None:
    run = _run(tmp_path, [13])
    run.evaluate(BY_ID[13])
    assert "post" not in run.__dict__
    again = run.parsed()
    assert again is not None and again.front_matter == run.front_matter
    assert any(token.type == "fence" for token in again.tokens)


def test_a_remembered_repository_error_holds_no_post(tmp_path: Path) -> None:
    # Every post of a run without its repository meets the one remembered GitError; raised
    # as it was, its traceback grew by each post's frames and kept each post alive.
    shared = context(repo=tmp_path / "none")
    parses = []
    for number in range(3):
        path = tmp_path / f"2026-01-0{number + 1}-post.md"
        path.write_text(FRONT_MATTER + BODY)
        run = PostRun(path, path.name, path.stem, shared, [BY_ID[2]])
        parses.append(weakref.ref(run.post))
        assert run.evaluate(BY_ID[2]).verdict in ("ERROR", "SKIP")
        del run
    gc.collect()
    assert [parse() for parse in parses] == [None, None, None]
