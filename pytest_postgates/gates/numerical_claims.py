"""Gate 7, numerical_claims (hard): every number with a unit in prose is cited.

A number with a unit ("200 ms", "40,000 tokens", "3x", "50%") is a claim about the
system. It is cited when a Markdown link stands within 200 characters of it, or when the
number is found in the post's evidence: the repository's CHANGELOG, recent commit
messages, and the source files the front matter names (``anchor_paths``, ``evidence``),
read at the configured ref. Digit separators are normalised (40_000 = 40,000 = 40000).
Fenced code and inline code are exempt: code runs or it does not.

Matching a bare small number against a whole CHANGELOG would cite almost anything, so a
number of one or two digits is only found in evidence next to its unit ("3x", "50%",
"2 seconds"); longer numbers are found on their own (``pruneProtectTokens: 40000`` cites
"40,000 tokens").

A number nothing above cites is then judged by these rules, in order; each decision is in
the scorecard (``cited_by`` of a claim, or an ``exempt`` entry with its rule and reason):

- *A footnote* (``cited_by: "footnote: line N"``): a ``*``, ``\u2020`` or ``[^n]`` mark right
  after the number, and a footnote line of the post that links a source.
- *The repository* (``cited_by: "repository: ..."``), read at the ref: the value stands
  next to a symbol the sentence names in code spans (``POLL_INTERVAL_MS`` and ``=
  3_000`` for "every 3 seconds"; the value's key must share a word with the symbol or
  the sentence), or anywhere in the file of a named class or module under a key that
  shares a word with the sentence, or a constant whose name the sentence spells out in
  words (``MAX_RETRIEVAL_LIMIT = 200_000`` for "a hard maximum of 200,000 characters per
  retrieval": three digits or more, two shared words), or "N lines" of a file the
  sentence names has N lines, or the repository's text states the number in the
  sentence's own words ("15 requests per minute": two more words, one a content word),
  or the diffstat of a commit the post names ("166 files changed", "adds 361 lines" to a
  file the sentence names; ``git diff-tree`` once per commit and file). Generated files,
  minified lines and the CHANGELOG (judged above) are not searched.
- ``heading``: a heading names a section; ``identifier``: a size that is part of a model
  name the post writes ("SmolLM2-360M", then "the 360M model").
- *Measured-sounding numbers are claims*, whatever else the sentence says: the size of an
  effect ("cut latency by 40%", "dropped to 80 ms", "3x faster", "saves 200 ms") or a
  measurement ("p99 of 120 ms", "in our benchmark"). No rule below exempts them.
- ``reference``: on a docs page (MkDocs, VitePress, Docusaurus, or no front matter outside
  ``_posts``) a number that does not sound measured is the product's own specification (a
  default, a limit, what an option does); ``unmeasured_numbers_are_claims`` turns it off.
- ``dimension`` / ``expression``: not an amount ("1280 x 720", "N+1 queries").
- ``post-illustration``: the value an earlier exempt number of the paragraph already used.
- ``post-sample-config``: the value of the post's own fenced code or configuration (not
  diagrams or console output, comments removed), assigned or passed to a key that shares
  a word with the sentence (with the number's own neighbourhood, for a value as written).
  The unit rule: the code value equals the prose number as written, or converted to the
  unit code uses: a duration in milliseconds or seconds (``timeout: 30000`` = "30 s",
  ``ttl: 3600`` = "1 hour"), a size in bytes (decimal or binary), a percentage as a
  fraction (``0.4`` = "40%"), K and M as units (``8192`` = "8K").
- ``post-arithmetic``: the number follows from earlier numbers of its sentence (or the
  one before it on the line) by a product with a count, a quotient, a sum, a difference,
  a share or a ratio, within rounding (15% after "about", "roughly", "~"; "over" and
  "under" bound it), and every operand with a unit is a premise the sentence sets up
  ("with", "at", "of", "per", "each" ... before it): ``post-arithmetic-input``. A result
  computed from reported figures stays a claim. Table rows are not sentences.
- ``hypothetical``: inside a supposition ("if a call takes 900 ms", "suppose", "assuming",
  "imagine", "say, 512 tokens"), through the short numbered premises it lists, up to its
  main clause; or next to "for example".
- ``advice``: a clause that opens with an imperative verb ("Start with 5,000 tokens",
  "Route 5% of traffic") recommends a value, it does not report one.
- ``threshold``: a bound the post sets, in a list item whose clause names a metric
  ("Error rate above 5%") or a table cell that names one ("> 1% error rate").
- ``quotation``: inside quotation marks (an example answer, or a named source's words).
- ``attributed``: the sentence names the file or commit it takes the number from and a
  reporting verb ("`voice-extract.mjs` ... records", "the commit `39e51a7` names"); the
  reason says the source was not found in the repository, so it is unverified.
- ``anecdote``: the author's own story (first person singular in the paragraph, or a
  post told in it throughout).
- ``estimate``: a row of the post's own estimate table (its header or a row says so).
- Issue 10's rules, each with its reason: a figure the paragraph already cited keeps that
  citation; the repository's docs writing the figure in the sentence's own uncommon words
  (or in a file the post's topic names; never for a measured-sounding number, never from
  a copy of the post), a length bound in the code (``.slice(0, N)`` in the topic's file,
  ``x.length > N`` of what the sentence names), git's copy score in a named commit;
  ``post-sample-config`` also from a "text" fence that reads as code, a value's comment
  words, the unit's own word, the number written with its unit in the code;
  ``post-sample-size`` ("under 80 lines" of the sample above); ``post-arithmetic`` also
  for a rate set up with "per" (never a price), a count plus one, words to tokens at
  about 4/3, the steps of a backoff; ``post-illustration`` post-wide next to a word the
  value stood by; ``identifier`` for a parameter count ("360M-parameter");
  ``attributed`` for a diffstat of a commit the repository lacks, or a paragraph quoting
  a file it lacks.

Where the code lives: this module reads the prose and decides; ``helpers/numbers.py``
(units, the claim pattern, words), ``helpers/number_arithmetic.py``,
``helpers/code_values.py`` (code literals and the post's samples),
``helpers/number_cues.py`` (the prose cues and the sentence view),
``helpers/number_post.py`` and ``helpers/number_repository.py`` (the post's and the
repository's side of the judge), ``evidence/repo_numbers.py`` (numbers in the
repository's text) and ``evidence/commits.py`` (``git diff-tree``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import option
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.repo_numbers import RepositoryNumbers
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers import house_style
from pytest_postgates.helpers.code_values import SampleLine, sample_lines, symbols_in
from pytest_postgates.helpers.number_cues import (
    ADVICE,
    BOUND_WORDS,
    CLAUSE_BREAK,
    COMMIT_NAMED,
    COMPARISON,
    DIFFSTAT,
    FIRST_PERSON,
    FIRST_PERSON_POST,
    LINK,
    LIST_ITEM,
    METRIC,
    METRIC_WORD,
    QUOTED,
    REPORTING,
    REPOSITORY_CITATION,
    SOURCE_NAMED,
    Sentence,
    hypothetical_cue,
    measured_cue,
    sentence_at,
)
from pytest_postgates.helpers.number_repository import (
    SOURCES_KEY,
    RepositoryCitations,
    unenforced_reason,
)
from pytest_postgates.helpers.numbers import (
    CLAIM,
    UNIT_FAMILY,
    UNITS,
    content_words,
    family_of,
    normalise_number,
    quantity_of,
)
from pytest_postgates.scan import Alternation, MatchLike, SchemeUrl
from pytest_postgates.scan_markdown import CodeSpanExact
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import page_kind

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.post import Post

LINK_DISTANCE = 200
EVIDENCE_KEYS = ("anchor_paths", "evidence")


_CODE_SPAN = CodeSpanExact()  # (?<!`)(`+)(?!`).+?(?<!`)\1(?!`)
_URL = SchemeUrl(r"\b[a-z][a-z0-9+.-]*://[^\s)>\]]+", r"[^\s)>\]]+", re.I)


@dataclass(frozen=True)
class Claim:
    line: int
    number: str  # normalised: no digit separators
    unit: str  # unit family
    text: str
    cited_by: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "number": self.number,
            "unit": self.unit,
            "text": self.text,
            "cited_by": self.cited_by,
        }


def _blank(match: MatchLike) -> str:
    return " " * len(match.group(0))


def prose_lines(post: Post) -> list[tuple[int, str]]:
    """Body lines outside code as a reader sees them (HTML blocks and inline HTML
    rendered), inline code spans and ``<code>`` blanked out (same columns), so numbers
    inside them are exempt."""
    # The prose view's lines: URLs are blanked by find_claims, which keeps link text.
    return list(post.prose.lines(html="rendered", urls=False))


def find_claims(post: Post) -> list[tuple[int, int, re.Match[str], str]]:
    """(line, offset in the prose text, match, prose text) for every number with a unit."""
    found = []
    lines = prose_lines(post)
    prose = "\n".join(text for _, text in lines)
    starts = []
    position = 0
    for _, text in lines:
        starts.append(position)
        position += len(text) + 1
    searchable = _searchable(prose)
    for match in CLAIM.finditer(searchable):
        if _is_decade(match):
            continue
        index = _line_index(starts, match.start())
        found.append((lines[index][0], match.start(), match, prose))
    return found


@lru_cache(maxsize=4)
def _searchable(prose: str) -> str:
    """The prose with link targets and bare URLs blanked (same columns), link text kept;
    computed once for the claims and the judge of a post. A bare URL holds ``://``: prose
    without one (most posts, once link targets are blanked) is not scanned for them."""
    linked = LINK.sub(_blank_link_target, prose)
    return _URL.sub(_blank, linked) if "://" in linked else linked


def _is_decade(match: re.Match[str]) -> bool:
    """Not seconds: "the 1990s" is a decade and "404s" are HTTP responses (an "s" written
    straight after the number; "404 s" stays seconds)."""
    if match.group(3) != "s" or match.group(2) or not match.group(0).endswith(match.group(1) + "s"):
        return False
    return re.fullmatch(r"1[89]\d0|20\d0|[1-5]\d\d", match.group(1)) is not None


def _blank_link_target(match: MatchLike) -> str:
    """Keep a link's text (a number there is still a claim) but blank its URL."""
    text = match.group(0)
    close = text.find("](")
    if close < 0:
        return " " * len(text)
    return text[: close + 1] + " " * (len(text) - close - 1)


