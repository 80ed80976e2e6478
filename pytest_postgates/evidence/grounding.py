"""Evidence for gate 2 beyond the index: more repositories, declared dependencies, what a
post's own fences declare, route templates, member lookups.

Everything here answers from a :class:`RepoIndex` (no git call per token) or from the
post's own text; nothing from a post is ever executed or passed to git.
"""

from __future__ import annotations

import configparser
import json
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from pytest_postgates import held_blocks
from pytest_postgates.evidence.model_facts import is_product_code
from pytest_postgates.evidence.repo import GitError, find_repo_root, resolve_commit

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.post import Post

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): code points a
# renderer draws as nothing unless it supports them, whatever their general category (Hangul
# fillers are letters, U+034F and the variation selectors are marks, U+FFF0-FFF8 unassigned).
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Emoji presentation selectors after a symbol (a heart emoji) change how a visible character
# is drawn, not which name a reader sees; anywhere else they hide inside a name.
_PRESENTATION_SELECTORS = frozenset("\ufe0e\ufe0f")
# Characters that carry a combining mark visibly: letters, digits and other marks.
_MARK_BASES = ("L", "N", "M")


def _default_ignorable(code: int) -> bool:
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def _invisible_at(token: str, position: int, has_base: bool) -> bool:
    """Whether ``token[position]`` draws nothing a reader can see where it stands."""
    char = token[position]
    category = unicodedata.category(char)
    if (
        char in _PRESENTATION_SELECTORS
        and position
        and unicodedata.category(token[position - 1]) == "So"
    ):
        return False
    if category == "Cf" or _default_ignorable(ord(char)):
        return True
    if category == "Cc":  # control characters other than the whitespace a code span may hold
        return char not in "\t\n\r"
    # A combining mark with nothing to combine with (token start, after punctuation or a
    # space) is drawn on nothing or on a dotted circle some renderers omit.
    return category == "Mn" and not has_base


def invisible_characters(token: str) -> list[str]:
    """``U+XXXX`` names of the invisible characters in ``token``, in order, once each.

    Decided by Unicode property, not by a list of known tricks: format characters (Cf: bidi
    marks, zero-width characters, tags, interlinear annotation, musical formatting), every
    default-ignorable code point (joiners, variation selectors, Khmer inherent vowels, Hangul
    fillers), control characters, and combining marks (Mn) with no base to combine with.
    """
    found: list[str] = []
    has_base = False
    for position, char in enumerate(token):
        invisible = _invisible_at(token, position, has_base)
        if invisible:
            name = f"U+{ord(char):04X}"
            if name not in found:
                found.append(name)
        # A mark chains on the base before it; anything else starts or ends a base.
        category = unicodedata.category(char)
        if not (category.startswith("M") and has_base):
            has_base = not invisible and category.startswith(_MARK_BASES)
    return found


# ---------------------------------------------------------------------- repositories


@dataclass(frozen=True)
class NamedIndex:
    """A repository index with the name the scorecard gives it."""

    name: str
    index: RepoIndex


@dataclass
class Dependencies:
    """Package names a repository declares (manifests) or locks (lock files)."""

    names: dict[str, str] = field(default_factory=dict)  # package name -> declaring file
    direct: set[str] = field(default_factory=set)  # declared in a manifest, not only locked
    # Declared as what the product needs to run (not a dev, test or docs tool), by a
    # manifest of the product's own code.
    runtime: set[str] = field(default_factory=set)
    # Of those, what every install of the product has: not an optional extra (pyproject's
    # `optional-dependencies`, package.json's `optionalDependencies`).
    required: set[str] = field(default_factory=set)
    # The version ranges the manifests declare for a name, as written (``>=4.56.2``,
    # ``^1.2.0``; "" for a name declared with none).
    ranges: dict[str, list[str]] = field(default_factory=dict)

    def source(self, name: str) -> str | None:
        return self.names.get(name)


_MANIFEST_FIELDS = (
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundleDependencies",
    "bundledDependencies",
)
# package.json fields of what the package needs at run time.
_RUNTIME_FIELDS = frozenset({"dependencies", "peerDependencies", "optionalDependencies"})
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_PNPM_KEY = re.compile(r"^\s{2,4}'?/?(@?[^@\s'/][^@\s']*(?:/[^@\s']+)?)@", re.M)
_YARN_KEY = re.compile(r'^"?(@?[^@\s",][^@\s",]*(?:/[^@\s",]+)?)@', re.M)


