"""A blog post, parsed once: front matter, body, markdown-it tokens, fences, code spans,
and its prose view (:mod:`pytest_postgates.prose`).

Everything a gate needs to know about the Markdown is computed here, so that no gate ever
parses Markdown itself. Line numbers are always 1-based line numbers of the file as a reader
sees it in an editor (front matter included), never offsets into the body.

Parsing never raises for bad content: problems with the input (not UTF-8, binary, broken
front matter, an unclosed fence, ...) are recorded as :class:`InputProblem` so that the
caller can report them per post while the rest of a corpus keeps running.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

# FrontMatterError, load_front_matter, load_yaml, ... lived here: re-exported for callers.
from pytest_postgates.code_references import CodeReference, find_code_references
from pytest_postgates.front_matter import _FRONT_MATTER_SHAPES
from pytest_postgates.front_matter import MAX_FRONT_MATTER_DEPTH as MAX_FRONT_MATTER_DEPTH
from pytest_postgates.front_matter import MAX_FRONT_MATTER_NODES as MAX_FRONT_MATTER_NODES
from pytest_postgates.front_matter import MAX_YAML_NODES as MAX_YAML_NODES
from pytest_postgates.front_matter import FrontMatterBlock as FrontMatterBlock
from pytest_postgates.front_matter import FrontMatterError as FrontMatterError
from pytest_postgates.front_matter import YAMLAliasBudgetError as YAMLAliasBudgetError
from pytest_postgates.front_matter import load_front_matter as load_front_matter
from pytest_postgates.front_matter import load_yaml as load_yaml
from pytest_postgates.prose import ProseView

# A post larger than this is refused rather than parsed: no blog post is this big, and the
# regex gates should not be handed an accidental log dump.
MAX_POST_BYTES = 16 * 1024 * 1024
# Files that can be posts (pytest collection, xdist grouping by post).
MARKDOWN_SUFFIXES = (".md", ".markdown")


def is_markdown(path: Path) -> bool:
    return path.suffix.lower() in MARKDOWN_SUFFIXES


# The boundary of the trailing link list. The seeds' form is a bold "**Related posts:**"
# line; a "## Related posts" heading is the other common Jekyll shape.
RELATED_POSTS = re.compile(
    r"^(?:(?:\*\*|__)Related posts:?(?:\*\*|__)|#{1,6}[ \t]+Related posts[ \t]*:?[ \t]*$)",
    re.IGNORECASE,
)
FENCE_CLOSER = re.compile(r"^[ \t>]*(`{3,}|~{3,})[ \t]*$")

# markdown-it's "normalize" core rule (CR and CRLF to LF, NUL to U+FFFD) is left out: the
# text reaching the parser never holds either (parse_post turns line endings into LF and
# refuses a file with a NUL byte), and the rule's two passes over the text cost a fifth
# of the parse.
COMMONMARK = MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("normalize")


@dataclass(frozen=True)
class InputProblem:
    """Something wrong with the file itself rather than with what it says.

    ``fatal`` problems mean no gate can judge the post (its items ERROR); the others are
    repaired for parsing (CRLF, BOM) but still fail the post's gates until fixed.
    """

    code: str
    message: str
    line: int | None = None
    fatal: bool = True


# A title an info string gives past the language: ``title="x"`` (``filename=``, ``file=``,
# quoted or not), else a code group's tab title in brackets (VitePress, Nuxt Content:
# ```` ```ts [nuxt.config.ts] ````).
_INFO_TITLE = re.compile(r"""\b(?:title|filename|file)=(?:"([^"]*)"|'([^']*)'|([^\s"']+))""")
_INFO_TAB = re.compile(r"\[\s*([^\]]*?)\s*\]")


def fence_title(info: str, tabs: bool = True) -> str:
    """The title a fence's info string gives it (``title=``, ``filename=``, ``file=``, or,
    with ``tabs``, a bracketed tab title), "" when it gives none."""
    named = _INFO_TITLE.search(info)
    if named:
        return next(group for group in named.groups() if group is not None).strip()
    tab = _INFO_TAB.search(info) if tabs else None
    return tab.group(1) if tab else ""


