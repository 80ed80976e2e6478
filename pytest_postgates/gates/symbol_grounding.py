"""Gate 2, symbol_grounding (hard): every inline code token in prose is real.

Tokens are the inline code spans of the post's prose (markdown-it's, so double-backtick
spans work), never fenced code, front matter or the Related-posts block: code samples may
use illustrative names, prose claims may not. Each token is classified as the seeds lay
out (lint-rule, sha, path, filename, version, symbol, phrase) and verified against the
repository index at the configured ref. PASS when the grounded share reaches the threshold.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import GroundingRepo, Settings
from pytest_postgates.evidence import GitError
from pytest_postgates.evidence.grounding import (
    PRIMARY_REPOSITORY,
    Dependencies,
    NamedIndex,
    PostDefinitions,
    find_route,
    invisible_characters,
    is_route_template,
    post_definitions,
)
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers.tokens import (  # noqa: F401 (re-exported)
    ALLOWLIST,
    MAX_TOKEN,
    MIME_TYPE,
    NEVER_SYMBOLS,
    PURE_NUMBER,
    QUOTED,
    Token,
    extract_tokens,
)
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.evidence.lint_rules import LintRules
    from pytest_postgates.post import Post

MAX_REPORT = 50

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
CAMEL_WORD = re.compile(r"[a-z][a-zA-Z0-9_]{3,}|[A-Z][a-zA-Z0-9_]{3,}")
LINE_SUFFIX = re.compile(r"(?::\d+(?:[:-]\d+)?|#L\d+(?:-L?\d+)?)$")


OUTCOMES = (
    "grounded",
    "defined-in-post",
    "external",
    "not-a-reference",
    "unjudged",
    "ungrounded",
)
# Outcomes that are claims about the repositories: the grounded share is taken over these.
CLAIM_OUTCOMES = ("grounded", "ungrounded")


@dataclass(frozen=True)
class Verdict:
    """What became of one token: exactly one of :data:`OUTCOMES`, with where (grounded,
    defined-in-post, external) or the rule and reason that decided."""

    token: str
    line: int
    kind: str
    outcome: str
    where: str = ""
    reason: str = ""
    repo: str = ""
    rule: str = ""

    @property
    def grounded(self) -> bool:
        return self.outcome == "grounded"

    def to_dict(self) -> dict[str, Any]:
        """The seeds' ``ungrounded[]`` entry shape."""
        return {"token": self.token, "kind": self.kind, "reason": self.reason, "line": self.line}

    def outcome_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"token": self.token, "kind": self.kind, "line": self.line}
        if self.where:
            entry["where"] = self.where
        if self.repo:
            entry["repo"] = self.repo
        if self.rule:
            entry["rule"] = self.rule
        if self.reason:
            entry["reason"] = self.reason
        return entry


