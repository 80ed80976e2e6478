"""Gate 15's fences that are fragments, not whole programs (issue 26), recovered before
they are read, every line kept where the page writes it.

Docs samples elide: a ``...``/``…`` placeholder stands for code left out
(``foo({ a: 1, ... })``, ``class A { ... }``), an object's keys are shown without its
braces, a method chain starts with ``.``, a Node REPL session has ``>`` prompts. tree-sitter
parses these with ERROR nodes, and whatever sits in an error region may be lost. Before a
JavaScript/TypeScript fence is read (:func:`recover_js`), each of these general shapes is
recovered while it leaves fewer bytes in error:

- a placeholder outside strings and comments is blanked (with a comma after it), or made a
  stand-in name of the same bytes (``_$_``) where an expression must follow (``x = ...``);
  a ``// ...`` comment where an expression must be (``return (`` ``// ...`` ``)``), too;
- ``> `` prompts are blanked and the lines without one (the REPL's output) emptied;
- a fence of bare keys (``retries: 3,``) or methods is wrapped as an object literal (read
  as an object shown alone), one of class members (``@Property()`` then ``name?: string;``)
  as a class body, one starting with ``.`` given a receiver (shown as ``…``,
  never bound), a bare argument list as a call's arguments: the opening goes on the first
  line (in its indent where there is one), the closing on a line after the last, so no
  line of the fence moves.

Other languages' fences hold code the gate reads in part (:func:`recover_fence`): a ``diff``
fence's ``+`` and context lines are the new code (its ``-`` lines, the old code, are
emptied and listed unjudged as such, :func:`old_sides`), and the ``<script>`` blocks of an
``html``/``vue``/``svelte`` fence are JavaScript/TypeScript (``lang="ts"``), the rest
emptied. What still does not parse is listed unjudged with why (:func:`unparsed`).
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.source_repairs import error_bytes
from pytest_postgates.helpers.fence_parsers import parse_python
from pytest_postgates.helpers.python_samples import sample_code

if TYPE_CHECKING:
    from pytest_postgates.helpers.sample_checks import SampleReport
    from pytest_postgates.post import Fence

STAND_IN = "_$_"  # a name no page binds, of a placeholder's three bytes
_PLACEHOLDER = re.compile(r"(?<![\w$.])(?:\.\.\.|\u2026)(?![\w$\[({'\"`.])(\s*,)?")
# What must be followed by an expression: a placeholder there is a stand-in, not blanked.
_EXPRESSION_BEFORE = re.compile(r"(?:[=:?]|=>|\breturn|\byield|\bawait|\bnew|\|\||&&)\s*$")
_NO_PLACEHOLDER = frozenset({"string", "string_fragment", "template_string", "comment", "regex"})
_PROMPT = re.compile(r"^>(?: |$)")
_REPL_LINE = re.compile(r"^(?:>>>|\.\.\.)(?: |$)", re.MULTILINE)
_KEY = r"""(?:[A-Za-z_$][\w$]*|'[^'\n]*'|"[^"\n]*"|\[[^\]\n]+\])"""
_KEY_LINE = re.compile(rf"^\s*{_KEY}\s*\??:(?!:)")
_METHOD_LINE = re.compile(r"^\s*(?:async\s+)?[A-Za-z_$][\w$]*\s*\([^)]*\)\s*(?::[^{]*)?\{")
# A class member shown without its class: a decorator (``@Property()``) or a modifier.
_MEMBER_LINE = re.compile(
    r"^\s*(?:@[A-Za-z_$][\w$.]*|(?:public|private|protected|readonly|static|abstract|"
    r"declare|override)\s+[A-Za-z_$#])"
)
_CHAIN_LINE = re.compile(r"^\s*\??\.[A-Za-z_$]")
_COMMENT_LINE = re.compile(r"^\s*(?://|/\*|\*|$)")
CODE_INFO = {"ts": "ts", "typescript": "ts", "tsx": "tsx", "jsx": "jsx"}
PYTHON_INFO = frozenset({"py", "python", "python3"})
SCRIPT_LANGS = frozenset({"html", "vue", "svelte", "astro", "xml"})
_SCRIPT_OPEN = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
_SCRIPT_CLOSE = re.compile(r"</script\s*>", re.IGNORECASE)
_TS_SCRIPT = re.compile(r"""\blang\s*=\s*["']?ts\b""", re.IGNORECASE)
DIFF_NOT_READ = "a `diff` fence whose new code parses as no language the gate reads: not read"
OLD_SIDE = "a removed line of a diff: the old code, not judged (the added lines are)"
UNPARSED = (
    "this part of the sample does not parse as {language} (a fragment the gate could not "
    "recover): its code is not read"
)


