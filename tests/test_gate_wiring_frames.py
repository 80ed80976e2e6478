"""Gate 16's own claim frames (helpers/wiring_lines.py): the call and return claims gate
13's patterns miss ("forwards to", "is directly called by", "returns a `Promise`"), read
and judged like gate 13's, each verified, contradicted or unjudged with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import BY_ID
from pytest_postgates.helpers.claim_scan import scan_claims
from pytest_postgates.helpers.wiring_lines import extra_claims
from tests.helpers import make_post, make_repo, repo_context

PY_SOURCES = {
    "pkg/__init__.py": "",
    "pkg/attribute.py": (
        "class Handler:\n"
        "    def get_module(self, name):\n"
        "        return self.get_instance(name)\n\n"
        "    def get_instance(self, name):\n"
        "        return self.look_up(name)\n\n"
        "    def get_class(self, name):\n"
        "        return self.look_up(name)\n\n"
        "    def get_super(self, name):\n"
        "        return name\n\n"
        "    def look_up(self, name):\n"
        "        return name\n\n"
        "    def build_inner(self):\n"
        "        return 1\n\n"
        "    def build_value(self):\n"
        "        return 2\n\n"
        "    def getitem_slot(self):\n"
        "        return self.build_inner() + self.build_value()\n\n"
        "    def setitem_slot(self):\n"
        "        return 3\n"
    ),
}

TS_SOURCES = {
    "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
    "src/load.ts": """
