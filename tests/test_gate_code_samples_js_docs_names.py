"""Gate 15 on a name a page uses without binding it where the docs' other pages bind it
(js_docs_names): every binding in the folder's samples gives one product type, so the
page's uses are judged against it, the binding cited; a binding that gives another type,
or none, leaves the name untyped. And a member the declared type lacks but a product type
extending it declares (``SqlEntityManager.getKnex`` under ``EntityManager``) is unjudged,
never a finding."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.helpers import fence_stamps
from pytest_postgates.helpers.js_docs_names import _pages
from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

ORM = {
    "package.json": json.dumps({"name": "orm", "main": "./src/index.ts"}),
    "src/em.ts": (
        "export class EntityManager {\n  flush(): void {}\n  remove(entity: object): void {}\n}\n"
    ),
    "src/sql.ts": (
        "import { EntityManager } from './em';\n"
        "export class SqlEntityManager extends EntityManager {\n"
        "  getKnex(): unknown { return null; }\n"
        "}\n"
    ),
    "src/orm.ts": (
        "import { EntityManager } from './em';\n"
        "export class Orm {\n"
        "  em!: EntityManager;\n"
        "  static async init(options?: { dbName: string }): Promise<Orm> {\n"
        "    return new Orm();\n"
        "  }\n"
        "}\n"
    ),
    "src/index.ts": (
        "export { Orm } from './orm';\nexport { EntityManager } from './em';\n"
        "export { SqlEntityManager } from './sql';\n"
    ),
}
INIT = "import { Orm } from 'orm';\n\nconst orm = await Orm.init({ dbName: 'app' });\n"


def _card(tmp_path: Path, code: str, others: dict[str, str]) -> object:
    repo = make_repo(tmp_path / "repo", ORM)
    for name, sample in others.items():
        (tmp_path / name).write_text(f"# {name}\n\n```ts\n{sample}```\n", encoding="utf-8")
    return sample_card(code, "ts", tmp_path, repo)


def test_a_name_the_docs_bind_to_one_product_type_is_typed_so(tmp_path: Path) -> None:
    """`orm.em.removeEntity(book)` on a page that never binds `orm`, where another page
    of the folder writes `const orm = await Orm.init(...)`: Orm's em is an EntityManager,
    which declares no removeEntity, and the finding says where `orm` is bound."""
    code = "orm.em.removeEntity(book);\norm.em.flush();\n"
    card = _card(tmp_path, code, {"setup.md": INIT})
    assert _violations(card) == [("member", "orm.em.removeEntity")]
    (reason,) = [v["reason"] for v in card.detail["violations"]]
    assert "setup.md:6" in reason


def test_a_name_the_docs_bind_otherwise_too_stays_untyped(tmp_path: Path) -> None:
    """A second binding of `orm` the reader does not type (a parameter without a type):
    the page's `orm` may be either, so nothing is judged on it."""
    code = "orm.em.removeEntity(book);\n"
    other = "export function setup(orm) {\n  return orm;\n}\n"
    card = _card(tmp_path, code, {"setup.md": INIT, "teardown.md": other})
    assert _violations(card) == []
    assert any("never bound" in reason for reason in _unjudged(card))


def test_a_name_no_page_binds_stays_untyped(tmp_path: Path) -> None:
    card = _card(tmp_path, "orm.em.removeEntity(book);\n", {})
    assert _violations(card) == []


def test_a_member_a_subclass_declares_is_unjudged(tmp_path: Path) -> None:
    """`orm.em.getKnex()` where Orm declares `em: EntityManager`: SqlEntityManager, which
    extends it, declares getKnex, and the value may be one (a driver's subclass). A
    member no type below it declares is still a finding."""
    code = (
        "import { Orm } from 'orm';\n"
        "const orm = await Orm.init();\n"
        "orm.em.getKnex().raw('select 1');\norm.em.getKnexx();\n"
    )
    card = _card(tmp_path, code, {})
    assert _violations(card) == [("member", "orm.em.getKnexx")]
    assert any("SqlEntityManager" in reason and "getKnex" in reason for reason in _unjudged(card))