def _line_index(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset) - 1


_EVIDENCE_NOISE = Alternation(
    r"\b[a-z][a-z0-9+.-]*://\S+|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{6,}\b",
    [
        SchemeUrl(r"\b[a-z][a-z0-9+.-]*://\S+", r"\S+", re.I),
        re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{6,}\b", re.I),
    ],
)
_BARE_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w]|\.\d)")


@lru_cache(maxsize=256)
def evidence_facts(text: str, anchored: bool) -> frozenset[tuple[str, str]] | frozenset[str]:
    """What a body of evidence can cite, computed once per text: in anchor files (narrow,
    chosen evidence: ``FRAME_BUDGET_MS = 16``) every number; in the CHANGELOG and commit
    messages only numbers standing with a unit, as (number, unit family) pairs, so that a
    "420ms" is not cited by a commit hash or a "100 K" by "100+ models". URLs and hex ids
    are removed first."""
    cleaned = _EVIDENCE_NOISE.sub(" ", normalise_number(text))
    if anchored:
        return frozenset(m.group(1) for m in _BARE_NUMBER.finditer(cleaned))
    pairs = set()
    for match in CLAIM.finditer(cleaned):
        family = UNIT_FAMILY.get(match.group(3)) or UNIT_FAMILY.get(match.group(3).lower())
        pairs.add((normalise_number(match.group(1)) + (match.group(2) or ""), family or ""))
    return frozenset(pairs)


