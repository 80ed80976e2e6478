"""The reasons of gate 15's accounting step (helpers/sample_accounting.py): each use a fence
parses that no reader recorded is listed unjudged with why its receiver is not typed; what
is not the product's is not listed; a shell comment's code-shaped names are listed as prose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers import sample_accounting as accounting
from pytest_postgates.helpers import sample_accounting_python as python
from pytest_postgates.helpers.sample_checks import SampleReport
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

PRODUCT = {
    "package.json": json.dumps(
        {"name": "nitroish", "main": "index.js", "bin": {"nitroish": "cli.js"}}
    ),
    "index.js": "export function defineConfig(config) { return config }\n",
    "cli.js": (
        'import { Command } from "commander";\nconst program = new Command();\n'
        'program.command("build").option("--preset <name>");\nprogram.parse();\n'
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("accounting") / "repo", PRODUCT)


def _card(code: str, repo: Path, tmp_path: Path, lang: str = "js") -> Scorecard:
    post = make_post(f"Intro.\n\n```{lang}\n{code}\n```\n", tmp_path)
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


def _by_name(card: Scorecard) -> dict[str, str]:
    return {str(u.get("name")): str(u["reason"]) for u in card.detail["unjudged"] if u.get("name")}


@pytest.mark.parametrize(
    ("code", "name", "reason"),
    [
        ("em.persist(book);", "em.persist", accounting.NEVER_BOUND.format(root="em")),
        (
            "run(function (req) { req.sesion.user; });",
            "req.sesion.user",
            accounting.PARAMETER.format(root="req"),
        ),
        ("function h() { this.em.flush(); }", "this.em.flush", accounting.THIS),
        (
            "const q = em.getKnex();\nq.raw('x');",
            "q.raw",
            accounting.HOLDS.format(root="q", held="`em.getKnex()`"),
        ),
        ("let conn;\nconn.close();", "conn.close", accounting.UNTYPED_BINDING.format(root="conn")),
        (
            "Module.forRoot({ entitiesDirs: ['dist'] });",
            "entitiesDirs",
            accounting.KEY_OF.format(
                callee="Module.forRoot", why=accounting.NEVER_BOUND.format(root="Module")
            ),
        ),
    ],
)
def test_each_reason(code: str, name: str, reason: str, repo: Path, tmp_path: Path) -> None:
    card = _card(code, repo, tmp_path)
    listed = _by_name(card)
    assert name in listed, card.detail
    assert reason in listed[name], listed[name]
    assert card.verdict == "PASS"  # unjudged entries never fail the gate


@pytest.mark.parametrize(
    "code",
    [
        'document.getElementById("x").style.opacity = 0;',
        'import _ from "lodash";\n_.get({ a: 1 }, "a");',
        'const el = document.createElement("div");\nel.classList.add("x");',
        "function own() { return 1 }\nown.call(null);",
        '"abc".length;\n[1, 2].map((n) => n.toFixed());\nconsole.log(Math.max(1, 2));',
    ],
)
def test_what_is_not_the_products_is_not_listed(code: str, repo: Path, tmp_path: Path) -> None:
    card = _card(code, repo, tmp_path)
    assert card.detail["unjudged"] == [], card.detail


def test_a_code_shaped_name_in_a_shell_comment_is_listed_as_prose(
    repo: Path, tmp_path: Path
) -> None:
    code = (
        "# autoSubFolderIndex: true (default)\n/about -> .output/public/about/index.html\n"
        "# see https://example.com/some_page and docs/readme.md: no names\n"
        "npx nitroish build --preset node # the node_server preset\n"
    )
    card = _card(code, repo, tmp_path, lang="bash")
    listed = _by_name(card)
    assert listed == {
        "autoSubFolderIndex": accounting.SHELL_COMMENT,
        "node_server": accounting.SHELL_COMMENT,
    }, card.detail


def test_a_use_the_card_names_already_is_not_listed_twice() -> None:
    report = SampleReport()
    report.count("member", 4, "find")
    report.skip(5, "a.b.c", "a.b: the type of the value (x) is not shown in the sample")
    card = accounting.CardNames.of(report)
    assert card.names(4, "find", "", range(1, 9))
    assert card.names(7, "b", "a.b", range(1, 9))  # the fence's reason quotes the use
    assert not card.names(7, "b", "a.b", range(6, 9))  # ... from another fence
    assert not card.names(4, "fnd", "", range(1, 9))


def test_the_summary_says_how_many_uses_no_sample_types(repo: Path, tmp_path: Path) -> None:
    card = _card("em.persist(book);\nem.flush();", repo, tmp_path)
    assert card.verdict == "PASS"
    assert card.summary == (
        "nothing checked: 2 use(s) of the product not judged "
        "(2 on values the samples do not type, or in comments)"
    ), card.summary
    assert card.detail["accounted"] == 2


PYTHON = {
    "pyproject.toml": '[project]\nname = "pyorm"\n',
    "pyorm/__init__.py": (
        "class Orm:\n    def find(self, where=None):\n        return []\n\n"
        "def connect(url: str) -> Orm:\n    return Orm()\n"
    ),
}


def test_python_chains_and_keywords_no_reader_typed_are_listed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "pyrepo", PYTHON)
    code = (
        "import os\nimport pyorm\norm = pyorm.connect('x')\norm.find(where=1)\n"
        "em.persist(book, flush=True)\ndef handler(req):\n    req.sesion.user\n"
        "os.path.join('a', 'b')\nprint('x'.upper(), sep='')\n"
        "class Own:\n    def m(self):\n        self.x.y(z=1)\n"
    )
    card = _card(code, repo, tmp_path, lang="python")
    listed = _by_name(card)
    assert listed["flush="] == python.KEYWORD_OF.format(
        callee="em.persist", why=accounting.NEVER_BOUND.format(root="em")
    )
    assert accounting.PARAMETER.format(root="req") in listed["req.sesion.user"]
    # The standard library, built-ins, literals and the page's own class: not the product's.
    assert not {n for n in listed if n.startswith(("os.", "print", "self", "z="))}, listed
    assert card.verdict == "PASS"


def test_this_in_the_pages_own_class_is_its_own_and_over_an_untyped_base_is_listed(
    repo: Path, tmp_path: Path
) -> None:
    code = (
        "class Own { m() { this.items.push(1); const f = () => this.count.toFixed(); } }\n"
        "class Sub extends Base { m() { this.em.flush(); } }\n"
    )
    listed = _by_name(_card(code, repo, tmp_path))
    assert listed == {
        "this.em.flush": "this.em.flush: "
        + accounting.THIS_OVER.format(
            root="this", base="Base", why=accounting.NEVER_BOUND.format(root="Base")
        )
        + " (`em`, `flush` not judged)"
    }, listed


def test_a_reason_quoting_code_over_several_lines_is_kept_on_one_line() -> None:
    """A reason quotes code (a chain with a comment between its links, a declared type
    written over lines); the card keeps each entry's reason on one line, whichever reader
    recorded it."""
    report = SampleReport()
    quoted = "the keys passed to baseTest\n  // a fixture\n  .extend() are not judged"
    report.skip(3, "baseTest", quoted, name="extend")
    accounting.listing(report, 4, "x", "x is declared Readonly<{\n  a: 1\n}>", "x.a")
    report.violation(5, "member", "y", "", "Y declares no\n  member y", [])
    reasons = [entry["reason"] for entry in (*report.unjudged, *report.violations)]
    assert reasons == [
        "the keys passed to baseTest // a fixture .extend() are not judged",
        "x is declared Readonly<{ a: 1 }>",
        "Y declares no member y",
    ]


# Session 35 (issue 26, no silent tokens): causes found by bench/gate15_coverage.py on the
# tune half's docs folders, each a use the card named nowhere before.
@pytest.mark.parametrize(
    ("code", "name", "reason"),
    [
        (  # a parameter shadows a variable the page binds to a literal
            "const squares = [1];\nfunction turns(squares) { return squares.filter(Boolean) }",
            "squares.filter",
            accounting.PARAMETER.format(root="squares"),
        ),
        (  # what a function the page writes returns (a wrapper of the product's factory)
            "function useCounter(o) { return useStore(o) }\n"
            "const state = useCounter({ a: 1 });\nstate.increment();",
            "state.increment",
            accounting.HOLDS.format(root="state", held="`useCounter()`"),
        ),
        (  # a callback handed to a function the page writes, which hands it on
            "const wrap = (f) => devtools(f);\nwrap((set) => set.merge(1));",
            "set.merge",
            accounting.PARAMETER.format(root="set"),
        ),
        (  # the product's `test` is no global of a test runner, nor its callback's `t`
            "import { defineConfig as test } from 'nitroish';\n"
            "test.skipIf(x)('n', (t) => { t.pass(); });",
            "t.pass",
            accounting.PARAMETER.format(root="t"),
        ),
        (  # a variable the fence binds is no global of its name (a test runner's `t`)
            "const t = new Test();\nt.validateSync();",
            "t.validateSync",
            accounting.HOLDS.format(root="t", held="`new Test()`"),
        ),
        (  # `a || []` is `a` where `a` is untyped
            "function fmt(results) { var list = results || []; list.reduce((a, r) => a); }",
            "list.reduce",
            accounting.HOLDS.format(root="list", held="`results || []`"),
        ),
    ],
)
def test_uses_no_longer_silent(
    code: str, name: str, reason: str, repo: Path, tmp_path: Path
) -> None:
    listed = _by_name(_card(code, repo, tmp_path))
    assert name in listed, listed
    assert reason in listed[name], listed[name]


def test_the_keys_a_function_the_page_writes_takes_are_its_own(repo: Path, tmp_path: Path) -> None:
    code = "function useCounter(o) { return o }\nconst s = useCounter({ a: 1 });\ns.count;"
    listed = _by_name(_card(code, repo, tmp_path))
    assert "a" not in listed and "s.count" in listed, listed


@pytest.mark.parametrize(
    ("code", "name", "reason"),
    [
        (  # `self.id = id` binds no `self`: the class is over the product's base
            "from pyorm import Orm\n\nclass Mine(Orm):\n    def __init__(self, label):\n"
            "        self.id = id\n",
            "self.id",
            python.SELF.format(root="self", base="Orm"),
        ),
        (  # the page's class over the product's base: its members and its constructor's
            "from pyorm import Orm\n\nclass User(Orm):\n    name: str\n\n"
            "User.model_validate({})\nuser = User(name='x')\n",
            "User.model_validate",
            python.OWN_CLASS.format(root="User", base="Orm"),
        ),
        (
            "from pyorm import Orm\n\nclass User(Orm):\n    name: str\n\nuser = User(name='x')\n",
            "name=",
            python.OWN_CLASS.format(root="User", base="Orm"),
        ),
        (  # what a function the page writes returns
            "import pyorm\n\ndef make():\n    return pyorm.connect('x')\n\n"
            "conn = make()\nconn.query(limit=1)\n",
            "conn.query",
            accounting.HOLDS.format(root="conn", held="`make()`"),
        ),
        (  # a function a product decorator may replace
            "import pyorm\n\n@pyorm.step\ndef increment(ctx):\n    return 1\n\nincrement.label\n",
            "increment.label",
            python.DECORATED.format(root="increment", decorator="pyorm.step"),
        ),
        (  # a variable the fence binds is no built-in of its name
            "filter = make()\nfilter.apply(strict=True)\n",
            "filter.apply",
            accounting.HOLDS.format(root="filter", held="`make()`"),
        ),
        (  # a parameter shadows a variable the page binds to a literal
            "rows = []\ndef total(rows):\n    return rows.count(1)\n",
            "rows.count",
            accounting.PARAMETER.format(root="rows"),
        ),
    ],
)
def test_python_uses_no_longer_silent(code: str, name: str, reason: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "pyrepo", PYTHON)
    listed = _by_name(_card(code, repo, tmp_path, lang="python"))
    assert name in listed, listed
    assert reason in listed[name], listed[name]


def test_python_the_pages_own_function_and_class_stay_its_own(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "pyrepo", PYTHON)
    code = (
        "class Own:\n    def m(self):\n        self.x.y(z=1)\n\n"
        "def helper(a=1):\n    return a\n\nhelper(a=2)\nOwn().m()\n"
    )
    assert _by_name(_card(code, repo, tmp_path, lang="python")) == {}


def _page_card(text: str, repo: Path, tmp_path: Path) -> Scorecard:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return gate.GATE.evaluate(make_post(text, tmp_path), repo_context(repo, tmp_path / "cache"))


def test_a_fences_own_binding_comes_before_another_fences_of_the_name(
    repo: Path, tmp_path: Path
) -> None:
    """`app` bound to a literal in one fence is not what the next fence binds it to."""
    js = (
        "Intro.\n\n```js\nconst app = 1;\n```\n\n"
        "```js\nconst app = server.create();\napp.listen();\n```\n"
    )
    listed = _by_name(_page_card(js, repo, tmp_path / "js"))
    assert "app.listen" in listed, listed
    pyrepo = make_repo(tmp_path / "pyrepo", PYTHON)
    python_page = (
        "Intro.\n\n```python\nfoo = 1\n```\n\n```python\nfrom pyorm import Orm\n\n"
        "class Foo(Orm):\n    pass\n\nfoo = Foo()\nfoo.user.name = 'x'\n```\n"
    )
    listed = _by_name(_page_card(python_page, pyrepo, tmp_path / "py"))
    assert accounting.HOLDS.format(root="foo", held="`Foo()`") in listed["foo.user.name"]


@pytest.mark.parametrize(
    ("code", "name", "what"),
    [
        ("const c = new Clinet();\nc.run();", "new Clinet()", "makes"),
        ("defineConfig({ plugins: [MyPlugin] });", "MyPlugin", "is"),
        ("defineConfig({ store: Memory });", "Memory", "is"),
        ("class Mine extends BaseStore {}", "BaseStore", "is"),
        ("const x = connect(url);", "connect()", "calls"),
    ],
)
def test_a_name_no_sample_binds_made_or_handed_on_is_listed(
    code: str, name: str, what: str, repo: Path, tmp_path: Path
) -> None:
    """Made with `new`, or a CapWords value handed on (an argument, an array item, an
    object's value, a base class), a name no sample binds is listed, not passed silently."""
    code = f"import {{ defineConfig }} from 'nitroish';\n{code}"
    listed = _by_name(_card(code, repo, tmp_path))
    assert name in listed, listed
    root = name.removeprefix("new ").rstrip("()")
    assert accounting.NEVER_BOUND.format(root=root) in listed[name]
    assert f"(what it {what} not judged)" in listed[name]


@pytest.mark.parametrize(
    "code",
    [
        "const d = new Date();\nconst m = new Map([[1, Promise]]);",
        "defineConfig({ Key: 1, value: lowercase });",
        "const View = () => <Button label='x' />;",
        "const Store = 1;\ndefineConfig({ store: Store });",
    ],
)
def test_globals_keys_jsx_tags_and_bound_names_are_not_listed_as_never_bound(
    code: str, repo: Path, tmp_path: Path
) -> None:
    code = f"import {{ defineConfig }} from 'nitroish';\n{code}"
    card = _card(code, repo, tmp_path, lang="jsx")
    never = [r for r in _by_name(card).values() if "is never bound in the samples" in r]
    assert never == [], never


def test_a_fences_tree_is_walked_once_for_its_five_readings(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accounting reads a fence's tree five times (its bindings, member chains, keys,
    free calls, patterns taken apart): the tree is walked once for all five, and each
    reading sees every node in document order as before (the card's entries unchanged)."""
    walks: list[str] = []
    walk = accounting.named_nodes

    def counted(root: object) -> object:
        walks.append(getattr(root, "type", ""))
        return walk(root)

    code = "const app = makeApp();\napp.routes.add({ path: '/' });\nconst { a } = app.load();\n"
    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before = _card(code, repo, tmp_path / "before")
    monkeypatch.setattr(accounting, "named_nodes", counted)
    after = _card(code, repo, tmp_path / "after")
    assert walks.count("program") == 1, walks
    assert after.detail["unjudged"] == before.detail["unjudged"]
    assert before.detail["accounted"]  # the readings listed something: they were run