def test_a_page_of_the_folder_the_repository_has_at_the_ref_is_read(tmp_path: Path) -> None:
    """The page is the repository's (docs/page.md) and its folder's other page is not on
    disk, only at the ref: read from there."""
    from pytest_postgates.gates import code_samples
    from tests.helpers import make_post, repo_context

    files = {**ORM, "docs/setup.md": f"# Setup\n\n```ts\n{INIT}```\n"}
    repo = make_repo(tmp_path / "repo", files)
    (repo / "docs" / "setup.md").unlink()
    body = "Intro.\n\n```ts\norm.em.removeEntity(book);\n```\n"
    post = make_post(body, repo / "docs", name="page.md")
    card = code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))
    assert _violations(card) == [("member", "orm.em.removeEntity")]
    assert any("docs/setup.md:6" in v["reason"] for v in card.detail["violations"])


def test_a_field_of_a_class_intersected_with_a_type_parameter_is_that_class_open(
    tmp_path: Path,
) -> None:
    """`em!: D[typeof EntityManagerType] & EntityManager`: the value is an EntityManager
    and what the driver's type adds; a member no product type declares is a finding, one
    a product type declares (SqlEntityManager's getKnex) is not judged."""
    files = {
        **ORM,
        "src/orm.ts": (
            "import { EntityManager } from './em';\n"
            "export const EntityManagerType = Symbol('EntityManagerType');\n"
            "export interface Driver { [EntityManagerType]: EntityManager }\n"
            "export class Orm<D extends Driver = Driver> {\n"
            "  em!: D[typeof EntityManagerType] & EntityManager;\n"
            "  static async init(options?: { dbName: string }): Promise<Orm> {\n"
            "    return new Orm();\n"
            "  }\n"
            "}\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import { Orm } from 'orm';\nconst orm = await Orm.init();\n"
        "orm.em.removeEntity(book);\norm.em.getKnex();\norm.em.flush();\n"
    )
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "orm.em.removeEntity")]
    assert any("getKnex" in reason for reason in _unjudged(card))


def test_an_open_type_reached_from_a_docs_binding_still_cites_it(tmp_path: Path) -> None:
    """`orm.em`, open (through the driver's type parameter), reached from an `orm` the
    docs bind: the finding says both."""
    code = "orm.em.removeEntity(book);\n"
    orm = ORM["src/orm.ts"].replace("em!: EntityManager;", "em!: D & EntityManager;")
    orm = orm.replace("export class Orm {", "export class Orm<D extends object = object> {")
    repo = make_repo(tmp_path / "repo", {**ORM, "src/orm.ts": orm})
    (tmp_path / "setup.md").write_text(f"# setup\n\n```ts\n{INIT}```\n", encoding="utf-8")
    card = sample_card(code, "ts", tmp_path, repo)
    (reason,) = [v["reason"] for v in card.detail["violations"]]
    assert "nor does any product type extending it" in reason and "setup.md:6" in reason


def test_a_fence_is_read_for_a_docs_bound_name_only_where_it_reads_a_member_of_it() -> None:
    """A key or a word the docs declare elsewhere (`const id = ...`) is no reason to read a
    fence that uses nothing of the product: only a member read on such a name is."""
    from types import SimpleNamespace

    from pytest_postgates.helpers import js_unbound
    from pytest_postgates.helpers.sample_checks import SampleValue

    typed = SampleValue("typed", "src/orm.ts", "Orm")
    sample = SimpleNamespace(
        bound=set(),
        gate=SimpleNamespace(package="orm"),
        types=lambda: SimpleNamespace(conventional=lambda name, package: None),
        docs_declared=lambda name: True,
        docs_names=lambda name: typed if name == "orm" else None,
    )
    assert not js_unbound.uses_conventional(sample, "const server = { id: 'a', url: 'b' };")  # type: ignore[arg-type]
    assert js_unbound.uses_conventional(sample, "orm.em.flush();")  # type: ignore[arg-type]