def _evidence_contains(number: str, family: str, text: str, anchored: bool) -> bool:
    facts = evidence_facts(text, anchored)
    return number in facts if anchored else (number, family) in facts


def _anchor_paths(post: Post) -> list[str]:
    front = post.front_matter or {}
    paths: list[str] = []
    for key in EVIDENCE_KEYS:
        value = front.get(key)
        if isinstance(value, str):
            paths.append(value)
        elif isinstance(value, list):
            paths.extend(item for item in value if isinstance(item, str))
    return paths


# ============================================================== what is not a claim
# Each number with a unit that the rules below judge is either cited by the repository's
# own code (``cited_by``) or listed under ``exempt`` with the rule that decided and why.
# No rule ever exempts a number whose sentence sounds measured (MEASURED): "cut latency by
# 40%" stays a claim whatever else the sentence says.


@dataclass(frozen=True)
class Exempt:
    line: int
    number: str
    unit: str
    text: str
    rule: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "number": self.number,
            "unit": self.unit,
            "text": self.text,
            "rule": self.rule,
            "reason": self.reason,
        }


# Rules whose numbers are the post's own illustration: the same value later in the
# paragraph is the same illustration ("If a model has a 512-token limit, set the chunker
# to 512 tokens").
ILLUSTRATIVE_RULES = frozenset(
    {"hypothetical", "post-arithmetic", "post-arithmetic-input", "advice", "quotation"}
)


