"""The repository index: built once per (repository, commit, index version), cached on disk.

It answers, without running git per question:

- tracked paths, with ``git ls-files`` pathspec semantics (file, folder, glob),
- fixed-string content search over tracked text files, with ``git grep -I -F`` semantics
  (case-sensitive byte substring; files git treats as binary never match),
- commit ids (for SHA tokens), tags, the CHANGELOG, recent commit messages, and the text of
  any tracked text file at the commit.

Which files are text is decided by git's own rule for ``git grep -I`` (the ``diff``
attribute as ``git check-attr`` reads it, then a NUL in the first 8,000 bytes; see
``evidence/blobs.py``), so attributes decide exactly as they do for ``git grep``. The index
is built at the commit (``git ls-tree``/``git cat-file``), not from the working tree.

Substring search is exact but rarely scans: a token is split into runs of ASCII word
characters; every inner run must be a whole word of the repository, the first a suffix and
the last a prefix of one. A token made of one run is present exactly when it is a substring
of some word, which is answered from the (much smaller) list of distinct words. Only tokens
that pass these tests are confirmed against the full text, where ``find`` stops at the first
occurrence. The word table is never evidence by itself: each yes it gives is confirmed in
the text (evidence/word_table.py), so a planted word grounds nothing.
"""

from __future__ import annotations

import bisect
import fnmatch
import hashlib
import json
import mmap
import os
import re
import shutil
import tempfile
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_postgates import signing
from pytest_postgates.evidence.blobs import ObjectProbe, regular_files, text_files
from pytest_postgates.evidence.changelog import CHANGELOG_NAME, changelog_of
from pytest_postgates.evidence.index_seal import is_sealed, matches_tree, write_seal
from pytest_postgates.evidence.repo import GitError, git
from pytest_postgates.evidence.substring import Haystack, TextProbe
from pytest_postgates.evidence.word_table import Postings, WordCheck, collector_paused
from pytest_postgates.fileio import locked

INDEX_VERSION = 6  # 6: an excluded folder keeps its code and manifests
# A tracked file larger than this is indexed by name only: its path is listed (a post may
# cite it) but its text is not searched. One 95 MB text file cost 50 s and 2.8 GB to index.
MAX_INDEXED_FILE_BYTES = 4 * 1024 * 1024
MAX_INDEXED_TOTAL_BYTES = 512 * 1024 * 1024
COMMIT_MESSAGE_LIMIT = 2000
_WORD_RUN = re.compile(rb"[A-Za-z0-9_]+")
_GLOB = re.compile(r"[*?\[]")
# A run of a token whose words number more than this is not used to pick the files to scan.
_MAX_RUN_WORDS = 2000
_MAX_FIRST_RUN_WORDS = 20000  # the most selective run, when even it is this common


