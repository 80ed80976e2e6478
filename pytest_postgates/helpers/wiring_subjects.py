"""What a wiring claim is about, read off the post's parsed parts for gate 16.

A call claim (``X calls Y``, ``Y is called by X``, ``X delegates to Y``, ``under the hood X
invokes Y``) names its caller and callees in code spans next to the verb, within one
sentence; :func:`call_subjects` reads them from the line's code spans (the post's own
parse, nothing re-parsed). A pronoun caller stands for its sentence's subject, or for a
list of functions together ("Methods like `a` and `b` ... It calls `c`").
The edges of a flowchart are read by :mod:`.wiring_mermaid`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.helpers.wiring_names import Subject as Subject
from pytest_postgates.helpers.wiring_names import continuation as continuation
from pytest_postgates.helpers.wiring_names import section_name as section_name
from pytest_postgates.helpers.wiring_names import spans_in as spans_in
from pytest_postgates.helpers.wiring_names import subject as subject
from pytest_postgates.prose import sentence_spans

if TYPE_CHECKING:
    from pytest_postgates.post import Post

# The verbs of a call claim; "is called by" turns the claim round. A bare "call" is mostly
# a noun ("one `generate()` call"), so it is no verb here.
_VERB = re.compile(
    # the passive, an adverb allowed ("`b` is directly called by `a`"); "are" after a list
    r"\b(?P<passive>(?:(?P<passive_plural>are|get)|is|gets) (?:\w+ly )?(?:called|invoked)"
    # "is called inside `X`": the caller's body holds the call
    r" (?:\w+ly )?(?:by|from|(?P<inside>inside|within|in)))\b"
    r"|\b(?:calls|calling|invokes|invoking|delegates to|delegating to|dispatches to"
    r"|hands off to|forwards to|then calls"
    # a future is a claim too ("`dispatchCommand` will implicitly call `editor.update`")
    r"|will (?:\w+ly |also |then |first |in turn )*call"
    # "`a`, which wraps the `b` method": only with the noun that says `b` is a function
    # (a span is blanked to x's when this runs)
    r"|wraps(?=\s+(?:the\s+)?x+\s+(?:method|function|helper)s?\b)"
    # "uses" names a call only with a noun that says its object is a function
    r"|uses (?:the )?(?:helpers?|functions?)(?: like| such as)?"
    # "`runPythonAsync` now runs the code with `eval_code_async`"
    r"|runs (?:(?:the|its|a|an) )?(?:[a-z]+ ){0,2}?(?:with|via|through)"
    # "calls `a` and wraps every element using `b`": a call only joined to a call verb
    # before it in the sentence (:func:`_coordinated`)
    r"|(?P<using>using)"
    # the plural verb after a list of callers ("`a()` and `b()` each call `c()`",
    # "`a` and `b` forward to `c`")
    r"|(?P<plural>(?:(?:each|both|all|also|then) (?:call|invoke|delegate to|forward to))"
    r"|delegate to|forward to))\b",
    re.IGNORECASE,
)
# Between a caller and the verb: a noun for it, "which", adverbs ("`run()` then calls",
# "`Client.send`, which in turn calls"); between the verb and its first callee: an article
# or a word ("calls the `foo` method", "delegates to its `bar()`").
CALLER_GAP = re.compile(
    r"\s*(?:(?:method|function|helper|class|constructor|handler)s?\s+)?"
    r"(?:(?:,|\s[-\u2013\u2014])?\s*(?:which|that)\s+)?"
    r"(?:(?:\w+ly|then|also|in turn|itself|now|only|first|just|always|never|still)\s+)*",
    re.IGNORECASE,
)
_CALLEE_GAP = re.compile(r"\s*(?:(?:the|a|an|its|their|into)\s+)?(?:[A-Za-z-]+\s+)?", re.IGNORECASE)
# A noun after a code span that says it names a function ("the `collect` method").
_NOUN = re.compile(r"\s+(?:method|function|helper|constructor|hook)s?\b", re.IGNORECASE)
# Between two callees of one verb: a list's joints only.
_JOINT = re.compile(r"\s*(?:,\s*|\s(?:and|or|then|and then|before|after)\s|/|\s*)\s*(?:then\s+)?")


@dataclass(frozen=True)
class CallSubjects:
    """The caller and callees a claim line names, or why they could not be read."""

    caller: Subject | None = None
    callees: tuple[Subject, ...] = ()
    reason: str = ""


def call_subjects(post: Post, line: int) -> list[CallSubjects]:
    """The callers and callees of the call claims on ``line``, one per sentence (see the
    module doc); one without a caller, with the reason, when none is read. A sentence
    whose callee is wrapped onto the next line of its paragraph ("... forward to" /
    "`_get_attribute`.") is read across the two lines, for the verbs of ``line``."""
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    spans = spans_in(post, line)
    if not spans:
        return [CallSubjects(reason="no code span names a function on the line")]
    claims = _claims_of(text, spans, section_name(post, line), len(text))
    following = continuation(post, line)
    if following is not None:
        joined = f"{text} {following[0]}"
        shifted = [(a + len(text) + 1, b + len(text) + 1, t) for a, b, t in following[1]]
        wrapped = _claims_of(joined, spans + shifted, section_name(post, line), len(text))
        if not any(c.caller is not None for c in claims):
            claims = wrapped if any(c.caller is not None for c in wrapped) else claims
        else:
            # a second verb of the line whose callee is wrapped ("`a` calls `b`, which
            # first calls" / "`c`"): its claim, beside the line's own
            read = {_first_call(c) for c in claims}
            claims += [c for c in wrapped if c.caller is not None and _first_call(c) not in read]
    if not any(c.caller is not None for c in claims):
        # the line's sentence opened on a line before it: read from there
        opened = _sentence_opening(post, line, text, spans, following)
        claims = opened if any(c.caller is not None for c in opened) else claims
    if any(c.caller is not None for c in claims):
        return [c for c in claims if c.caller is not None or c.reason == READERS_CODE]
    if claims:
        return claims[:1]
    return [CallSubjects(reason="no code span names the caller and the callee next to the verb")]


# How many lines before a claim's line its sentence may have opened on.
_OPENING_LINES = 4


def _sentence_opening(
    post: Post,
    line: int,
    text: str,
    spans: list[tuple[int, int, str]],
    following: tuple[str, list[tuple[int, int, str]]] | None,
) -> list[CallSubjects]:
    """The claims of the verbs of ``line`` read in their sentence from where it opened on
    an earlier line of the paragraph ("To mimic this, `a` first calls" / "`b`, then calls
    either" / "`c` or `d`"), the next line included for a wrapped callee."""
    lines: list[tuple[str, list[tuple[int, int, str]]]] = []
    number = line - 1
    while number >= max(post.body_start_line, line - _OPENING_LINES):
        if continuation(post, number) is None:
            break
        lines.insert(0, (post.lines[number - 1], spans_in(post, number)))
        number -= 1
    if not lines:
        return []
    parts = [*lines, (text, spans), *([following] if following is not None else [])]
    joined, every, starts = "", [], []
    for part_text, part_spans in parts:
        offset = len(joined) + (1 if joined else 0)
        joined = f"{joined} {part_text}" if joined else part_text
        starts.append(offset)
        every += [(a + offset, b + offset, t) for a, b, t in part_spans]
    mine = starts[len(lines)]
    blanked = list(joined)
    for start, end, _text in every:
        blanked[start:end] = "x" * (end - start)
    opening = next(
        (a for a, b in sentence_spans("".join(blanked)) if a <= mine < b or a >= mine), mine
    )
    if opening >= mine:
        return []  # the line opens its own sentence: read already
    kept = [(a - opening, b - opening, t) for a, b, t in every if a >= opening]
    return _claims_of(
        joined[opening:], kept, section_name(post, line), mine - opening + len(text), mine - opening
    )


def _first_call(claim: CallSubjects) -> tuple[str, str]:
    """A claim's caller and first callee, as written (which claims are the same one)."""
    caller = "" if claim.caller is None else claim.caller.text
    return caller, claim.callees[0].text if claim.callees else ""


def _claims_of(
    text: str,
    spans: list[tuple[int, int, str]],
    heading: Subject | None,
    verbs_before: int,
    verbs_from: int = 0,
) -> list[CallSubjects]:
    """The claims of each verb starting from ``verbs_from`` and before ``verbs_before`` in
    ``text`` (the verbs before ``verbs_from`` are read for the caller a later verb of their
    sentence shares: "`a` first calls `b`, then calls `c`")."""
    blanked = list(text)
    for start, end, _text in spans:
        blanked[start:end] = "x" * (end - start)
    plain = "".join(blanked)
    claims: list[CallSubjects] = []
    sentences = sentence_spans(plain)
    for index, (first, last) in enumerate(sentences):
        leading: Subject | None = None  # the caller of the sentence's last active claim
        for verb in _VERB.finditer(plain, first, last):
            if verb.start() >= verbs_before:
                break
            found: list[CallSubjects] = []
            if not verb.group("using"):
                found = _around(text, spans, verb, first, last, plain) or _recursion(
                    text, spans, verb, first
                )
            if not found and not verb.group("using"):
                found = _pronoun_claims(text, spans, verb, sentences, index, heading)
            if not found and not verb.group("using"):
                found = (
                    _opening_verb(text, spans, verb, first, last, heading)
                    or _called_in(text, spans, verb, last)
                    or _table_row(text, spans, verb)
                )
            if not found and leading is not None:
                found = _coordinated(text, plain, spans, verb, last, leading)
            read = [_unless_readers(plain, spans, verb, first, last, c) for c in found]
            callers = [c.caller for c in read if c.caller is not None]
            if not verb.group("passive"):
                leading = callers[-1] if callers else None
            if verb.start() >= verbs_from:
                claims += read
    return claims


# A verb joined to the one before it in its sentence, so sharing its caller: "`a` first
# calls `b`, then calls `c`", "..., and finally calls `d`", "`a` reads `b` and calls `c`";
# "using" only so ("`a` calls `b` and wraps each result using `c`").
_COORDINATED = re.compile(
    r"(?:,\s*(?:and\s+)?|\s+and\s+)(?:(?:then|finally|also|later|next|afterwards)\s+)?$",
    re.IGNORECASE,
)
# "... and wraps every element using `b`": a verb of the caller's before "using".
_USING_JOINT = re.compile(r"\s+and\s+[a-z]+s\b[^`,;:.]{0,40}?\s+$", re.IGNORECASE)


def _coordinated(
    text: str,
    plain: str,
    spans: list[tuple[int, int, str]],
    verb: re.Match[str],
    last: int,
    leading: Subject,
) -> list[CallSubjects]:
    """The claim of an active verb joined to the sentence's previous call verb (see
    :data:`_COORDINATED`): the previous verb's caller calls this verb's callees."""
    joint = _USING_JOINT if verb.group("using") else _COORDINATED
    if verb.group("passive") or not joint.search(plain, 0, verb.start()):
        return []
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= last]
    if not after or not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    callees = _names(text, _callee_chain(text, after))
    return [CallSubjects(leading, tuple(callees))] if callees else []