@dataclass(frozen=True)
class Fence:
    """A fenced code block. ``start_line``/``end_line`` are the marker lines."""

    start_line: int
    end_line: int
    info: str
    markup: str
    content: str
    closed: bool

    @property
    def lang(self) -> str:
        return self.info.split(maxsplit=1)[0].lower() if self.info.strip() else ""

    @property
    def content_lines(self) -> range:
        """File lines between the markers (to the end of the block when unclosed)."""
        return range(self.start_line + 1, self.end_line if self.closed else self.end_line + 1)


@dataclass(frozen=True)
class CodeSpan:
    """An inline code span (`` `x` `` or ``` `` `x` `` ```) with its file line."""

    text: str
    line: int
    markup: str
    href: str = ""  # the URL of the link whose text holds the span ("" outside links)


@dataclass
class Post:
    path: Path
    text: str = ""
    lines: list[str] = field(default_factory=list)
    front_matter: dict[str, Any] | None = None
    front_matter_text: str = ""
    # "yaml", "toml" or "json"; None when the file has no front matter (then front_matter
    # is an empty mapping: whether that is a problem is gate 1's call).
    front_matter_format: str | None = None
    body_start_line: int = 1
    problems: list[InputProblem] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    # A page of a site (not a blog post under ``_posts``) whose front matter holds values
    # and whose body is empty: its generator renders it from the front matter (a VitePress
    # home page's hero, a rule page built from its data, a redirect). Not bad input: the
    # runner skips each gate with :data:`FRONT_MATTER_ONLY`.
    front_matter_only: bool = False
    # The name its scorecards use; the runner sets it (a short hash is added when two posts
    # of a run share a file name).
    stem: str = ""
    # held_blocks.code_blocks's answer, kept: gates 2 and 15 and the docs-names reading ask
    # it of the same post (None until asked).
    code_blocks: tuple[Fence, ...] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.stem = self.stem or self.path.stem

    # ----------------------------------------------------------------- derived views
    @property
    def fatal_problems(self) -> list[InputProblem]:
        return [p for p in self.problems if p.fatal]

    @property
    def defects(self) -> list[InputProblem]:
        return [p for p in self.problems if not p.fatal]

    @property
    def body(self) -> str:
        return "\n".join(self.lines[self.body_start_line - 1 :])

    def body_lines(self) -> Iterator[tuple[int, str]]:
        """(file line number, text) for every body line."""
        for index in range(self.body_start_line - 1, len(self.lines)):
            yield index + 1, self.lines[index]

    @cached_property
    def _code(self) -> tuple[tuple[Fence, ...], tuple[Fence, ...]]:
        return code_of(self.tokens, self.lines, self.body_start_line)

    @property
    def fences(self) -> tuple[Fence, ...]:
        return self._code[0]

    @property
    def indented_code(self) -> tuple[Fence, ...]:
        """CommonMark's indented code blocks, as fences with no marker (``markup`` empty,
        ``start_line`` the line before the block, ``info`` empty). A fence written inside
        one (the indented body of a MkDocs tab or admonition, which CommonMark reads as
        code) is given as that fence, at its own lines, in place of the block around it."""
        return self._code[1]

    @cached_property
    def code_lines(self) -> frozenset[int]:
        """File lines inside fenced or indented code, fence markers included."""
        lines: set[int] = set()
        for token in self.tokens:
            if token.type in ("fence", "code_block") and token.map is not None:
                lines.update(
                    range(self._file_line(token.map[0]), self._file_line(token.map[1] - 1) + 1)
                )
        return frozenset(lines)

    @cached_property
    def html_lines(self) -> frozenset[int]:
        """File lines of raw HTML blocks (comments included): not prose a reader sees."""
        lines: set[int] = set()
        for token in self.tokens:
            if token.type == "html_block" and token.map is not None:
                lines.update(
                    range(self._file_line(token.map[0]), self._file_line(token.map[1] - 1) + 1)
                )
        return frozenset(lines)

    @cached_property
    def fence_marker_lines(self) -> frozenset[int]:
        markers = set()
        for fence in self.fences:
            markers.add(fence.start_line)
            if fence.closed:
                markers.add(fence.end_line)
        return frozenset(markers)

    @cached_property
    def related_posts_line(self) -> int | None:
        """File line of the Related-posts boundary (outside code), if the post has one."""
        code = self.code_lines
        for number, text in self.body_lines():
            if number not in code and RELATED_POSTS.match(text.strip()):
                return number
        return None

    @cached_property
    def code_spans(self) -> tuple[CodeSpan, ...]:
        """Inline code spans of the whole body, in document order."""
        spans: list[CodeSpan] = []
        for token in self.tokens:
            # A code span needs a backtick: most inline tokens have none to walk for.
            if (
                token.type == "inline"
                and token.children
                and token.map is not None
                and "`" in token.content
            ):
                start = self._file_line(token.map[0])
                spans.extend(_inline_code_spans(token, start))
        return tuple(spans)

    @property
    def prose_code_spans(self) -> tuple[CodeSpan, ...]:
        """Code spans in prose: fenced code is already excluded; this also drops the
        Related-posts block."""
        boundary = self.related_posts_line
        if boundary is None:
            return self.code_spans
        return tuple(span for span in self.code_spans if span.line < boundary)

    @cached_property
    def code_references(self) -> tuple[CodeReference, ...]:
        """Code-shaped references outside code spans (``<code>`` in HTML, heading words,
        link text, MkDocs autorefs) before the Related-posts block: gate 2's tokens besides
        :attr:`prose_code_spans`."""
        found = find_code_references(self.tokens, self.body_start_line, self.related_posts_line)
        return tuple(found)

    @cached_property
    def linked_names(self) -> dict[str, str]:
        """The address each code span or code-shaped link text is linked to, by its name
        spelled as Python packaging compares names (``griffe-pydantic`` and
        ``griffe_pydantic`` are one): the page saying where a name lives."""
        linked: dict[str, str] = {}
        for text, href in (
            *((s.text, s.href) for s in self.prose_code_spans),
            *((r.text, r.href) for r in self.code_references),
        ):
            if href:
                linked.setdefault(package_spelling(text), href)
        return linked

    @cached_property
    def prose(self) -> ProseView:
        """The post's prose (paragraphs, sentences, words, links, blanked lines), built on
        first use from the tokens and kept: every gate of the post reads this one view."""
        return ProseView(self)

    def _file_line(self, body_index: int) -> int:
        return self.body_start_line + body_index