def test_a_comment_that_is_a_file_path_is_not_read_as_code() -> None:
    """`// scripts/prompt-cache.ts` parses as `scripts / prompt - cache.ts`, a member of
    `cache`: it is the file's name, left a comment; a commented-out call is still code."""
    from pytest_postgates.evidence.repomap import load_parsers
    from pytest_postgates.helpers.js_comments import read_comments

    parsers = load_parsers()
    assert not isinstance(parsers, str)
    parser = parsers["typescript"]
    code = "// scripts/prompt-cache.ts\n// cache.get('k');\nconst x = 1;\n"
    first, second, _ = read_comments(code, 1, parser, []).split("\n", 2)
    assert first == "// scripts/prompt-cache.ts" and second.strip() == "cache.get('k');"


RETURN = "  return db;\n}\n"
MANAGER = "import { EntityManager } from 'orm';\nexport function a(db: EntityManager) {\n" + RETURN
SQL = (
    "import { SqlEntityManager } from 'orm';\nexport function b(db: SqlEntityManager) {\n" + RETURN
)
CACHE = "import { Cache } from 'orm';\nexport function c(db: Cache) {\n" + RETURN
WITH_CACHE = {
    **ORM,
    "src/cache.ts": "export class Cache {\n  get(key: string): void {}\n}\n",
    "src/index.ts": ORM["src/index.ts"] + "export { Cache } from './cache';\n",
}


def test_bindings_of_several_types_type_the_name_by_their_nearest_common_base(
    tmp_path: Path,
) -> None:
    """`db` is an EntityManager on one page and a SqlEntityManager (which extends it) on
    another: the page's unbound `db` is typed by their common base, EntityManager. A
    member neither it nor a type below it declares is a finding, citing the bindings; one
    SqlEntityManager declares (getKnex) is unjudged; one EntityManager declares passes."""
    code = "import { Orm } from 'orm';\ndb.flush();\ndb.getKnex();\ndb.removeEntity(book);\n"
    card = _card(tmp_path, code, {"a.md": MANAGER, "b.md": SQL})
    assert _violations(card) == [("member", "db.removeEntity")]
    (reason,) = [v["reason"] for v in card.detail["violations"]]
    assert "nearest common base is EntityManager" in reason and "b.md:" in reason
    assert any("SqlEntityManager" in r and "getKnex" in r for r in _unjudged(card))


def test_bindings_of_types_with_no_common_base_leave_the_name_unknown_with_them(
    tmp_path: Path,
) -> None:
    """`db` is an EntityManager on one page and a Cache on another, which share no
    product base: nothing is judged on the page's `db`, and the reason lists both."""
    repo = make_repo(tmp_path / "repo", WITH_CACHE)
    for name, sample in {"a.md": MANAGER, "c.md": CACHE}.items():
        (tmp_path / name).write_text(f"# {name}\n\n```ts\n{sample}```\n", encoding="utf-8")
    card = sample_card("import { Orm } from 'orm';\ndb.removeEntity(book);\n", "ts", tmp_path, repo)
    assert _violations(card) == []
    (reason,) = [r for r in _unjudged(card) if "removeEntity" in r]
    assert "EntityManager (a.md:" in reason and "Cache (c.md:" in reason
    assert "no one nearest common product base" in reason


def test_the_pages_own_binding_decides_over_the_folders(tmp_path: Path) -> None:
    """The page binds `db` itself (a SqlEntityManager parameter) and uses it unbound
    outside that function; another page binds it to a Cache: the page's own binding
    types its `db`, so a member SqlEntityManager lacks is a finding."""
    repo = make_repo(tmp_path / "repo", WITH_CACHE)
    (tmp_path / "c.md").write_text(f"# c\n\n```ts\n{CACHE}```\n", encoding="utf-8")
    code = f"db.getKnexx();\n{SQL}"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("member", "db.getKnexx")]