@dataclasses.dataclass(frozen=True)
class Recovery:
    """A fence's text as the gate reads it, and the shapes recovered (none: unchanged)."""

    content: str
    shapes: tuple[str, ...] = ()


def error_rows(tree: Any) -> list[tuple[int, int]]:
    """The rows (first, last) of each outermost ERROR node and missing node of ``tree``."""
    rows: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            rows.append((node.start_point[0], node.end_point[0]))
        elif node.has_error:
            stack.extend(node.children)
    return sorted(rows)


def bare_object(content: str) -> str:
    """A fence that is one object literal (``{ a: 1 }``) as the expression it shows (a
    parser reads it as a block otherwise), as the gate's reader reads it."""
    stripped = content.strip()
    return f"({content}\n)" if stripped.startswith("{") and stripped.endswith("}") else content


def _errors(parser: Any, content: str) -> int:
    return error_bytes(parser.parse(content.encode("utf-8", "replace")).root_node)


def _smallest(tree: Any, start: int, end: int) -> str:
    node = tree.root_node.descendant_for_byte_range(start, end)
    return str(node.type) if node is not None else ""


def blank_placeholders(content: str, parser: Any) -> str:
    """``content`` with each ``...``/``…`` placeholder (not a spread, outside strings and
    comments) blanked, or a stand-in name where an expression must follow; bytes kept."""
    source = content.encode("utf-8", "replace")
    tree = parser.parse(source)
    out = bytearray(source)
    for match in _PLACEHOLDER.finditer(content):
        start = len(content[: match.start()].encode())
        end = start + len(match.group(0).encode())
        if _smallest(tree, start, start + 1) in _NO_PLACEHOLDER:
            continue
        line_start = content.rfind("\n", 0, match.start()) + 1
        if _EXPRESSION_BEFORE.search(content[line_start : match.start()]):
            out[start : start + 3] = STAND_IN.encode()  # `...` and `…` are three bytes
        else:
            out[start:end] = _blank(out[start:end])
    return out.decode("utf-8", "replace")


def _blank(data: bytes | bytearray) -> bytes:
    """``data`` as spaces, its line breaks kept (a sample's lines never move)."""
    return bytes(byte if byte == 0x0A else 0x20 for byte in data)


# A comment that stands for elided code (``// ...``, ``/* … */``).
# Within its line ([ \t], not \s: a stand-in must never swallow the line break after it).
_COMMENT_PLACEHOLDER = re.compile(
    r"//[ \t]*(?:\.\.\.|\u2026)[ \t]*$|/\*[ \t]*(?:\.\.\.|\u2026)[ \t]*\*/", re.M
)


def comment_placeholders(content: str, parser: Any) -> str:
    """``content`` with each comment that stands for elided code where an expression must
    be (``return (\\n  // ...\\n)``) made a stand-in name of its bytes: one at a time, each
    kept only when it leaves fewer bytes in error (one in a block or an object stays a
    comment)."""
    errors = _errors(parser, content)
    for match in reversed(list(_COMMENT_PLACEHOLDER.finditer(content))):
        if not errors:
            break
        size = len(match.group(0).encode())
        changed = content[: match.start()] + STAND_IN + " " * (size - 3) + content[match.end() :]
        if (left := _errors(parser, changed)) < errors:
            content, errors = changed, left
    return content


def _prompts(content: str) -> str:
    """A Node REPL session: prompts blanked, the other lines (its output) emptied."""
    lines = content.split("\n")
    if not _PROMPT.match(next((line for line in lines if line.strip()), "")):
        return content  # a session starts with its prompt
    return "\n".join(
        " " + line[1:] if _PROMPT.match(line) else ("" if line.strip() else line) for line in lines
    )


