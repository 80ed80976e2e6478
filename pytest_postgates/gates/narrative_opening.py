"""Gate 11, narrative_opening (hard): open on something real, never on brochure prose.

Two checks, as calibrated in the seeds on a real blog's published posts:

1. The opening region (the first 1,200 characters of the body) names at least one real
   tool, product, protocol or organisation: a built-in list of well-known ones, the
   configured repository's product and package names, and the ``known_entities`` setting.
2. The body holds none of the banned corporate-brochure phrases (a built-in list,
   extended by ``banned_phrases``), matched case-insensitively on word boundaries.

Both checks are house style of the blog they were calibrated on (helpers/house_style.py):
its 156 posts all name a tool of its world near the top and never use a phrase of the list.
A project enforces them by setting ``opening_entity_required`` (the opening) and
``enforce_banned_phrases`` or ``banned_phrases`` (the phrases); one that sets neither gets
what they find listed on the card as advice, never a failure. Measured on projects that did
not adopt them (bench/outside_projects.py), the opening check failed essays and stories
whose openings name things outside the built-in list, and the phrases found were accurate
but only style ("state of the art" as an ML term of art): nothing a maintainer would fix.

Phrases are matched in prose only: fenced code, inline code spans and URLs are data, so a
post that *quotes* a banned phrase in backticks (a post about this gate, say) is not
using it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import option
from pytest_postgates.data.brochure_phrases import BUILTIN_BANNED_PHRASES
from pytest_postgates.data.entities import BUILTIN_ENTITIES
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.repo import product_names_for
from pytest_postgates.gates.base import CheckResult, Decision, Gate, GateContext, commit_inputs
from pytest_postgates.helpers import house_style
from pytest_postgates.prose import blank_code_and_urls
from pytest_postgates.scorecard import Finding
from pytest_postgates.tools import page_kind

if TYPE_CHECKING:
    from pytest_postgates.post import Post

OPENING_CHARS = 1200
_BUILTIN_NAMES = frozenset(BUILTIN_ENTITIES)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
# A character-class body: ASCII hyphen (escaped) and the Unicode hyphens and dashes.
_DASHES = r"\-\u2010\u2011\u2012\u2013\u2014"


@lru_cache(maxsize=4096)
def _phrase_source(phrase: str) -> str:
    """Whole words, any run of spaces or hyphens between words, any apostrophe form."""
    words = [
        re.escape(word.translate(_APOSTROPHES)).replace("'", "['\u2019\u2018]")
        for word in re.split(rf"[\s{_DASHES}]+", phrase.strip())
        if word
    ]
    body = rf"[\s{_DASHES}]+".join(words)
    return rf"(?<![\w{_DASHES}]){body}(?![\w]|[{_DASHES}]\w)"


@lru_cache(maxsize=64)
def _phrase_table(phrases: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each distinct phrase (in order) with its anchor (the same list serves every post)."""
    return tuple((phrase, _anchor(phrase, True)) for phrase in dict.fromkeys(phrases))


@lru_cache(maxsize=4096)
def _phrase_words(phrase: str) -> tuple[str, ...]:
    """The phrase's words as :func:`_phrase_source` matches them, in lower case."""
    return tuple(
        word.translate(_APOSTROPHES).lower()
        for word in re.split(rf"[\s{_DASHES}]+", phrase.strip())
        if word
    )


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
    text: str,
    entries: tuple[str, ...],
    sources: tuple[str, ...],
    ignore_case: bool,
    anchors: tuple[str, ...] | None = None,
) -> list[str]:
    """The entries (in list order) that occur in ``text``. A substring test on each
    entry's longest word rules out almost every entry before any regex runs, which keeps
    a scan of thousands of lines against hundreds of names fast. ``anchors``: the entries'
    anchors, when the caller has them."""
    haystack = text.lower() if ignore_case else text
    if anchors is None:
        anchors = tuple(_anchor(entry, ignore_case) for entry in entries)
    found = []
    for entry, source, anchor in zip(entries, sources, anchors, strict=True):
        if anchor in haystack and _compiled(source, ignore_case).search(text):
            found.append(entry)
    return found


def _straight_apostrophes(text: str) -> str:
    """``text.translate(_APOSTROPHES)``: three C-speed replaces (translate with a mapping
    goes through the mapping character by character)."""
    if "\u2019" in text:
        text = text.replace("\u2019", "'")
    if "\u2018" in text:
        text = text.replace("\u2018", "'")
    if "\u02bc" in text:
        text = text.replace("\u02bc", "'")
    return text


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
        entries, sources, anchors = _entity_table(
            frozenset(n for n, ic in names if ic is ignore_case), ignore_case
        )
        found.extend(match_any(text, entries, sources, ignore_case, anchors))
    return found


