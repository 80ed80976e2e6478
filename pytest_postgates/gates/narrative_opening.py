"""Gate 11, narrative_opening (hard): open on something real, never on brochure prose.

Two checks, as calibrated in the seeds on a real blog's published posts:

1. The opening region (the first 1,200 characters of the body) names at least one real
   tool, product, protocol or organisation: a built-in list of well-known ones, the
   configured repository's product and package names, and the ``known_entities`` setting.
2. The body holds none of the banned corporate-brochure phrases (a built-in list,
   extended by ``banned_phrases``), matched case-insensitively on word boundaries.

Phrases are matched in prose only: fenced code, inline code spans and URLs are data, so a
post that *quotes* a banned phrase in backticks (a post about this gate, say) is not
using it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_postgates.config import option
from pytest_postgates.data.brochure_phrases import BUILTIN_BANNED_PHRASES
from pytest_postgates.data.entities import BUILTIN_ENTITIES
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.repo import product_names_for
from pytest_postgates.gates.base import CheckResult, Decision, Gate, GateContext, commit_inputs
from pytest_postgates.prose import blank_code_and_urls
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Post

OPENING_CHARS = 1200

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
# A character-class body: ASCII hyphen (escaped) and the Unicode hyphens and dashes.
_DASHES = r"\-\u2010\u2011\u2012\u2013\u2014"


def _phrase_source(phrase: str) -> str:
    """Whole words, any run of spaces or hyphens between words, any apostrophe form."""
    words = [
        re.escape(word.translate(_APOSTROPHES)).replace("'", "['\u2019\u2018]")
        for word in re.split(rf"[\s{_DASHES}]+", phrase.strip())
        if word
    ]
    body = rf"[\s{_DASHES}]+".join(words)
    return rf"(?<![\w{_DASHES}]){body}(?![\w]|[{_DASHES}]\w)"


def _entity_source(name: str) -> str:
    return rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_]|[-+]\w)"


@lru_cache(maxsize=4096)
def _compiled(source: str, ignore_case: bool) -> re.Pattern[str]:
    return re.compile(source, re.IGNORECASE if ignore_case else 0)


@lru_cache(maxsize=4096)
def _anchor(entry: str, ignore_case: bool) -> str:
    """A literal every match must contain, for a cheap substring test before the regex:
    the longest word of the entry."""
    words = re.split(rf"[\s{_DASHES}']+", entry.translate(_APOSTROPHES))
    longest = max(words, key=len) if words else entry
    return longest.lower() if ignore_case else longest


def match_any(
    text: str, entries: tuple[str, ...], sources: tuple[str, ...], ignore_case: bool
) -> list[str]:
    """The entries (in list order) that occur in ``text``. A substring test on each
    entry's longest word rules out almost every entry before any regex runs, which keeps
    a scan of thousands of lines against hundreds of names fast."""
    haystack = text.lower() if ignore_case else text
    found = []
    for entry, source in zip(entries, sources, strict=True):
        if _anchor(entry, ignore_case) in haystack and _compiled(source, ignore_case).search(text):
            found.append(entry)
    return found


def opening_region(post: Post) -> tuple[str, int]:
    """The first OPENING_CHARS characters of the body (leading blank lines skipped) and the
    file line it starts on."""
    for number, text in post.body_lines():
        if text.strip():
            start = number
            break
    else:
        return "", post.body_start_line
    region = "\n".join(post.lines[start - 1 :])[:OPENING_CHARS]
    return region, start


def find_entities(text: str, names: Iterable[tuple[str, bool]]) -> list[str]:
    """Names that occur in ``text``; each name says whether its case is ignored. Longer
    names are tried first so that "Vertex AI" is not cut short by "Vertex"."""
    found: list[str] = []
    for ignore_case in (False, True):
        entries = tuple(
            sorted({n for n, ic in names if ic is ignore_case}, key=lambda n: (-len(n), n))
        )
        found.extend(match_any(text, entries, tuple(map(_entity_source, entries)), ignore_case))
    return found


# The prose view's line blanking under the name posts import it by (the bundled example
# post on this gate does): a prose line with inline code spans and URLs blanked.
prose_without_code = blank_code_and_urls


def prose_blocks(post: Post) -> list[tuple[int, str]]:
    """(first line, text) of each run of consecutive prose lines, code spans and URLs
    blanked, lines joined with newlines, so that a phrase wrapped over two lines is still
    one phrase."""
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    first = previous = 0
    for number, text in post.prose.lines(html=True, urls=True):
        # The view leaves code lines out: a gap in the line numbers ends a run, as a
        # blank line does.
        blank = not post.lines[number - 1].strip()
        if current and (blank or number != previous + 1):
            blocks.append((first, "\n".join(current)))
            current = []
        previous = number
        if blank:
            continue
        if not current:
            first = number
        current.append(text.translate(_APOSTROPHES))
    if current:
        blocks.append((first, "\n".join(current)))
    return blocks


def find_banned(post: Post, phrases: Iterable[str]) -> list[tuple[int, str, str]]:
    """(line, phrase, line text) for every use of a banned phrase in prose."""
    entries = tuple(dict.fromkeys(phrases))
    hits = []
    for first, block in prose_blocks(post):
        lowered = block.lower()
        for phrase in entries:
            if _anchor(phrase, True) not in lowered:
                continue
            for match in _compiled(_phrase_source(phrase), True).finditer(block):
                line = first + block.count("\n", 0, match.start())
                hits.append((line, phrase, post.lines[line - 1].strip()[:160]))
    return sorted(hits)


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    own = settings.for_gate(NarrativeOpeningSettings)
    names: list[tuple[str, bool]] = [(name, False) for name in BUILTIN_ENTITIES]
    repo_note = None
    try:
        repo_names = list(context.evidence.for_post(post.path).product_names)
    except GitError as exc:
        # The package setting still names the product when the repository cannot be read.
        repo_names = list(product_names_for(settings.package))
        repo_note = f"repository names not used: {exc}"
    # Configured names are matched ignoring case: "NeuroLink" and "neurolink" are one product.
    names.extend((name, True) for name in dict.fromkeys([*repo_names, *own.known_entities]))

    region, region_line = opening_region(post)
    entities = find_entities(region, names)
    banned = find_banned(post, (*BUILTIN_BANNED_PHRASES, *own.banned_phrases))

    findings: list[Finding] = []
    if not entities:
        findings.append(
            Finding(
                region_line,
                "NO_ENTITY",
                f"the first {OPENING_CHARS} characters name no real tool, product, protocol "
                "or organisation; open on the concrete thing the post is about",
                fix="name the tool, library, protocol or product in the first paragraph",
            )
        )
    findings.extend(
        Finding(
            line,
            "BANNED_PHRASE",
            f'brochure phrase "{phrase}": {text}',
            fix=f'delete "{phrase}" and say plainly what the code does, with a specific fact',
        )
        for line, phrase, text in banned
    )
    detail = {
        "opening_chars": OPENING_CHARS,
        "entities_found": entities[:20],
        "entity_count": len(entities),
        "repo_names": repo_names,
        "banned_phrase_count": len(banned),
        "banned_phrases": [
            {"line": line, "phrase": phrase, "text": text} for line, phrase, text in banned
        ],
    }
    if repo_note:
        detail["note"] = repo_note
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: NarrativeOpeningSettings) -> Decision:
    findings, entities = result.findings, result.detail["entities_found"]
    if not findings:
        # No entity and no finding: the NO_ENTITY finding was suppressed.
        named = ", ".join(entities[:3]) if entities else "no real tool or product"
        return Decision("PASS", f"opening names {named}; no brochure phrases", 0)
    parts = []
    if any(finding.code == "NO_ENTITY" for finding in findings):
        parts.append("opening names no real tool or product")
    banned = sum(finding.code == "BANNED_PHRASE" for finding in findings)
    if banned:
        parts.append(f"{banned} brochure phrase(s)")
    return Decision("FAIL", "; ".join(parts), len(findings))


@dataclass(frozen=True)
class NarrativeOpeningSettings:
    """Gate 11's settings: both lists extend the built-in ones."""

    known_entities: tuple[str, ...] = option(
        (), "strs", "real tools and products an opening may name (extends the built-in list)"
    )
    banned_phrases: tuple[str, ...] = option(
        (), "strs", "brochure phrases (extends the built-in list)"
    )


GATE = Gate(
    id=11,
    name="narrative_opening",
    advisory=False,
    kind="hard",
    description="The opening names a real tool; no corporate-brochure phrases.",
    check=check,
    decide=decide,
    cache_inputs=commit_inputs,
    settings=NarrativeOpeningSettings,
)