def code_of(
    tokens: list[Token], lines: list[str], first: int
) -> tuple[tuple[Fence, ...], tuple[Fence, ...]]:
    """The fences and the indented code (see :attr:`Post.indented_code`) of ``tokens``,
    parsed from a body whose first line is file line ``first`` of ``lines``."""
    fences: list[Fence] = []
    blocks: list[Fence] = []
    for token in tokens:
        if token.map is None:
            continue
        start, last = first + token.map[0], first + token.map[1] - 1
        if token.type == "code_block":
            blocks.extend(indented_blocks(token, start, 0))
        elif token.type == "fence":
            marker = FENCE_CLOSER.match(lines[last - 1]) if last > start else None
            closed = marker is not None and marker.group(1)[0] == token.markup[0]
            closed = closed and marker is not None and len(marker.group(1)) >= len(token.markup)
            info = token.info.strip()
            fences.append(Fence(start, last, info, token.markup, token.content, closed))
    return tuple(fences), tuple(blocks)


def indented_blocks(token: Token, first: int, depth: int) -> list[Fence]:
    """The fences an indented code block holds (see :attr:`Post.indented_code`); the block
    itself when it holds none. ``first`` is the file line of its first line."""
    inner = COMMONMARK.parse(token.content) if depth < 3 else []
    nested: list[Fence] = []
    lines = token.content.splitlines()
    for part in inner:
        if part.map is None:
            continue
        start, stop = first + part.map[0], first + part.map[1] - 1
        if part.type == "fence":
            closer = FENCE_CLOSER.match(lines[part.map[1] - 1]) if stop > start else None
            closed = bool(closer) and closer is not None and closer.group(1)[0] == part.markup[0]
            nested.append(Fence(start, stop, part.info.strip(), part.markup, part.content, closed))
        elif part.type == "code_block":
            nested.extend(indented_blocks(part, start, depth + 1))
    if any(fence.markup for fence in nested):
        return nested
    last = first + len(lines) - 1
    return [Fence(first - 1, last + 1, "", "", token.content, True)]


