"""Repo-map slices: the definitions of the repository a post is about, cut to a budget.

The judged and model gates (claim review, HHEM, the rubric's technical-accuracy axis)
compare a post with the code. Whole files are too large for a prompt or an NLI premise,
so the evidence is a map in Aider's sense: per file, the definitions (functions, classes,
methods, interfaces, types, exported constants) with their signatures and lines, as
tree-sitter-language-pack parses them from TypeScript, JavaScript (``.js``, ``.mjs`` and
``.cjs``: CommonJS ``module.exports`` is read too, the seeds' blind spot) and Python.

The map is built once per commit from the repository index (the same files, the same
commit) and cached on disk, keyed by commit, map version, grammar version and the list
of source files; xdist workers and later runs load it. A post's slice holds the files
named in its front matter ``anchor_paths`` and then the files that define the post's
grounded tokens, cut to ``repomap_budget`` characters.

tree-sitter-language-pack 1.x fetches grammars from the network on first use, which a
test run must never do; when no grammar can be loaded (the package is absent, or it
would have to download) the slice falls back to the raw text of the anchor files and
says so.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_postgates import signing
from pytest_postgates.evidence.index import RepoIndex
from pytest_postgates.fileio import locked, write_atomic
from pytest_postgates.helpers.tokens import ALLOWLIST, extract_tokens

if TYPE_CHECKING:
    from pytest_postgates.post import Post

REPOMAP_VERSION = 1
LANGUAGES = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".py": "python",
    ".pyi": "python",
}
# The interpreters a script without a suffix names in its shebang (`#!/usr/bin/env node`,
# `#!/usr/bin/python3`), and the language each runs.
_SHEBANG = re.compile(
    r"#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?(nodejs|node|ts-node|python(?:\d+(?:\.\d+)*)?)(?:\s|$)"
)
_INTERPRETERS = {"node": "javascript", "nodejs": "javascript", "ts-node": "typescript"}


def source_language(path: str, text: str | None = None) -> str | None:
    """The language of a source file: its suffix's (:data:`LANGUAGES`), else, for a file
    without a suffix (a package.json ``bin`` such as ``bin/cli``), its shebang's, read from
    ``text`` (None: not a source file the map and the model read)."""
    name = path.rsplit("/", 1)[-1]
    language = LANGUAGES.get(Path(name).suffix.lower())
    if language is not None or "." in name or not text or not text.startswith("#!"):
        return language
    match = _SHEBANG.match(text[:200].split("\n", 1)[0])
    if match is None:
        return None
    interpreter = match.group(1)
    return "python" if interpreter.startswith("python") else _INTERPRETERS[interpreter]


def may_be_script(path: str) -> bool:
    """Whether ``path`` may be a source file by its name alone: a suffix of
    :data:`LANGUAGES`, or no suffix (then its shebang tells, :func:`source_language`)."""
    name = path.rsplit("/", 1)[-1]
    return Path(name).suffix.lower() in LANGUAGES or "." not in name


# Minified bundles and generated files are not what a post describes.
MAX_SOURCE_CHARS = 512 * 1024
SIGNATURE_LIMIT = 160
CONSTANT_LIMIT = 100
# A token defined in more files than this names nothing specific (``check``, ``run``).
MAX_FILES_PER_TOKEN = 3
MIN_PARTIAL_SECTION = 120
_SCREAMING = re.compile(r"^[A-Z][A-Z0-9_]*$")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")

_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
_CLASS_VALUES = frozenset({"class", "class_expression"})


@dataclass(frozen=True)
class Definition:
    path: str
    line: int
    kind: str  # function | class | method | constant | interface | type | enum
    name: str
    signature: str
    container: str = ""  # the class (or "module.exports") a method belongs to

    def to_list(self) -> list[Any]:
        return [self.line, self.kind, self.name, self.signature, self.container]

    @classmethod
    def from_list(cls, path: str, row: list[Any]) -> Definition:
        line, kind, name, signature, container = row
        return cls(path, int(line), str(kind), str(name), str(signature), str(container))


@dataclass
class RepoMap:
    commit: str
    available: bool
    reason: str = ""  # why no grammar could be loaded, when not available
    files: dict[str, list[Definition]] = field(default_factory=dict)
    _by_name: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        by_name: dict[str, set[str]] = {}
        for path, definitions in self.files.items():
            for definition in definitions:
                by_name.setdefault(definition.name, set()).add(path)
        self._by_name = {name: sorted(paths) for name, paths in by_name.items()}

    def defined_in(self, name: str) -> list[str]:
        """Files that define ``name``, sorted."""
        return self._by_name.get(name, [])

    def render(self, path: str) -> str:
        """A file's section of the map: its path, then one line per definition."""
        rows = [path]
        for definition in self.files.get(path, []):
            indent = "  " if definition.container else ""
            rows.append(f"{definition.line:>5}: {indent}{definition.signature}")
        return "\n".join(rows) + "\n"


