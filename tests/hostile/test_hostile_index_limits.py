"""The repository index has a size bound per file: a file over it is indexed by name only
(its text is never read, so one huge file cannot cost minutes and gigabytes), and the index
and gate 2's card say which files those are. (A 95 MB text file cost 50 s and 2.8 GB; the
bound is made small here instead of writing one.)"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from pytest_postgates.evidence import index as index_module
from pytest_postgates.evidence.index import open_index
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

BOUND = 64 * 1024


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(index_module, "MAX_INDEXED_FILE_BYTES", BOUND, raising=False)
    huge = "".join(f"const generatedName{n} = {n};\n" for n in range(40_000))  # ~1.2 MB
    assert len(huge) > 10 * BOUND
    return make_repo(
        tmp_path / "repo",
        {
            "src/app.ts": "export function realFunction() {}\n",
            "data/huge.js": huge + "export function onlyInHugeFile() {}\n",
        },
    )


def test_a_file_over_the_bound_is_indexed_by_name_only(repo: Path, tmp_path: Path) -> None:
    commit = git(repo, "rev-parse", "HEAD").strip()
    tracemalloc.start()
    try:
        index = open_index(repo, commit, tmp_path / "cache")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # the 1.2 MB file was never read
    assert index.by_name_only == ["data/huge.js"]
    assert index.is_file("data/huge.js")  # still a path a post may cite
    assert "data/huge.js" not in index.text_paths
    assert not index.contains("onlyInHugeFile")
    assert index.contains("realFunction")
    # Loaded again from the cache folder: the list is kept.
    assert open_index(repo, commit, tmp_path / "cache").by_name_only == ["data/huge.js"]


def test_gate_2_card_names_the_files_indexed_by_name_only(repo: Path, tmp_path: Path) -> None:
    post = make_post(FRONT_MATTER + "Call `realFunction()` and `onlyInHugeFile()`.\n", tmp_path)
    # Every token a claim (the seeds' way), so that only the index can ground it.
    context = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=True)
    card = gate.GATE.evaluate(post, context)
    assert card.detail["indexed_by_name_only"] == ["data/huge.js"]
    # Its text was never read: the name is not grounded.
    assert [u["token"] for u in card.detail["ungrounded"]] == ["onlyInHugeFile()"]


def test_text_past_the_total_bound_is_indexed_by_name_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many files each under the per-file bound: the whole text has a bound of its own (the
    # build's memory and time follow it), and the files past it are listed by name only.
    monkeypatch.setattr(index_module, "MAX_INDEXED_TOTAL_BYTES", 3300, raising=False)
    files = {f"src/part{n:02d}.ts": f"export const name{n} = '{'x' * 1000}';\n" for n in range(6)}
    repo = make_repo(tmp_path / "many", files)
    commit = git(repo, "rev-parse", "HEAD").strip()
    index = open_index(repo, commit, tmp_path / "cache")
    assert index.by_name_only == ["src/part03.ts", "src/part04.ts", "src/part05.ts"]
    assert index.contains("name2") and not index.contains("name4")