@lru_cache(maxsize=64)
def _entity_table(
    names: frozenset[str], ignore_case: bool
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names longest first, their patterns and their anchors (the same lists serve
    every post)."""
    entries = tuple(sorted(names, key=lambda n: (-len(n), n)))
    return (
        entries,
        tuple(map(_entity_source, entries)),
        tuple(_anchor(entry, ignore_case) for entry in entries),
    )


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
    for number, text in post.prose.lines(html="source", urls=True):
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
        current.append(_straight_apostrophes(text))
    if current:
        blocks.append((first, "\n".join(current)))
    return blocks


def find_banned(post: Post, phrases: Iterable[str]) -> list[tuple[int, str, str]]:
    """(line, phrase, line text) for every use of a banned phrase in prose."""
    blocks = prose_blocks(post)
    # A phrase whose longest word is nowhere in the post's prose is in none of its blocks:
    # one test per phrase on the whole prose, then each block only for the phrases left.
    everything = "\n".join(block for _first, block in blocks).lower()
    entries = [phrase for phrase, anchor in _phrase_table(tuple(phrases)) if anchor in everything]
    found = _find_banned_by_anchor(post, blocks, entries, everything)
    if found is not None:
        return found
    hits = []
    for first, block in blocks:
        lowered = block.lower()
        for phrase in entries:
            if _anchor(phrase, True) not in lowered:
                continue
            for match in _compiled(_phrase_source(phrase), True).finditer(block):
                line = first + block.count("\n", 0, match.start())
                hits.append((line, phrase, post.lines[line - 1].strip()[:160]))
    return sorted(hits)


def _find_banned_by_anchor(
    post: Post, blocks: list[tuple[int, str]], entries: list[str], everything: str
) -> list[tuple[int, str, str]] | None:
    """:func:`find_banned`'s block-by-block search with the blocks found from each
    phrase's anchor in ``everything`` (the blocks joined by line breaks, lower case)
    instead of testing every block for every phrase (issue 15). An anchor is one word (no
    line break), so each occurrence lies in one block; the offsets are the blocks' when
    lower-casing kept every character one character (None otherwise: search block by
    block). Each phrase's pattern runs on exactly the blocks holding its anchor, as there."""
    starts: list[int] = []
    offset = 0
    for _first, block in blocks:
        starts.append(offset)
        offset += len(block) + 1
    if len(everything) != max(offset - 1, 0):
        return None
    # One search of the selected blocks joined by NUL per phrase: a match cannot cross a
    # NUL (no phrase holds one; its words are joined by blanks and dashes) and next to one
    # the phrase's look-arounds see what they see at a block's start or end.
    joinable = "\0" not in everything
    # Where an ASCII phrase matches (case ignored), each of its words is in the block's
    # lower case, unless the block holds one of the letters Python's IGNORECASE also
    # takes for an ASCII one ("\u0130" lower-cases to "i\u0307", "\u0131", "\u017f";
    # the Kelvin sign lower-cases to "k"): then only the anchor is tested, as before.
    all_words = not any(char in everything for char in ("\u0307", "\u0131", "\u017f"))
    hits = []
    for phrase in entries:
        anchor = _anchor(phrase, True)
        words = _phrase_words(phrase) if all_words and phrase.isascii() else ()
        selected: list[int] = []
        at = everything.find(anchor)
        while at >= 0:
            index = bisect_right(starts, at) - 1
            end = starts[index + 1] - 1 if index + 1 < len(starts) else len(everything)
            if all(everything.find(word, starts[index], end) >= 0 for word in words):
                selected.append(index)
            if index + 1 >= len(starts):
                break
            at = everything.find(anchor, starts[index + 1])
        if not selected:
            continue  # nothing to search: the pattern is not even compiled (issue 15)
        pattern = _compiled(_phrase_source(phrase), True)
        if joinable and "\0" not in phrase and len(selected) > 1:
            joined = "\0".join(blocks[index][1] for index in selected)
            offsets = []
            offset = 0
            for index in selected:
                offsets.append(offset)
                offset += len(blocks[index][1]) + 1
            for match in pattern.finditer(joined):
                slot = bisect_right(offsets, match.start()) - 1
                first = blocks[selected[slot]][0]
                line = first + joined.count("\n", offsets[slot], match.start())
                hits.append((line, phrase, post.lines[line - 1].strip()[:160]))
            continue
        for index in selected:
            first, block = blocks[index]
            for match in pattern.finditer(block):
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
    # find_entities(region, names), with the built-in names' table looked up once per run
    # rather than split out of ``names`` for every post (issue 15)
    configured = frozenset(name for name, _ in names[len(BUILTIN_ENTITIES) :])
    entities: list[str] = []
    for table_names, ignore_case in ((_BUILTIN_NAMES, False), (configured, True)):
        entries, sources, anchors = _entity_table(table_names, ignore_case)
        entities.extend(match_any(region, entries, sources, ignore_case, anchors))
    banned = find_banned(post, (*BUILTIN_BANNED_PHRASES, *own.banned_phrases))

    required = own.opening_entity_required
    if required is None:
        generator = page_kind.generator_of_page(post.path, context.memo)
        docs = page_kind.is_docs_page(generator, post.path, post.front_matter_format is not None)
        required = not docs  # a reference page opens on its subject, not on a story
    findings: list[Finding] = []
    if not entities and required:
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
    house: dict[str, Any] = {}
    if own.opening_entity_required is None and required:
        findings = house_style.set_aside(
            findings, frozenset({"NO_ENTITY"}), ENTITY_KEYS, ENTITY_CALIBRATED, house
        )
        required = False
    if not house_style.adopted(own.enforce_banned_phrases, own.banned_phrases or None):
        findings = house_style.set_aside(
            findings, frozenset({"BANNED_PHRASE"}), PHRASE_KEYS, PHRASE_CALIBRATED, house
        )
    detail = {
        "opening_chars": OPENING_CHARS,
        "entities_found": entities[:20],
        "entity_count": len(entities),
        "repo_names": repo_names,
        "entity_required": required,
        "banned_phrase_count": len(banned),
        "banned_phrases": [
            {"line": line, "phrase": phrase, "text": text} for line, phrase, text in banned
        ],
    }
    if house:
        detail[house_style.DETAIL_KEY] = house
    if repo_note:
        detail["note"] = repo_note
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: NarrativeOpeningSettings) -> Decision:
    findings, entities = result.findings, result.detail["entities_found"]
    note = house_style.summary_note(result.detail)
    if not findings:
        phrases = "no brochure phrases enforced" if note else "no brochure phrases"
        if not entities and not result.detail.get("entity_required", True):
            opening = "no named tool required of its opening"
            if ENTITY_KEYS[0] not in result.detail.get(house_style.DETAIL_KEY, {}):
                opening = "a docs page: " + opening
            return Decision("PASS", f"{opening}; {phrases}{note}", 0)
        # No entity and no finding: the NO_ENTITY finding was suppressed.
        named = ", ".join(entities[:3]) if entities else "no real tool or product"
        return Decision("PASS", f"opening names {named}; {phrases}{note}", 0)
    parts = []
    if any(finding.code == "NO_ENTITY" for finding in findings):
        parts.append("opening names no real tool or product")
    banned = sum(finding.code == "BANNED_PHRASE" for finding in findings)
    if banned:
        parts.append(f"{banned} brochure phrase(s)")
    return Decision(
        "FAIL", "; ".join(parts) + house_style.summary_note(result.detail), len(findings)
    )