# ---------------------------------------------------------------------- grammars

_PARSERS: dict[str, Any] = {}
_PARSER_LOCK = threading.Lock()


def grammar_version() -> str:
    try:
        from importlib.metadata import version

        return version("tree-sitter-language-pack")
    except Exception:  # the package is absent or has no metadata
        return "none"


def load_parsers() -> dict[str, Any] | str:
    """Parsers by language name, or the reason none can be had. Never downloads: with
    1.x of the pack a missing grammar raises instead of parsing."""
    with _PARSER_LOCK:
        if _PARSERS:
            return dict(_PARSERS)
        try:
            from tree_sitter_language_pack import get_parser
        except ImportError:
            return (
                "tree-sitter-language-pack is not installed "
                "(pip install 'tree-sitter-language-pack<1')"
            )
        parsers = {}
        for language in sorted(set(LANGUAGES.values())):
            try:
                parsers[language] = get_parser(language)  # type: ignore[arg-type]
            except Exception as exc:  # LookupError, or a download the pack wanted to do
                return (
                    f"tree-sitter-language-pack has no bundled {language} grammar "
                    f"({type(exc).__name__}); version 1.x downloads grammars, install <1"
                )
        _PARSERS.update(parsers)
        return dict(parsers)


# ---------------------------------------------------------------------- extraction


def _text(source: bytes, node: Any) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _head(source: bytes, start: Any, stop: Any | None, limit: int = SIGNATURE_LIMIT) -> str:
    """Source from ``start`` up to where ``stop`` (a body) begins, on one line."""
    end = stop.start_byte if stop is not None else start.end_byte
    text = " ".join(source[start.start_byte : end].decode("utf-8", "replace").split())
    text = text.rstrip(" {:=;").rstrip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _name(source: bytes, node: Any, default: str = "") -> str:
    name = node.child_by_field_name("name") if node is not None else None
    return _text(source, name) if name is not None else default