class PostRefused(Exception):
    """A post file that is not read at all (see :func:`read_post_bytes`)."""

    def __init__(self, problem: InputProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _too_large(size: int) -> InputProblem:
    return InputProblem(
        "TOO_LARGE", f"file is {size:,} bytes, over the {MAX_POST_BYTES:,}-byte limit for a post"
    )


def escapes(path: Path, roots: Iterable[Path]) -> bool:
    """Whether ``path`` is (or lies below) a symlink that resolves outside every one of
    ``roots`` (the rootdir, the repository): such a file is refused unread. A path with
    no symlink in it, or no roots to judge by, never escapes."""
    roots = tuple(roots)
    if not roots:
        return False
    absolute = Path(os.path.abspath(path))
    try:
        resolved = absolute.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return True
    if resolved == absolute:
        return False
    return not any(resolved.is_relative_to(root.resolve()) for root in roots)


def admission_problem(path: Path, roots: Iterable[Path] = ()) -> InputProblem | None:
    """Why a post file must not be read at all, from ``stat`` alone: a symlink out of the
    tree, not a regular file (a FIFO would block, a device never ends), over the size
    limit. The messages name the path as given (the link), never a symlink's target."""
    if escapes(path, roots):
        return InputProblem(
            "SYMLINK_OUTSIDE",
            "the file is a symlink (or lies in a symlinked folder) that resolves outside the "
            "rootdir and repository; refused, its target is not read",
        )
    try:
        info = path.stat()
    except OSError as exc:
        return InputProblem("UNREADABLE", f"cannot read file: {exc.strerror}")
    if not stat.S_ISREG(info.st_mode):
        return InputProblem("NOT_A_FILE", "not a regular file (a FIFO, device or folder)")
    if info.st_size > MAX_POST_BYTES:
        return _too_large(info.st_size)
    return None


def read_post_bytes(path: Path, roots: Iterable[Path] = ()) -> bytes:
    """A post's bytes, never more than the size limit: checked with ``stat`` before the
    read and again on the open file (it may grow in between). Raises :class:`PostRefused`
    with the problem, so every reader (the parser, cache keys, every batch) refuses the
    same files the same way."""
    problem = admission_problem(path, roots)
    if problem is not None:
        raise PostRefused(problem)
    try:
        # O_NONBLOCK: a file swapped for a FIFO after the stat must not block the open.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise PostRefused(InputProblem("UNREADABLE", f"cannot read file: {exc.strerror}")) from None
    with os.fdopen(descriptor, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise PostRefused(
                InputProblem("NOT_A_FILE", "not a regular file (a FIFO, device or folder)")
            )
        try:
            data = stream.read(MAX_POST_BYTES + 1)
        except OSError as exc:
            raise PostRefused(
                InputProblem("UNREADABLE", f"cannot read file: {exc.strerror}")
            ) from None
    if len(data) > MAX_POST_BYTES:
        raise PostRefused(_too_large(max(info.st_size, len(data))))
    return data


# Why every gate skips a page that is front matter only (:attr:`Post.front_matter_only`).
FRONT_MATTER_ONLY = (
    "the page is front matter only, with no body: its site generator renders it from the "
    "front matter (a home page's hero, a page built from its data, a redirect); there is no "
    "text for the gate to check"
)


def parse_post(path: Path, data: bytes | None = None, roots: Iterable[Path] = ()) -> Post:
    """Read and parse a post. Never raises for bad content; see :attr:`Post.problems`."""
    post = Post(path=path)
    if data is None:
        try:
            data = read_post_bytes(path, roots)
        except PostRefused as refused:
            post.problems.append(refused.problem)
            return post
    if len(data) > MAX_POST_BYTES:
        post.problems.append(_too_large(len(data)))
        return post
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        order = "little" if data.startswith(b"\xff\xfe") else "big"
        post.problems.append(
            InputProblem(
                "UTF16",
                f"the file is UTF-16; save as UTF-8 (it starts with a {order}-endian UTF-16 "
                "byte-order mark)",
                line=1,
            )
        )
        return post
    nul = data.find(b"\x00")
    if nul >= 0:
        post.problems.append(
            InputProblem(
                "BINARY",
                f"binary content: NUL byte at offset {nul}",
                line=data.count(b"\n", 0, nul) + 1,
            )
        )
        return post
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        post.problems.append(
            InputProblem(
                "NOT_UTF8",
                f"not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}",
                line=data.count(b"\n", 0, exc.start) + 1,
            )
        )
        return post

    if text.startswith("\ufeff"):
        text = text[1:]
        post.problems.append(
            InputProblem(
                "BOM",
                "file starts with a UTF-8 byte-order mark; Jekyll may not see the front matter",
                line=1,
                fatal=False,
            )
        )
    # CRLF first, then bare CRs (old Mac files): both are line breaks to markdown-it, and
    # normalising keeps our line numbers and its line maps in step.
    for code, ending, label in (("CRLF", "\r\n", "CRLF"), ("CR", "\r", "bare CR (old Mac style)")):
        count = text.count(ending)
        if count:
            first = text[: text.index(ending)].count("\n") + 1
            message = (
                f"{count} {label} line ending(s), first at line {first}; save the file with LF"
            )
            post.problems.append(InputProblem(code, message, line=first, fatal=False))
            text = text.replace(ending, "\n")
    post.text = text
    post.lines = text.split("\n")
    if post.lines and post.lines[-1] == "":
        post.lines.pop()

    _split_front_matter(post)
    if post.fatal_problems:
        return post
    body = post.body
    if not body.strip():
        if post.front_matter and "_posts" not in post.path.parts:
            post.front_matter_only = True
            return post
        post.problems.append(
            InputProblem(
                "EMPTY_BODY",
                "the post has no body after its front matter"
                if post.front_matter_format
                else "the file has no content",
                line=post.body_start_line,
            )
        )
        return post

    post.tokens = COMMONMARK.parse(body)
    for fence in post.fences:
        if fence.closed:
            continue
        opened = f"code fence {fence.markup}{fence.info} opened at line {fence.start_line}"
        if fence.end_line >= len(post.lines):
            message = f"{opened} is never closed: everything after it renders as code"
            post.problems.append(InputProblem("UNCLOSED_FENCE", message, line=fence.start_line))
        else:
            # CommonMark closes a fence where its list item or block quote ends: the page
            # still parses, but what follows the cut renders as text, not as the sample.
            message = (
                f"{opened} is cut off after line {fence.end_line}: line {fence.end_line + 1} "
                "ends the list item or quote holding it, so the rest of the sample renders "
                "as text (indent it into the item, or close the fence)"
            )
            post.problems.append(
                InputProblem("FENCE_CUT", message, line=fence.end_line + 1, fatal=False)
            )
    return post


def find_front_matter(lines: list[str]) -> FrontMatterBlock | InputProblem | None:
    """The front matter block opening ``lines``, None when the file has none, or the
    problem when it opens one and never closes it."""
    if not lines:
        return None
    first = lines[0]
    for kind, opening, closing, marker in _FRONT_MATTER_SHAPES:
        if not opening.fullmatch(first):
            continue
        close = next((i for i in range(1, len(lines)) if closing.fullmatch(lines[i])), None)
        if close is None:
            return InputProblem(
                "FRONT_MATTER_UNCLOSED",
                f"front matter opened at line 1 is never closed with '{marker}'",
                line=1,
            )
        # JSON's braces are part of the document; YAML's and TOML's markers are not.
        inner = lines[0 : close + 1] if kind == "json" else lines[1:close]
        return FrontMatterBlock(kind, "\n".join(inner), close + 2)
    return None


def _split_front_matter(post: Post) -> None:
    found = find_front_matter(post.lines)
    if found is None:
        # A docs page, a README: a post with empty front matter. Gate 1 reports it where
        # front matter is required (require_front_matter); every other gate reads the body.
        post.front_matter = {}
        return
    if isinstance(found, InputProblem):
        post.problems.append(found)
        return
    post.front_matter_text = found.text
    post.body_start_line = found.body_start_line
    try:
        data = load_front_matter(found)
    except FrontMatterError as exc:
        post.problems.append(InputProblem(exc.code, exc.message, line=exc.line))
        return
    post.front_matter = data
    post.front_matter_format = found.format


def _inline_code_spans(inline: Token, first_line: int) -> Iterator[CodeSpan]:
    """Code spans of one inline token, with the file line each one opens on.

    markdown-it keeps line maps only on block tokens, so the line is found by walking the
    inline source in step with the children: a scan for the span's backtick run (exact
    length, outside backslash escapes) is exact even for spans that wrap lines; where the
    scan cannot find the span (raw HTML holding backticks, say) counting line breaks among
    the preceding children is the fallback.
    """
    source = inline.content
    cursor = 0
    breaks = 0
    href = ""
    for child in inline.children or ():
        if child.type == "link_open":
            href = str(child.attrs.get("href", ""))
        elif child.type == "link_close":
            href = ""
        elif child.type in ("softbreak", "hardbreak"):
            breaks += 1
        elif child.type == "html_inline":
            breaks += child.content.count("\n")
        elif child.type == "code_inline":
            found = _find_code_span(source, cursor, len(child.markup))
            if found is None:
                line = first_line + breaks
            else:
                opening, cursor = found
                line = first_line + source.count("\n", 0, opening)
                breaks = source.count("\n", 0, cursor)
            yield CodeSpan(child.content, line, child.markup, href)


_ESCAPE_OR_BACKTICK = re.compile(r"[\\`]")


def _find_code_span(source: str, start: int, width: int) -> tuple[int, int] | None:
    """(opening offset, offset after the closing run) of the next code span whose backtick
    runs are exactly ``width`` long, or None."""
    index = start
    length = len(source)
    search = _ESCAPE_OR_BACKTICK.search
    while index < length:
        found = search(source, index)  # the next character that is not plain text
        if found is None:
            return None
        index = found.start()
        if source[index] == "\\":
            index += 2
            continue
        run_end = index + 1
        while run_end < length and source[run_end] == "`":
            run_end += 1
        if run_end - index == width:
            closing = _find_run(source, run_end, width)
            # No closing run after this opening means none after any later one either:
            # stop, rather than search the rest again from every later run (quadratic).
            return None if closing is None else (index, closing + width)
        index = run_end
    return None


def _find_run(source: str, start: int, width: int) -> int | None:
    """Offset of the next backtick run of exactly ``width`` (no escapes inside code)."""
    length = len(source)
    index = source.find("`", start)
    while index >= 0:
        run_end = index + 1
        while run_end < length and source[run_end] == "`":
            run_end += 1
        if run_end - index == width:
            return index
        index = source.find("`", run_end)
    return None


def read_front_matter(data: bytes) -> dict[str, Any] | None:
    """Only the front matter of a post's bytes, without parsing the Markdown: for callers
    that need a post's settings when its gate results come from the cache. None when the
    post has no readable front matter (the full parse reports why)."""
    if len(data) > MAX_POST_BYTES:
        return None
    try:
        text = data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    except UnicodeDecodeError:
        return None
    found = find_front_matter(text.split("\n"))
    if not isinstance(found, FrontMatterBlock):
        return None
    try:
        return load_front_matter(found)
    except FrontMatterError:
        return None


def package_spelling(name: str) -> str:
    """A name as package indexes compare them (PEP 503: case and runs of ``-_.`` aside)."""
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


# The run's memo key (GateContext.memo) of the posts parsed before the runner reached them.
PARSED_AHEAD = "post.parsed_ahead"


class ParsedAhead:
    """Posts parsed before the runner reaches them, each handed once to the runner's parse
    of the same path and bytes (gate 15's cache key reads every page of a post's folder:
    parsed once for both, :func:`parse_post` of the same path and bytes gives the same
    post). At most ``size`` kept (the first offered): a page another process runs is never
    taken here."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: dict[Path, tuple[bytes, Post]] = {}

    def parse(self, path: Path, parse: Callable[..., Post] | None = None) -> Post:
        """``parse_post(path)`` (``parse``: the caller's parse_post), offered to the runner
        when the file was read."""
        parse = parse or parse_post
        try:
            data = read_post_bytes(path)
        except PostRefused:
            return parse(path)  # refused as parse_post refuses it
        post = parse(path, data)
        if len(self._kept) < self.size and path not in self._kept:
            self._kept[path] = (data, post)
        return post

    def take(self, path: Path, data: bytes) -> Post | None:
        """The post parsed ahead from ``path`` with these bytes, once (None: none was)."""
        found = self._kept.pop(path, None)
        return found[1] if found is not None and found[0] == data else None
