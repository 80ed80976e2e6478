"""Repo map: tree-sitter definitions from TS/JS/MJS/CJS/Python, the per-commit disk cache,
and a post's slice (anchors, token-defining files, budget, fallback without grammars)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence import repomap
from pytest_postgates.evidence.repomap import repo_map, token_names
from tests.helpers import git, make_post, make_repo, repo_context

pytest.importorskip("tree_sitter_language_pack", reason="the repo map needs tree-sitter")

FILES = {
    "src/router.ts": (
        "import { Client } from './client';\n"
        "\n"
        "export interface Route { path: string }\n"
        "export type Handler = (req: Request) => Promise<Response>;\n"
        "export const MAX_ROUTES = 64;\n"
        "const internalLimit = 3;\n"
        "\n"
        "export class Router extends Base implements Dispatcher {\n"
        "  private routes: Route[] = [];\n"
        "  add(route: Route): void {\n"
        "    this.routes.push(route);\n"
        "  }\n"
        "  handle = async (req: Request): Promise<Response> => new Response();\n"
        "}\n"
        "\n"
        "export async function createRouter(options: RouterOptions = {}): Promise<Router> {\n"
        "  return new Router();\n"
        "}\n"
    ),
    "lib/util.js": (
        "export function slugify(title) {\n"
        "  return title.toLowerCase();\n"
        "}\n"
        "export const retryDelay = (attempt) => 2 ** attempt;\n"
    ),
    "lib/stream.mjs": "export default class StreamPump {\n  pump(chunk) {}\n}\n",
    "rules/no-magic.cjs": (
        "'use strict';\n"
        "const DEFAULT_LIMIT = 10;\n"
        "function create(context) {\n"
        "  return {};\n"
        "}\n"
        "module.exports = {\n"
        "  meta: { type: 'problem' },\n"
        "  create,\n"
        "  DEFAULT_LIMIT,\n"
        "  describe(node) { return node.type; },\n"
        "};\n"
        "exports.helper = function (x) { return x; };\n"
    ),
    "pkg/gates.py": (
        "TIMEOUT_SECONDS = 30\n"
        "lowercase_value = 1\n"
        "\n"
        "\n"
        "class Gate(Base):\n"
        "    def check(self, post: str) -> bool:\n"
        "        return True\n"
        "\n"
        "    @property\n"
        "    def name(self) -> str:\n"
        '        return "gate"\n'
        "\n"
        "\n"
        "@cache\n"
        "async def run_gates(posts: list[str], *, strict: bool = False) -> int:\n"
        "    return 0\n"
    ),
    "CHANGELOG.md": "# Changelog\n\n## 1.0.0\n\n- Router learned to retry.\n",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mapped"), FILES)


@pytest.fixture(autouse=True)
def fresh_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees the disk cache, not an earlier test's in-memory map."""
    monkeypatch.setattr(repomap, "_MAPS", {})


def _map(repo: Path, cache: Path) -> repomap.RepoMap:
    context = repo_context(repo, cache)
    index = context.evidence.index_for(repo / "post.md")
    return repo_map(index, cache)


def _rows(mapped: repomap.RepoMap, path: str) -> list[tuple[int, str, str, str, str]]:
    return [(d.line, d.kind, d.name, d.container, d.signature) for d in mapped.files[path]]


def test_bundled_grammars_load_without_network() -> None:
    parsers = repomap.load_parsers()
    assert isinstance(parsers, dict), parsers
    assert set(parsers) == {"python", "typescript", "tsx", "javascript"}


def test_typescript_definitions(repo: Path, tmp_path: Path) -> None:
    rows = _rows(_map(repo, tmp_path), "src/router.ts")
    assert rows == [
        (3, "interface", "Route", "", "export interface Route"),
        (4, "type", "Handler", "", "export type Handler"),
        (5, "constant", "MAX_ROUTES", "", "export const MAX_ROUTES = 64"),
        (8, "class", "Router", "", "export class Router extends Base implements Dispatcher"),
        (10, "method", "add", "Router", "add(route: Route): void"),
        (13, "method", "handle", "Router", "handle = async (req: Request): Promise<Response> =>"),
        (
            16,
            "function",
            "createRouter",
            "",
            "export async function createRouter(options: RouterOptions = {}): Promise<Router>",
        ),
    ]  # internalLimit: a private constant is not part of the map


def test_javascript_and_mjs_definitions(repo: Path, tmp_path: Path) -> None:
    mapped = _map(repo, tmp_path)
    assert _rows(mapped, "lib/util.js") == [
        (1, "function", "slugify", "", "export function slugify(title)"),
        (4, "function", "retryDelay", "", "export const retryDelay = (attempt) =>"),
    ]
    assert _rows(mapped, "lib/stream.mjs") == [
        (1, "class", "StreamPump", "", "export default class StreamPump"),
        (2, "method", "pump", "StreamPump", "pump(chunk)"),
    ]


def test_commonjs_exports_are_read(repo: Path, tmp_path: Path) -> None:
    """The seeds' blind spot: ``.cjs`` rule files export through module.exports."""
    assert _rows(_map(repo, tmp_path), "rules/no-magic.cjs") == [
        (2, "constant", "DEFAULT_LIMIT", "", "const DEFAULT_LIMIT = 10"),
        (3, "function", "create", "", "function create(context)"),
        (7, "constant", "meta", "module.exports", "meta: { type: 'problem' }"),
        (10, "method", "describe", "module.exports", "describe(node)"),
        (12, "function", "helper", "", "exports.helper = function (x)"),
    ]


