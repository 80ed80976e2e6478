"""What a wiring claim is about, read off the post's parsed parts for gate 16.

A call claim (``X calls Y``, ``Y is called by X``, ``X delegates to Y``, ``under the hood X
invokes Y``) names its caller and callees in code spans next to the verb, within one
sentence; :func:`call_subjects` reads them from the line's code spans (the post's own
parse, nothing re-parsed). A pronoun caller stands for its sentence's subject, or for a
list of functions together ("Methods like `a` and `b` ... It calls `c`").
:func:`mermaid_edges` reads the edges of a flowchart between nodes that name functions
(a ``name()`` label, or a camelCase node id as gate 13's detector reads them).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.prose import sentence_spans

if TYPE_CHECKING:
    from pytest_postgates.post import Post

# The verbs of a call claim; "is called by" turns the claim round. A bare "call" is mostly
# a noun ("one `generate()` call"), so it is no verb here.
_VERB = re.compile(
    # the passive, an adverb allowed ("`b` is directly called by `a`"); "are" after a list
    r"\b(?P<passive>(?:(?P<passive_plural>are|get)|is|gets) (?:\w+ly )?(?:called|invoked)"
    r" (?:\w+ly )?(?:by|from))\b"
    r"|\b(?:calls|calling|invokes|invoking|delegates to|delegating to|dispatches to"
    r"|hands off to|forwards to|then calls"
    # a future is a claim too ("`dispatchCommand` will implicitly call `editor.update`")
    r"|will (?:\w+ly |also |then |first |in turn )*call"
    # "`a`, which wraps the `b` method": only with the noun that says `b` is a function
    # (a span is blanked to x's when this runs)
    r"|wraps(?=\s+(?:the\s+)?x+\s+(?:method|function|helper)s?\b)"
    # "uses" names a call only with a noun that says its object is a function
    r"|uses (?:the )?(?:helpers?|functions?)(?: like| such as)?"
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
_SUBJECT = re.compile(
    r"(?P<new>new\s+)?(?P<chain>[A-Za-z_$#][\w$]*(?:(?:\.|#|::)[A-Za-z_$#][\w$]*)*)"
    r"\s*(?P<call>\(.*\))?;?"
)
# A name a writer would not take for a word: camelCase, PascalCase, snake_case, #private.
_CODE_SHAPED = re.compile(r"^#|.[A-Z_$]|^[A-Z]")
_RECEIVERS = frozenset({"this", "self", "cls", "super"})


@dataclass(frozen=True)
class Subject:
    """A code name as a claim writes it: ``name`` (the function, method or class), the
    class it is qualified by (``Client.send`` -> ``Client``; "" when none or a variable),
    whether it is written as a call, and whether as a construction (``new Client()``)."""

    text: str
    name: str
    owner: str = ""
    called: bool = False
    constructs: bool = False
    # A caller written as a list that a pronoun stands for ("Methods like `a`, `b` and
    # `c` ... It calls `d`"): the claim is about them together, so one reaching the callee
    # verifies it and only all failing contradicts it.
    members: tuple[Subject, ...] = ()


@dataclass(frozen=True)
class CallSubjects:
    """The caller and callees a claim line names, or why they could not be read."""

    caller: Subject | None = None
    callees: tuple[Subject, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class Edge:
    """A flowchart edge between two nodes that name functions."""

    line: int
    source: Subject
    target: Subject
    text: str


def subject(text: str, named: bool = False) -> Subject | None:
    """The name a code span writes (``client.send(x)``, ``Client#send``, ``new Client()``),
    or None when it is not a name (a literal, an expression, a path, a plain word unless
    ``named``: the prose calls it a method or function)."""
    # `.dict()`, `.run()`: a method written with the dot of its call, as docs write them.
    bare = text.strip()
    # a Sphinx target's `~` (show the last part only) is markup: `~pyodide.loadPackage`
    bare = bare[1:] if bare[:1] == "~" and bare[1:2].isalpha() else bare
    if bare[:1] == "." and bare[1:2].isalpha():
        # the dot says it is a member, so a plain word is a name here (`.elements`)
        bare, named = bare[1:], True
    match = _SUBJECT.fullmatch(bare)
    if match is None:
        return None
    parts: list[str] = []
    for part in re.split(r"\.|::", match.group("chain")):
        # `Client#send` is the instance method send (JSDoc's notation); `#send` alone, or
        # `this.#send`, is a private member of that name.
        head, _hash, rest = part[1:].partition("#")
        parts += [part[0] + head, rest] if rest else [part]
    parts = [p for p in parts if p]
    if not parts or "/" in text:
        return None
    name = parts[-1]
    owners = [p for p in parts[:-1] if p not in _RECEIVERS]
    if not (named or match.group("call") or owners or _CODE_SHAPED.search(name)):
        return None  # a plain word (`text`, `timeout`) is no claim about a function
    owner = owners[-1] if owners and owners[-1][:1].isupper() else ""
    return Subject(text.strip(), name, owner, bool(match.group("call")), bool(match.group("new")))


def spans_in(post: Post, line: int) -> list[tuple[int, int, str]]:
    """(start, end, text) of the line's code spans in the line's text, in order. A span
    that is a link's text (``[`x()`](url)``), and an autoref (``[x()][pkg.Cls.x]``, read
    as its target, the name it resolves to), covers the whole link: its brackets are
    markup, not words between the claim's verb and its name."""
    text = post.lines[line - 1] if 0 < line <= len(post.lines) else ""
    found: list[tuple[int, int, str]] = []
    cursor = 0
    for span in post.code_spans:
        if span.line != line:
            continue
        written = f"{span.markup}{span.text}{span.markup}"
        at = text.find(written, cursor)
        width = len(written)
        if at < 0:
            at, width = text.find(span.text, cursor), len(span.text)
        if at < 0:
            continue
        found.append((*_whole_link(text, at, at + width), span.text))
        cursor = at + width
    for reference in post.code_references:
        if reference.line == line and reference.source == "autoref":
            found += _autoref(text, reference.text, found)
    return sorted(found)


