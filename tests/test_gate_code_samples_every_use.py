"""Gate 15 accounts for every use it parses in a fence it reads (issue 26: never silent).

Each member a chain reaches (``orm.em.removeEntity(book)``: ``em`` and ``removeEntity``)
and each key of an object a call is handed appears on the card at its own line, judged
(``checked_names``, ``violations``) or ``unjudged`` with a reason; only what is not the
product's (a runtime global's members, another package's import's, a literal's, the page's
own function's) is left out. The fences are the shapes that left natural drift's tune-half
defects named by no card: a receiver the page never binds (mikro-orm's ``orm.em``,
``em.getKnex()``), the parameter of a callback nested in the options passed to the product
(Chart.js's ``tooltipModel._fontFamily``), the keys passed to a class the page never
imports (``MikroOrmModule.forRoot({ entitiesDirs })``)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import FRONT_MATTER, make_post, make_repo, repo_context

PRODUCT = {
    "package.json": json.dumps({"name": "ormish", "main": "index.js"}),
    "index.js": (
        "export class Orm {\n  static init(options) { return new Orm() }\n"
        "  find(where) { return [] }\n}\n"
    ),
}
# Roots that are not the product's: their members are never the gate's to list.
FOREIGN = ("document", "console", "Math", "lodash", "own", "tooltipEl")
PREAMBLE = (
    'import lodash from "lodash";\nfunction own() { return 1 }\n'
    'var tooltipEl = document.getElementById("x");\n'
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("every") / "repo", PRODUCT)


def _card(code: str, repo: Path, cache: Path, lang: str = "ts") -> Scorecard:
    with tempfile.TemporaryDirectory(dir=cache.parent) as folder:
        body = f"Intro.\n\n```{lang}\n{code}\n```\n"
        post = make_post(body, Path(folder))
        return gate.GATE.evaluate(post, repo_context(repo, cache))


def _uses(code: str) -> list[tuple[int, str, str]]:
    """(fence row, member or key, the root of its chain or call) of every member a chain
    reaches and every key of an object literal a call or ``new`` is handed, parsed here
    with tree-sitter, independently of the gate."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = code.encode()
    tree = parsers["typescript"].parse(source)
    found: list[tuple[int, str, str]] = []

    def text(node: Any) -> str:
        return source[node.start_byte : node.end_byte].decode()

    def root_of(node: Any) -> str:
        while node.type in ("member_expression", "call_expression", "new_expression",
                            "await_expression", "subscript_expression"):  # fmt: skip
            fields = ("object", "function", "constructor")
            found_in = [node.child_by_field_name(f) for f in fields]
            node = next((n for n in found_in if n is not None), node.named_children[0])
        return text(node)

    def keys(node: Any, root: str) -> None:
        if node.type == "array":
            for item in node.named_children:
                keys(item, root)
        if node.type != "object":
            return
        for pair in node.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            if key is not None:
                found.append((key.start_point[0], text(key), root))
                value = pair.child_by_field_name("value")
                if value is not None:
                    keys(value, root)

    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type == "member_expression":
            prop = node.child_by_field_name("property")
            found.append((prop.start_point[0], text(prop), root_of(node)))
        elif node.type == "variable_declarator" and node.child_by_field_name("value") is not None:
            pattern, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            for item in pattern.named_children if pattern.type == "object_pattern" else []:
                key = item if "shorthand" in item.type else item.child_by_field_name("key")
                key = key if key is not None else item.child_by_field_name("left")
                if key is not None:  # `const { data } = load()`: a member of what it gives
                    found.append((key.start_point[0], text(key), root_of(value)))
        elif node.type in ("call_expression", "new_expression"):
            args = node.child_by_field_name("arguments")
            callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
            for arg in args.named_children if args is not None and callee is not None else []:
                keys(arg, root_of(callee))
    return found


def _named_at(card: Scorecard, line: int) -> set[str]:
    """The words the card's entries at ``line`` name: their names and their reasons."""
    words: set[str] = set()
    for listing in ("checked_names", "violations", "unjudged"):
        for entry in card.detail.get(listing) or []:
            if entry["line"] == line:
                said = f"{entry.get('name', '')} {entry.get('reason', '')}"
                words.update(re.findall(r"[A-Za-z_$][\w$]*", said))
    return words


def _assert_every_use_named(code: str, repo: Path, cache: Path) -> Scorecard:
    card = _card(code, repo, cache)
    first = _fence_first_line()
    for row, name, root in _uses(code):
        if root in FOREIGN or root in ("raw", '"x"'):
            continue
        assert name in _named_at(card, first + row), (row, name, root, card.detail)
    assert card.verdict == "PASS", card.detail  # unjudged entries never fail the gate
    return card


def _fence_first_line() -> int:
    """The page line of a fence's first line: the front matter, "Intro.", a blank line
    and the fence's opening line before it."""
    return FRONT_MATTER.count("\n") + 4