export class PackageData {}
export class Selection {}
export async function loadPackage(names: string[]) { return names; }
export function loadIndex(): Promise<PackageData[]> { return Promise.resolve([]); }
export function readPoints(root: string): Points { return {} as Points; }
export function countAll(): number { return 0; }
export function dispatchCommand(): boolean { return update(); }
export function update(): boolean { return true; }
export function quiet(): boolean { return true; }
interface Points { anchor: string }
""",
}


def _card(repo: Path, tmp_path: Path, body: str) -> Any:
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    return BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))


# What a case asks of the claims gate 16 lists: which claim (its fields; "row" is its line
# in the body, "subject has" a part of its subject), and what it holds (a field's value,
# None for a field it lacks, "evidence has" a part of its evidence, "listed" how many
# claims ``which`` picks).
Which = dict[str, object]
Holds = dict[str, object]

EVALS_SOURCES = {
    "evals/__init__.py": "",
    "evals/online.py": (
        "class OnlineEvalConfig:\n"
        "    def evaluate(self, fn):\n"
        "        return fn\n\n"
        "DEFAULT_CONFIG = make_default()\n\n"
        "def evaluate(fn):\n"
        "    return DEFAULT_CONFIG.evaluate(fn)\n\n"
        "def reset():\n"
        "    return len([])\n"
    ),
}
WALK_SOURCES = {
    "pkg/__init__.py": "",
    "pkg/walk.py": (
        "def walk_tree(node):\n"
        "    for child in node:\n"
        "        walk_tree(child)\n\n"
        "def flat_walk(node):\n"
        "    return list(node)\n"
    ),
}
SEQ_SOURCES = {
    "pkg/__init__.py": "",
    "pkg/attr.py": (
        "class Attr:\n"
        "    def get_attribute(self, obj):\n"
        "        self.get_computed('a')\n"
        "        found = self.find_member() if obj else self.find_in_mro()\n"
        "        return self.get_computed('b') or found\n\n"
        "    def get_computed(self, name):\n        return name\n\n"
        "    def find_member(self):\n        return 1\n\n"
        "    def find_in_mro(self):\n        return 2\n\n"
        "    def run_other(self):\n        return 3\n"
    ),
}
LOC_SOURCES = {
    "pkg/__init__.py": "",
    "pkg/loc.py": "def every():\n    return elements()\n\n\n"
    "def elements():\n    return []\n\n\n"
    "def first():\n    return 0\n",
}


@dataclass(frozen=True)
class Case:
    """A post body gated against a repository, and what gate 16 must list for it."""

    id: str
    sources: dict[str, str]
    body: str
    expect: tuple[tuple[Which, Holds], ...]
    # claims that must not be listed
    absent: tuple[Which, ...] = ()
    # every subject the card lists, when the case names them all
    subjects: frozenset[str] | None = None
    verdict: str | None = None
    # the rows of the card's findings, in order
    finding_rows: tuple[int, ...] | None = None
    # how some finding's message opens
    messages: tuple[str, ...] = field(default_factory=tuple)


def _verdict(subject: str, verdict: str, **more: object) -> tuple[Which, Holds]:
    return {"subject": subject}, {"verdict": verdict, **more}


def _row(row: int, verdict: str, code: str = "", **more: object) -> tuple[Which, Holds]:
    which: Which = {"row": row, "code": code} if code else {"row": row}
    return which, {"verdict": verdict, **more}


def _in_row(row: int, subject: str, verdict: str, **more: object) -> tuple[Which, Holds]:
    return {"row": row, "subject": subject}, {"verdict": verdict, **more}


CASES = (
    Case(
        "forwards to and the adverbed passive are read as calls",
        PY_SOURCES,
        "`get_module` forwards to `get_instance`.\n"
        "`get_instance` and `get_class` forward to `look_up`.\n"
        "`get_super` forwards to `look_up`.\n"
        "You can override the `build_inner` and `build_value` methods that are directly "
        "called by `getitem_slot`.\n"
        "`build_value` is only called by `setitem_slot`.\n",
        (
            _verdict("get_module -> get_instance", "verified", frame="forwards to", code="CALLS"),
            # a plural verb after a list of callers: each of them is asked
            _verdict("get_instance -> look_up", "verified"),
            _verdict("get_class -> look_up", "verified"),
            _verdict("get_super -> look_up", "contradicted"),
            # "`a` and `b` ... are directly called by `c`": c calls each of them
            _verdict("getitem_slot -> build_inner", "verified"),
            ({"subject": "getitem_slot -> build_value"}, {"frame": "is called by"}),
            _verdict("setitem_slot -> build_value", "contradicted"),
        ),
        verdict="FAIL",
        messages=("get_super does not call look_up",),
    ),
    Case(
        "a forwarding claim with an unknown end is unjudged",
        PY_SOURCES,
        "`_getitem_slot` forwards to `build_value`.\n",
        (_verdict("_getitem_slot -> build_value", "unjudged", frame="forwards to"),),
        subjects=frozenset({"_getitem_slot -> build_value"}),
    ),
    Case(
        "a return type written as a code span is judged",
        TS_SOURCES,
        "`loadPackage` returns a `Promise`.\n"
        "`loadIndex` returns a `Promise` of package data.\n"
        "`countAll` returns a `PackageData`.\n"
        "`readPoints` returns a `Selection` in the light DOM.\n"
        "`quiet()` returns `true` when nothing is pending.\n"
        "`missing()` returns a `Promise`.\n",
        (
            # an async function (no declared type) returns a Promise
            _row(
                1,
                "verified",
                "RETURN_TYPE",
                frame="returns a code type",
                **{"evidence has": "async"},
            ),
            _row(2, "verified", "RETURN_TYPE"),  # declared Promise<PackageData[]>
            # the product's class, declared number
            _row(3, "contradicted", "RETURN_TYPE", **{"evidence has": "declares `number`"}),
            # the claimed Selection is a class of the product's, and the declared Points another
            _row(4, "contradicted", "RETURN_TYPE"),
            _row(6, "unjudged", "RETURN_TYPE", **{"evidence has": "no function"}),
        ),
        # a literal value is no type: the frame does not read it
        absent=({"row": 5, "code": "RETURN_TYPE"},),
        finding_rows=(3, 4),
    ),
    Case(
        # a third party's or the platform's type ("returns a `Response`") may be what the
        # declared type is; only the product's own types and primitives contradict
        "a return type the product does not declare is never contradicted",
        TS_SOURCES,
        "`readPoints` returns a `Response` here.\n`countAll` returns a `string`.\n",
        (
            _row(1, "unjudged", "RETURN_TYPE", **{"evidence has": "no type the product declares"}),
            _row(2, "contradicted", "RETURN_TYPE"),  # a primitive: declared number
        ),
    ),
    Case(
        "will call is a call claim",
        TS_SOURCES,
        "Calling `dispatchCommand` will implicitly call `editor.update` first.\n"
        "`quiet()` will call `update()` too.\n",
        (
            # gate 13 flags "call": no frame of gate 16's read it
            _verdict("dispatchCommand -> editor.update", "verified", frame=None),
            _verdict("quiet() -> update()", "contradicted"),
        ),
    ),
    Case(
        "myst roles around the names are markup",
        TS_SOURCES,
        "{js:func}`~acme.loadPackage` returns a {js:class}`Promise` which resolves.\n"
        "{js:func}`~acme.countAll` returns a {js:class}`PackageData`.\n",
        (
            _row(1, "verified", "RETURN_TYPE", subject="~acme.loadPackage: Promise"),
            _row(2, "contradicted", "RETURN_TYPE"),
        ),
    ),
    Case(
        "this method is the function its section heading names",
        PY_SOURCES,
        "## build_inner\n\n"
        "This method is called automatically by `getitem_slot` when a slot is read.\n\n"
        "## `get_module()`\n\n"
        "This method finds the module by calling `get_instance`.\n\n"
        "## setitem_slot\n\n"
        "This method is only called by `get_super` in tests.\n\n"
        "## How slots work\n\n"
        "This method is called by `getitem_slot`.\n",
        (
            _verdict("getitem_slot -> build_inner", "verified", frame="is called by"),
            _verdict("get_module -> get_instance", "verified", frame="this method calls"),
            _verdict("get_super -> setitem_slot", "contradicted"),
            # a heading that is no name: "this method" names nothing, the claim is unjudged
            _row(15, "unjudged", subject=None, listed=1),
        ),
    ),
    Case(
        "a parenthesised aside after the subject is skipped",
        TS_SOURCES,
        "`loadIndex` (`@acme/kit/load`) returns a `Promise` of data.\n"
        "`countAll` (`@acme/kit/load`) returns a `PackageData`.\n"
        "`quiet()` (`@acme/kit/load`) calls `countAll()`.\n"
        "`quiet()` (see `update()` too) calls `countAll()`.\n",
        (
            _row(1, "verified", "RETURN_TYPE"),
            _row(2, "contradicted", "RETURN_TYPE"),
            _row(3, "contradicted", "CALLS", subject="quiet() -> countAll()"),
            # an aside that says more than a name is no aside: the caller is not read
            _row(4, "unjudged", "CALLS"),
        ),
    ),
    Case(
        "calls itself is a claim of recursion",
        WALK_SOURCES,
        "Like a visitor, `walk_tree` recursively calls itself on each child.\n"
        "`flat_walk` calls itself too.\n"
        "`missing_walk` calls itself.\n",
        (
            _verdict("walk_tree -> walk_tree", "verified"),
            _verdict("flat_walk -> flat_walk", "contradicted"),
            _verdict("missing_walk -> missing_walk", "unjudged"),
        ),
    ),
    Case(
        "a heading's anchor and badges and a linked type are markup",
        PY_SOURCES | TS_SOURCES,
        '## build_inner <Version type="experimental">4.1</Version> {#build-inner}\n\n'
        "This method is called automatically by [`getitem_slot`](#getitem) when read.\n\n"
        "## getitem_slot <Badge />\n\n"
        "This method is only called by `get_super`.\n\n"
        "`countAll` function returns [`PackageData`](/api/data) instance.\n",
        (
            _verdict("getitem_slot -> build_inner", "verified"),
            _verdict("get_super -> getitem_slot", "contradicted"),
            _verdict("countAll: PackageData", "contradicted"),
        ),
    ),
    Case(
        "a callee wrapped onto the next line is read",
        PY_SOURCES,
        "1.  Once unpacked, each helper is called.\n\n"
        "    b. `get_instance` and `get_class` forward to\n"
        "    `look_up`.\n\n"
        "    c. `get_super` determines the class and calls\n"
        "    `look_up` on it.\n\n"
        "`getitem_slot` calls\n"
        "- `build_inner`, a list item of its own.\n",
        (
            ({"row": 3, "subject": "get_instance -> look_up"}, {"verdict": "verified"}),
            ({"row": 3, "subject": "get_class -> look_up"}, {"frame": "forwards to"}),
            ({"row": 6, "subject": "get_super -> look_up"}, {"verdict": "contradicted"}),
            # a list item is a block of its own, no continuation: the callee is not read
            _row(9, "unjudged", subject=None),
        ),
    ),
    Case(
        # pydantic-evals' `evaluate()` returns `DEFAULT_CONFIG.evaluate(...)`: it delegates
        # to a global OnlineEvalConfig, a call the graph cannot type. A caller that calls
        # nothing of the class is still contradicted.
        "delegating to a class through a module instance is not contradicted",
        EVALS_SOURCES,
        "The module-level `evaluate()` delegates to `OnlineEvalConfig`.\n\n"
        "The module-level `reset()` delegates to `OnlineEvalConfig`.\n",
        (
            _verdict(
                "evaluate() -> OnlineEvalConfig",
                "unjudged",
                **{"evidence has": "may be `OnlineEvalConfig`'s"},
            ),
            _verdict("reset() -> OnlineEvalConfig", "contradicted"),
        ),
    ),
    Case(
        # frame "calling in" (pytype's special_builtins.md: "The VM loads python builtins by
        # calling `load_builtin()` in `byte_LOAD_NAME`"): the caller is named after the callee
        "calling a callee in a named caller is read as a call",
        PY_SOURCES,
        "The handler resolves names by calling `get_instance()` in `get_module`.\n\n"
        "It builds values by calling `build_value()` in `get_module`.\n\n"
        "Settings are read by calling `look_up()` in `settings.py`.\n",
        (
            _verdict("get_module -> get_instance()", "verified", frame="calling in"),
            _verdict("get_module -> build_value()", "contradicted"),
        ),
        absent=({"subject has": "settings"},),  # a file is no caller
    ),
    Case(
        # the labelling rules' "the reader's call" (textual's design.md: "You can register
        # this theme by calling `App.register_theme` in the `on_mount` method of your
        # `App`"): a caller written as the reader's, or a "calling in" the reader or an
        # instruction does, is listed unjudged with that reason, never judged; the
        # product's own "calling in" still is
        "a call made by the reader's code is no claim",
        PY_SOURCES,
        "You can resolve names by calling `build_value()` in `get_module`.\n\n"
        "Resolve the names by calling `build_value()` in the `get_module` method.\n\n"
        "Names resolve by calling `build_value()` in the `get_module` method of your"
        " `Handler`.\n\n"
        "Your `get_module` calls `build_value()`.\n\n"
        # "you" in another sentence of the line leaves this one the product's
        "The handler resolves names by calling `build_value()` in `get_module`. You may"
        " skip it.\n\n"
        # a statement's opening word is no instruction, capitalised or not
        "The `Handler` resolves names by calling `build_value()` in `get_module`.\n",
        (
            *(
                _row(row, "unjudged", subject=None, **{"evidence has": "the reader's code"})
                for row in (1, 3, 5, 7)
            ),
            *(
                _row(row, "contradicted", subject="get_module -> build_value()", frame="calling in")
                for row in (9, 11)
            ),
        ),
    ),
    Case(
        # frame "wraps a method" (pytype's abstract_values.md:
        # "`Converter.constant_to_value`, which wraps the `_constant_to_value` method")
        "a function that wraps a named method is read as a call",
        PY_SOURCES,
        "The main lookup is `get_instance`, which wraps the `look_up` method and caches.\n\n"
        "`get_super` wraps the `look_up` method.\n\n"
        "`get_class` wraps the `look_up` result in a list.\n",
        (
            _verdict("get_instance -> look_up", "verified", frame="wraps a method"),
            _verdict("get_super -> look_up", "contradicted"),
        ),
        absent=({"subject": "get_class -> look_up"},),  # no noun says `look_up` is a function
    ),
    Case(
        # vitest's vi.md ("### vi.clearAllMocks ... Calls [`.mockClear()`](...) on all
        # spies."): the caller is the one name of the section's heading
        "a sentence opening with calls is about its section's function",
        PY_SOURCES,
        "## get_class\n\nCalls [`.look_up()`](#look-up) on the name.\n\n"
        "## get_super\n\nCalls `look_up` first.\n\n"
        "## The handler\n\nCalls `look_up` first.\n",
        (
            _verdict("get_class -> .look_up()", "verified"),
            _verdict("get_super -> look_up", "contradicted"),
        ),
        # a heading that is no name names no caller
        subjects=frozenset({"get_class -> .look_up()", "get_super -> look_up"}),
    ),
    Case(
        # lexical's dom-render.md ("| `$generateHtmlFromNodes(editor)` | Convenience:
        # creates a `<div>`, calls `$generateDOMFromNodes`, ... |")
        "a table row names its caller in its first cell",
        PY_SOURCES,
        "| Function | What it does |\n| --- | --- |\n"
        "| `getitem_slot(self)` | Sums: builds a `<div>`, calls `build_inner` and "
        "`build_value`. |\n"
        "| `get_super(name)` | Calls `look_up`. |\n"
        "| The `get_class` helper | Calls `look_up`. |\n",
        (
            _verdict("getitem_slot(self) -> build_inner", "verified"),
            _verdict("getitem_slot(self) -> build_value", "verified"),
            _verdict("get_super(name) -> look_up", "contradicted"),
        ),
        # a first cell that says more than a name names no caller
        subjects=frozenset(
            {
                "getitem_slot(self) -> build_inner",
                "getitem_slot(self) -> build_value",
                "get_super(name) -> look_up",
            }
        ),
    ),
    Case(
        # pytype's attributes.md ("calling `_get_attribute_flat` - which in turn calls
        # `_get_member` -")
        "which after a dash keeps its caller",
        PY_SOURCES,
        "The walk goes on, calling `get_instance` - which in turn calls `look_up` - twice.\n",
        (_verdict("get_instance -> look_up", "verified"),),
    ),
    Case(
        # pytype's attributes.md ("`set_attribute` then calls `_set_member`, which first
        # calls" / "`_maybe_load_as_instance_attribute` to make sure ...")
        "a second verb of a line reads its callee wrapped onto the next",
        PY_SOURCES,
        "Lookup starts in `get_module`, and `get_module` calls `get_instance`, which calls\n"
        "`look_up` to find the name.\n",
        (
            _verdict("get_module -> get_instance", "verified"),
            _verdict("get_instance -> look_up", "verified"),
        ),
    ),
    Case(
        # vitest's locators.md ("### all ... Internally, this method calls `.elements`")
        "a sentence adverb before this method keeps the section's function",
        PY_SOURCES,
        "## get_class\n\nInternally, this method calls `.look_up` once.\n\n"
        "## get_super\n\nInternally, this method calls `.look_up` once.\n",
        (
            _verdict("get_class -> .look_up", "verified"),
            _verdict("get_super -> .look_up", "contradicted"),
        ),
    ),
    Case(
        # vitest's locators.md ("Internally, this method calls `.elements`"): the dot says
        # `elements` is a member, so the plain word is read as a function's name
        "a plain word written with a member's dot is a name",
        LOC_SOURCES,
        "## every\n\nInternally, this method calls `.elements` once.\n\n"
        "## first\n\nInternally, this method calls `.elements` once.\n",
        (
            _verdict("every -> .elements", "verified"),
            _verdict("first -> .elements", "contradicted"),
        ),
    ),
    Case(
        # pytype's attributes.md:78-82: the sentence opens on a line before the verb, and
        # verbs joined by ", then" / ", and finally" share the first verb's caller
        "verbs joined to a sentence's first call share its caller across wrapped lines",
        SEQ_SOURCES,
        "To mimic this, `get_attribute` first calls\n"
        '`get_computed("a")`, then calls either\n'
        "`find_member` or `find_in_mro` depending on\n"
        "the target, and finally calls `run_other`.\n",
        (
            _in_row(1, 'get_attribute -> get_computed("a")', "verified"),
            _in_row(2, "get_attribute -> find_member", "verified"),
            _in_row(2, "get_attribute -> find_in_mro", "verified", listed=1),
            _in_row(4, "get_attribute -> run_other", "contradicted"),
        ),
    ),
    Case(
        # Kolonie's D-020 ("`bookTaskReward` lives in `rewards.ts`, is" / "called by
        # `recordVerdict` inside its transaction"): the sentence's subject with its
        # predicates joined by commas
        "a passive after a predicate joined by a comma keeps the sentence's subject",
        PY_SOURCES,
        "**Decision.** `look_up` lives in `pkg/attribute.py`, is\n"
        "called by `get_instance` inside its loop, and takes a name.\n\n"
        "`get_super` lives in `pkg/attribute.py`, is called by `get_module`.\n",
        (
            _in_row(1, "get_instance -> look_up", "verified"),
            _in_row(4, "get_module -> get_super", "contradicted"),
        ),
    ),
    Case(
        # vitest's reporters.md:58 ("### onInit ... Internally this method is called inside
        # [`vitest.start`](...), [`vitest.init`](...) or [`vitest.mergeReports`](...)")
        "this method is called inside a list of callers, together",
        PY_SOURCES,
        "## look_up\n\nInternally this method is called inside [`get_instance`](#a), "
        "[`get_super`](#b) or [`get_module`](#c).\n\n"
        "## build_inner\n\nInternally this method is called inside [`get_module`](#a) "
        "or [`get_super`](#b).\n\n"
        "`look_up` is called in `attribute.py` once.\n",
        (
            _verdict("get_instance, get_super and get_module -> look_up", "verified"),
            _verdict("get_module and get_super -> build_inner", "contradicted"),
        ),
        absent=({"row": 9, "subject has": "->"},),
    ),
    Case(
        # pyodide's changelog ("`runPythonAsync` now runs the code with `eval_code_async`")
        # and vitest's locators.md:1052 ("Internally, this method calls `.elements` and
        # wraps every element using [`page.elementLocator`](...)"): "using" is a call only
        # joined to a call verb of the same caller
        "runs with and a using joined to a call are read as calls",
        PY_SOURCES,
        "`get_module` now runs the lookup with `get_instance`.\n\n"
        "## get_class\n\nInternally, this method calls `.look_up` and wraps every result "
        "using [`build_value`](#b).\n\n"
        "`get_instance` does the work using `build_inner`.\n",
        (
            _verdict("get_module -> get_instance", "verified"),
            _verdict("get_class -> .look_up", "verified"),
            _verdict("get_class -> build_value", "contradicted"),
        ),
        absent=({"subject": "get_instance -> build_inner"},),
    ),
    Case(
        # vitest's vitest.md:279 ("This method emits `reporter.onWatcherRerun` and
        # `onTestsRerun` events, then it runs tests with [`runTestSpecifications`](...)")
        "it after then is the subject of its own sentence",
        PY_SOURCES,
        "## get_instance\n\nThis method emits `build_inner` events, then it runs the search "
        "with [`look_up`](#l).\n\n"
        "`get_super` reads `build_inner`, then it runs the search with `look_up`.\n\n"
        "Lookups are slow, then it runs the search with `look_up`.\n",
        (
            _verdict("get_instance -> look_up", "verified"),
            _verdict("get_super -> look_up", "contradicted"),
        ),
        # a sentence whose subject is no name: "it" is not read
        absent=({"row": 7, "subject has": "->"},),
    ),
)


def _matches(claim: dict[str, Any], which: Which) -> bool:
    for key, wanted in which.items():
        if key == "row":
            if claim["line"] - 5 != wanted:  # the front matter's 5 lines come first
                return False
        elif key == "subject has":
            if not isinstance(wanted, str) or wanted not in claim.get("subject", ""):
                return False
        elif claim.get(key) != wanted:
            return False
    return True


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gate_16_lists_the_claims_of_its_frames(case: Case, tmp_path: Path) -> None:
    card = _card(make_repo(tmp_path / "repo", case.sources), tmp_path, case.body)
    claims: list[dict[str, Any]] = card.detail["claims"]
    for which, holds in case.expect:
        chosen = [c for c in claims if _matches(c, which)]
        assert chosen, (which, claims)
        claim = chosen[-1]  # the last listed, as a dict keyed by ``which`` would keep
        for key, wanted in holds.items():
            if key == "listed":
                assert len(chosen) == wanted, (which, chosen)
            elif key == "evidence has":
                assert isinstance(wanted, str) and wanted in claim["evidence"], claim
            elif wanted is None:
                assert key not in claim, claim
            else:
                assert claim.get(key) == wanted, (key, claim)
    for which in case.absent:
        assert not [c for c in claims if _matches(c, which)], (which, claims)
    if case.subjects is not None:
        assert {c["subject"] for c in claims if "subject" in c} == case.subjects
    if case.verdict is not None:
        assert card.verdict == case.verdict
    if case.finding_rows is not None:
        assert [f.line - 5 for f in card.findings] == list(case.finding_rows)
    for opening in case.messages:
        assert any(f.message.startswith(opening) for f in card.findings), card.findings


def test_the_frames_leave_gate_13s_lines_and_code_alone(tmp_path: Path) -> None:
    body = (
        "`a` calls `b`, and `b` forwards to `c`.\n"
        "```\n`x` forwards to `y`\n```\n"
        "`f` returns a `Promise<T>` (gate 13's own).\n"
        "`g` returns a `Thing`, `h` returns a plain value.\n"
        "the function called by `x` is no passive claim.\n"
    )
    post = make_post(body, tmp_path)
    flagged = {(c.line, c.code) for c in scan_claims(post) if not c.in_code}
    found = {(e.line - 5, e.code, e.frame) for e in extra_claims(post, flagged)}
    assert found == {(6, "RETURN_TYPE", "returns a code type")}
