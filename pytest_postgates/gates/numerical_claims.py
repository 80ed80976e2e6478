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
- ``estimate``: a row of the post's own estimate table (its header or row says so).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.commits import CommitStats
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.scan import (
    Alternation,
    CodeSpanExact,
    Delimited,
    SchemeUrl,
    closed_by,
    markdown_link,
)
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.post import Post

LINK_DISTANCE = 200
EVIDENCE_KEYS = ("anchor_paths", "evidence")

# unit family -> spellings (longest first inside the regex); the family is reported.
UNITS: dict[str, tuple[str, ...]] = {
    "ms": ("milliseconds", "millisecond", "msec", "ms"),
    "us": ("microseconds", "µs", "us"),
    "s": ("seconds", "second", "secs", "sec", "s"),
    "min": ("minutes", "minute", "mins", "min"),
    "h": ("hours", "hour", "hrs", "hr"),
    "days": ("days", "day"),
    "weeks": ("weeks", "week"),
    "months": ("months", "month"),
    "KB": ("KB", "kB", "KiB"),
    "MB": ("MB", "MiB"),
    "GB": ("GB", "GiB"),
    "TB": ("TB", "TiB"),
    "%": ("%", "percent"),
    "x": ("x", "\u00d7", "times"),  # 10x, 10\u00d7 (multiplication sign), 3 times
    "K": ("K",),
    "M": ("M",),
    "tokens": ("tokens", "token"),
    "req/s": ("req/s", "requests/s", "requests per second", "rps", "RPS", "QPS", "qps", "ops/s"),
    "requests": ("requests",),
    "queries": ("queries",),
    "lines": ("lines of code", "lines", "LOC"),
    "files": ("files",),
    "characters": ("characters", "chars"),
    "tests": ("tests", "test cases"),
}
_CASE_SENSITIVE = {
    "tokens",  # "OAuth 2.0 Token" is a name, not 2 tokens
    "token",
    "K",
    "M",
    "KB",
    "MB",
    "GB",
    "TB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "kB",
    "RPS",
    "QPS",
    "LOC",
    "x",
}
_FAMILY = {spelling: family for family, spellings in UNITS.items() for spelling in spellings}
_NUMBER = r"(?<![\w.$/#:-])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?"


def _unit_alternation() -> str:
    spellings = sorted(_FAMILY, key=len, reverse=True)
    parts = []
    for spelling in spellings:
        escaped = re.escape(spelling).replace(r"\ ", r"\s+")
        parts.append(escaped if spelling in _CASE_SENSITIVE else f"(?i:{escaped})")
    return "|".join(parts)


# A number, an optional space or hyphen, a unit, then no further word character ("5 ms",
# "40,000-token", "3x", "50%", "8K tokens" is read as 8K).
CLAIM = re.compile(rf"{_NUMBER}(?:\s?|-)({_unit_alternation()})(?![\w%])")
# The link, code-span and URL patterns are scanned in linear time (pytest_postgates.scan):
# as regexes, a line of unclosed ``[``, of backtick runs or of ``a.a.a.`` took minutes.
LINK = Alternation(
    r"!?\[[^\]\n]*\]\([^)\n]*\)|<https?://[^>\s]+>",
    [
        Delimited(
            r"!?\[[^\]\n]*\]\([^)\n]*\)", re.compile(r"!?\["), markdown_link("\\]\n", ")\n", False)
        ),
        Delimited(
            r"<https?://[^>\s]+>", re.compile(r"<https?://"), closed_by(">\\s", ">", nonempty=True)
        ),
    ],
)
_CODE_SPAN = CodeSpanExact()  # (?<!`)(`+)(?!`).+?(?<!`)\1(?!`)
_URL = SchemeUrl(r"\b[a-z][a-z0-9+.-]*://[^\s)>\]]+", r"[^\s)>\]]+", re.I)
_SEPARATOR = re.compile(r"(?<=\d)[,_](?=\d{3}(?!\d))")


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


def normalise_number(text: str) -> str:
    return _SEPARATOR.sub("", text)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def prose_lines(post: Post) -> list[tuple[int, str]]:
    """Body lines outside code and HTML blocks, inline code spans and URLs blanked out
    (same columns), so numbers inside them are exempt."""
    skip = post.code_lines | post.html_lines
    lines = []
    for number, text in post.body_lines():
        if number in skip:
            continue
        text = _CODE_SPAN.sub(_blank, text)
        lines.append((number, text))
    return lines


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
    searchable = _URL.sub(_blank, LINK.sub(lambda m: _blank_link_target(m), prose))
    for match in CLAIM.finditer(searchable):
        if _is_decade(match):
            continue
        index = _line_index(starts, match.start())
        found.append((lines[index][0], match.start(), match, prose))
    return found


def _is_decade(match: re.Match[str]) -> bool:
    """Not seconds: "the 1990s" is a decade and "404s" are HTTP responses (an "s" written
    straight after the number; "404 s" stays seconds)."""
    if match.group(3) != "s" or match.group(2) or not match.group(0).endswith(match.group(1) + "s"):
        return False
    return re.fullmatch(r"1[89]\d0|20\d0|[1-5]\d\d", match.group(1)) is not None


def _blank_link_target(match: re.Match[str]) -> str:
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
        family = _FAMILY.get(match.group(3)) or _FAMILY.get(match.group(3).lower())
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

TIME_SECONDS = {
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "days": 86400.0,
    "weeks": 604800.0,
    "months": 2592000.0,
}
SIZE_BYTES = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
_BINARY = {"KB": 2.0**10, "MB": 2.0**20, "GB": 2.0**30, "TB": 2.0**40}
# A number that sounds measured: the size of an effect ("cut latency by 40%", "dropped to
# 80 ms", "3x faster", "saves 200 ms") or a measurement ("p99 of 120 ms", "in our
# benchmark, 87 ms"). Judged on the number's own clause, never the whole sentence.
_CHANGE = (
    r"(?:cut|cuts|reduc\w*|drop\w*|fell|falls|improv\w*|increas\w*|decreas\w*|lower\w*|"
    r"boost\w*|shr[iau]nk\w*|grew|grow\w*|rose|rises|jump\w*|climb\w*|slash\w*|sped|speeds?)"
)
MEASURED_BEFORE = re.compile(
    rf"(?:\b{_CHANGE}\b[^,;:.]{{0,40}}\b(?:by|to)\s+|"
    r"\b(?:sav(?:e|es|ed|ing)|shav\w*|measured|benchmark\w*|observed|recorded|"
    r"p50|p90|p95|p99|median|(?<!with an )(?<!with a )average|averaged|"
    r"(?<!not )(?<!n't )(?<!to )(?<!does )(?<!will )(?<!would )mean(?! that)|"
    r"peak\w*|we saw|we found|in production|"
    r"in our tests?|in practice|results? (?:show|of))\b[^,;:.]{0,40})"
    r"(?:an?\s+(?:\w+\s+)?|about\s+|roughly\s+|nearly\s+|almost\s+|over\s+|under\s+|"
    r"just\s+|only\s+|~\s?)?$",
    re.I,
)
MEASURED_AFTER = re.compile(
    r"^\s*(?:[-\u2013]\s*\d[\d.,]*\s*\S*\s+)?(?:faster|slower|quicker|cheaper|smaller|larger|"
    r"bigger|fewer|less|more|lower|higher|better|worse|improvement|reduction|speed-?up|"
    r"increase|decrease|drop|savings?|gain|boost|overhead|latency reduction)\b",
    re.I,
)


