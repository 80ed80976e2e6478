"""The index reads each blob once and decides which files are text itself
(evidence/blobs.py): the files it keeps are the ones ``git grep -I`` searches, in the same
order, whatever decides it (attributes, a diff driver's setting, a NUL byte and where it
is, a symlink, an empty file)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.blobs import regular_files, text_files
from pytest_postgates.evidence.repo import git, resolve_commit
from tests.helpers import make_repo

ATTRIBUTES = "\n".join(
    [
        "*.dat -diff",
        "marked.txt binary",
        "forced.bin diff",
        "driven.txt diff=foo",
        "builtin.txt diff=python",
        "unknown.txt diff=nosuchdriver",
        "docs/** linguist-generated=true",
    ]
)
FILES: dict[str, str | bytes] = {
    ".gitattributes": ATTRIBUTES + "\n",
    "a.txt": "hello\n",
    "empty.txt": "",
    "newline.txt": "\n",
    "nul.bin": b"x\0y",
    "late-nul.txt": b"a" * 8000 + b"\0tail",  # NUL just past the bytes git sniffs
    "edge-nul.txt": b"a" * 7999 + b"\0",  # NUL at the last byte it sniffs
    "text.dat": "text marked -diff\n",
    "marked.txt": "plain text, binary macro\n",
    "forced.bin": b"a\0b\n",
    "driven.txt": "c\n",
    "builtin.txt": b"d\0\n",
    "unknown.txt": "e\n",
    "docs/guide.md": "generated, still text\n",
    "sub dir/ünïcode name.md": "spaces and accents\n",
}


def _grep_listing(root: Path, *config: str) -> list[str]:
    found = subprocess.run(
        ["git", "-C", str(root), *config, "grep", "-I", "-l", "-z", "-e", "", "HEAD"],
        capture_output=True,
        check=False,
    )
    assert found.returncode in (0, 1), found.stderr
    names = [name.decode("utf-8", "surrogateescape") for name in found.stdout.split(b"\0") if name]
    return [name.removeprefix("HEAD:") for name in names]


def _our_listing(root: Path) -> list[str]:
    commit = resolve_commit(root, "HEAD")
    rows = []
    for entry in git(root, "ls-tree", "-r", "-z", "--full-tree", commit).stdout.split(b"\0"):
        if entry:
            meta, _, path = entry.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            rows.append((mode, kind, sha, path.decode("utf-8", "surrogateescape")))
    return [path for path, _content in text_files(root, regular_files(rows))]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(tmp_path_factory.mktemp("blobs"), FILES)
    os.symlink("a.txt", root / "link")  # a symlink's blob is text, but git grep skips it
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "symlink")
    return root


def test_text_files_are_the_files_git_grep_searches(repo: Path) -> None:
    ours = _our_listing(repo)
    assert ours == _grep_listing(repo)
    assert "late-nul.txt" in ours and "edge-nul.txt" not in ours
    assert "forced.bin" in ours and "text.dat" not in ours and "link" not in ours


def test_a_diff_driver_setting_decides_as_it_does_for_git_grep(repo: Path) -> None:
    git(repo, "config", "diff.foo.binary", "true")
    git(repo, "config", "diff.python.binary", "false")  # a built-in driver's setting
    try:
        ours = _our_listing(repo)
        assert ours == _grep_listing(repo)
        assert "driven.txt" not in ours and "builtin.txt" in ours
    finally:
        git(repo, "config", "--unset", "diff.foo.binary")
        git(repo, "config", "--unset", "diff.python.binary")
    assert "driven.txt" in _our_listing(repo)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    contents=st.lists(
        st.binary(min_size=0, max_size=40).map(lambda b: b.replace(b"\0", b"") * 300)
        | st.binary(max_size=60),
        min_size=1,
        max_size=6,
    )
)
def test_any_contents_are_split_into_text_and_binary_as_git_grep_splits_them(
    tmp_path_factory: pytest.TempPathFactory, contents: list[bytes]
) -> None:
    files: dict[str, str | bytes] = {f"f{i}.txt": data for i, data in enumerate(contents)}
    root = make_repo(tmp_path_factory.mktemp("anyblobs"), files)
    assert _our_listing(root) == _grep_listing(root)


def test_a_blob_missing_from_the_object_store_is_left_out(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", {"kept.txt": "kept\n", "gone.txt": "gone\n"})
    sha = git(root, "rev-parse", "HEAD:gone.txt").stdout.decode().strip()
    (root / ".git" / "objects" / sha[:2] / sha[2:]).unlink()
    assert _our_listing(root) == ["kept.txt"]


def test_object_probe_answers_as_git_cat_file_e(repo: Path) -> None:
    """One long-lived process answers every name as ``git cat-file -e`` does, and a new
    one is started if it dies."""
    from pytest_postgates.evidence.blobs import ObjectProbe

    head = git(repo, "rev-parse", "HEAD").stdout.decode().strip()
    blob = git(repo, "rev-parse", "HEAD:a.txt").stdout.decode().strip()
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.decode().strip()
    names = [head, head[:7], blob, blob[:10], tree, "deadbeef" * 5, "0000000", "abcd", "HEAD"]
    probe = ObjectProbe(repo)
    for name in names + names[::-1]:
        for asked in (name, f"{name}^{{object}}"):
            expected = git(repo, "cat-file", "-e", asked, check=False).returncode == 0
            assert probe.exists(asked) == expected, asked
    assert probe._process is not None
    probe._process.kill()
    probe._process.wait()
    assert probe.exists(blob) and not probe.exists("deadbeef" * 5)
