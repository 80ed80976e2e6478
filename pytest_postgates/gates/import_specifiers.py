"""Gate 14, import_specifiers (hard): code samples import the real package and real subpaths.

Symbol grounding skips fenced code by design, so a sample importing ``@neurolink/sdk``
three times sailed through it. This gate reads the fences a reader would copy: every
import/require/dynamic import/re-export specifier in JavaScript and TypeScript fences and
every package of an npm/pnpm/yarn/bun install in shell fences. Specifiers that match the
product pattern must be the published package name, and a subpath must resolve through
the package's ``exports`` map read from ``package.json`` at the configured ref, the way
Node resolves it.
"""

from __future__ import annotations

import json
import re
import shlex
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
from pytest_postgates.scan import ImportFrom, Scanner
from pytest_postgates.scorecard import Finding

if TYPE_CHECKING:
    from pytest_postgates.post import Fence, Post

CODE_LANGS = frozenset(
    {"js", "javascript", "jsx", "mjs", "cjs", "ts", "typescript", "tsx", "mts", "cts"}
)
SHELL_LANGS = frozenset({"bash", "sh", "shell", "console", "zsh", "shell-session", "terminal"})
LOCAL = re.compile(r"^(?:\.{1,2}/|/|@/|~/|#)")
_Q = r"""(['"`])([^'"`\n]+)\1"""
IMPORT_PATTERNS: tuple[tuple[str, re.Pattern[str] | Scanner], ...] = (
    # `import x from 'y'`, `import type { T } from 'y'`, `import * as x from 'y'` (multi-line)
    # (scanned in linear time: as regexes, a line of ``import`` without a quote took minutes)
    (
        "import",
        ImportFrom(
            rf"\bimport\b(?!\s*\()[^'\"`;]*?\bfrom\s*{_Q}", re.compile(r"\bimport\b(?!\s*\()")
        ),
    ),
    ("export", ImportFrom(rf"\bexport\b[^'\"`;]*?\bfrom\s*{_Q}", re.compile(r"\bexport\b"))),
    ("side-effect", re.compile(rf"\bimport\s*{_Q}")),
    ("dynamic", re.compile(rf"\bimport\s*\(\s*{_Q}")),
    ("require", re.compile(rf"\brequire\s*\(\s*{_Q}\s*\)")),
)
INSTALL = re.compile(
    r"^(npm\s+(?:i|install|add)|pnpm\s+(?:add|i|install)|yarn\s+(?:global\s+)?add"
    r"|bun\s+(?:add|i|install))(?:\s+(.*))?$"
)
# \s*(?:&&|\|\||;|\|)\s* without re-reading a run of spaces from each of its positions (the
# same splits: only a whole run of spaces can lead to a separator).
COMMAND_SEPARATOR = re.compile(r"(?:(?<!\s)\s+)?(?:&&|\|\||;|\|)\s*")
PROMPT = re.compile(r"^(?:\$|>|#|%)\s+|^sudo\s+")
SHELL_STOP = frozenset({"&&", "||", ";", "|", "&", ">", ">>", "2>", "<"})
# Flags that take a value, so the value is not a package name.
FLAGS_WITH_VALUE = frozenset(
    {"--registry", "--prefix", "--tag", "--filter", "-w", "--workspace", "--cwd", "--dir", "-C"}
)


@dataclass(frozen=True)
class Specifier:
    line: int
    text: str
    kind: str


def _looks_like_code(content: str) -> bool:
    return bool(re.search(r"\b(import|export|require|const|let|function)\b", content))


def _fence_kind(fence: Fence) -> str | None:
    lang = fence.lang
    if lang in CODE_LANGS:
        return "code"
    if lang in SHELL_LANGS:
        return "shell"
    if lang == "":
        # Untagged blocks: shell when they hold an install command, code when they read
        # as JavaScript.
        if INSTALL.search(fence.content) or any(
            INSTALL.search(line) for line in fence.content.splitlines()
        ):
            return "shell"
        return "code" if _looks_like_code(fence.content) else None
    return None