TABLE = [
    # A receiver the page never binds (mikro-orm's cascading and raw-queries pages).
    "await orm.em.removeEntity(book); // also removes book.publisher\n",
    "const knexRaw = em.getKnex().raw('select 1');\n"
    "const r = await em.find(User, { id: raw(knexRaw) });\n",
    # The keys passed to a class the page never imports (usage-with-nestjs).
    "@Module({\n  imports: [\n    MikroOrmModule.forRoot({\n      entitiesDirs: ['dist'],\n"
    "      entitiesDirsTs: ['src'],\n      type: 'sqlite',\n    }),\n  ],\n})\n"
    "export class AppModule {}\n",
    # A callback nested in the options handed to the product (Chart.js's custom tooltip).
    PREAMBLE + "new Chart(ctx, {\n  options: {\n    tooltips: {\n"
    "      custom: function(tooltipModel) {\n        tooltipEl.style.opacity = 0;\n"
    "        tooltipEl.style.fontFamily = tooltipModel._fontFamily;\n"
    "        var position = this._chart.canvas.getBoundingClientRect();\n"
    "        console.log(Math.max(1, 2), lodash.get(own(), 'a'));\n      }\n    }\n  }\n});\n",
    # The product itself, imported and typed: judged, not listed.
    'import { Orm } from "ormish";\nconst orm = Orm.init({ debug: true });\norm.find({ id: 1 });\n',
    # Keys an object pattern takes from a value the page never binds, from a parameter,
    # and nested (`const { data: { rows } } = ...`): members of that value.
    "const { data, error } = await client.query('x');\n"
    "const {\n  data: { rows = [] },\n  meta: info,\n} = useThing();\n"
    "run(function (em) { const { knex } = em; knex.raw('1'); });\n",
]


@pytest.mark.parametrize("code", TABLE)
def test_every_member_and_key_of_a_fence_is_on_the_card(
    code: str, repo: Path, tmp_path: Path
) -> None:
    _assert_every_use_named(code, repo, tmp_path / "cache")


def test_the_tune_halfs_silent_shapes_are_named_with_their_receiver(
    repo: Path, tmp_path: Path
) -> None:
    card = _card(TABLE[3], repo, tmp_path / "cache")
    [entry] = [u for u in card.detail["unjudged"] if u.get("name") == "tooltipModel._fontFamily"]
    assert "`tooltipModel` is a parameter of a function the sample writes" in entry["reason"]
    listed = {u.get("name") for u in card.detail["unjudged"]}
    # The page's own DOM element, the console, Math, lodash: none of them is the product's.
    assert not any(str(n).startswith(("tooltipEl", "console", "Math", "lodash")) for n in listed)


def test_a_key_taken_apart_from_a_typed_product_value_is_judged_as_its_member(
    repo: Path, tmp_path: Path
) -> None:
    code = 'import { Orm } from "ormish";\nconst orm = new Orm();\nconst { find, fnd } = orm;\n'
    card = _card(code, repo, tmp_path / "cache")
    line = _fence_first_line() + 2
    found = [(v["line"], v["name"]) for v in card.detail["violations"]]
    assert found == [(line, "Orm.fnd")], card.detail
    checked = {(c["line"], c["name"].rsplit(".", 1)[-1]) for c in card.detail["checked_names"]}
    assert (line, "find") in checked, card.detail


_NAMES = st.sampled_from(["em", "orm", "client", "ctx", "app"])
_MEMBERS = st.lists(st.sampled_from(["find", "getKnex", "raw", "em", "persist", "_x"]),
                    min_size=1, max_size=3)  # fmt: skip
_KEYS = st.lists(st.sampled_from(["where", "limit", "entitiesDirs", "type"]), max_size=3,
                 unique=True)  # fmt: skip


@st.composite
def _fence(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        root, members, keys = draw(_NAMES), draw(_MEMBERS), draw(_KEYS)
        chain = root + "".join(f".{m}()" if i % 2 else f".{m}" for i, m in enumerate(members))
        literal = "{ " + ", ".join(f"{k}: 1" for k in keys) + " }" if keys else ""
        param = draw(st.booleans())
        call = f"{chain}({literal});"
        lines.append(f"run(function ({root}) {{ {call} }});" if param else call)
    return "\n".join(lines) + "\n"


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(code=_fence())
def test_every_member_and_key_of_a_generated_fence_is_on_the_card(
    code: str, repo: Path, tmp_path: Path
) -> None:
    _assert_every_use_named(code, repo, tmp_path / "cache")


PY_PRODUCT = {
    "pyproject.toml": '[project]\nname = "pyorm"\n',
    "pyorm/__init__.py": (
        "class Orm:\n    def find(self, where=None):\n        return []\n\n"
        "def connect(url: str) -> Orm:\n    return Orm()\n"
    ),
}
PY_TABLE = [
    "orm.em.remove_entity(book)\nem.persist(book, flush=True)\n",
    "import pyorm\norm = pyorm.connect('x')\norm.find(where=1)\norm.fnd(limit=2)\n",
    "def handler(req, *, session):\n    req.sesion.user(timeout=3)\n    session.commit()\n",
    ">>> import pyorm\n>>> client = make_client(retries=2)\n>>> client.get('/').json()\n{}\n",
]


@pytest.mark.parametrize("code", PY_TABLE)
def test_every_attribute_and_keyword_of_a_python_fence_is_on_the_card(
    code: str, tmp_path: Path
) -> None:
    import ast

    from pytest_postgates.helpers.python_samples import sample_code

    repo = make_repo(tmp_path / "pyrepo", PY_PRODUCT)
    card = _card(code, repo, tmp_path / "cache", lang="python")
    parsed, where = sample_code(code)
    first = _fence_first_line()
    for node in ast.walk(ast.parse(parsed)):
        uses = (
            [(node.end_lineno or node.lineno, node.attr)] if isinstance(node, ast.Attribute) else []
        )
        if isinstance(node, ast.Call):
            uses += [(k.lineno, str(k.arg)) for k in node.keywords if k.arg]
        for row, name in uses:
            line = first + where[row - 1]
            assert name in _named_at(card, line), (line, name, card.detail)


def test_a_call_of_a_name_no_sample_binds_is_listed(repo: Path, tmp_path: Path) -> None:
    code = "const db = connect('x');\nfunction own() {}\nown();\nsetTimeout(own, 1);\n"
    card = _card(code, repo, tmp_path / "cache")
    listed = {(u["line"], u["name"]) for u in card.detail["unjudged"]}
    assert listed == {(_fence_first_line(), "connect()")}, card.detail
    assert card.verdict == "PASS"
