"""The text a markdownlint rule reads, and helpers several rules share (markdownlint's
``helpers/``): :class:`Document` (the lines without front matter, HTML comment content
cleared, block tokens parsed on first use), front matter and line splitting as
markdownlint does them, code spans, heading and list-marker helpers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

# Block structure is all these rules need: skipping inline parsing halves the cost.
_PARSER = MarkdownIt("commonmark").enable(["table"]).disable(["inline", "text_join"])
# MD036 parses one paragraph's inline content; escapes and entities stay tokens of their
# own (no text_join), as in micromark.
INLINE_PARSER = MarkdownIt("commonmark").disable(["text_join"])
LINE_BREAK = re.compile(r"\r\n?|\n")

# markdownlint's front matter: YAML ``---``, TOML ``+++`` (closed by ``+++`` or ``...``)
# or JSON ``{``, opening the file; the closing line may be followed by blank lines, which
# count as front matter too (its regex ends in ``\s*``).
_FRONT_MATTER = (
    (re.compile(r"---[^\S\n\u2028\u2029]*"), re.compile(r"---\s*")),
    (re.compile(r"\+\+\+[^\S\n\u2028\u2029]*"), re.compile(r"(?:\+\+\+|\.\.\.)\s*")),
    (re.compile(r"\{[^\S\n\u2028\u2029]*"), re.compile(r"\}\s*")),
)


def markdownlint_lines(text: str) -> tuple[list[str], int]:
    """The lines markdownlint lints (BOM and front matter removed) and how many file lines
    the front matter took: add it to a line index to get the file line."""
    return without_front_matter(LINE_BREAK.split(text.removeprefix("\ufeff")))


def without_front_matter(lines: list[str]) -> tuple[list[str], int]:
    for opening, closing in _FRONT_MATTER:
        if not lines or not opening.fullmatch(lines[0]):
            continue
        close = next((i for i in range(1, len(lines)) if closing.fullmatch(lines[i])), None)
        if close is None:
            continue
        end = close
        while end + 1 < len(lines) and not lines[end + 1].strip():
            end += 1
        if end == len(lines) - 1 and lines[end] == "" and end > close:
            end -= 1  # the file's final line break ends the text, not a blank line
        return lines[end + 1 :], end + 1
    return lines, 0


def tokens_after(tokens: Sequence[Token], index: int) -> Iterable[Token]:
    """The tokens after ``index``, without copying the list."""
    return (tokens[position] for position in range(index + 1, len(tokens)))


_STARTS_WITH_PIPE = re.compile(r"^ *\|")


def clear_html_comment_text(text: str) -> str:
    """markdownlint's ``clearHtmlCommentText``: the content of each valid HTML comment
    with every character but space and line breaks made ".", and spaces before a line
    break too (the lines its rules read; tokens come from the text before this). A
    comment is valid on a line of its own, or, inline, unless it spans table cells,
    starts with ">" or "->", ends with "-" or holds "--". Linear (pieces, not rebuilds)."""
    pieces: list[str] = []
    copied = 0
    index = 0
    while True:
        start = text.find("<!--", index)
        if start < 0:
            break
        end = text.find("-->", start + 2)
        if end < 0:
            break  # an unterminated comment is text
        if end > start + 4:
            content = text[start + 4 : end]
            line_start = text.rfind("\n", 0, start) + 1
            before = text[line_start:start]
            block = not before.strip()
            spans_cells = bool(_STARTS_WITH_PIPE.match(before)) and "\n" in content
            valid = block or not (
                spans_cells
                or content.startswith((">", "->"))
                or content.endswith("-")
                or "--" in content
            )
            if valid:
                cleared = re.sub(r"[^ \r\n]", ".", content)
                cleared = re.sub(r" +(?=[\r\n])", lambda m: "." * len(m.group(0)), cleared)
                pieces.append(text[copied : start + 4])
                pieces.append(cleared)
                copied = end
        index = end + 3
    pieces.append(text[copied:])
    return "".join(pieces)


# A definition destination markdown-it's validateLink may refuse: a bad scheme (its colon
# perhaps escaped or an entity; letters can be entities only as "&#") after a "]:", the
# blanks, line breaks and quote markers a definition may have there, and "<". The model's
# parser takes every URL, so such a definition is one there and paragraph text here.
_REFUSED_SCHEME = re.compile(r"\]:[\s>]*<?(?i:vbscript|javascript|file|data)(?:\\?:|&colon;)|&#")


# The inline model's block parse (:func:`.micromark.block_parse`), registered by that
# module when it is imported (it imports this one, so this one cannot import it).
_shared_block_parse: Callable[[str], tuple[list[Token], dict[str, Any]]] | None = None


def register_shared_block_parse(
    parse: Callable[[str], tuple[list[Token], dict[str, Any]]],
) -> None:
    global _shared_block_parse
    _shared_block_parse = parse


def shares_inline_model_parse(text: str) -> bool:
    """Whether the block tokens of :mod:`.micromark`'s parser equal this module's for
    ``text``. They differ where a ``[^label]:`` line starts (a footnote definition there,
    a reference definition here) and at a definition whose destination validateLink
    refuses (the model validates none); this module's ``parse`` also runs markdown-it's
    "normalize" step, which changes only NUL (the text has no CR: lines joined by LF).
    ``tests/test_lint_speed.py`` checks the claim."""
    return "[^" not in text and "\0" not in text and _REFUSED_SCHEME.search(text) is None


class Document:
    """What markdownlint's rules read: the lines (front matter removed, HTML comment
    content cleared) and, parsed only when a rule asks, the block tokens of the text
    before clearing."""

    def __init__(self, lines: Sequence[str], front_matter: Sequence[str] = ()) -> None:
        self.front_matter = front_matter
        self.raw_lines = lines
        joined = "\n".join(lines)
        self._text = joined
        self.lines: Sequence[str] = (
            clear_html_comment_text(joined).split("\n") if "<!--" in joined else lines
        )
        self._tokens: list[Token] | None = None
        self._columns: dict[int, tuple[int, int, str]] | None = None
        self._env: dict[str, Any] = {}

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            if _shared_block_parse is not None and shares_inline_model_parse(self._text):
                # One block parse for the rules and the inline model (issue 15): the
                # model's parser makes the same block tokens for this text.
                self._tokens, self._env = _shared_block_parse(self._text)
            else:
                self._tokens = _PARSER.parse(self._text, self._env)
        return self._tokens

    @property
    def env(self) -> dict[str, Any]:
        """The block parse's environment (its link reference definitions): what an
        inline parse of one block's content needs to read ``[label]`` as micromark does."""
        _ = self.tokens
        return self._env