# The labelling rules' "the reader's call": a caller written as the reader's own code
# ("your `App`", "the `on_mount` method of your `App`"), or a "by calling `Y` in `X`" whose
# doer is the reader ("You can ...", "Register the theme ..."), is no claim about the product.
READERS_CODE = (
    'the caller is the reader\'s code ("your", "you" or an instruction), no claim about the'
    " product's code"
)
_YOUR_BEFORE = re.compile(r"\byour\s+(?:own\s+)?\[?$", re.IGNORECASE)
_YOUR_AFTER = re.compile(
    r"\s*(?:(?:method|function|hook|handler|callback|class)s?\s+)?(?:of|in|on)\s+your\b",
    re.IGNORECASE,
)
_GERUNDS = frozenset({"calling", "invoking"})
_YOU = re.compile(r"\byou\b", re.IGNORECASE)
# An instruction: a sentence opening with a bare verb and its object ("Register the theme
# by calling", "Override `x` by calling"); a word ending in -s, -ly, -ed or -ing, and the
# words a statement opens with, are no bare verb.
_IMPERATIVE = re.compile(
    r"\s*(?:(?:[-*+]|\d+[.)])\s+)?"
    r"(?!(?i:the|this|that|these|those|it|its|our|we|each|every|when|if|then|next|here|now"
    r"|first|finally|also|once|after|before|while|in|on|for|to)\b)"
    r"[A-Z][a-z]+(?<!s)(?<!ly)(?<!ed)(?<!ing)\s+(?:the|a|an|this|that|these|your|its|x+)\b"
)


