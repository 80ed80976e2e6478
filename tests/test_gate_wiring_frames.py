"""Gate 16's own claim frames (helpers/wiring_lines.py): the call and return claims gate
13's patterns miss ("forwards to", "is directly called by", "returns a `Promise`"), read
and judged like gate 13's, each verified, contradicted or unjudged with its reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def _by_subject(card: Any) -> dict[str, dict[str, Any]]:
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_forwards_to_and_the_adverbed_passive_are_read_as_calls(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "`get_module` forwards to `get_instance`.\n"
        "`get_instance` and `get_class` forward to `look_up`.\n"
        "`get_super` forwards to `look_up`.\n"
        "You can override the `build_inner` and `build_value` methods that are directly "
        "called by `getitem_slot`.\n"
        "`build_value` is only called by `setitem_slot`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = _by_subject(card)
    forwards = claims["get_module -> get_instance"]
    assert forwards["verdict"] == "verified" and forwards["frame"] == "forwards to"
    assert forwards["code"] == "CALLS"
    # a plural verb after a list of callers: each of them is asked
    assert claims["get_instance -> look_up"]["verdict"] == "verified"
    assert claims["get_class -> look_up"]["verdict"] == "verified"
    assert claims["get_super -> look_up"]["verdict"] == "contradicted"
    # "`a` and `b` ... are directly called by `c`": c calls each of them
    assert claims["getitem_slot -> build_inner"]["verdict"] == "verified"
    assert claims["getitem_slot -> build_value"]["frame"] == "is called by"
    assert claims["setitem_slot -> build_value"]["verdict"] == "contradicted"
    assert card.verdict == "FAIL"
    messages = [f.message for f in card.findings]
    assert any(m.startswith("get_super does not call look_up") for m in messages)


def test_a_forwarding_claim_with_an_unknown_end_is_unjudged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = "`_getitem_slot` forwards to `build_value`.\n"
    (claim,) = _by_subject(_card(repo, tmp_path, body)).values()
    assert claim["verdict"] == "unjudged" and claim["frame"] == "forwards to"


def test_a_return_type_written_as_a_code_span_is_judged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", TS_SOURCES)
    body = (
        "`loadPackage` returns a `Promise`.\n"
        "`loadIndex` returns a `Promise` of package data.\n"
        "`countAll` returns a `PackageData`.\n"
        "`readPoints` returns a `Selection` in the light DOM.\n"
        "`quiet()` returns `true` when nothing is pending.\n"
        "`missing()` returns a `Promise`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "RETURN_TYPE"}
    # an async function (no declared type) returns a Promise
    assert claims[1]["verdict"] == "verified" and "async" in claims[1]["evidence"]
    assert claims[1]["frame"] == "returns a code type"
    assert claims[2]["verdict"] == "verified"  # declared Promise<PackageData[]>
    assert claims[3]["verdict"] == "contradicted"  # the product's class, declared number
    assert "declares `number`" in claims[3]["evidence"]
    # the claimed Selection is a class of the product's, and the declared Points another
    assert claims[4]["verdict"] == "contradicted"
    assert 5 not in claims  # a literal value is no type: the frame does not read it
    assert claims[6]["verdict"] == "unjudged"
    assert "no function" in claims[6]["evidence"]
    assert [f.line - 5 for f in card.findings] == [3, 4]


def test_a_return_type_the_product_does_not_declare_is_never_contradicted(
    tmp_path: Path,
) -> None:
    """A third party's or the platform's type ("returns a `Response`") may be what the
    declared type is; only the product's own types and primitives contradict."""
    repo = make_repo(tmp_path / "repo", TS_SOURCES)
    body = "`readPoints` returns a `Response` here.\n`countAll` returns a `string`.\n"
    card = _card(repo, tmp_path, body)
    claims = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "RETURN_TYPE"}
    assert claims[1]["verdict"] == "unjudged"
    assert "no type the product declares" in claims[1]["evidence"]
    assert claims[2]["verdict"] == "contradicted"  # a primitive: declared number