def line_ranges(tokens: Sequence[Token], types: Iterable[str]) -> set[int]:
    wanted = set(types)
    found: set[int] = set()
    for token in tokens:
        if token.type in wanted and token.map is not None:
            found.update(range(token.map[0], token.map[1]))
    return found


_MARKER_AT = {
    "bullet": re.compile(r"(?:[ \t]|>)*([*+-])(?=[ \t]|$)"),
    "ordered": re.compile(r"(?:[ \t]|>)*(\d{1,9}[.)])(?=[ \t]|$)"),
}


def marker_columns(document: Document) -> dict[int, tuple[int, int, str]]:
    if document._columns is None:
        document._columns = _find_marker_columns(document)
    return document._columns


def _find_marker_columns(document: Document) -> dict[int, tuple[int, int, str]]:
    """id(list_item_open token) -> (file-relative line index, 0-based column of its marker
    as micromark counts it (tabs to 4-column stops), marker text). Items that start on one
    line (``- - x``) are found left to right after each other."""
    consumed: dict[int, int] = {}
    found: dict[int, tuple[int, int, str]] = {}
    kinds: list[str] = []
    for token in document.tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            kinds.append("bullet" if token.type == "bullet_list_open" else "ordered")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            kinds.pop()
        elif token.type == "list_item_open" and token.map is not None and kinds:
            index = token.map[0]
            line = document.lines[index] if index < len(document.lines) else ""
            match = _MARKER_AT[kinds[-1]].match(line, consumed.get(index, 0))
            if match is None:
                continue
            consumed[index] = match.end()
            column = len(line[: match.start(1)].expandtabs(4))
            found[id(token)] = (index, column, match.group(1))
    return found


def block_lines(tokens: Sequence[Token], types: Iterable[str]) -> set[int]:
    return line_ranges(tokens, types)


