"""The inline constructs markdownlint's link, image and HTML rules read from micromark
tokens (MD011, MD033, MD034, MD039, MD045, MD051, MD052, MD053, MD054), recovered from
markdown-it with their source lines.

markdownlint 0.36.1 parses with micromark (CommonMark plus GFM autolink literals,
footnotes, tables, math and directives) and its rules read token types, texts and lines.
markdown-it parses the same CommonMark, but it has no source positions below the block,
no GFM autolink literals and no trace of a ``[label]`` that names no definition. This
module fills those gaps explicitly:

- every inline rule of the parser is wrapped to record where its token starts and ends
  in the block's inline content; a content offset gives the line as
  ``block line + newlines before it`` (markdown-it keeps one content line per source line
  in paragraphs, headings and table cells);
- links, images and autolinks become :class:`Link`/:class:`Autolink` records with the
  parts micromark names (``labelText``, ``resourceDestinationString``,
  ``resourceTitleString``, ``referenceString``) as raw source text;
- HTML blocks are parsed again as markdownlint does (their lines as Markdown with HTML
  blocks and indented code off), so the tags inside them are ``htmlText`` too, marked
  ``in_html_flow``;
- undefined references (markdownlint shims micromark's ``labelEnd`` to record
  ``[label]``, ``[text][label]`` and ``[label][]`` that match no definition) come from a
  second inline parse whose reference map "defines" every label that shim would record;
- reference definitions (and ``[^note]:`` footnote definitions) are recorded with their
  line, raw label and raw destination;
- GFM autolink literals (``www.``, ``http(s)://``, e-mail) are found by
  :mod:`..autolinks` over the text outside every other inline construct (the spans
  recorded here).

Known differences from micromark, rare in posts: ``$math$`` and ``:directive[...]`` are
not parsed (a link inside them counts as a link here).
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from pytest_postgates.tools.lint.document import (
    Document,
    register_shared_block_parse,
    shares_inline_model_parse,
)

# ---------------------------------------------------------------------- records


@dataclass
class Link:
    """A micromark ``link`` or ``image`` (or, ``defined`` False, an undefined reference
    markdownlint's shim records), lines 0-based in the document."""

    kind: str  # "link" or "image"
    line: int
    end_line: int
    label: str  # labelText: the raw text between the brackets
    label_line: int  # where labelText starts and ends
    label_end_line: int
    style: str  # "inline", "full", "collapsed" or "shortcut"
    destination: str | None = None  # resourceDestinationString, raw ("" if empty)
    title: str | None = None  # resourceTitleString, raw
    reference: str | None = None  # referenceString of a full reference, raw
    in_html_flow: bool = False
    inside: Link | None = None  # the link an image sits in (its label)
    defined: bool = True
    # where it is: the content (an index into Model.contents) and offsets in its text
    content: int = -1
    start: int = -1
    end: int = -1
    label_start: int = -1
    label_end: int = -1


@dataclass
class Autolink:
    """A micromark ``autolink`` (``<scheme:...>`` or ``<a@b.c>``)."""

    line: int
    destination: str
    in_html_flow: bool = False


@dataclass
class HtmlText:
    """A micromark ``htmlText`` token: one tag, comment, declaration or instruction."""

    line: int
    text: str
    in_html_flow: bool
    block: int  # the inline content it belongs to (an index into Model.contents)
    start: int  # its offset in that content


@dataclass
class Definition:
    """A link reference definition (or a ``[^label]:`` footnote definition)."""

    line: int
    label: str  # raw label text (with "^" for a footnote)
    destination: str | None  # raw definitionDestinationString


@dataclass
class Content:
    """One block's inline content and where its pieces are."""

    text: str
    line: int  # the document line of its first character
    in_html_flow: bool
    heading: bool
    # (start, end, kind) of each inline construct that is not plain text: "code", "html",
    # "autolink", "link", "image", "escape", "entity"; links and images span their label.
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)

    def line_of(self, offset: int) -> int:
        return self.line + bisect_right(self.breaks, offset - 1)