@dataclass(frozen=True)
class _Claimed:
    cited_by: str | None
    note: str | None = None  # why no exemption applied, when one nearly did


class _Judge(RepositoryCitations):
    """Decides, for a number no link or evidence cites, whether the repository's code
    cites it, or which rule makes it not a claim (``(rule, reason)``)."""

    def __init__(
        self,
        post: Post,
        raw_claims: list[tuple[int, int, re.Match[str], str]],
        index: RepoIndex | None,
        numbers: RepositoryNumbers | None = None,
        unmeasured_are_claims: bool = True,
    ) -> None:
        self.post = post
        self.unmeasured_are_claims = unmeasured_are_claims
        self.searchable = ""
        self.raw = ""
        self.prose_line_numbers: list[int] = []
        if raw_claims:
            lines = prose_lines(post)
            self.searchable = _searchable(raw_claims[0][3])
            self.raw = "\n".join(post.prose.rendered_line(number) for number, _ in lines)
            self.prose_line_numbers = [number for number, _ in lines]
        self.sentences: dict[int, Sentence] = {}
        self._samples: list[SampleLine] | None = None
        if numbers is None and index is not None:
            numbers = RepositoryNumbers(index)
        self.numbers = numbers
        # Commits the post names (backticked ids, "commit 1a2b3c4"), as the repository
        # knows them: their diffstats are facts of the repository.
        self.commits: list[str] = []
        self.unknown_commits: list[str] = []  # named by the post, unknown to the repository
        if index is not None:
            for named in COMMIT_NAMED.finditer(post.body):
                sha = (named.group(1) or named.group(2)).lower()
                full = index.commit_for(sha)
                if full and full not in self.commits:
                    self.commits.append(full)
                elif full is None and sha not in self.unknown_commits:
                    self.unknown_commits.append(sha)
        # A post told in the first person singular throughout is the author's story.
        self.first_person_post = len(FIRST_PERSON.findall(self.searchable)) >= FIRST_PERSON_POST
        # paragraph -> (dimension, value) -> the rule that made it illustrative
        self.illustrative: dict[int, dict[tuple[str, float], str]] = {}
        # (dimension, value) -> (rule, words next to it) for every illustrative value
        self.post_illustrative: dict[tuple[str, float], list[tuple[str, set[str]]]] = {}
        # Offsets of numbers already cited or judged not claims (a sequence's base).
        self.cleared: set[int] = set()
        # paragraph -> (dimension, value) -> (line, cited_by) of the first cited number
        self.cited: dict[int, dict[tuple[str, float], tuple[int, str]]] = {}

    @property
    def samples(self) -> list[SampleLine]:
        if self._samples is None:
            self._samples = sample_lines(self.post)
        return self._samples

    def judge(self, match: re.Match[str], value: float, family: str) -> _Claimed | tuple[str, str]:
        prose = self.searchable
        start, end = match.start(), match.end()
        # Not a number with a unit at all: "1280 x 720", "N+1 queries".
        if family == "x" and re.match(r"\s?\d", prose[end : end + 2]):
            return "dimension", f"{match.group(0).strip()} is one side of a dimension"
        if start >= 2 and prose[start - 1] == "+" and prose[start - 2].isalnum():
            return "expression", "the number is part of an expression such as N+1"
        line_start = prose.rfind("\n", 0, start) + 1
        line_end = prose.find("\n", end)
        line_text = prose[line_start : line_end if line_end >= 0 else len(prose)]
        if line_text.lstrip().startswith("#"):
            return "heading", "a heading names a section; the text below it makes the claims"
        if family in ("M", "K") and re.search(
            rf"[A-Za-z][\w.]*-{re.escape(match.group(1))}{re.escape(match.group(3))}\b",
            self.post.text,
        ):
            return "identifier", f"part of a model name the post writes ({match.group(0).strip()})"
        if family in ("M", "K") and re.match(
            r"[\s-]?param(?:eter)?s?\b", prose[end : end + 12], re.I
        ):
            return (
                "identifier",
                f"a model's parameter count names which model it is ({match.group(0).strip()})",
            )
        footnote = self._footnote(prose, end, line_text)
        if footnote:
            return _Claimed(footnote)
        sentence = sentence_at(prose, start, end, self.sentences)
        # Words of the sentence as written, code spans included: `RateLimiter` links the
        # sentence to ``new RateLimiter(10, 60000)`` as strongly as any prose word.
        words = content_words(self.raw[sentence.left : sentence.right])
        if sentence.in_table:
            # A cell's column header names what the cell holds ("| Max duration |").
            words |= content_words(self._column_header(prose, line_start, start))
        identifiers, paths = symbols_in(self.raw, sentence.left, sentence.right)
        if self.numbers is not None:
            cited = self._commit_stat(family, value, paths)
            if cited:
                return _Claimed(REPOSITORY_CITATION + cited)
            if family == "lines":
                for path in paths:
                    counted = self.numbers.line_count(path)
                    if counted is not None and abs(counted[1] - value) <= 1:
                        return _Claimed(
                            f"{REPOSITORY_CITATION}{counted[0]} ({counted[1]} lines at the ref)"
                        )
            found = None
            # The unit's own word ("tokens") names nothing.
            unit_words = content_words(" ".join(UNITS.get(family, ())))
            if identifiers or paths:
                found = self.numbers.find(identifiers + paths, value, family, words)
                if found is None:
                    found = self.numbers.find_in_named_file(
                        identifiers + paths, value, family, words - unit_words
                    )
            if found is None:
                found = self.numbers.find_by_name(value, family, words - unit_words)
            if (
                found is None
                and family == "characters"
                and BOUND_WORDS.search(self.raw, sentence.left, sentence.right)
            ):
                found = self.numbers.find_bound(value, words, self._topic_words(start))
            if found:
                return _Claimed(REPOSITORY_CITATION + found)
            stated = self._repository_states(prose, start, end, match.group(0))
            if stated:
                return _Claimed(REPOSITORY_CITATION + stated)
        measured = measured_cue(prose, sentence.left, start, end, sentence.right)
        if measured:
            return _Claimed(None, f"measured-sounding ({measured!r}): no exemption applies")
        if self.numbers is not None:
            # Looser than the rules above (a figure written in the repository's docs, not
            # a constant), so never for a number that sounds measured.
            stated = self._repository_documents(prose, sentence, start, match, family, value, words)
            if stated:
                return _Claimed(REPOSITORY_CITATION + stated)
        if not self.unmeasured_are_claims:
            return "reference", REFERENCE_REASON
        in_list = sentence.in_table or bool(LIST_ITEM.match(line_text))
        clause_left = sentence.left
        for stop in CLAUSE_BREAK.finditer(prose, sentence.left, start):
            clause_left = stop.end()
        if sentence.in_table and self._estimate_row(prose, line_start, line_text):
            return "estimate", "a row of the post's own estimate table (its header or row says so)"
        bound = COMPARISON.search(prose[clause_left:start])
        if sentence.in_table and bound:
            cell_left = prose.rfind("|", 0, start) + 1
            cell_right = prose.find("|", end)
            cell = prose[cell_left : cell_right if cell_right >= 0 else len(prose)]
            named = METRIC_WORD.search(cell.replace(prose[start:end], " "))
        else:
            named = None
        if bound and (
            named
            or (
                in_list
                and not sentence.in_table
                and METRIC.match(prose[clause_left : clause_left + bound.start()])
            )
        ):
            return (
                "threshold",
                f"a bound the post sets ({bound.group(0).strip()!r} in a list or table)",
            )
        quote = next(
            (
                q
                for q in QUOTED.finditer(prose, line_start, line_start + len(line_text))
                if q.start() < start < q.end()
            ),
            None,
        )
        if quote is not None:
            return "quotation", "inside a quotation: an example answer or a named source's words"
        if family in ("files", "lines") and DIFFSTAT.search(
            self.raw, sentence.left, sentence.right
        ):
            unknown = ", ".join(self.unknown_commits[:2]) or "no commit the repository holds"
            if self.unknown_commits or re.search(
                r"\bcommit\b", self.raw[sentence.left : sentence.right], re.I
            ):
                return (
                    "attributed",
                    f"a diffstat of a commit the post names ({unknown}), not in the repository "
                    "at the ref: unverified",
                )
        source = SOURCE_NAMED.search(self.raw, sentence.left, sentence.right)
        if source and REPORTING.search(prose, sentence.left, sentence.right):
            return (
                "attributed",
                f"the sentence attributes it to {source.group(0)} (not found in the repository "
                "at the ref: unverified)",
            )
        paragraph = self._paragraph(start) + 1
        absent = self._absent_source(max(paragraph, 0), sentence.left)
        if absent and REPORTING.search(prose, sentence.left, sentence.right):
            return (
                "attributed",
                f"the paragraph quotes {absent}, a file the repository does not hold at the "
                "ref (another codebase's: unverified)",
            )
        if self.first_person_post or FIRST_PERSON.search(prose, max(paragraph, 0), sentence.right):
            return "anecdote", "the author's own story (told in the first person singular)"
        earlier = self.reused(start, family, value)
        if earlier is not None:
            return "post-illustration", f"the value the paragraph already used ({earlier})"
        earlier = self.reused_in_post(start, family, value)
        if earlier is not None:
            return "post-illustration", f"the post's own illustrative value again ({earlier})"
        if family == "lines":
            size = self._sample_size(prose, sentence, start, value)
            if size is not None:
                return "post-sample-size", size
        sampled = self._sample_value(start, end, sentence, value, family, words)
        if sampled is not None:
            return "post-sample-config", sampled
        if start in sentence.results:
            return "post-arithmetic", f"= {sentence.results[start]}, from the sentence's numbers"
        if start in sentence.inputs:
            return (
                "post-arithmetic-input",
                f"a premise of the sentence's own calculation ({sentence.inputs[start]})",
            )
        cue = hypothetical_cue(prose, sentence, start, end)
        if cue is not None:
            return "hypothetical", f"inside a supposition introduced by {cue!r}"
        if not sentence.in_table:
            clause_left = sentence.left
            for stop in CLAUSE_BREAK.finditer(prose, sentence.left, start):
                clause_left = stop.end()
            opening = ADVICE.match(prose[clause_left:start])
            if opening:
                verb = opening.group(0).split()[-1]
                verb = "back off" if verb.lower() == "off" else verb
                return "advice", f"a value the post recommends (the clause opens with {verb!r})"
        sequence = self._sequence(prose, sentence, start, family, value)
        if sequence is not None:
            return "post-arithmetic", sequence
        return _Claimed(None)