@dataclass
class RepoIndex:
    root: Path
    commit: str
    paths: list[str]
    text_paths: list[str]
    offsets: list[int]  # start of each text file in ``text``; files are NUL-separated
    text: bytes | mmap.mmap
    words: list[bytes]  # sorted distinct ASCII word runs of all text files
    postings: array[int]  # file ids of each word, word after word (see posting_starts)
    posting_starts: array[int]  # postings[posting_starts[i]:posting_starts[i + 1]] -> words[i]
    commits: list[str]  # sorted full ids of every commit reachable from any ref
    tags: list[str]
    changelog_path: str | None
    changelog: str
    messages: str
    # Files over MAX_INDEXED_FILE_BYTES whose text is not searched (gate 2 says so).
    by_name_only: list[str] = field(default_factory=list)
    _path_set: set[str] = field(default_factory=set, repr=False)
    _dirs: set[str] = field(default_factory=set, repr=False)
    _basenames: dict[str, str] = field(default_factory=dict, repr=False)
    reversed_words: list[bytes] = field(default_factory=list, repr=False)  # sorted, each reversed
    # Word ids in reversed-word order (see reversed_words).
    reversed_ids: array[int] = field(default_factory=lambda: array("I"), repr=False)
    _words_blob: bytes = b""
    _text_index: dict[str, int] = field(default_factory=dict, repr=False)
    _answers: dict[str, bool] = field(default_factory=dict, repr=False)  # token -> contains()
    _words_found: dict[bytes, bool] = field(default_factory=dict, repr=False)  # -> has_word()
    _memos: dict[str, dict[Any, Any]] = field(default_factory=dict, repr=False)
    _range_files: dict[tuple[str, int, int], frozenset[int]] = field(
        default_factory=dict, repr=False
    )
    _candidates: dict[bytes, frozenset[int] | None] = field(default_factory=dict, repr=False)
    _haystack: Haystack = field(init=False, repr=False)
    _words_haystack: Haystack = field(init=False, repr=False)
    _sizes: list[int] = field(default_factory=list, repr=False)  # bytes of each text file
    _check: WordCheck = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._path_set = set(self.paths)
        for path in self.paths:
            parts = path.split("/")
            for depth in range(1, len(parts)):
                self._dirs.add("/".join(parts[:depth]))
            self._basenames.setdefault(parts[-1], path)
        self._words_blob = b"\n" + b"\n".join(self.words) + b"\n"
        self._text_index = {path: i for i, path in enumerate(self.text_paths)}
        self._haystack = Haystack(self.text)
        self._words_haystack = Haystack(self._words_blob)
        ends = [*self.offsets[1:], len(self.text)]
        self._sizes = list(map(int.__sub__, ends, self.offsets))
        self._check = WordCheck(self.text, self._haystack, self.offsets, self._sizes)

    def memo(self, table: str) -> dict[Any, Any]:
        """A table named ``table`` for answers computed from this index alone, kept as
        long as the index: the index never changes once loaded, so a caller may remember
        what it derived from it across posts."""
        return self._memos.setdefault(table, {})

    def in_changelog(self, text: str) -> bool:
        """``text in self.changelog``: most tokens asked are not in it, and its words rule
        them out without a scan of the whole CHANGELOG."""
        return text in self._probe("changelog", self.changelog)

    def in_messages(self, text: str) -> bool:
        """``text in self.messages`` (the recent commit messages), as ``in_changelog``."""
        return text in self._probe("messages", self.messages)

    def _probe(self, name: str, text: str) -> TextProbe:
        probes: dict[str, TextProbe] = self.memo("text_probes")
        probe = probes.get(name)
        if probe is None or probe.text is not text:
            probe = probes[name] = TextProbe(text)
        return probe

    # ------------------------------------------------------------------ paths
    def match_path(self, spec: str) -> str | None:
        """The first tracked path a ``git ls-files -- SPEC`` would list, or None."""
        spec = spec.removeprefix("./")
        if not spec:
            return None
        if spec in self._path_set:
            return spec
        folder = spec.rstrip("/")
        if folder in self._dirs:
            return folder + "/"
        if _GLOB.search(spec):
            # Pathspec wildcards match across "/" (git's default, non-:(glob) magic). A
            # scan of every path: remembered, and matched by the compiled pattern that
            # fnmatchcase would compile.
            globbed = self.memo("match_path")
            if spec not in globbed:
                matches = re.compile(fnmatch.translate(spec)).match
                globbed[spec] = next((path for path in self.paths if matches(path)), None)
            found: str | None = globbed[spec]
            return found
        return None

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a tracked file at the commit (no pathspec magic)."""
        return path in self._path_set

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a folder holding tracked files at the commit."""
        return path.rstrip("/") in self._dirs

    def match_filename(self, name: str) -> str | None:
        """A tracked path whose last component is ``name`` (a glob: matches it), as
        ``git ls-files -- '*/NAME'`` would find."""
        exact = self._basenames.get(name)
        if exact is not None or not _GLOB.search(name):
            return exact
        return next((p for b, p in self._basenames.items() if fnmatch.fnmatchcase(b, name)), None)

    # ------------------------------------------------------------------ content
    def contains(self, token: str) -> bool:
        """Whether ``git grep -I -F -- TOKEN`` at the commit would match anything."""
        known = self._answers.get(token)
        if known is None:
            known = self._answers[token] = self._contains(token)
        return known

    def _contains(self, token: str) -> bool:
        needle = token.encode("utf-8")
        if not needle or b"\n" in needle or b"\0" in needle:
            return False
        runs = [(m.start(), m.end()) for m in _WORD_RUN.finditer(needle)]
        if len(runs) == 1 and runs[0] == (0, len(needle)):
            # One run of word characters: present iff it is a substring of some word (a
            # word the table says holds it, confirmed in the text of that word's files).
            word = self._word_holding(needle)
            if word is None:
                return False
            return self._check.has_substring(needle, self._by_size(self._files_of([word])))
        files = self._candidate_files(needle, runs)
        find = self._haystack.find
        if files is None:
            return find(needle) >= 0
        starts, sizes = self.offsets, self._sizes
        return any(
            find(needle, starts[file], starts[file] + sizes[file]) >= 0
            for file in self._by_size(files)
        )

    def _candidate_files(self, needle: bytes, runs: list[tuple[int, int]]) -> frozenset[int] | None:
        """The text files that can hold ``needle`` (a token with punctuation), from the
        words around it: inner runs of word characters are whole words, the first run ends
        a word, the last starts one. None: the words rule nothing out (scan everything).

        Each run's words are a necessary condition, so intersecting any of them never loses
        a file; runs are taken most selective first, while they are cheap to expand and
        the candidates are still many. Remembered per needle (a token is looked up by
        ``contains`` and again by ``files_containing`` or ``contains_outside``)."""
        if needle not in self._candidates:
            self._candidates[needle] = self._narrow(needle, runs)
        return self._candidates[needle]

    def _narrow(self, needle: bytes, runs: list[tuple[int, int]]) -> frozenset[int] | None:
        ranges: list[tuple[int, str, int, int]] = []  # (number of words, kind, low, high)
        for start, end in runs:
            run = needle[start:end]
            if start > 0 and end < len(needle):
                word = self._word_id(run)
                if word is None:
                    return frozenset()
                ranges.append((1, "word", word, word + 1))
            elif start == 0 and end < len(needle):
                low, high = self._suffix_range(run)
                ranges.append((high - low, "suffix", low, high))
            elif start > 0 and end == len(needle):
                low, high = self._prefix_range(run)
                ranges.append((high - low, "prefix", low, high))
        if any(size == 0 for size, *_ in ranges):
            return frozenset()
        files: frozenset[int] | None = None
        for size, kind, low, high in sorted(ranges):
            # A short partial run ("c" of "sh -c") matches a huge share of the words: it
            # rules out little and costs a large union.
            if files is None and size > _MAX_FIRST_RUN_WORDS:
                break
            if files is not None and (size > _MAX_RUN_WORDS or len(files) <= 8):
                break
            found = self._files_of_range(kind, low, high)
            files = found if files is None else files & found
            if not files:
                return files
        return files

    def _spans(self, files: Iterable[int]) -> Iterator[tuple[int, int]]:
        """(start, end) byte ranges of ``text`` covering ``files``, neighbours merged into
        one range (a needle holds no NUL, so a match never spans two files)."""
        offsets, size = self.offsets, len(self.text)
        ordered = sorted(files)
        if not ordered:
            return
        first = previous = ordered[0]
        for file_id in ordered[1:]:
            if file_id != previous + 1:
                yield offsets[first], offsets[previous + 1]
                first = file_id
            previous = file_id
        yield offsets[first], offsets[previous + 1] if previous + 1 < len(offsets) else size

    def _by_size(self, files: Iterable[int]) -> list[int]:
        """``files`` in the order to scan them for a yes/no answer, shortest first: a token
        that is there is found in fewer bytes (on the NeuroLink posts, 224 MB instead of
        1.5 GB for the tokens found; the bundles and lock files most candidate sets hold
        come last). One file at a time: sorting by a key is done in C, where merging
        neighbouring files into spans first cost more Python than the calls it saved."""
        return sorted(files, key=self._sizes.__getitem__)

    def _files_of_range(self, kind: str, low: int, high: int) -> frozenset[int]:
        """The files of a slice of ``words`` (``kind`` "word" or "prefix") or of
        ``reversed_words`` ("suffix"), remembered: posts repeat runs (``true`` of
        ``all: true`` and ``text: true``), and a short run's union is large."""
        key = (kind, low, high)
        files = self._range_files.get(key)
        if files is None:
            ids = list(self.reversed_ids[low:high]) if kind == "suffix" else range(low, high)
            files = self._range_files[key] = frozenset(self._files_of(ids))
        return files

    def _files_of(self, word_ids: Iterable[int]) -> set[int]:
        files: set[int] = set()
        starts, postings = self.posting_starts, self.postings
        for word in word_ids:
            files.update(postings[starts[word] : starts[word + 1]])
        return files

    def _word_id(self, word: bytes) -> int | None:
        i = bisect.bisect_left(self.words, word)
        return i if i < len(self.words) and self.words[i] == word else None

    def _word_holding(self, run: bytes) -> int | None:
        """The id of a word of the table that holds ``run`` (a run of word characters):
        the word itself, one it starts or ends, else one it is inside of."""
        word = self._word_id(run)
        if word is not None:
            return word
        low, high = self._prefix_range(run)
        if low < high:
            return low
        low, high = self._suffix_range(run)
        if low < high:
            return self.reversed_ids[low]
        # An inner part of a word: a scan of the distinct words (about 1 MB), needed by
        # few tokens (a trigram filter before it saved less than it cost to load).
        at = self._words_haystack.find(run)
        return None if at < 0 else self._words_blob.count(b"\n", 0, at) - 1

    def _prefix_range(self, run: bytes) -> tuple[int, int]:
        """The slice of ``words`` that start with ``run``."""
        low = bisect.bisect_left(self.words, run)
        return low, bisect.bisect_left(self.words, run + b"\xff", low)

    def _suffix_range(self, run: bytes) -> tuple[int, int]:
        """The slice of ``_reversed`` (words read backwards) that end with ``run``."""
        reversed_run = run[::-1]
        low = bisect.bisect_left(self.reversed_words, reversed_run)
        return low, bisect.bisect_left(self.reversed_words, reversed_run + b"\xff", low)

    # ------------------------------------------------------------------ words and files
    def has_word(self, word: str) -> bool:
        """Whether ``word`` (ASCII word characters) is a whole word of some text file."""
        needle = word.encode("utf-8")
        known = self._words_found.get(needle)
        if known is None:
            word_id = self._word_id(needle) if _WORD_RUN.fullmatch(needle) else None
            known = word_id is not None and self._check.has_whole_word(
                needle, self._by_size(self._files_of([word_id]))
            )
            self._words_found[needle] = known
        return known

    def files_with_word(self, word: bytes) -> set[int]:
        """Ids of the text files the word table lists for ``word``: where to look for it,
        never evidence that it is there (see files_with_words)."""
        word_id = self._word_id(word)
        return set() if word_id is None else self._files_of([word_id])

    def files_with_words(self, *words: bytes) -> Iterator[int]:
        """Ids of the text files holding each of ``words`` (ASCII word characters) as a
        whole word, ascending; each file the table names is confirmed in its text."""
        ids = [self._word_id(word) if _WORD_RUN.fullmatch(word) else None for word in words]
        known = [word_id for word_id in ids if word_id is not None]
        if not known or len(known) < len(words):
            return
        files = set.intersection(*(self._files_of([word_id]) for word_id in known))
        for file_id in sorted(files):
            if all(self._check.whole_word_in(word, file_id) for word in words):
                yield file_id

    def file_bytes(self, file_id: int) -> bytes:
        last = file_id + 1 >= len(self.offsets)
        end = len(self.text) - 1 if last else self.offsets[file_id + 1] - 1
        return bytes(self.text[self.offsets[file_id] : end])

    def search_file(self, pattern: re.Pattern[bytes], file_id: int) -> re.Match[bytes] | None:
        """``pattern.search(self.file_bytes(file_id))`` without copying the file, for a
        pattern with no anchor or lookbehind (it sees only the file's bytes either way)."""
        last = file_id + 1 >= len(self.offsets)
        end = len(self.text) - 1 if last else self.offsets[file_id + 1] - 1
        return pattern.search(self.text, self.offsets[file_id], end)

    def _search_spans(self, needle: bytes) -> list[tuple[int, int]]:
        """Byte ranges of ``text`` outside which ``needle`` cannot occur."""
        runs = [(m.start(), m.end()) for m in _WORD_RUN.finditer(needle)]
        if not runs or (len(runs) == 1 and runs[0] == (0, len(needle))):
            return [(0, len(self.text))]
        files = self._candidate_files(needle, runs)
        if files is None:
            return [(0, len(self.text))]
        return list(self._spans(files)) if files else []

    def contains_outside(self, token: str, path: str) -> bool:
        """Whether a text file other than ``path`` holds ``token`` (an exact scan of the
        text before and after that file)."""
        needle = token.encode("utf-8")
        file_id = self._text_index.get(path)
        find = self._haystack.find
        if file_id is None:
            return find(needle) >= 0
        start = self.offsets[file_id]
        end = self.offsets[file_id + 1] if file_id + 1 < len(self.offsets) else len(self.text)
        return any(
            find(needle, low, min(high, start)) >= 0 or find(needle, max(low, end), high) >= 0
            for low, high in sorted(self._search_spans(needle), key=_span_size)
        )

    def files_containing(self, token: str, limit: int = 64) -> Iterator[tuple[str, int]]:
        """(path, offset in that file) of the first occurrence of ``token`` in each text
        file holding it, in index order, at most ``limit`` files (an exact scan of the
        files that can hold it, jumping to the next file after each hit)."""
        needle = token.encode("utf-8")
        if not needle or not self.contains(token):
            return
        found = 0
        for low, high in self._search_spans(needle):
            position = low
            while found < limit:
                position = self._haystack.find(needle, position, high)
                if position < 0:
                    break
                file_id = bisect.bisect_right(self.offsets, position) - 1
                yield self.text_paths[file_id], position - self.offsets[file_id]
                found += 1
                position = (
                    self.offsets[file_id + 1] if file_id + 1 < len(self.offsets) else len(self.text)
                )
            if found >= limit:
                return

    def occurrences(self, token: str, limit: int = 16) -> Iterator[tuple[str, str, str]]:
        """(path, character before, character after) of each occurrence of ``token`` in
        the first ``limit`` text files holding it, in index order, left to right and not
        overlapping within a file: what ``re.finditer`` finds in each file's decoded text,
        read from the bytes around each occurrence instead of decoding whole files ("" at
        a file's start or end). For a token without U+FFFD (which the decoded text holds
        where the bytes are not UTF-8): UTF-8 is self-synchronising, so the token's bytes
        occur exactly where the decoded text holds the token."""
        needle = token.encode("utf-8")
        text, find = self.text, self._haystack.find
        for path, offset in self.files_containing(token, limit):
            file_id = self._text_index[path]
            start = self.offsets[file_id]
            end = start + self._sizes[file_id] - 1  # the NUL after the file excluded
            position = start + offset
            while position >= 0:
                before = bytes(text[max(start, position - 4) : position])
                tail = position + len(needle)
                after = bytes(text[tail : min(end, tail + 4)])
                yield (
                    path,
                    before.decode("utf-8", "replace")[-1:],
                    after.decode("utf-8", "replace")[:1],
                )
                position = find(needle, tail, end)

    def locate(self, token: str) -> str | None:
        """The first text file containing ``token`` (a slower, exact scan)."""
        needle = token.encode("utf-8")
        position = self._haystack.find(needle) if needle else 0
        if position < 0:
            return None
        return self.text_paths[bisect.bisect_right(self.offsets, position) - 1]

    def file_text(self, path: str) -> str | None:
        """Text of a tracked text file at the commit, or None (absent or binary)."""
        index = self._text_index.get(path.removeprefix("./"))
        if index is None:
            return None
        start = self.offsets[index]
        end = self.offsets[index + 1] - 1 if index + 1 < len(self.offsets) else len(self.text) - 1
        return bytes(self.text[start:end]).decode("utf-8", "replace")

    # ------------------------------------------------------------------ objects
    def commit_for(self, sha: str) -> str | None:
        """The full id of the commit an (abbreviated, lower-case) SHA names, if exactly one."""
        i = bisect.bisect_left(self.commits, sha)
        if i < len(self.commits) and self.commits[i].startswith(sha):
            unique = i + 1 >= len(self.commits) or not self.commits[i + 1].startswith(sha)
            return self.commits[i] if unique else None
        return None

    def object_exists(self, sha: str) -> bool:
        """``git cat-file -e SHA``: commits from the index, other objects asked of git."""
        if self.commit_for(sha):
            return True
        if not re.fullmatch(r"[0-9a-f]{4,64}", sha):
            return False
        probes = self.memo("objects")
        if "probe" not in probes:
            probes["probe"] = ObjectProbe(self.root)
        probe: ObjectProbe = probes["probe"]
        return probe.exists(f"{sha}^{{object}}")


