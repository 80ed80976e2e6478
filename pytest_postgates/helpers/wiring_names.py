"""The code names a wiring claim writes, read off the post's parsed parts for gate 16: the
name one code span writes (:func:`subject`), the code spans of a line (a link's or an
autoref's extent included), the next line of a paragraph, and the function a section's
heading names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_postgates.post import Post

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