# A link's closing part: ``](url)`` or ``][ref]`` (``[]`` when the text is the ref).
_LINK_TAIL = re.compile(r"\]\((?:[^()\s]|\([^()\s]*\))*\)|\]\[[^\[\]]*\]")


def _whole_link(text: str, start: int, end: int) -> tuple[int, int]:
    """The extent of the link whose whole text is ``text[start:end]``, or the span's."""
    if start > 0 and text[start - 1] == "[":
        tail = _LINK_TAIL.match(text, end)
        if tail is not None:
            return start - 1, tail.end()
    return start, end


def _autoref(
    text: str, target: str, spans: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """The autoref ``[label][target]`` on the line as one span named by its target,
    replacing a code span that is its label; nothing when its label is not found."""
    tail = text.find(f"][{target}]")
    start = text.rfind("[", 0, tail) if tail >= 0 else -1
    if start < 0:
        return []
    end = tail + len(target) + 3
    spans[:] = [s for s in spans if not (start <= s[0] and s[1] <= end)]
    return [(start, end, target)]


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
    if any(c.caller is not None for c in claims):
        return [c for c in claims if c.caller is not None or c.reason == READERS_CODE]
    if claims:
        return claims[:1]
    return [CallSubjects(reason="no code span names the caller and the callee next to the verb")]


def _first_call(claim: CallSubjects) -> tuple[str, str]:
    """A claim's caller and first callee, as written (which claims are the same one)."""
    caller = "" if claim.caller is None else claim.caller.text
    return caller, claim.callees[0].text if claim.callees else ""


def _claims_of(
    text: str, spans: list[tuple[int, int, str]], heading: Subject | None, verbs_before: int
) -> list[CallSubjects]:
    """The claims of each verb starting before ``verbs_before`` in ``text``."""
    blanked = list(text)
    for start, end, _text in spans:
        blanked[start:end] = "x" * (end - start)
    plain = "".join(blanked)
    claims: list[CallSubjects] = []
    sentences = sentence_spans(plain)
    for index, (first, last) in enumerate(sentences):
        for verb in _VERB.finditer(plain, first, last):
            if verb.start() >= verbs_before:
                break
            found = _around(text, spans, verb, first, last) or _recursion(text, spans, verb, first)
            if not found:
                found = _pronoun_claims(text, spans, verb, sentences, index, heading)
            if not found:
                found = (
                    _opening_verb(text, spans, verb, first, last, heading)
                    or _called_in(text, spans, verb, last)
                    or _table_row(text, spans, verb)
                )
            claims += [_unless_readers(plain, spans, verb, first, last, c) for c in found]
    return claims


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


# A line that starts a block of its own rather than continuing a paragraph: a list item, a
# heading, a quote, a table row, a fence.
_BLOCK_START = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|[a-z][.)]\s|#|>|\||```|~~~)")


