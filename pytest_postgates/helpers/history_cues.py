"""Whether a doc writes a name as the product's past: a migration table's "Before" or
"V1" column, the left side of `old` -> `new`, a sentence that says the name was removed,
deprecated or renamed, or a section whose heading says so ("Removes `getDefaultRoute`", "The
`/lib` entrypoint has been removed") when the token's own sentence does not turn to the
present ("now", "use", "instead"). Such a name is not a claim that the product has it now, so gate 2
lists it as ``unjudged`` (rule ``historical``) when the product's code lacks it; a
replacement the sentence offers (after "renamed to", "use", an arrow) is still a claim.

The page may also deny a name or defer it: "Pydantic AI does not expose a
`dynamic_filtering` option", "`mediaType` is not read", "we intend to add `line_number`".
Such a sentence claims the product lacks the name (or will have it), not that it has it:
gate 2 lists the token as ``unjudged`` (rule ``page-denies``, :func:`denied`). Only the
name the negation is about: the subject of "does not <verb>" is a claim (`retry_policy`
"does not retry on 4xx" says the option exists), and so is what the sentence offers
instead ("only `media_type`").
"""

from __future__ import annotations

import re

from pytest_postgates.helpers.rule import Rule
from pytest_postgates.prose import ProseView

RULES = (
    Rule(
        "page-denies",
        "unjudged",
        "the token's own sentence denies or defers the name itself: the object of a negated "
        'verb of having ("does not expose a `dynamic_filtering` option", "has no `x`", "No '
        '`x` option."), '
        'the subject of a negated "is read / supported / available" ("`mediaType` is '
        'not read"), or what the page says will be added ("we intend to add '
        '`line_number`"): no claim that the product has it; the subject of a negated verb '
        'of behaviour ("`retry_policy` does not retry") and a replacement stay claims. A '
        'name written alone (a list item "- `onUploadProgress`") is read with the next '
        'sentence when that one speaks of it ("This option does not exist"); a flag or '
        "command line the page denies too",
        "tests/test_page_denies.py::test_a_name_the_sentence_denies_is_unjudged",
        earns=(
            "earns on the tune half only; off, held out: findings +0, nothing labelled moved; "
            "tune: findings +2, 2 labelled false back (bench/ablation.py at f373629)"
        ),
    ),
)

# A sentence that says a name is gone or going.
_GONE = re.compile(
    r"\b(?:removed|deprecated|deprecation|renamed|no longer|replaced|formerly|previously"
    r"|dropped|was moved|has been moved|obsolete|(?:were|was) using|used to use"
    # A release note's imperative, before the old name: "Rename `a` to `b`" (not "Remove
    # `x`": a page tells its reader to remove the product's own option too).
    r"|(?<![\w-])(?:rename|deprecate)(?=\s+`))\b",
    re.I,
)
# Where the sentence turns to the replacement: what follows is the current name.
_REPLACEMENT = re.compile(
    r"\b(?:to|with|by|in favou?r of|use|instead|now)\b|→|->|=>",
    re.I,
)
# What separates a cue from a name it is not about: another clause.
_CLAUSE_BREAK = re.compile(r"[;:()\u2014\u2013]|\s-\s|\.\s")  # em and en dashes too
_NEAR_WORDS = 8
# An arrow to another name (`old` -> `new`); an arrow to words describes the name.
_ARROW_AFTER = re.compile(
    r"^`?\s*(?:\(\))?\s*(?:→|->|=>|⟶)\s*(?:`|[\w.$]+(?:\(\))?\s*(?:$|[,;.)]))"
)
# A column of the product's past.
_PAST_HEADER = re.compile(
    r"\b(?:before|old|previous|deprecated|removed|legacy|was|from|v1 name|former)\b", re.I
)
# A section heading that says its names are gone.
_GONE_HEADING = re.compile(
    r"\b(?:remov(?:ed|es|al|ing)|deprecat\w*|renam(?:ed|es|ing)|no longer|dropp(?:ed|ing)"
    r"|drops|obsolete|legacy)\b",
    re.I,
)
# A sentence about the present: what it names is a claim about the product now.
_PRESENT = re.compile(
    r"\b(?:now|new|newly|instead|use|using|replacement|in favou?r of|migrate to|switch to)\b", re.I
)
_VERSION = re.compile(r"\bv(?:ersion\s*)?(\d+)(?:\.(\d+))?\b", re.I)


def gone_or_denied(
    prose: ProseView, line: int, span: str, text: str, rules_off: frozenset[str]
) -> tuple[str, str] | None:
    """The rule and reason when the page writes ``text`` (its code span ``span`` on
    ``line``) as the product's past (``historical``) or says the product lacks it or will
    add it (``page-denies``): a name, or a flag or command line (jest's "`jest --init` has
    been **removed**"), that is no claim the product has it now. None otherwise."""
    sentence, offset = prose.code_span_sentence(line, span)
    if offset >= 0 and not _ALONE_TRIM.sub("", sentence.replace(span, "", 1)):
        # The name alone (a list item "- `x`"): the page's next sentence is about it.
        sentence, offset = _next_about(prose, line, text, sentence, offset)
    if "historical" not in rules_off:
        header, headers = prose.column_header(line, text), prose.table_headers(line, text)
        past = historical(sentence, offset, text, header, headers, prose.section_heading(line))
        if past:
            return "historical", past
    denial = "" if "page-denies" in rules_off else denied(sentence, offset, text)
    return ("page-denies", denial) if denial else None


