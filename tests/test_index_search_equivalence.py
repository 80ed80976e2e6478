"""The index's speed-ups answer exactly what the plain searches answer: the remembered
answers and candidate sets (any order of questions, asked again), the shortest-first scan
order, and gate 2's option-name search tried only at the name's occurrences."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.index import RepoIndex, open_index
from pytest_postgates.evidence.repo import resolve_commit
from pytest_postgates.helpers.grounding_rules import _matches_at_occurrence
from tests.helpers import make_repo

# Files of very different sizes, so that shortest-first and index order differ, sharing
# words ("true", "name", "all") around different punctuation.
FILES = {
    "a/big.js": "const all = { text: true, name: 'x' };\n" * 400 + "tail: false; -c\n",
    "a/small.ts": "export const all: true = options.name ?? '-a';\n",
    "b/mid.md": "Use `sh -c` or `--max-tokens=5`; all: true\n" * 20,
    "b/other.txt": "name: value\ntext: truer\ncall: trueValue\n",
    "c/lock.yaml": "packages:\n  /name@1.2.0:\n    resolution: {integrity: sha512-abc}\n" * 50,
    "c/empty.txt": "",
    "d/unicode.md": "café: true, naïve-name: 'é'\n",
}
PIECES = ["all", "true", "name", "text", ": ", ".", "-", "'", "-a", "c", " ", "=", "{", "é"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("speedups")
    make_repo(root, FILES)
    return root, list(FILES.values())


def _fresh_index(root: Path, cache: Path) -> RepoIndex:
    return open_index(root, resolve_commit(root, "HEAD"), cache)


def _git_grep(root: Path, token: str) -> bool:
    result = subprocess.run(
        ["git", "-C", str(root), "grep", "-I", "-q", "-F", "-e", token, "HEAD"], check=False
    )
    assert result.returncode in (0, 1), token
    return result.returncode == 0


tokens = st.lists(st.sampled_from(PIECES), min_size=1, max_size=5).map("".join)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(questions=st.lists(tokens, min_size=1, max_size=8))
def test_remembered_answers_agree_with_git_grep_in_any_order(
    repo: tuple[Path, list[str]], tmp_path_factory: pytest.TempPathFactory, questions: list[str]
) -> None:
    """A fresh index asked a random sequence of questions (repeats included, the three
    searches interleaved) answers each as git grep and a scan of every file do."""
    root, _ = repo
    index = _fresh_index(root, tmp_path_factory.mktemp("cache"))
    texts = {path: index.file_text(path) or "" for path in index.text_paths}
    for token in questions + questions[::-1]:
        assert index.contains(token) == _git_grep(root, token), token
        expected = [
            (path, len(text[: text.index(token)].encode()))
            for path, text in texts.items()
            if token in text
        ]
        assert list(index.files_containing(token, limit=100)) == expected, token
        for path in index.text_paths:
            outside = any(token in text for other, text in texts.items() if other != path)
            assert index.contains_outside(token, path) == outside, (token, path)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["name", "max-tokens", "all", "é", "a"]),
    text=st.lists(
        st.sampled_from(
            ["name", "max-tokens", "all", "é", "a", '"', "'", ":", " ", "-", "x", "\n"]
        ),
        max_size=12,
    ).map("".join),
)
def test_option_name_matched_at_occurrences_as_a_search_would(name: str, text: str) -> None:
    """Gate 2's option-name pattern holds the name at or one character after the start of
    every match, so trying it only there answers what a search of the whole text does."""
    pattern = re.compile(rf"""(?:["']{re.escape(name)}["']|(?<![\w-]){re.escape(name)}\s*:)""")
    assert _matches_at_occurrence(pattern, name, text) == (pattern.search(text) is not None)