def classify(token: str, lint_prefix: str | None) -> str:
    if lint_prefix and re.fullmatch(rf"{re.escape(lint_prefix)}/[a-z][a-z0-9-]+", token):
        return "lint-rule"
    if SHA.match(token):
        return "sha"
    if FLAG.match(token):
        return "flag"  # a command-line option: it grounds only as written
    if any(char.isspace() for char in token):
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
# `a.b`, `a?.b`, `A::b`, `A#b`, `a!.b`, optionally called: `a.b()`, `a.b(x, y)`.
IDENT = r"[A-Za-z_$][\w$]*"
MEMBER_CHAIN = re.compile(rf"^\.?{IDENT}(?:(?:\?\.|!\.|\.|::|#){IDENT})*$")
CALL = re.compile(r"^(?P<callee>[^()\s][^()]*?)\s*\((?P<args>[^()]*)\)(?P<rest>(?:\.\w+\(\))*)$")
ASSIGNMENT = re.compile(rf"^(?P<name>{IDENT}(?:\.{IDENT})*)\s*(?P<op>=|:)\s*(?P<value>[^=].*)$")
SHELL_TOOLS = frozenset(
    """git gh curl wget docker docker-compose kubectl helm ls cd cat echo export grep rg sed
    awk ssh scp brew apt apt-get sudo chmod chown mkdir rm cp mv tar jq openssl sh bash zsh
    make cmake launchctl systemctl crontab tail head less wc sort uniq xargs find kill ps
    env source diff patch ln touch which dig nslookup ping redis-cli psql sqlite3 python
    python3 pip pip3 pipx uv go cargo rustup terraform aws gcloud az ollama test""".split()
)
BUILTIN_GLOBALS = frozenset(
    """Array Object JSON Math Promise String Number Date RegExp Reflect Symbol Map Set
    WeakMap Intl Buffer console process crypto globalThis window document navigator
    performance URL Response Request Headers Error fetch os sys re json asyncio""".split()
)
BUILTIN_METHODS = frozenset(
    """map filter reduce reduceRight forEach find findIndex findLast some every includes
    indexOf lastIndexOf join split slice splice push pop shift unshift concat sort reverse
    flat flatMap fill keys values entries from of isArray then catch finally all allSettled
    race any resolve reject toString toFixed valueOf trim trimStart trimEnd startsWith
    endsWith replace replaceAll match matchAll padStart padEnd toLowerCase toUpperCase
    charAt at length parse stringify assign freeze create defineProperty hasOwnProperty
    getTime now toISOString log warn error info debug abort signal next return throw
    append get set has delete clear size add apply call bind exit argv path environ
    stdout stderr cwd env platform nextTick hrtime memoryUsage uptime floor ceil round
    random max min abs sqrt pow""".split()
)
PLACEHOLDER = re.compile(
    r"^<[^<>]+>$|YOUR[_-]|your[_-]|\bxxx+\b|XXX|\.\.\.|…|^\$\([^)]*\)$|^(?:\[[A-Z_ ]+\])+$"
    r"|^[A-Z]{2,10}-\d{1,6}$|^\$\{[^}]*\}$|^<\w+>$"
)
PARAM_SEGMENT = re.compile(r"<[^<>/]+>|\{[^{}/]+\}|\$\{[^}]*\}")
HYPOTHETICAL_CUE = re.compile(
    r"(?<!\w)(?:for example|for instance|e\.g\.|i\.e\.,? a|imagine|hypothetical(?:ly)?|suppose"
    r"|pretend|illustrative|made[- ]up|fictional|invented)(?!\w)",
    re.I,
)
# "a tool named `x`" introduces an example only where the sentence is one: it opens with
# the phrase or speaks of what could be ("a server could advertise a tool named `x`");
# "creating a function named `x`" states what the product does.
NAMED_CUE = re.compile(
    r"(?<!\w)an? (?:\w+ )?(?:tool|function|server|method|file|package|class|variable|"
    r"endpoint|rule|module|service|field|key|command|prompt|table|column|event|step)"
    r" (?:named|called)(?!\w)",
    re.I,
)
READER_FILE = re.compile(
    r"^`?\s*(?:in|to|into|at the root of) your (?:own )?(?:repository|repo|project|codebase)\b",
    re.I,
)
MODAL = re.compile(r"\b(?:could|would|might|may|if|suppose|say|hypothetically)\b", re.I)
NEGATED_CUE = re.compile(
    r"(?<!\w)(?:never existed|does not exist|doesn't exist|did not exist|didn't exist|no such"
    r"|is not a real|isn't a real|not a real|nonexistent|non-existent|there is no|there's no"
    r"|was never (?:a|an|the|part)|does not ship|doesn't ship|is not part of|isn't part of"
    r"|fabricated|hallucinated|not (?:an? )?(?:actual|real) "
    r"|(?:aren't|isn't|is not|are not|was not|wasn't) in the \w+ "
    r"(?:catalog|catalogue|list|registry)"
    r")",
    re.I,
)
PRODUCT_VERBS = (
    r"(?:'s|\u2019s|\s+(?:exposes|provides|ships|exports|offers|adds|has|supports|includes"
    r"|introduces|calls|uses|defines|registers|returns|accepts))\b"
)
REMOVAL_CUE = re.compile(r"\b(?:remov|delet|drop|deprecat|renam|replac|no longer|revert)", re.I)
NUMBER_LITERAL = re.compile(r"^-?[\d_]+(?:\.\d+)?$")
LITERALS = frozenset("true false null undefined None True False nil NaN".split())


def _normalise_chain(text: str) -> str:
    """`a?.b`, `a!.b`, `A::b`, `A#b` -> `a.b`; a leading dot stays (a bare `.member`)."""
    return re.sub(r"\?\.|!\.|::|#", ".", text)


@dataclass
class Repos:
    """The configured repository first, then the more repositories gate 2 grounds against."""

    primary: NamedIndex
    extras: list[NamedIndex]
    lint: LintRules | None
    dependencies: list[tuple[str, Dependencies]]
    product_names: tuple[str, ...]
    # ``repos`` entries this run cannot read (declared without a path, posts in no git
    # repository): the tokens they claim are listed as unjudged, never grounded.
    unavailable: tuple[GroundingRepo, ...] = ()


@dataclass(frozen=True)
class Grounding:
    where: str
    rule: str = ""


