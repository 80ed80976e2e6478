"""How gate 2 (symbol_grounding) matches one token against one repository index: the
seeds' kinds (lint-rule, sha, flag, path, filename, version, symbol, phrase), each verified
as the seeds lay out, member, call and assignment syntax decomposed and grounded part by
part, route templates across parameter notations. Split from the gate module (issue 14):
behaviour unchanged."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_postgates.evidence.grounding import find_route, is_route_template
from pytest_postgates.helpers.tokens import QUOTED

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.evidence.lint_rules import LintRules


# Abbreviated (7-12) or full (40) commit ids; a 32-hex string is an id of another kind.
SHA = re.compile(r"^(?:[0-9a-f]{7,12}|[0-9a-f]{40})$")
FILENAME = re.compile(
    r"\.(ts|tsx|js|jsx|mjs|cjs|json|md|mdx|yaml|yml|sh|py|toml|txt|cfg|ini|lock)$", re.I
)
VERSION = re.compile(r"^v?\d+\.\d+")
SYMBOL_SHAPES = (
    re.compile(r"^[A-Z][A-Za-z0-9_]+$"),  # PascalCase class
    re.compile(r"^[a-z][A-Za-z0-9_]*$"),  # camelCase / snake_case function
    re.compile(r"^[A-Z_][A-Z0-9_]+$"),  # SCREAMING_SNAKE constant
    re.compile(r"^[A-Za-z][A-Za-z0-9_.]+$"),  # dotted reference
)
KEBAB_OR_DOTTED_LITERAL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")
_WHITESPACE = re.compile(r"\s")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
LINE_SUFFIX = re.compile(r"(?::\d+(?:[:-]\d+)?|#L\d+(?:-L?\d+)?)$")


def classify(token: str, lint_prefix: str | None) -> str:
    if lint_prefix and re.fullmatch(rf"{re.escape(lint_prefix)}/[a-z][a-z0-9-]+", token):
        return "lint-rule"
    if SHA.match(token):
        return "sha"
    if FLAG.match(token):
        return "flag"  # a command-line option: it grounds only as written
    if _WHITESPACE.search(token):  # str.isspace's characters, in one C scan
        return "phrase"  # a command or an expression, not a path (`sh -c`, `if / else`)
    if "/" in token or "\\" in token:
        return "path"
    if FILENAME.search(token):
        return "filename"
    if VERSION.match(token):
        return "version"
    if any(shape.match(token) for shape in SYMBOL_SHAPES):
        return "symbol"
    return "phrase"


def _version_in(version: str, text: str) -> bool:
    bare = version.removeprefix("v")
    pattern = (
        rf"(?<![\w.])v?{re.escape(bare)}(?![\w]|\.\d)"
        if bare.count(".") >= 2
        else (rf"(?<![\w.])v?{re.escape(bare)}(?![\d\w])")
    )
    return re.search(pattern, text) is not None


# ---------------------------------------------------------------------- token shapes

FLAG = re.compile(r"^(?:--[A-Za-z][\w-]*|-[A-Za-z]{1,3})(?:[= ].*)?$")
# A short option written with its long one (`-L/--lockfile <path>`, `--lockfile, -L`), as
# help output and option tables write them: the long option is the claim the model can judge.
_SHORT_WITH_LONG = re.compile(
    r"^(?:-[A-Za-z]\s*[/,|]\s*(?P<after>--[A-Za-z][\w-]*(?:[= ].*)?)"
    r"|(?P<before>--[A-Za-z][\w-]*)\s*[/,|]\s*-[A-Za-z](?:[= ].*)?)$"
)


def long_flag_of_pair(token: str) -> str | None:
    """The long option of a span writing a short option with it (None: no such span)."""
    pair = _SHORT_WITH_LONG.match(token)
    return (pair["after"] or pair["before"]) if pair else None


# `a.b`, `a?.b`, `A::b`, `A#b`, `a!.b`, optionally called: `a.b()`, `a.b(x, y)`.
IDENT = r"[A-Za-z_$][\w$]*"
MEMBER_CHAIN = re.compile(rf"^\.?{IDENT}(?:(?:\?\.|!\.|\.|::|#){IDENT})*$")
CALL = re.compile(r"^(?P<callee>[^()\s][^()]*?)\s*\((?P<args>[^()]*)\)(?P<rest>(?:\.\w+\(\))*)$")
ASSIGNMENT = re.compile(rf"^(?P<name>{IDENT}(?:\.{IDENT})*)\s*(?P<op>=|:)\s*(?P<value>[^=].*)$")
REMOVAL_CUE = re.compile(r"\b(?:remov|delet|drop|deprecat|renam|replac|no longer|revert)", re.I)
NUMBER_LITERAL = re.compile(r"^-?[\d_]+(?:\.\d+)?$")
LITERALS = frozenset("true false null undefined None True False nil NaN".split())


def _normalise_chain(text: str) -> str:
    """`a?.b`, `a!.b`, `A::b`, `A#b` -> `a.b`; a leading dot stays (a bare `.member`)."""
    return re.sub(r"\?\.|!\.|::|#", ".", text)


@dataclass(frozen=True)
class Grounding:
    where: str
    rule: str = ""


def _bounded_in(index: RepoIndex, text: str) -> str | None:
    """A file holding ``text`` as written with no word character or dash glued to either
    end (`--max-warnings` is not in `--max-warnings-count`)."""
    if "\ufffd" in text:  # decoded text may hold it where the bytes do not: search that
        for path, _offset in index.files_containing(text, limit=16):
            data = index.file_text(path) or ""
            for match in re.finditer(re.escape(text), data):
                before = data[match.start() - 1] if match.start() else ""
                after = data[match.end()] if match.end() < len(data) else ""
                if not _GLUE.match(before) and not _GLUE.match(after):
                    return path
        return None
    for path, before, after in index.occurrences(text, limit=16):
        if not _GLUE.match(before) and not _GLUE.match(after):
            return path
    return None


_GLUE = re.compile(r"[\w-]")


def _option_declared(index: RepoIndex, name: str) -> str | None:
    """A file declaring the option ``name``: `"name"`/`'name'` as a string or `name:` as a
    key, not glued to a longer name."""
    pattern = re.compile(rf"""(?:["']{re.escape(name)}["']|(?<![\w-]){re.escape(name)}\s*:)""")
    for path, _offset in index.files_containing(name, limit=32):
        if _matches_at_occurrence(pattern, name, index.file_text(path) or ""):
            return path
    return None


def _matches_at_occurrence(pattern: re.Pattern[str], name: str, data: str) -> bool:
    """``pattern.search(data)`` for a pattern every match of which holds ``name`` at its
    start or one character after it: tried only there (a search of a whole file tries
    every position, and that took most of gate 2's time on option names)."""
    position = data.find(name)
    while position >= 0:
        if pattern.match(data, max(position - 1, 0)) or pattern.match(data, position):
            return True
        position = data.find(name, position + 1)
    return False


def _text_grounding(index: RepoIndex, text: str) -> Grounding | None:
    """``git grep -F`` of the token as written, unless the only text holding it is the
    CHANGELOG recording its removal (a removed option is not a real one). Remembered per
    index: posts share tokens and the parts of tokens (callees, chains)."""
    answers = index.memo("text_grounding")
    if text not in answers:
        answers[text] = _text_grounding_uncached(index, text)
    found: Grounding | None = answers[text]
    return found


def _text_grounding_uncached(index: RepoIndex, text: str) -> Grounding | None:
    if not index.contains(text):
        return None
    if _IDENTIFIER.fullmatch(text) and not index.has_word(text):
        # A name grounds as a whole word, never as part of another (`POLARS_FMT_MAX_ROW`
        # inside the real `POLARS_FMT_MAX_ROWS`, in code the model does not read).
        return None
    changelog = index.changelog_path
    if not changelog or not index.in_changelog(text):
        return Grounding("text")
    if index.contains_outside(text, changelog):
        return Grounding("text")
    lines = [line for line in index.changelog.splitlines() if text in line]
    if lines and all(REMOVAL_CUE.search(line) for line in lines):
        return None
    return Grounding(changelog, "changelog-text")


def _member_grounding(index: RepoIndex, parts: list[str]) -> tuple[Grounding | None, str]:
    """Member access, part by part: the head is a whole word of the repository, and each
    further part is a whole word of a file that also holds the part before it (the
    'same file' rule: a member is defined in, or written next to, what it is a member of).
    Returns the grounding or the reason it failed."""
    head = parts[0]
    if not index.has_word(head):
        return None, f"{head!r} is not a word of any tracked text file"
    where = ""
    for before, part in itertools.pairwise(parts):
        if not index.has_word(part):
            return None, f"member {part!r} is not a word of any tracked text file"
        shared = next(index.files_with_words(before.encode(), part.encode()), None)
        if shared is None:
            return None, f"member {part!r} never appears in a file that holds {before!r}"
        where = index.text_paths[shared]
    return Grounding(where, "member-in-same-file"), ""


def _word_grounded(index: RepoIndex, word: str) -> bool:
    return index.has_word(word) or index.contains(word)


# A heading anchor after a file name with an extension.
_FRAGMENT = re.compile(r"(\.[A-Za-z0-9]{1,8})#[\w.-]*$")


def ground_in(
    index: RepoIndex, text: str, kind: str, lint: LintRules | None
) -> tuple[Grounding | None, str]:
    """Whether one repository grounds the token, and why not. Each kind is verified as the
    seeds lay out; member, call and assignment syntax is decomposed and grounded part by
    part; a phrase grounds only as written or when every word of it is a repository word
    (never on one of its words alone). The answer depends on the index alone (lint rules
    aside), so it is remembered per index for the posts that repeat a token."""
    if kind == "lint-rule":
        return _ground_in(index, text, kind, lint)
    answers = index.memo("ground_in")
    key = (text, kind)
    if key not in answers:
        answers[key] = _ground_in(index, text, kind, lint)
    answer: tuple[Grounding | None, str] = answers[key]
    return answer


def _ground_in(
    index: RepoIndex, text: str, kind: str, lint: LintRules | None
) -> tuple[Grounding | None, str]:
    if kind == "lint-rule":
        name = text.split("/", 1)[1]
        rule = lint.rule(name) if lint is not None else None
        if rule is not None:
            return Grounding(rule.file), ""
        folder = lint.folder if lint is not None else "the lint rules folder"
        return None, f"no rule file {folder}/{name}.(c|m)js/ts and no registered rule {name!r}"
    if kind == "sha":
        if index.object_exists(text):
            return Grounding("git object"), ""
        if index.contains(text):
            return Grounding("text"), ""  # an id the source holds (a key, a fixture)
        return None, "no commit or object with this id"
    if kind in ("path", "filename"):
        spec = LINE_SUFFIX.sub("", text).replace("\\", "/")
        # `docs/deploy.md#browser-sideband`: the file is the claim here; its heading is a
        # link's anchor, which gate 6 checks.
        spec = _FRAGMENT.sub(r"\1", spec)
        where = (
            index.match_path(spec)
            if kind == "path"
            else (index.match_path(spec) or index.match_filename(spec))
        )
        if where:
            return Grounding(where), ""
        found = _text_grounding(index, text)
        if found:
            # A literal the source really contains (a route, a package subpath, a file name
            # the code reads) is grounded as text.
            return found, ""
        if is_route_template(text):
            return _route_grounding(index, text)
        return None, "no tracked file or folder matches"
    if kind == "version":
        if index.changelog and _version_in(text, index.changelog):
            return Grounding(index.changelog_path or "CHANGELOG"), ""
        if any(_version_in(text, tag) for tag in index.tags):
            return Grounding("git tag"), ""
        if index.contains(text):
            return Grounding("text"), ""
        source = index.changelog_path or "no CHANGELOG"
        return None, f"version not in {source}, tags or tracked text"
    if kind == "flag":
        option = re.split(r"[= ]", text, maxsplit=1)[0]
        where = _bounded_in(index, text) or (_bounded_in(index, option) if option != text else None)
        if not where:
            # A short option is a substring of thousands of files (`-a` of `-api`), more
            # than the bounded scan reads: written as a quoted string (`["-a", "Ollama"]`)
            # it is found as such.
            quoted = next(
                (f"{q}{option}{q}" for q in "\"'" if index.contains(f"{q}{option}{q}")), None
            )
            where = (index.locate(quoted) or "text") if quoted else None
        if where and _text_grounding(index, option):
            return Grounding(where, "flag-as-written"), ""
        # An option parser declares `--max-tokens` as "max-tokens" or maxTokens: the name
        # must be declared as such (a quoted string or a key), never as one of its words.
        name = option.lstrip("-")
        if len(name) > 3:
            camel = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), name)
            for variant in dict.fromkeys((name, camel)):
                declared = _option_declared(index, variant)
                if declared:
                    return Grounding(declared, "flag-option-name"), ""
        return None, "option not found as written (with its dashes) or declared by name"
    found = _text_grounding(index, text)
    if found:
        return found, ""
    # A commit message is prose: it grounds a phrase it quotes, never a code name (a call
    # such as `startSpinner()` a message mentions is no evidence the code has it).
    if kind == "phrase" and len(text) >= 12 and not _code_call(text) and index.in_messages(text):
        return Grounding("commit message", "commit-message"), ""
    if kind == "phrase" and OUTLINE_STEP.search(text) and _outline_in_messages(index, text):
        return Grounding("commit message", "commit-message-outline"), ""
    return _decomposed(index, text, kind)


