"""A repository index restored from a cache folder without ``POSTGATES_CACHE_KEY`` is
checked against git (its paths and each searched file's blob id), but its word table is
derived from that text and is not: a forger who adds an invented word to the table (and
its file list) between two runs must not get gate 2 to ground the invented name. Every
positive answer of the word table is confirmed against the verified text before it counts
(evidence/word_table.py); an honest index answers exactly as before."""

from __future__ import annotations

import itertools
import json
import random
import re
from array import array
from pathlib import Path

import pytest

from pytest_postgates.evidence import index as index_module
from pytest_postgates.evidence.index import RepoIndex, load_index_files, open_index
from pytest_postgates.gates import symbol_grounding
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

KEY_ENV = "POSTGATES_CACHE_KEY"
INVENTED = "inventedWidgetFactory"
SOURCES: dict[str, str | bytes] = {
    "src/app.ts": "export function realFunction() {}\nexport const retryLimit = 3;\n",
    "src/widget.ts": "export class Widget {\n  render(): void {}\n}\n",
    "docs/notes.txt": "The widget renders once; realFunction is called first.\n",
}


@pytest.fixture
def real(tmp_path: Path) -> tuple[Path, str]:
    repo = make_repo(tmp_path / "real", SOURCES)
    return repo, git(repo, "rev-parse", "HEAD").strip()


def index_folder(cache: Path, commit: str) -> Path:
    return cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"


def plant_words(folder: Path, root: Path, planted: dict[str, list[str]]) -> None:
    """Rewrite the word table of a built index folder as a forger who knows the format
    would: ``planted`` maps a word to the paths whose word lists it is added to (the text
    itself, which git's blob ids vouch for, is left as it is)."""
    index = load_index_files(root, folder)
    words_of: dict[bytes, set[int]] = {}
    for file_id in range(len(index.text_paths)):
        for word in set(re.findall(rb"[A-Za-z0-9_]+", index.file_bytes(file_id))):
            words_of.setdefault(word, set()).add(file_id)
    for word, paths in planted.items():
        ids = {index.text_paths.index(path) for path in paths}
        words_of.setdefault(word.encode(), set()).update(ids)
    words = sorted(words_of)
    lists = [sorted(words_of[word]) for word in words]
    starts = array("I", [0])
    starts.extend(itertools.accumulate(map(len, lists)))
    (folder / "words.bin").write_bytes(b"\n".join(words))
    (folder / "postings.bin").write_bytes(array("I", itertools.chain(*lists)).tobytes())
    (folder / "posting_starts.bin").write_bytes(starts.tobytes())
    backwards = [word[::-1] for word in words]
    order = sorted(range(len(words)), key=backwards.__getitem__)
    (folder / "reversed.bin").write_bytes(b"\n".join(backwards[i] for i in order))
    (folder / "reversed_ids.bin").write_bytes(array("I", order).tobytes())


def gate_2(root: Path, cache: Path, body: str, tmp_path: Path) -> tuple[str, list[str]]:
    """One run of gate 2 (a fresh context, as a new pytest run makes) over one post."""
    post = make_post(FRONT_MATTER + body, tmp_path)
    # Every token a claim (the seeds' mode): the point is the index, not the anchoring.
    context = repo_context(root, cache, symbol_unanchored_claims=True)
    card = symbol_grounding.GATE.evaluate(post, context)
    return card.verdict, [u["token"] for u in card.detail["ungrounded"]]