def continuation(post: Post, line: int) -> tuple[str, list[tuple[int, int, str]]] | None:
    """The next line's text and code spans when it continues ``line``'s paragraph (not
    blank, not code, no block of its own), else None."""
    following = line + 1
    if following > len(post.lines) or following in post.code_lines:
        return None
    text = post.lines[following - 1]
    if not text.strip() or _BLOCK_START.match(text):
        return None
    return text, spans_in(post, following)


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
# What may come before a sentence's subject: a list item's marker, an article.
_LEADS = re.compile(
    r"\s*(?:(?:[-*+]|\d+[.)]|[a-z][.)])\s+)?(?:(?:the|our|its|this|[A-Z][\w-]*'s)\s+)?",
    re.IGNORECASE,
)


def _around(
    text: str, spans: list[tuple[int, int, str]], verb: re.Match[str], first: int, last: int
) -> list[CallSubjects]:
    """The claims one verb makes: its callers (one, or a list before a plural verb) and
    its callees (the span after it and the ones joined to it)."""
    before = without_aside(text, [s for s in spans if first <= s[0] and s[1] <= verb.start()])
    after = [s for s in spans if verb.end() <= s[0] and s[1] <= last]
    if not before or not after:
        return []
    gap = text[before[-1][1] : verb.start()]
    if not CALLER_GAP.fullmatch(gap) and not (
        _PREDICATE_GAP.fullmatch(gap) and _LEADS.fullmatch(text[first : before[-1][0]])
    ):
        return []
    if not _CALLEE_GAP.fullmatch(text[verb.end() : after[0][0]]):
        return []
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


# An ATX heading whose text is one name (``## mergeReports``, ``### `Vitest.start()` ``):
# the function its section is about.
_HEADING = re.compile(r"#{1,6}\s+`?(?P<name>[A-Za-z_$][\w$.#]*)(?:\([^()]*\))?`?\s*#*\s*")
_ANY_HEADING = re.compile(r"#{1,6}\s")
# A heading's markup besides its words: an anchor (``{#standalone}``) and inline HTML
# components (VitePress's ``<Version type="experimental">4.1.1</Version>``, ``<Badge />``).
_HEADING_MARKUP = re.compile(r"\s*(?:\{#[^{}]*\}|<(\w+)[^<>]*>[^<>]*</\1>|<\w+[^<>]*/>)")


def section_name(post: Post, line: int) -> Subject | None:
    """The function the section holding ``line`` is about: its heading's one name, or
    None when the nearest heading above (fenced code left out) says more than a name."""
    code = post.code_lines
    for number in range(line - 1, max(post.body_start_line, 1) - 1, -1):
        if number in code:
            continue
        text = post.lines[number - 1]
        if _ANY_HEADING.match(text) is None:
            continue
        found = _HEADING.fullmatch(_HEADING_MARKUP.sub("", text).rstrip())
        return subject(found.group("name"), named=True) if found is not None else None
    return None