def extract_specifiers(post: Post) -> list[Specifier]:
    found: list[Specifier] = []
    for fence in post.fences:
        kind = _fence_kind(fence)
        if kind is None:
            continue
        first = fence.start_line + 1
        if kind == "code":
            taken: set[int] = set()
            for name, pattern in IMPORT_PATTERNS:
                for match in pattern.finditer(fence.content):
                    start = match.start(2)
                    if start in taken:
                        continue
                    taken.add(start)
                    line = first + fence.content.count("\n", 0, start)
                    found.append(Specifier(line, match.group(2), name))
        else:
            for offset, line_text in enumerate(fence.content.splitlines()):
                found.extend(
                    Specifier(first + offset, pkg, "install") for pkg in install_packages(line_text)
                )
    return sorted(found, key=lambda s: (s.line, s.text))


def install_packages(line: str) -> list[str]:
    """Package names (versions stripped) of the install commands on one shell line."""
    packages: list[str] = []
    for segment in COMMAND_SEPARATOR.split(line.strip()):
        while PROMPT.match(segment):
            segment = PROMPT.sub("", segment, count=1)
        match = INSTALL.match(segment)
        if match is None:
            continue
        try:
            words = shlex.split(match.group(2) or "", comments=True)
        except ValueError:
            words = (match.group(2) or "").split()
        skip_next = False
        for word in words:
            if skip_next:
                skip_next = False
                continue
            if word in SHELL_STOP:
                break
            if word.startswith("-"):
                skip_next = word in FLAGS_WITH_VALUE
                continue
            packages.append(strip_version(word))
    return packages


def strip_version(word: str) -> str:
    """``pkg@latest`` -> ``pkg``; ``@scope/pkg@^1.2`` -> ``@scope/pkg``."""
    if word.startswith("@"):
        at = word.find("@", 1)
        return word if at < 0 else word[:at]
    return word.split("@", 1)[0]


def product_pattern(package: str) -> str:
    """The default product pattern: the unscoped package name, any case (the seeds use
    /neurolink/i for @juspay/neurolink)."""
    return re.escape(package.rsplit("/", 1)[-1])


# ---------------------------------------------------------------- Node's exports map


def _target_exported(target: Any) -> bool:
    """A target is exported unless it is null (or every alternative/condition is)."""
    if target is None:
        return False
    if isinstance(target, list):
        return any(_target_exported(item) for item in target)
    if isinstance(target, dict):
        return any(_target_exported(value) for value in target.values())
    return isinstance(target, str)


def subpath_map(exports: Any) -> dict[str, Any]:
    """The exports field as ``{"./sub": target}`` (sugar forms expanded)."""
    if isinstance(exports, (str, list)):
        return {".": exports}
    if isinstance(exports, dict):
        if exports and all(not key.startswith(".") for key in exports):
            return {".": exports}  # a conditions object for the main entry only
        return {key: value for key, value in exports.items() if key.startswith(".")}
    return {}


def _pattern_order(key: str) -> tuple[int, int]:
    # Node's PATTERN_KEY_COMPARE: longer prefix before "*" first, then longer key.
    star = key.index("*")
    return (-(star + 1), -len(key))