def measured_cue(prose: str, left: int, start: int, end: int, right: int) -> str | None:
    """The words that make prose[start:end] sound measured, if any (within its sentence
    prose[left:right])."""
    before = MEASURED_BEFORE.search(prose[max(left, start - 80) : start])
    if before:
        return before.group(0).strip()
    after = MEASURED_AFTER.match(prose[end : min(right, end + 40)])
    return after.group(0).strip() if after else None


# Recommendations: a clause that opens with an imperative verb gives the reader a value to
# use ("Start with 5,000 tokens", "Route 5% of traffic"), it does not report one.
ADVICE = re.compile(
    r"^(?:\W*(?:\*\*[^*]+\*\*|[\w\s-]{1,40}:)\W*)?\W*(?:start|begin|set|use|keep|route|limit|"
    r"cap|configure|choose|pick|try|aim|target|allow|reserve|give|raise|bump|default|budget|"
    r"schedule|run|send|split|chunk|truncate|retry|wait|poll|cache|sample|back off)\b",
    re.I,
)
# A clause that states a supposition: the numbers inside it are the post's own inputs.
HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|assume|assuming|imagine|hypothetically|what if|"
    r"let's say|let us say|in a scenario where|for an? (?=~?\d[\d,.]*\s?[KkM]?\b[\w\s-]{0,30}\b"
    r"(?:pipeline|workload|team|app|application|service|deployment|catalog|site|shop)\b))\b",
    re.I,
)
_GENERIC = re.compile(r"\W*(?:a|an|any)\s+(?:[\w-]+\s+){1,2}that\b", re.I)
EXAMPLE_CUE = re.compile(r"\b(?:for example|for instance|e\.g\.|say)(?=[\s,)]|$)", re.I)
# "a strict limit (like 512 tokens)": an example given right before the number.
EXAMPLE_BEFORE = re.compile(r"\b(?:like|such as|say|e\.g\.|even an?)\s+(?:~\s?|about\s+)?$", re.I)
# Premises of an illustrative calculation ("with 4 workers at 250 ms each").
PREMISE = re.compile(
    r"\b(?:with|at|of|per|each|say|given|assuming|assume|suppose|if|for example|e\.g\.)\s+"
    r"(?:\w+\s+){0,3}$",
    re.I,
)
PREMISE_AFTER = re.compile(r"\s*(?:per|each)\s+(?!\d)\w+", re.I)
APPROXIMATE = re.compile(
    r"(?:\b(?:about|roughly|approximately|around|nearly|almost|some|just)\s+|~\s?|\u2248\s?)$",
    re.I,
)
AT_LEAST = re.compile(r"\b(?:over|more than|above|at least|upwards of|beyond)\s+$", re.I)
AT_MOST = re.compile(r"\b(?:under|less than|below|at most|up to|within)\s+$", re.I)
# Clause breaks; a dash between two numbers is a range ("40K\u2013130K"), not a break.
_CLAUSE_BREAK = re.compile(
    r"[,;:()]|(?<!\d)[\u2014\u2013](?!\d)|\s--\s|\s-\s|\bthen\b|\bso\b", re.I
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
# Any number in a sentence (operands of arithmetic: "4 workers", "1,000 items", "10K").
_ANY_NUMBER = re.compile(
    r"(?<![\w.$/#:-])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?(?:\s?([KkMB])\b)?(?![\w.]\d)"
)
NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.I)
# "Tier 2", "Level 1", "Gate 7": a name, not an amount ("With 4 workers" is an amount).
_LABEL = re.compile(
    r"\b(?!(?:With|At|For|In|Of|On|By|If|Each|Every|All|Only|About|Over|Under|The|And|Or|"
    r"Say|Suppose|Assuming|Imagine|Given|After|Before|Within|Up|To|From|Then|Just)\s)"
    r"[A-Z][a-z]+\s$|#\s?$"
)
_DOLLARS = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")
_DIMENSION = re.compile(r"\s?[x\u00d7]\s?\d")
_CODE_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:[,_]\d{3})+|\d+)(\.\d+)?(?![\d])")
_CODE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_PATH_LIKE = re.compile(r"[\w.-]+/[\w./-]+\.\w+|[\w-]+\.(?:ts|js|mjs|cjs|tsx|py|go|rs|json)\b")
_STOP = frozenset(
    "this that with from have will your when then than they them their there these those "
    "into also only each every about after before over under more most less what which "
    "while where value values const true false null none return default number".split()
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
NEAR_WORDS = 40  # characters either side of a number whose words name it
# A sentence that states a length bound ("truncates to 300 characters", "longer than 100
# characters", "the first 300 characters").
_BOUND_WORDS = re.compile(
    r"\b(?:truncat\w*|first|longer|shorter|more than|fewer than|less than|exceed\w*|up to|"
    r"cap\w*|cut\w*)\b",
    re.I,
)
_DIFFSTAT = re.compile(r"\b(?:diffstat|diff|insertions?|deletions?)\b", re.I)
_DOUBLING = re.compile(r"\b(?:exponential\w*|backoff|back-off|doubl\w+)\b", re.I)


@dataclass(frozen=True)
class Quantity:
    """A number in a sentence with its value in base units (seconds, bytes, ...)."""

    start: int
    end: int
    number: float
    dimension: str  # time, bytes, %, x, tokens, requests, ..., or count
    value: float
    text: str


def _float(number: str, fraction: str | None) -> float:
    return float(normalise_number(number) + (fraction or ""))


def quantity_of(family: str, number: float) -> tuple[str, float]:
    if family in TIME_SECONDS:
        return "time", number * TIME_SECONDS[family]
    if family in SIZE_BYTES:
        return "bytes", number * SIZE_BYTES[family]
    if family == "K":
        return "count", number * 1e3
    if family == "M":
        return "count", number * 1e6
    return family, number


def sentence_bounds(prose: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around prose[start:end]: from the previous sentence end (or line
    start of a table row or list item) to the next."""
    left = max(prose.rfind("\n", 0, start) + 1, 0)
    for match in _SENTENCE_END.finditer(prose, left, start):
        left = match.end()
    stop = _SENTENCE_END.search(prose, end)
    right = stop.start() if stop else len(prose)
    return left, right


def quantities(prose: str, left: int, right: int) -> list[Quantity]:
    """Every number of prose[left:right], with a unit where one follows."""
    found: list[Quantity] = []
    claimed: set[int] = set()
    for match in CLAIM.finditer(prose, left, right):
        family = _family_of_spelling(match.group(3))
        number = _float(match.group(1), match.group(2))
        dimension, value = quantity_of(family, number)
        found.append(Quantity(match.start(), match.end(), number, dimension, value, match[0]))
        claimed.add(match.start())
    for match in _ANY_NUMBER.finditer(prose, left, right):
        if match.start() in claimed or any(q.start <= match.start() < q.end for q in found):
            continue
        if _LABEL.search(prose[max(left, match.start() - 24) : match.start()]):
            continue  # "Tier 2", "Level 1", "Gate 7": a name, not an amount
        number = _float(match.group(1), match.group(2))
        scale = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9}.get(match.group(3) or "", 1.0)
        found.append(
            Quantity(match.start(), match.end(), number, "count", number * scale, match[0])
        )
    for match in _NUMBER_WORD.finditer(prose, left, right):
        count = float(NUMBER_WORDS[match.group(0).lower()])
        found.append(Quantity(match.start(), match.end(), count, "count", count, match[0]))
    for match in _DOLLARS.finditer(prose, left, right):
        amount = _float(match.group(1), match.group(2))
        found.append(Quantity(match.start(), match.end(), amount, "usd", amount, match[0]))
    found.sort(key=lambda q: q.start)
    return found


def _family_of_spelling(spelling: str) -> str:
    return _FAMILY.get(spelling) or _FAMILY.get(spelling.lower()) or _family_of(spelling)


def _close(actual: float, stated: float, before: str) -> bool:
    """Whether ``stated`` (as the sentence words it) describes ``actual``."""
    if stated == 0 or actual <= 0:
        return False
    if AT_LEAST.search(before):
        return stated <= actual <= stated * 1.5
    if AT_MOST.search(before):
        return stated * 0.5 <= actual <= stated
    tolerance = 0.15 if APPROXIMATE.search(before) else 0.015
    return abs(actual - stated) <= tolerance * stated


def arithmetic(
    target: Quantity, others: list[Quantity], before: str
) -> tuple[str, list[Quantity]] | None:
    """A formula over the other numbers of the sentence that gives ``target``, with the
    operands it used, or None."""
    same = [q for q in others if q.dimension == target.dimension]
    counts = [q for q in others if q.dimension == "count" and q.value > 1]
    percents = [q for q in others if q.dimension == "%"]
    tries: list[tuple[float, str, list[Quantity]]] = []
    for a in same:
        for c in counts:
            tries.append((a.value * c.value, f"{c.text} \u00d7 {a.text}", [c, a]))
            tries.append((a.value / c.value, f"{a.text} / {c.text}", [a, c]))
        for p in percents:
            tries.append((a.value * p.value / 100, f"{p.text} of {a.text}", [p, a]))
        for b in same:
            if b.start <= a.start:
                continue
            tries.append((a.value + b.value, f"{a.text} + {b.text}", [a, b]))
            tries.append((abs(a.value - b.value), f"{a.text} \u2212 {b.text}", [a, b]))
    if target.dimension in ("%", "x"):
        scale = 100.0 if target.dimension == "%" else 1.0
        for a in others:
            for b in others:
                if a is b or a.dimension != b.dimension or a.dimension in ("%", "x"):
                    continue
                if b.value:
                    tries.append((scale * a.value / b.value, f"{a.text} / {b.text}", [a, b]))
                    if target.dimension == "%" and a.start < b.start and a.value:
                        change = scale * abs(a.value - b.value) / a.value
                        tries.append((change, f"change from {a.text} to {b.text}", [a, b]))
    for actual, formula, operands in tries:
        if _close(actual, target.value, before):
            return formula, operands
    return None


# "An ensemble of 3 models plus a judge costs roughly 4x a single call"; "a 300-word
# memory adds roughly 400 tokens" (about 4/3 tokens per English word).
_PLUS_ONE = re.compile(r"\bplus (?:an?|one)\b", re.I)
_WORDS_AFTER = re.compile(r"[\s-]words?\b", re.I)
TOKENS_PER_WORD = (1.2, 1.6)


def counted(
    prose: str, left: int, target: Quantity, others: list[Quantity], before: str
) -> tuple[str, list[Quantity]] | None:
    """Counting arithmetic of the sentence: a multiple that is a count plus the one thing
    the sentence adds ("3 models plus a judge" = 4x), or tokens that are a word count
    at about 4/3 tokens per word (with "roughly", "about", "~")."""
    counts = [q for q in others if q.dimension == "count" and q.value >= 1]
    if target.dimension == "x" and _PLUS_ONE.search(prose, left, target.start):
        for count in counts:
            if _close(count.value + 1, target.value, before):
                return f"{count.text} + 1 (plus one more call)", [count]
    if target.dimension == "tokens" and APPROXIMATE.search(before):
        for count in counts:
            if _WORDS_AFTER.match(prose, count.end) and count.value:
                ratio = target.value / count.value
                if TOKENS_PER_WORD[0] <= ratio <= TOKENS_PER_WORD[1]:
                    return f"{count.text} words at about 4/3 tokens per word", [count]
    return None


def _words(text: str) -> set[str]:
    """Content words, lower case, a plural "s" dropped, identifiers split at case."""
    words = set()
    for raw in _CODE_WORD.findall(text):
        for part in [raw, *_CAMEL.findall(raw), *raw.split("_")]:
            word = part.lower()
            if len(word) >= 4 and word not in _STOP and not word.isdigit():
                word = word[:-1] if word.endswith("s") and len(word) > 4 else word
                words.add(_SYNONYM.get(word, word))
    return words


# Words code and prose use for the same setting ("initialDelay" / "starting at 2 seconds").
_SYNONYM = {
    "initial": "start",
    "starting": "start",
    "backoff": "delay",
    "wait": "delay",
    "waiting": "delay",
    "interval": "delay",
    "maximum": "limit",
    "ceiling": "limit",
    "cap": "limit",
    "expiry": "ttl",
    "expire": "ttl",
}


def literal_matches(literal: float, number: float, family: str) -> str | None:
    """Whether a code literal is the prose number under the unit rule; the rule's name."""

    def same(a: float, b: float) -> bool:
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))

    if same(literal, number):
        return "as written"
    if family in TIME_SECONDS:
        seconds = number * TIME_SECONDS[family]
        if same(literal, seconds * 1000):
            return "in milliseconds"
        if same(literal, seconds) and family != "s":
            return "in seconds"
        if family != "min" and same(literal, seconds / 60) and seconds >= 60:
            return "in minutes"
    elif family in SIZE_BYTES:
        for scale, name in (
            (SIZE_BYTES[family], "in bytes"),
            (_BINARY[family], "in bytes (binary)"),
        ):
            if same(literal, number * scale):
                return name
    elif family == "%":
        if same(literal, number / 100):
            return "as a fraction"
    elif family == "K":
        for scale in (1e3, 1024.0):
            if same(literal, number * scale):
                return "in units"
    elif family == "M":
        for scale in (1e6, 2.0**20):
            if same(literal, number * scale):
                return "in units"
    return None


