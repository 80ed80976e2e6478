"""Gate 15's cold CPU (issue 26): work a run asks again is done once, answers unchanged.
An object literal shown alone is scored against candidates expanded once per run; a bare
call's misspelling is looked for among the names one letter off it (an index of the
model's names by their halves), not by testing every name; a docs name is
read on the folder's pages whose fences write it only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.name_spelling import one_letter_changed, one_letter_slipped
from pytest_postgates.gates import code_samples
from pytest_postgates.helpers import js_unbound
from pytest_postgates.helpers.js_types import JsTypes, hump_changed
from tests.helpers import make_post, make_repo, repo_context, sample_card, sample_violations
from tests.test_gate_code_samples_misspelled_calls import FILES as MISSPELLED_CALLS

STACK = {
    "package.json": json.dumps({"name": "stack", "exports": {".": "./src/index.ts"}}),
    "src/index.ts": (
        "export interface PrerenderOptions {\n"
        "  crawlLinks?: boolean;\n  concurrency?: number;\n  retry?: number;\n"
        "  retryDelay?: number;\n}\n"
        "export interface StackConfig {\n  preset?: string;\n"
        "  prerender?: PrerenderOptions;\n}\n"
        "export function createStack(config: StackConfig = {}): void {}\n"
    ),
}


def test_objects_shown_alone_are_scored_against_keys_expanded_once_per_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two posts, each with two fences showing an object alone: every candidate's keys
    (a function's options, one level down) are expanded once for the whole run, and each
    literal is still judged against the one that takes most of its keys."""
    repo = make_repo(tmp_path / "repo", STACK)
    asked: list[tuple[Any, ...]] = []
    function_keys = JsTypes.function_keys

    def counted(self: JsTypes, file: str, name: str, position: int, path: Any) -> Any:
        asked.append((file, name, position, path))
        return function_keys(self, file, name, position, path)

    monkeypatch.setattr(JsTypes, "function_keys", counted)
    shown = "{\n  crawlLinks: false,\n  concurrency: 1,\n  retries: 3,\n  retryDelay: 500\n}\n"
    other = "{\n  crawlLinks: true,\n  concurrency: 2,\n  retry: 1,\n  retryDelays: 5\n}\n"
    body = f"Intro.\n\n```ts\n{shown}```\n\nMore.\n\n```ts\n{other}```\n"
    context = repo_context(repo, tmp_path / "cache")
    cards = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        cards.append(code_samples.GATE.evaluate(make_post(body, tmp_path / name), context))
    for card in cards:
        assert sample_violations(card) == [("option_key", "retries"), ("option_key", "retryDelays")]
    assert asked, "the candidates' keys were never asked: the test cannot fail"
    assert len(asked) == len(set(asked))


# The misspelled-calls package, with names of the misspelling's length sorted before the
# one it misspells, one letter off nothing it is.
FILES = MISSPELLED_CALLS | {
    "src/other.js": (
        "export function assembleEventHandlers() {}\n"
        "export function buildNormalizedRoutes() {}\n"
        "export function cachedHandlerFunction() {}\n"
    ),
}


def test_a_misspelt_call_is_tested_against_the_names_one_letter_off_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tested: list[str] = []

    def slipped(name: str, other: str) -> bool:
        tested.append(other)
        return one_letter_slipped(name, other)

    monkeypatch.setattr(js_unbound, "one_letter_slipped", slipped)
    code = "export const stars = definedCachedFunction(async () => 1, { maxAge: 60 })\n"
    card = sample_card(code, "ts", tmp_path, make_repo(tmp_path / "repo", FILES))
    assert sample_violations(card) == [("named_export", "definedCachedFunction")]
    assert "defineCachedFunction" in json.dumps(card.detail["violations"])
    assert tested == ["defineCachedFunction"]  # not assembleEventHandlers and the rest


_LETTERS = st.text(alphabet="abcAs_", min_size=4, max_size=9)