# The keys that adopt each house-style check, and what it was calibrated on (the advice's
# reason names them).
ENTITY_KEYS = ("opening_entity_required",)
ENTITY_CALIBRATED = (
    f"a blog post's first {OPENING_CHARS} characters name a tool of the built-in list, as "
    "all 156 posts of the calibration blog did"
)
PHRASE_KEYS = ("enforce_banned_phrases", "banned_phrases")
PHRASE_CALIBRATED = "no phrase of the built-in brochure list, which its 156 posts never used"


@dataclass(frozen=True)
class NarrativeOpeningSettings:
    """Gate 11's settings: both lists extend the built-in ones."""

    known_entities: tuple[str, ...] = option(
        (), "strs", "real tools and products an opening may name (extends the built-in list)"
    )
    banned_phrases: tuple[str, ...] = option(
        (), "strs", "brochure phrases (extends the built-in list; setting it enforces the list)"
    )
    enforce_banned_phrases: bool | None = option(
        None,
        "bool",
        "a brochure phrase of the list fails the post (BANNED_PHRASE; house style)",
        shown_default="not enforced unless `banned_phrases` is set; the phrases found are "
        "listed as advice",
    )
    opening_entity_required: bool | None = option(
        None,
        "bool",
        "the opening must name a real tool, product, protocol or organisation (NO_ENTITY; "
        "house style)",
        shown_default="not enforced; a blog post's opening that names none is listed as "
        "advice (a docs page is never asked)",
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