# A literal is a value when something assigns or passes it ("timeout: 30000", "= 3_000",
# "(30, 60000)", "* 1024", a table cell); a bare "2." opening a list item is not.
_VALUE_CONTEXT = re.compile(r"(?:[=:(,\[*|<>]|=>|\breturn)\s*[\"'`]?$")
_LINE_COMMENT = re.compile(r"(?://|#(?![\w{!\[])|--(?=\s)).*$")
# Fences that hold a sample of the post's own code or configuration (not diagrams or
# console output).
_NOT_SAMPLE_LANGS = frozenset({"mermaid", "text", "txt", "plaintext", "markdown", "md", "output"})
_CODE_LIKE_TEXT_LANGS = frozenset({"text", "txt", "plaintext"})
LONGEST_CODE_LINE = 400  # longer lines are minified or generated: any number is in them


@dataclass(frozen=True)
class Literal:
    value: float
    written: str
    key_words: frozenset[str]  # words of the identifier it is assigned or passed to


def literal_forms(number: float, family: str) -> list[float]:
    """The values a code literal may hold for the prose number under the unit rule."""
    forms = [number]
    if family in TIME_SECONDS:
        seconds = number * TIME_SECONDS[family]
        forms += [seconds * 1000, seconds]
    elif family in SIZE_BYTES:
        forms += [number * SIZE_BYTES[family], number * _BINARY[family]]
    elif family == "K":
        forms += [number * 1e3, number * 1024]
    elif family == "M":
        forms += [number * 1e6, number * 2.0**20]
    return list(dict.fromkeys(round(form, 6) for form in forms))


