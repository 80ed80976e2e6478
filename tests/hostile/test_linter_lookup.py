"""Issue 16: which markdownlint program gate 12 may run.

With ``lint_backend = "auto"`` a ``node_modules/.bin/markdownlint`` in any folder above a
post used to be executed, up to ``/``: a post checked out under a shared ``/tmp`` (or in a
home folder another user can write to) ran whatever program sat in a ``node_modules``
above it. The lookup now stays inside the post's repository (its root's
``node_modules/.bin``) and on PATH, and the terminal header names the program that runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_postgates.tools import lint
from tests.helpers import FRONT_MATTER

CLEAN = "A clean paragraph about pytest.\n"


def plant(folder: Path) -> tuple[Path, Path]:
    """A fake markdownlint in ``folder/node_modules/.bin`` that leaves a mark when run."""
    mark = folder / "ran"
    binary = folder / "node_modules" / ".bin" / "markdownlint"
    binary.parent.mkdir(parents=True)
    binary.write_text(f'#!/bin/sh\ntouch "{mark}"\necho 0.43.0\n')
    binary.chmod(0o755)
    return binary, mark


def post_in(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "2026-06-03-post.md"
    path.write_text(FRONT_MATTER + CLEAN, encoding="utf-8")
    return path


@pytest.fixture
def empty_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """PATH without any markdownlint (the machine's own must not decide these tests)."""
    bare = tmp_path / "bare-bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))


@pytest.mark.usefixtures("empty_path")
def test_a_node_modules_above_a_post_outside_any_repository_is_never_run(
    tmp_path: Path,
) -> None:
    _, mark = plant(tmp_path / "shared")
    post = post_in(tmp_path / "shared" / "someone" / "_posts")
    batch = lint.lint_batch([post], "auto")
    assert not mark.exists(), "the planted program was executed"
    assert batch["backend"] == "rumdl"
    assert batch["files"][str(post.resolve())]["violations"] == []


@pytest.mark.usefixtures("empty_path")
def test_a_node_modules_above_the_repository_is_never_run(tmp_path: Path) -> None:
    _, mark = plant(tmp_path)
    repo = tmp_path / "blog"
    (repo / ".git").mkdir(parents=True)
    post = post_in(repo / "_posts")
    assert lint.choose_backend("auto", [post.parent]).name == "rumdl"
    assert lint.find_markdownlint_cli([post.parent]) is None
    assert not mark.exists()


@pytest.mark.usefixtures("empty_path")
def test_the_repository_roots_own_node_modules_is_used(tmp_path: Path) -> None:
    repo = tmp_path / "blog"
    (repo / ".git").mkdir(parents=True)
    binary, _ = plant(repo)
    post = post_in(repo / "_posts" / "2026")
    backend = lint.choose_backend("auto", [post.parent])
    assert (backend.name, backend.command) == ("markdownlint-cli", (str(binary),))
    assert lint.describe_backend(backend) == f"markdownlint-cli 0.43.0 ({binary})"


@pytest.mark.usefixtures("empty_path")
def test_a_node_modules_inside_a_post_folder_is_not_the_repositorys(tmp_path: Path) -> None:
    """Only the repository root's node_modules counts (where ``npm install`` puts the
    pinned version), so the header, worked out from the rootdir, names what runs."""
    repo = tmp_path / "blog"
    (repo / ".git").mkdir(parents=True)
    _, mark = plant(repo / "_posts")
    post = post_in(repo / "_posts")
    assert lint.choose_backend("auto", [post.parent]).name == "rumdl"
    assert not mark.exists()


def test_the_header_names_the_linter_program(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = pytester.path / "bare-bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", f"{bare}{os.pathsep}{os.environ.get('PATH', '')}")
    (pytester.path / ".git").mkdir()
    (pytester.path / ".markdownlint.json").write_text(json.dumps({"default": True}))
    post_in(pytester.path / "_posts")
    rumdl = lint.find_rumdl()
    assert rumdl is not None
    result = pytester.runpytest("_posts", "--postgates-only=12", "-p", "no:cacheprovider")
    header = [line for line in result.outlines if line.startswith("postgates: gates")]
    assert len(header) == 1, result.outlines[:10]
    if lint.find_markdownlint_cli([pytester.path]) is None:
        assert f"linter rumdl {lint.choose_backend('rumdl').version} ({rumdl})" in header[0]
    else:
        assert "linter markdownlint-cli " in header[0]
    result.assert_outcomes(passed=1)