def _bounded_in(index: RepoIndex, text: str) -> str | None:
    """A file holding ``text`` as written with no word character or dash glued to either
    end (`--max-warnings` is not in `--max-warnings-count`)."""
    needle = text.encode("utf-8")
    for path, _offset in index.files_containing(text, limit=16):
        data = index.file_text(path) or ""
        for match in re.finditer(re.escape(text), data):
            before = data[match.start() - 1] if match.start() else " "
            after = data[match.end()] if match.end() < len(data) else " "
            if not re.match(r"[\w-]", before) and not re.match(r"[\w-]", after):
                return path
    del needle
    return None


def _option_declared(index: RepoIndex, name: str) -> str | None:
    """A file declaring the option ``name``: `"name"`/`'name'` as a string or `name:` as a
    key, not glued to a longer name."""
    pattern = re.compile(rf"""(?:["']{re.escape(name)}["']|(?<![\w-]){re.escape(name)}\s*:)""")
    for path, _offset in index.files_containing(name, limit=32):
        if pattern.search(index.file_text(path) or ""):
            return path
    return None


def _text_grounding(index: RepoIndex, text: str) -> Grounding | None:
    """``git grep -F`` of the token as written, unless the only text holding it is the
    CHANGELOG recording its removal (a removed option is not a real one)."""
    if not index.contains(text):
        return None
    changelog = index.changelog_path
    if not changelog or text not in index.changelog:
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
        shared = index.files_with_word(before.encode()) & index.files_with_word(part.encode())
        if not shared:
            return None, f"member {part!r} never appears in a file that holds {before!r}"
        where = index.text_paths[min(shared)]
    return Grounding(where, "member-in-same-file"), ""


def _word_grounded(index: RepoIndex, word: str) -> bool:
    return index.has_word(word) or index.contains(word)


def ground_in(
    index: RepoIndex, text: str, kind: str, lint: LintRules | None
) -> tuple[Grounding | None, str]:
    """Whether one repository grounds the token, and why not. Each kind is verified as the
    seeds lay out; member, call and assignment syntax is decomposed and grounded part by
    part; a phrase grounds only as written or when every word of it is a repository word
    (never on one of its words alone)."""
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
        # A short option is a substring of thousands of files (`-a` of `-api`): written as
        # a quoted string (`["-a", "Ollama"]`) it is found without scanning them all.
        quoted = next((f"{q}{option}{q}" for q in "\"'" if index.contains(f"{q}{option}{q}")), None)
        where = (
            (index.locate(quoted) or "text" if quoted else None)
            or _bounded_in(index, text)
            or (_bounded_in(index, option) if option != text else None)
        )
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
    if kind == "phrase" and len(text) >= 12 and text in index.messages:
        return Grounding("commit message", "commit-message"), ""
    return _decomposed(index, text, kind)


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
    for file_id in sorted(index.files_with_word(last)):
        if wanted.search(index.file_bytes(file_id)):
            return Grounding(index.text_paths[file_id], "assignment-same-file"), ""
    return None, f"{name!r} exists but no file holding it also holds the value {value!r}"


def _argument_words(args: str) -> list[str]:
    """Identifiers an argument list names (object keys and bare names), not literals."""
    stripped = re.sub(r"""(['"`]).*?\1""", " ", args)
    words = re.findall(r"(?<![\w$.])[A-Za-z_$][\w$]*", stripped)
    return [w for w in words if w not in LITERALS and len(w) >= 2]


# ---------------------------------------------------------------------- the other outcomes


def _sentence(post: Post, token: Token) -> tuple[str, int]:
    """The sentence of the token's line that holds it, and the token's offset in it."""
    try:
        line = post.lines[token.line - 1]
    except IndexError:
        return "", -1
    at = line.find(token.text)
    if at < 0:
        return line, -1
    starts = [
        m.end()
        for m in re.finditer(r"[.!?]\s+(?=[A-Z`*(\[])", line[:at])
        if not ABBREVIATION.search(line[: m.start() + 1])
    ]
    start = starts[-1] if starts else 0
    end_match = re.search(r"[.!?](?:\s+[A-Z`*(\[]|\s*$)", line[at + len(token.text) :])
    end = at + len(token.text) + end_match.start() + 1 if end_match else len(line)
    return line[start:end], at - start


def _head(text: str) -> str:
    chain = _normalise_chain(CALL.sub(lambda m: m.group("callee"), text)).lstrip(".")
    return re.split(r"[.\s/(]", chain, maxsplit=1)[0]