def _skipped(path: str) -> bool:
    return "node_modules/" in path or path.startswith("node_modules")


def dependencies_of(index: RepoIndex) -> Dependencies:
    """Declared and locked package names: package.json dependency fields and lock files,
    pyproject.toml/requirements*.txt, Cargo.toml, in every tracked folder."""
    deps = Dependencies()

    def add(name: str, source: str, declared: str | None = None) -> None:
        base = source.rsplit("/", 1)[-1]
        if base in ("package.json", "pyproject.toml", "Cargo.toml", "setup.cfg") or base.startswith(
            "requirements"
        ):
            deps.direct.add(name)
            deps.names[name] = source  # a manifest is the better citation than a lock file
            if declared is not None:
                deps.ranges.setdefault(name, []).append(declared)
        elif name and name not in deps.names:
            deps.names[name] = source

    for path in index.text_paths:
        if _skipped(path):
            continue
        base = path.rsplit("/", 1)[-1]
        if base not in (
            "package.json",
            "package-lock.json",
            "pnpm-lock.yaml",
            "yarn.lock",
            "pyproject.toml",
            "Cargo.toml",
            "setup.cfg",
        ) and not re.fullmatch(r"requirements[\w.-]*\.txt", base):
            continue
        text = index.file_text(path)
        if text is None:
            continue
        if base == "package.json":
            try:
                manifest = json.loads(text)
            except ValueError:
                continue
            if isinstance(manifest, dict):
                for key in _MANIFEST_FIELDS:
                    value = manifest.get(key)
                    if isinstance(value, (dict, list)):
                        for name in value:
                            spec = value[name] if isinstance(value, dict) else None
                            add(str(name), path, spec if isinstance(spec, str) else None)
                            if key in _RUNTIME_FIELDS and is_product_code(path):
                                deps.runtime.add(str(name))
                                if key != "optionalDependencies":
                                    deps.required.add(str(name))
        elif base == "package-lock.json":
            try:
                lock = json.loads(text)
            except ValueError:
                continue
            packages = lock.get("packages", {}) if isinstance(lock, dict) else {}
            for key in packages if isinstance(packages, dict) else ():
                if "node_modules/" in key:
                    add(key.rsplit("node_modules/", 1)[1], path)
        elif base == "pnpm-lock.yaml":
            for match in _PNPM_KEY.finditer(text):
                add(match.group(1), path)
        elif base == "yarn.lock":
            for match in _YARN_KEY.finditer(text):
                add(match.group(1), path)
        elif base == "pyproject.toml":
            try:
                data = tomllib.loads(text)
            except (ValueError, tomllib.TOMLDecodeError):
                continue
            project = data.get("project", {})
            lines: list[str] = []
            tables = [project] if isinstance(project, dict) else []
            # Dependencies a Hatch metadata hook fills in (`dynamic = ["dependencies"]`).
            hooks = data.get("tool", {}).get("hatch", {}).get("metadata", {}).get("hooks", {})
            tables += [hook for hook in hooks.values() if isinstance(hook, dict)]
            required = [
                d for table in tables for d in table.get("dependencies", []) if isinstance(d, str)
            ]
            lines += required
            for table in tables:
                optional = table.get("optional-dependencies", {})
                if isinstance(optional, dict):
                    for group in optional.values():
                        lines += [d for d in group if isinstance(d, str)]
            poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data, dict) else {}
            if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
                lines += list(poetry["dependencies"])
                required += list(poetry["dependencies"])
            if is_product_code(path):
                runtime = [_REQUIREMENT_NAME.match(line) for line in lines if line != "python"]
                deps.runtime.update(match.group(1) for match in runtime if match)
                needed = [_REQUIREMENT_NAME.match(line) for line in required if line != "python"]
                deps.required.update(match.group(1) for match in needed if match)
            groups = data.get("dependency-groups", {})  # PEP 735
            for group in groups.values() if isinstance(groups, dict) else ():
                lines += [d for d in group if isinstance(d, str)]
            for line in lines:
                requirement = _REQUIREMENT_NAME.match(line)
                if requirement:
                    add(requirement.group(1), path, requirement_range(line))
        elif base == "Cargo.toml":
            try:
                data = tomllib.loads(text)
            except (ValueError, tomllib.TOMLDecodeError):
                continue
            for key in ("dependencies", "dev-dependencies", "build-dependencies"):
                table = data.get(key, {})
                if isinstance(table, dict):
                    for name in table:
                        add(str(name), path)
        elif base == "setup.cfg":
            for name in _setup_cfg_requirements(text):
                add(name, path)
                if is_product_code(path):
                    deps.runtime.add(name)
        else:  # requirements*.txt
            for line in text.splitlines():
                if line.strip().startswith(("#", "-")):
                    continue
                requirement = _REQUIREMENT_NAME.match(line)
                if requirement:
                    add(requirement.group(1), path, requirement_range(line))
    return deps


