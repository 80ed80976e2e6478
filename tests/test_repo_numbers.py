"""evidence/repo_numbers.py: the run-wide answers stated_nearby keeps are the index's own
(the files writing a figure, in index order, at most STATED_FILES_LIMIT)."""

from __future__ import annotations

import pytest

from pytest_postgates.evidence.repo_numbers import STATED_FILES_LIMIT, RepositoryNumbers
from tests.helpers import make_repo, repo_context


@pytest.fixture(scope="module")
def numbers(tmp_path_factory: pytest.TempPathFactory) -> RepositoryNumbers:
    tmp_path = tmp_path_factory.mktemp("numbers")
    files = {
        "src/a.ts": "const DELAY = 15ms; // 5msec\n",
        "src/b.ts": "poll every 5ms\nx5ms_y\n",
        "docs/c.md": "It takes 5 ms, or 2s, or 40%.\n",
        "tests/t.test.ts": "expect(5ms)\n",
        "CHANGELOG.md": "- 5ms faster\n",
        "src/end.ts": "5ms",
    }
    # More files than the limit hold "2s": the first ones by index order are kept.
    files.update(
        {f"src/many/f{n:03}.ts": f"wait 2s ({n})\n" for n in range(STATED_FILES_LIMIT + 9)}
    )
    repo = make_repo(tmp_path / "repo", files)
    index = repo_context(repo, tmp_path / "cache").evidence.index_for(repo / "x.md")
    return RepositoryNumbers(index)


def test_files_stating_a_word_run_are_the_index_scans_files(numbers: RepositoryNumbers) -> None:
    index = numbers.index
    for spelling in ("5ms", "ms", "2s", "5msec", "x5ms_y", "15ms", "40", "9ms", "5", "DELAY"):
        expected = [
            path for path, _offset in index.files_containing(spelling, limit=STATED_FILES_LIMIT)
        ]
        holding = [index.text_paths[i] for i in numbers._files_holding(spelling.encode())]
        assert holding == expected, spelling
    assert len(numbers._files_holding(b"2s")) == STATED_FILES_LIMIT


def test_files_stating_leave_out_tests_generated_files_and_the_changelog(
    numbers: RepositoryNumbers,
) -> None:
    assert numbers._files_stating("5ms") == ["src/a.ts", "src/b.ts", "src/end.ts"]
    assert numbers._files_stating("5 ms") == ["docs/c.md"]
    assert numbers._files_stating("40%") == ["docs/c.md"]
    assert numbers._files_stating("7ms") == []


def test_lines_stating_a_figure_are_whole_figures_on_short_lines(
    numbers: RepositoryNumbers,
) -> None:
    # "15ms" and "5msec" are other figures; "x5ms_y" is inside a word.
    assert numbers._lines_stating("5ms", "src/a.ts") == []
    assert numbers._lines_stating("5ms", "src/b.ts") == [0]
    assert numbers._lines_stating("5ms", "src/end.ts") == [0]