@dataclass
class Model:
    contents: list[Content] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    undefined: list[Link] = field(default_factory=list)
    autolinks: list[Autolink] = field(default_factory=list)
    html: list[HtmlText] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    code_block_lines: set[int] = field(default_factory=set)
    # (content index, start, end) of each code span
    code: list[tuple[int, int, int]] = field(default_factory=list)
    headings: list[tuple[int, int]] = field(default_factory=list)  # (content index, line)
    footnote_calls: list[tuple[int, str]] = field(default_factory=list)  # (line, "^label")
    # inline contents still to parse with the undefined-reference shim
    shim_pending: list[tuple[MarkdownIt, Content, int, dict[str, Any]]] = field(
        default_factory=list
    )
    # id(inline token of the document's own block tokens) -> its inline tokens, when the
    # model was built from those tokens (see inline_children)
    children: dict[int, list[Token]] = field(default_factory=dict)


# ------------------------------------------------------------------------ parser

_SENTINEL = "\x00undefined-reference"


def _record(name: str, rule: Callable[[StateInline, bool], bool]) -> Callable[..., bool]:
    """``rule`` that notes, on each token it creates, where in the source it started and
    ended (``meta["span"]``); links and images also get their label's end."""

    def recorded(state: StateInline, silent: bool) -> bool:
        start = state.pos
        count = len(state.tokens)
        if not rule(state, silent):
            return False
        if silent:
            return True
        end = state.pos
        if name == "emphasis":
            # One text token per delimiter character (later paired into em/strong):
            # each gets its own character's span.
            for offset, token in enumerate(state.tokens[len(state.tokens) - (end - start) :]):
                token.meta["span"] = (start + offset, start + offset + 1, -1)
            return True
        label_end = -1
        if name in ("link", "image"):
            opening = start + (1 if name == "image" else 0)
            saved = state.pos
            label_end = state.md.helpers.parseLinkLabel(state, opening, name == "link")
            state.pos = saved
        for token in state.tokens[count:]:
            if token.type == "text" or "span" in token.meta:
                continue  # pending text flushed here, or a token of the label
            token.meta["span"] = (start, end, label_end)
        return True

    return recorded


_FOOTNOTE_CALL = re.compile(r"\[\^([^\]\s]+)\]")


def _footnote_call(state: StateInline, silent: bool) -> bool:
    """micromark's gfmFootnoteCall: ``[^label]`` naming a defined footnote is a call,
    whatever follows it (an undefined one is an ordinary label)."""
    if not state.src.startswith("[^", state.pos):
        return False
    match = _FOOTNOTE_CALL.match(state.src, state.pos, state.posMax)
    footnotes = state.env.get("postgates_footnotes") or ()
    if match is None or normalize_reference("^" + match.group(1)) not in footnotes:
        return False
    if not silent:
        token = state.push("footnote_ref", "", 0)
        token.content = "^" + match.group(1)
    state.pos = match.end()
    return True


class _LinkLabels:
    """markdown-it's parseLinkLabel, answered from one walk per stretch: the walk from a
    "[" passes every "[" inside it, so it records where each of those ends too (markdown-it
    walks again from every "[", quadratic on a post of many brackets). Same results:
    the walk is the same chain of ``skipToken`` steps, and a nested "[" that is not text
    (a link) is remembered for ``disableNested``."""

    def __init__(self) -> None:
        self.key: tuple[int, int] | None = None
        self.ends: dict[int, int] = {}
        self.jumps: list[int] = []

    def __call__(self, state: StateInline, start: int, disableNested: bool = False) -> int:
        key = (id(state), state.posMax)
        if key != self.key:
            self.key, self.ends, self.jumps = key, {}, []
        end = self.ends.get(start)
        if end is None:
            end = self._walk(state, start)
        if end >= 0 and disableNested:
            index = bisect_right(self.jumps, start)
            if index < len(self.jumps) and self.jumps[index] < end:
                return -1
        return end

    def _walk(self, state: StateInline, start: int) -> int:
        old = state.pos
        state.pos = start + 1
        opened = [start]  # the text "[" still open, outermost first
        found = -1
        while state.pos < state.posMax:
            marker = state.src[state.pos]
            if marker == "]":
                closing = opened.pop()
                self.ends[closing] = state.pos
                if not opened:
                    found = state.pos
                    break
            here = state.pos
            state.md.inline.skipToken(state)
            if marker == "[":
                if here == state.pos - 1:
                    opened.append(here)
                else:
                    self.jumps.insert(bisect_right(self.jumps, here), here)
        for unclosed in opened:
            self.ends[unclosed] = -1
        state.pos = old
        return found