def test_a_word_planted_in_an_unkeyed_index_between_two_runs_grounds_nothing(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    root, commit = real
    cache = tmp_path / "cache"
    body = f"Call `realFunction()` and then `{INVENTED}()`.\n"
    first = gate_2(root, cache, body, tmp_path)
    assert first == ("FAIL", [f"{INVENTED}()"])
    # Between the runs (a restored CI cache): the invented word joins app.ts's word list.
    folder = index_folder(cache, commit)
    text_inode = (folder / "text.bin").stat().st_ino
    plant_words(folder, root, {INVENTED: ["src/app.ts"]})
    assert gate_2(root, cache, body, tmp_path) == first
    # Not by rebuilding the index: the planted folder was loaded (its text passes git's
    # check) and its lie was caught where it was asked.
    assert (folder / "text.bin").stat().st_ino == text_inode


def test_every_planted_answer_is_checked_against_the_text(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole words, prefixes, suffixes and inner parts of planted words, and a real word
    planted into a file that does not hold it (the 'same file' member rule reads that)."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    root, commit = real
    cache = tmp_path / "cache"
    open_index(root, commit, cache)
    plant_words(
        index_folder(cache, commit),
        root,
        {INVENTED: ["src/app.ts"], "zzPlanted": ["src/widget.ts"], "render": ["src/app.ts"]},
    )
    index = open_index(root, commit, cache)
    assert index.has_word("zzPlanted") is False  # the table holds it
    assert not index.has_word(INVENTED) and not index.contains(INVENTED)
    for part in ("inventedWidget", "WidgetFactory", "tedWidgetFac", "zzPlan", "Planted"):
        assert not index.contains(part), part
    app, widget = (index.text_paths.index(p) for p in ("src/app.ts", "src/widget.ts"))
    assert list(index.files_with_words(b"render")) == [widget]
    assert list(index.files_with_words(b"realFunction", b"render")) == []
    assert app in index.files_with_word(b"render")  # the table's word, not evidence
    # Real words still answer as they are.
    assert index.has_word("Widget") and index.contains("Widget") and index.contains("idge")
    assert index.has_word("render") and index.contains("realFunc")
    assert list(index.files_with_words(b"realFunction")) == sorted(
        index.text_paths.index(p) for p in ("src/app.ts", "docs/notes.txt")
    )


def brute_contains(index: RepoIndex, token: str) -> bool:
    needle = token.encode()
    return any(needle in index.file_bytes(i) for i in range(len(index.text_paths)))


def brute_has_word(index: RepoIndex, word: str, file_id: int | None = None) -> bool:
    pattern = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(word.encode()) + rb"(?![A-Za-z0-9_])")
    files = range(len(index.text_paths)) if file_id is None else [file_id]
    return any(pattern.search(index.file_bytes(i)) for i in files)


def test_an_honest_index_answers_as_its_text(tmp_path: Path) -> None:
    """No false 'absent' from the check: on an index nobody touched, every answer (words,
    their prefixes, suffixes and inner parts, near misses) is what a scan of the text
    gives, and the files of each word are all confirmed."""
    generator = random.Random(25)
    alphabet = "abcXYZ_01"
    files: dict[str, str | bytes] = {
        f"src/f{n}.ts": " ".join(
            "".join(generator.choice(alphabet) for _ in range(generator.randint(1, 7)))
            + generator.choice(["", ".", "()", "-", "\n"])
            for _ in range(60)
        )
        for n in range(6)
    }
    root = make_repo(tmp_path / "repo", files)
    commit = git(root, "rev-parse", "HEAD").strip()
    index = open_index(root, commit, tmp_path / "cache")
    tokens = {w.decode() for w in index.words}
    for spelling in list(tokens):
        tokens.update({spelling[1:], spelling[:-1], spelling[1:-1], spelling + "Z", "q" + spelling})
    tokens.update("".join(generator.choice(alphabet) for _ in range(3)) for _ in range(300))
    tokens.discard("")
    for token in sorted(tokens):
        assert index.contains(token) == brute_contains(index, token), token
        assert index.has_word(token) == brute_has_word(index, token), token
    for word in index.words:
        holding = [
            i for i in range(len(index.text_paths)) if brute_has_word(index, word.decode(), i)
        ]
        assert list(index.files_with_words(word)) == holding == sorted(index.files_with_word(word))


def test_with_a_cache_key_a_sealed_index_is_loaded_and_grounds_as_before(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    root, commit = real
    cache = tmp_path / "cache"
    body = f"Call `realFunction()`, `Widget.render()` and then `{INVENTED}()`.\n"
    first = gate_2(root, cache, body, tmp_path)
    assert first == ("FAIL", [f"{INVENTED}()"])
    folder = index_folder(cache, commit)
    inode = (folder / "text.bin").stat().st_ino
    assert gate_2(root, cache, body, tmp_path) == first
    assert (folder / "text.bin").stat().st_ino == inode  # loaded under its seal, not rebuilt
    # A word planted under a key breaks the seal: the index is rebuilt, the name still fails.
    plant_words(folder, root, {INVENTED: ["src/app.ts"]})
    assert gate_2(root, cache, body, tmp_path) == first
    assert json.loads((folder / "seal.json").read_text())["commit"] == commit
