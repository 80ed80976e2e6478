"""Parsing a JavaScript/TypeScript file the grammar misreads, with every byte offset kept.

tree-sitter's TypeScript grammar (the pack's, and the newest one published) misreads a few
constructs that TypeScript accepts, and its error recovery can then swallow the rest of the
file into one error node: a product module read as nothing (zx's `src/core.ts`, every
export of it lost). Two steps, each taken only while it leaves fewer bytes in error:

1. Repairs of the constructs known to be misread, each rewriting bytes in place (same
   length, line breaks kept, so every position the tables record is the file's own):
   - a generic call signature on its own line in a type body with no `;` before it
     (`(file: string): P` then `<D>(dest: D): D`), read as type arguments of the line
     above: a `;` is written in the indent before it;
   - `export type * from "./x"` (TypeScript 5.0): read as `export * from "./x"`, the
     names it re-exports being types or not alike to the model;
   - `typeof import("./x")` as a type argument (`load<typeof import("./x")>(...)`): blanked
     to `any` (a variable's annotation, which the grammar reads, is left as written).
2. Each top-level statement the grammar still cannot parse is blanked up to the next line
   that starts a statement, a declaration of the name it declares standing in for it
   (``export type Shell = any;``): the name stays the module's, what it holds unknown.
"""

from __future__ import annotations

import re
from typing import Any

# 1. Repairs.
_CALL_SIGNATURE_LINE = re.compile(rb"(?m)^([ \t]+)<[A-Za-z_$][\w$]*(?:\s+extends\b|\s*[,=>])")
_PREVIOUS_LINE_END = re.compile(rb"[;,{(\[|&=:]\s*$")
_EXPORT_TYPE_STAR = re.compile(rb"\bexport\s+(type)\s+\*\s*(?:as\s+[\w$]+\s+)?from\b")
_TYPEOF_IMPORT = re.compile(rb"""(?<=<)\s*typeof\s+import\s*\(\s*(["'])[^"'\n]*\1\s*\)(?=\s*>)""")


def error_bytes(node: Any) -> int:
    """How many bytes of ``node``'s tree are in error nodes (a missing node counts one)."""
    if node.type == "ERROR":
        return max(1, int(node.end_byte) - int(node.start_byte))
    if node.is_missing:
        return 1
    if not node.has_error:
        return 0
    return sum(error_bytes(child) for child in node.children)


def _call_signature_repairs(source: bytes) -> bytes:
    out = bytearray(source)
    for match in _CALL_SIGNATURE_LINE.finditer(source):
        line_start = match.start()
        before = source.rfind(b"\n", 0, max(0, line_start - 1))
        previous = source[before + 1 : line_start - 1] if line_start else b""
        if not previous.strip() or _PREVIOUS_LINE_END.search(previous):
            continue  # the line above ends the member already (or opens the body)
        out[match.end(1) - 1] = ord(";")  # the indent's last blank
    return bytes(out)


def _export_type_star_repairs(source: bytes) -> bytes:
    out = bytearray(source)
    for match in _EXPORT_TYPE_STAR.finditer(source):
        out[match.start(1) : match.end(1)] = b" " * (match.end(1) - match.start(1))
    return bytes(out)


def _typeof_import_repairs(source: bytes) -> bytes:
    out = bytearray(source)
    for match in _TYPEOF_IMPORT.finditer(source):
        if b"\n" in match.group(0):
            continue
        out[match.start() : match.end()] = b"any".ljust(match.end() - match.start())
    return bytes(out)


REPAIRS = (_call_signature_repairs, _export_type_star_repairs, _typeof_import_repairs)


def repaired(parser: Any, source: bytes, tree: Any) -> tuple[bytes, Any]:
    """``source`` with each known misread repaired that leaves fewer bytes in error, and
    its tree (``source`` and ``tree`` as given when none does)."""
    errors = error_bytes(tree.root_node)
    for repair in REPAIRS:
        if not errors:
            break
        candidate = repair(source)
        if candidate == source:
            continue
        candidate_tree = parser.parse(candidate)
        candidate_errors = error_bytes(candidate_tree.root_node)
        if candidate_errors < errors:
            source, tree, errors = candidate, candidate_tree, candidate_errors
    return source, tree