# A caller written as a pronoun right before the verb, at a sentence's start or after a
# dash or semicolon ("It also calls", "— it calls", "This method then calls").
_PRONOUN = re.compile(
    r"(?:^|[\u2014;]\s*|--\s*)"
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
    referent = _sentence_subject(text, spans, first, verb.start())
    back = index - 1
    while referent is None and back >= 0:
        start, end = sentences[back]
        if _STARTS_WITH_IT.match(text, start) is None:
            referent = _sentence_subject(text, spans, start, end)
            break
        back -= 1
    demonstrative = pronoun.group("demonstrative") is not None
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
        # "This method is called by `X`": X calls the section's method
        return [CallSubjects(callees[0], (caller,))] if named is not None else []
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


# ------------------------------------------------------------------ mermaid flowcharts

_NODE = re.compile(
    r"(?P<id>[A-Za-z_][\w-]*)\s*"
    r"(?P<shape>\[\[.*?\]\]|\[\(.*?\)\]|\(\[.*?\]\)|\(\(.*?\)\)|\[.*?\]|\(.*?\)|\{.*?\}|>.*?\])?"
)
_ARROW = re.compile(
    r"\s*(?:<?-->|<?==>|<?-\.->|--\s(?P<mid>[^-\n]*?)-->|==\s(?P<mid2>[^=\n]*?)==>"
    r"|-\.\s(?P<mid3>[^.\n]*?)\.->)(?:\|(?P<pipe>[^|\n]*)\|)?\s*"
)
# An edge's label that says it is a call; any other label ("throws", "yes", "result")
# makes the edge control or data flow, not a call.
_CALL_LABEL = re.compile(r"^\W*(?:calls?|invokes?|delegates?(?: to)?)\W*$", re.IGNORECASE)
_LABEL_CALL = re.compile(r"(?:new\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$#][\w$]*)*\s*\([^()]*\)")
_CAMEL_ID = re.compile(r"[a-z][a-zA-Z]{4,}")
_CAMEL = re.compile(r"[a-z][A-Z]")


def _node_subject(node_id: str, shape: str | None) -> Subject | None:
    """The function a node names: its label is that call or name and nothing else (a
    label that says more, "`streamText()` via executeStreamInner", is a stage, not a
    function); a node without a label by a camelCase id."""
    if not shape:
        return subject(node_id) if _CAMEL_ID.fullmatch(node_id) and _CAMEL.search(node_id) else None
    label = re.sub(r"^[\[({>\"' ]+|[\]}\"' ]+$", "", shape)
    while label.endswith(")") and label.count(")") > label.count("("):
        label = label[:-1]  # the shape's own `)`
    if _LABEL_CALL.fullmatch(label) or (_CAMEL_ID.fullmatch(label) and _CAMEL.search(label)):
        return subject(label)
    return None


def mermaid_edges(content: str, first_line: int) -> list[Edge]:
    """The edges between function-naming nodes of one flowchart's text (``first_line``:
    the file line of its first line). A node's label, once given, names it everywhere."""
    labels: dict[str, Subject | None] = {}
    pairs: list[tuple[int, str, str, str]] = []  # (line, source id, target id, text)
    for offset, raw in enumerate(content.splitlines()):
        for statement in raw.split(";"):
            chain: list[str] = []
            labelled: list[bool] = []  # whether the arrow after chain[i] has a label not a call
            at = 0
            statement = statement.strip()
            while at < len(statement):
                node = _NODE.match(statement, at)
                if node is None:
                    break
                node_id = node.group("id")
                if node.group("shape") or node_id not in labels:
                    labels[node_id] = _node_subject(node_id, node.group("shape"))
                chain.append(node_id)
                arrow = _ARROW.match(statement, node.end())
                if arrow is None:
                    break
                label = next((g for g in arrow.group("mid", "mid2", "mid3", "pipe") if g), "")
                labelled.append(bool(label.strip()) and not _CALL_LABEL.match(label))
                at = arrow.end()
            for (source_id, target_id), flow in zip(
                itertools.pairwise(chain), labelled, strict=False
            ):
                if not flow:
                    pairs.append((first_line + offset, source_id, target_id, statement))
    edges: list[Edge] = []
    for line, source_id, target_id, text in pairs:
        source, target = labels.get(source_id), labels.get(target_id)
        if source is None or target is None:
            continue
        if (source.name, source.owner) != (target.name, target.owner):  # one call twice
            edges.append(Edge(line, source, target, text))
    return edges