def _unless_readers(
    text: str,
    spans: list[tuple[int, int, str]],
    verb: re.Match[str],
    first: int,
    last: int,
    claim: CallSubjects,
) -> CallSubjects:
    """``claim``, or an unjudged one with :data:`READERS_CODE` when its caller is the
    reader's code (``text`` has its spans blanked to x's)."""
    caller = claim.caller
    if caller is None:
        return claim
    written = [s for s in spans if first <= s[0] and s[1] <= last and s[2].strip() == caller.text]
    for start, end, _span in written:
        if _YOUR_BEFORE.search(text, first, start) or _YOUR_AFTER.match(text, end):
            return CallSubjects(reason=READERS_CODE)
        # "by calling `Y` in `X`": the doer of the gerund is the sentence's subject
        if verb.group(0).lower() in _GERUNDS and start > verb.start():
            opening = text[first : verb.start()]
            if _YOU.search(opening) or _IMPERATIVE.match(opening):
                return CallSubjects(reason=READERS_CODE)
    return claim


def without_aside(text: str, before: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The spans before a verb less a parenthesised aside right after the name it follows
    ("`useFocusTrap` (`@lexical/react/useFocusTrap`) returns"): the aside's span, when
    the parentheses hold it alone and only a space parts them from the span before, is
    left out, and the claim's subject is that span."""
    if len(before) < 2:
        return before
    (_, end_before, _t), (start, end, _a) = before[-2], before[-1]
    if (
        text[start - 1 : start] == "("
        and text[end : end + 1] == ")"
        and not text[end_before : start - 1].strip()
    ):
        return [*before[:-2], (before[-2][0], end + 1, before[-2][2])]
    return before


# A predicate of the caller before the calling one, joined by "and" ("`x` determines the
# class and calls `y`"): words only, no code span, clause or sentence break; read only when
# the caller is its sentence's subject (:data:`_LEADS`).
_PREDICATE_GAP = re.compile(
    r"\s+[a-z]+s\b[^`,;.:\u2014]{0,80}?\s+and\s+"
    r"(?:(?:\w+ly|then|also|in turn|now|only|first|just|always|still)\s+)*"
)
# The predicates of a sentence's subject before a verb, joined by commas: "`b` lives in
# `x.ts`, is called by `a`" (spans blanked): a verb in -s first, no clause or sentence break.
# A paragraph's bold label before its first sentence's subject ("**Decision.** `b` ...").
_LABEL = re.compile(r"^\s*(?:\*\*|__)[^*_\n]{1,40}(?:\*\*|__)\s*")
_COMMA_PREDICATE = re.compile(r"\s+[a-z]+s\b[^,;.:\u2014]{0,80}?,\s+(?:and\s+)?")
# What may come before a sentence's subject: a list item's marker, an article.
_LEADS = re.compile(
    r"\s*(?:(?:[-*+]|\d+[.)]|[a-z][.)])\s+)?(?:(?:the|our|its|this|[A-Z][\w-]*'s)\s+)?",
    re.IGNORECASE,
)


def _around(
    text: str,
    spans: list[tuple[int, int, str]],
    verb: re.Match[str],
    first: int,
    last: int,
    plain: str = "",
) -> list[CallSubjects]:
    """The claims one verb makes: its callers (one, or a list before a plural verb) and
    its callees (the span after it and the ones joined to it). ``plain``: ``text`` with
    its spans blanked, for a predicate before the verb that holds a span ("`b` lives in
    `rewards.ts`, is called by `a`")."""
    before = without_aside(text, [s for s in spans if first <= s[0] and s[1] <= verb.start()])
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= last]
    if not before or not after:
        return []
    gap = text[before[-1][1] : verb.start()]
    if not CALLER_GAP.fullmatch(gap) and not (
        _PREDICATE_GAP.fullmatch(gap) and _LEADS.fullmatch(text[first : before[-1][0]])
    ):
        lead = before[0]
        if not (
            plain
            and _COMMA_PREDICATE.fullmatch(plain, lead[1], verb.start())
            and _LEADS.fullmatch(_LABEL.sub("", text[first : lead[0]], count=1))
        ):
            return []
        before = [lead]  # the sentence's subject, its predicates joined by commas
    if not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    if verb.group("inside") and _FILE_NAME.search(after[0][2]):
        return []  # "is called in `main.py`": a file, no caller
    left_chain = [before[-1]]
    if verb.group("plural") or verb.group("passive_plural"):
        for span in reversed(before[:-1]):
            if not _JOINT.fullmatch(text[span[1] : left_chain[0][0]]):
                break
            left_chain.insert(0, span)
    chain = _callee_chain(text, after)
    lefts = [
        s
        for s in (subject(span[2], _NOUN.match(text, span[1]) is not None) for span in left_chain)
        if s is not None
    ]
    rights = [
        s
        for s in (subject(span[2], _NOUN.match(text, span[1]) is not None) for span in chain)
        if s is not None
    ]
    if not lefts or not rights:
        return [CallSubjects(reason="a code span next to the verb is not a function name")]
    if verb.group("passive"):
        # "Y is called by X": X is the caller (one caller, the first named after the verb);
        # "`a` and `b` are called by X": each of the list.
        return [CallSubjects(rights[0], tuple(lefts))]
    return [CallSubjects(left, tuple(rights)) for left in lefts]


