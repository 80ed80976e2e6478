"""bench/wiring_frames.py on a mirror built here: the fixes frame keeps a removed call
claim whose name the fix drops, at its line in the parent (a removed Markdown rule ``---``
in the same hunk counted as a line); the pinned frame keeps prose claim lines, not fenced
code or lines already labelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

GUIDE = (
    "# Jobs\n\n"
    "---\n"
    "`run_jobs()` calls `flush_metrics()` at the end.\n"
    "`rotate_logs()` and `load_settings()` are helpers.\n"
)
FIXED = "# Jobs\n\n`run_jobs()` calls `load_settings()` at the end.\n"


def _mirror(tmp_path: Path) -> tuple[Path, str, str]:
    """The mirrors folder, the fix's commit and its parent."""
    work = make_repo(tmp_path / "work", {"docs/guide.md": GUIDE, "pkg/jobs.py": ""})
    parent = git(work, "rev-parse", "HEAD").strip()
    (work / "docs" / "guide.md").write_text(FIXED, encoding="utf-8")
    git(work, "commit", "-q", "-am", "docs: fix the wrong helper name")
    commit = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    return mirrors, commit, parent


def test_the_fixes_frame_keeps_the_removed_claim_at_its_parent_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirrors, commit, parent = _mirror(tmp_path)
    bench = load_bench("wiring_frames", "wiring_frames.py")
    assert bench.main(["fixes", "acme/kit", "--mirrors", str(mirrors)]) == 0
    rows = [json.loads(t) for t in capsys.readouterr().out.splitlines()]
    # Line 5 holds no call verb; line 4 is the claim, after the removed `---` of line 3.
    assert [(r["commit"], r["parent"], r["path"], r["line"]) for r in rows] == [
        (commit[:10], parent[:12], "docs/guide.md", 4)
    ]
    assert rows[0]["subject"] == "docs: fix the wrong helper name"


def test_the_fixes_frame_reads_only_fix_commits_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirrors, _commit, _parent = _mirror(tmp_path)
    work = tmp_path / "work"
    (work / "docs" / "guide.md").write_text(
        "# Jobs\n\n`run_jobs()` calls `rotate_logs()` at the end.\n", encoding="utf-8"
    )
    git(work, "commit", "-q", "-am", "docs: describe the jobs")
    git(work, "push", "-q", str(mirrors / "acme+kit" / "repo"), "main")
    bench = load_bench("wiring_frames", "wiring_frames.py")
    assert bench.main(["fixes", "acme/kit", "--mirrors", str(mirrors)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1
    argv = ["fixes", "acme/kit", "--mirrors", str(mirrors), "--any-subject"]
    assert bench.main(argv) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_the_pinned_frame_leaves_out_fenced_code_and_labelled_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (
        "# Jobs\n\n"
        "`run_jobs()` calls `flush_metrics()` at the end.\n\n"
        "```python\n`run_jobs()` calls `rotate_logs()`\n```\n\n"
        "`rotate_logs()` returns `None` when done.\n"
    )
    work = make_repo(tmp_path / "work", {"docs/api/jobs.md": page})
    commit = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "# rules\n"
        + json.dumps({"project": "acme/kit", "post": "api__jobs.md", "line": 9, "label": "true"})
        + "\n",
        encoding="utf-8",
    )
    bench = load_bench("wiring_frames", "wiring_frames.py")
    argv = ["pinned", f"acme/kit={commit}", "--mirrors", str(mirrors), "--exclude", str(labels)]
    assert bench.main(argv) == 0
    rows = [json.loads(t) for t in capsys.readouterr().out.splitlines()]
    assert [(r["path"], r["line"], r["commit"], r["parent"]) for r in rows] == [
        ("docs/api/jobs.md", 3, commit, commit)
    ]


def test_the_pinned_frame_reads_the_folder_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = "# Dev\n\n`run_jobs()` calls `flush_metrics()` at the end.\n"
    work = make_repo(tmp_path / "work", {"tool/doc/dev-intro.md": page, "docs/x.md": page})
    commit = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    bench = load_bench("wiring_frames", "wiring_frames.py")
    argv = ["pinned", f"acme/kit={commit}", "--mirrors", str(mirrors), "--under", "tool/doc"]
    assert bench.main([*argv, "--exclude", str(tmp_path / "none.jsonl")]) == 0
    rows = [json.loads(t) for t in capsys.readouterr().out.splitlines()]
    assert [(r["path"], r["line"]) for r in rows] == [("tool/doc/dev-intro.md", 3)]
