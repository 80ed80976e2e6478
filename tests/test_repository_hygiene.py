"""Repository-level checks that keep main green: ruff, and the bundled corpus run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

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


def test_bundled_corpus_passes(tmp_path: Path) -> None:
    """The README's main job, `pytest corpus/`: clean posts pass, declared failures are
    xfailed, and nothing else fails."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "corpus/",
            "-p",
            "no:cacheprovider",
            "-q",
            f"--postgates-scorecards={tmp_path}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "xfailed" in result.stdout  # the deliberately wrong posts are there
    posts = sorted((ROOT / "corpus" / "_posts").glob("*.md"))
    assert len(posts) >= 8
    assert len(list(tmp_path.glob("*-overall.json"))) == len(posts)
