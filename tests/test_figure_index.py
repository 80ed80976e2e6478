"""evidence/figure_index.py: the lookups that replace gate 7's text scans for figures with a
space or a sign ("5 ms", "40%", "1,000 tokens") and for length bounds (".length > 100")
answer exactly what the index's scans (``contains``, ``files_containing``, ``locate``)
answer, on random texts and random spellings, in any order of questions."""

from __future__ import annotations

import itertools
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.figure_index import FigureIndex, split_figure
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.evidence.word_table import Postings
from tests.helpers import make_repo, repo_context


def _index_of(texts: list[str]) -> RepoIndex:
    """A RepoIndex over ``texts`` (files f0, f1, ...) laid out as the build lays it out:
    each file's bytes then a NUL, the word postings built by the build's own code."""
    postings_of = Postings()
    offsets, chunks, position = [], [], 0
    for file_id, text in enumerate(texts):
        content = text.encode("utf-8")
        offsets.append(position)
        chunks.append(content + b"\0")
        position += len(content) + 1
        postings_of.add(file_id, content)
    words, postings, starts = postings_of.arrays()
    reversed_words = [word[::-1] for word in words]
    order = sorted(range(len(words)), key=reversed_words.__getitem__)
    paths = [f"f{n}.txt" for n in range(len(texts))]
    return RepoIndex(
        root=Path("."),
        commit="0" * 40,
        paths=paths,
        text_paths=paths,
        offsets=offsets,
        text=b"".join(chunks),
        words=words,
        postings=postings,
        posting_starts=starts,
        commits=[],
        tags=[],
        changelog_path=None,
        changelog="",
        messages="",
        reversed_words=[reversed_words[i] for i in order],
        reversed_ids=array("I", order),
    )


def _scan(texts: list[str], token: str) -> list[tuple[str, int]]:
    """The plain answer: every file holding ``token``, with its first occurrence's byte
    offset."""
    return [
        (f"f{n}.txt", len(text[: text.index(token)].encode("utf-8")))
        for n, text in enumerate(texts)
        if token in text
    ]


# Pieces of texts and spellings: digits, separators, units with and without a space, and
# the words and signs around them.
TEXT_PIECES = ["0", "1", "5", "10", "00", " ", "%", "ms", " ms", "s", " s", "\u00d7", "x", ",",
               ".", "-", "\n", "a", "K", " tokens", "5 ms", "1,000", "40%", "(", ")"]  # fmt: skip
NEEDLE_HEADS = ["", "a ", "1,", "0.", "1.", "x", "-", "(", "%", "\u00d7"]
NEEDLE_DIGITS = ["0", "1", "5", "10", "00", "000", "15", "40"]
NEEDLE_RESTS = [" ms", "%", " %", " s", "\u00d7", " \u00d7", " tokens", " K", ",", ".", " ", "-",
                "% a", " ms,", ")", "-x"]  # fmt: skip

texts_strategy = st.lists(
    st.lists(st.sampled_from(TEXT_PIECES), max_size=30).map("".join), min_size=1, max_size=6
)
figures_strategy = st.tuples(
    st.sampled_from(NEEDLE_HEADS), st.sampled_from(NEEDLE_DIGITS), st.sampled_from(NEEDLE_RESTS)
).map("".join)


def test_split_takes_the_last_digit_run_and_a_rest_of_a_space_or_sign() -> None:
    assert split_figure(b"5 ms") == (b"", b"5", b" ms")
    assert split_figure(b"1,000 ms") == (b"1,", b"000", b" ms")
    assert split_figure(b"a 10% cache") == (b"a ", b"10", b"% cache")
    assert split_figure(b"40\xc3\x97") == (b"", b"40", b"\xc3\x97")
    # No rest, a rest starting with a letter (the index's words narrow those), a newline.
    assert split_figure(b"100") is None
    assert split_figure(b"2.5ms") is None
    assert split_figure(b"5 ms\n") is None
    assert split_figure(b"ms") is None