@settings(max_examples=400, deadline=None)
@given(
    name=_LETTERS,
    edit=st.sampled_from(["change", "insert", "delete", "case"]),
    at=st.integers(min_value=0, max_value=9),
    letter=st.sampled_from("abcAs_"),
    others=st.lists(_LETTERS, max_size=8),
)
def test_the_index_finds_every_name_a_misspelling_test_passes(
    name: str, edit: str, at: int, letter: str, others: list[str]
) -> None:
    """Every name of five letters or more that one of the misspelling tests passes for
    ``name`` (one made by an edit of it among them) is among those the index of the
    names by their halves gives it."""
    at = min(at, len(name) - 1)
    real = {
        "change": name[:at] + letter + name[at + 1 :],
        "insert": name[:at] + letter + name[at:],
        "delete": name[:at] + name[at + 1 :],
        "case": name[:at] + name[at].swapcase() + name[at + 1 :],
    }[edit]
    index = js_unbound._halves([real, *others])
    found = {other for part in js_unbound._asked(name) for other in index.get(part, ())}
    for other in [real, *others]:
        near = one_letter_changed(name, other) or one_letter_slipped(name, other)
        if len(other) >= 5 and (near or hump_changed(name, other)):
            assert other in found


def test_a_docs_name_is_read_on_the_pages_whose_fences_write_it_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_postgates.helpers.js_docs_names import DocsNames
    from tests.test_gate_code_samples_js_docs_names import FOLDER, _Reader

    pages = {**FOLDER, **{f"z{n}.md": ["console.log(1);"] for n in range(6)}}
    for page, fences in pages.items():
        shown = "".join(f"```ts\n{code}\n```\n\nText.\n\n" for code in fences)
        (tmp_path / page).write_text(f"# {page}\n\n{shown}", encoding="utf-8")
    looked: list[str] = []
    through = DocsNames._through_last_binder

    def counted(self: DocsNames, name: str, fences: list[Any]) -> list[Any]:
        looked.append(name)
        return through(self, name, fences)

    monkeypatch.setattr(DocsNames, "_through_last_binder", counted)
    asked = DocsNames(tmp_path / "z0.md", tmp_path, dict, _Reader, _Reader().parsers)
    assert asked("orm") is not None  # typed by a.md's and c.md's bindings
    # orm's fences are on a.md, b.md, c.md and d.md: z0.md asks, and only those are read.
    assert looked.count("orm") == 5


STARS = {
    "package.json": json.dumps({"name": "lib", "main": "./src/index.ts"}),
    "src/index.ts": "export * from './a';\nexport * from './b';\nexport { c } from './c';\n",
    "src/a.ts": "export * from './deep';\nexport const a = 1;\n",
    "src/b.ts": "export function b(): void {}\n",
    "src/c.ts": "export const c = 3;\n",
    "src/deep.ts": "export class Deep {}\n",
}