def _open(content: str, opening: str, closing: str) -> str:
    """``opening`` before the first line with text (in its indent where it fits) and
    ``closing`` on a line of its own after the last: no line of ``content`` moves."""
    lines = content.split("\n")
    for row, line in enumerate(lines):
        if line.strip() and not _COMMENT_LINE.match(line):
            indent = len(line) - len(line.lstrip())
            fits = indent >= len(opening) + 1
            head = " " * (indent - len(opening)) + opening if fits else opening + " "
            lines[row] = head + line[indent:] if fits else head + line
            break
    return "\n".join(lines) + "\n" + closing


def _first_code(content: str) -> str:
    return next(
        (line for line in content.split("\n") if line.strip() and not _COMMENT_LINE.match(line)),
        "",
    )


def _wrappings(content: str) -> Iterator[tuple[str, str]]:
    """The wrappings a fragment's first line suggests, as (shape, text)."""
    first = _first_code(content)
    if _CHAIN_LINE.match(first):
        yield "chain", _open(content, STAND_IN, "")
    if _KEY_LINE.match(first) or _METHOD_LINE.match(first) or first.lstrip().startswith("..."):
        yield "object body", _open(content, "{", "}")  # read as an object shown alone
    if _MEMBER_LINE.match(first) or _METHOD_LINE.match(first) or _KEY_LINE.match(first):
        # A member of its own before the closing brace: what a decorator alone decorates.
        yield "class body", _open(content, f"class {STAND_IN} {{", f"{STAND_IN} }}")
    yield "arguments", _open(content, f"{STAND_IN}(", ")")


def recover_js(content: str, parser: Any) -> Recovery:
    """``content`` recovered as far as it goes (a clean parse is returned unchanged): each
    step is kept only when it leaves fewer bytes in error; a wrapping, only when it leaves
    none."""
    errors = _errors(parser, content)
    if not errors and "\u2026" in content:
        # The grammar takes `…` for a name (`foo(…)`): a placeholder all the same.
        changed = blank_placeholders(content, parser)
        if changed != content and not _errors(parser, changed):
            return Recovery(changed, ("placeholders",))
    if not errors:
        return Recovery(content)
    shapes: list[str] = []
    for shape, step in (("placeholders", lambda text: blank_placeholders(text, parser)),
                        ("comment placeholders", lambda text: comment_placeholders(text, parser)),
                        ("prompts", _prompts)):  # fmt: skip
        changed = step(content)
        if changed != content and (left := _errors(parser, changed)) < errors:
            content, errors = changed, left
            shapes.append(shape)
        if not errors:
            return Recovery(content, tuple(shapes))
    for shape, wrapped in _wrappings(content):
        if not _errors(parser, bare_object(wrapped)):
            return Recovery(wrapped, (*shapes, shape))
    return Recovery(content, tuple(shapes))


# A placeholder among a call's arguments or a function's parameters (``f(a=1, ...)``,
# ``def f(...)``), where Python's own ``...`` is no argument: blanked with a comma after it.
_PY_ARGUMENT = re.compile(r"(?<=[(,])\s*(?:\.\.\.|\u2026)(?:\s*,|(?=\s*\)))")
_DECORATOR = re.compile(r"^([ \t]*)@[A-Za-z_]", re.MULTILINE)


def _parses(code: str) -> bool:
    try:
        parse_python(sample_code(code)[0])
    except (SyntaxError, ValueError):
        return False
    return True


def recover_python(content: str) -> Recovery:
    """A Python fence that does not parse, recovered: a placeholder among a call's
    arguments or a function's parameters blanked, any other ``…`` written ``...`` (Python's
    Ellipsis, of the same bytes; the REPL's ``...`` prompts are left alone); a fence
    indented as a whole dedented; decorators shown without what they decorate given a
    function after the last line."""
    if _parses(content):
        return Recovery(content)
    shapes: list[str] = []
    changed = _PY_ARGUMENT.sub(lambda m: _blank(m.group(0).encode()).decode(), content)
    changed = changed.replace("\u2026", "...")
    if changed != content:
        content = changed
        shapes.append("placeholders")
    dedented = textwrap.dedent(content)
    if dedented != content and not _REPL_LINE.search(content):
        content = dedented
        shapes.append("indented")
    decorators = list(_DECORATOR.finditer(content))
    if decorators and not _parses(content):
        decorated = f"{content}\n{decorators[-1].group(1)}def _fragment(): ..."
        if _parses(decorated):
            content = decorated
            shapes.append("decorators")
    return Recovery(content, tuple(shapes))


