"""Gate 14, import_specifiers (hard): code samples import the real package and real subpaths.

Symbol grounding skips fenced code by design, so a sample importing ``@neurolink/sdk``
three times sailed through it. This gate reads the fences a reader would copy: every
import/require/dynamic import/re-export specifier in JavaScript and TypeScript fences and
every package of an npm/pnpm/yarn/bun install in shell fences. Specifiers that match the
product pattern must be the published package name, and the specifier (bare name or
subpath) must resolve the way Node resolves it with the conditions of its import kind:
through the ``exports`` map of ``package.json`` at the configured ref, else the legacy
lookup of the files tracked there (``pytest_postgates.evidence.resolution``).
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates.config import option
from pytest_postgates.evidence import GitError, exports, resolution, workspaces
from pytest_postgates.evidence.reexports import package_root
from pytest_postgates.gates.base import (
    CannotJudge,
    CheckResult,
    Decision,
    Gate,
    GateContext,
    commit_inputs,
)
from pytest_postgates.helpers.attribution_rules import products_address
from pytest_postgates.scan import Scanner
from pytest_postgates.scan_code import ImportFrom
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
# ``import type ...`` and ``export type ...`` (not ``import typeA from``); read from a match.
TYPE_ONLY = re.compile(r"(?:import|export)\s+type\b(?!\s*(?:from\b|,|=))")
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
    type_only: bool = False  # ``import type`` / ``export type``: resolved with "types" too


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
                    written = match.group(2)
                    if start in taken or written is None:
                        continue
                    taken.add(start)
                    line = first + fence.content.count("\n", 0, start)
                    type_only = TYPE_ONLY.match(match.group(0) or "") is not None
                    found.append(Specifier(line, written, name, type_only))
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


def check(post: Post, context: GateContext) -> CheckResult:
    settings = context.settings
    specifiers = extract_specifiers(post)
    if not specifiers:
        detail: dict[str, Any] = {
            "violations": [],
            "unjudged": [],
            "resolved": [],
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
    files = resolution.IndexFiles(index)
    try:
        found = resolution.read_manifest(files)
    except ValueError:
        message = f"package.json at {settings.ref} is not valid JSON"
        raise CannotJudge("ERROR", message) from None
    manifest: dict[str, Any] = found or {}
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
    own = settings.for_gate(ImportSpecifiersSettings)
    pattern = re.compile(own.product_pattern or product_pattern(package), re.IGNORECASE)
    # A monorepo publishes more than one package (``jest`` and ``@jest/globals`` from
    # packages/*): a specifier of any of the product's packages is resolved in that
    # package's own folder, with its own manifest.
    sites = workspaces.product_packages_of(index)
    home = sites.get(package)
    judge = (
        _Judge(
            package, home.manifest, True, resolution.IndexFiles(index, home.folder), settings.ref
        )
        if home is not None
        else _Judge(package, manifest, found is not None, files, settings.ref)
    )
    siblings: dict[str, _Judge] = {package: judge}
    elsewhere = _linked_elsewhere(post.text, {package, *sites})
    violations: list[dict[str, Any]] = []
    unjudged: list[dict[str, Any]] = []
    resolved: list[dict[str, Any]] = []
    judged = 0
    for item in specifiers:
        text = item.text
        if LOCAL.match(text) or not pattern.search(text):
            continue
        judged += 1
        where = {"line": item.line, "specifier": text, "kind": item.kind}
        named = package_root(text)
        site = sites.get(named)
        if site is not None and named not in siblings:
            site_files = resolution.IndexFiles(index, site.folder)
            siblings[named] = _Judge(named, site.manifest, True, site_files, settings.ref)
        outcome = siblings.get(named, judge).judge(item)
        if isinstance(outcome, _Violation) and outcome.code == "UNKNOWN_PACKAGE":
            url = elsewhere.get(named)
            if url is not None:
                outcome = _Unjudged(
                    f"the page links {named} to {url}, another project's: its package, "
                    "which this repository cannot judge"
                )
        if isinstance(outcome, _Violation):
            violations.append({**where, "reason": outcome.reason, "code": outcome.code})
        elif isinstance(outcome, _Unjudged):
            unjudged.append({**where, "reason": outcome.reason})
        elif outcome is not None:
            resolved.append({**where, "target": outcome.target, "via": outcome.via})
    detail = {
        "violations": violations,
        "unjudged": unjudged,
        "resolved": resolved,
        "package": package,
        "ref": settings.ref,
        "exports_checked": judge.has_exports,
        "specifiers": len(specifiers),
        "judged": judged,
    }
    fix = f"import from {package} itself or a subpath its exports map lists (at {settings.ref})"
    findings = [
        Finding(
            v["line"],
            "BAD_SPECIFIER",
            f"{v['kind']} '{v['specifier']}': {v['reason']}",
            fix + judge.suggestion(v["specifier"]),
        )
        for v in violations
    ]
    return CheckResult(findings, detail)


def decide(result: CheckResult, settings: ImportSpecifiersSettings) -> Decision:
    detail, findings = result.detail, result.findings
    if not detail["specifiers"]:
        return Decision("PASS", "no import or install specifiers in code fences")
    summary = (
        f"{len(findings)} bad specifier(s) of {detail['judged']} checked"
        if findings
        else f"{detail['judged']} product specifier(s) checked"
    )
    if detail["unjudged"]:
        summary += f", {len(detail['unjudged'])} not judged"
    return Decision("FAIL" if findings else "PASS", summary, len(findings))


@dataclass(frozen=True)
class _Violation:
    code: str
    reason: str


@dataclass(frozen=True)
class _Unjudged:
    reason: str


# package.json fields that name what the published package ships; a folder they name that
# the repository does not track at the ref is a build output (dist/), not a missing file.
_SHIPPED_FIELDS = ("main", "module", "types", "typings", "bin", "files", "browser")


class _Judge:
    """Gate 14's question for one post: is the specifier the product's name, and does
    Node resolve it (``exports`` at the ref, else the legacy lookup of tracked files)?"""

    def __init__(
        self,
        package: str,
        manifest: dict[str, Any],
        has_manifest: bool,
        files: resolution.IndexFiles,
        ref: str,
    ) -> None:
        self.package = package
        self.manifest = manifest
        self.has_manifest = has_manifest
        self.files = files
        self.ref = ref
        self.has_exports = manifest.get("exports") is not None
        self.build_folders = _untracked_shipped_folders(manifest, files)

    def judge(self, item: Specifier) -> exports.Resolution | _Violation | _Unjudged | None:
        text = item.text
        if item.kind == "install" or not (
            text == self.package or text.startswith(self.package + "/")
        ):
            if text == self.package:
                return None
            return _Violation(
                "UNKNOWN_PACKAGE",
                f'package "{text}" does not exist; the product is published as {self.package}',
            )
        if text == self.package and not self.has_manifest:
            return None  # no package.json at the ref: the name is all there is to check
        result = resolution.resolve_specifier(
            self.manifest,
            text,
            item.kind,
            item.type_only,
            self.files,
            package_json=f"{self.package}/package.json at {self.ref}",
        )
        if result.ok:
            return result
        assert result.code is not None
        if not self.has_exports:
            folder = next(
                (
                    f
                    for f in self.build_folders
                    if any(p == f or p.startswith(f + "/") for p in result.looked_up)
                ),
                None,
            )
            if folder is not None:
                return _Unjudged(
                    f"{self.package} has no exports map and this resolves into {folder}/, "
                    f"which package.json ships but the repository does not track at {self.ref} "
                    "(a build output)"
                )
            how = "require" if item.kind == "require" else "import"
            return _Violation(
                result.code, f"{result.code}: {result.message} (no exports map: {how} lookup)"
            )
        tried = ", ".join(result.conditions)
        return _Violation(
            result.code, f"{result.code}: {result.message} (conditions tried: {tried})"
        )

    def suggestion(self, specifier: str) -> str:
        """``; closest exported: ...`` for a subpath of the product the map lacks."""
        if not self.has_exports or not specifier.startswith(self.package + "/"):
            return ""
        value = self.manifest.get("exports")
        try:
            if not isinstance(value, dict) or exports.is_conditions_sugar(value):
                return ""
        except exports.ResolutionError:
            return ""
        exported = [k for k, target in value.items() if k.startswith("./") and target is not None]
        wanted = "./" + specifier[len(self.package) + 1 :]
        first = wanted.split("/")[1]
        close = [k for k in exported if k.split("/")[1].split("*")[0] == first]
        close += difflib.get_close_matches(wanted, exported, n=3, cutoff=0.6)
        names = [self.package + k[1:] for k in dict.fromkeys(close)][:3]
        return f"; closest exported: {', '.join(names)}" if names else ""


# A link whose text is a package name: [`gh-got`](https://github.com/sindresorhus/gh-got).
_PACKAGE_LINK = re.compile(r"\[\s*`?(@?[\w.-]+(?:/[\w.-]+)?)`?\s*\]\((\S+?)\)")


def _linked_elsewhere(text: str, packages: set[str]) -> dict[str, str]:
    """Package name -> the address the page links it to, for each package the page links
    to another project's repository or registry page (not the product's own)."""
    names = frozenset(
        word.lower() for package in packages for word in (package, package.rsplit("/", 1)[-1])
    )
    found: dict[str, str] = {}
    for match in _PACKAGE_LINK.finditer(text):
        label, url = match.group(1), match.group(2)
        if products_address(url, names) is False:
            found.setdefault(label, url)
    return found


def _shipped_paths(manifest: dict[str, Any]) -> list[str]:
    paths: list[str] = []
    for name in _SHIPPED_FIELDS:
        value = manifest.get(name)
        values = (
            value
            if isinstance(value, list)
            else list(value.values())
            if isinstance(value, dict)
            else [value]
        )
        paths.extend(v for v in values if isinstance(v, str))
    return paths


def _untracked_shipped_folders(manifest: dict[str, Any], files: resolution.IndexFiles) -> list[str]:
    folders: list[str] = []
    for path in _shipped_paths(manifest):
        if path.startswith("!") or re.search(r"[*?\[]", path):
            continue
        top = path.removeprefix("./").split("/", 1)[0]
        tracked = files.is_dir(top) or files.is_file(top)
        if top and top not in (".", "..", *folders) and not tracked:
            folders.append(top)
    return folders


def cache_inputs(post_path: Path, context: GateContext) -> str | None:
    """The result depends on the post, the settings, the grounding commit and the
    resolution rules (bumped when they change, so cached verdicts are not reused)."""
    inputs = commit_inputs(post_path, context)
    return None if inputs is None else f"{inputs}|resolution-{exports.RESOLUTION_VERSION}"


@dataclass(frozen=True)
class ImportSpecifiersSettings:
    """Gate 14's settings."""

    product_pattern: str | None = option(
        None,
        "str",
        "regex: specifiers that must be checked",
        shown_default="derived from the package name",
    )


GATE = Gate(
    id=14,
    name="import_specifiers",
    advisory=False,
    kind="hard",
    description="Code samples import the real package and exported subpaths.",
    check=check,
    decide=decide,
    cache_inputs=cache_inputs,
    settings=ImportSpecifiersSettings,
)