class _Helpers:
    """markdown-it's helpers with a linear parseLinkLabel (one per parser)."""

    def __init__(self, helpers: Any) -> None:
        self.parseLinkDestination = helpers.parseLinkDestination
        self.parseLinkTitle = helpers.parseLinkTitle
        self.parseLinkLabel = _LinkLabels()


# A character every recorded inline construct starts with or holds (code spans, HTML and
# autolinks, links, images and footnote calls, escapes, entities, emphasis, strikethrough):
# an inline content without one parses to text and line breaks only, which _walk skips.
_CONSTRUCT_START = re.compile(r"[`<\[\\&*_~]")
_UNRECORDED = frozenset({"text", "newline"})


def _always(_url: str) -> bool:
    return True  # micromark validates no URL scheme


def _parser(html_flow: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable(["table"]).disable(["text_join"])
    if not html_flow:
        md.disable(["html_block", "code"])
    md.validateLink = _always  # type: ignore[method-assign,assignment]
    md.helpers = _Helpers(md.helpers)  # type: ignore[assignment]
    md.inline.ruler.before("link", "footnote_call", _footnote_call)
    rules = md.inline.ruler.__rules__
    for rule in rules:
        # "text" pushes no token and "newline" only line breaks, which nothing reads: left
        # unwrapped, as the most frequent rules (issue 15)
        if rule.name not in _UNRECORDED:
            rule.fn = _record(rule.name, rule.fn)
    md.inline.ruler.__cache__ = None
    # Keep one text token per delimiter character: their spans tell emphasis markers.
    md.inline.ruler2.disable("fragments_join")
    md.block.ruler.before(
        "reference",
        "footnote_definition",
        _footnote_definition,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    reference = md.block.ruler.__rules__[md.block.ruler.__find__("reference")]
    reference.fn = _record_definition(reference.fn)
    md.block.ruler.__cache__ = None
    return md


_FOOTNOTE_LABEL = re.compile(r" {0,3}\[\^([^\]\s]+)\]:")


def _footnote_definition(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    """Record a ``[^label]:`` footnote definition; the paragraph stays (its text is the
    note's content; the label part is blanked by :func:`_blank_footnote_labels`)."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    match = _FOOTNOTE_LABEL.match(state.src, begin, state.eMarks[start_line])
    if match is None:
        return False
    if silent:
        return True  # it ends the paragraph (or list) before it, as in micromark
    state.env.setdefault("postgates_definitions", []).append(
        Definition(start_line, "^" + match.group(1), None)
    )
    state.env.setdefault("postgates_footnote_lines", set()).add(start_line)
    return False


def _record_definition(rule: Callable[..., bool]) -> Callable[..., bool]:
    def recorded(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
        begin = state.bMarks[start_line] + state.tShift[start_line]
        if _FOOTNOTE_LABEL.match(state.src, begin, state.eMarks[start_line]):
            return False  # a footnote definition: its text is a paragraph, as in micromark
        if not rule(state, start_line, end_line, silent):
            return False
        if not silent:
            text = state.getLines(start_line, state.line, state.blkIndent, False)
            parsed = _definition_parts(text)
            # a "[^label]:" is a footnote definition, recorded as one already
            if parsed is not None and not parsed[0].startswith("^"):
                state.env.setdefault("postgates_definitions", []).append(
                    Definition(start_line, parsed[0], parsed[1])
                )
        return True

    return recorded


def _definition_parts(text: str) -> tuple[str, str] | None:
    """(raw label, raw destination) of a definition's text."""
    text = text.lstrip(" ")
    if not text.startswith("["):
        return None
    position = 1
    while position < len(text) and text[position] != "]":
        position += 2 if text[position] == "\\" else 1
    label = text[1:position]
    position += 2  # "]:"
    while position < len(text) and text[position] in " \t\n":
        position += 1
    if text.startswith("<", position):
        end = position + 1
        while end < len(text) and text[end] not in ">\n":
            end += 2 if text[end] == "\\" else 1
        return label, text[position + 1 : end]
    end = position
    while end < len(text) and not text[end].isspace():
        end += 1
    return label, text[position:end]


_MAIN = _parser(html_flow=True)
_REPARSE = _parser(html_flow=False)


class _ShimReferences(dict):  # type: ignore[type-arg]
    """A reference map that also "defines" every label markdownlint's labelEnd shim
    records as an undefined reference (text non-empty, no "]"), with a marker href."""

    def get(self, key: Any, default: Any = None) -> Any:
        found = super().get(key)
        if found is not None:
            return found
        data = data_text(key) if isinstance(key, str) else ""
        if data.strip() and "]" not in data:
            return {"href": _SENTINEL, "title": ""}
        return default


_NOT_DATA = re.compile(
    r"\\[!-/:-@\[-`{-~]|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    r"|(`+)(?:(?!\1).)+?\1"
    # tags and autolinks (a "<" starting neither is data)
    r"|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*>"
    r"|<[^\s<>@]+@[^\s<>]+>"
)


def data_text(label: str) -> str:
    """A label's micromark ``data`` only, as the shim joins it: escapes, entities, code
    spans and tags dropped."""
    return _NOT_DATA.sub("", label) if any(c in label for c in "\\&`<") else label


# ------------------------------------------------------------------------- model


def _breaks(text: str) -> list[int]:
    found: list[int] = []
    index = text.find("\n")
    while index >= 0:
        found.append(index)
        index = text.find("\n", index + 1)
    return found


def _tail_parts(
    text: str, label_end: int, end: int
) -> tuple[str, str | None, str | None, str | None]:
    """(style, destination, title, reference) from the source after a label's "]"."""
    tail = text[label_end + 1 : end]
    if tail.startswith("("):
        inner = tail[1:-1] if tail.endswith(")") else tail[1:]
        position = 0
        while position < len(inner) and inner[position] in " \t\n":
            position += 1
        destination = ""
        if inner.startswith("<", position):
            close = position + 1
            while close < len(inner) and inner[close] != ">":
                close += 2 if inner[close] == "\\" else 1
            destination = inner[position + 1 : close]
            position = close + 1
        else:
            close = position
            depth = 0
            while close < len(inner):
                char = inner[close]
                if char == "\\":
                    close += 2
                    continue
                if char.isspace() or ord(char) < 0x20:
                    break
                if char == "(":
                    depth += 1
                elif char == ")":
                    if depth == 0:
                        break
                    depth -= 1
                close += 1
            destination = inner[position:close]
            position = close
        rest = inner[position:].strip(" \t\n")
        title = rest[1:-1] if len(rest) >= 2 else None
        return "inline", destination, title, None
    if tail.startswith("[]"):
        return "collapsed", None, None, None
    if tail.startswith("["):
        return "full", None, None, tail[1:-1]
    return "shortcut", None, None, None


def _walk(
    model: Model,
    content: Content,
    index: int,
    tokens: Sequence[Token],
    base: int,
    inside: Link | None,
) -> None:
    """Record the positioned constructs of ``tokens`` (their offsets relative to ``base``
    in ``content.text``); ``inside``: the link these tokens are the label of."""
    text = content.text
    stack: list[Link | None] = [inside]
    for token in tokens:
        if token.type == "link_close":
            if len(stack) > 1:
                stack.pop()
            continue
        span = token.meta.get("span") if token.meta else None
        if span is None:
            continue
        start, end, label_end = base + span[0], base + span[1], base + span[2]
        if token.type in ("em_open", "em_close", "strong_open", "strong_close") or (
            token.type == "text" and not token.content
        ):
            content.spans.append((start, end, "emphasis"))
        elif token.type == "code_inline":
            content.spans.append((start, end, "code"))
            model.code.append((index, start, end))
        elif token.type == "html_inline":
            content.spans.append((start, end, "html"))
            model.html.append(
                HtmlText(content.line_of(start), token.content, content.in_html_flow, index, start)
            )
        elif token.type == "footnote_ref":
            content.spans.append((start, end, "footnote"))
            model.footnote_calls.append((content.line_of(start), token.content))
        elif token.type == "text_special":
            content.spans.append((start, end, "entity" if token.info == "entity" else "escape"))
        elif token.type == "link_open" and token.markup == "autolink":
            content.spans.append((start, end, "autolink"))
            stack.append(None)
            model.autolinks.append(
                Autolink(content.line_of(start), text[start + 1 : end - 1], content.in_html_flow)
            )
        elif token.type in ("link_open", "image"):
            image = token.type == "image"
            label_start = start + (2 if image else 1)
            style, destination, title, reference = _tail_parts(text, label_end, end)
            target = token.attrGet("src" if image else "href")
            link = Link(
                "image" if image else "link",
                content.line_of(start),
                content.line_of(max(start, end - 1)),
                text[label_start:label_end],
                content.line_of(label_start),
                content.line_of(label_end),
                style,
                destination,
                title,
                reference,
                content.in_html_flow,
                stack[-1],
                target != _SENTINEL,
                index,
                start,
                end,
                label_start,
                label_end,
            )
            content.spans.append((start, end, link.kind))
            (model.links if link.defined else model.undefined).append(link)
            if image:
                _walk(model, content, index, token.children or (), label_start, stack[-1])
            else:
                stack.append(link)


def _blank_footnote_labels(tokens: list[Token], footnote_lines: set[int]) -> None:
    """Blank the ``[^label]:`` opening a footnote definition's first paragraph, so that
    it is no shortcut reference (micromark reads it as the definition's label)."""
    for token in tokens:
        if token.type == "inline" and token.map and token.map[0] in footnote_lines:
            match = _FOOTNOTE_LABEL.match(token.content)
            if match:
                token.content = " " * match.end() + token.content[match.end() :]


def block_parse(text: str) -> tuple[list[Token], dict[str, Any]]:
    """The block tokens of ``text`` and the parse's environment (references, definitions,
    footnotes), as the model reads them; :class:`Document` shares them where its own
    parser's would be the same (:func:`.document.shares_inline_model_parse`)."""
    env: dict[str, Any] = {}
    tokens: list[Token] = []
    _MAIN.block.parse(text, _MAIN, env, tokens)
    return tokens, env


register_shared_block_parse(block_parse)


def _contents(
    text: str,
    line_delta: int,
    in_html_flow: bool,
    model: Model,
    lines: Sequence[str],
    parsed: tuple[list[Token], dict[str, Any]] | None = None,
) -> None:
    """Parse ``text`` (document lines from ``line_delta`` on) into ``model``: blocks, then
    each inline content twice (real references, then the undefined-reference shim).
    ``parsed``: the block parse of ``text`` by ``_MAIN``, when the caller has it."""
    md = _REPARSE if in_html_flow else _MAIN
    if parsed is not None:
        tokens, env = parsed
    else:
        env = {}
        tokens = []
        md.block.parse(text, md, env, tokens)
    _blank_footnote_labels(tokens, env.get("postgates_footnote_lines", set()))
    if not in_html_flow:
        model.definitions.extend(
            Definition(found.line + line_delta, found.label, found.destination)
            for found in env.get("postgates_definitions", [])
        )
    references = env.get("references", {})
    footnotes = {
        normalize_reference(found.label)
        for found in env.get("postgates_definitions", [])
        if found.label.startswith("^")
    }
    real_env = {"references": references, "postgates_footnotes": footnotes}
    shim_env = {"references": _ShimReferences(references), "postgates_footnotes": footnotes}
    heading = False
    footnote_lines = env.get("postgates_footnote_lines", set())
    # micromark's GFM footnote definition is a container: after a blank line, a block
    # indented four columns continues the note (markdown-it reads it as indented code).
    in_footnote = False
    for token in tokens:
        if token.type == "code_block" and in_footnote and token.map:
            _contents(token.content, token.map[0] + line_delta, in_html_flow, model, lines)
            continue
        if token.type == "paragraph_open":
            in_footnote = token.map is not None and token.map[0] in footnote_lines
        elif token.type not in ("inline", "paragraph_close"):
            in_footnote = False
        if token.type == "heading_open":
            heading = True
        elif token.type == "heading_close":
            heading = False
        elif token.type in ("fence", "code_block") and token.map and not in_html_flow:
            model.code_block_lines.update(
                range(token.map[0] + line_delta, token.map[1] + line_delta)
            )
        elif token.type == "html_block" and token.map and not in_html_flow:
            if not _is_html_flow_comment(token.content.rstrip("\n")):
                first, last = token.map[0] + line_delta, token.map[1] + line_delta
                while last > first + 1 and not lines[last - 1].strip():
                    last -= 1
                _contents("\n".join(lines[first:last]), first, True, model, lines)
        elif token.type == "inline" and token.map:
            content = Content(
                token.content,
                token.map[0] + line_delta,
                in_html_flow,
                heading,
                breaks=_breaks(token.content),
            )
            index = len(model.contents)
            model.contents.append(content)
            if heading:
                model.headings.append((index, content.line))
            if _CONSTRUCT_START.search(token.content) is None:
                continue  # plain text (and line breaks): no construct to record
            children: list[Token] = []
            md.inline.parse(token.content, md, real_env, children)
            _walk(model, content, index, children, 0, None)
            if parsed is not None:
                model.children[id(token)] = children
            if "[" in token.content and "]" in token.content:
                model.shim_pending.append((md, content, index, shim_env))


def undefined_references(model: Model) -> list[Link]:
    """The undefined references of :class:`Model` (parsed on first use: only MD052 and
    MD053 read them)."""
    pending, model.shim_pending = model.shim_pending, []
    for md, content, index, shim_env in pending:
        shim_children: list[Token] = []
        md.inline.parse(content.text, md, shim_env, shim_children)
        shim = Model()
        copy = Content(
            content.text, content.line, content.in_html_flow, content.heading, breaks=content.breaks
        )
        _walk(shim, copy, index, shim_children, 0, None)
        model.undefined.extend(shim.undefined)
    return model.undefined


def _is_html_flow_comment(text: str) -> bool:
    """markdownlint's isHtmlFlowComment: an HTML block that is one whole comment (its
    content is not parsed again)."""
    if text.startswith("<!--") and text.endswith("-->"):
        comment = text[4:-3]
        return (
            not comment.startswith(">")
            and not comment.startswith("->")
            and not comment.endswith("-")
        )
    return False


_MODELS: weakref.WeakKeyDictionary[Document, Model] = weakref.WeakKeyDictionary()


def model_of(document: Document) -> Model:
    """The inline model of a document (built once, shared by the rules)."""
    model = _MODELS.get(document)
    if model is None:
        model = Model()
        lines = list(document.raw_lines)
        text = "\n".join(lines)
        # the document's block tokens when they are this parser's (read, never changed:
        # footnote labels, the one edit _contents makes, need "[^", which rules sharing out)
        parsed = (document.tokens, document.env) if shares_inline_model_parse(text) else None
        _contents(text, 0, False, model, lines, parsed)
        _MODELS[document] = model
    return model


# What an inline parse by markdown-it's default validateLink may read otherwise than this
# module's parser (which takes every URL): a scheme it refuses, the colon perhaps escaped
# or an entity, or letters spelt as numeric entities.
_REFUSED_INLINE = re.compile(r"(?i:vbscript|javascript|file|data)(?:\\?:|&colon;)|&#")


def inline_children(document: Document, token: Token) -> list[Token] | None:
    """The inline tokens of one of ``document.tokens``' inline tokens as the model parsed
    them, when the model is built already and they are what a plain CommonMark parse
    without text_join and fragments_join (MD037's) makes of ``token.content``: the same
    references, no footnote call (no "[^": the document's tokens are the model's), no URL
    validateLink refuses. None otherwise (parse it yourself)."""
    model = _MODELS.get(document)
    if model is None or "\0" in token.content or _REFUSED_INLINE.search(token.content):
        return None
    return model.children.get(id(token))


def normalize_reference(label: str) -> str:
    """markdownlint's normalizeReference: lower case, trimmed, whitespace collapsed."""
    return re.sub(r"\s+", " ", label.lower().strip())
