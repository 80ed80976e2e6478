"""Numbers the repository's text holds at the ref, found near what a sentence names: a
constant beside a named symbol, in the file of a named class, named in words, a figure the
docs write in the sentence's words, a length bound in the code, a file's line count, and
(through :class:`CommitStats`) the diffstats and copy scores of a commit.

Plain arguments: a :class:`RepoIndex`, numbers and word sets; nothing here knows a post.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_postgates.evidence.commits import CommitStats
from pytest_postgates.evidence.figure_index import FigureIndex

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex

from pytest_postgates.helpers.code_values import (
    LONGEST_CODE_LINE,
    code_literals,
    literal_forms,
    literal_matches,
    stems_meet,
)
from pytest_postgates.helpers.numbers import (
    content_words,
    normalise_number,
)

# How many files may hold a symbol's name before it is too common to place a number near.
SYMBOL_FILES_LIMIT = 40


STATED_FILES_LIMIT = 60  # files read for one "number unit" the repository writes


STATED_WEIGHT = 6.0  # summed idf of the shared words: two uncommon ones, or one rare


TOPIC_WEIGHT = 5.0  # the same, for a file whose path the post's topic names


DISTINCTIVE_FILES_LIMIT = 400


# Keys that name no setting of their own: the value belongs to the block they sit in.
GENERIC_KEYS = frozenset({"default", "value", "limit", "size", "amount", "count"})


SYMBOL_WINDOW = 3  # lines either side of the symbol's line


_WORD_CHARS = re.compile(rb"[A-Za-z0-9_]+")


# Test files: their numbers are fixtures, not the product's constants.
_TESTS = r"(?:^|/)(?:test|tests|__tests__|spec)/|\.(?:test|spec)\.\w+$"


GENERATED = re.compile(
    r"(?:^|/)(?:dist|build|out|action-dist|vendor|node_modules)/|\.(?:map|min\.js|lock)$|"
    r"(?:^|/)(?:package-lock\.json|pnpm-lock\.yaml|yarn\.lock)$",
    re.I,
)


NOT_EVIDENCE = re.compile(f"{GENERATED.pattern}|{_TESTS}", re.I)


@lru_cache(maxsize=4096)
def _whole_figure(spelling: str) -> re.Pattern[str]:
    """``spelling`` as a whole figure: not inside a longer number or word."""
    return re.compile(rf"(?<![\w.,]){re.escape(spelling)}(?![\w])")


class RepositoryNumbers:
    """Numbers standing near a named symbol in the repository's text files at the ref:
    the constants a post quotes when it describes the code ("polls every 3 seconds" next
    to `POLL_INTERVAL_MS`, whose definition reads ``3_000``)."""

    @classmethod
    def shared(
        cls, index: RepoIndex | None, memo: dict[object, object]
    ) -> RepositoryNumbers | None:
        """One per index for the run (``memo``: the run's memo): what it learns of the
        repository's text (which files write a figure, their lines) serves every post."""
        if index is None:
            return None
        key = ("numerical_claims.repository_numbers", id(index))
        numbers = memo.get(key)
        if not isinstance(numbers, cls) or numbers.index is not index:
            numbers = memo[key] = cls(index)
        return numbers

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._lines: dict[int, list[str]] = {}
        self.commits = CommitStats(index.root)
        # stated_nearby's answers that do not depend on the sentence, kept for the run
        # (one object serves every post): the evidence files writing a spelling, the
        # lines of each file that write it, a line's window of content words.
        self._stated_files: dict[str, list[str]] = {}
        self._stated_lines: dict[tuple[str, str], list[int]] = {}
        self._holding_lines: dict[tuple[int, str], list[int]] = {}
        self._ids_of_paths: dict[str, int] | None = None
        self._windows: dict[tuple[str, int], set[str]] = {}
        self._texts: dict[str, str] = {}
        self._split: dict[str, list[str]] = {}
        self._path_words: dict[str, set[str]] = {}
        # The index's words joined ("\n" around each) and where each starts, built on
        # first use: the words holding a run of word characters are found in it.
        self._words_blob: bytes | None = None
        self._word_starts: list[int] = []
        # Spellings with a space or a sign ("5 ms", "40%"), whose words narrow nothing.
        self.figures = FigureIndex(index)

    def _file_ids(self, word: str, limit: int = SYMBOL_FILES_LIMIT) -> list[int] | None:
        words = self.index.words
        key = word.encode()
        position = bisect.bisect_left(words, key)
        if position >= len(words) or words[position] != key:
            return []
        starts = self.index.posting_starts
        ids = list(self.index.postings[starts[position] : starts[position + 1]])
        return ids if len(ids) <= limit else None

    def _file_lines(self, file_id: int) -> list[str]:
        lines = self._lines.get(file_id)
        if lines is None:
            text = self.index.file_text(self.index.text_paths[file_id]) or ""
            lines = self._lines[file_id] = text.split("\n")
        return lines

    def windows(self, token: str) -> Iterator[tuple[str, int, list[tuple[int, str]]]]:
        """(path, line of the symbol, window lines) for each place ``token`` occurs."""
        # Candidate files: those holding the token's rarest word run.
        # A token distinctive as a whole ("lm-studio", "grok-3") may be made of common
        # words: its files are confirmed by a byte search before they are read.
        limit = DISTINCTIVE_FILES_LIMIT if re.search(r"[-_\d]", token) else SYMBOL_FILES_LIMIT
        file_ids: list[int] | None = None
        for run in re.findall(r"[A-Za-z0-9_]{3,}", token):
            ids = self._file_ids(run, limit)
            if ids is not None and (file_ids is None or len(ids) < len(file_ids)):
                file_ids = ids
        if not file_ids:
            return
        needle = token.encode("utf-8")
        offsets, blob = self.index.offsets, self.index.text
        bounded = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w-])")
        for file_id in file_ids:
            path = self.index.text_paths[file_id]
            if NOT_EVIDENCE.search(path) or path == self.index.changelog_path:
                continue
            stop = offsets[file_id + 1] if file_id + 1 < len(offsets) else len(blob)
            if blob.find(needle, offsets[file_id], stop) < 0:
                continue
            lines = self._file_lines(file_id)
            for number, text in enumerate(lines):
                if token not in text or not bounded.search(text):
                    continue
                low, high = (
                    max(0, number - SYMBOL_WINDOW),
                    min(len(lines), number + SYMBOL_WINDOW + 1),
                )
                yield (
                    self.index.text_paths[file_id],
                    number + 1,
                    [(n + 1, lines[n]) for n in range(low, high)],
                )

    def find(
        self, symbols: list[str], number: float, family: str, sentence_words: set[str]
    ) -> str | None:
        """Where the number stands near one of ``symbols``, as ``path:line (`symbol`)``.

        The value's key (the identifier it is assigned or passed to) must share a word
        with the symbol on the symbol's own line (``MAX_TTL_SECONDS = 3600``), or with
        the sentence (``pollIntervalMs: 3000`` for "polls every 3 seconds"); a one-digit
        value only counts on the symbol's line."""
        for symbol in symbols:
            symbol_words = content_words(symbol)
            for path, symbol_line, window in self.windows(symbol):
                for line, text in window:
                    for literal in code_literals(text):
                        rule = literal_matches(literal.value, number, family)
                        if rule is None:
                            continue
                        if line == symbol_line:
                            if not literal.key_words & (symbol_words | sentence_words):
                                continue
                        elif literal.value < 10 or not (
                            literal.key_words & sentence_words
                            # The symbol's own value on the line below it
                            # ("lm-studio": { _default: 8_192 }).
                            or (0 < line - symbol_line <= 2 and literal.key_words <= GENERIC_KEYS)
                        ):
                            continue
                        return f"{path}:{line} (near `{symbol}`, {literal.written.strip()} {rule})"
        return None

    def find_in_named_file(
        self, symbols: list[str], number: float, family: str, sentence_words: set[str]
    ) -> str | None:
        """A constant anywhere in the file a named class or module lives in (`BeatovenMusic`
        -> ``BeatovenMusic.ts``), keyed by a word of the sentence (``POLL_INTERVAL_MS =
        3_000`` for "polls every 3 seconds")."""
        for symbol in symbols:
            stem = symbol.rsplit("/", 1)[-1].split(".", 1)[0]
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{3,}", stem):
                continue
            path = self._module_path(stem)
            if path is None or NOT_EVIDENCE.search(path):
                continue
            text = self.index.file_text(path) or ""
            # The class's own name is in every constant of its file: it links nothing.
            linking = sentence_words - content_words(symbol)
            for line, code in enumerate(text.split("\n"), 1):
                for literal in code_literals(code):
                    if literal_matches(literal.value, number, family) is None:
                        continue
                    if literal.key_words & linking and literal.value >= 1:
                        return (
                            f"{path}:{line} (in the file of `{symbol}`, "
                            f"{literal.written.strip()} keyed by "
                            f"{', '.join(sorted(literal.key_words & linking))})"
                        )
        return None

    def _module_path(self, stem: str) -> str | None:
        for extension in ("ts", "tsx", "js", "mjs", "py", "go", "rs"):
            found = self.index.match_filename(f"{stem}.{extension}")
            if found:
                return found
        return None

    def find_by_name(self, number: float, family: str, sentence_words: set[str]) -> str | None:
        """A constant whose name the sentence spells out in words: "a hard maximum of
        200,000 characters per retrieval" and ``MAX_RETRIEVAL_LIMIT = 200_000``. The
        value must have three digits or more and its key share two words with the
        sentence."""
        for literal_value in literal_forms(number, family):
            if literal_value < 100 or literal_value != int(literal_value):
                continue
            integer = int(literal_value)
            spellings = {str(integer), f"{integer:_}"}
            for spelling in spellings:
                file_ids = self._file_ids(spelling)
                if not file_ids:
                    continue
                for file_id in file_ids:
                    path = self.index.text_paths[file_id]
                    if NOT_EVIDENCE.search(path) or path == self.index.changelog_path:
                        continue
                    lines = self._file_lines(file_id)
                    for line_index in self._lines_holding(file_id, spelling):
                        text, number_line = lines[line_index], line_index + 1
                        for literal in code_literals(text):
                            shared = literal.key_words & sentence_words
                            if literal.value == literal_value and len(shared) >= 2:
                                return (
                                    f"{path}:{number_line} ({literal.written.strip()}, named "
                                    f"by the sentence's words {', '.join(sorted(shared))})"
                                )
        return None

    def stated_nearby(
        self,
        number: str,
        unit: str,
        value: float,
        sentence: set[str],
        near: set[str],
        topic: set[str],
        excerpt: str,
    ) -> str | None:
        """Where a text file writes ``number unit`` (with or without the space, digit
        separators either way) on a line that, with its neighbours, says it in the
        sentence's words: two or more shared content words (three for a one-digit
        number) rare enough in the repository to link the two (their inverse document
        frequencies add up to STATED_WEIGHT); or, in a file the post's topic names
        (``livekit/config.ts`` for a post on LiveKit), shared with ``near`` (the
        paragraph). A file holding ``excerpt`` (a copy of the post) cites
        nothing."""
        plain = normalise_number(number)
        grouped = f"{int(value):,}" if value == int(value) else plain
        spellings = dict.fromkeys(
            f"{n}{gap}{unit}" for n in (number, plain, grouped) for gap in ("", " ")
        )
        needed = 3 if value < 10 else 2
        for spelling in spellings:
            for path in self._files_stating(spelling):
                text = self._text(path)
                if excerpt and excerpt in text:
                    continue
                path_words = self._path_words.get(path)
                if path_words is None:
                    path_words = self._path_words[path] = content_words(path)
                on_topic = stems_meet(path_words, topic)
                for number_line in self._lines_stating(spelling, path):
                    window = self._windows.get((path, number_line))
                    if window is None:
                        lines = self._split.get(path)
                        if lines is None:
                            lines = self._split[path] = text.split("\n")
                        window = self._windows[(path, number_line)] = content_words(
                            " ".join(lines[max(0, number_line - 1) : number_line + 2])
                        )
                    for shared, weight in (
                        (window & sentence, STATED_WEIGHT),
                        (window & near if on_topic else set(), TOPIC_WEIGHT),
                    ):
                        if len(shared) >= needed and self._weight(shared) >= weight:
                            return (
                                f"{path}:{number_line + 1} writes {spelling!r} (shared words: "
                                f"{', '.join(sorted(shared)[:3])})"
                            )
        return None

    def _files_stating(self, spelling: str) -> list[str]:
        """The evidence files (not tests, generated files or the CHANGELOG) among the first
        STATED_FILES_LIMIT text files holding ``spelling``, in index order."""
        known = self._stated_files.get(spelling)
        if known is None:
            needle = spelling.encode("utf-8")
            if _WORD_CHARS.fullmatch(needle):
                text_paths = self.index.text_paths
                holding = [text_paths[file_id] for file_id in self._files_holding(needle)]
            elif self.figures.handles(needle):
                holding = [
                    path
                    for path, _offset in self.figures.files_containing(
                        spelling, limit=STATED_FILES_LIMIT
                    )
                ]
            elif self.index.contains(spelling):
                holding = [
                    path
                    for path, _offset in self.index.files_containing(
                        spelling, limit=STATED_FILES_LIMIT
                    )
                ]
            else:
                holding = []
            known = self._stated_files[spelling] = [
                path
                for path in holding
                if not NOT_EVIDENCE.search(path) and path != self.index.changelog_path
            ]
        return known

    def _files_holding(self, needle: bytes) -> list[int]:
        """The first STATED_FILES_LIMIT text files (by id, the order of
        ``files_containing``) holding ``needle``, a run of word characters: every
        occurrence lies inside one word of its file, so they are the files of the words
        that hold it, found in the words rather than in the whole text."""
        if self._words_blob is None:
            words = self.index.words
            self._words_blob = b"\n" + b"\n".join(words) + b"\n"
            # words[i] starts at self._word_starts[i] (1 + the lengths before, plus "\n"s).
            self._word_starts = list(
                itertools.accumulate(map((1).__add__, map(len, words)), initial=1)
            )
        blob, starts = self._words_blob, self._word_starts
        word_ids: set[int] = set()
        at = blob.find(needle)
        while at >= 0:
            word = bisect.bisect_right(starts, at) - 1
            word_ids.add(word)
            # The next word starts after this one's "\n": go on from there.
            at = blob.find(needle, starts[word + 1] if word + 1 < len(starts) else len(blob))
        if not word_ids:
            return []
        postings, posting_starts = self.index.postings, self.index.posting_starts
        files: set[int] = set()
        for word in word_ids:
            files.update(postings[posting_starts[word] : posting_starts[word + 1]])
        return sorted(files)[:STATED_FILES_LIMIT]

    def _lines_holding(self, file_id: int, spelling: str) -> list[int]:
        """0-based numbers of the lines of a text file holding ``spelling`` (no newline in
        it), ascending: the lines a scan of every line keeps, found by searching the
        file's text and jumping to the next line after each hit."""
        key = (file_id, spelling)
        known = self._holding_lines.get(key)
        if known is None:
            text = self._text(self.index.text_paths[file_id])
            known = []
            line, counted = 0, 0
            at = text.find(spelling)
            while at >= 0:
                line += text.count("\n", counted, at)
                counted = at
                known.append(line)
                end = text.find("\n", at)
                at = text.find(spelling, end + 1) if end >= 0 else -1
            self._holding_lines[key] = known
        return known

    def _text_ids(self) -> dict[str, int]:
        """Text path -> its id in the index."""
        if self._ids_of_paths is None:
            self._ids_of_paths = {path: n for n, path in enumerate(self.index.text_paths)}
        return self._ids_of_paths

    def _text(self, path: str) -> str:
        known = self._texts.get(path)
        if known is None:
            known = self._texts[path] = self.index.file_text(path) or ""
        return known

    def _lines_stating(self, spelling: str, path: str) -> list[int]:
        """0-based numbers of the lines of ``path`` (none longer than LONGEST_CODE_LINE)
        that write ``spelling`` as a whole figure: not inside a longer number or word. One
        search of the whole text (a literal find, the bounds checked where it stops): the
        bounds see a newline where a line's search would see its start or end, and neither
        is a word character, a dot or a comma."""
        key = (spelling, path)
        known = self._stated_lines.get(key)
        if known is None:
            text = self._text(path)
            bounded = _whole_figure(spelling)
            known = []
            line, counted = 0, 0
            at = text.find(spelling)
            while at >= 0:
                if bounded.match(text, at):
                    line += text.count("\n", counted, at)
                    counted = at
                    if not known or known[-1] != line:
                        left = text.rfind("\n", 0, at) + 1
                        right = text.find("\n", at)
                        if (len(text) if right < 0 else right) - left <= LONGEST_CODE_LINE:
                            known.append(line)
                at = text.find(spelling, at + 1)
            self._stated_lines[key] = known
        return known

    def _weight(self, words: set[str]) -> float:
        """Sum of the words' inverse document frequencies over the text files."""
        total = max(len(self.index.text_paths), 1)
        weight = 0.0
        for word in words:
            files = self.index.files_with_word(word.encode()) | self.index.files_with_word(
                word.capitalize().encode()
            )
            weight += math.log(total / max(len(files), 1))
        return weight

    def find_bound(self, number: float, words: set[str], topic: set[str]) -> str | None:
        """A length bound in the code: a ``.slice(0, N)`` (or ``substring``) in a file
        whose name the post's topic words name ("the batch reranker truncates to 300
        characters" and ``reranker.ts``), or ``x.length > N`` of a value the sentence
        names ("descriptions longer than 100 characters", ``description.length > 100``)."""
        if number != int(number) or number < 10:
            return None
        n = int(number)
        for anchor, pattern, linked_by in (
            (".length ", f".length > {n}", "object"),
            (".length ", f".length >= {n}", "object"),
            (".length ", f".length < {n}", "object"),
            (".length ", f".length <= {n}", "object"),
            ("slice(0, ", f"slice(0, {n})", "file"),
            ("substring(0, ", f"substring(0, {n})", "file"),
        ):
            # The anchor's occurrences are found once for every bound of every post.
            holding = self.figures.files_containing_after(anchor, pattern, STATED_FILES_LIMIT)
            for path, _offset in holding:
                if NOT_EVIDENCE.search(path):
                    continue
                file_id = self._text_ids()[path]
                lines = self._file_lines(file_id)
                for line_index in self._lines_holding(file_id, pattern):
                    line, number_line = lines[line_index], line_index + 1
                    at = line.find(pattern)
                    if len(line) > LONGEST_CODE_LINE:
                        continue
                    # The file is the topic's ("reranker.ts" for a post on reranking);
                    # a length test also names what it measures ("description.length").
                    stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
                    linked = stems_meet(content_words(stem), topic)
                    if linked_by == "object":
                        objects = re.findall(r"[A-Za-z_]\w*", line[:at])[-1:]
                        linked = (
                            linked and bool(objects) and bool(content_words(objects[0]) & words)
                        )
                    if linked:
                        return f"{path}:{number_line} ({pattern.strip('.')})"
        return None

    def commit_files(self, commit: str) -> list[str]:
        return self.commits.files(commit)

    def commit_numstat(self, commit: str, path: str) -> tuple[int, int] | None:
        return self.commits.numstat(commit, path)

    def line_count(self, path: str) -> tuple[str, int] | None:
        found = self.index.match_path(path) or self.index.match_filename(path.rsplit("/", 1)[-1])
        if not found or found.endswith("/"):
            return None
        text = self.index.file_text(found)
        if text is None:
            return None
        return found, text.count("\n") + (0 if text.endswith("\n") or not text else 1)
