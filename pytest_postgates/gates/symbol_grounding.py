"""Gate 2, symbol_grounding (hard): every inline code token in prose is real.

Tokens are the inline code spans of the post's prose (markdown-it's, so double-backtick
spans work), never fenced code, front matter or the Related-posts block: code samples may
use illustrative names, prose claims may not. Each token is classified as the seeds lay
out (lint-rule, sha, path, filename, version, symbol, phrase) and verified against the
repository index at the configured ref. PASS when the grounded share reaches the threshold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence import GitError
from pytest_postgates.scorecard import Finding, Scorecard

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.evidence.lint_rules import LintRules
    from pytest_postgates.gates import GateContext
    from pytest_postgates.post import Post

GATE_ID = 2
MAX_TOKEN = 80
MAX_REPORT = 50

# Names that are never repository symbols: language keywords and literals, runtime
# globals, common command-line tools, file formats and external products.
ALLOWLIST: frozenset[str] = frozenset(
    """
    abstract any as async await boolean break case catch class const constructor continue
    debugger declare default delete do else enum export extends false finally for from
    function get if implements import in infer instanceof interface is keyof let module
    namespace never new null number object of package private protected public readonly
    require return satisfies set static string super switch symbol this throw true try type
    typeof undefined unique unknown var void while with yield bigint Array ArrayBuffer
    BigInt Boolean Buffer Date Error EventEmitter Function Infinity Intl JSON Map Math NaN
    Number Object Promise Proxy Reflect RegExp Set String Symbol TypeError Uint8Array URL
    URLSearchParams WeakMap WeakSet console document fetch globalThis process window
    setTimeout setInterval clearTimeout structuredClone AbortController Response Request
    Headers ReadableStream WritableStream TextEncoder TextDecoder Record Partial Required
    Readonly Pick Omit Exclude Extract NonNullable ReturnType Parameters Awaited __dirname
    __filename exports False None True and assert def del elif except global lambda nonlocal
    not or pass raise self cls async_ print len dict list tuple str int float bool bytes
    range open isinstance Exception ValueError KeyError RuntimeError OSError __init__
    __main__ __name__ node npm npx pnpm yarn bun deno git gh curl wget bash sh zsh make
    docker kubectl python python3 pip pipx uv pytest tox ruff mypy eslint prettier tsc jest
    vitest jq sed awk grep ls cd cat echo ssh openssl brew apt apt-get sudo JavaScript
    TypeScript Node.js React Next.js Vue HTTP HTTPS JSON YAML TOML HTML CSS SQL REST GraphQL
    gRPC MCP OAuth JWT SSE WebSocket UTF-8 ASCII CLI API SDK CI CD URL URI OpenAI Anthropic
    Claude Gemini Vertex Mistral Ollama Bedrock Azure AWS GCP GitHub GitLab Bitbucket Slack
    Docker Kubernetes Redis PostgreSQL SQLite MongoDB Jekyll Markdown mermaid GET POST PUT
    PATCH DELETE HEAD OPTIONS
    """.split()
)
MIME_TYPE = re.compile(
    r"^(application|audio|font|image|message|model|multipart|text|video)/[\w.+-]+$"
)
PURE_NUMBER = re.compile(r"^\d+(\.\d+)?$")
# Abbreviated (7-12) or full (40) commit ids; a 32-hex string is an id of another kind.
SHA = re.compile(r"^(?:[0-9a-f]{7,12}|[0-9a-f]{40})$")
# Never repository symbols although they look like them: bare file extensions, lint rule
# codes, errno/open/signal constants, members of Node's built-in modules.
NEVER_SYMBOLS = re.compile(
    r"^(?:\.[A-Za-z0-9]{1,8}|MD\d{3}|E[A-Z]{3,}|O_[A-Z]+|SIG[A-Z]+"
    r"|(?:fs|path|os|zlib|net|http|https|http2|crypto|child_process|util|stream|events|url|dns"
    r"|tls|readline|worker_threads|cluster|buffer|assert|timers|perf_hooks|querystring)"
    r"\.[A-Za-z_]\w*(?:\(\))?)$"
)
QUOTED = re.compile(r"""^(['"])(.+)\1$""")
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


@dataclass(frozen=True)
class Token:
    text: str
    line: int


@dataclass(frozen=True)
class Verdict:
    token: str
    line: int
    kind: str
    grounded: bool
    where: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"token": self.token, "kind": self.kind, "reason": self.reason, "line": self.line}


def extract_tokens(post: Post, allowlist: frozenset[str] = ALLOWLIST) -> list[Token]:
    """Distinct prose code-span tokens, each with the line it first appears on."""
    seen: dict[str, Token] = {}
    for span in post.prose_code_spans:
        raw = span.text.strip()
        quoted = QUOTED.match(raw)
        if quoted:  # `'gpt'` names the string gpt
            raw = quoted.group(2)
        if not raw or len(raw) > MAX_TOKEN or len(raw) < 2 or raw in seen:
            continue
        if raw in allowlist or MIME_TYPE.match(raw) or PURE_NUMBER.match(raw):
            continue
        if NEVER_SYMBOLS.match(raw):
            continue
        seen[raw] = Token(raw, span.line)
    return list(seen.values())


def classify(token: str, lint_prefix: str | None) -> str:
    if lint_prefix and re.fullmatch(rf"{re.escape(lint_prefix)}/[a-z][a-z0-9-]+", token):
        return "lint-rule"
    if SHA.match(token):
        return "sha"
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


def verify(token: Token, kind: str, index: RepoIndex, lint: LintRules | None) -> Verdict:
    def result(grounded: bool, where: str = "", reason: str = "") -> Verdict:
        return Verdict(token.text, token.line, kind, grounded, where, reason)

    text = token.text
    if kind == "lint-rule":
        assert lint is not None
        name = text.split("/", 1)[1]
        rule = lint.rule(name)
        if rule is not None:
            return result(True, rule.file)
        return result(
            False,
            reason=f"no rule file {lint.folder}/{name}.(c|m)js/ts and no registered rule {name!r}",
        )
    if kind == "sha":
        if index.object_exists(text):
            return result(True, "git object")
        if index.contains(text):
            return result(True, "text")  # an id the source holds (a key, a fixture)
        return result(False, reason="no commit or object with this id")
    if kind in ("path", "filename"):
        spec = LINE_SUFFIX.sub("", text).replace("\\", "/")
        where = (
            index.match_path(spec)
            if kind == "path"
            else (index.match_path(spec) or index.match_filename(spec))
        )
        if where:
            return result(True, where)
        if index.contains(text):
            # A literal the source really contains (a route, a package subpath, a file name
            # the code reads) is grounded as text.
            return result(True, "text")
        return result(False, reason="no tracked file or folder matches")
    if kind == "version":
        if index.changelog and _version_in(text, index.changelog):
            return result(True, index.changelog_path or "CHANGELOG")
        if any(_version_in(text, tag) for tag in index.tags):
            return result(True, "git tag")
        if index.contains(text):
            return result(True, "text")
        source = index.changelog_path or "no CHANGELOG"
        return result(False, reason=f"version not in {source}, tags or tracked text")
    if index.contains(text):
        return result(True, "text")
    if kind == "symbol":
        return result(False, reason="not found in any tracked text file")
    # phrase: a kebab or dotted literal must match as written.
    if "-" in text and KEBAB_OR_DOTTED_LITERAL.match(text):
        return result(False, reason="kebab/dotted literal not found as written")
    for word in sorted(CAMEL_WORD.findall(text), key=len, reverse=True):
        if index.contains(word):
            return result(True, f"text (matched word: {word})")
    return result(False, reason="phrase and its longest words not found")


def check(post: Post, context: GateContext) -> Scorecard:
    from pytest_postgates.gates import spec_for

    spec = spec_for(GATE_ID)
    settings = context.settings
    threshold = settings.symbol_grounding_threshold
    tokens = extract_tokens(post, ALLOWLIST | frozenset(settings.symbol_allowlist))
    if not tokens:
        detail = {
            "total": 0,
            "grounded": 0,
            "grounded_pct": 100.0,
            "threshold": threshold,
            "ungrounded": [],
            "note": "no backticked identifiers in prose",
        }
        return spec.card("PASS", detail, summary="no inline code tokens in prose", score=100.0)
    try:
        index = context.evidence.index_for(post.path)
        lint = context.evidence.lint_rules_for(post.path)
    except GitError as exc:
        return spec.card("ERROR", {"error": str(exc)}, summary=str(exc))
    prefix = settings.lint_rule_prefix if lint is not None else None
    verdicts = [verify(token, classify(token.text, prefix), index, lint) for token in tokens]
    grounded = sum(v.grounded for v in verdicts)
    total = len(verdicts)
    pct = round(grounded / total * 1000) / 10
    ungrounded = [v for v in verdicts if not v.grounded]
    verdict = "PASS" if pct >= threshold else "FAIL"
    detail = {
        "total": total,
        "grounded": grounded,
        "grounded_pct": pct,
        "threshold": threshold,
        "ref": settings.ref,
        "ungrounded": [v.to_dict() for v in ungrounded[:MAX_REPORT]],
    }
    if lint is not None:
        detail["lint_rules"] = [rule.name for rule in lint.rules]
    findings = [
        Finding(
            v.line,
            "UNGROUNDED",
            f"`{v.token}` ({v.kind}): {v.reason}",
            "not a real repo symbol: remove it, replace it with a real one, "
            "or move the example into a fenced code block",
        )
        for v in ungrounded
    ]
    comparison = ">=" if verdict == "PASS" else "<"
    summary = f"{grounded}/{total} tokens grounded ({pct}% {comparison} {threshold}%)"
    return spec.card(verdict, detail, findings, summary, pct)


def rescore(card: Scorecard, kept: list[Finding]) -> Scorecard:
    """Suppressed tokens leave the count; the share is computed over the rest."""
    from dataclasses import replace

    if "ungrounded" not in card.detail:
        return card
    suppressed = len(card.detail.get("suppressed", []))
    total = card.detail["total"] - suppressed
    grounded = card.detail["grounded"]
    pct = round(grounded / total * 1000) / 10 if total else 100.0
    threshold = card.detail["threshold"]
    verdict = "PASS" if pct >= threshold else "FAIL"
    # Suppression is by line, so the tokens left are those on lines still holding findings.
    kept_lines = {f.line for f in kept if f.code == "UNGROUNDED"}
    detail = dict(card.detail)
    detail.update(
        total=total,
        grounded_pct=pct,
        ungrounded=[u for u in detail["ungrounded"] if u["line"] in kept_lines],
    )
    comparison = ">=" if verdict == "PASS" else "<"
    summary = (
        f"{grounded}/{total} tokens grounded ({pct}% {comparison} {threshold}%), after suppression"
    )
    return replace(card, verdict=verdict, detail=detail, summary=summary, score=pct)


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """The result depends on the post, the settings and the grounding commit."""
    from pytest_postgates.gates import commit_inputs

    return commit_inputs(post_path, context)
