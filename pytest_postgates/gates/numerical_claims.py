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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError
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
    import bisect

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


def check(post: Post, context: GateContext) -> CheckResult:
    raw_claims = find_claims(post)
    links = []
    if raw_claims:
        prose = raw_claims[0][3]
        links = [(m.start(), m.end()) for m in LINK.finditer(prose)]
    evidence_parts: list[tuple[str, str, bool]] = []  # (name, text, is an anchor file)
    missing: list[str] = []
    note = None
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
    claims: list[Claim] = []
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
        claims.append(Claim(line, number, family, line_text, cited_by))
    uncited = [c for c in claims if c.cited_by is None]
    if uncited and note:
        raise CannotJudge("ERROR", note, {"error": note, "claims": [c.to_dict() for c in claims]})
    detail: dict[str, Any] = {
        "claims": [c.to_dict() for c in claims],
        "uncited": [c.to_dict() for c in uncited],
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