def _span_size(span: tuple[int, int]) -> int:
    return span[1] - span[0]


# ---------------------------------------------------------------------- building


def _run(root: Path, *args: str) -> bytes:
    return git(root, *args).stdout


# What a folder of posts keeps as evidence: code and manifests (a README gated in its package).
KEPT_SUFFIXES = (".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".py", ".pyi")
KEPT_NAMES = frozenset({"package.json", "pyproject.toml", "setup.cfg", "tsconfig.json"})


def is_excluded(path: str, exclude: tuple[str, ...]) -> bool:
    """Whether a tracked path is blog content rather than evidence: any ``_posts`` folder,
    or a file other than code or a manifest in a folder named in ``exclude``."""
    if "_posts" in path.split("/")[:-1]:
        return True
    if path.lower().endswith(KEPT_SUFFIXES) or path.rsplit("/", 1)[-1] in KEPT_NAMES:
        return False
    return any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in exclude)


def build_index_files(
    root: Path,
    commit: str,
    target: Path,
    exclude: tuple[str, ...] = (),
    max_file_bytes: int | None = None,
) -> None:
    """Write the index of ``root`` at ``commit`` into the (new, empty) folder ``target``.

    Posts are never their own evidence: the text of files under ``_posts`` folders (and
    the ``exclude`` folders) is left out of content search, so a post that lives in the
    repository it describes cannot ground an invented name on itself. Their paths stay
    listed, so a post may still cite another post's file."""
    listing = _run(root, "ls-tree", "-r", "-z", "-l", "--full-tree", commit).split(b"\0")
    paths: list[str] = []
    rows: list[tuple[str, str, str, str]] = []
    sizes: dict[str, int] = {}
    for entry in listing:
        if not entry:
            continue
        entry_meta, _, raw_path = entry.partition(b"\t")
        path = raw_path.decode("utf-8", "surrogateescape")
        paths.append(path)
        mode, kind, sha, size = entry_meta.decode().split()
        rows.append((mode, kind, sha, path))
        sizes[path] = int(size) if size.isdigit() else 0
    # The files git grep -I searches, read once (see evidence/blobs.py); a huge one is
    # never read at all (listed by name only).
    limit = max_file_bytes if max_file_bytes is not None else MAX_INDEXED_FILE_BYTES
    # A bound on the whole text too: the build's memory and time grow with it, so a
    # repository of many mid-sized files cannot cost what one huge file did. Files past it
    # (in path order, so the cut is the same on every machine) are indexed by name only.
    room = MAX_INDEXED_TOTAL_BYTES
    candidates = []
    by_name_only = []
    for path, sha in regular_files(rows):
        if is_excluded(path, exclude):
            continue
        if sizes[path] > limit or sizes[path] > room:
            by_name_only.append(path)
        else:
            room -= sizes[path]
            candidates.append((path, sha))
    text_paths: list[str] = []
    offsets: list[int] = []
    position = 0
    postings_of = Postings()
    named_like_changelog: dict[str, str] = {}  # root files with a changelog's name
    with open(target / "text.bin", "wb") as text_file, collector_paused():
        for file_id, (path, content) in enumerate(text_files(root, candidates)):
            if "/" not in path and CHANGELOG_NAME.match(path):
                named_like_changelog[path] = content.decode("utf-8", "replace")
            text_paths.append(path)
            offsets.append(position)
            text_file.write(content)
            text_file.write(b"\0")
            position += len(content) + 1
            postings_of.add(file_id, content)
        sorted_words, postings, starts = postings_of.arrays()
    (target / "postings.bin").write_bytes(postings.tobytes())
    (target / "posting_starts.bin").write_bytes(starts.tobytes())
    (target / "words.bin").write_bytes(b"\n".join(sorted_words))
    reversed_words = [word[::-1] for word in sorted_words]
    order = sorted(range(len(sorted_words)), key=reversed_words.__getitem__)
    (target / "reversed.bin").write_bytes(b"\n".join(map(reversed_words.__getitem__, order)))
    (target / "reversed_ids.bin").write_bytes(array("I", order).tobytes())
    (target / "paths.bin").write_bytes("\0".join(paths).encode("utf-8", "surrogateescape"))
    commits, tags, messages = read_history(root, commit)
    changelog_path = changelog_of(text_paths, named_like_changelog.get)
    (target / "messages.txt").write_text(messages, encoding="utf-8")
    meta = {
        "version": INDEX_VERSION,
        "commit": commit,
        "text_paths": text_paths,
        "offsets": offsets,
        "commits": commits,
        "tags": tags,
        "changelog_path": changelog_path,
        "by_name_only": by_name_only,
    }
    (target / "meta.json").write_text(json.dumps(meta), encoding="utf-8")