def _diff_sides(content: str) -> tuple[str, list[int]] | None:
    """A diff's new code (``+`` and context lines, their mark column cut; ``-`` lines and
    hunk headers emptied) and the rows of its removed lines; None when it is no diff. A
    unified diff marks every line (context with a blank); a docs page's diff often marks
    only the changed ones (``+ bar()`` beside ``import x``): their mark and a blank after
    it are cut."""
    lines = content.split("\n")
    marked = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    if not marked:
        return None
    unified = all(line[:1] in ("", " ", "+", "-", "@", "\\") for line in lines)
    new: list[str] = []
    removed: list[int] = []
    for row, line in enumerate(lines):
        if line.startswith(("+++", "---", "@@", "diff --git", "index ", "\\ No newline")):
            new.append("")
        elif line.startswith("-"):
            new.append("")
            removed.append(row)
        elif line.startswith("+"):
            new.append(line[1:] if unified or line[1:2] != " " else line[2:])
        else:
            new.append(line[1:] if unified else line)
    return "\n".join(new), removed


def _scripts(content: str) -> tuple[str, bool] | None:
    """The ``<script>`` blocks of markup, every other line emptied (a script's first and
    last lines blanked up to its tags), and whether one is TypeScript; None when none."""
    lines = content.split("\n")
    out = [""] * len(lines)
    typescript = found = False
    row = 0
    while row < len(lines):
        opened = _SCRIPT_OPEN.search(lines[row])
        if opened is None or "src=" in opened.group(1):
            row += 1
            continue
        typescript = typescript or bool(_TS_SCRIPT.search(opened.group(1)))
        rest, start = lines[row][opened.end() :], opened.end()
        while True:
            closed = _SCRIPT_CLOSE.search(rest)
            text = rest[: closed.start()] if closed else rest
            if text.strip():
                found = True
            out[row] = " " * start + text
            if closed is not None:
                break
            row += 1
            if row >= len(lines):
                break
            rest, start = lines[row], 0
        row += 1
    return ("\n".join(out), typescript) if found else None


def recover_fence(fence: Fence) -> tuple[Fence, list[int]]:
    """The fence as gate 15 reads it: a ``diff`` fence as its new code (an untagged fence,
    or one of the language its info names: ```` ```diff-ts ````) with the rows of its
    removed lines, a markup fence as its scripts (``js``/``ts``); any other unchanged."""
    lang = fence.lang
    if lang == "diff" or lang.startswith("diff-"):
        sides = _diff_sides(fence.content)
        if sides is None:
            return fence, []
        named = lang.removeprefix("diff").lstrip("-")
        info = named if named in CODE_INFO or named in PYTHON_INFO or named == "js" else ""
        return dataclasses.replace(fence, info=info, content=sides[0]), sides[1]
    if lang in SCRIPT_LANGS:
        scripts = _scripts(fence.content)
        if scripts is None:
            return fence, []
        return dataclasses.replace(fence, info="ts" if scripts[1] else "js", content=scripts[0]), []
    return fence, []