def test_the_common_base_is_the_nearest_shared_one() -> None:
    """Of the classes every lineage shares, the one no other shared class extends; two
    such (unrelated bases both implement) are no one base."""
    from types import SimpleNamespace
    from typing import Any

    from pytest_postgates.helpers.js_docs_names import common_base

    parents = {"C": ["B"], "B": ["A"], "D": ["B"], "E": ["X", "Y"], "F": ["X", "Y"]}

    def lineage(cls: tuple[str, str]) -> list[Any]:
        found, todo = [], [cls[0]]
        while todo:
            name = todo.pop(0)
            found.append(SimpleNamespace(name=name, path="p.ts"))
            todo += parents.get(name, [])
        return found

    types: Any = SimpleNamespace(lineage=lineage)
    assert common_base(types, [("C", "p.ts"), ("D", "p.ts")]) == ("B", "p.ts")
    assert common_base(types, [("C", "p.ts"), ("B", "p.ts")]) == ("B", "p.ts")
    assert common_base(types, [("E", "p.ts"), ("F", "p.ts")]) is None
    assert common_base(types, [("C", "p.ts"), ("E", "p.ts")]) is None


def test_each_page_of_a_folder_is_typed_by_its_own_bindings(tmp_path: Path) -> None:
    """Two pages of one folder, read with one context (the folder's bindings shared), each
    binding `db` to its own type after using it: each page's `db` is its own binding's."""
    from pytest_postgates.gates import code_samples
    from tests.helpers import make_post, repo_context

    repo = make_repo(tmp_path / "repo", WITH_CACHE)
    context = repo_context(repo, tmp_path / "cache")
    sql = make_post(f"Intro.\n\n```ts\ndb.getKnexx();\n{SQL}```\n", tmp_path, name="sql.md")
    cache = make_post(f"Intro.\n\n```ts\ndb.get('k');\ndb.gett();\n{CACHE}```\n", tmp_path,
                      name="cache.md")  # fmt: skip
    first = code_samples.GATE.evaluate(sql, context)
    second = code_samples.GATE.evaluate(cache, context)
    assert _violations(first) == [("member", "db.getKnexx")]
    assert _violations(second) == [("member", "db.gett")]
    assert all("Cache" in v["reason"] for v in second.detail["violations"])


def test_the_pages_own_binding_is_read_where_the_folder_writes_the_name_too_often(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder whose fences write `db` more often than are read for a name: the page's
    own binding still types its `db`; a page that does not bind it stays untyped."""
    from pytest_postgates.helpers import js_docs_names

    monkeypatch.setattr(js_docs_names, "MAX_FENCES", 1)
    repo = make_repo(tmp_path / "repo", WITH_CACHE)
    (tmp_path / "a.md").write_text(f"# a\n\n```ts\n{SQL}```\n", encoding="utf-8")
    card = sample_card(f"db.getKnexx();\n{SQL}", "ts", tmp_path, repo)
    assert _violations(card) == [("member", "db.getKnexx")]
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.md").write_text(f"# a\n\n```ts\n{SQL}```\n", encoding="utf-8")
    (other / "b.md").write_text(f"# b\n\n```ts\n{SQL}```\n", encoding="utf-8")
    card = sample_card("import { Orm } from 'orm';\ndb.getKnexx();\n", "ts", other, repo)
    assert _violations(card) == []


def test_an_annotated_parameter_holds_only_inside_its_function(tmp_path: Path) -> None:
    """`(db: EntityManager) => ...` in one fence, `db.getKnex()` in a later one: `db` is
    not bound there, so it is typed as the docs' samples bind it (here the page's own
    parameter: EntityManager), a member a type below EntityManager declares (getKnex) is
    unjudged and one no product type declares is a finding citing the binding. Inside the
    function the parameter's type holds as before."""
    from pytest_postgates.gates import code_samples
    from tests.helpers import make_post, repo_context

    repo = make_repo(tmp_path / "repo", ORM)
    typed = "import { EntityManager } from 'orm';\nexport const f = (db: EntityManager) => "
    body = (f"Intro.\n\n```ts\n{typed}db.removeEntity(x);\n```\n\nThen:\n\n```ts\n"
            "import { Orm } from 'orm';\ndb.getKnex();\ndb.getKnexx();\n```\n")  # fmt: skip
    card = code_samples.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))
    assert _violations(card) == [
        ("member", "EntityManager.removeEntity"),
        ("member", "db.getKnexx"),
    ]
    (later,) = [v["reason"] for v in card.detail["violations"] if v["name"] == "db.getKnexx"]
    assert "docs' own samples" in later
    assert any("SqlEntityManager" in r and "getKnex" in r for r in _unjudged(card))


