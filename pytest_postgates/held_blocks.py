"""Code a page holds where CommonMark sees none, or sees it cut apart (issue 26: a sample
gate 15 never read is a silent miss).

- A fence inside a raw HTML block: a component's tag and a fence with no blank line between
  (VuePress's ``<code-group>``/``<code-block>``, ajv's docs) are one HTML block to CommonMark,
  which ends at the fence's first blank line and takes its closing marker for a new fence,
  while the site renders the fence (VuePress reads a component's tag line as a block of its
  own). Such a page is read again as the site does: the lines that are only an HTML tag,
  outside fences, read as blank (line numbers kept).
- The body of a MkDocs admonition (``!!! note``), collapsible block (``??? note``,
  ``???+``) or content tab (``=== "Python"``), Python-Markdown syntax (admonition,
  pymdownx.details, pymdownx.tabbed): the lines indented under the marker are Markdown.
  CommonMark reads a body that follows its marker line as the marker's paragraph (a fence
  there is text) and a later part as indented code. The body is read again, indentation
  removed, as the site does (nested containers too).

The Markdown gates keep CommonMark's view (markdownlint reads the same tokens); these
blocks are samples to the code gates only, through :attr:`Post.code_blocks`.
"""

from __future__ import annotations

import re

from pytest_postgates.post import COMMONMARK, FENCE_CLOSER, Fence, Post, code_of, indented_blocks

# A line that is only an HTML tag, opening or closing (`<code-block title="x.js">`).
_TAG_LINE = re.compile(r"^ {0,3}</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>[ \t]*$")
# A fence marker line: the marker, and what follows it (an opener's info string).
_FENCE_MARK = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# A container's marker line: `!!! type "title"`, `??? type`, `???+ type`, `=== "Tab"`.
_CONTAINER = re.compile(r"^( {0,3})(?:!!!|\?\?\?\+?|===\+?)[ \t]+\S")
# How deep containers nested in containers are read.
_MAX_DEPTH = 3


def code_blocks(post: Post) -> tuple[Fence, ...]:
    """Every block of code of ``post`` once, in order: its fences, its indented code (and
    the fences that holds), as the site reads them (:func:`site_code`), and the code of
    MkDocs containers (:func:`held_code`), which an indented block inside one is read
    as."""
    if post.code_blocks is None:
        post.code_blocks = _code_blocks(post)
    return post.code_blocks


def _code_blocks(post: Post) -> tuple[Fence, ...]:
    fences, indented = site_code(post) or (post.fences, post.indented_code)
    held = held_code(post)
    covered = [(b.start_line, b.end_line) for b in held]
    kept = [
        block
        for block in indented
        if not any(start <= block.start_line + 1 <= end for start, end in covered)
    ]
    blocks = [*fences, *kept, *(b for b in held if b.markup != "container")]
    return tuple(sorted(blocks, key=lambda fence: fence.start_line))


def site_code(post: Post) -> tuple[tuple[Fence, ...], tuple[Fence, ...]] | None:
    """The page's fences and indented code with its tag-only lines outside fences read as
    blank (VuePress's component tags), when it has any an HTML block holds with other
    lines; None when CommonMark's view is the site's."""
    if not any(t.type == "html_block" and "\n" in t.content.strip() for t in post.tokens):
        return None
    lines = post.body.split("\n")
    opener: str | None = None
    blanked = False
    for index, line in enumerate(lines):
        if opener is None and _TAG_LINE.match(line):
            lines[index], blanked = "", True
            continue
        marker = _FENCE_MARK.match(line)
        if marker is None:
            continue
        if opener is None:
            opener = marker.group(1)
        elif marker.group(1)[0] == opener[0] and len(marker.group(1)) >= len(opener):
            opener = None if not marker.group(2).strip() else opener
    if not blanked:
        return None
    tokens = COMMONMARK.parse("\n".join(lines))
    return code_of(tokens, post.lines, post.body_start_line)


def held_code(post: Post) -> tuple[Fence, ...]:
    """The code of MkDocs containers, and for each container a marker block (``markup``
    "container", its body's first and last lines) that :func:`code_blocks` drops indented
    code inside of."""
    body = post.body
    if "!!!" not in body and "???" not in body and "===" not in body:
        return ()
    first = post.body_start_line
    numbered = [(first + index, line) for index, line in enumerate(body.split("\n"))]
    return tuple(_containers(numbered, post.code_lines, 0))


def _containers(numbered: list[tuple[int, str]], code: frozenset[int], depth: int) -> list[Fence]:
    """The code of each container whose marker is among ``numbered`` (file line, text;
    a marker inside code, ``code``, is no container)."""
    found: list[Fence] = []
    index = 0
    while index < len(numbered):
        number, line = numbered[index]
        marker = _CONTAINER.match(line) if number not in code else None
        index += 1
        if marker is None:
            continue
        indent = len(marker.group(1)) + 4
        body: list[tuple[int, str]] = []
        while index < len(numbered):
            text = numbered[index][1]
            if text.strip() and len(text) - len(text.lstrip(" ")) < indent:
                break
            body.append((numbered[index][0], text[indent:] if text.strip() else ""))
            index += 1
        while body and not body[-1][1]:
            body.pop()
        if body:
            found.append(Fence(body[0][0], body[-1][0], "", "container", "", True))
            found.extend(_body_code(body, depth))
    return found


def _body_code(body: list[tuple[int, str]], depth: int) -> list[Fence]:
    """The fences and indented code of a container's body (file line, text without the
    container's indentation), and of the containers nested in it."""
    found: list[Fence] = []
    text = "".join(line + "\n" for _number, line in body)
    lines = [line for _number, line in body]
    inner_code: set[int] = set()
    for token in COMMONMARK.parse(text):
        if token.map is None or token.type not in ("fence", "code_block"):
            continue
        start, stop = body[token.map[0]][0], body[token.map[1] - 1][0]
        inner_code.update(body[i][0] for i in range(token.map[0], token.map[1]))
        if token.type == "fence":
            closer = FENCE_CLOSER.match(lines[token.map[1] - 1]) if stop > start else None
            closed = closer is not None and closer.group(1)[0] == token.markup[0]
            found.append(
                Fence(start, stop, token.info.strip(), token.markup, token.content, closed)
            )
        else:
            found.extend(indented_blocks(token, start, 0))
    if depth < _MAX_DEPTH and any(_CONTAINER.match(line) for line in lines):
        nested = _containers(body, frozenset(inner_code), depth + 1)
        # A fence of this body at its own indent ends a nested body: none lies in one.
        found = [f for f in found if not _inside(f, nested)] + nested
    return found


def _inside(block: Fence, containers: list[Fence]) -> bool:
    return any(
        c.markup == "container" and c.start_line <= block.start_line + 1 <= c.end_line
        for c in containers
    )
