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
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.repo import git
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
    # The prose view's lines: URLs are blanked by find_claims, which keeps link text.
    return list(post.prose.lines(html=False, urls=False))


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
    r"p50|p90|p95|p99|median|average|averaged|mean|peak\w*|we saw|we found|in production|"
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
    r"schedule|run|send|split|chunk|truncate|retry|wait|poll|cache|sample)\b",
    re.I,
)
# A clause that states a supposition: the numbers inside it are the post's own inputs.
HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|assume|assuming|imagine|hypothetically|what if|"
    r"let's say|let us say|in a scenario where)\b",
    re.I,
)
_GENERIC = re.compile(r"\W*(?:a|an|any)\s+(?:[\w-]+\s+){1,2}that\b", re.I)
EXAMPLE_CUE = re.compile(r"\b(?:for example|for instance|e\.g\.|say)(?=[\s,)]|$)", re.I)
# "a strict limit (like 512 tokens)": an example given right before the number.
EXAMPLE_BEFORE = re.compile(r"\b(?:like|such as|say|e\.g\.)\s+(?:~\s?|about\s+)?$", re.I)
# Premises of an illustrative calculation ("with 4 workers at 250 ms each").
PREMISE = re.compile(
    r"\b(?:with|at|of|per|each|say|given|assuming|assume|suppose|if|for example|e\.g\.)\s+"
    r"(?:\w+\s+){0,3}$",
    re.I,
)
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
DISTINCTIVE_FILES_LIMIT = 400
# Keys that name no setting of their own: the value belongs to the block they sit in.
GENERIC_KEYS = frozenset({"default", "value", "limit", "size", "amount", "count"})
SYMBOL_WINDOW = 3  # lines either side of the symbol's line


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