# JavaScript's \s (Python's str.strip() differs: it strips \x1c-\x1f, keeps \ufeff).
JS_SPACE = (
    " \t\n\r\f\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

_HEADING_START = re.compile(r"[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)*(?=#)")


def _atx_parts(line: str) -> tuple[str, str, bool] | None:
    """(blanks after the opening hashes, blanks before the closing ones, closed) of an
    ATX heading line (container prefixes skipped); None without content."""
    start = _HEADING_START.match(line)
    rest = line[start.end() :] if start else line.lstrip()
    text = rest.rstrip(" \t")
    opening = len(text) - len(text.lstrip("#"))
    body = text[opening:]
    after = body[: len(body) - len(body.lstrip(" \t"))]
    content = body[len(after) :]
    if not content:
        # An empty heading: its trailing blanks are the whitespace after the hashes.
        trailing = rest[opening:]
        return trailing[: len(trailing) - len(trailing.lstrip(" \t"))], "", False
    stripped = content.rstrip("#")
    closed = len(stripped) < len(content) and stripped[-1:] in (" ", "\t")
    before = ""
    if closed:
        before = stripped[len(stripped.rstrip(" \t")) :]
        if not stripped.strip(" \t"):
            return None
    return after, before, closed


def md019_md021(document: Document, closed_rule: bool) -> Iterable[tuple[int, str]]:
    for token in document.tokens:
        if token.type != "heading_open" or not token.markup.startswith("#") or not token.map:
            continue
        line = document.lines[token.map[0]]
        parts = _atx_parts(line)
        if parts is None or parts[2] != closed_rule:
            continue
        after, before, _ = parts
        if len(after) > 1 or (closed_rule and len(before) > 1):
            name = "inside hashes on closed atx" if closed_rule else "after hash on atx"
            yield token.map[0], f'Multiple spaces {name} style heading [Context: "{line.strip()}"]'


_DEFAULT_TITLE = r"^\s*\"?title\"?\s*[:=]"


def front_matter_has_title(document: Document, pattern: Any) -> bool:
    """markdownlint's frontMatterHasTitle: a front matter line matching the pattern (any
    case); an empty pattern switches the test off."""
    if pattern is not None and not pattern:
        return False
    try:
        title = re.compile(str(pattern or _DEFAULT_TITLE), re.IGNORECASE)
    except re.error:
        return False
    return any(title.search(line) for line in document.front_matter)


def heading_level(options: Mapping[str, Any]) -> int:
    try:
        return int(options.get("level") or 1)
    except (TypeError, ValueError):
        return 1


# What may precede a block's marker on its line: quote markers and list markers.
CONTAINER = r"^[ \t>]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)*"

ANY_ORDERED = re.compile(CONTAINER + r"\d{1,9}[.)](?:[ \t]|$)")

BULLET = re.compile(r"^[ \t>]*(?:\d{1,9}[.)][ \t]+)*([*+-])(?:[ \t]|$)")

_BACKTICK_RUN = re.compile(r"`+")
_DOLLAR_RUN = re.compile(r"\$+")


def code_spans(text: str, escapes: bool = True, char: str = "`") -> list[tuple[int, int]]:
    """(start, end) of each code span in ``text``, as CommonMark pairs them: a run of
    backticks opens one that the next run of exactly its length closes; a run that no
    such run follows is literal. ``escapes``: a run after a backslash does not open one.
    Linear: each run learns the next run of its length from one backward pass (a regex
    with a lazy body retries the rest of the text from every unmatched run)."""
    run_pattern = _BACKTICK_RUN if char == "`" else _DOLLAR_RUN
    runs = [(match.start(), match.end()) for match in run_pattern.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    nearest: dict[int, int] = {}
    for position in range(len(runs) - 1, -1, -1):
        start, end = runs[position]
        following[position] = nearest.get(end - start)
        nearest[end - start] = position
    spans: list[tuple[int, int]] = []
    position = 0
    while position < len(runs):
        start, _ = runs[position]
        closer = following[position]
        if closer is None or (escapes and start > 0 and text[start - 1] == "\\"):
            position += 1
            continue
        spans.append((start, runs[closer][1]))
        position = closer + 1
    return spans


def replace_spans(text: str, spans: Iterable[tuple[int, int]], blank: bool) -> str:
    """``text`` with each span blanked (line breaks kept) or replaced by one space."""
    out: list[str] = []
    last = 0
    for start, end in spans:
        out.append(text[last:start])
        piece = text[start:end]
        out.append(re.sub(r"[^\n]", " ", piece) if blank else " ")
        last = end
    out.append(text[last:])
    return "".join(out)


def blank_code_spans(text: str) -> str:
    return replace_spans(text, code_spans(text), blank=True)


def blank_html_comments(text: str) -> str:
    """``text`` with each ``<!-- ... -->`` blanked; linear (an unclosed comment ends the
    search: nothing after it can close one either)."""
    spans: list[tuple[int, int]] = []
    position = 0
    while True:
        start = text.find("<!--", position)
        if start < 0:
            break
        end = text.find("-->", start + 4)
        if end < 0:
            break
        spans.append((start, end + 3))
        position = end + 3
    return replace_spans(text, spans, blank=True)


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


QUOTE_PREFIX = re.compile(r"^\s*(?:>\s?)*")