def code_literals(text: str) -> Iterator[Literal]:
    """Numbers that a line of code assigns or passes, with the words of their keys."""
    if len(text) > LONGEST_CODE_LINE:
        return
    for match in _CODE_NUMBER.finditer(text):
        before = text[max(0, match.start() - 48) : match.start()]
        if not _VALUE_CONTEXT.search(before):
            continue
        try:
            value = _float(match.group(1), match.group(2))
        except ValueError:
            continue
        keys = _CODE_WORD.findall(before)
        yield Literal(value, match.group(0), frozenset(_words(keys[-1])) if keys else frozenset())


@dataclass(frozen=True)
class SampleLine:
    line: int
    text: str
    literals: tuple[Literal, ...]
    # Words and "number unit" phrases the line writes in strings and comments
    # ("next 12 weeks", "// 24 hours for procurement review").
    words: frozenset[str] = frozenset()
    written: str = ""


# A "text" fence that holds code ("const sampler = new RatioSampler(0.1);") is a sample.
_READS_AS_CODE = re.compile(
    r"^\s*(?:const|let|var|function|import|export|def|class|return)\b|\bnew\s+[A-Z]\w*\(|"
    r"^\s*[\w.\"']+\s*[:=]\s*[\w\"'{\[(-]",
    re.M,
)


def sample_lines(post: Post) -> list[SampleLine]:
    """Lines of the post's own fenced code and configuration that assign a number
    (comments removed: a comment is the post's prose again, not its configuration; its
    words still say what the line's values are)."""
    found = []
    for fence in post.fences:
        if fence.lang in _NOT_SAMPLE_LANGS and not (
            fence.lang in _CODE_LIKE_TEXT_LANGS and _READS_AS_CODE.search(fence.content)
        ):
            continue
        for offset, text in enumerate(fence.content.split("\n")):
            if len(text) > LONGEST_CODE_LINE:
                continue
            comment = _LINE_COMMENT.search(text)
            code = _LINE_COMMENT.sub("", text)
            literals = tuple(code_literals(code))
            if comment is not None:
                described = frozenset(_words(comment.group(0)))
                literals = tuple(
                    Literal(lit.value, lit.written, lit.key_words | described) for lit in literals
                )
            if literals or CLAIM.search(text):
                found.append(
                    SampleLine(
                        fence.start_line + 1 + offset,
                        text.strip()[:80],
                        literals,
                        frozenset(_words(code)),
                        normalise_number(code),
                    )
                )
    return found


def is_identifier_like(name: str) -> bool:
    """A name that reads as code, not as an English word: camelCase, snake_case,
    SCREAMING_CASE, or with digits ("grok-3"). Plain words ("timeout") are everywhere."""
    return bool(
        re.search(r"[a-z][A-Z]|[A-Za-z]_|_[A-Za-z]|\d", name)
        or re.fullmatch(r"[A-Z][A-Z0-9]{3,}", name)
        or re.search(r"[A-Z][a-z]+[A-Z]", name)
    )


# Test files: their numbers are fixtures, not the product's constants.
_TESTS = r"(?:^|/)(?:test|tests|__tests__|spec)/|\.(?:test|spec)\.\w+$"
_GENERATED = re.compile(
    r"(?:^|/)(?:dist|build|out|action-dist|vendor|node_modules)/|\.(?:map|min\.js|lock)$|"
    r"(?:^|/)(?:package-lock\.json|pnpm-lock\.yaml|yarn\.lock)$",
    re.I,
)
_NOT_EVIDENCE = re.compile(f"{_GENERATED.pattern}|{_TESTS}", re.I)