# 2. Blanking what is still misread.
# A line that starts a top-level statement: where a statement the grammar could not parse
# ends at the latest.
_STATEMENT_START = re.compile(
    rb"^(?:export|import|interface|type|class|abstract|function|async|const|let|var|declare"
    rb"|enum|namespace|module)\b",
    re.M,
)
MAX_RECOVERIES = 20
MAX_CUT_LINES = 50


def recovered(parser: Any, source: bytes, tree: Any) -> tuple[bytes, Any]:
    """The file with each top-level statement the grammar cannot parse blanked (up to the
    next line that starts a statement; byte offsets kept), so that one construct the
    grammar misreads does not swallow every declaration after it into an error node. Only
    a top-level error node (or a stray block holding one), or a statement with an error
    inside it that holds a line starting a statement of its own, is such a swallow; a
    statement with an error inside it and no such line (a class with one member misread)
    keeps the rest it was read with."""
    for _ in range(MAX_RECOVERIES):
        children = tree.root_node.children
        at = next(
            (i for i, c in enumerate(children)
             if c.type == "ERROR" or (c.type == "statement_block" and c.has_error)
             or (c.has_error and _swallows(source, c))),
            None,
        )  # fmt: skip
        if at is None:
            break
        # The misread starts at the statement before the error node when that one is broken
        # and short (cut off by the error); a long one (a class) keeps what was read of it.
        broken = children[at]
        before: Any = children[at - 1] if at else None
        short = before is not None and before.end_point[0] - before.start_point[0] <= MAX_CUT_LINES
        if short and before.has_error:
            broken = before
        start = source.rfind(b"\n", 0, broken.start_byte) + 1
        following = _STATEMENT_START.search(source, source.find(b"\n", start) + 1)
        if following is None or source.find(b"\n", start) < 0:
            break
        end = following.start()
        if not source[start:end].strip():
            break  # blanked already: the error is elsewhere, nothing more to take out
        blank = _stand_in(source[start:end])
        if blank == source[start:end]:
            break  # taken out already: the error is elsewhere
        source = source[:start] + blank + source[end:]
        tree = parser.parse(source)
    return source, tree


def parse_repaired(parser: Any, source: bytes) -> tuple[bytes, Any]:
    """``source`` parsed, repaired (step 1) and recovered (step 2) when the grammar
    misreads it: the source the tree was read from, and the tree."""
    tree = parser.parse(source)
    if tree.root_node.has_error:
        source, tree = repaired(parser, source, tree)
    if tree.root_node.has_error:
        source, tree = recovered(parser, source, tree)
    return source, tree


# A statement's first words that declare a name: what stands in for it once it is taken out.
_DECLARES = re.compile(
    rb"\s*(export\s+)?(?:declare\s+)?(?:abstract\s+)?"
    rb"(class|interface|type|enum|function|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)"
)


def _stand_in(statement: bytes) -> bytes:
    """``statement`` blanked (its line breaks kept), with a declaration of the name it
    declares written in the blank when it fits (``export let Parser;``, ``export type Shell
    = any;`` for an interface or type alias): the name is still the module's, what it has
    unknown."""
    blank = bytes(b if b in b"\n" else 32 for b in statement)
    found = _DECLARES.match(statement)
    if found is None:
        return blank
    exported = [b"export"] if found.group(1) else []
    name = found.group(3)
    if found.group(2) in (b"interface", b"type"):
        words = [*exported, b"type", name, b"=", b"any;"]
    else:
        words = [*exported, b"let", name + b";"]  # JavaScript and TypeScript alike
    lines = []
    for line in blank.split(b"\n"):
        room, placed = len(line), b""
        while words and len(placed) + len(words[0]) + (1 if placed else 0) <= room:
            placed += (b" " if placed else b"") + words.pop(0)
        lines.append(placed.ljust(room))
    return blank if words else b"\n".join(lines)


def _swallows(source: bytes, node: Any) -> bool:
    """Whether a line after the first of ``node`` starts a top-level statement (at the
    line's start: a body's lines are indented): the grammar read it as part of ``node``."""
    after = source.find(b"\n", node.start_byte, node.end_byte)
    return after >= 0 and _STATEMENT_START.search(source, after + 1, node.end_byte) is not None