class _Extractor:
    def __init__(self, path: str, source: bytes) -> None:
        self.path = path
        self.source = source
        self.found: list[Definition] = []

    def add(
        self, node: Any, kind: str, name: str, signature: str, container: str = ""
    ) -> Definition:
        definition = Definition(
            self.path, node.start_point[0] + 1, kind, name, signature, container
        )
        self.found.append(definition)
        return definition

    # ------------------------------------------------------------------ Python
    def python(self, root: Any) -> list[Definition]:
        self._python_block(root, container="")
        return self.found

    def _python_block(self, block: Any, container: str) -> None:
        for child in block.named_children:
            node = child
            start = child
            if node.type == "decorated_definition":
                node = child.child_by_field_name("definition") or child
                start = node
            if node.type == "function_definition":
                kind = "method" if container else "function"
                signature = _head(self.source, start, node.child_by_field_name("body"))
                self.add(node, kind, _name(self.source, node), signature, container)
            elif node.type == "class_definition":
                name = _name(self.source, node)
                body = node.child_by_field_name("body")
                self.add(node, "class", name, _head(self.source, start, body), container)
                if body is not None:
                    self._python_block(body, f"{container}.{name}" if container else name)
            elif not container:
                assignment = node
                if node.type == "expression_statement" and node.named_children:
                    assignment = node.named_children[0]
                if assignment.type == "assignment":
                    left = assignment.child_by_field_name("left")
                    if left is not None and left.type == "identifier":
                        name = _text(self.source, left)
                        if _SCREAMING.match(name):
                            signature = _head(self.source, assignment, None, CONSTANT_LIMIT)
                            self.add(assignment, "constant", name, signature)

    # ------------------------------------------------------------------ JS / TS
    def javascript(self, root: Any) -> list[Definition]:
        exported: set[str] = set()
        pending: list[tuple[Any, str, str, bool]] = []  # (node, name, signature, exported)
        for child in root.named_children:
            self._js_statement(child, False, exported, pending)
        for node, name, signature, is_exported in pending:
            if is_exported or name in exported:
                self.add(node, "constant", name, signature)
        # Stable: source order within a line; deferred constants join at their line.
        self.found.sort(key=lambda d: d.line)
        return self.found

    def _js_statement(
        self,
        node: Any,
        exported: bool,
        names: set[str],
        pending: list[tuple[Any, str, str, bool]],
        outer: Any | None = None,
    ) -> None:
        source = self.source
        start = outer if outer is not None else node
        kind = node.type
        if kind == "export_statement":
            declaration = node.child_by_field_name("declaration")
            if declaration is not None:
                self._js_statement(declaration, True, names, pending, outer=node)
                return
            value = node.child_by_field_name("value")
            if value is not None:
                if value.type == "identifier":
                    names.add(_text(source, value))
                else:
                    self._js_value(node, value, "default", node)
                return
            for clause in node.named_children:
                if clause.type == "export_clause":
                    for specifier in clause.named_children:
                        name = specifier.child_by_field_name("name")
                        if name is not None:
                            names.add(_text(source, name))
            return
        if kind in ("function_declaration", "generator_function_declaration"):
            body = node.child_by_field_name("body")
            self.add(node, "function", _name(source, node), _head(source, start, body))
        elif kind == "function_signature":
            self.add(node, "function", _name(source, node), _head(source, start, None))
        elif kind in ("class_declaration", "abstract_class_declaration"):
            self._js_class(node, start, _name(source, node))
        elif kind == "interface_declaration":
            body = node.child_by_field_name("body")
            self.add(node, "interface", _name(source, node), _head(source, start, body))
        elif kind == "type_alias_declaration":
            value = node.child_by_field_name("value")
            self.add(node, "type", _name(source, node), _head(source, start, value))
        elif kind == "enum_declaration":
            body = node.child_by_field_name("body")
            self.add(node, "enum", _name(source, node), _head(source, start, body))
        elif kind in ("lexical_declaration", "variable_declaration"):
            keyword = node.children[0].type if node.children else "const"
            for declarator in node.named_children:
                if declarator.type != "variable_declarator":
                    continue
                name_node = declarator.child_by_field_name("name")
                if name_node is None or name_node.type != "identifier":
                    continue
                name = _text(source, name_node)
                value = declarator.child_by_field_name("value")
                prefix = "export " if exported else ""
                if value is not None and value.type in _FUNCTION_VALUES:
                    body = value.child_by_field_name("body")
                    signature = prefix + keyword + " " + _head(source, declarator, body)
                    self.add(declarator, "function", name, signature)
                elif value is not None and value.type in _CLASS_VALUES:
                    self._js_class(value, declarator, name)
                else:
                    signature = prefix + keyword + " " + _head(source, declarator, None)
                    pending.append((declarator, name, _cut(signature), exported))
        elif kind == "ambient_declaration":
            for child in node.named_children:
                self._js_statement(child, exported, names, pending, outer=node)
        elif kind == "expression_statement" and node.named_children:
            expression = node.named_children[0]
            if expression.type == "assignment_expression":
                self._commonjs(expression, names)

    def _js_value(self, node: Any, value: Any, name: str, start: Any, given: bool = False) -> None:
        """A function or class expression bound to ``name``; its own name wins unless
        the binding is the name callers use (``exports.name = function inner() {}``)."""
        own = "" if given else _name(self.source, value)
        if value.type in _FUNCTION_VALUES:
            body = value.child_by_field_name("body")
            self.add(node, "function", own or name, _head(self.source, start, body))
        elif value.type in _CLASS_VALUES:
            self._js_class(value, start, own or name)

    def _js_class(self, node: Any, start: Any, name: str) -> None:
        source = self.source
        body = node.child_by_field_name("body")
        self.add(node, "class", name, _head(source, start, body))
        if body is None:
            return
        for member in body.named_children:
            if member.type in (
                "method_definition",
                "abstract_method_signature",
                "method_signature",
            ):
                member_body = member.child_by_field_name("body")
                self.add(
                    member,
                    "method",
                    _name(source, member),
                    _head(source, member, member_body),
                    name,
                )
            elif member.type in ("field_definition", "public_field_definition"):
                value = member.child_by_field_name("value")
                key = member.child_by_field_name("property") or member.child_by_field_name("name")
                if value is not None and key is not None and value.type in _FUNCTION_VALUES:
                    signature = _head(source, member, value.child_by_field_name("body"))
                    self.add(member, "method", _text(source, key), signature, name)

    def _commonjs(self, assignment: Any, names: set[str]) -> None:
        """``module.exports = ...``, ``module.exports.x = ...`` and ``exports.x = ...``."""
        source = self.source
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if left is None or right is None:
            return
        target = "".join(_text(source, left).split())
        if target == "module.exports":
            if right.type == "object":
                self._exports_object(right, names)
            elif right.type == "identifier":
                names.add(_text(source, right))
            else:
                self._js_value(assignment, right, "module.exports", assignment)
            return
        for prefix in ("module.exports.", "exports."):
            if target.startswith(prefix) and _IDENTIFIER.fullmatch(target[len(prefix) :]):
                name = target[len(prefix) :]
                if right.type in _FUNCTION_VALUES or right.type in _CLASS_VALUES:
                    self._js_value(assignment, right, name, assignment, given=True)
                elif right.type == "identifier":
                    names.add(_text(source, right))
                else:
                    self.add(assignment, "constant", name, _cut(_head(source, assignment, None)))
                return

    def _exports_object(self, node: Any, names: set[str]) -> None:
        source = self.source
        for member in node.named_children:
            if member.type == "shorthand_property_identifier":
                names.add(_text(source, member))
            elif member.type == "method_definition":
                body = member.child_by_field_name("body")
                signature = _head(source, member, body)
                self.add(member, "method", _name(source, member), signature, "module.exports")
            elif member.type == "pair":
                key = member.child_by_field_name("key")
                value = member.child_by_field_name("value")
                if key is None or value is None:
                    continue
                name = _text(source, key).strip("'\"")
                if value.type in _FUNCTION_VALUES:
                    signature = _head(source, member, value.child_by_field_name("body"))
                    self.add(member, "method", name, signature, "module.exports")
                elif value.type == "identifier":
                    names.add(_text(source, value))
                else:
                    signature = _cut(_head(source, member, None))
                    self.add(member, "constant", name, signature, "module.exports")