def _stamp_after(tmp_path: Path, before: str, after: str) -> tuple[str, str]:
    """The folder stamp of page.md before and after its sibling other.md is rewritten."""
    (tmp_path / "page.md").write_text("# Page\n\n```ts\norm.em.flush();\n```\n", encoding="utf-8")
    other = tmp_path / "other.md"
    other.write_text(before, encoding="utf-8")
    first = fence_stamps.folder_stamp(tmp_path / "page.md", None)
    other.unlink()  # a new file: the memo of the old one is not read
    other.write_text(after, encoding="utf-8")
    os.utime(other, ns=(1, 1))
    return first, fence_stamps.folder_stamp(tmp_path / "page.md", None)


SETUP = "# Setup\n\nSome prose.\n\n```ts\n" + INIT + "```\n\n```python\nx = 1\n```\n"


@pytest.mark.parametrize(
    "after",
    [
        SETUP.replace("Some prose.", "Other prose, same lines."),
        SETUP.replace("x = 1", "x = 2\ny = 3"),
        SETUP + "\nMore prose below the fences.\n",
    ],
    ids=["prose", "python-fence", "prose-below"],
)
def test_an_edit_the_docs_bindings_do_not_read_keeps_the_folder_stamp(
    tmp_path: Path, after: str
) -> None:
    """Gate 15's cached results of a folder's pages depend on the other pages' bindings
    only: a sibling's prose, or its Python fence, may change without re-gating them."""
    before, now = _stamp_after(tmp_path, SETUP, after)
    assert before == now


@pytest.mark.parametrize(
    "after",
    [
        SETUP.replace("dbName: 'app'", "dbName: 'db'"),
        SETUP.replace("Some prose.", "Some prose.\nOn two lines."),
        SETUP + "\n```\nconst orm = other();\n```\n",
    ],
    ids=["ts-fence", "line-moved", "untagged-fence"],
)
def test_an_edit_the_docs_bindings_read_changes_the_folder_stamp(
    tmp_path: Path, after: str
) -> None:
    """A binding's code, its line (the finding cites it) and an untagged fence (a reader
    may take it for code) all decide the stamp."""
    before, now = _stamp_after(tmp_path, SETUP, after)
    assert before != now


_BLOCKS = st.sampled_from(
    ["Prose.\n", "More prose here.\n", "\n", "```ts\nconst orm = Orm.init();\n```\n",
     "```ts\nconst orm = new Other();\n```\n", "```python\norm = 1\n```\n",
     "```\nconst orm = x;\n```\n", "~~~js\nlet em = orm.em;\n~~~\n", "    indented();\n"]
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=st.lists(_BLOCKS, max_size=6), second=st.lists(_BLOCKS, max_size=6))
def test_pages_the_bindings_read_differently_never_share_a_stamp(
    tmp_path: Path, first: list[str], second: list[str]
) -> None:
    """The stamp is sound for the cache: two versions of a sibling that the docs' reading
    (js_docs_names._pages) sees differently always stamp the folder differently."""
    seen = []
    for version, blocks in enumerate((first, second)):
        folder = tmp_path / f"v{len(list(tmp_path.iterdir()))}-{version}"
        folder.mkdir()
        (folder / "page.md").write_text("# Page\n", encoding="utf-8")
        (folder / "other.md").write_text("# Other\n\n" + "\n".join(blocks), encoding="utf-8")
        pages = _pages(folder / "page.md", folder, dict) or []
        view = [(s, [(f.start_line, f.info, f.content) for f in fences]) for s, fences in pages]
        seen.append((view, fence_stamps.folder_stamp(folder / "page.md", None)))
    (view_one, stamp_one), (view_two, stamp_two) = seen
    if view_one != view_two:
        assert stamp_one != stamp_two