def test_will_call_is_a_call_claim(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", TS_SOURCES)
    body = (
        "Calling `dispatchCommand` will implicitly call `editor.update` first.\n"
        "`quiet()` will call `update()` too.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["dispatchCommand -> editor.update"]["verdict"] == "verified"
    assert "frame" not in claims["dispatchCommand -> editor.update"]  # gate 13 flags "call"
    assert claims["quiet() -> update()"]["verdict"] == "contradicted"


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


def test_myst_roles_around_the_names_are_markup(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", TS_SOURCES)
    body = (
        "{js:func}`~acme.loadPackage` returns a {js:class}`Promise` which resolves.\n"
        "{js:func}`~acme.countAll` returns a {js:class}`PackageData`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "RETURN_TYPE"}
    assert claims[1]["verdict"] == "verified"
    assert claims[1]["subject"] == "~acme.loadPackage: Promise"
    assert claims[2]["verdict"] == "contradicted"


def test_this_method_is_the_function_its_section_heading_names(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "## build_inner\n\n"
        "This method is called automatically by `getitem_slot` when a slot is read.\n\n"
        "## `get_module()`\n\n"
        "This method finds the module by calling `get_instance`.\n\n"
        "## setitem_slot\n\n"
        "This method is only called by `get_super` in tests.\n\n"
        "## How slots work\n\n"
        "This method is called by `getitem_slot`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = _by_subject(card)
    called = claims["getitem_slot -> build_inner"]
    assert called["verdict"] == "verified" and called["frame"] == "is called by"
    calling = claims["get_module -> get_instance"]
    assert calling["verdict"] == "verified" and calling["frame"] == "this method calls"
    assert claims["get_super -> setitem_slot"]["verdict"] == "contradicted"
    # a heading that is no name: "this method" names nothing, the claim is unjudged
    (unread,) = [c for c in card.detail["claims"] if c["line"] - 5 == 15]
    assert unread["verdict"] == "unjudged" and "subject" not in unread


def test_a_parenthesised_aside_after_the_subject_is_skipped(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", TS_SOURCES)
    body = (
        "`loadIndex` (`@acme/kit/load`) returns a `Promise` of data.\n"
        "`countAll` (`@acme/kit/load`) returns a `PackageData`.\n"
        "`quiet()` (`@acme/kit/load`) calls `countAll()`.\n"
        "`quiet()` (see `update()` too) calls `countAll()`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {(c["line"] - 5, c["code"]): c for c in card.detail["claims"]}
    assert claims[1, "RETURN_TYPE"]["verdict"] == "verified"
    assert claims[2, "RETURN_TYPE"]["verdict"] == "contradicted"
    assert claims[3, "CALLS"]["subject"] == "quiet() -> countAll()"
    assert claims[3, "CALLS"]["verdict"] == "contradicted"
    # an aside that says more than a name is no aside: the caller is not read
    assert claims[4, "CALLS"]["verdict"] == "unjudged"


def test_calls_itself_is_a_claim_of_recursion(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/walk.py": (
                "def walk_tree(node):\n"
                "    for child in node:\n"
                "        walk_tree(child)\n\n"
                "def flat_walk(node):\n"
                "    return list(node)\n"
            ),
        },
    )
    body = (
        "Like a visitor, `walk_tree` recursively calls itself on each child.\n"
        "`flat_walk` calls itself too.\n"
        "`missing_walk` calls itself.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["walk_tree -> walk_tree"]["verdict"] == "verified"
    assert claims["flat_walk -> flat_walk"]["verdict"] == "contradicted"
    assert claims["missing_walk -> missing_walk"]["verdict"] == "unjudged"


def test_a_heading_s_anchor_and_badges_and_a_linked_type_are_markup(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PY_SOURCES | TS_SOURCES)
    body = (
        '## build_inner <Version type="experimental">4.1</Version> {#build-inner}\n\n'
        "This method is called automatically by [`getitem_slot`](#getitem) when read.\n\n"
        "## getitem_slot <Badge />\n\n"
        "This method is only called by `get_super`.\n\n"
        "`countAll` function returns [`PackageData`](/api/data) instance.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = _by_subject(card)
    assert claims["getitem_slot -> build_inner"]["verdict"] == "verified"
    assert claims["get_super -> getitem_slot"]["verdict"] == "contradicted"
    assert claims["countAll: PackageData"]["verdict"] == "contradicted"


def test_a_callee_wrapped_onto_the_next_line_is_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "1.  Once unpacked, each helper is called.\n\n"
        "    b. `get_instance` and `get_class` forward to\n"
        "    `look_up`.\n\n"
        "    c. `get_super` determines the class and calls\n"
        "    `look_up` on it.\n\n"
        "`getitem_slot` calls\n"
        "- `build_inner`, a list item of its own.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {(c["line"] - 5, c.get("subject")): c for c in card.detail["claims"]}
    assert claims[3, "get_instance -> look_up"]["verdict"] == "verified"
    assert claims[3, "get_class -> look_up"]["frame"] == "forwards to"
    assert claims[6, "get_super -> look_up"]["verdict"] == "contradicted"
    # a list item is a block of its own, no continuation: the callee is not read
    assert claims[9, None]["verdict"] == "unjudged"


def test_delegating_to_a_class_through_a_module_instance_is_not_contradicted(
    tmp_path: Path,
) -> None:
    # pydantic-evals' `evaluate()` returns `DEFAULT_CONFIG.evaluate(...)`: it delegates to a
    # global OnlineEvalConfig, a call the graph cannot type. A caller that calls nothing
    # of the class is still contradicted.
    repo = make_repo(
        tmp_path / "repo",
        {
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
        },
    )
    body = (
        "The module-level `evaluate()` delegates to `OnlineEvalConfig`.\n\n"
        "The module-level `reset()` delegates to `OnlineEvalConfig`.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    delegated = claims["evaluate() -> OnlineEvalConfig"]
    assert delegated["verdict"] == "unjudged", delegated
    assert "may be `OnlineEvalConfig`'s" in delegated["evidence"]
    assert claims["reset() -> OnlineEvalConfig"]["verdict"] == "contradicted"


def test_calling_a_callee_in_a_named_caller_is_read_as_a_call(tmp_path: Path) -> None:
    """Frame "calling in" (pytype's special_builtins.md: "The VM loads python builtins by
    calling `load_builtin()` in `byte_LOAD_NAME`"): the caller is named after the callee."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "The handler resolves names by calling `get_instance()` in `get_module`.\n\n"
        "It builds values by calling `build_value()` in `get_module`.\n\n"
        "Settings are read by calling `look_up()` in `settings.py`.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    read = claims["get_module -> get_instance()"]
    assert read["verdict"] == "verified" and read["frame"] == "calling in"
    assert claims["get_module -> build_value()"]["verdict"] == "contradicted"
    assert not any("settings" in s for s in claims)  # a file is no caller


def test_a_function_that_wraps_a_named_method_is_read_as_a_call(tmp_path: Path) -> None:
    """Frame "wraps a method" (pytype's abstract_values.md: "`Converter.constant_to_value`,
    which wraps the `_constant_to_value` method")."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "The main lookup is `get_instance`, which wraps the `look_up` method and caches.\n\n"
        "`get_super` wraps the `look_up` method.\n\n"
        "`get_class` wraps the `look_up` result in a list.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    read = claims["get_instance -> look_up"]
    assert read["verdict"] == "verified" and read["frame"] == "wraps a method"
    assert claims["get_super -> look_up"]["verdict"] == "contradicted"
    assert "get_class -> look_up" not in claims  # no noun says `look_up` is a function


def test_a_sentence_opening_with_calls_is_about_its_sections_function(tmp_path: Path) -> None:
    """Vitest's vi.md ("### vi.clearAllMocks ... Calls [`.mockClear()`](...) on all
    spies."): the caller is the one name of the section's heading."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "## get_class\n\nCalls [`.look_up()`](#look-up) on the name.\n\n"
        "## get_super\n\nCalls `look_up` first.\n\n"
        "## The handler\n\nCalls `look_up` first.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["get_class -> .look_up()"]["verdict"] == "verified"
    assert claims["get_super -> look_up"]["verdict"] == "contradicted"
    assert len(claims) == 2  # a heading that is no name names no caller


def test_a_table_row_names_its_caller_in_its_first_cell(tmp_path: Path) -> None:
    """Lexical's dom-render.md ("| `$generateHtmlFromNodes(editor)` | Convenience:
    creates a `<div>`, calls `$generateDOMFromNodes`, ... |")."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "| Function | What it does |\n| --- | --- |\n"
        "| `getitem_slot(self)` | Sums: builds a `<div>`, calls `build_inner` and "
        "`build_value`. |\n"
        "| `get_super(name)` | Calls `look_up`. |\n"
        "| The `get_class` helper | Calls `look_up`. |\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["getitem_slot(self) -> build_inner"]["verdict"] == "verified"
    assert claims["getitem_slot(self) -> build_value"]["verdict"] == "verified"
    assert claims["get_super(name) -> look_up"]["verdict"] == "contradicted"
    assert len(claims) == 3  # a first cell that says more than a name names no caller


def test_which_after_a_dash_keeps_its_caller(tmp_path: Path) -> None:
    """pytype's attributes.md ("calling `_get_attribute_flat` - which in turn calls
    `_get_member` -")."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = "The walk goes on, calling `get_instance` - which in turn calls `look_up` - twice.\n"
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["get_instance -> look_up"]["verdict"] == "verified"


def test_a_second_verb_of_a_line_reads_its_callee_wrapped_onto_the_next(
    tmp_path: Path,
) -> None:
    """pytype's attributes.md ("`set_attribute` then calls `_set_member`, which first
    calls" / "`_maybe_load_as_instance_attribute` to make sure ...")."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "Lookup starts in `get_module`, and `get_module` calls `get_instance`, which calls\n"
        "`look_up` to find the name.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["get_module -> get_instance"]["verdict"] == "verified"
    assert claims["get_instance -> look_up"]["verdict"] == "verified"


def test_a_sentence_adverb_before_this_method_keeps_the_sections_function(
    tmp_path: Path,
) -> None:
    """Vitest's locators.md ("### all ... Internally, this method calls `.elements`")."""
    repo = make_repo(tmp_path / "repo", PY_SOURCES)
    body = (
        "## get_class\n\nInternally, this method calls `.look_up` once.\n\n"
        "## get_super\n\nInternally, this method calls `.look_up` once.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["get_class -> .look_up"]["verdict"] == "verified"
    assert claims["get_super -> .look_up"]["verdict"] == "contradicted"


def test_a_plain_word_written_with_a_members_dot_is_a_name(tmp_path: Path) -> None:
    """Vitest's locators.md ("Internally, this method calls `.elements`"): the dot says
    `elements` is a member, so the plain word is read as a function's name."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/loc.py": "def every():\n    return elements()\n\n\n"
            "def elements():\n    return []\n\n\n"
            "def first():\n    return 0\n",
        },
    )
    body = (
        "## every\n\nInternally, this method calls `.elements` once.\n\n"
        "## first\n\nInternally, this method calls `.elements` once.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    assert claims["every -> .elements"]["verdict"] == "verified"
    assert claims["first -> .elements"]["verdict"] == "contradicted"