def read_history(root: Path, commit: str) -> tuple[list[str], list[str], str]:
    """Every commit id reachable from a ref (and ``commit``), sorted; the tags; the
    messages of the last COMMIT_MESSAGE_LIMIT commits up to ``commit``, NUL-separated."""
    commits = sorted(set(_run(root, "rev-list", "--all").decode().split()) | {commit})
    tags = _run(root, "tag", "--list").decode("utf-8", "replace").split()
    messages = _run(
        root, "log", f"-n{COMMIT_MESSAGE_LIMIT}", "--format=%B%x00", commit, "--"
    ).decode("utf-8", "replace")
    return commits, tags, messages


def load_index_files(root: Path, folder: Path) -> RepoIndex:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    with open(folder / "text.bin", "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        # mmap shares the pages between xdist workers; an empty file cannot be mapped.
        text: bytes | mmap.mmap = (
            mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY) if size else b""
        )
    words_raw = (folder / "words.bin").read_bytes()
    paths_raw = (folder / "paths.bin").read_bytes().decode("utf-8", "surrogateescape")
    index = RepoIndex(
        root=root,
        commit=meta["commit"],
        paths=paths_raw.split("\0") if paths_raw else [],
        text_paths=meta["text_paths"],
        offsets=meta["offsets"],
        text=text,
        words=words_raw.split(b"\n") if words_raw else [],
        postings=_load_array(folder / "postings.bin"),
        reversed_words=_split_lines(folder / "reversed.bin"),
        reversed_ids=_load_array(folder / "reversed_ids.bin"),
        posting_starts=_load_array(folder / "posting_starts.bin"),
        commits=meta["commits"],
        tags=meta["tags"],
        changelog_path=meta["changelog_path"],
        by_name_only=list(meta.get("by_name_only", [])),
        changelog="",
        messages=(folder / "messages.txt").read_text(encoding="utf-8"),
    )
    # Read again, not taken from meta.json: an index built before a name alone stopped
    # making a CHANGELOG (evidence/changelog.py) must not keep a site's news page as one.
    index.changelog_path = changelog_of(index.text_paths, index.file_text)
    if index.changelog_path:
        index.changelog = index.file_text(index.changelog_path) or ""
    return index