@settings(max_examples=300, deadline=None)
@given(texts=texts_strategy, questions=st.lists(figures_strategy, min_size=1, max_size=10))
def test_figure_lookups_answer_as_the_index_scans(texts: list[str], questions: list[str]) -> None:
    """Every answer (repeats and shared rests included, in the order asked) is the
    index's own scan's and the plain scan's."""
    index = _index_of(texts)
    figures = FigureIndex(index)
    for token in questions + questions[::-1]:
        if not figures.handles(token.encode("utf-8")):
            continue
        expected = _scan(texts, token)
        assert list(index.files_containing(token, limit=100)) == expected, token
        assert figures.files_containing(token, limit=100) == expected, token
        assert figures.files_containing(token, limit=2) == expected[:2], token
        assert figures.contains(token) == index.contains(token) == bool(expected), token
        assert figures.locate(token) == index.locate(token), token


BOUND_ANCHORS = [".length > ", ".length >= ", "slice(0, "]
bound_texts = st.lists(
    st.lists(
        st.sampled_from([*BOUND_ANCHORS, "1", "10", "0", ")", " ", "\n", ".length", "x"]),
        max_size=20,
    ).map("".join),
    min_size=1,
    max_size=5,
)


@settings(max_examples=200, deadline=None)
@given(
    texts=bound_texts,
    questions=st.lists(
        st.tuples(st.sampled_from(BOUND_ANCHORS), st.sampled_from(["1", "10", "100", "10)"])),
        min_size=1,
        max_size=8,
    ),
)
def test_anchored_lookups_answer_as_the_index_scans(
    texts: list[str], questions: list[tuple[str, str]]
) -> None:
    index = _index_of(texts)
    figures = FigureIndex(index)
    for anchor, tail in questions:
        # The shorter anchor ".length " serves every comparison, as find_bound asks.
        for asked in (anchor, anchor[: len(".length ")] if anchor.startswith(".") else anchor):
            token = anchor + tail
            expected = _scan(texts, token)
            assert figures.files_containing_after(asked, token, limit=100) == expected, token
            assert list(index.files_containing(token, limit=100)) == expected, token


def test_anchor_must_begin_the_token() -> None:
    figures = FigureIndex(_index_of(["x"]))
    with pytest.raises(ValueError):
        figures.files_containing_after("slice(0, ", ".length > 1")


FILES = {
    "src/a.ts": "const TIMEOUT = 5 ms; // 15 ms, 1,000 ms, 0.5 ms\nratio 40% and 5 %\n",
    "docs/b.md": "5 ms first\n2\u00d7 faster, 12 \u00d7 slower\nx.length > 100 && s.slice(0, 3)\n",
    "docs/c.md": "ends with 5 ms",
    "d/e.txt": "5 ms\n10%\n.length >= 1000\n",
}


@pytest.fixture(scope="module")
def real_index(tmp_path_factory: pytest.TempPathFactory) -> RepoIndex:
    """An index built by the build itself, from a git repository."""
    tmp_path = tmp_path_factory.mktemp("figures")
    repo = make_repo(tmp_path / "repo", FILES)
    return repo_context(repo, tmp_path / "cache").evidence.index_for(repo / "x.md")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(questions=st.lists(figures_strategy, min_size=1, max_size=8))
def test_on_a_built_index_the_answers_are_its_scans(
    real_index: RepoIndex, questions: list[str]
) -> None:
    figures = FigureIndex(real_index)
    texts = [real_index.file_text(path) or "" for path in real_index.text_paths]
    for token in itertools.chain(questions, ["5 ms", "1,000 ms", "40%", "2\u00d7", "5 %"]):
        if figures.handles(token.encode("utf-8")):
            expected = [
                (real_index.text_paths[n], offset)
                for n, text in enumerate(texts)
                if token in text
                for offset in [len(text[: text.index(token)].encode("utf-8"))]
            ]
            assert figures.files_containing(token, limit=100) == expected, token
            assert list(real_index.files_containing(token, limit=100)) == expected, token
    assert [path for path, _ in figures.files_containing("5 ms")] == [
        "d/e.txt",
        "docs/b.md",
        "docs/c.md",
        "src/a.ts",
    ]