# What a line that holds only the name may hold beside it: list marks, emphasis, a colon.
_ALONE_TRIM = re.compile(r"[\s`*_:.\-+>]+")
# The next sentence's subject when it speaks of the name alone: "This option ...", "It ...".
_ABOUT_IT = re.compile(
    r"^(?:this|that|it)(?:\s+(?:option|parameter|argument|field|key|attribute|method"
    r"|function|setting|flag|property|hook|command|event|class|type))?\s+(?=\w)",
    re.IGNORECASE,
)


def _next_about(
    prose: ProseView, line: int, text: str, sentence: str, offset: int
) -> tuple[str, int]:
    """A name written alone, followed on the next line by a sentence about it ("This option
    does not exist", "It was removed in 2.0"): that sentence with the name for its subject,
    and the name's offset in it; else the name's own sentence."""
    after = next((p for p in prose.paragraphs if line < p.line <= line + 2), None)
    if after is None:
        return sentence, offset
    first = re.split(r"(?<=[.!?])\s", after.source.strip(), maxsplit=1)[0]
    subject = _ABOUT_IT.match(first)
    if subject is None:
        return sentence, offset
    return f"`{text}` {first[subject.end() :]}", 1


def historical(
    sentence: str, offset: int, token: str, header: str, headers: list[str], section: str = ""
) -> str:
    """Why the doc writes ``token`` as a past name ("" when it does not). ``sentence`` and
    ``offset`` place the token in its sentence; ``header`` is its table column's header
    and ``headers`` every header of that table ("" and [] outside tables); ``section`` the
    heading of its section."""
    if header and _past_column(header, headers):
        return f'written in the table column "{header}", the product\'s past'
    if offset < 0 or not sentence:
        return ""
    after = sentence[offset + len(token) :]
    if _ARROW_AFTER.match(after):
        return "written as the old side of a rename (`old` -> `new`)"
    end = offset + len(token)
    replacement = False
    for gone in _GONE.finditer(sentence):
        # The cue must be about this name: in its clause, a few words from it.
        between = (
            sentence[end : gone.start()] if gone.start() >= end else sentence[gone.end() : offset]
        )
        if _CLAUSE_BREAK.search(between) or len(between.split()) > _NEAR_WORDS:
            continue
        turn = _REPLACEMENT.search(sentence, gone.end())
        if turn is not None and offset >= turn.start():
            replacement = True
            continue  # the replacement: a claim about the product now
        return f'the sentence says it is gone ("{gone.group(0)}")'
    heading = _GONE_HEADING.search(section)
    if heading is not None and not replacement and not _PRESENT.search(sentence):
        return f'its section is about what is gone ("{heading.group(0)}" in "{section.strip()}")'
    return ""


def _past_column(header: str, headers: list[str]) -> bool:
    """A header naming the past, or a lower version than another column's."""
    if _PAST_HEADER.search(header):
        return True
    mine = _version(header)
    if mine is None:
        return False
    others = [v for v in (_version(h) for h in headers if h != header) if v is not None]
    return any(mine < other for other in others)


def _version(text: str) -> tuple[int, int] | None:
    match = _VERSION.search(text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


# Before the token: a negated verb of having, or a plan to add it, with only an article
# (and a few words of it: "a dedicated") between it and the token.
_DENIED_BEFORE = re.compile(
    r"(?:\b(?:does|do|did|will|can|could|would|should)(?:\s+not|n't)\s+(?:\w+\s+)?"
    r"(?:have|expose|provide|support|accept|read|offer|include|implement|define|export"
    r"|recogni[sz]e|take|ship|add)"
    r"|\b(?:has|have|there is|there are) no|^\s*no"
    r"|\b(?:intends?|plans?|planning|hope|going|want) to (?:add|introduce|support|expose"
    r"|provide|implement))"
    r"(?:\s+(?:a|an|the|any|such an?|a dedicated|an explicit|its own))?\s*$",
    re.IGNORECASE,
)
# After the token: it is not read / supported / available, or will be added.
_DENIED_AFTER = re.compile(
    r"^\s*(?:(?:option|parameter|argument|field|key|attribute|method|function|setting|flag)"
    r"\s+)?(?:(?:is|are)(?:\s+not|n't)\s+(?:yet\s+)?(?:read|supported|exposed|available"
    r"|provided|accepted|recogni[sz]ed|implemented|defined|exported)\b"
    r"|(?:does|do)(?:\s+not|n't) exist\b"
    r"|(?:will be|is to be|are to be) (?:added|introduced|supported)\b)",
    re.IGNORECASE,
)


def denied(sentence: str, offset: int, token: str) -> str:
    """Why ``token``'s sentence denies or defers the name ("" when it does not):
    ``sentence`` and ``offset`` place the token (its backticks excluded) in it."""
    if offset < 0 or not sentence:
        return ""
    before = sentence[:offset].rstrip("`").rstrip()
    after = sentence[offset + len(token) :].lstrip("`")
    cue = _DENIED_BEFORE.search(before)
    if cue is not None:
        return f'the sentence denies or defers it ("{cue.group(0).strip()}")'
    cue = _DENIED_AFTER.match(after)
    if cue is not None:
        return f'the sentence denies or defers it ("{cue.group(0).strip()}")'
    return ""