def _code_call(text: str) -> bool:
    """Whether ``text`` is a call of a code name (``startSpinner()``, ``$.spawn(cmd)``)."""
    call = CALL.match(text)
    return call is not None and MEMBER_CHAIN.match(call.group("callee").strip()) is not None


# `HEADING → Item`: a place in a text's outline, a heading and an entry under it.
OUTLINE_STEP = re.compile(r"\s*(?:\u2192|->|\u203a|>)\s*")
_OUTLINE_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)]|#+)?\s*")


def _outline_in_messages(index: RepoIndex, text: str) -> bool:
    """Whether one commit message holds the outline path as written: its first part as a
    line of its own, each later part starting a later line (a bullet or heading mark and
    spaces aside) in the heading's block. A rendered `A → B` is the message's heading A
    and its entry B."""
    parts = [p for p in OUTLINE_STEP.split(text) if p]
    if len(parts) < 2 or any(len(p) < 3 for p in parts):
        return False
    for message in index.messages.split("\0"):
        if parts[0] not in message:
            continue
        # A heading's entries are the lines of its block, up to the next blank line.
        for block in re.split(r"\n\s*\n", message):
            lines = [_OUTLINE_MARK.sub("", line).strip() for line in block.splitlines()]
            at = next((i for i, line in enumerate(lines) if line == parts[0]), None)
            for part in parts[1:]:
                if at is None:
                    break
                at = next((i for i in range(at + 1, len(lines)) if lines[i].startswith(part)), None)
            if at is not None:
                return True
    return False


