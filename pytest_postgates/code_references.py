"""Code-shaped references a post makes outside backticks: what gate 2 grounds besides its
code spans (DESIGN: "every code-shaped reference in a heading, link text, autoref or
``<code>``").

- ``html-code``: a ``<code>`` element in an HTML block or inline HTML (not inside ``<pre>``,
  which is a code block as a fence is);
- ``heading``: a code-shaped word of a heading (``#### ERR_PLUGIN_NOT_FOUND``);
- ``link-text``: a code-shaped word of a link's text (``[.validateSchema(...)](#x)``);
- ``autoref``: the identifier of an MkDocs autoref (``[text][pkg.mod.Name]``,
  ``[pkg.mod.Name][]``), which stays literal text to markdown-it.

Code-shaped: holds ``_``, an inner ``.`` or ``()``, an inner capital (camelCase,
PascalCase), or starts with ``--``. Read from the markdown-it tokens the post already has;
code spans are the post's own :attr:`~pytest_postgates.post.Post.code_spans`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from markdown_it.token import Token

from pytest_postgates.html_text import code_elements
from pytest_postgates.prose import LIQUID

# Where a token came from: a code span, or one of the references above.
CODE_SPAN = "code-span"


@dataclass(frozen=True)
class CodeReference:
    text: str
    line: int
    source: str  # "html-code", "heading", "link-text" or "autoref"
    href: str = ""  # link-text: the link's URL


_WORD = re.compile(r"\S+")
_EDGE_PUNCTUATION = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb,;:!?*"
_POSSESSIVE = re.compile(r"['\u2019]s$")
# Both read a word in linear time (no run of word characters is re-read from each start).
_INNER_DOT = re.compile(r"[\w$]\.[A-Za-z_$]")
_CALL = re.compile(r"[\w$]\(")  # and the word ends in ")"
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_FLAG = re.compile(r"^--[A-Za-z]")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_ABBREVIATION = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?")  # e.g, i.e, U.S.
_HOSTNAME = re.compile(
    r"(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|co|me|sh|so|gg|xyz|edu|gov|info|ly|to)(?:/\S*)?"
)
# kramdown attribute lists (``{#id}``, ``{: .class}``) name the heading, not code.
_ATTRIBUTE_LIST = re.compile(r"\{[:#][^{}]*\}")
_AUTOREF = re.compile(r"\[([^\[\]\n]*)\]\[([^\[\]\s]*)\]")
_CODE_PLACEHOLDER = "\x00"
# A heading's bracket right after its code span, to the heading's end: the type of what the
# code span names, in the page's notation (jest's "### `transform` [object<string, ...>]").
_TYPE_AFTER_CODE = re.compile(r"\x00\s*\[.*\]\s*$", re.S)
_CODE_OPEN = re.compile(r"<code(?=[\s>])[^>]*>$", re.IGNORECASE)
_CODE_CLOSE = re.compile(r"</code\s*>$", re.IGNORECASE)


def _trim_end(word: str) -> str:
    """Sentence punctuation after a word, but not the ``...`` of ``f(...)``."""
    return word if word.endswith("...") else word.rstrip(".:,;")


def _trim(word: str) -> str:
    word = _POSSESSIVE.sub("", _trim_end(word.strip(_EDGE_PUNCTUATION)))
    inner = word[1:-1]
    if word.startswith("(") and word.endswith(")") and "(" not in inner and ")" not in inner:
        word = inner  # "(OpenRouter)": a parenthesis around a word
    elif word.startswith("(") and word.count("(") > word.count(")"):
        word = word[1:]
    elif word.endswith(")") and word.count(")") > word.count("("):
        word = word[:-1]
    return _trim_end(word)


def code_shaped(word: str) -> bool:
    """Whether a word outside backticks reads as code rather than prose."""
    if len(word) < 2 or not re.search(r"[A-Za-z]", word) or "://" in word or "@" in word:
        return False
    if _ABBREVIATION.fullmatch(word) or _HOSTNAME.fullmatch(word):
        return False
    return bool(
        _FLAG.match(word)
        or ("_" in word.strip("_") or word.startswith("__"))
        or _INNER_DOT.search(word)
        or (word.endswith(")") and _CALL.search(word))
        # camelCase, PascalCase: an identifier, not a hyphenated compound ("OpenAI-Compatible")
        or (_IDENTIFIER.fullmatch(word) is not None and _INNER_CAPITAL.search(word) is not None)
    )


# A call whose arguments hold spaces (`.compileValidationSchema(schema, [httpStatus])`): one
# word, not `.compileValidationSchema(schema,` and `[httpStatus])`.
_SPACED_CALL = re.compile(
    r"(?<![\w$.#])[.#]?[A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*\((?:[^()\n]|\([^()\n]*\))*\)"
)


def code_shaped_words(text: str) -> Iterator[str]:
    """The code-shaped words of plain text, in order."""
    text = _ATTRIBUTE_LIST.sub(" ", LIQUID.sub(" ", text))
    words: list[tuple[int, str]] = []
    for call in _SPACED_CALL.finditer(text):
        if " " in call.group(0):
            words.append((call.start(), call.group(0)))
            text = text[: call.start()] + " " * len(call.group(0)) + text[call.end() :]
    words += [(match.start(), _trim(match.group(0))) for match in _WORD.finditer(text)]
    for _, word in sorted(words):
        if _CODE_PLACEHOLDER not in word and code_shaped(word):
            yield word


@dataclass
class _Run:
    """Consecutive text of an inline token: its line and its text (code spans as one
    placeholder character, so an autoref around a code span is seen as one)."""

    line: int
    parts: list[str]


def _inline_references(inline: Token, first_line: int, heading: bool) -> Iterator[CodeReference]:
    line = first_line
    link_depth = 0
    host = href = ""  # the link being read: its host and URL
    code: list[str] | None = None  # the text of an open inline <code>, or None
    code_line = line
    link_text: list[str] = []  # the text of the open link, read whole at its close
    link_line = line
    runs: list[_Run] = []
    for child in inline.children or ():
        kind = child.type
        if kind in ("softbreak", "hardbreak"):
            line += 1
            runs.append(_Run(line, []))
            if code is not None:
                code.append(" ")
            continue
        if kind == "html_inline":
            if _CODE_OPEN.match(child.content):
                code, code_line = [], line
            elif _CODE_CLOSE.match(child.content) and code is not None:
                yield CodeReference(" ".join("".join(code).split()), code_line, "html-code")
                code = None
            line += child.content.count("\n")
            continue
        if code is not None:
            code.append(child.content if kind in ("text", "code_inline") else "")
            continue
        if kind == "link_open":
            link_depth += 1
            href = str(child.attrs.get("href", ""))
            host = _host(href)
            link_text, link_line = [], line
        elif kind == "link_close":
            link_depth = max(0, link_depth - 1)
            # The text read whole: markdown-it splits `[f(a, [b])](#f)` at its brackets.
            for word in code_shaped_words("".join(link_text)):
                # The link's own host as its text ("[docs.example.ink](https://docs...)").
                if not ("." in word and host and word.lower() in host):
                    yield CodeReference(word, link_line, "link-text", href)
            link_text = []
        elif kind == "text" and link_depth:
            link_text.append(child.content)
        elif kind in ("strong_open", "strong_close", "em_open", "em_close") and "_" in child.markup:
            # `__init__` reads to markdown-it as emphasis around `init`; underscores are
            # part of an identifier, so the markup goes back into the text.
            if not runs or runs[-1].line != line:
                runs.append(_Run(line, []))
            runs[-1].parts.append(child.markup)
        elif kind in ("text", "code_inline"):
            if not runs or runs[-1].line != line:
                runs.append(_Run(line, []))
            runs[-1].parts.append(child.content if kind == "text" else _CODE_PLACEHOLDER)
    for run in runs:
        text = "".join(run.parts)
        if heading:
            # "### `transform` [object<string, pathToTransformer>]": the option's type.
            text = _TYPE_AFTER_CODE.sub(_CODE_PLACEHOLDER, text)
            for word in code_shaped_words(_AUTOREF.sub(" ", text)):
                yield CodeReference(word, run.line, "heading")
        for found in _AUTOREF.finditer(text):
            identifier = found.group(2) or found.group(1)
            if _CODE_PLACEHOLDER not in identifier and code_shaped(identifier):
                yield CodeReference(identifier, run.line, "autoref")


def _host(url: str) -> str:
    try:
        return urlsplit(url).netloc.lower()
    except ValueError:  # "http://[" is no URL
        return ""


def find_code_references(
    tokens: Sequence[Token], body_start_line: int, stop_line: int | None
) -> list[CodeReference]:
    """Every code-shaped reference outside code spans, in document order, before the
    Related-posts line ``stop_line`` (a link list, not content)."""
    found: list[CodeReference] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        first = body_start_line + token.map[0]
        if stop_line is not None and first >= stop_line:
            break
        if token.type == "html_block":
            for offset, text in code_elements(token.content):
                found.append(CodeReference(text, first + offset, "html-code"))
        elif token.type == "inline" and token.children:
            heading = index > 0 and tokens[index - 1].type == "heading_open"
            found.extend(_inline_references(token, first, heading))
    return [reference for reference in found if reference.text]