def test_a_name_no_export_chain_has_is_not_walked_for_with_the_same_files_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name the entry does not export, by what it exports through its ``export *``
    chains (kept for the run), is None without walking every chain for it again; the
    files marked read are those the walk marks, in its order."""
    from pytest_postgates.evidence import resolution
    from pytest_postgates.evidence.api_lookup import ApiLookup
    from pytest_postgates.evidence.code_tables import code_tables
    from pytest_postgates.evidence.index import open_index
    from tests.helpers import git

    repo = make_repo(tmp_path / "repo", STARS)
    index = open_index(repo, git(repo, "rev-parse", "HEAD").strip(), tmp_path / "cache", ())
    shared = ApiLookup(code_tables(index, tmp_path / "cache"), resolution.IndexFiles(index), {})
    walked = shared.for_post()
    walked._find("src/index.ts", "Missing", set(), 0)
    walks: list[str] = []
    find = ApiLookup._find

    def counted(self: ApiLookup, path: str, name: str, *rest: Any) -> Any:
        walks.append(name)
        return find(self, path, name, *rest)

    monkeypatch.setattr(ApiLookup, "_find", counted)
    view = shared.for_post()
    assert view.find_export("src/index.ts", "Deep") is not None
    assert view.find_export("src/index.ts", "Missing") is None
    assert view.find_export("src/index.ts", "Gone", declared=True) is None
    assert "Deep" in walks and "Missing" not in walks and "Gone" not in walks
    other = shared.for_post()
    assert other.find_export("src/index.ts", "Missing") is None
    assert other.read == walked.read
    assert len(walked.read) == 4  # index, a, deep, b: c is named, not walked


def test_a_run_parses_each_page_of_a_folder_once_for_its_stamp_and_readings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder's stamp (a cached result's key) and the docs' readings both read every
    page of the folder: one parse of each in a run, the same readings as parsing anew."""
    from pytest_postgates.helpers import fence_stamps, js_docs_names
    from tests.test_gate_code_samples_js_docs_names import FOLDER, _Reader

    for page, fences in FOLDER.items():
        shown = "".join(f"```ts\n{code}\n```\n\nText.\n\n" for code in fences)
        (tmp_path / page).write_text(f"# {page}\n\n{shown}", encoding="utf-8")
    fresh = js_docs_names._pages(tmp_path / "a.md", tmp_path, dict)
    parsed: list[Path] = []
    parse = js_docs_names.parse_post
    monkeypatch.setattr(
        js_docs_names, "parse_post", lambda path, *data: parsed.append(path) or parse(path, *data)
    )
    kept: js_docs_names.DiskPages = {}
    stamp = fence_stamps.folder_stamp(tmp_path / "a.md", None, kept)
    names = js_docs_names.DocsNames(tmp_path / "a.md", tmp_path, dict, _Reader, None, kept)
    assert names("orm", tmp_path / "d.md") is not None
    assert sorted(parsed) == sorted(tmp_path / page for page in FOLDER)
    assert names._read() == fresh
    monkeypatch.setattr(fence_stamps, "_KNOWN", {})
    assert fence_stamps.folder_stamp(tmp_path / "a.md", None) == stamp


def test_a_linked_page_is_stamped_by_the_file_it_links_to(tmp_path: Path) -> None:
    from pytest_postgates.helpers import fence_stamps

    (tmp_path / "docs").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "real.md").write_text("# Real\n\n```ts\nconst a = 1;\n```\n")
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    (tmp_path / "docs" / "linked.md").symlink_to(tmp_path / "elsewhere" / "real.md")
    known: dict[tuple[str, int, int], str] = {}
    fence_stamps._KNOWN[Path(fence_stamps._STAMPS_FILE)] = known
    try:
        fence_stamps.folder_stamp(tmp_path / "docs" / "page.md", None)
    finally:
        fence_stamps._KNOWN.pop(Path(fence_stamps._STAMPS_FILE))
    assert sorted(path for path, _, _ in known) == sorted(
        str(p.resolve())
        for p in (tmp_path / "elsewhere" / "real.md", tmp_path / "docs" / "page.md")
    )