def check(post: Post, context: GateContext) -> CheckResult:
    raw_claims = find_claims(post)
    links = []
    if raw_claims:
        prose = raw_claims[0][3]
        links = [(m.start(), m.end()) for m in LINK.finditer(prose)]
    evidence_parts: list[tuple[str, str, bool]] = []  # (name, text, is an anchor file)
    missing: list[str] = []
    note = None
    index = None
    if raw_claims:
        try:
            index = context.evidence.index_for(post.path)
        except GitError as exc:
            index = None
            note = f"repository evidence unavailable: {exc}"
        if index is not None:
            if index.changelog:
                evidence_parts.append((index.changelog_path or "CHANGELOG", index.changelog, False))
            evidence_parts.append(("commit messages", index.messages, False))
            for path in _anchor_paths(post):
                text = index.file_text(path)
                if text is None:
                    missing.append(path)
                else:
                    evidence_parts.append((path, text, True))
    own = context.settings.for_gate(NumericalClaimsSettings)
    unmeasured_are_claims = own.unmeasured_numbers_are_claims
    if unmeasured_are_claims is None and raw_claims:
        generator = page_kind.generator_of_page(post.path, context.memo)
        has_front_matter = post.front_matter_format is not None
        unmeasured_are_claims = not page_kind.is_docs_page(generator, post.path, has_front_matter)
    numbers = RepositoryNumbers.shared(index, context.memo)
    judge = _Judge(post, raw_claims, index, numbers, unmeasured_are_claims is not False)
    claims: list[Claim] = []
    exempt: list[Exempt] = []
    vetoed: dict[int, str] = {}  # id(claim) of uncited claims -> why no rule exempted them
    for line, offset, match, _prose in raw_claims:
        number = normalise_number(match.group(1)) + (match.group(2) or "")
        family = (
            UNIT_FAMILY.get(match.group(3))
            or UNIT_FAMILY.get(match.group(3).lower())
            or family_of(match.group(3))
        )
        end = match.end()
        cited_by = None
        if any(
            start - LINK_DISTANCE <= end and offset - LINK_DISTANCE <= stop for start, stop in links
        ):
            cited_by = "link"
        else:
            for name, text, anchored in evidence_parts:
                if _evidence_contains(number, family, text, anchored):
                    cited_by = name
                    break
        line_text = post.lines[line - 1].strip()[:160]
        if cited_by is None:
            cited_by = judge.cited_before(offset, family, float(number))
        if cited_by is None:
            verdict = judge.judge(match, float(number), family)
            if isinstance(verdict, tuple):
                judge.cleared.add(offset)
                exempt.append(Exempt(line, number, family, line_text, *verdict))
                if verdict[0] in ILLUSTRATIVE_RULES:
                    judge.remember(offset, *quantity_of(family, float(number)), verdict[0])
                if verdict[0] == "post-arithmetic":
                    for dimension, operand in judge.operands_of(offset):
                        judge.remember(offset, dimension, operand, "post-arithmetic-input")
                continue
            cited_by = verdict.cited_by
            if verdict.note:
                claim = Claim(line, number, family, line_text, None)
                vetoed[id(claim)] = verdict.note
                claims.append(claim)
                continue
        if cited_by is not None:
            judge.cleared.add(offset)
            judge.cited.setdefault(judge.paragraph_of(offset), {}).setdefault(
                quantity_of(family, float(number)), (line, cited_by)
            )
        claims.append(Claim(line, number, family, line_text, cited_by))
    uncited = [c for c in claims if c.cited_by is None]
    if uncited and note:
        raise CannotJudge(
            "ERROR",
            note,
            {
                "error": note,
                "claims": [c.to_dict() for c in claims],
                "exempt": [e.to_dict() for e in exempt],
            },
        )
    detail: dict[str, Any] = {
        "claims": [c.to_dict() for c in claims],
        "uncited": [
            {**c.to_dict(), "note": vetoed[id(c)]} if id(c) in vetoed else c.to_dict()
            for c in uncited
        ],
        "exempt": [e.to_dict() for e in exempt],
        "link_distance": LINK_DISTANCE,
        "evidence": [name for name, _, _ in evidence_parts],
    }
    if missing:
        detail["missing_evidence"] = missing
    findings = [
        Finding(
            c.line,
            "UNCITED_NUMBER",
            f"{c.number} {c.unit} is not cited: {c.text}",
            f"link a source within {LINK_DISTANCE} characters, name the file that holds the "
            "number in anchor_paths, or remove the number",
        )
        for c in uncited
    ]
    if findings and index is not None:  # the repository was read (else an ERROR above)
        package = context.evidence.for_post(post.path).package_name
        repos, anchored = len(context.settings.repos), bool(_anchor_paths(post))
        why = unenforced_reason(own.numbers_need_sources, package, index.changelog, repos, anchored)
        if why:
            detail[house_style.DETAIL_KEY] = {SOURCES_KEY: house_style.listed(findings, why)}
            findings = []
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: NumericalClaimsSettings) -> Decision:
    uncited, claims = len(result.findings), len(result.detail["claims"])
    advised = house_style.summary_note(result.detail)
    summary = (
        f"{uncited} of {claims} numbers with units uncited"
        if uncited
        else f"{claims} numbers with units" + (advised or ", all cited")
    )
    exempt = len(result.detail.get("exempt", []))
    if exempt:
        summary += f"; {exempt} not claims (see exempt)"
    return Decision("FAIL" if uncited else "PASS", summary, uncited)


REFERENCE_REASON = (
    "a docs page states the product's own behaviour (a default, a limit, what an option "
    "does); there only a measured figure needs a source"
)


@dataclass(frozen=True)
class NumericalClaimsSettings:
    """Gate 7's settings."""

    numbers_need_sources: bool | None = option(
        None,
        "bool",
        "an uncited number fails the post (false: uncited numbers are listed as advice)",
        shown_default="true, except in a repository that declares no product and keeps no "
        "CHANGELOG, for a post naming no evidence files (an essay blog): there advice",
    )
    unmeasured_numbers_are_claims: bool | None = option(
        None,
        "bool",
        "a number no measurement word marks (a default, a limit, an option's meaning) needs a "
        "source too; otherwise only measured figures do (rule `reference`)",
        shown_default="true for blog posts, false for docs pages (an MkDocs, VitePress or "
        "Docusaurus page, or a page without front matter outside `_posts`)",
    )


GATE = Gate(
    id=7,
    name="numerical_claims",
    advisory=False,
    kind="hard",
    description="Every number with a unit in prose is cited.",
    check=check,
    decide=decide,
    cache_inputs=commit_inputs,
    settings=NumericalClaimsSettings,
)