def presented_as_product(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> bool:
    """Whether the post presents the token as the product's API: imported from the product
    package in a fence, a member of a product name or of a real repository class, or named
    right after the product's name ("NeuroLink's `x`", "NeuroLink exposes `x`")."""
    head = _head(text)
    names = {n.lower() for n in repos.product_names}
    if "/" in text and not text.startswith("@"):
        first = text.lstrip("./").split("/", 1)[0]
        if first in SOURCE_ROOTS or repos.primary.index.match_path(first + "/"):
            return True  # a path into the product's tree is a claim about it
    if MODEL_ID.match(text) or FLAG.match(text):
        return True  # a model id or a flag is a claim about the product's catalogue or CLI
    if repos.lint is not None and text.startswith(repos.lint.prefix + "/"):
        return True  # a rule in the product's lint namespace
    bare_name = re.split(r"[.(]", text.lstrip("."), maxsplit=1)[0]
    if bare_name in definitions.product_imports or head in definitions.product_imports:
        return True
    if head.lower() in names or text.lower() in names:
        return True
    chain = _normalise_chain(text)
    if "." in chain.strip(".") and head[:1].isupper() and repos.primary.index.has_word(head):
        return True
    if offset >= 0:
        before = sentence[max(0, offset - 60) : offset]
        for name in repos.product_names:
            if re.search(rf"\b{re.escape(name)}{PRODUCT_VERBS}[^.`]*`?$", before, re.I):
                return True
    return False


def not_a_reference(
    text: str, kind: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> tuple[str, str] | None:
    """(rule, reason) when the token is not a claim about any repository."""
    words = text.split()
    names = {n.lower() for n in repos.product_names}
    names_product = any(name in text.lower() for name in names)
    if len(words) > 1 and not names_product:
        for segment in re.split(r"\s*(?:;|&&|\|\||\|)\s*", text):
            head = segment.split()[0] if segment.split() else ""
            tool = head.rsplit("/", 1)[-1]
            if tool in SHELL_TOOLS or head.startswith(("/bin/", "/usr/bin/", "/usr/local/bin/")):
                return "command", f"a {tool} command line, not a repository name"
    chain = _normalise_chain(CALL.sub(lambda m: m.group("callee"), text))
    if MEMBER_CHAIN.match(chain):
        parts = [p for p in chain.split(".") if p]
        if chain.startswith(".") and parts and all(p in BUILTIN_METHODS for p in parts):
            return "builtin", f"a built-in method ({'.'.join(parts)})"
        # A runtime global's member, only when the member is a known built-in one: an
        # invented `sys.hashInfoX` is no more a built-in than any other invention.
        if (
            len(parts) > 1
            and parts[0] in BUILTIN_GLOBALS
            and parts[0].lower() not in names
            and all(p in BUILTIN_METHODS for p in parts[1:])
        ):
            return "builtin", f"a member of the built-in {parts[0]}"
    if LATEX_COMMAND.match(text):
        return "markup", "a LaTeX command, not a name"
    if "/" in text and all(part in SYNTAX_WORDS for part in text.split("/")):
        return "syntax", "language keywords, not a path"
    package = re.fullmatch(r"@([a-z0-9][\w.-]*)/([a-z0-9][\w.-]*)", text)
    if package and not any(n.lower() in text.lower() for n in repos.product_names if len(n) > 2):
        scope = "@" + package.group(1)
        product_scopes = {n.split("/")[0] for n in repos.product_names if n.startswith("@")}
        if scope not in product_scopes:
            return "other-package", f"a package of the {scope} scope, not the product's"
    if PLACEHOLDER.search(text) and not is_route_template(text):
        return "placeholder", "a placeholder, not a name"
    if _GLOB_TOKEN.search(text) and "/" not in text.rstrip("/").rstrip("*"):
        return "glob", "a file-name pattern, not a file"
    if (
        offset >= 0
        and kind in ("path", "filename")
        and READER_FILE.match(sentence[offset + len(text) : offset + len(text) + 40])
    ):
        return "reader-file", "a file the reader creates in their own repository"
    if offset < 0:
        return None
    # A cue decides only for the token it introduces: just before it ("there is no `x`",
    # "a tool named `x`", "e.g. `x`"), or right after it ("`x` has never existed", "`x`,
    # for example"), with nothing between them but a list of other code spans; a cue
    # elsewhere in the sentence is about something else.
    before = sentence[max(0, offset - CUE_WINDOW) : offset]
    after = sentence[offset + len(text) : offset + len(text) + CUE_WINDOW]
    if _cue_before(NEGATED_CUE, before) or _cue_after(NEGATED_CUE, after):
        # Saying a name does not exist claims nothing about the repository, even for a
        # name of the product's shape.
        return "negated", "the sentence says it does not exist"
    if not presented_as_product(text, sentence, offset, repos, definitions):
        named = _cue_before(NAMED_CUE, before) and (
            MODAL.search(sentence) is not None
            or re.match(r"^[\s*_(\[\d.-]*an? ", sentence, re.I) is not None
        )
        if (
            named
            or _cue_before(HYPOTHETICAL_CUE, before)
            or re.match(r"^`?\)?,?\s*(?:for example|for instance|e\.g\.)", after, re.I)
        ) and not _listed_with_real_names(text, sentence, offset, repos):
            return "hypothetical", "the sentence presents it as an example, not a real name"
    return None


_CODE_SPAN = re.compile(r"`([^`]+)`")
_LIST_GAP = re.compile(r"^\s*,?\s*(?:(?:and|or)\s+)?$")


def _listed_with_real_names(text: str, sentence: str, offset: int, repos: Repos) -> bool:
    """Whether the token stands in one list with a name the repository holds as written
    ("e.g., `OpenAITTS`, `DeepgramSTT`"): examples of the product's real things, so each
    of them is a claim (an invented one among them is a fabrication, not an example)."""
    spans = list(_CODE_SPAN.finditer(sentence))
    at = next((i for i, m in enumerate(spans) if m.start(1) == offset), None)
    if at is None:
        return False
    group = [spans[at]]
    for step in (-1, 1):
        i = at
        while 0 <= i + step < len(spans):
            a, b = (spans[i + step], spans[i]) if step < 0 else (spans[i], spans[i + step])
            if not _LIST_GAP.match(sentence[a.end() : b.start()]):
                break
            i += step
            group.append(spans[i])
    index = repos.primary.index

    def real(name: str) -> bool:
        # A short or common word (`id`, `list`) is in any repository: it proves nothing.
        if len(name) < 4:
            return False
        return index.has_word(name) if re.fullmatch(r"\w+", name) else index.contains(name)

    return any(m.group(1) != text and real(m.group(1)) for m in group)


# Between a cue and its token: other code spans of the same list, and these small words.
_LIST_GLUE = re.compile(r"^(?:\s|,|\(|:|`[^`]*`|\b(?:or|and|nor|a|an|the|any|special)\b)*`?$", re.I)


def _cue_before(cue: re.Pattern[str], before: str) -> bool:
    matches = list(cue.finditer(before))
    return bool(matches) and _LIST_GLUE.match(before[matches[-1].end() :]) is not None


def _cue_after(cue: re.Pattern[str], after: str) -> bool:
    match = cue.search(after)
    if match is None:
        return False
    gap = after[: match.start()]
    glue = (
        r"`?(?:\s|,|—|-|`[^`]*`|\b(?:and|or|nor|that|which|has|have|had|is|was|does|did"
        r"|simply|just|both)\b)*"
    )
    return re.fullmatch(glue, gap) is not None


_GLOB_TOKEN = re.compile(r"[*?]")
# `gpt-4o`, `claude-sonnet-4-6`, `openai/gpt-4o:nitro`: letters, a dash or slash, a digit.
MODEL_ID = re.compile(r"^(?:[a-z][\w.-]*/)?[a-z][a-z0-9]*-[\w.:-]*\d[\w.:-]*$")
LATEX_COMMAND = re.compile(r"^\\[A-Za-z]+(?:\{[^}]*\})*$")
SYNTAX_WORDS = frozenset("if else elif try catch finally for while do switch case".split())
CUE_WINDOW = 60
ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bincl)\.$", re.I)
PURE_PLACEHOLDER = re.compile(r"^<[\w .:-]+>$")
# Folders a path in prose names as the product's own source tree.
SOURCE_ROOTS = frozenset("src lib test tests docs packages scripts bin dist examples".split())


def defined_in_post(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> str | None:
    """The fence line declaring the token (a call's callee, a member's last part when its
    head is the post's own too), unless the post presents it as the product's API."""
    callee = CALL.sub(lambda m: m.group("callee"), text).strip()
    chain = _normalise_chain(callee)
    if not MEMBER_CHAIN.match(chain) and not MEMBER_CHAIN.match(callee):
        line = definitions.declared.get(text)  # a literal the sample names (`crop-guides`)
        if line is not None and not presented_as_product(
            text, sentence, offset, repos, definitions
        ):
            return f"fence at line {line}"
        return None
    parts = [p for p in chain.split(".") if p]
    if not parts:
        return None
    if presented_as_product(text, sentence, offset, repos, definitions):
        return None
    if len(parts) > 1:
        # `retriever.search`: the post declares both, or declares the head and the rest
        # are repository words (a member of the post's own object).
        head_line = definitions.declared.get(parts[0])
        if head_line is None:
            return None
        last_line = definitions.declared.get(parts[-1])
        if last_line is not None:
            return f"fence at line {last_line}"
        return None
    line = definitions.declared.get(parts[0])
    return f"fence at line {line}" if line is not None else None


def external(text: str, kind: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) of another repository or a declared dependency grounding it."""
    for extra in repos.extras:
        found, _ = ground_in(extra.index, text, kind, None)
        if found:
            return extra.name, found.where
    return _dependency(text, repos)


def _dependency(text: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) when the token names a package some repository depends on
    (never the product's own package)."""
    package = _package_of(text)
    if not package or package.lower() in {n.lower() for n in repos.product_names}:
        return None
    if package != text and MODEL_ID.match(text):
        return None  # `openai/gpt-4o` is a model id, not a module of the openai package
    for name, deps in repos.dependencies:
        source = deps.source(package)
        if not source:
            continue
        # A name only a lock file holds is a transitive dependency: a plain word there
        # (`retry`, `debug`) says nothing about the token, a distinctive name does.
        if package in deps.direct or re.search(r"[-@/.]", package):
            return name, f"dependency {package} ({source})"
    return None


def _package_of(text: str) -> str | None:
    """The npm/PyPI/crates package a token names (`@scope/name/sub` -> `@scope/name`)."""
    match = re.fullmatch(r"(@[a-z0-9][\w.-]*/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)(?:/[\w./-]*)?", text)
    return match.group(1) if match else None


def judge(
    token: Token,
    post: Post,
    repos: Repos,
    definitions: PostDefinitions,
    lint_prefix: str | None,
) -> Verdict:
    text = token.text
    kind = classify(text, lint_prefix)

    def verdict(outcome: str, **fields: str) -> Verdict:
        return Verdict(text, token.line, kind, outcome, **fields)

    primary = repos.primary
    if invisible_characters(text):
        # Grounded as written or not at all: the visible half must never decide.
        if primary.index.contains(text):
            return verdict(
                "grounded",
                where=primary.index.locate(text) or "text",
                repo=primary.name,
                rule="as-written",
            )
        names = ", ".join(invisible_characters(text))
        return verdict("ungrounded", reason=f"holds invisible {names}; not found as written")
    if PURE_PLACEHOLDER.match(text):
        return verdict("not-a-reference", rule="placeholder", reason="a placeholder, not a name")
    dependency = _dependency(text, repos)
    if dependency:
        # A package the repository depends on is another product, even though its name is
        # written in the manifest.
        return verdict("external", repo=dependency[0], where=dependency[1])
    found, why = ground_in(primary.index, text, kind, repos.lint)
    if found:
        return verdict("grounded", where=found.where, repo=primary.name, rule=found.rule)
    sentence, offset = _sentence(post, token)
    other = external(text, kind, repos)
    if other:
        return verdict("external", repo=other[0], where=other[1])
    declared = defined_in_post(text, sentence, offset, repos, definitions)
    if declared:
        return verdict("defined-in-post", where=declared)
    rule = not_a_reference(text, kind, sentence, offset, repos, definitions)
    if rule:
        return verdict("not-a-reference", rule=rule[0], reason=rule[1])
    variant = router_variant(text, repos)
    if variant:
        return verdict("unjudged", rule="router-variant", reason=variant)
    codebase = unavailable_codebase(text, kind, post, sentence, offset, repos, definitions)
    if codebase:
        return verdict(
            "unjudged",
            repo=codebase[0].name,
            rule=codebase[1],
            reason=f"names code in {codebase[0].name}, which is not available to this run",
        )
    return verdict("ungrounded", reason=why)


# OpenRouter's documented model variants (openrouter.ai/docs, "Model variants"): a suffix
# the router, not the product, gives a model id (`openai/gpt-4o:nitro`).
ROUTER_VARIANTS = frozenset("free beta extended thinking online nitro floor exacto".split())
ROUTER_VARIANT = re.compile(r"^(?P<base>(?:[a-z0-9][\w.-]*/[\w.-]+)?):(?P<variant>[a-z]+)$")


def router_variant(text: str, repos: Repos) -> str | None:
    """The reason an OpenRouter variant of a model id is unjudged: the product routes
    through OpenRouter (its repository names it), the id before the suffix grounds in the
    repository as written, and the suffix is one of the router's documented variants (a
    bare `:nitro` is the suffix alone). An invented id or an invented suffix stays a
    claim."""
    match = ROUTER_VARIANT.match(text)
    if not match or match.group("variant") not in ROUTER_VARIANTS:
        return None
    index = repos.primary.index
    if not (index.contains("openrouter") or index.contains("OpenRouter")):
        return None
    base, suffix = match.group("base"), ":" + match.group("variant")
    if not base:
        return f"`{suffix}` is an OpenRouter model variant, which the repository cannot judge"
    if _text_grounding(index, base) is None:
        return None
    return (
        f"`{base}` is in the repository; `{suffix}` is an OpenRouter model variant,"
        " which the repository cannot judge"
    )


def _product_path(text: str, repos: Repos) -> bool:
    """A path the configured repository's tree claims, whatever post names it: one that
    reaches below the product's top level (`src/lib/x.ts` where `src/lib/` exists), or
    starts at a source root the product has (`src/x.ts`). Top-level folders most
    repositories share (`scripts/`, `docs/`, `data/`) do not decide on their own."""
    segments = [s for s in LINE_SUFFIX.sub("", text).lstrip("./").split("/") if s]
    index = repos.primary.index
    if segments[:1] and segments[0] in PRODUCT_SOURCE_ROOTS and index.is_dir(segments[0]):
        return len(segments) >= 2
    return len(segments) >= 3 and index.is_dir("/".join(segments[:2]))


PRODUCT_SOURCE_ROOTS = frozenset("src lib packages".split())


def _post_tags(post: Post) -> set[str]:
    """The post's front-matter tags (a list, or one string of space-separated tags)."""
    value = (post.front_matter or {}).get("tags")
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, list):
        return {str(tag) for tag in value}
    return set()


def unavailable_codebase(
    text: str,
    kind: str,
    post: Post,
    sentence: str,
    offset: int,
    repos: Repos,
    definitions: PostDefinitions,
) -> tuple[GroundingRepo, str] | None:
    """(entry, rule) when a ``repos`` entry this run cannot read claims the token: a path
    under one of its ``prefixes``, or any token of a post its ``posts`` globs or ``tags``
    name that the post does not present as the product's (a model id, a flag, a rule of the
    product's lint namespace, a member of a product class, a path into the product's
    tree stay claims about the product)."""
    if not repos.unavailable:
        return None
    spec = LINE_SUFFIX.sub("", text).removeprefix("./")
    for entry in repos.unavailable:
        if kind in ("path", "filename") and any(spec.startswith(p) for p in entry.prefixes):
            return entry, "declared-prefix"
    post_path = PurePosixPath(Path(post.path).as_posix())
    tags = _post_tags(post)
    for entry in repos.unavailable:
        if not any(post_path.match(glob) for glob in entry.posts) and not tags & set(entry.tags):
            continue
        if kind in ("path", "filename"):
            if _product_path(text, repos) or MODEL_ID.match(text):
                return None
        elif presented_as_product(text, sentence, offset, repos, definitions):
            return None
        return entry, "declared-post"
    return None


def _repos_for(post: Post, context: GateContext) -> Repos:
    evidence = context.evidence.for_post(post.path)
    index = context.evidence.index_for(post.path)
    primary = NamedIndex(PRIMARY_REPOSITORY, index)
    extras = context.evidence.extra_indexes_for(post.path)
    deps = [(r.name, context.evidence.dependencies_for(r.index)) for r in (primary, *extras)]
    return Repos(
        primary=primary,
        extras=extras,
        lint=context.evidence.lint_rules_for(post.path),
        dependencies=deps,
        product_names=tuple(evidence.product_names) + _product_words(evidence.product_names),
        unavailable=tuple(context.evidence.unavailable_repos_for(post.path)),
    )


def _product_words(names: tuple[str, ...]) -> tuple[str, ...]:
    """The product's display name as prose writes it (`neurolink` -> also `NeuroLink`)."""
    return tuple(n for n in names if "/" not in n and n.isalpha())


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    threshold = settings.symbol_grounding_threshold
    tokens = extract_tokens(post, ALLOWLIST | frozenset(settings.symbol_allowlist))
    if not tokens:
        detail = {
            "total": 0,
            "claims": 0,
            "grounded": 0,
            "grounded_pct": 100.0,
            "threshold": threshold,
            "ungrounded": [],
            "note": "no backticked identifiers in prose",
        }
        return CheckResult([], detail)
    try:
        repos = _repos_for(post, context)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    prefix = settings.lint_rule_prefix if repos.lint is not None else None
    index = repos.primary.index

    def is_repo_class(name: str) -> bool:
        return index.has_word(name) and index.contains(f"class {name}")

    def is_repo_file(name: str) -> bool:
        spec = name.removeprefix("./")
        return bool(index.match_path(spec) or index.match_filename(spec.rsplit("/", 1)[-1]))

    definitions = post_definitions(post, repos.product_names, is_repo_class, is_repo_file)
    verdicts = [judge(token, post, repos, definitions, prefix) for token in tokens]
    by_outcome: dict[str, list[Verdict]] = {outcome: [] for outcome in OUTCOMES}
    for v in verdicts:
        by_outcome[v.outcome].append(v)
    grounded = len(by_outcome["grounded"])
    ungrounded = by_outcome["ungrounded"]
    claims = grounded + len(ungrounded)
    detail: dict[str, Any] = {
        "total": len(verdicts),
        "claims": claims,
        "grounded": grounded,
        "grounded_pct": round(grounded / claims * 1000) / 10 if claims else 100.0,
        "threshold": threshold,
        "ref": settings.ref,
        "ungrounded": [v.to_dict() for v in ungrounded[:MAX_REPORT]],
        "outcomes": {
            outcome: [v.outcome_dict() for v in by_outcome[outcome]]
            for outcome in OUTCOMES
            # `unjudged` appears only when a declared codebase is not available, so the
            # cards of runs that declare none keep their shape.
            if outcome != "ungrounded" and (outcome != "unjudged" or by_outcome[outcome])
        },
    }
    if repos.unavailable:
        detail["unavailable_repos"] = sorted(r.name for r in repos.unavailable)
    if repos.extras:
        detail["repos"] = [repos.primary.name] + [r.name for r in repos.extras]
    if repos.lint is not None:
        detail["lint_rules"] = [rule.name for rule in repos.lint.rules]
    findings = [
        Finding(
            t.line,
            "INVISIBLE_CHARACTER",
            f"`{t.text.encode('unicode_escape').decode('ascii')}` holds "
            f"{', '.join(invisible_characters(t.text))}: it reads as a name it is not",
            "delete the invisible characters and write the name as the repository spells it",
        )
        for t in tokens
        if invisible_characters(t.text)
    ]
    findings += [
        Finding(
            v.line,
            "UNGROUNDED",
            f"`{v.token}` ({v.kind}): {v.reason}",
            "not a real repo symbol: remove it, replace it with a real one, "
            "or move the example into a fenced code block",
        )
        for v in ungrounded
    ]
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: Settings) -> Decision:
    """The grounded share of the claims left: one UNGROUNDED finding per ungrounded token,
    so suppressed tokens leave the count (tokens and claims) and the share is computed over
    the rest. A kept INVISIBLE_CHARACTER finding fails the post whatever the share."""
    detail = result.detail
    if not detail["total"]:
        return Decision("PASS", "no inline code tokens in prose", 100.0)
    kept = [f for f in result.findings if f.code == "UNGROUNDED"]
    invisible = [f for f in result.findings if f.code == "INVISIBLE_CHARACTER"]
    grounded = detail["grounded"]
    claims_before = detail.get("claims", detail["total"])
    ungrounded_before = claims_before - grounded
    suppressed = max(0, ungrounded_before - len(kept))
    claims = grounded + len(kept)
    total = detail["total"] - suppressed
    pct = round(grounded / claims * 1000) / 10 if claims else 100.0
    threshold = detail["threshold"]
    verdict = "PASS" if pct >= threshold and not invisible else "FAIL"
    # Suppression is by line, so the tokens left are those on lines still holding findings.
    kept_lines = {f.line for f in kept}
    detail = dict(detail)
    detail.update(
        total=total,
        grounded_pct=pct,
        ungrounded=[u for u in detail["ungrounded"] if u["line"] in kept_lines],
    )
    if "claims" in detail:
        detail["claims"] = claims
    comparison = ">=" if pct >= threshold else "<"
    summary = f"{grounded}/{claims} claims grounded ({pct}% {comparison} {threshold}%)"
    others = total - claims
    if others:
        summary += f"; {others} of {total} tokens are not claims about the repository"
    unjudged = len(detail.get("outcomes", {}).get("unjudged", []))
    if unjudged:
        names = ", ".join(detail.get("unavailable_repos", []))
        summary += f"; {unjudged} unjudged (they name code in {names}, not available to this run)"
    if invisible:
        summary += f"; {len(invisible)} token(s) hold invisible characters"
    return Decision(verdict, summary, pct, detail)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """The result depends on the post, the settings, every grounding commit and the
    grounding rules themselves."""
    primary = commit_inputs(post_path, context)
    if primary is None:
        return None
    try:
        extras = context.evidence.extra_indexes_for(post_path)
    except GitError:
        return None
    parts = [primary, _rules_fingerprint()]
    return ";".join(parts + [f"{r.name}={r.index.root}@{r.index.commit}" for r in extras])


@functools.lru_cache(maxsize=1)
def _rules_fingerprint() -> str:
    """The grounding rules' own source: a changed rule never serves a cached verdict."""
    import hashlib

    from pytest_postgates.evidence import grounding

    digest = hashlib.sha256()
    for module_file in (__file__, grounding.__file__):
        digest.update(Path(module_file).read_bytes())
    return digest.hexdigest()[:16]


GATE = Gate(
    id=2,
    name="symbol_grounding",
    advisory=False,
    kind="hard",
    description="Inline code in prose names real repository symbols, files and rules.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
)