_NAMES = ["a", "b", "c", "default"]
_SPECS = ["./m0", "./m1", "./m2", "./m3", "./m4", "./gone"]
_MODULE = st.fixed_dictionaries(
    {
        "exports": st.lists(st.sampled_from(_NAMES), max_size=2),
        "reexports": st.dictionaries(
            st.sampled_from(_NAMES),
            st.tuples(st.sampled_from(_SPECS), st.sampled_from(_NAMES)),
            max_size=2,
        ),
        "stars": st.lists(st.sampled_from(_SPECS), max_size=3),
        "equals": st.sampled_from([None, "thing", "klass"]),
        "shim": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None)
@given(modules=st.lists(_MODULE, min_size=5, max_size=5))
def test_the_walk_made_once_gives_every_name_the_walks_answer_and_files(
    modules: list[dict[str, Any]],
) -> None:
    """export_walks.find against ApiLookup._find's own walk, over module graphs of
    ``export *`` chains (cycles, targets outside the tables, re-exports of a module that
    lacks the name, ``export =`` values, CommonJS shims): the same answer, the same files
    marked in the same order, for every name and module."""
    from types import SimpleNamespace

    from pytest_postgates.evidence import export_walks
    from pytest_postgates.evidence.api_lookup import ApiLookup
    from pytest_postgates.evidence.file_table import FileTable

    files = {}
    for at, shape in enumerate(modules):
        files[f"src/m{at}.ts"] = FileTable(
            language="typescript",
            exports={name: "" for name in shape["exports"]},
            reexports={name: list(target) for name, target in shape["reexports"].items()},
            stars=list(shape["stars"]),
            export_equals=shape["equals"],
            commonjs_shim=shape["shim"],
            classes={"klass": {"static": ["c"], "members": [], "extends": []}},
            objects={},
        )
    no_files = SimpleNamespace(read_text=lambda path: None)
    shared = ApiLookup(SimpleNamespace(files=files), no_files, {})  # type: ignore[arg-type]
    for module in files:
        for name in _NAMES:
            for declared in (False, True):
                walked, replayed = shared.for_post(), shared.for_post()
                expected = walked._find(module, name, set(), 0, declared)
                assert repr(export_walks.find(replayed, module, name, declared, 40)) == repr(
                    expected
                )
                assert replayed.read == walked.read


class _Shown:
    """A fence whose text is counted each time it is read."""

    def __init__(self, line: int, content: str, reads: list[int]) -> None:
        self.start_line, self.info, self._content, self._reads = line, "ts", content, reads

    @property
    def lang(self) -> str:
        return self.info

    @property
    def content(self) -> str:
        self._reads.append(self.start_line)
        return self._content


def test_a_docs_name_is_looked_for_in_the_fences_holding_it_only(tmp_path: Path) -> None:
    """Whether a folder's fences declare or write a name is asked of the fences that hold
    it as a word of code, found in an index of the folder's words made once: 40 pages, 6
    names asked, each page's text read once for the index and again only where the name
    is (before: every fence read for every name, twice)."""
    from pytest_postgates.helpers.js_docs_names import DocsNames

    reads: list[int] = []
    pages = [(f"p{n}.md", [_Shown(n, f"const v{n} = lib.open({n});\nv{n}.run();\n", reads)])
             for n in range(40)]  # fmt: skip
    asked = DocsNames(tmp_path / "p0.md", tmp_path, dict, lambda: None)  # type: ignore[arg-type,return-value]
    asked._pages = pages  # type: ignore[assignment]
    for n in (3, 7, 11, 19, 23, 31):
        assert asked.declared(f"v{n}")
        assert [shown for shown, fences in asked._chosen(f"v{n}") if fences] == [f"p{n}.md"]
    assert not asked.declared("v99") and not any(fences for _, fences in asked._chosen("v99"))
    assert len(reads) < 2 * 40, len(reads)


_WORDS = st.sampled_from(["orm", "em", "orm2", "$orm", "_em", "x.orm", "ormé", "9orm"])
_TEXT = st.lists(
    st.one_of(_WORDS, st.sampled_from([" ", ".", "=", ":", "\n", "const ", "let ", "(", "é"])),
    max_size=14,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(pages=st.lists(st.lists(_TEXT, min_size=1, max_size=3), min_size=1, max_size=4),
       name=st.one_of(_WORDS, st.sampled_from(["or", "e", "x.orm", "m2"])))  # fmt: skip
def test_the_index_of_words_finds_what_scanning_every_fence_finds(
    pages: list[list[str]], name: str
) -> None:
    """The pages and fences the index gives for a name (an identifier; any other name is
    looked for in every fence) are those the patterns find scanning every fence."""
    import re

    from pytest_postgates.helpers.js_docs_names import DocsNames
    from pytest_postgates.post import Fence

    shown = []
    for n, texts in enumerate(pages):
        fences = [
            Fence(10 * n + i, 10 * n + i + 2, "ts", "```", t, True) for i, t in enumerate(texts)
        ]
        shown.append((f"p{n}.md", fences))
    asked = DocsNames(Path("p0.md"), Path("."), dict, lambda: None)  # type: ignore[arg-type,return-value]
    asked._pages = shown  # type: ignore[assignment]
    word = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
    declares = re.compile(rf"\b(?:const|let|var)\s+{re.escape(name)}\s*[:=]")
    writing = [(page, [f for f in fences if name in f.content and word.search(f.content)])
               for page, fences in shown]  # fmt: skip
    identifier = re.fullmatch(r"[A-Za-z_$][\w$]*", name) is not None
    # An identifier's: the pages with a fence writing it; another name's: every page.
    assert asked._chosen(name) == [(p, fences) for p, fences in writing if fences or not identifier]
    assert asked.declared(name) == any(
        declares.search(f.content) for _, fences in shown for f in fences
    )


def test_a_folders_stamp_stats_each_page_once_from_its_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every post's cache key stamps its folder's pages (fence_stamps.folder_stamp): each
    page's type and status are asked of the folder's listing, one status a page, not of a
    path made and stat'ed twice (is_file, then stat) for every post; the stamp, a linked
    page's and an entry that is no file's included, is the one the paths gave."""
    from pytest_postgates.helpers import fence_stamps

    for n in range(10):
        (tmp_path / f"p{n}.md").write_text(f"# P{n}\n\n```ts\nconst v{n} = {n};\n```\n")
    (tmp_path / "notes.txt").write_text("not a page\n")
    (tmp_path / "sub.md").mkdir()  # a folder named like a page
    (tmp_path / "gone.md").symlink_to(tmp_path / "missing.md")  # a link to nothing
    (tmp_path / "linked.md").symlink_to(tmp_path / "p3.md")
    monkeypatch.setitem(fence_stamps._KNOWN, Path(fence_stamps._STAMPS_FILE), {})
    first = fence_stamps.folder_stamp(tmp_path / "p0.md", None)
    names = [part.split(":")[0] for part in first.split(",")]
    assert names == sorted([*(f"p{n}.md" for n in range(10)), "linked.md"])
    stats: list[str] = []
    status = Path.stat

    def counted(self: Path, *args: Any, **kwargs: Any) -> Any:
        stats.append(self.name)
        return status(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", counted)
    assert fence_stamps.folder_stamp(tmp_path / "p1.md", None) == first
    # Left: the folder's and the linked page's resolve() (it checks the path it resolves).
    assert sorted(stats) == sorted([tmp_path.name, "p3.md"]), stats


def test_a_post_parsed_ahead_is_taken_once_and_only_with_its_bytes(tmp_path: Path) -> None:
    """post.ParsedAhead: the runner takes a page parsed for a stamp once, only when it
    reads the same bytes (an edit between the two is parsed again), and the store keeps
    no more than its size (the first offered: the runner's next posts)."""
    from pytest_postgates.post import ParsedAhead, parse_post

    pages = []
    for n in range(3):
        pages.append(tmp_path / f"p{n}.md")
        pages[-1].write_text(f"# P{n}\n\n```ts\nconst v{n} = {n};\n```\n")
    ahead = ParsedAhead(size=2)
    parsed = [ahead.parse(page) for page in pages]
    assert [p.fences for p in parsed] == [parse_post(page).fences for page in pages]
    raw = pages[0].read_bytes()
    assert ahead.take(pages[0], raw) is parsed[0]
    assert ahead.take(pages[0], raw) is None  # once
    assert ahead.take(pages[1], raw + b"\nedited\n") is None  # another text: parsed anew
    assert ahead.take(pages[2], pages[2].read_bytes()) is None  # past its size: not kept
    refused = ahead.parse(tmp_path / "missing.md")
    assert refused.problems and ahead.take(tmp_path / "missing.md", b"") is None


def test_the_plugins_a_fence_hands_on_are_read_once_per_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """js_tree.plugins_passed: the page's reader and each reading of its folder read the
    same fence: its patterns run once per text and product, each reader given a dict of
    its own (the same answer)."""
    from pytest_postgates.helpers import js_tree

    runs: list[str] = []
    pattern = js_tree._PASSED_REQUIRE

    class Counted:
        def finditer(self, text: str) -> Any:
            runs.append(text)
            return pattern.finditer(text)

    monkeypatch.setattr(js_tree, "_PASSED_REQUIRE", Counted())
    code = "import helmet from 'helmet'\napp.use(helmet)\napp.register(require('@x/mysql'))\n"
    first = js_tree.plugins_passed(code + "// once\n", "lib")
    first["app"] = "changed by its reader"
    again = js_tree.plugins_passed(code + "// once\n", "lib")
    assert again == {"app": "@x/mysql"}
    assert runs == [code + "// once\n"]
    assert js_tree.plugins_passed(code + "// once\n", "@x/mysql") == {}  # its own product