def _route_grounding(index: RepoIndex, text: str) -> tuple[Grounding | None, str]:
    """A route template matches a route written in any parameter notation; a URL also
    matches by its path, then by shorter tails of at least two segments."""
    candidates = [text]
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]+", "", text)
    segments = [s for s in path.split("/") if s]
    for start in range(len(segments) - 1):
        tail = "/" + "/".join(segments[start:])
        if tail not in candidates:
            candidates.append(tail)
    for candidate in candidates:
        where = find_route(index, candidate)
        if where:
            return Grounding(where, "route-template"), ""
    return None, "route template matches no route in any parameter notation"


def _decomposed(index: RepoIndex, text: str, kind: str) -> tuple[Grounding | None, str]:
    bare = re.sub(r"^(?:await|new|yield|return|typeof)\s+", "", text)
    if bare != text:
        found = _text_grounding(index, bare)
        if found:
            return found, ""
        text = bare
    call = CALL.match(text)
    if call:
        callee = call.group("callee").strip()
        callee_kind = "symbol" if MEMBER_CHAIN.match(callee) else "phrase"
        found, why = (
            (_text_grounding(index, callee), "")
            if not MEMBER_CHAIN.match(callee) or "." not in _normalise_chain(callee).strip(".")
            else (None, "")
        )
        if found is None:
            found, why = _chain(index, callee, callee_kind)
        if found is None:
            return None, why or f"{callee!r} not found"
        for word in _argument_words(call.group("args")):
            if not _word_grounded(index, word):
                return None, f"argument {word!r} is not a word of any tracked text file"
        return Grounding(found.where, found.rule or "call-callee"), ""
    if MEMBER_CHAIN.match(text):
        return _chain(index, text, kind)
    assignment = ASSIGNMENT.match(text)
    if assignment:
        return _assignment(index, assignment)
    # A kebab or dotted literal must match as written (`gpt-9.9-ultra` is not `ultra`).
    if "-" in text and KEBAB_OR_DOTTED_LITERAL.match(text):
        return None, "kebab/dotted literal not found as written"
    words = [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text) if len(w) >= 2]
    if not words:
        return None, "phrase not found as written"
    missing = [w for w in words if not index.has_word(w)]
    if missing:
        return None, f"phrase not found as written, and {missing[0]!r} is no repository word"
    return Grounding("text (every word)", "phrase-words"), ""