def _cut(text: str, limit: int = CONSTANT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def extract_definitions(path: str, text: str, parsers: dict[str, Any]) -> list[Definition]:
    """The definitions of one source file (empty for languages the map does not read)."""
    language = source_language(path, text)
    if language is None or language not in parsers:
        return []
    source = text.encode("utf-8")
    tree = parsers[language].parse(source)
    extractor = _Extractor(path, source)
    if language == "python":
        return extractor.python(tree.root_node)
    return extractor.javascript(tree.root_node)


# ---------------------------------------------------------------------- the map, cached

_MAPS: dict[tuple[str, str], RepoMap] = {}
_MAPS_LOCK = threading.Lock()


def source_paths(index: RepoIndex) -> list[str]:
    """The repository's source files (a script without a suffix by its shebang)."""
    return [
        path
        for path in index.text_paths
        if may_be_script(path) and source_language(path, _unsuffixed_text(index, path)) is not None
    ]


def _unsuffixed_text(index: RepoIndex, path: str) -> str | None:
    """The text of ``path`` when its name alone does not tell its language (no suffix)."""
    return None if "." in path.rsplit("/", 1)[-1] else index.file_text(path)


def repo_map(index: RepoIndex, cache_dir: Path) -> RepoMap:
    """The map of ``index``'s repository at its commit: from memory, from the cache folder,
    or built (by exactly one process, under a lock) and cached."""
    parsers = load_parsers()
    if isinstance(parsers, str):
        return RepoMap(index.commit, available=False, reason=parsers)
    paths = source_paths(index)
    digest = hashlib.sha1(
        "\0".join([grammar_version(), *paths]).encode("utf-8", "surrogateescape")
    ).hexdigest()[:12]
    name = f"repomap-v{REPOMAP_VERSION}-{index.commit}-{digest}"
    memo_key = (str(cache_dir), name)
    with _MAPS_LOCK:
        cached = _MAPS.get(memo_key)
    if cached is not None:
        return cached
    target = cache_dir / f"{name}.json"
    result = _load(target, index.commit)
    if result is None:
        with locked(cache_dir / f"{name}.lock"):
            result = _load(target, index.commit)
            if result is None:
                result = build_map(index, paths, parsers)
                rows = {
                    path: [definition.to_list() for definition in definitions]
                    for path, definitions in result.files.items()
                }
                payload = {"version": REPOMAP_VERSION, "commit": index.commit, "files": rows}
                text = json.dumps(signing.signed(payload), sort_keys=True, ensure_ascii=False)
                write_atomic(target, text)
    with _MAPS_LOCK:
        _MAPS[memo_key] = result
    return result


def build_map(index: RepoIndex, paths: Iterable[str], parsers: dict[str, Any]) -> RepoMap:
    files: dict[str, list[Definition]] = {}
    for path in paths:
        text = index.file_text(path)
        if text is None or len(text) > MAX_SOURCE_CHARS:
            continue
        definitions = extract_definitions(path, text, parsers)
        if definitions:
            files[path] = definitions
    return RepoMap(index.commit, available=True, files=files)


def _load(target: Path, commit: str) -> RepoMap | None:
    try:
        data = signing.verified(json.loads(target.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None
    # This commit's map (and, under POSTGATES_CACHE_KEY, signed): not a planted one.
    if data is None or data.get("version") != REPOMAP_VERSION or data.get("commit") != commit:
        return None
    try:
        files = {
            path: [Definition.from_list(path, row) for row in rows]
            for path, rows in data["files"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return RepoMap(commit, available=True, files=files)


# ---------------------------------------------------------------------- slices


@dataclass
class RepoSlice:
    text: str
    files: list[str]
    mode: str  # "definitions" (the map) or "anchor-text" (tree-sitter unavailable)
    truncated: bool = False
    note: str = ""
    missing_anchors: list[str] = field(default_factory=list)
    commit: str = ""

    def to_detail(self) -> dict[str, Any]:
        detail: dict[str, Any] = {
            "mode": self.mode,
            "files": self.files,
            "chars": len(self.text),
            "truncated": self.truncated,
        }
        if self.note:
            detail["note"] = self.note
        if self.missing_anchors:
            detail["missing_anchors"] = self.missing_anchors
        return detail


def anchor_paths(post: Post) -> list[str]:
    """Front matter ``anchor_paths``: a list of repository paths, or one path."""
    value = (post.front_matter or {}).get("anchor_paths")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]


def token_names(token: str) -> list[str]:
    """Names a backticked token may define, most specific first: ``Post.fences`` ->
    ``Post.fences``, ``fences``, ``Post``; ``parse_post()`` -> ``parse_post``."""
    bare = token.strip().rstrip(";")
    if "/" in bare or "\\" in bare:
        return []  # a path names a file, not a definition
    if bare.endswith("()"):
        bare = bare[:-2]
    parts = [part for part in re.split(r"\.|::|#", bare) if part]
    names = [bare, *(parts[-1:] if len(parts) > 1 else []), *(parts[:1] if len(parts) > 1 else [])]
    return [name for name in dict.fromkeys(names) if _IDENTIFIER.fullmatch(name)]


def _anchor_files(index: RepoIndex, anchors: Sequence[str]) -> tuple[list[str], list[str]]:
    """Tracked files named by the anchors (a folder names its text files), and the anchors
    that name nothing."""
    files: list[str] = []
    missing: list[str] = []
    for anchor in anchors:
        spec = anchor.removeprefix("./")
        where = index.match_path(spec)
        if where is None:
            missing.append(anchor)
        elif where.endswith("/"):
            files.extend(path for path in index.text_paths if path.startswith(where))
        elif index.file_text(where) is not None:
            files.append(where)
    return list(dict.fromkeys(files)), missing


def _token_files(index: RepoIndex, mapped: RepoMap, tokens: Iterable[str]) -> Iterator[str]:
    for token in tokens:
        path = index.match_path(token.removeprefix("./")) if "/" in token else None
        if path is None and "." in token and "/" not in token:
            path = index.match_filename(token)
        if path is not None and path in mapped.files:
            yield path
            continue
        for name in token_names(token):
            defined = mapped.defined_in(name)
            if defined:
                yield from defined[:MAX_FILES_PER_TOKEN]
                break


def _cut_to_budget(sections: list[tuple[str, str]], budget: int) -> tuple[str, list[str], bool]:
    parts: list[str] = []
    files: list[str] = []
    used = 0
    for path, section in sections:
        if used + len(section) <= budget:
            parts.append(section)
            files.append(path)
            used += len(section)
            continue
        room = budget - used
        if room >= MIN_PARTIAL_SECTION:
            cut = section[:room]
            newline = cut.rfind("\n")
            parts.append(cut[: newline + 1] if newline > 0 else cut)
            files.append(path)
        return "".join(parts), files, True
    return "".join(parts), files, False


def post_slice(
    post: Post,
    index: RepoIndex,
    cache_dir: Path,
    budget: int,
    symbol_allowlist: Iterable[str] = (),
    focus: Sequence[str] = (),
) -> RepoSlice:
    """The evidence for ``post`` from ``index``: files defining the ``focus`` tokens (a
    claim's), then the anchor files, then the files defining the post's grounded tokens
    (its prose code spans, ``symbol_allowlist`` skipped as gate 2 skips them), within
    ``budget`` characters. The repo map is cached under ``cache_dir``."""
    limit = budget
    anchors, missing = _anchor_files(index, anchor_paths(post))
    mapped = repo_map(index, cache_dir)
    if not mapped.available:
        sections = [(path, f"{path}\n{index.file_text(path) or ''}\n") for path in anchors]
        text, files, truncated = _cut_to_budget(sections, limit)
        note = f"{mapped.reason}; the slice is the raw text of the anchor files"
        if not anchors:
            note += " (the post names no anchor_paths, so the slice is empty)"
        return RepoSlice(text, files, "anchor-text", truncated, note, missing, index.commit)
    allow = ALLOWLIST | frozenset(symbol_allowlist)
    tokens = [token.text for token in extract_tokens(post, allow)]
    order: list[str] = [*_token_files(index, mapped, focus), *anchors]
    order.extend(_token_files(index, mapped, tokens))
    sections = []
    for path in dict.fromkeys(order):
        if path in mapped.files:
            sections.append((path, mapped.render(path)))
        elif path in anchors:
            # An anchor with no definitions (a CHANGELOG, a config file) is evidence as text.
            sections.append((path, f"{path}\n{index.file_text(path) or ''}\n"))
    text, files, truncated = _cut_to_budget(sections, limit)
    return RepoSlice(text, files, "definitions", truncated, "", missing, index.commit)
