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
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import Settings
from pytest_postgates.evidence import GitError
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


def check(post: Post, context: GateContext) -> CheckResult:
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
        return CheckResult([], detail)
    try:
        index = context.evidence.index_for(post.path)
        lint = context.evidence.lint_rules_for(post.path)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    prefix = settings.lint_rule_prefix if lint is not None else None
    verdicts = [verify(token, classify(token.text, prefix), index, lint) for token in tokens]
    grounded = sum(v.grounded for v in verdicts)
    total = len(verdicts)
    pct = round(grounded / total * 1000) / 10
    ungrounded = [v for v in verdicts if not v.grounded]
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
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: Settings) -> Decision:
    """The grounded share of the tokens left: one UNGROUNDED finding per ungrounded token,
    so suppressed tokens leave the count and the share is computed over the rest."""
    detail = result.detail
    if not detail["total"]:
        return Decision("PASS", "no inline code tokens in prose", 100.0)
    kept = [f for f in result.findings if f.code == "UNGROUNDED"]
    grounded = detail["grounded"]
    total = grounded + len(kept)
    pct = round(grounded / total * 1000) / 10 if total else 100.0
    threshold = detail["threshold"]
    verdict = "PASS" if pct >= threshold else "FAIL"
    # Suppression is by line, so the tokens left are those on lines still holding findings.
    kept_lines = {f.line for f in kept}
    detail = dict(detail)
    detail.update(
        total=total,
        grounded_pct=pct,
        ungrounded=[u for u in detail["ungrounded"] if u["line"] in kept_lines],
    )
    comparison = ">=" if verdict == "PASS" else "<"
    summary = f"{grounded}/{total} tokens grounded ({pct}% {comparison} {threshold}%)"
    return Decision(verdict, summary, pct, detail)


GATE = Gate(
    id=2,
    name="symbol_grounding",
    advisory=False,
    kind="hard",
    description="Inline code in prose names real repository symbols, files and rules.",
    check=check,
    decide=decide,
    cache_inputs=commit_inputs,
)