def resolves(subpath: str, exports: Any) -> bool:
    """Whether ``./subpath`` is exported by this ``exports`` value, as Node resolves it:
    an exact key first, else the most specific ``*`` pattern; a null target excludes."""
    mapping = subpath_map(exports)
    request = "./" + subpath
    if request in mapping and "*" not in request:
        return _target_exported(mapping[request])
    for key in sorted((k for k in mapping if k.count("*") == 1), key=_pattern_order):
        prefix, suffix = key.split("*")
        if request.startswith(prefix) and request.endswith(suffix) and len(request) >= len(key) - 1:
            return _target_exported(mapping[key])
    # Legacy folder mappings ("./feature/": "./dist/feature/").
    for key in sorted((k for k in mapping if k.endswith("/")), key=len, reverse=True):
        if request.startswith(key):
            return _target_exported(mapping[key])
    return False


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    specifiers = extract_specifiers(post)
    if not specifiers:
        detail = {
            "violations": [],
            "package": settings.package,
            "ref": settings.ref,
            "exports_checked": False,
            "specifiers": 0,
            "judged": 0,
        }
        return CheckResult([], detail)
    try:
        index = context.evidence.index_for(post.path)
    except GitError as exc:
        raise CannotJudge("ERROR", str(exc)) from None
    raw = index.file_text("package.json")
    manifest: dict[str, Any] = {}
    if raw is not None:
        try:
            loaded = json.loads(raw)
            manifest = loaded if isinstance(loaded, dict) else {}
        except ValueError:
            message = f"package.json at {settings.ref} is not valid JSON"
            raise CannotJudge("ERROR", message) from None
    # package.json's name, else the repository's own (pyproject.toml) name.
    package = (
        settings.package
        or manifest.get("name")
        or context.evidence.for_post(post.path).package_name
    )
    if not isinstance(package, str) or not package:
        message = (
            f"no package name: set 'package' or add package.json with a name at {settings.ref}"
        )
        raise CannotJudge("ERROR", message)
    pattern = re.compile(settings.product_pattern or product_pattern(package), re.IGNORECASE)
    has_exports = "exports" in manifest
    exports = manifest.get("exports")
    violations: list[dict[str, Any]] = []
    judged = 0
    for item in specifiers:
        text = item.text
        if LOCAL.match(text) or not pattern.search(text):
            continue
        judged += 1
        reason = _classify(text, item.kind, package, has_exports, exports, index)
        if reason:
            violations.append(
                {"line": item.line, "specifier": text, "kind": item.kind, "reason": reason}
            )
    detail = {
        "violations": violations,
        "package": package,
        "ref": settings.ref,
        "exports_checked": has_exports,
        "specifiers": len(specifiers),
        "judged": judged,
    }
    fix = f"import from {package} itself or a subpath its exports map lists (at {settings.ref})"
    findings = [
        Finding(v["line"], "BAD_SPECIFIER", f"{v['kind']} '{v['specifier']}': {v['reason']}", fix)
        for v in violations
    ]
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: Settings) -> Decision:
    detail, findings = result.detail, result.findings
    if not detail["specifiers"]:
        return Decision("PASS", "no import or install specifiers in code fences")
    summary = (
        f"{len(findings)} bad specifier(s) of {detail['judged']} checked"
        if findings
        else f"{detail['judged']} product specifier(s) checked"
    )
    return Decision("FAIL" if findings else "PASS", summary, len(findings))


def _classify(
    text: str, kind: str, package: str, has_exports: bool, exports: Any, index: Any
) -> str | None:
    if text == package:
        return None
    if kind != "install" and text.startswith(package + "/"):
        subpath = text[len(package) + 1 :]
        if has_exports:
            if resolves(subpath, exports):
                return None
            return f'subpath "./{subpath}" is not in {package}\'s exports map'
        # No exports field: Node resolves deep imports to files of the package.
        for candidate in (
            subpath,
            *(subpath + ext for ext in (".js", ".json", ".mjs", ".cjs", "/index.js")),
        ):
            if index.match_path(candidate) == candidate:
                return None
        return f'subpath "{subpath}" is not a file of {package} (it has no exports map)'
    return f'package "{text}" does not exist; the product is published as {package}'


GATE = Gate(
    id=14,
    name="import_specifiers",
    advisory=False,
    kind="hard",
    description="Code samples import the real package and exported subpaths.",
    check=check,
    decide=decide,
    cache_inputs=commit_inputs,
)
