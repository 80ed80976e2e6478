"""bench/wiring_mined.py on a mirror built here: each labelled row is gated at its parent
commit (the doc before its fix) and counted per half."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

SOURCES: dict[str, str | bytes] = {
    "pkg/__init__.py": "",
    "pkg/jobs.py": (
        "def run_jobs():\n    load_settings()\n\n\n"
        "def load_settings():\n    return {}\n\n\n"
        "def flush_metrics():\n    return None\n"
    ),
    "docs/jobs.md": "# Jobs\n\n`run_jobs()` calls `flush_metrics()` at the end.\n",
}


def test_a_row_is_gated_at_its_parent_and_counted_in_its_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = make_repo(tmp_path / "work", SOURCES)
    parent = git(work, "rev-parse", "HEAD").strip()
    # The fix: the doc now says what the code does; the row must be judged before it.
    (work / "docs" / "jobs.md").write_text("# Jobs\n\n`run_jobs()` calls `load_settings()`.\n")
    git(work, "commit", "-qam", "docs: fix")
    fix = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    row = {"project": "acme/kit", "commit": fix[:10], "parent": parent[:12], "path": "docs/jobs.md"}
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "# rules\n"
        + json.dumps({**row, "line": 3, "claim": "run_jobs -> flush_metrics", "label": "false"})
        + "\n"
    )
    bench = load_bench("wiring_mined", "wiring_mined.py")
    assert bench.main(["--labels", str(labels), "--mirrors", str(mirrors)]) == 0
    out = capsys.readouterr().out
    assert f"acme/kit docs/jobs.md:3 at {parent[:12]} (report)" in out
    assert "[false] -> contradicted" in out
    assert "report half, mined: recall of false claims: 1/1" in out
    assert "tune half, mined: recall of false claims: 0/0" in out


def test_extraction_outcome_reads_a_claim_by_its_two_ends_in_the_paragraph() -> None:
    bench = load_bench("wiring_mined", "wiring_mined.py")
    text = "# A\n\n`run()` does the work and\nthen calls `load()`.\n\n`stop()` calls `x`.\n"
    row = bench.CallRow("mined", "acme/kit", "c", "p.md", None, 4, "Engine.run -> load", "true")
    entry = {"code": "CALLS", "verdict": "verified", "evidence": "run calls load at a.py:2"}
    read = [{**entry, "line": 3, "subject": "run() -> load()"}]
    assert bench.extraction_outcome(row, read, text)[0] == "verified"
    # the same ends outside the paragraph, or other ends on the line, are no extraction
    elsewhere = [{**entry, "line": 6, "subject": "run() -> load()"}]
    assert bench.extraction_outcome(row, elsewhere, text)[0] == "not read"
    other = [{**entry, "line": 4, "subject": "run() -> save()"}]
    assert bench.extraction_outcome(row, other, text)[0] == "listed, ends not read"
    # a claim end written only inside its comment is read there; a throw is no call claim
    assert bench.end_names("(the disposer vi.doMock() returns)") >= {"doMock"}
    assert bench.call_claim({"claim": "f -> E (throws)", "label": "false"}) is None
    assert bench.call_claim({"subject": "f() -> g()", "label": "false"}) == "f() -> g()"