def _split_lines(path: Path) -> list[bytes]:
    raw = path.read_bytes()
    return raw.split(b"\n") if raw else []


def _load_array(path: Path) -> array[int]:
    values = array("I")
    values.frombytes(path.read_bytes())
    return values


def open_index(
    root: Path, commit: str, cache_dir: Path, exclude: tuple[str, ...] = ()
) -> RepoIndex:
    """The index of ``root`` at ``commit``, built at most once per cache folder: the first
    process to ask builds it under a lock, every other one waits and loads it. The key
    holds the index version, the commit and the settings that shape the index."""
    exclude = tuple(sorted(set(exclude)))
    key = hashlib.sha1("\0".join(exclude).encode()).hexdigest()[:8] if exclude else "all"
    name = f"index-v{INDEX_VERSION}-{commit}-{key}"
    folder = cache_dir / name
    if (folder / "meta.json").is_file():
        index = _load_checked(root, folder, commit, exclude)
        if index is not None:
            return index
    with locked(cache_dir / f"{name}.lock"):
        if (folder / "meta.json").is_file():
            # Another process may have built it while this one waited for the lock.
            index = _load_checked(root, folder, commit, exclude)
            if index is not None:
                return index
        # Absent, or corrupt (a torn copy, a disk error, a hand edit): rebuilt, so that one
        # bad cache folder does not ERROR every run until --cache-clear.
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        _remove_stale_staging(cache_dir, name)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=cache_dir))
        try:
            build_index_files(root, commit, staging, exclude)
            write_seal(staging, commit)
            os.replace(staging, folder)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return load_index_files(root, folder)