def requirement_range(line: str) -> str:
    """The version range of a requirement line as written (``transformers[torch]>=4.5;
    python_version>'3.9'`` -> ``>=4.5``): no name, extras, markers or parentheses."""
    match = _REQUIREMENT_NAME.match(line)
    rest = line[match.end() :] if match else line
    rest = re.sub(r"^\s*\[[^\]]*\]", "", rest.split(";", 1)[0].split(" #", 1)[0])
    return rest.strip().strip("()").strip()


def _setup_cfg_requirements(text: str) -> list[str]:
    """The names setuptools' setup.cfg requires (``install_requires``, ``extras_require``)."""
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    lines = parser.get("options", "install_requires", fallback="").splitlines()
    if parser.has_section("options.extras_require"):
        for _extra, value in parser.items("options.extras_require"):
            lines += value.splitlines()
    found = [_REQUIREMENT_NAME.match(line) for line in lines if line.strip()[:1] != "#"]
    return [match.group(1) for match in found if match]


# Scorecards name the repository that grounded a token. Folder names differ between
# clones (a CI checkout, a worktree), so the two unnamed repositories get fixed names after
# the settings that introduce them: the configured ``repo``, and the one holding the posts.
PRIMARY_REPOSITORY = "repo"
POSTS_REPOSITORY = "posts"


def open_extra_repos(
    settings_repos: Iterable[tuple[str, Path | None, str]],
    primary_root: Path,
    post_path: Path,
) -> Iterator[tuple[str, Path, str]]:
    """(name, root, commit) of each more repository to ground against: the configured
    ``repos`` (a missing one is an error: a setting that cannot be honoured is never
    dropped silently), then the git repository holding the post when it is another one
    (none when the post is in no repository). An entry without a path names the
    repository holding the post: it is that one, under its own name, or (the post is in
    no repository) not available, which gate 2 reports token by token."""
    seen = {primary_root.resolve()}
    try:
        holder: Path | None = find_repo_root(post_path.resolve().parent)
    except GitError:
        holder = None
    for name, path, ref in settings_repos:
        if path is None:
            if holder is None or holder.resolve() in seen:
                continue
            path = holder
        try:
            root = find_repo_root(path)
        except GitError as exc:
            raise GitError(f"repos entry {name!r}: {exc}") from None
        try:
            commit = resolve_commit(root, ref)
        except GitError as exc:
            raise GitError(f"repos entry {name!r}: {exc}") from None
        seen.add(root.resolve())
        yield name, root, commit
    if holder is not None and holder.resolve() not in seen:
        yield POSTS_REPOSITORY, holder, resolve_commit(holder, "HEAD")


# ---------------------------------------------------------------------- post definitions