class Fragments:
    """A page's fences as gate 15 reads them, with what it needs to list and show: the
    removed lines of its diffs, and each changed line's text as the page writes it."""

    def __init__(self, fences: Iterable[Fence]) -> None:
        self.fences: list[Fence] = []
        self.old: list[tuple[int, str]] = []  # (page line, text) of each diff's removed block
        self.shown: dict[int, str] = {}  # page line -> its text, where the gate reads other
        self.originals: dict[int, Fence] = {}  # first line -> the fence as the page writes it
        self.owner: dict[int, int] = {}  # page line -> the first line of its changed fence
        self.diffs: set[int] = set()  # first lines of the `diff` fences read as untagged
        for fence in fences:
            read, removed = recover_fence(fence)
            self.fences.append(read)
            self._record(fence, read)
            if fence.lang == "diff" and read is not fence:
                self.diffs.add(fence.start_line)
            lines = fence.content.split("\n")
            for row in removed:
                if row - 1 not in removed and re.search(r"[\w$]\s*[.(]|\bimport\b", lines[row]):
                    self.old.append((fence.start_line + 1 + row, lines[row]))

    def _record(self, fence: Fence, read: Fence) -> None:
        """Record ``read`` as the text the gate reads for ``fence``."""
        if read.content != fence.content or read.info != fence.info:
            self.originals[fence.start_line] = fence
            for row, line in enumerate(fence.content.split("\n")):
                self.shown[fence.start_line + 1 + row] = line
                self.owner[fence.start_line + 1 + row] = fence.start_line

    def recover_code(
        self, pairs: list[tuple[Fence, str | None]], parsers: Mapping[str, Any] | str
    ) -> list[tuple[Fence, str | None]]:
        """The JavaScript/TypeScript and Python fences of ``pairs`` recovered
        (:func:`recover_js`, :func:`recover_python`)."""
        if isinstance(parsers, str):
            return pairs
        out: list[tuple[Fence, str | None]] = []
        for fence, kind in pairs:
            if kind in ("code", "python"):
                parser = parsers["tsx" if fence.lang in ("tsx", "jsx") else "typescript"]
                recovered = (
                    recover_js(fence.content, parser)
                    if kind == "code"
                    else recover_python(fence.content)
                )
                if recovered.shapes:
                    original = self.originals.get(fence.start_line, fence)
                    changed = dataclasses.replace(fence, content=recovered.content)
                    self._record(original, changed)
                    fence = changed
            out.append((fence, kind))
        return out

    def finish(self, report: SampleReport, reads: Callable[[str], bool]) -> None:
        """List each diff's removed code that ``reads`` (names the product), and show every
        entry on a changed line with the page's own text."""
        for line, text in self.old:
            if reads(text):
                report.skip(line, text, OLD_SIDE)
        kept = []
        for entry in report.unjudged:  # a diff read in no language: listed if it reads
            start = self.owner.get(int(entry.get("line") or 0), -1)
            untagged = str(entry.get("reason", "")).startswith("a fence with no language")
            if start in self.diffs and untagged:
                if not reads(self.originals[start].content):
                    continue
                entry["reason"] = DIFF_NOT_READ
            kept.append(entry)
        report.unjudged[:] = kept
        for entry in report.unjudged:
            for field in ("reason", "name"):  # a chain's receiver is the page's elision
                if STAND_IN in str(entry.get(field, "")):
                    entry[field] = str(entry[field]).replace(STAND_IN, "\u2026")
            at = entry.get("line")
            if isinstance(at, int) and at in self.shown:
                entry["text"] = self.shown[at].strip()[:160]


def names_of(words: Iterable[str]) -> Callable[[str], bool]:
    """Whether a text names one of ``words`` (the product's packages, the names the page's
    samples bind to it), as a whole word."""
    found = sorted({w.split(".")[-1] for w in words if w}, key=len, reverse=True)
    if not found:
        return lambda text: False
    pattern = re.compile(rf"(?<![\w$@/-])(?:{'|'.join(map(re.escape, found))})(?![\w$])")
    return lambda text: pattern.search(text) is not None


def unparsed(
    report: SampleReport,
    pairs: Iterable[tuple[Fence, str | None]],
    parsers: Mapping[str, Any],
    reads: Callable[[str], bool],
) -> int:
    """List, unjudged, each region of a JavaScript/TypeScript fence still in error that
    names the product (``reads``) on lines the card says nothing of; the number listed."""
    said = {entry.get("line") for entry in (*report.unjudged, *report.violations)}
    said |= {entry.get("line") for entry in report.checked_names}
    listed = 0
    for fence, kind in pairs:
        if kind != "code":
            continue
        parser = parsers["tsx" if fence.lang in ("tsx", "jsx") else "typescript"]
        tree = parser.parse(bare_object(fence.content).encode("utf-8", "replace"))
        if not tree.root_node.has_error:
            continue
        lines = fence.content.split("\n")
        first = fence.start_line + 1
        for top, bottom in error_rows(tree):
            rows = range(top, min(bottom, len(lines) - 1) + 1)
            text = "\n".join(lines[row] for row in rows)
            if not reads(text) or any(first + row in said for row in rows):
                continue
            row = next((r for r in rows if lines[r].strip()), top)
            report.skip(first + row, lines[row], UNPARSED.format(language="JavaScript/TypeScript"))
            said.update(first + r for r in rows)
            listed += 1
    return listed
