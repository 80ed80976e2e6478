"""The index's fixed-string searches (evidence/substring.py) answer exactly what the plain
searches answer: ``Haystack.find`` what ``bytes.find`` does, over an mmap and over bytes,
on spans above and below the size where it calls the C library; ``TextProbe`` what ``in``
does on the text."""

from __future__ import annotations

import mmap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence import substring
from pytest_postgates.evidence.substring import Haystack, TextProbe

# Pieces that make near misses likely: shared words around different punctuation.
PIECES = ["all", "true", "name", ".", "-", "(", ")", " ", "é", "_", "a", "\u2192", ":"]
needles = st.lists(st.sampled_from(PIECES), min_size=1, max_size=5).map("".join)
texts = st.lists(st.sampled_from(PIECES), min_size=0, max_size=200).map("".join)


def test_the_c_library_search_is_used_here() -> None:
    """On this platform the native search is in use (else the tests below would only
    check bytes.find against itself)."""
    if substring._MEMMEM is None:
        pytest.skip("no memmem in this C library: Haystack falls back to bytes.find")
    haystack = Haystack(b"x" * 5000 + b"needle")
    assert haystack._address
    assert haystack.find(b"needle") == 5000


@pytest.fixture(scope="module")
def mapped(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, mmap.mmap]:
    """A text of about 20 kB, mapped as the index maps its text."""
    block = "const all = { name: true, text: 'é' }; -a (x) \u2192 all_true\n"
    data = (block * 300 + "tail.name(true)\0next-file all\n").encode()
    path = tmp_path_factory.mktemp("haystack") / "text.bin"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        return data, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    needle=needles,
    start=st.integers(min_value=0, max_value=25000),
    length=st.one_of(
        st.integers(min_value=0, max_value=40), st.integers(min_value=0, max_value=25000)
    ),
)
def test_find_agrees_with_bytes_find_on_the_mapped_text(
    mapped: tuple[bytes, mmap.mmap], needle: str, start: int, length: int
) -> None:
    data, text = mapped
    encoded = needle.encode()
    haystack = Haystack(text)
    for end in (start + length, None):
        assert haystack.find(encoded, start, end) == data.find(encoded, start, end), (start, end)


@settings(max_examples=200, deadline=None)
@given(text=texts, needle=needles, copies=st.integers(min_value=1, max_value=40))
def test_find_agrees_with_bytes_find_on_bytes(text: str, needle: str, copies: int) -> None:
    """Over bytes (the distinct words), long enough that the native search runs."""
    data = (text * copies).encode() + needle.encode()[:-1]
    haystack = Haystack(data)
    encoded = needle.encode()
    assert haystack.find(encoded) == data.find(encoded)
    assert haystack.find(encoded, len(data) // 3) == data.find(encoded, len(data) // 3)


def test_find_at_the_edges(tmp_path: Path) -> None:
    data = b"a" * 4096 + b"needle"
    haystack = Haystack(data)
    assert haystack.find(b"needle") == 4096
    assert haystack.find(b"needle", 0, len(data) - 1) == -1  # ends one byte short
    assert haystack.find(b"needle", 4097) == -1
    assert haystack.find(b"needle", 0, 10**9) == 4096  # an end past the text is the end
    assert haystack.find(b"aaneedle", 4094, len(data)) == 4094
    assert Haystack(b"").find(b"x") == -1


@settings(max_examples=300, deadline=None)
@given(text=texts, needle=needles)
def test_probe_agrees_with_in(text: str, needle: str) -> None:
    probe = TextProbe(text)
    assert (needle in probe) == (needle in text)
    # A needle cut out of the text is found, whatever its edges cut through.
    if len(text) > 4:
        inner = text[1:-2]
        assert inner in probe


def test_probe_rules_out_by_words_and_falls_back_on_lone_surrogates() -> None:
    probe = TextProbe("- Removed `--max-tokens` from generate()\n- Added stream()\n")
    assert not probe.may_hold(b"--max-token-count")  # "token" is no whole word of it
    assert not probe.may_hold(b"zzz.generate")  # "zzz" is part of no word
    assert probe.may_hold(b"max-tokens")
    assert "ed `--max-tokens` from gen" in probe
    assert "Removed stream()" not in probe
    assert "\ud800" not in probe  # cannot be encoded: the plain search answers


# ---------------------------------------------------------------------- occurrences

OCCURRENCE_FILES: dict[str, str | bytes] = {
    "a.md": "--max é--max-x max--max\u2192--max_y (--max) --max--max\n",
    "b.bin.txt": b"\xe9--max\xff--max\xc3--max\xe2\x82--max\xf0\x9f\x98\x80--max\n",
    "c.txt": "naïve--maxé x--max-\n" * 3,
}
OCCURRENCE_PIECES = ["--max", "max", "-", "x", "é", "\u2192", "(", ")", "_y", " "]


@pytest.fixture(scope="module")
def occurrence_index(tmp_path_factory: pytest.TempPathFactory) -> object:
    from pytest_postgates.evidence.index import open_index
    from pytest_postgates.evidence.repo import resolve_commit
    from tests.helpers import make_repo

    root = make_repo(tmp_path_factory.mktemp("occurrences"), OCCURRENCE_FILES)
    return open_index(root, resolve_commit(root, "HEAD"), tmp_path_factory.mktemp("cache"))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    token=st.lists(st.sampled_from(OCCURRENCE_PIECES), min_size=1, max_size=3).map("".join),
    limit=st.integers(min_value=1, max_value=4),
)
def test_occurrences_are_what_finditer_finds_in_the_decoded_files(
    occurrence_index: object, token: str, limit: int
) -> None:
    import re

    from pytest_postgates.evidence.index import RepoIndex

    assert isinstance(occurrence_index, RepoIndex)
    index = occurrence_index
    expected = []
    for path, _offset in index.files_containing(token, limit=limit):
        data = index.file_text(path) or ""
        for match in re.finditer(re.escape(token), data):
            before = data[match.start() - 1] if match.start() else ""
            after = data[match.end()] if match.end() < len(data) else ""
            expected.append((path, before, after))
    assert list(index.occurrences(token, limit=limit)) == expected