_KEYWORDS = frozenset(
    "if for while switch catch function return await new typeof else do try with elif "
    "def class print lambda super constructor".split()
)
# Each with the words one of which every match holds: a fence holding none of them is not
# searched (the patterns start with optional parts, so the regex engine tries every
# position of the fence; a substring test skips most fences for most patterns).
_DECLARATIONS = (
    (re.compile(r"\b(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)"), ("function",)),
    (re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)"), ("class",)),
    (
        re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]{0,80})?="),
        ("const", "let", "var"),
    ),
    (re.compile(r"\b(?:async\s+)?def\s+([A-Za-z_]\w*)"), ("def",)),
    (
        re.compile(r"\b(?:type|interface|enum|struct|trait)\s+([A-Za-z_]\w*)"),
        ("type", "interface", "enum", "struct", "trait"),
    ),
    (re.compile(r"\b(?:func|fn)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)"), ("func", "fn")),
    # Python/shell top level
    (re.compile(r"^([A-Za-z_]\w*)\s*(?::[^=\n]{0,80})?=(?!=)", re.M), ("=",)),
)
# A method of a class body: `name(args) {` or `async name(args): T {` at a line start.
_METHOD = re.compile(
    r"^\s*(?:(?:public|private|protected|static|async|readonly|override)\s+)*"
    r"([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?::\s*[^{;=]{1,120})?\{",
    re.M,
)
_CLASS_BLOCK = re.compile(r"\bclass\s+([A-Za-z_$][\w$]*)[^{]*\{")
_DATA_KEY = re.compile(r"""^\s*(?:-\s+)?["']?([A-Za-z_$][\w$.-]*)["']?\s*:""", re.M)
_IMPORT_NAMES = re.compile(
    r"""\bimport\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*['"]([^'"]+)['"]"""
)
_REQUIRE_NAMES = re.compile(
    r"""\b(?:const|let|var)\s+\{([^}]*)\}\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)"""
)
# Names a sample gives to its own things: the value of a naming key (`name: "x"`,
# `toolName: 'x'`, `collections: ["a", "b"]`), a tool defined as an object key
# (`lookup: tool({`), a route the sample registers (`app.get("/health", ...)`). The values
# of keys such as `model` or `provider` are never among them: those name the product's.
_NAMING_KEY = re.compile(
    r"""\b(?:name|id|toolName|tool|tools|collection|collections|index|indexName|namespace"""
    r"""|dangerousActions|serverId|serverName|sessionId|userId|label|event|eventName|channel"""
    r"""|queue|topic|bucket|table)\s*[:=]\s*(\[[^\]]*\]|(['"`])[^'"`\n]+\2)"""
)
_STRING = re.compile(r"""(['"`])([^'"`\n]+)\1""")
_TOOL_KEY = re.compile(
    r"""^\s*["']?([A-Za-z_$][\w$-]*)["']?\s*:\s*(?:(?:create|define)?[Tt]ool\s*\(|\{\s*\}?,?\s*$"""
    r"""|\{\s*description\b)""",
    re.M,
)
_ROUTE_REGISTRATION = re.compile(
    r"""\.(?:get|post|put|patch|delete|all|use|route|head|options)\(\s*(['"`])(/[^'"`\n]*)\1"""
)
# A server, tool, agent or handler the sample registers under a name it chooses
# (`registry.registerServer("erp-connector", {...})`).
_NAMED_REGISTRATION = re.compile(
    r"""\.register(?:Server|Tool|Agent|Workflow|Handler)\(\s*(['"`])([^'"`\n]+)\1"""
)
DATA_LANGS = frozenset({"json", "jsonc", "json5", "yaml", "yml", "toml"})
PYTHON_LANGS = frozenset({"py", "python", "python3", "pycon", "ipython"})
_PY_DEF = re.compile(r"\bdef\s+[A-Za-z_]\w*\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_PY_CLASS = re.compile(r"^(\s*)class\s+[A-Za-z_]\w*[^\n]*:\s*$", re.M)
_PY_FIELD = re.compile(r"^(\s+)([A-Za-z_]\w*)\s*(?::|=(?!=))")
_PY_BOUND = re.compile(r"\b(?:for|as)\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)")


def python_sample_names(content: str) -> set[str]:
    """Names a Python sample gives its own things beyond top-level assignments: the
    parameters of the functions it defines, the fields of the classes it defines (`pet_type:
    Literal["cat"]`), and loop and `with`/`except` targets."""
    content = re.sub(r"^(?:>>>|\.\.\.) ?", "", content, flags=re.M)  # a REPL session
    names: set[str] = set()
    for match in _PY_DEF.finditer(content):
        for parameter in match.group(1).split(","):
            name = parameter.strip().lstrip("*").split(":")[0].split("=")[0].strip()
            if name.isidentifier() and name not in ("self", "cls"):
                names.add(name)
    for match in _PY_CLASS.finditer(content):
        indent, body = len(match.group(1)), -1
        for line in content[match.end() :].splitlines()[1:]:
            depth = len(line) - len(line.lstrip())
            if line.strip() and depth <= indent:
                break  # the class body ended
            if line.strip() and body < 0:
                body = depth
            field = _PY_FIELD.match(line)
            if field and depth == body:  # a field of the class, not a line of a method
                names.add(field.group(2))
    for match in _PY_BOUND.finditer(content):
        names.update(part.strip() for part in match.group(1).split(","))
    return names - _KEYWORDS


@dataclass(frozen=True)
class PostDefinitions:
    """Names the post's own fences declare, and names its fences import from the product
    (which the post presents as the product's API, so they are never 'defined' by it)."""

    declared: dict[str, int]  # name -> file line of the fence that declares it
    product_imports: frozenset[str]
    # Methods declared inside a fenced class that re-sketches a real repository class:
    # claims about that class, never the post's own definitions.
    sketched_members: frozenset[str]


def _class_bodies(content: str) -> Iterator[tuple[str, str]]:
    """(class name, body text) for each class block, by brace matching."""
    for match in _CLASS_BLOCK.finditer(content):
        depth, start = 1, match.end()
        index = start
        while index < len(content) and depth:
            char = content[index]
            depth += char == "{"
            depth -= char == "}"
            index += 1
        yield match.group(1), content[start:index]


_FIRST_COMMENT = re.compile(r"^\s*(?://|#|/\*+|\*|<!--)\s*(.*)$")
_FILE_NAME = re.compile(r"[\w./@-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|cs)\b")


def quoted_source_file(content: str) -> list[str]:
    """File names the fence's first line names when it is a comment (`// From x.ts`,
    `# src/app.py`): a fence that says where it is quoted from."""
    for line in content.splitlines():
        if not line.strip():
            continue
        comment = _FIRST_COMMENT.match(line)
        return _FILE_NAME.findall(comment.group(1)) if comment else []
    return []


def post_definitions(
    post: Post,
    product_names: Iterable[str],
    is_repo_class: object = None,
    is_repo_file: object = None,
    is_product_package: Callable[[str], bool] | None = None,
) -> PostDefinitions:
    """Scan every fence of the post for declarations (see the module docstring of gate 2
    for the rule); ``is_repo_class(name) -> bool`` says whether a class name is a real
    class of the repository (its fenced re-sketch then declares nothing), and
    ``is_repo_file(name) -> bool`` whether a file name is the repository's (a fence that
    says it is quoted from one is the product's code: it declares nothing either);
    ``is_product_package(specifier)`` whether an import specifier is the product's beyond
    its names (a package the repository publishes)."""
    products = tuple(name.lower() for name in product_names if name)
    declared: dict[str, int] = {}
    imported: set[str] = set()
    sketched: set[str] = set()

    def is_product(specifier: str) -> bool:
        lowered = specifier.lower()
        if any(lowered == p or lowered.startswith(p + "/") for p in products):
            return True
        return is_product_package is not None and is_product_package(specifier)

    # Indented code blocks are samples too (DRF's and many MkDocs sites' only kind).
    for fence in held_blocks.code_blocks(post):
        content = fence.content
        if callable(is_repo_file) and any(is_repo_file(n) for n in quoted_source_file(content)):
            continue
        if fence.lang in DATA_LANGS:
            for match in _DATA_KEY.finditer(content):
                for part in match.group(1).split("."):
                    declared.setdefault(part, fence.start_line)
            continue
        for match in _NAMING_KEY.finditer(content):
            for literal in _STRING.finditer(match.group(1)):
                declared.setdefault(literal.group(2), fence.start_line)
        for pattern in (_TOOL_KEY, _ROUTE_REGISTRATION, _NAMED_REGISTRATION):
            for match in pattern.finditer(content):
                declared.setdefault(match.group(match.lastindex or 1), fence.start_line)
        for pattern, needs in _DECLARATIONS:
            if not any(word in content for word in needs):
                continue
            for match in pattern.finditer(content):
                name = match.group(1)
                if name not in _KEYWORDS:
                    declared.setdefault(name, fence.start_line)
        for match in _METHOD.finditer(content):
            name = match.group(1)
            if name not in _KEYWORDS:
                declared.setdefault(name, fence.start_line)
        if fence.lang in PYTHON_LANGS:
            for name in python_sample_names(content):
                declared.setdefault(name, fence.start_line)
        for match in _IMPORT_NAMES.finditer(content) if "import" in content else ():
            if is_product(match.group(3)):
                names = [match.group(1) or "", *(match.group(2) or "").split(",")]
                for name in names:
                    name = name.strip().split(" as ")[-1].strip()
                    if name:
                        imported.add(name)
        for match in _REQUIRE_NAMES.finditer(content) if "require" in content else ():
            if is_product(match.group(2)):
                for name in match.group(1).split(","):
                    name = name.strip().split(":")[-1].strip()
                    if name:
                        imported.add(name)
        if callable(is_repo_class) and "class" in content:
            for class_name, body in _class_bodies(content):
                if is_repo_class(class_name):
                    sketched.add(class_name)
                    sketched.update(m.group(1) for m in _METHOD.finditer(body))
    for name in imported | sketched:
        declared.pop(name, None)
    return PostDefinitions(declared, frozenset(imported), frozenset(sketched))


# ---------------------------------------------------------------------- route templates

# `{id}`, `:id`, `<id>`, `${id}`, `[id]` (Next.js): a parameter segment in any of the forms.
_PARAM = re.compile(r"\$\{[^}]*\}|\{[^}/]*\}|<[^>/]*>|\[[^\]/]*\]|(?<=/):[A-Za-z_]\w*")
_ANY_PARAM = r"(?:\$\{[^}\n]*\}|\{[^}/\n]*\}|<[^>/\n]*>|\[[^\]/\n]*\]|:[A-Za-z_]\w*|\*)"


def is_route_template(token: str) -> bool:
    return "/" in token and _PARAM.search(token) is not None


def route_pattern(token: str) -> re.Pattern[bytes] | None:
    """A pattern matching the route in any parameter notation; None when no static part
    is left to anchor it (a template of parameters only claims nothing checkable)."""
    parts = _PARAM.split(token)
    if not any(re.search(r"[A-Za-z][A-Za-z0-9]", part) for part in parts):
        return None
    body = _ANY_PARAM.join(re.escape(part) for part in parts)
    return re.compile(body.encode("utf-8"))


def route_anchor_words(token: str) -> list[bytes]:
    """The static words of a template, longest first (they pick the files to scan)."""
    words = re.findall(r"[A-Za-z0-9_]{3,}", _PARAM.sub(" ", token))
    return sorted({w.encode() for w in words}, key=len, reverse=True)


def find_route(index: RepoIndex, token: str) -> str | None:
    """The first tracked file holding the route in some parameter notation."""
    pattern = route_pattern(token)
    if pattern is None:
        return None
    anchors = route_anchor_words(token)
    files: set[int] | None = None
    for word in anchors[:2]:
        word_files = index.files_with_word(word)
        if not word_files:
            # Inner words are whole words: a static word that is no word at all rules
            # the route out (an edge word may be a part of one; leave those to the scan).
            return None
        files = word_files if files is None else files & word_files
    if files is None:
        return None
    for file_id in sorted(files):
        if index.search_file(pattern, file_id):
            return index.text_paths[file_id]
    return None


# Kinds of token that name code, and files that hold prose, not code: documentation,
# READMEs, plain text. Prose is never evidence for a code name (DESIGN.md).
CODE_KINDS = frozenset({"symbol", "phrase", "flag"})
PROSE_SUFFIXES = frozenset({".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc"})


def is_prose(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in PROSE_SUFFIXES


def code_evidence(index: RepoIndex, token: str, where: str) -> bool:
    """Whether a text grounding of ``token`` rests on something other than prose: the file
    it was found in, or (found as text) any file holding it that is not prose; git
    objects, commit messages and the CHANGELOG keep the rules they have."""
    if index.is_file(where):
        return not is_prose(where)
    if where != "text" or not index.contains(token):
        return True  # not found as written: a rule grounded its parts (a key, a callee)
    return any(not is_prose(path) for path, _ in index.files_containing(token, limit=256))
