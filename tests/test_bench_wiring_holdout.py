"""bench/wiring_holdout.py on a mirror built here: it clones the mirror, reads its docs
folder as posts of that repository and prints wiring_planted's figures for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import git, load_bench, make_repo

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/jobs.py": (
        "def run_jobs():\n    load_settings()\n\n\n"
        "def load_settings():\n    return {}\n\n\n"
        "def flush_metrics():\n    return None\n\n\n"
        "def rotate_logs():\n    return None\n"
    ),
    "docs/guide/jobs.md": "# Jobs\n\n`run_jobs()` calls `flush_metrics()` at the end.\n",
    "docs/index.md": "# Kit\n\nNothing about wiring here.\n",
}


def test_each_project_gets_the_planted_measurement_on_its_docs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    work = make_repo(tmp_path / "work", SOURCES)
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "acme+kit" / "repo"))
    commit = git(work, "rev-parse", "HEAD").strip()
    bench = load_bench("wiring_holdout", "wiring_holdout.py")
    argv = ["--mirrors", str(mirrors), "--project", "acme/kit", "--project", "acme/none"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert f"== acme/kit at {commit[:12]}: 2 docs pages" in out
    # The docs' own claim is false: run_jobs() calls load_settings(), not flush_metrics().
    assert "unplanted control: 1 contradicted of 1 claims" in out
    assert "  control guide__jobs.md:3 CALLS run_jobs() -> flush_metrics()" in out
    # Drawn from the model (snake_case): `run_jobs()` calls `load_settings()`, verified.
    assert "generated control: 2/2 verified" in out
    assert "planted:" in out
    assert "== acme/none: no mirror at" in out