_ITSELF = re.compile(r"\s+itself\b", re.IGNORECASE)


def _recursion(
    text: str, spans: list[tuple[int, int, str]], verb: re.Match[str], first: int
) -> list[CallSubjects]:
    """ "`X` recursively calls itself": the claim X -> X."""
    if verb.group("passive") or _ITSELF.match(text, verb.end()) is None:
        return []
    before = without_aside(text, [s for s in spans if first <= s[0] and s[1] <= verb.start()])
    if not before or not CALLER_GAP.fullmatch(text[before[-1][1] : verb.start()]):
        return []
    caller = subject(before[-1][2], _NOUN.match(text, before[-1][1]) is not None)
    return [] if caller is None else [CallSubjects(caller, (caller,))]


# Between two callees whose first has its purpose said: "`a` to read it and `b` to ...".
_PURPOSE_JOINT = re.compile(r"\s+(?:to|for)\s+[a-z][\w' -]{0,40}?\s+and\s+(?:then\s+)?")


def _callee_chain(text: str, after: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The first code span after the verb and the ones joined to it as a list."""
    chain = [after[0]]
    for span in after[1:]:
        between = text[chain[-1][1] : span[0]]
        if not (_JOINT.fullmatch(between) or _PURPOSE_JOINT.fullmatch(between)):
            break
        chain.append(span)
    return chain


# A sentence opening with its verb ("Calls [`.mockClear()`](...) on all spies."), an API
# page's way of saying what its section's function does.
_OPENING = re.compile(r"\s*(?:[-*+]\s+)?$")


def _opening_verb(
    text: str,
    spans: list[tuple[int, int, str]],
    verb: re.Match[str],
    first: int,
    last: int,
    heading: Subject | None,
) -> list[CallSubjects]:
    """ "Calls `Y` ..." at a sentence's start, in a section whose heading is one name: the
    claim heading -> Y."""
    if heading is None or verb.group("passive") or not verb.group(0)[:1].isupper():
        return []
    if not _OPENING.fullmatch(text[first : verb.start()]):
        return []
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= last]
    if not after or not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    callees = _names(text, _callee_chain(text, after))
    return [CallSubjects(heading, tuple(callees))] if callees else []


# "by calling `Y` in `X`": the caller named after the callee; a file is no caller.
_IN_CALLER = re.compile(r"\s+(?:in|inside|within)\s+(?:the\s+)?$", re.IGNORECASE)
_FILE_NAME = re.compile(r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|md|json)$")


def _called_in(
    text: str, spans: list[tuple[int, int, str]], verb: re.Match[str], last: int
) -> list[CallSubjects]:
    """ "... by calling `Y` in `X`" (no caller before the verb): the claim X -> Y."""
    if verb.group(0).lower() not in ("calling", "calls", "invoking", "invokes"):
        return []
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= last]
    if len(after) < 2 or not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    if not _IN_CALLER.fullmatch(text[after[0][1] : after[1][0]]) or _FILE_NAME.search(after[1][2]):
        return []
    callee = subject(after[0][2], _NOUN.match(text, after[0][1]) is not None)
    caller = subject(after[1][2], named=True)
    return [] if callee is None or caller is None else [CallSubjects(caller, (callee,))]


def _table_row(
    text: str, spans: list[tuple[int, int, str]], verb: re.Match[str]
) -> list[CallSubjects]:
    """A table row whose first cell is one function's name and whose later cell says what
    it calls ("| `f(a)` | Creates a `<div>`, calls `g` ... |"): the claim f -> g."""
    if not text.lstrip().startswith("|") or verb.group("passive"):
        return []
    opening = text.index("|")
    second = text.find("|", opening + 1)
    if second < 0 or verb.start() < second:
        return []
    first_cell = [s for s in spans if opening < s[0] and s[1] <= second]
    if (
        len(first_cell) != 1
        or text[opening + 1 : second].strip() != text[first_cell[0][0] : first_cell[0][1]]
    ):
        return []
    cell_start = text.rfind("|", 0, verb.start())
    if any(cell_start < s[0] < verb.start() and subject(s[2]) for s in spans):
        return []
    after = [s for s in spans if verb.end() <= s[0] and text.find("|", verb.end()) > s[0]]
    if not after or not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    caller = subject(first_cell[0][2], named=True)
    callees = _names(text, _callee_chain(text, after))
    return [CallSubjects(caller, tuple(callees))] if caller is not None and callees else []


def _names(text: str, chain: list[tuple[int, int, str]]) -> list[Subject]:
    return [
        found
        for found in (subject(span[2], _NOUN.match(text, span[1]) is not None) for span in chain)
        if found is not None
    ]


# A caller written as a pronoun right before the verb, at a sentence's start or after a
# dash or semicolon ("It also calls", "— it calls", "This method then calls").
_PRONOUN = re.compile(
    r"(?:^|[\u2014;]\s*|--\s*"
    # a second clause of the sentence's subject ("This method emits `x`, then it runs")
    r"|(?P<then>,\s*(?:and\s+)?then\s+))"
    # a sentence adverb before it ("Internally, this method calls")
    r"(?:[A-Z][a-z]+ly,?\s+)?"
    r"(?:it|(?P<demonstrative>this (?:method|function|helper|constructor)))\s+"
    # a predicate before the calling one, joined by "and" ("This method iterates through
    # the exporters and calls") or "by" ("This method resolves the files by calling"):
    # words only, no code span, clause or sentence break
    r"(?:[a-z]+s\b[^`,;.:\u2014]{0,80}?\s+(?:and|by)\s+)?"
    r"(?:(?:\w+ly|then|also|in turn|itself|now|only|first|just|always|still)\s+)*$",
    re.IGNORECASE,
)
# A sentence opening with "this method" (a sentence adverb allowed): the subject ", then
# it" goes back to.
_THIS_OPENS = re.compile(
    r"\s*(?:[A-Z][a-z]+ly,?\s+)?this (?:method|function|helper|constructor)\b", re.IGNORECASE
)
# How many sentences back "this method" may point for the function it names.
_DEMONSTRATIVE_REACH = 2
# A sentence whose grammatical subject is its first code span: "The `x` method ...",
# "Our `x` function ...", "`x()` ...".
_SUBJECT_LEAD = re.compile(r"(?:(?:the|our|its|this|[A-Z][\w-]*'s)\s+)?$", re.IGNORECASE)
_STARTS_WITH_IT = re.compile(r"it\b", re.IGNORECASE)


def _pronoun_claims(
    text: str,
    spans: list[tuple[int, int, str]],
    verb: re.Match[str],
    sentences: list[tuple[int, int]],
    index: int,
    heading: Subject | None = None,
) -> list[CallSubjects]:
    """The claim of a verb whose caller is a pronoun (see :data:`_PRONOUN`): the pronoun
    stands for the subject of the sentence that introduced it, the first code span of the
    same sentence when the sentence starts with it, else of the nearest sentence before
    that does not itself start with "It" (a run of "It ..." sentences keeps one
    subject). A referent that is not a sentence's subject leaves the claim unread.
    "This method" with no name before it on the line is the function its section's
    ``heading`` names, and may be called ("This method is called by `startVitest`")."""
    first = sentences[index][0]
    pronoun = _PRONOUN.search(text[first : verb.start()])
    if pronoun is None:
        return []
    joined = pronoun.group("then") is not None
    referent = _sentence_subject(text, spans, first, verb.start())
    back = -1 if joined else index - 1
    while referent is None and back >= 0:
        start, end = sentences[back]
        if _STARTS_WITH_IT.match(text, start) is None:
            referent = _sentence_subject(text, spans, start, end)
            break
        back -= 1
    demonstrative = pronoun.group("demonstrative") is not None or bool(
        joined and referent is None and _THIS_OPENS.match(text, first)
    )
    if joined and referent is None and not demonstrative:
        return []
    if referent is None and demonstrative:
        referent = _last_named(spans, sentences, index)
    named = heading if referent is None and demonstrative else None
    group = (
        None
        if referent is not None or named is not None
        else _listed_subject(text, spans, sentences, index)
    )
    if referent is None and group is None and named is None:
        return []
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= sentences[index][1]]
    if not after or not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
    caller = named or (group if referent is None else subject(referent[2], named=True))
    callees = [
        found
        for found in (
            subject(span[2], _NOUN.match(text, span[1]) is not None)
            for span in _callee_chain(text, after)
        )
        if found is not None
    ]
    if caller is None or not callees:
        return []
    if verb.group("passive"):
        # "This method is called by `X`": X calls the section's method; "is called inside
        # `A`, `B` or `C`": the list together (one of them calling it shows the claim)
        return [CallSubjects(_together(callees), (caller,))] if named is not None else []
    return [CallSubjects(caller, tuple(callees))]


# A sentence whose subject is a list of functions: "Methods like `a`, `b`, and `c` ...".
_LIST_LEAD = re.compile(
    r"(?:the\s+)?(?:methods|functions|helpers)\s+(?:like|such as|named)?\s*$", re.IGNORECASE
)
# Between two names of such a list, the serial comma included ("`a`, `b`, and `c`").
_LIST_JOINT = re.compile(r"\s*(?:,\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s)\s*")


def _listed_subject(
    text: str, spans: list[tuple[int, int, str]], sentences: list[tuple[int, int]], index: int
) -> Subject | None:
    """The list of functions a run of "It ..." sentences goes back to (see
    :data:`_LIST_LEAD`), as one caller whose ``members`` are the list's names."""
    back = index - 1
    while back >= 0 and _STARTS_WITH_IT.match(text, sentences[back][0]) is not None:
        back -= 1
    if back < 0:
        return None
    start, end = sentences[back]
    inside = [s for s in spans if start <= s[0] and s[1] <= end]
    if len(inside) < 2 or not _LIST_LEAD.fullmatch(text[start : inside[0][0]]):
        return None
    listed = [inside[0]]
    for span in inside[1:]:
        if not _LIST_JOINT.fullmatch(text[listed[-1][1] : span[0]]):
            break
        listed.append(span)
    members = tuple(m for m in (subject(s[2], named=True) for s in listed) if m is not None)
    if len(members) < 2:
        return None
    shown = ", ".join(m.text for m in members[:-1]) + f" and {members[-1].text}"
    return Subject(shown, members[0].name, members=members)


def _together(names: list[Subject]) -> Subject:
    """One name, or a list of names as one caller whose ``members`` they are."""
    if len(names) == 1:
        return names[0]
    shown = ", ".join(n.text for n in names[:-1]) + f" and {names[-1].text}"
    return Subject(shown, names[0].name, members=tuple(names))


def _last_named(
    spans: list[tuple[int, int, str]], sentences: list[tuple[int, int]], index: int
) -> tuple[int, int, str] | None:
    """What "this method" points at: the last code span of the nearest of the
    :data:`_DEMONSTRATIVE_REACH` sentences before that holds one ("... via `exportToAll`.
    But this is no simple loop. This method ... calls `exportTo`")."""
    for back in range(index - 1, max(index - _DEMONSTRATIVE_REACH, 0) - 1, -1):
        start, end = sentences[back]
        inside = [s for s in spans if start <= s[0] and s[1] <= end]
        if inside:
            return inside[-1]
    return None


def _sentence_subject(
    text: str, spans: list[tuple[int, int, str]], start: int, end: int
) -> tuple[int, int, str] | None:
    """The sentence's first code span when it is the sentence's subject (nothing but an
    article or a possessive before it)."""
    inside = [s for s in spans if start <= s[0] and s[1] <= end]
    if not inside or not _SUBJECT_LEAD.fullmatch(text[start : inside[0][0]]):
        return None
    return inside[0]
