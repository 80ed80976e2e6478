"""The repository side of gate 7's judgement for one sentence: diffstats and copy scores of
commits the post names, the repository's text stating the figure in the sentence's words,
files the post quotes that the repository lacks, copies of the post itself.

A mixin of the gate's judge over :class:`PostNumbers`; the repository is reached through
``numbers`` (an :class:`~pytest_postgates.evidence.repo_numbers.RepositoryNumbers`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pytest_postgates.helpers.number_post import PostNumbers

if TYPE_CHECKING:
    from pytest_postgates.evidence.repo_numbers import RepositoryNumbers

from pytest_postgates.evidence.repo_numbers import (
    GENERATED,
)
from pytest_postgates.helpers.number_arithmetic import (
    sentence_bounds,
)
from pytest_postgates.helpers.number_cues import (
    DANGLING,
    REPORTING,
    SOURCE_NAMED,
    Sentence,
)
from pytest_postgates.helpers.numbers import (
    CLAIM,
    UNITS,
    content_words,
    family_of_spelling,
    normalise_number,
)


class RepositoryCitations(PostNumbers):
    """What the repository says about a number (mixed into the gate's judge)."""

    numbers: RepositoryNumbers | None
    commits: list[str]  # full ids of the commits the post names
    unknown_commits: list[str]  # ids the post names that the repository does not know

    def _commit_stat(self, family: str, value: float, paths: list[str]) -> str | None:
        """A diffstat of a commit the post names: "166 files changed", "adds 361 lines"
        to a file the sentence names."""
        if family == "%" and self.numbers is not None and len(paths) >= 2:
            return self._commit_copy(value, paths)
        if family not in ("files", "lines") or self.numbers is None:
            return None
        for commit in self.commits:
            changed = self.numbers.commit_files(commit)
            if family == "files" and changed and len(changed) == value:
                return f"commit {commit[:9]} changes {len(changed)} files"
            if family != "lines":
                continue
            for named in paths:
                for path in changed:
                    if path != named and not path.endswith("/" + named.lstrip("./")):
                        continue
                    stat = self.numbers.commit_numstat(commit, path)
                    if stat and value in (stat[0], stat[0] + stat[1]):
                        return f"commit {commit[:9]} changes {path} by +{stat[0]}/-{stat[1]} lines"
        return None

    def _absent_source(self, left: int, right: int) -> str | None:
        """A source file the paragraph names before the sentence (`narrative-opening.mjs`)
        with a reporting verb, when the repository holds no file of that name."""
        if self.numbers is None:
            return None
        for source in SOURCE_NAMED.finditer(self.raw, left, right):
            name = source.group(0).strip("`")
            if not re.fullmatch(r"[\w./-]+\.\w+", name):
                continue
            index = self.numbers.index
            if index.match_path(name) or index.match_filename(name.rsplit("/", 1)[-1]):
                continue
            if REPORTING.search(self.raw, source.end(), right):
                return source.group(0)
        return None

    def _commit_copy(self, value: float, paths: list[str]) -> str | None:
        """A similarity git scores in a commit the post names ("scored `fireworks.ts` as
        50% similar to the existing `mistral.ts`"): ``-C -C`` over the files named."""
        assert self.numbers is not None
        index = self.numbers.index
        resolved = tuple(
            dict.fromkeys(
                found
                for found in (
                    index.match_path(path) or index.match_filename(path.rsplit("/", 1)[-1])
                    for path in paths
                )
                if found and not found.endswith("/")
            )
        )
        if len(resolved) < 2:
            return None
        for commit in self.commits:
            for similarity, source, target in self.numbers.commits.copies(commit, resolved):
                if similarity == value:
                    return (
                        f"commit {commit[:9]} scores {target} as a {similarity}% copy of {source}"
                    )
        return None

    def _repository_documents(
        self,
        prose: str,
        sentence: Sentence,
        start: int,
        match: re.Match[str],
        family: str,
        value: float,
        words: set[str],
    ) -> str | None:
        """The repository's text writes the number with its unit on a line that shares
        content words with the paragraph ("~200 MB end-of-utterance model" in the
        feature's doc; "1,500 requests/day" in the provider's guide)."""
        assert self.numbers is not None
        paragraph = max(self._paragraph(start) + 1, 0)
        unit_words = content_words(" ".join(UNITS.get(family, ())))
        excerpt = self.raw[sentence.left : sentence.right].strip()[:60]
        stop = prose.find("\n\n", start)
        near = content_words(self.raw[paragraph : stop if stop >= 0 else len(prose)]) - unit_words
        return self.numbers.stated_nearby(
            match.group(1) + (match.group(2) or ""),
            match.group(3),
            value,
            words - unit_words,
            near,
            self._topic_words(start),
            excerpt,
        )

    def _repository_states(self, prose: str, start: int, end: int, written: str) -> str | None:
        """The repository's text states the number in the sentence's own words ("15
        requests per minute", "a 3-second timeout"): the number as written with a word
        or two beside it, one of them a content word other than the unit."""
        assert self.numbers is not None
        before = re.findall(r"[\w'-]+", prose[max(0, start - 40) : start])[-2:]
        after = re.findall(r"[\w'-]+", prose[end : end + 40])[:2]
        core = written.strip()
        unit_words = content_words(core)
        phrases = [
            " ".join([core, *after[:2]]),
            " ".join([*before[-1:], core, *after[:1]]),
            " ".join([core, *after[:1]]),
            " ".join([*before[-1:], core]),
            " ".join([*before, core]),
        ]
        # The same figure written with another separator or as a rate ("1,500 requests
        # per day" = "1500 requests/day").
        phrases += [normalise_number(phrase) for phrase in phrases]
        phrases += [re.sub(r" per (\w+)", r"/\1", phrase) for phrase in phrases]
        index, figures = self.numbers.index, self.numbers.figures
        core_claim = CLAIM.match(core)
        unit = family_of_spelling(core_claim.group(3) if core_claim else "")
        vocabulary = unit_words | content_words(" ".join(UNITS.get(unit, ())))
        for phrase in dict.fromkeys(phrases):
            rest = phrase.replace(core, " ").replace(normalise_number(core), " ")
            extra = re.sub(r"/(\w+)", r" per \1", rest).split()
            content = {
                word.lower() for word in extra if len(word) >= 3 and word.lower() not in DANGLING
            } - vocabulary
            # Two more words, one of them a content word, and no dangling "for"/"the".
            if len(extra) < 2 or not content or extra[-1].lower() in DANGLING:
                continue
            if figures.handles(phrase.encode("utf-8")):
                path = figures.locate(phrase)  # "a 10% cache": a lookup, not a scan
            else:
                path = index.locate(phrase) if index.contains(phrase) else None
            if path and not GENERATED.search(path) and not self._holds_post(path, start):
                return f"{path} states {phrase!r}"
        return None

    def _holds_post(self, path: str, start: int) -> bool:
        """Whether a repository file is a copy of this post (it holds the sentence)."""
        assert self.numbers is not None
        left, right = sentence_bounds(self.searchable, start, start + 1)
        excerpt = self.raw[left:right].strip()[:60]
        return bool(excerpt) and excerpt in (self.numbers.index.file_text(path) or "")


# The key that makes gate 7 require a source for every number whatever the project holds.
SOURCES_KEY = "numbers_need_sources"


def unenforced_reason(
    setting: bool | None, package: str | None, changelog: str, repos: int, anchored: bool
) -> str:
    """Why gate 7 lists a post's uncited numbers as advice ("" when they are findings).
    ``setting`` (``numbers_need_sources``) decides where set. Unset, the seeds' rule is a
    product blog's (a number is a claim about the product, found in its CHANGELOG, commits
    or source, or linked): a repository that declares no product (no package name, no
    ``package`` or ``repos`` setting) and keeps no CHANGELOG, for a post that names no
    evidence files, is a site of essays whose numbers are the author's own (observations,
    worked examples, a story), and the gate could only ask for a link."""
    if setting is not None:
        return "" if setting else f"`{SOURCES_KEY} = false`: uncited numbers are advice"
    if package or changelog or repos or anchored:
        return ""
    return (
        "the repository declares no product (no package name in package.json or "
        "pyproject.toml, no `package` or `repos` setting), keeps no CHANGELOG, and the post "
        "names no evidence files: its numbers are the author's own, with nothing here to "
        "check them against; uncited ones are listed as advice, never a failure; set "
        f"`{SOURCES_KEY} = true` to require a source for each"
    )