def test_stamps_are_kept_across_runs_in_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run whose results are all cached parses no page: the stamps of the folder's pages
    are read back from the cache folder (a line cut short is skipped), and a page edited
    since is stamped anew."""
    docs, cache = tmp_path / "docs", tmp_path / "cache"
    docs.mkdir()
    (docs / "page.md").write_text("# Page\n", encoding="utf-8")
    (docs / "setup.md").write_text(SETUP, encoding="utf-8")
    first = fence_stamps.folder_stamp(docs / "page.md", cache)
    (store,) = cache.iterdir()
    with store.open("a", encoding="utf-8") as stamps:
        stamps.write('["cut short", 1')
    monkeypatch.setattr(fence_stamps, "_KNOWN", {})
    made: list[Path] = []
    real = fence_stamps.js_docs_names.fences_stamp
    monkeypatch.setattr(
        fence_stamps.js_docs_names,
        "fences_stamp",
        lambda path, *kept: made.append(path) or real(path, *kept),
    )
    assert fence_stamps.folder_stamp(docs / "page.md", cache) == first
    assert made == []
    (docs / "setup.md").write_text(SETUP.replace("'app'", "'db'"), encoding="utf-8")
    os.utime(docs / "setup.md", ns=(1, 1))
    assert fence_stamps.folder_stamp(docs / "page.md", cache) != first
    assert made == [docs / "setup.md"]


class _Reader:
    """A reader whose every binding's type is what it read before it (the count of the
    bindings it recorded so far): a type that fences read earlier decide, as a real
    reader's values do; it counts the fences it reads."""

    read = 0

    def __init__(self) -> None:
        from pytest_postgates.helpers.fence_parsers import FenceParsers

        self.bindings: list[tuple[str, int, object]] | None = None
        self.parsers = FenceParsers(load_parsers())  # type: ignore[arg-type]

    def types(self) -> None:
        return None

    def fence(self, content: str, first_line: int, tsx: bool, typescript: bool = False) -> None:
        from pytest_postgates.helpers.js_docs_names import _targets

        _Reader.read += 1
        source = content.encode()
        stack = [self.parsers["tsx" if tsx else "typescript"].parse(source).root_node]
        while stack:
            node = stack.pop()
            for name in _targets(node):
                assert self.bindings is not None
                key = ((f"T{len(self.bindings) % 3}", "src/t.ts"), False)
                local = source[name.start_byte : name.end_byte].decode()
                self.bindings.append((local, first_line + name.start_point[0], key))
            stack.extend(reversed(node.named_children))


FOLDER = {
    "a.md": ["const orm = init();\nconst em = orm.em;", "em.flush();\norm.close();"],
    "b.md": ["orm.em.flush();", "const { em, db: store } = orm;", "store.drop();\nem.clear();"],
    "c.md": ["import { init } from 'orm';\nlet orm = init();", "function run(em) {}", "run(x);"],
    "d.md": ["orm.close();\nstore.drop();"],
}


def test_a_page_is_read_up_to_its_last_fence_binding_the_name_with_the_same_answer(
    tmp_path: Path,
) -> None:
    """Every name of a folder's fences, asked on each of its pages, is typed alike whether
    every fence writing it is read or those up to the last that binds it (none on a page
    none of whose fences binds it), and fewer fences are read so."""
    from pytest_postgates.helpers.js_docs_names import DocsNames

    for page, fences in FOLDER.items():
        shown = "".join(f"```ts\n{code}\n```\n\nText.\n\n" for code in fences)
        (tmp_path / page).write_text(f"# {page}\n\n{shown}", encoding="utf-8")
    names = ["orm", "em", "store", "db", "init", "run", "x", "flush"]
    parsers = _Reader().parsers
    answers, counts = [], []
    for parsing in (None, parsers):
        _Reader.read = 0
        asked = DocsNames(tmp_path / "a.md", tmp_path, dict, _Reader, parsing)
        answers.append([repr(asked(n, tmp_path / p)) for n in names for p in sorted(FOLDER)])
        counts.append(_Reader.read)
    assert answers[0] == answers[1]
    assert any(a != "None" for a in answers[1])  # some names are typed: the test can fail
    assert counts[1] < counts[0]