def _chain(index: RepoIndex, text: str, kind: str) -> tuple[Grounding | None, str]:
    chain = _normalise_chain(text)
    if chain != text:
        found = _text_grounding(index, chain)
        if found:
            return found, ""
    parts = [p for p in chain.split(".") if p]
    if chain.startswith("."):  # a bare `.member()`: the member is a repository word
        if all(index.has_word(p) for p in parts):
            return Grounding("text", "member-word"), ""
        return None, f"member {parts[-1]!r} is not a word of any tracked text file"
    if len(parts) == 1:
        found = _text_grounding(index, parts[0])
        if found:
            return found, ""
        return None, "not found in any tracked text file"
    found, why = _member_grounding(index, parts)
    return found, why


def _assignment(index: RepoIndex, match: re.Match[str]) -> tuple[Grounding | None, str]:
    """`NAME = value`: a constant's claimed value, so the name grounds and the value is
    written in a file that holds the name (digit separators ignored). `key: value` (and
    `a: 1, b: 2`): an option as the reader sets it, so each key grounds and the value is
    the reader's own."""
    name, value = match.group("name"), match.group("value").strip().rstrip(",;")
    if match.group("op") == ":":
        keys = [name, *re.findall(rf",\s*({IDENT})\s*:", value)]
        where = ""
        for key in keys:
            found, why = _chain(index, key, "symbol")
            if found is None:
                return None, why
            where = where or found.where
        return Grounding(where, "option-key"), ""
    found, why = _chain(index, name, "symbol")
    if found is None:
        return None, why
    value_quoted = QUOTED.match(value)
    if NUMBER_LITERAL.match(value):
        # Digit separators are spelling: 15000, 15_000 and 15,000 are one value.
        digits = value.replace("_", "").replace(",", "")
        spelled = r"[_,]?".join(re.escape(d) for d in digits)
        wanted = re.compile(rf"(?<![\w.]){spelled}(?![\w]|\.\d)".encode())
    else:
        literal = value_quoted.group(2) if value_quoted else value
        wanted = re.compile(re.escape(literal.encode()))
    last = name.split(".")[-1].encode()
    for file_id in index.files_with_words(last):
        if wanted.search(index.file_bytes(file_id)):
            return Grounding(index.text_paths[file_id], "assignment-same-file"), ""
    return None, f"{name!r} exists but no file holding it also holds the value {value!r}"


def _argument_words(args: str) -> list[str]:
    """Identifiers an argument list names (object keys and bare names), not literals."""
    stripped = re.sub(r"""(['"`]).*?\1""", " ", args)
    words = re.findall(r"(?<![\w$.])[A-Za-z_$][\w$]*", stripped)
    return [w for w in words if w not in LITERALS and len(w) >= 2]