class RepositoryNumbers:
    """Numbers standing near a named symbol in the repository's text files at the ref:
    the constants a post quotes when it describes the code ("polls every 3 seconds" next
    to `POLL_INTERVAL_MS`, whose definition reads ``3_000``)."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._lines: dict[int, list[str]] = {}
        self.commits = CommitStats(index.root)

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
        for file_id in file_ids:
            path = self.index.text_paths[file_id]
            if _NOT_EVIDENCE.search(path) or path == self.index.changelog_path:
                continue
            stop = offsets[file_id + 1] if file_id + 1 < len(offsets) else len(blob)
            if blob.find(needle, offsets[file_id], stop) < 0:
                continue
            lines = self._file_lines(file_id)
            bounded = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w-])")
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
            symbol_words = _words(symbol)
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
            if path is None or _NOT_EVIDENCE.search(path):
                continue
            text = self.index.file_text(path) or ""
            # The class's own name is in every constant of its file: it links nothing.
            linking = sentence_words - _words(symbol)
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
                    if _NOT_EVIDENCE.search(path) or path == self.index.changelog_path:
                        continue
                    for number_line, text in enumerate(self._file_lines(file_id), 1):
                        if spelling not in text:
                            continue
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
            if not self.index.contains(spelling):
                continue
            bounded = re.compile(rf"(?<![\w.,]){re.escape(spelling)}(?![\w])")
            for path, _offset in self.index.files_containing(spelling, limit=STATED_FILES_LIMIT):
                if _NOT_EVIDENCE.search(path) or path == self.index.changelog_path:
                    continue
                text = self.index.file_text(path) or ""
                if excerpt and excerpt in text:
                    continue
                on_topic = _stems_meet(_words(path), topic)
                lines = text.split("\n")
                for number_line, line in enumerate(lines):
                    if len(line) > LONGEST_CODE_LINE or not bounded.search(line):
                        continue
                    window = _words(" ".join(lines[max(0, number_line - 1) : number_line + 2]))
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
        for pattern, linked_by in (
            (f".length > {n}", "object"),
            (f".length >= {n}", "object"),
            (f".length < {n}", "object"),
            (f".length <= {n}", "object"),
            (f"slice(0, {n})", "file"),
            (f"substring(0, {n})", "file"),
        ):
            if not self.index.contains(pattern):
                continue
            for path, _offset in self.index.files_containing(pattern, limit=STATED_FILES_LIMIT):
                if _NOT_EVIDENCE.search(path):
                    continue
                text = self.index.file_text(path) or ""
                for number_line, line in enumerate(text.split("\n"), 1):
                    at = line.find(pattern)
                    if at < 0 or len(line) > LONGEST_CODE_LINE:
                        continue
                    # The file is the topic's ("reranker.ts" for a post on reranking);
                    # a length test also names what it measures ("description.length").
                    stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
                    linked = _stems_meet(_words(stem), topic)
                    if linked_by == "object":
                        objects = re.findall(r"[A-Za-z_]\w*", line[:at])[-1:]
                        linked = linked and bool(objects) and bool(_words(objects[0]) & words)
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


def _stems_meet(names: set[str], words: set[str]) -> bool:
    """Whether a name and a word share a stem of six letters ("reranker", "reranking")."""
    return any(
        len(name) >= 6 and len(word) >= 6 and name[:6] == word[:6]
        for name in names
        for word in words
    )


def symbols_in(raw: str, left: int, right: int) -> tuple[list[str], list[str]]:
    """(identifiers, paths) named in code spans of raw[left:right]."""
    identifiers: list[str] = []
    paths: list[str] = []
    for match in _CODE_SPAN.finditer(raw, left, right):
        content = match.group(0).strip("`").strip()
        for path in _PATH_LIKE.findall(content):
            if path not in paths:
                paths.append(path)
        for name in _IDENTIFIER.findall(content):
            if name not in identifiers and is_identifier_like(name):
                identifiers.append(name)
        # Model ids and other dashed names are searched as written ("grok-3").
        if re.fullmatch(r"[\w.-]+-[\w.-]+", content) and content not in identifiers:
            identifiers.insert(0, content)
    return identifiers, paths


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


@dataclass
class _Sentence:
    left: int
    right: int
    in_table: bool
    results: dict[int, str]  # claim start -> formula that gives it
    inputs: dict[int, str]  # claim start -> formula it is a premise of
    operands: list[tuple[str, float]] = field(default_factory=list)  # of those formulas


def _sentence(prose: str, start: int, end: int, cache: dict[int, _Sentence]) -> _Sentence:
    left, right = sentence_bounds(prose, start, end)
    known = cache.get(left)
    if known is not None:
        return known
    line_start = prose.rfind("\n", 0, start) + 1
    in_table = prose[line_start:start].lstrip().startswith("|")
    sentence = _Sentence(left, right, in_table, {}, {})
    if not in_table:
        # Operands may stand in the sentence before, on the same line ("30 seconds per
        # call. ... five calls, 150 seconds").
        previous = left
        if left > line_start:
            previous = sentence_bounds(prose, left - 2, left - 1)[0]
        found = quantities(prose, max(previous, line_start), right)
        for target in found:
            if target.dimension == "count" or target.start < left:
                continue
            # Inputs come before what follows from them ("1,000 jobs at 2 s ... 33 minutes").
            others = [q for q in found if q.start < target.start]
            before = prose[max(left, target.start - 30) : target.start]
            derived = arithmetic(target, others, before) or counted(
                prose, left, target, others, before
            )
            if derived is None:
                continue
            formula, operands = derived
            # Arithmetic on the post's own inputs: every operand with a unit is a premise
            # the sentence sets up ("with 4 workers at 250 ms each"); a result computed
            # from reported figures ("costs $0.0006 ... an 8x difference") is a claim.
            premises = [
                operand
                for operand in operands
                if operand.dimension != "count"
                and (
                    PREMISE.search(prose[max(line_start, operand.start - 60) : operand.start])
                    # A rate the post sets up ("wasting 30 seconds per call"); a price is
                    # reported, not assumed ("$0.0006 per 1K tokens").
                    or (
                        operand.dimension != "usd"
                        and PREMISE_AFTER.match(prose, operand.end, operand.end + 20)
                    )
                )
            ]
            if len(premises) < sum(operand.dimension != "count" for operand in operands):
                continue
            sentence.results[target.start] = formula
            sentence.operands += [(operand.dimension, operand.value) for operand in operands]
            for operand in premises:
                sentence.inputs.setdefault(operand.start, formula)
    cache[left] = sentence
    return sentence


def _hypothetical(prose: str, sentence: _Sentence, start: int, end: int) -> str | None:
    """The cue of a supposition whose clause holds prose[start:end], if any."""
    if sentence.in_table:
        return None
    for cue in HYPOTHETICAL.finditer(prose, sentence.left, start):
        stop = _CLAUSE_BREAK.search(prose, cue.end(), sentence.right)
        # A supposition lists its premises: "If 85% pass, 12% need a retry, and 3% fail,
        # ..." runs on through short clauses that each hold a number.
        while stop is not None and stop.start() < end:
            following = _CLAUSE_BREAK.search(prose, stop.end(), sentence.right)
            chunk = prose[stop.end() : following.start() if following else sentence.right]
            if not re.match(r"\s*(?:(?:and|or)\s+)?[~$]?\d", chunk) or len(chunk.split()) > 8:
                break
            if following is None or following.start() >= end:
                stop = following
                break
            stop = following
        if stop is None or stop.start() >= end:
            return cue.group(0)
    # "a 50KB file, for example," / "say, 900 ms": the example cue in the number's own
    # clause, or in the clause just before or after it.
    clause_left = sentence.left
    for stop in _CLAUSE_BREAK.finditer(prose, sentence.left, start):
        clause_left = stop.end()
    after = _CLAUSE_BREAK.search(prose, end, sentence.right)
    clause_right = after.start() if after else sentence.right
    before = EXAMPLE_BEFORE.search(prose[max(sentence.left, start - 16) : start])
    if before:
        return before.group(0).strip()
    nearby = prose[max(sentence.left, clause_left - 16) : min(sentence.right, clause_right + 16)]
    cue = EXAMPLE_CUE.search(nearby)
    if cue:
        return cue.group(0)
    # "A tool that takes 5 ms ... than one that takes 5 s": a generic example.
    generic = _GENERIC.match(prose, sentence.left)
    return generic.group(0).strip() if generic else None


# cited_by of a number the repository's own code or files hold (not links or evidence),
# and of a number whose footnote links a source.
REPOSITORY_CITATION = "repository: "
FOOTNOTE_CITATION = "footnote: "
# A comparison written as a bound in a list item, a table cell or a heading ("Error rate
# above 5%", "| > 1% error rate |", "(over 2000 characters)"): a threshold the post sets.
_COMPARISON = re.compile(
    r"(?:[<>]=?|\u2264|\u2265|\b(?:above|below|over|under|exceeds?|exceeding|more than|"
    r"less than|at least|at most|up to|no more than|beyond))\s*[~$]?\s*$",
    re.I,
)
_METRIC = re.compile(
    r"^\W*(?:[\w'-]+\s+){0,2}(?:rate|ratio|time|latency|usage|cost|size|length|score|"
    r"count|errors?|budget|total|duration|share|load|drift)s?\s*$|^\W*$",
    re.I,
)
_METRIC_WORD = re.compile(
    r"\b(?:rate|ratio|latency|usage|cost|size|length|score|count|errors?|budget|total|"
    r"duration|share|load|drift)\b",
    re.I,
)
_DANGLING = frozenset("a an the of for to in on at by with and or per is are was".split())
_ESTIMATE = re.compile(r"\b(?:est\.|(?:estimated?|estimates|assum\w*|example|projected)\b)", re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")
_QUOTED = re.compile(r'"[^"\n]{3,}?"|\u201c[^\u201d\n]{3,}?\u201d')
# A source the sentence names for its number: a file, a commit, a document, a comment.
_SOURCE_NAMED = re.compile(
    r"`[^`\n]*\.(?:md|mjs|js|ts|py|json|ya?ml|txt|sh)`|`[0-9a-f]{7,40}`|\bcommit\s+`?[0-9a-f]{7,}|"
    r"\bthe (?:commit|commit message|header comment)\b",
    re.I,
)
_REPORTING = re.compile(
    r"\b(?:names?|states?|stated|says|said|records?|reports?|lists?|documents?|notes?|reads?|"
    r"opens? with|comes? from|according to|quotes?|writes?|puts? it|gives?|spells? out)\b",
    re.I,
)
FIRST_PERSON_POST = 8  # first-person singular words that make a whole post a personal story
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|my|me|mine)\b")
_COMMIT_NAMED = re.compile(r"`([0-9a-f]{7,40})`|\bcommit\s+([0-9a-f]{7,40})\b", re.I)
_FOOTNOTE_MARK = re.compile(r"^[^|\n]{0,12}?(?:\\?\*|\u2020|\[\^[^\]]+\])")
_FOOTNOTE_LINE = re.compile(r"^\s*(?:>\s*)?(?:\*\*)?(?:\\\*|\*(?!\*)|\u2020|\[\^[^\]]+\]:)")
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


class _Judge:
    """Decides, for a number no link or evidence cites, whether the repository's code
    cites it, or which rule makes it not a claim (``(rule, reason)``)."""

    def __init__(
        self,
        post: Post,
        raw_claims: list[tuple[int, int, re.Match[str], str]],
        index: RepoIndex | None,
    ) -> None:
        self.post = post
        self.searchable = ""
        self.raw = ""
        self.prose_line_numbers: list[int] = []
        if raw_claims:
            lines = prose_lines(post)
            self.searchable = _URL.sub(_blank, LINK.sub(_blank_link_target, raw_claims[0][3]))
            self.raw = "\n".join(post.lines[number - 1] for number, _ in lines)
            self.prose_line_numbers = [number for number, _ in lines]
        self.sentences: dict[int, _Sentence] = {}
        self._samples: list[SampleLine] | None = None
        self.numbers = RepositoryNumbers(index) if index is not None else None
        # Commits the post names (backticked ids, "commit 1a2b3c4"), as the repository
        # knows them: their diffstats are facts of the repository.
        self.commits: list[str] = []
        self.unknown_commits: list[str] = []  # named by the post, unknown to the repository
        if index is not None:
            for named in _COMMIT_NAMED.finditer(post.body):
                sha = (named.group(1) or named.group(2)).lower()
                full = index.commit_for(sha)
                if full and full not in self.commits:
                    self.commits.append(full)
                elif full is None and sha not in self.unknown_commits:
                    self.unknown_commits.append(sha)
        # A post told in the first person singular throughout is the author's story.
        self.first_person_post = len(_FIRST_PERSON.findall(self.searchable)) >= FIRST_PERSON_POST
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
        sentence = _sentence(prose, start, end, self.sentences)
        # Words of the sentence as written, code spans included: `RateLimiter` links the
        # sentence to ``new RateLimiter(10, 60000)`` as strongly as any prose word.
        words = _words(self.raw[sentence.left : sentence.right])
        if sentence.in_table:
            # A cell's column header names what the cell holds ("| Max duration |").
            words |= _words(self._column_header(prose, line_start, start))
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
            unit_words = _words(" ".join(UNITS.get(family, ())))
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
                and _BOUND_WORDS.search(self.raw, sentence.left, sentence.right)
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
        in_list = sentence.in_table or bool(_LIST_ITEM.match(line_text))
        clause_left = sentence.left
        for stop in _CLAUSE_BREAK.finditer(prose, sentence.left, start):
            clause_left = stop.end()
        if sentence.in_table and self._estimate_row(prose, line_start, line_text):
            return "estimate", "a row of the post's own estimate table (its header or row says so)"
        bound = _COMPARISON.search(prose[clause_left:start])
        if sentence.in_table and bound:
            cell_left = prose.rfind("|", 0, start) + 1
            cell_right = prose.find("|", end)
            cell = prose[cell_left : cell_right if cell_right >= 0 else len(prose)]
            named = _METRIC_WORD.search(cell.replace(prose[start:end], " "))
        else:
            named = None
        if bound and (
            named
            or (
                in_list
                and not sentence.in_table
                and _METRIC.match(prose[clause_left : clause_left + bound.start()])
            )
        ):
            return (
                "threshold",
                f"a bound the post sets ({bound.group(0).strip()!r} in a list or table)",
            )
        quote = next(
            (
                q
                for q in _QUOTED.finditer(prose, line_start, line_start + len(line_text))
                if q.start() < start < q.end()
            ),
            None,
        )
        if quote is not None:
            return "quotation", "inside a quotation: an example answer or a named source's words"
        if family in ("files", "lines") and _DIFFSTAT.search(
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
        source = _SOURCE_NAMED.search(self.raw, sentence.left, sentence.right)
        if source and _REPORTING.search(prose, sentence.left, sentence.right):
            return (
                "attributed",
                f"the sentence attributes it to {source.group(0)} (not found in the repository "
                "at the ref: unverified)",
            )
        paragraph = self._paragraph(start) + 1
        absent = self._absent_source(max(paragraph, 0), sentence.left)
        if absent and _REPORTING.search(prose, sentence.left, sentence.right):
            return (
                "attributed",
                f"the paragraph quotes {absent}, a file the repository does not hold at the "
                "ref (another codebase's: unverified)",
            )
        if self.first_person_post or _FIRST_PERSON.search(prose, max(paragraph, 0), sentence.right):
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
        cue = _hypothetical(prose, sentence, start, end)
        if cue is not None:
            return "hypothetical", f"inside a supposition introduced by {cue!r}"
        if not sentence.in_table:
            clause_left = sentence.left
            for stop in _CLAUSE_BREAK.finditer(prose, sentence.left, start):
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

    def _sequence(
        self, prose: str, sentence: _Sentence, start: int, family: str, value: float
    ) -> str | None:
        """A step of a backoff the paragraph describes ("exponential backoff: the first
        retry waits 1 second, the second 2 seconds, the third 4 seconds"): an earlier
        number of the sentence, itself cited or not a claim, doubled once or more."""
        paragraph = self._paragraph(start) + 1
        if not _DOUBLING.search(prose, max(paragraph, 0), sentence.right):
            return None
        dimension, base_value = quantity_of(family, value)
        for earlier in quantities(prose, sentence.left, start):
            if earlier.dimension != dimension or earlier.start not in self.cleared:
                continue
            for steps in range(1, 7):
                if earlier.value and abs(earlier.value * 2**steps - base_value) < 1e-9:
                    return (
                        f"{earlier.text.strip()} doubled {steps} time(s): a step of the "
                        "sequence the paragraph describes"
                    )
        return None

    def _sample_size(self, prose: str, sentence: _Sentence, start: int, value: float) -> str | None:
        """ "N lines" that one of the post's own fenced samples measures ("a chat UI in
        under 80 lines of component code" after a 64-line component)."""
        before = prose[max(sentence.left, start - 30) : start]
        line = self.searchable.count("\n", 0, start)  # index into the prose lines
        number = self.prose_line_numbers[line] if line < len(self.prose_line_numbers) else 0
        # The sample the sentence follows: the last fence above it.
        above = [f for f in self.post.fences if f.end_line < number]
        if not above or above[-1].lang in _NOT_SAMPLE_LANGS:
            return None
        fence = above[-1]
        lines = fence.content.rstrip("\n").split("\n")
        for size, what in (
            (len(lines), "lines"),
            (sum(bool(t.strip()) for t in lines), "non-blank lines"),
        ):
            if _close(size, value, before) or (
                AT_MOST.search(before) is None
                and AT_LEAST.search(before) is None
                and abs(size - value) <= 1
            ):
                return f"the post's own sample at line {fence.start_line} has {size} {what}"
        return None

    def _sample_value(
        self, start: int, end: int, sentence: _Sentence, value: float, family: str, words: set[str]
    ) -> str | None:
        """The post's own code assigns the number, or writes it with its unit, under a key
        that shares a word with the sentence (the unit's own words count: ``percent: 5``
        for "the initial 5%")."""
        # A value as written ("5") must share a word with the number's own neighbourhood;
        # a converted one ("30000" for 30 s) or a decimal as written ("speed: 0.9") with
        # the sentence.
        unit_words = _words(" ".join(UNITS.get(family, ())))
        local = _words(self.raw[max(sentence.left, start - 60) : min(sentence.right, end + 60)])
        local |= unit_words
        everywhere = words | unit_words
        for sample in self.samples:
            for literal in sample.literals:
                rule = literal_matches(literal.value, value, family)
                if rule is None:
                    continue
                near = rule == "as written" and literal.value == int(literal.value)
                shared = literal.key_words & (local if near else everywhere)
                if shared:
                    return (
                        f"{literal.written.strip()} ({rule}) in the post's own code at line "
                        f"{sample.line} ({sample.text!r}; shared words: "
                        f"{', '.join(sorted(shared)[:3])})"
                    )
            # Written with its unit in the code itself ("for next 12 weeks" in a prompt
            # string, the sentence saying "a 12-week forecast").
            for match in CLAIM.finditer(sample.written):
                written = float(normalise_number(match.group(1)) + (match.group(2) or ""))
                if written != value or _family_of_spelling(match.group(3)) != family:
                    continue
                shared = (sample.words - unit_words) & words
                if shared:
                    return (
                        f"{match.group(0).strip()} written in the post's own code at line "
                        f"{sample.line} ({sample.text!r}; shared words: "
                        f"{', '.join(sorted(shared)[:3])})"
                    )
        return None

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

    def _topic_words(self, start: int) -> set[str]:
        """Words of the post's title and of the nearest heading above ``start``."""
        title = (self.post.front_matter or {}).get("title")
        text = title if isinstance(title, str) else ""
        heading = self.post_heading_before(start)
        return _words(f"{text} {heading}")

    def post_heading_before(self, start: int) -> str:
        line = self.searchable.count("\n", 0, start)
        number = self.prose_line_numbers[line] if line < len(self.prose_line_numbers) else 0
        for index in range(number - 1, self.post.body_start_line - 2, -1):
            if 0 <= index < len(self.post.lines) and self.post.lines[index].startswith("#"):
                return self.post.lines[index].lstrip("#")
        return ""

    def _column_header(self, prose: str, line_start: int, start: int) -> str:
        """The header cell above the table cell at ``start`` (empty when none)."""
        column = prose.count("|", line_start, start)
        header_start = line_start
        while header_start > 0:
            previous = prose.rfind("\n", 0, header_start - 1) + 1
            if not prose[previous:header_start].lstrip().startswith("|"):
                break
            header_start = previous
        if header_start == line_start:
            return ""
        header = self.raw[header_start : self.raw.find("\n", header_start)]
        cells = header.split("|")
        return cells[column] if 0 < column < len(cells) else ""

    def _absent_source(self, left: int, right: int) -> str | None:
        """A source file the paragraph names before the sentence (`narrative-opening.mjs`)
        with a reporting verb, when the repository holds no file of that name."""
        if self.numbers is None:
            return None
        for source in _SOURCE_NAMED.finditer(self.raw, left, right):
            name = source.group(0).strip("`")
            if not re.fullmatch(r"[\w./-]+\.\w+", name):
                continue
            index = self.numbers.index
            if index.match_path(name) or index.match_filename(name.rsplit("/", 1)[-1]):
                continue
            if _REPORTING.search(self.raw, source.end(), right):
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

    def _estimate_row(self, prose: str, line_start: int, line_text: str) -> bool:
        """A table row of the post's own estimate: the row's first cell, or the table's
        header row, says "estimate", "est." or "assumption"."""
        first_cell = line_text.strip().strip("|").split("|", 1)[0]
        if _ESTIMATE.search(first_cell):
            return True
        header_start = line_start
        while header_start > 0:
            previous = prose.rfind("\n", 0, header_start - 1) + 1
            if not prose[previous:header_start].lstrip().startswith("|"):
                break
            header_start = previous
        header = prose[header_start : prose.find("\n", header_start)]
        if _ESTIMATE.search(header):
            return True
        # A row of the table that says it is an estimate ("| Estimated daily usage |")
        # makes the table the post's estimate.
        position = header_start
        while position < len(prose):
            stop = prose.find("\n", position)
            row = prose[position : stop if stop >= 0 else len(prose)]
            if not row.lstrip().startswith("|"):
                break
            if _ESTIMATE.search(row.strip().strip("|").split("|", 1)[0]):
                return True
            position = len(prose) if stop < 0 else stop + 1
        return False

    def _footnote(self, prose: str, end: int, line_text: str) -> str | None:
        """A footnote marker right after the number ("~92% cheaper*") whose footnote,
        somewhere in the post, links a source."""
        if not _FOOTNOTE_MARK.match(prose[end : end + 16]):
            return None
        for number, text in self.post.body_lines():
            if _FOOTNOTE_LINE.match(text) and LINK.search(text):
                return f"{FOOTNOTE_CITATION}line {number}"
        return None

    def _repository_documents(
        self,
        prose: str,
        sentence: _Sentence,
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
        unit_words = _words(" ".join(UNITS.get(family, ())))
        excerpt = self.raw[sentence.left : sentence.right].strip()[:60]
        stop = prose.find("\n\n", start)
        near = _words(self.raw[paragraph : stop if stop >= 0 else len(prose)]) - unit_words
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
        unit_words = _words(core)
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
        index = self.numbers.index
        vocabulary = unit_words | _words(
            " ".join(
                UNITS.get(
                    _family_of_spelling(CLAIM.match(core).group(3) if CLAIM.match(core) else ""), ()
                )
            )
        )
        for phrase in dict.fromkeys(phrases):
            extra = phrase.replace(core, " ").replace(normalise_number(core), " ")
            extra = re.sub(r"/(\w+)", r" per \1", extra).split()
            content = {
                word.lower() for word in extra if len(word) >= 3 and word.lower() not in _DANGLING
            } - vocabulary
            # Two more words, one of them a content word, and no dangling "for"/"the".
            if len(extra) < 2 or not content or extra[-1].lower() in _DANGLING:
                continue
            if index.contains(phrase):
                path = index.locate(phrase)
                if path and not _GENERATED.search(path) and not self._holds_post(path, start):
                    return f"{path} states {phrase!r}"
        return None

    def _holds_post(self, path: str, start: int) -> bool:
        """Whether a repository file is a copy of this post (it holds the sentence)."""
        assert self.numbers is not None
        left, right = sentence_bounds(self.searchable, start, start + 1)
        excerpt = self.raw[left:right].strip()[:60]
        return bool(excerpt) and excerpt in (self.numbers.index.file_text(path) or "")

    def remember(self, start: int, dimension: str, value: float, rule: str) -> None:
        """An illustrative value of the paragraph, for later sentences that reuse it; and
        of the post, with the words around it, for a later paragraph that names it again
        in the same words ("12% need Tier 2" ... "**12% Tier 2**: products ...")."""
        self.illustrative.setdefault(self._paragraph(start), {})[(dimension, value)] = rule
        self.post_illustrative.setdefault((dimension, value), []).append(
            (rule, self._near_words(start))
        )

    def reused(self, start: int, family: str, value: float) -> str | None:
        dimension, base = quantity_of(family, value)
        known = self.illustrative.get(self._paragraph(start), {})
        # A count of the illustration ("a batch of 1,000 items") is the same value when a
        # later sentence gives it a unit ("all 1,000 requests").
        return known.get((dimension, base)) or known.get(("count", value))

    def reused_in_post(self, start: int, family: str, value: float) -> str | None:
        """An earlier illustrative value of the post, named again with a word it stood
        next to (a word other than the unit's)."""
        if family in ("K", "M"):
            return None
        unit_words = _words(" ".join(UNITS.get(family, ())))
        near = self._near_words(start) - unit_words
        for rule, words in self.post_illustrative.get(quantity_of(family, value), []):
            shared = near & words
            if shared:
                return f"{rule} earlier in the post, next to {', '.join(sorted(shared)[:2])}"
        return None

    def _near_words(self, start: int) -> set[str]:
        line_start = self.raw.rfind("\n", 0, start) + 1
        line_end = self.raw.find("\n", start)
        return _words(
            self.raw[
                max(line_start, start - NEAR_WORDS) : min(
                    line_end if line_end >= 0 else len(self.raw), start + NEAR_WORDS
                )
            ]
        )

    def operands_of(self, start: int) -> list[tuple[str, float]]:
        sentence = self.sentences.get(sentence_bounds(self.searchable, start, start + 1)[0])
        return sentence.operands if sentence else []

    def cited_before(self, start: int, family: str, value: float) -> str | None:
        """The citation of the same value earlier in the paragraph ("8,192 tokens for
        `lm-studio` ... an 8,192-token local model"): the same figure, cited once."""
        known = self.cited.get(self._paragraph(start), {}).get(quantity_of(family, value))
        if known is None:
            return None
        line, by = known
        by = by.split(" (as cited at line ")[0]
        return f"{by} (as cited at line {line})"

    def paragraph_of(self, offset: int) -> int:
        return self._paragraph(offset)

    def _paragraph(self, offset: int) -> int:
        return self.searchable.rfind("\n\n", 0, offset)


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
    judge = _Judge(post, raw_claims, index)
    claims: list[Claim] = []
    exempt: list[Exempt] = []
    vetoed: dict[int, str] = {}  # id(claim) of uncited claims -> why no rule exempted them
    for line, offset, match, _prose in raw_claims:
        number = normalise_number(match.group(1)) + (match.group(2) or "")
        family = (
            _FAMILY.get(match.group(3))
            or _FAMILY.get(match.group(3).lower())
            or _family_of(match.group(3))
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
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: Settings) -> Decision:
    uncited, claims = len(result.findings), len(result.detail["claims"])
    summary = (
        f"{uncited} of {claims} numbers with units uncited"
        if uncited
        else f"{claims} numbers with units, all cited"
    )
    exempt = len(result.detail.get("exempt", []))
    if exempt:
        summary += f"; {exempt} not claims (see exempt)"
    return Decision("FAIL" if uncited else "PASS", summary, uncited)


def _family_of(spelling: str) -> str:
    for family, spellings in UNITS.items():
        if any(
            spelling.lower() == s.lower()
            or re.fullmatch(re.escape(s).replace(r"\ ", r"\s+"), spelling, re.I)
            for s in spellings
        ):
            return family
    return spelling


GATE = Gate(
    id=7,
    name="numerical_claims",
    advisory=False,
    kind="hard",
    description="Every number with a unit in prose is cited.",
    check=check,
    decide=decide,
    cache_inputs=commit_inputs,
)
