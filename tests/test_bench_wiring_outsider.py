"""bench/wiring_outsider.py on a mirror built here: a stored outsider page is gated at the
labelled commit, its row found again by the line's sha1 and counted per half."""

from __future__ import annotations

import hashlib
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
}
URL = "https://example.org/how-kit-works"
PAGE = "# How kit works\n\nUnder the hood `run_jobs()` calls `flush_metrics()` first.\n"


def _setup(tmp_path: Path, page: str) -> tuple[Path, Path, Path]:
    work = make_repo(tmp_path / "work", SOURCES)
    commit = git(work, "rev-parse", "HEAD").strip()
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / (hashlib.sha1(URL.encode()).hexdigest() + ".md")).write_text(page)
    line = PAGE.splitlines()[2]
    row = {
        "project": "acme/kit",
        "url": URL,
        "line": 3,
        "line_sha1": hashlib.sha1(line.strip().encode()).hexdigest(),
        "commit": commit[:12],
        "claim": "run_jobs -> flush_metrics",
        "label": "false",
    }
    labels = tmp_path / "labels.jsonl"
    labels.write_text("# rules\n" + json.dumps(row) + "\n")
    return labels, pages, mirrors


def test_a_false_claim_of_a_stored_page_is_contradicted_and_counted_in_its_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels, pages, mirrors = _setup(tmp_path, PAGE)
    bench = load_bench("wiring_outsider", "wiring_outsider.py")
    args = ["--labels", str(labels), "--pages", str(pages), "--mirrors", str(mirrors)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "[false] -> contradicted" in out
    assert "report half, outsider pages: false claims contradicted: 1/1" in out
    assert "tune half, outsider pages: false claims contradicted: 0/0" in out


def test_a_page_whose_labelled_line_changed_is_not_gated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels, pages, mirrors = _setup(tmp_path, PAGE.replace("first", "last"))
    bench = load_bench("wiring_outsider", "wiring_outsider.py")
    args = ["--labels", str(labels), "--pages", str(pages), "--mirrors", str(mirrors)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "the stored page's line differs from the labelled one" in out
    assert "report half, outsider pages: false claims contradicted: 0/0" in out
    assert "run_jobs -> flush_metrics: stored page changed" in out