def test_python_definitions(repo: Path, tmp_path: Path) -> None:
    assert _rows(_map(repo, tmp_path), "pkg/gates.py") == [
        (1, "constant", "TIMEOUT_SECONDS", "", "TIMEOUT_SECONDS = 30"),
        (5, "class", "Gate", "", "class Gate(Base)"),
        (6, "method", "check", "Gate", "def check(self, post: str) -> bool"),
        (10, "method", "name", "Gate", "def name(self) -> str"),
        (
            15,
            "function",
            "run_gates",
            "",
            "async def run_gates(posts: list[str], *, strict: bool = False) -> int",
        ),
    ]


def test_map_is_cached_on_disk_per_commit(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _map(repo, tmp_path)
    files = list(tmp_path.glob("repomap-v*.json"))
    assert len(files) == 1 and first.commit in files[0].name

    def no_parsing(*args: object) -> list[object]:
        raise AssertionError("the cached map was rebuilt")

    monkeypatch.setattr(repomap, "extract_definitions", no_parsing)
    monkeypatch.setattr(repomap, "_MAPS", {})
    again = _map(repo, tmp_path)
    assert again.files == first.files


def test_new_commit_builds_a_new_map(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": "def first():\n    pass\n"})
    cache = tmp_path / "cache"
    assert _map(repo, cache).defined_in("first") == ["a.py"]
    (repo / "b.py").write_text("def second():\n    pass\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "second")
    second = _map(repo, cache)
    assert second.defined_in("second") == ["b.py"]
    assert len(list(cache.glob("repomap-v*.json"))) == 2


@pytest.mark.parametrize(
    ("token", "names"),
    [
        ("Router", ["Router"]),
        ("createRouter()", ["createRouter"]),
        ("Router.add", ["add", "Router"]),
        ("context.evidence.index_for", ["index_for", "context"]),
        ("src/router.ts", []),
    ],
)
def test_token_names(token: str, names: list[str]) -> None:
    assert token_names(token) == names


POST = (
    "The `createRouter` factory builds a `Router`, and `slugify` names routes.\n"
    "\n"
    "Unrelated: `TIMEOUT_SECONDS` bounds every gate.\n"
)


def _front(anchors: str) -> str:
    return f"---\nlayout: post\ntitle: T\ndate: 2026-06-03\nanchor_paths: {anchors}\n---\n"


def test_slice_holds_anchors_then_token_files(repo: Path, tmp_path: Path) -> None:
    post = make_post(POST, tmp_path, front=_front("[CHANGELOG.md, rules/no-magic.cjs, gone.ts]"))
    piece = repo_context(repo, tmp_path / "cache").repo_slice(post)
    assert piece.mode == "definitions"
    assert piece.files == [
        "CHANGELOG.md",
        "rules/no-magic.cjs",
        "src/router.ts",
        "lib/util.js",
        "pkg/gates.py",
    ]
    assert piece.missing_anchors == ["gone.ts"]
    assert "Router learned to retry." in piece.text  # a non-code anchor is kept as text
    assert "   16: export async function createRouter(" in piece.text
    assert "   10:   add(route: Route): void" in piece.text
    assert not piece.truncated
    assert piece.to_detail()["chars"] == len(piece.text)


def test_focus_tokens_come_first(repo: Path, tmp_path: Path) -> None:
    post = make_post(POST, tmp_path, front=_front("[CHANGELOG.md]"))
    piece = repo_context(repo, tmp_path / "cache").repo_slice(post, focus=["slugify"])
    assert piece.files[0] == "lib/util.js"


def test_slice_is_cut_to_the_budget(repo: Path, tmp_path: Path) -> None:
    post = make_post(POST, tmp_path, front=_front("[src/router.ts]"))
    context = repo_context(repo, tmp_path / "cache", repomap_budget=300)
    piece = context.repo_slice(post)
    assert piece.truncated and len(piece.text) <= 300
    assert piece.files[0] == "src/router.ts"
    assert piece.text.endswith("\n")  # cut at a line boundary
    full = repo_context(repo, tmp_path / "cache").repo_slice(post)
    assert not full.truncated and len(full.text) > 300


def test_folder_anchor_names_its_files(repo: Path, tmp_path: Path) -> None:
    post = make_post("No tokens here.\n", tmp_path, front=_front("[lib/]"))
    piece = repo_context(repo, tmp_path / "cache").repo_slice(post)
    assert piece.files == ["lib/stream.mjs", "lib/util.js"]


def test_without_grammars_the_slice_is_raw_anchor_text(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(repomap, "load_parsers", lambda: "tree-sitter-language-pack is gone")
    post = make_post(POST, tmp_path, front=_front("[pkg/gates.py]"))
    piece = repo_context(repo, tmp_path / "cache").repo_slice(post)
    assert piece.mode == "anchor-text"
    assert piece.files == ["pkg/gates.py"]
    assert "lowercase_value = 1" in piece.text  # raw text, not the map
    assert piece.note.startswith("tree-sitter-language-pack is gone; the slice is the raw text")
    assert piece.to_detail()["note"] == piece.note
    bare = repo_context(repo, tmp_path / "c").repo_slice(make_post(POST, tmp_path, name="x.md"))
    assert bare.text == "" and "names no anchor_paths" in bare.note


def test_missing_grammar_is_reported_not_downloaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """tree-sitter-language-pack 1.x raises instead of parsing when it would download."""
    import tree_sitter_language_pack

    def refuse(name: str) -> object:
        raise RuntimeError("Download error: would fetch parsers.json")

    monkeypatch.setattr(repomap, "_PARSERS", {})
    monkeypatch.setattr(tree_sitter_language_pack, "get_parser", refuse)
    reason = repomap.load_parsers()
    assert isinstance(reason, str) and "no bundled" in reason and "install <1" in reason
