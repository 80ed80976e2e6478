"""Repository-level checks that keep main green: ruff, mypy --strict, and the bundled
corpus run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pytest_postgates.gates import GATES

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    return subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check_is_clean() -> None:
    result = _ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    """The package type-checks under the configuration in pyproject.toml (strict, with
    the one documented relaxation for pytest-xdist, which ships no types)."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _corpus_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # When this suite itself runs under xdist, the inner run must not look like a worker
    # (syrupy, for one, then keeps its report to itself).
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "corpus/",
            "-p",
            "no:cacheprovider",
            "-q",
            f"--postgates-scorecards={tmp_path}",
            *args,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_bundled_corpus_passes_against_its_pinned_snapshots(tmp_path: Path) -> None:
    """The README's main job, `pytest corpus/`: every scorecard equals its pinned snapshot
    (the deliberately wrong posts included), and every post gets an overall file."""
    result = _corpus_run(tmp_path)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    posts = sorted((ROOT / "corpus" / "_posts").glob("*.md"))
    assert len(posts) >= 8
    assert f"{len(posts) * len(GATES)} snapshots passed" in result.stdout
    assert len(list(tmp_path.glob("*-overall.json"))) == len(posts)
    failing = [
        json.loads(p.read_text())["post"]
        for p in tmp_path.glob("*-overall.json")
        if json.loads(p.read_text())["overall"] == "FAIL"
    ]
    assert len(failing) >= 3  # the deliberately wrong posts still fail their gates


def test_bundled_corpus_expectations_hold_without_snapshots(tmp_path: Path) -> None:
    """Without snapshot mode the front-matter expectations of the wrong posts apply: they
    are xfailed, and nothing else fails."""
    # syrupy still sees the pinned files; unused ones are only a warning here.
    result = _corpus_run(tmp_path, "-o", "postgates_snapshot=false", "--snapshot-warn-unused")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "xfailed" in result.stdout