def sample_lines(post: Post) -> list[SampleLine]:
    """Lines of the post's own fenced code and configuration that assign a number
    (comments removed: a comment is the post's prose again, not its configuration)."""
    found = []
    for fence in post.fences:
        if fence.lang in _NOT_SAMPLE_LANGS:
            continue
        for offset, text in enumerate(fence.content.split("\n")):
            literals = tuple(code_literals(_LINE_COMMENT.sub("", text)))
            if literals:
                found.append(SampleLine(fence.start_line + 1 + offset, text.strip()[:80], literals))
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
        self._commit_files: dict[str, list[str]] = {}
        self._numstat: dict[tuple[str, str], tuple[int, int] | None] = {}

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

    def commit_files(self, commit: str) -> list[str]:
        """Paths a commit changes (``git diff-tree``: trees only, so it works where some
        blobs are missing), once per commit."""
        known = self._commit_files.get(commit)
        if known is None:
            done = git(
                self.index.root,
                "diff-tree",
                "-r",
                "--root",  # a first commit's files too
                "--no-commit-id",
                "--name-only",
                commit,
                check=False,
            )
            text = done.stdout.decode("utf-8", "replace")
            known = [line for line in text.splitlines() if line] if done.returncode == 0 else []
            self._commit_files[commit] = known
        return known

    def commit_numstat(self, commit: str, path: str) -> tuple[int, int] | None:
        """(added, removed) lines of one file in a commit, once per commit and file."""
        key = (commit, path)
        if key not in self._numstat:
            done = git(
                self.index.root,
                "diff-tree",
                "-r",
                "--root",  # a first commit's files too
                "--no-commit-id",
                "--numstat",
                commit,
                "--",
                path,
                check=False,
            )
            fields = done.stdout.decode("utf-8", "replace").split()
            self._numstat[key] = (
                (int(fields[0]), int(fields[1]))
                if done.returncode == 0
                and len(fields) >= 3
                and fields[0].isdigit()
                and fields[1].isdigit()
                else None
            )
        return self._numstat[key]

    def line_count(self, path: str) -> tuple[str, int] | None:
        found = self.index.match_path(path) or self.index.match_filename(path.rsplit("/", 1)[-1])
        if not found or found.endswith("/"):
            return None
        text = self.index.file_text(found)
        if text is None:
            return None
        return found, text.count("\n") + (0 if text.endswith("\n") or not text else 1)


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
            derived = arithmetic(target, others, before)
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
                and PREMISE.search(prose[max(line_start, operand.start - 60) : operand.start])
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
    r"\b(?:names?|states?|says|said|records?|reports?|lists?|documents?|notes?|reads?|"
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
        if raw_claims:
            lines = prose_lines(post)
            self.searchable = _URL.sub(_blank, LINK.sub(_blank_link_target, raw_claims[0][3]))
            self.raw = "\n".join(post.lines[number - 1] for number, _ in lines)
        self.sentences: dict[int, _Sentence] = {}
        self._samples: list[SampleLine] | None = None
        self.numbers = RepositoryNumbers(index) if index is not None else None
        # Commits the post names (backticked ids, "commit 1a2b3c4"), as the repository
        # knows them: their diffstats are facts of the repository.
        self.commits: list[str] = []
        if index is not None:
            for named in _COMMIT_NAMED.finditer(post.body):
                full = index.commit_for((named.group(1) or named.group(2)).lower())
                if full and full not in self.commits:
                    self.commits.append(full)
        # A post told in the first person singular throughout is the author's story.
        self.first_person_post = len(_FIRST_PERSON.findall(self.searchable)) >= FIRST_PERSON_POST
        # paragraph -> (dimension, value) -> the rule that made it illustrative
        self.illustrative: dict[int, dict[tuple[str, float], str]] = {}

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
        footnote = self._footnote(prose, end, line_text)
        if footnote:
            return _Claimed(footnote)
        sentence = _sentence(prose, start, end, self.sentences)
        # Words of the sentence as written, code spans included: `RateLimiter` links the
        # sentence to ``new RateLimiter(10, 60000)`` as strongly as any prose word.
        words = _words(self.raw[sentence.left : sentence.right])
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
            if found:
                return _Claimed(REPOSITORY_CITATION + found)
            stated = self._repository_states(prose, start, end, match.group(0))
            if stated:
                return _Claimed(REPOSITORY_CITATION + stated)
        measured = measured_cue(prose, sentence.left, start, end, sentence.right)
        if measured:
            return _Claimed(None, f"measured-sounding ({measured!r}): no exemption applies")
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
        source = _SOURCE_NAMED.search(self.raw, sentence.left, sentence.right)
        if source and _REPORTING.search(prose, sentence.left, sentence.right):
            return (
                "attributed",
                f"the sentence attributes it to {source.group(0)} (not found in the repository "
                "at the ref: unverified)",
            )
        paragraph = self._paragraph(start) + 1
        if self.first_person_post or _FIRST_PERSON.search(prose, max(paragraph, 0), sentence.right):
            return "anecdote", "the author's own story (told in the first person singular)"
        earlier = self.reused(start, family, value)
        if earlier is not None:
            return "post-illustration", f"the value the paragraph already used ({earlier})"
        # A value as written ("5") must share a word with the number's own neighbourhood;
        # a converted one ("30000" for 30 s) with the sentence.
        local = _words(self.raw[max(sentence.left, start - 60) : min(sentence.right, end + 60)])
        for sample in self.samples:
            for literal in sample.literals:
                rule = literal_matches(literal.value, value, family)
                shared = literal.key_words & (local if rule == "as written" else words)
                if rule is not None and shared:
                    return (
                        "post-sample-config",
                        f"{literal.written.strip()} ({rule}) in the post's own code at line "
                        f"{sample.line} ({sample.text!r}; shared words: "
                        f"{', '.join(sorted(shared)[:3])})",
                    )
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
                return "advice", f"a value the post recommends (the clause opens with {verb!r})"
        return _Claimed(None)

    def _commit_stat(self, family: str, value: float, paths: list[str]) -> str | None:
        """A diffstat of a commit the post names: "166 files changed", "adds 361 lines"
        to a file the sentence names."""
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
        return bool(_ESTIMATE.search(header))

    def _footnote(self, prose: str, end: int, line_text: str) -> str | None:
        """A footnote marker right after the number ("~92% cheaper*") whose footnote,
        somewhere in the post, links a source."""
        if not _FOOTNOTE_MARK.match(prose[end : end + 16]):
            return None
        for number, text in self.post.body_lines():
            if _FOOTNOTE_LINE.match(text) and LINK.search(text):
                return f"{FOOTNOTE_CITATION}line {number}"
        return None

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
                if path and not _GENERATED.search(path):
                    return f"{path} states {phrase!r}"
        return None

    def remember(self, start: int, dimension: str, value: float, rule: str) -> None:
        """An illustrative value of the paragraph, for later sentences that reuse it."""
        self.illustrative.setdefault(self._paragraph(start), {})[(dimension, value)] = rule

    def reused(self, start: int, family: str, value: float) -> str | None:
        dimension, base = quantity_of(family, value)
        known = self.illustrative.get(self._paragraph(start), {})
        # A count of the illustration ("a batch of 1,000 items") is the same value when a
        # later sentence gives it a unit ("all 1,000 requests").
        return known.get((dimension, base)) or known.get(("count", value))

    def operands_of(self, start: int) -> list[tuple[str, float]]:
        sentence = self.sentences.get(sentence_bounds(self.searchable, start, start + 1)[0])
        return sentence.operands if sentence else []

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
            verdict = judge.judge(match, float(number), family)
            if isinstance(verdict, tuple):
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
