"""The repository index answers exactly as git does (conformance), and is built once."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.index import INDEX_VERSION, RepoIndex, open_index
from pytest_postgates.evidence.repo import resolve_commit
from tests.helpers import git, make_repo

ALPHABET = "abcXYZ_01-./:é€ \t()[]{}<>\"'`$#@!?*+=,;|\\"


def _random_text(rng: random.Random, size: int) -> str:
    words = [
        "parsePost",
        "PostRun",
        "run_all",
        "x.y.z",
        "gpt-5.4",
        "café",
        "naïve",
        "日本",
        "a->b",
        "::",
        "--flag",
        "-v",
        "$HOME",
        "foo/bar.ts",
        "0xFF",
        "40_000",
        "TODO",
    ]
    out = []
    for _ in range(size):
        out.append(
            rng.choice(words)
            if rng.random() < 0.5
            else "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 8)))
        )
        out.append(rng.choice([" ", "\n", "", "\t"]))
    return "".join(out)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RepoIndex, list[str]]:
    rng = random.Random(20261130)
    root = tmp_path_factory.mktemp("conformance")
    files: dict[str, str | bytes] = {
        f"src/mod{i}/file{i}.txt": _random_text(rng, 200) for i in range(12)
    }
    files["data/blob.bin"] = b"binaryneedle\x00\x01\x02 parsePost"  # NUL: binary to git
    files["data/marked.dat"] = "attributeneedle only here\n"  # binary by .gitattributes
    files[".gitattributes"] = "*.dat binary\n"
    files[".gitignore"] = "ignored.txt\n"
    files["empty.txt"] = ""
    files["dir with space/ünï.md"] = "unicode path needle\n"
    make_repo(root, files)
    (root / "untracked.txt").write_text("untrackedneedle\n")
    (root / "ignored.txt").write_text("ignoredneedle\n")
    commit = resolve_commit(root, "HEAD")
    index = open_index(root, commit, tmp_path_factory.mktemp("cache"))
    texts = [c for c in files.values() if isinstance(c, str)]
    return root, index, texts


def _git_grep(root: Path, token: str) -> bool:
    if "\\" in token:
        # `git grep -F` quotes a fixed pattern for PCRE as \Q...\E, so a backslash in it is
        # not literal (`\E` ends the quote and matches any `E`; `\E?` is an error): search
        # the text files git grep -I reads, as bytes, instead.
        listed = subprocess.run(
            ["git", "-C", str(root), "grep", "-I", "-l", "-z", "-e", "", "HEAD"],
            capture_output=True,
            check=True,
        ).stdout.decode("utf-8", "surrogateescape")
        needle = token.encode("utf-8", "surrogateescape")
        return any(
            needle
            in subprocess.run(
                ["git", "-C", str(root), "cat-file", "-p", spec], capture_output=True, check=True
            ).stdout
            for spec in listed.split("\0")
            if spec
        )
    result = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-q", "-F", "-e", token, "HEAD"], check=False
    )
    assert result.returncode in (0, 1), token
    return result.returncode == 0


def _tokens(texts: list[str], rng: random.Random, count: int) -> list[str]:
    tokens = []
    joined = "\n".join(texts)
    for _ in range(count):
        roll = rng.random()
        if roll < 0.45:  # real substrings, many crossing word boundaries
            start = rng.randrange(len(joined))
            token = joined[start : start + rng.randint(1, 14)].split("\n")[0]
        elif roll < 0.75:  # a real substring with one character changed
            start = rng.randrange(len(joined))
            token = list(joined[start : start + rng.randint(2, 10)].split("\n")[0])
            if token:
                token[rng.randrange(len(token))] = rng.choice(ALPHABET)
            token = "".join(token)
        else:  # random punctuation- and unicode-heavy strings
            token = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6)))
        if token and "\n" not in token:
            tokens.append(token)
    return tokens


def test_content_search_agrees_with_git_grep_on_hundreds_of_tokens(
    repo: tuple[Path, RepoIndex, list[str]],
) -> None:
    root, index, texts = repo
    tokens = _tokens(texts, random.Random(7), 400)
    tokens += [
        "binaryneedle",
        "attributeneedle",
        "untrackedneedle",
        "ignoredneedle",
        "unicode path needle",
        "-v",
        "--flag",
        "café",
        "日本",
        "€",
        "parsePost",
        "parsePostX",
        "x.y.z",
        "gpt-5.4",
        "gpt-9.9-ultra",
    ]
    mismatches = [(t, index.contains(t)) for t in tokens if index.contains(t) != _git_grep(root, t)]
    assert mismatches == []
    # Binary, untracked and ignored files never match, as with git grep -I at a commit.
    assert not index.contains("binaryneedle")
    assert not index.contains("attributeneedle")
    assert not index.contains("untrackedneedle")
    assert not index.contains("ignoredneedle")


def _ls_files(root: Path, spec: str) -> bool:
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "--", spec], capture_output=True, check=True
    )
    return bool(out.stdout.strip())


@pytest.mark.parametrize(
    "spec",
    [
        "src/mod1/file1.txt",
        "src/mod1",
        "src/mod1/",
        "src",
        "src/mod",
        "data/blob.bin",
        "untracked.txt",
        "ignored.txt",
        "empty.txt",
        "dir with space/ünï.md",
        "src/*/file3.txt",
        "*.dat",
        "src/mod1/file2.txt",
        "nope",
        "./src/mod2/file2.txt",
    ],
)
def test_path_matching_agrees_with_git_ls_files(
    spec: str, repo: tuple[Path, RepoIndex, list[str]]
) -> None:
    root, index, _ = repo
    assert (index.match_path(spec) is not None) == _ls_files(root, spec)


def test_file_text_commit_ids_and_locate(repo: tuple[Path, RepoIndex, list[str]]) -> None:
    root, index, _ = repo
    assert index.file_text("dir with space/ünï.md") == "unicode path needle\n"
    assert index.file_text("data/blob.bin") is None  # binary: not text
    head = resolve_commit(root, "HEAD")
    assert index.commit_for(head[:7]) == head
    assert index.object_exists(head[:10])
    assert not index.object_exists("deadbeef" * 5)
    assert index.locate("unicode path needle") == "dir with space/ünï.md"


def test_index_is_built_once_per_commit_and_rebuilt_when_the_commit_changes(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a.txt": "first version\n", "CHANGELOG.md": "## 1.2.0\n"})
    cache = tmp_path / "cache"
    first = open_index(root, resolve_commit(root, "HEAD"), cache)
    assert first.contains("first version") and first.changelog_path == "CHANGELOG.md"
    marker = next(cache.glob("index-v*-*/meta.json"))
    stamp = marker.stat().st_mtime_ns
    open_index(root, resolve_commit(root, "HEAD"), cache)
    assert marker.stat().st_mtime_ns == stamp  # reused, not rebuilt
    (root / "a.txt").write_text("second version\n")
    git(root, "commit", "-qam", "change")
    second = open_index(root, resolve_commit(root, "HEAD"), cache)
    assert second.contains("second version") and not second.contains("first version")
    assert len(list(cache.glob("index-v*-*/meta.json"))) == 2
    assert "change" in second.messages


def test_concurrent_builders_build_once(tmp_path: Path) -> None:
    """Several processes asking at once (xdist workers) leave one complete index."""
    root = make_repo(tmp_path / "r", {"a.txt": "shared\n"})
    cache = tmp_path / "cache"
    code = (
        "import sys; from pathlib import Path; "
        "from pytest_postgates.evidence.index import open_index; "
        "i = open_index(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])); "
        "assert i.contains('shared')"
    )
    import sys

    commit = resolve_commit(root, "HEAD")
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(root), commit, str(cache)])
        for _ in range(4)
    ]
    assert [p.wait() for p in procs] == [0, 0, 0, 0]
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [
        f"index-v{INDEX_VERSION}-{commit}-all"
    ]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(min_size=1, max_size=12).filter(lambda t: "\n" not in t and "\x00" not in t))
@example("\\E")  # found by Hypothesis: git grep -F is not literal on a backslash
@example("\\E?")
def test_any_token_agrees_with_git_grep(
    repo: tuple[Path, RepoIndex, list[str]], token: str
) -> None:
    root, index, _ = repo
    assert index.contains(token) == _git_grep(root, token)


def test_file_scans_agree_with_a_brute_force_scan_of_every_file(
    repo: tuple[Path, RepoIndex, list[str]],
) -> None:
    """files_containing and contains_outside scan only the files the words around a token
    allow: on punctuation-heavy tokens they list exactly what a scan of every file finds."""
    _root, index, texts = repo
    tokens = [*_tokens(texts, random.Random(11), 300), "x.y.z", "a->b", "--flag", "::", "$HOME"]
    texts_by_path = {path: index.file_text(path) or "" for path in index.text_paths}
    for token in tokens:
        expected = [
            (path, len(text[: text.index(token)].encode()))
            for path, text in texts_by_path.items()
            if token in text
        ]
        assert list(index.files_containing(token, limit=1000)) == expected, token
        for path in index.text_paths[:3]:
            outside = any(token in text for other, text in texts_by_path.items() if other != path)
            assert index.contains_outside(token, path) == outside, (token, path)


def test_an_excluded_folder_keeps_its_source_code_in_the_evidence(tmp_path: Path) -> None:
    """A folder gated as posts (`paths`) leaves its pages and data (a scorecard's JSON) out
    of the evidence, never its code or manifest: a package's README gated where it lives
    keeps the package (jest's packages/jest-leak-detector), a docs folder its examples."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "packages/leak/README.md": "Use `new LeakDetector(x)`.\n",
            "packages/leak/src/index.ts": "export default class LeakDetector {}\n",
            "packages/leak/package.json": '{"name": "leak"}\n',
            "docs/guide.md": "A guide naming `exampleHelper`.\n",
            "docs/examples/demo.py": "def example_helper():\n    return 1\n",
            "docs/notes.txt": "prose\n",
            "docs/cards/post-gate2.json": '{"token": "exampleHelper"}\n',
            "_posts/2026-01-01-a.md": "A post.\n",
            "_posts/tool.py": "x = 1\n",
        },
    )
    commit = resolve_commit(repo, "HEAD")
    index = open_index(repo, commit, tmp_path / "cache", ("packages/leak", "docs"))
    assert set(index.text_paths) == {
        "packages/leak/src/index.ts",
        "packages/leak/package.json",
        "docs/examples/demo.py",
    }
    assert "packages/leak/README.md" in index.paths  # listed, so a post may still cite it