def _load_checked(
    root: Path, folder: Path, commit: str, exclude: tuple[str, ...]
) -> RepoIndex | None:
    """The index in ``folder`` if every file is there, consistent and genuine, else None."""
    try:
        index = load_index_files(root, folder)
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError):
        return None
    text_size = len(index.text)
    consistent = (
        len(index.offsets) == len(index.text_paths)
        and len(index.posting_starts) == len(index.words) + 1
        and (not index.posting_starts or index.posting_starts[-1] == len(index.postings))
        and len(index.reversed_ids) == len(index.reversed_words) == len(index.words)
        and all(0 <= offset <= text_size for offset in index.offsets[-1:])
        and (not index.postings or max(index.postings) < len(index.text_paths))
        and (not index.reversed_ids or max(index.reversed_ids) < len(index.words))
        and index.commit == commit
        # Posts are never searched (their blob ids are git's: the text check lets them by).
        and not any(is_excluded(path, exclude) for path in index.text_paths)
    )
    if not consistent:
        return None
    # Planted or edited (a restored cache folder): not this commit's index (index_seal.py).
    if signing.cache_secret() is not None:
        genuine = is_sealed(folder, commit)
    else:
        texts = (index.file_bytes(file_id) for file_id in range(len(index.text_paths)))
        genuine = matches_tree(root, commit, index.paths, index.text_paths, texts)
        if genuine:
            # Nothing vouches for the history the folder holds (ids, tags and messages
            # ground SHA, version and phrase tokens): git's, read again (about 0.1 s).
            try:
                index.commits, index.tags, index.messages = read_history(root, commit)
            except GitError:
                return None
            index.changelog_path = changelog_of(index.text_paths, index.file_text)
            index.changelog = index.file_text(index.changelog_path or "") or ""
    return index if genuine else None


def _remove_stale_staging(cache_dir: Path, name: str) -> None:
    """Staging folders left by a build that was killed: the caller holds ``name``'s lock,
    so its own are stale; another index's are stale when nobody holds that index's lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: only this index's leftovers
        fcntl = None  # type: ignore[assignment]
    for staging in cache_dir.glob(".index-v*.*"):
        if not staging.is_dir():
            continue
        owner = staging.name[1:].rsplit(".", 1)[0]
        if owner == name:
            shutil.rmtree(staging, ignore_errors=True)
            continue
        if fcntl is None:
            continue
        try:
            with open(cache_dir / f"{owner}.lock", "a+b") as handle:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                try:
                    shutil.rmtree(staging, ignore_errors=True)
                finally:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        except OSError:  # locked: that build is running
            continue
