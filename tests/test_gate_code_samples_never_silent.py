"""Gate 15 never silent (issue 26): a name, member or option key a sample writes is judged
(``checked_names``, ``violations``) or named ``unjudged`` at its own line with the reason,
even where the gate leaves a whole construct unjudged. One test per mechanism that left a
defect of natural drift's tune half named by no card: the keys of an object passed to a
callee the model does not type (got's ``hooks.onError``); names in comments (a line of code
commented out is read as code, jest's ``axios.get.mockImpementation``; a name quoted in
backticks is listed, axios's ``resposeType``); a member of a module the sample replaces with
the product's mock (``jest.mock("axios")``); a member of a package named like the product's
that is none of its repository's (``jest-react-native``); the keys of an object a callback
handed to the product throws or returns (fastify's ``throw { appCode: 418 }``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

# A default export made by a function that declares nothing: its calls' keys are unjudged.
FETCHY = {
    "package.json": json.dumps({"name": "fetchy", "main": "index.js"}),
    "index.js": (
        "const createInstance = defaults => {\n"
        "  const http = (input, options) => fetch(input, { ...defaults, ...options })\n"
        "  return http\n"
        "}\n"
        "export default createInstance();\n"
    ),
}


def _check(code: str, tmp_path: Path, repo: Path, lang: str = "js") -> Scorecard:
    body = f"Intro.\n\n```{lang}\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _named(card: Scorecard, line: int) -> list[dict[str, Any]]:
    """The card's entries at ``line`` (its page line: the fence opens at 3, front matter
    aside, so sample line n is page line n + 3 + the post's front matter lines)."""
    return [
        entry
        for listing in ("unjudged", "violations", "checked_names")
        for entry in card.detail.get(listing) or []
        if entry["line"] == line
    ]


def _line_of(tmp_path: Path, text: str) -> int:
    page = next(tmp_path.glob("*.md")).read_text(encoding="utf-8").splitlines()
    return next(at for at, line in enumerate(page, 1) if text in line)


def test_each_key_of_an_object_passed_to_an_untyped_callee_is_named(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FETCHY)
    code = (
        'import http from "fetchy";\n'
        'http("x", {\n'
        "  hooks: {\n"
        "    onError: [\n"
        "      error => error\n"
        "    ]\n"
        "  },\n"
        "  retries: [{ limt: 2 }],\n"
        "});\n"
    )
    card = _check(code, tmp_path, repo)
    for text, name in (("hooks", "hooks"), ("onError", "hooks.onError"),
                       ("retries", "retries"), ("limt", "retries.limt")):  # fmt: skip
        [entry] = [e for e in _named(card, _line_of(tmp_path, text + ":")) if e.get("name") == name]
        assert "the keys passed to http() are not judged" in entry["reason"], entry


# A product with a class the model types, a default export it cannot, and a name (`mocky`)
# a page uses unbound (its module or an instance of it).
MOCKY = {
    "package.json": json.dumps({"name": "mocky", "main": "index.js"}),
    "index.js": (
        "class Agent {\n  constructor (opts) { this.opts = opts }\n  close () {}\n}\n"
        "module.exports.Agent = Agent\n"
    ),
}


def test_a_line_of_code_commented_out_is_read_as_code(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", MOCKY)
    code = (
        'const { Agent } = require("mocky");\n'
        "const a = new Agent();\n"
        "a.close();\n"
        "// or, depending on your use case:\n"
        "// a.clsoe();\n"
    )
    card = _check(code, tmp_path, repo)
    assert [(v["name"], v["line"]) for v in card.detail["violations"]] == [
        ("Agent.clsoe", _line_of(tmp_path, "// a.clsoe"))
    ], card.detail
    # Prose in a comment is not read as code.
    assert not [u for u in card.detail["unjudged"] if "depending" in u["text"]]


def test_a_commented_line_that_is_code_only_alone_is_left_a_comment(tmp_path: Path) -> None:
    # `// a.clsoe()` inside an object literal: uncommented, the object breaks; not read.
    repo = make_repo(tmp_path / "repo", MOCKY)
    code = 'const { Agent } = require("mocky");\nconst a = new Agent({\n  // a.clsoe()\n});\n'
    card = _check(code, tmp_path, repo)
    assert card.detail["violations"] == [], card.detail


def test_a_name_a_comment_quotes_is_listed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", MOCKY)
    code = (
        'const { Agent } = require("mocky");\n'
        "const a = new Agent({\n"
        "  // parse the body even if `resposeType` is not 'json'\n"
        "  timeout: 1,\n"
        "});\n"
    )
    card = _check(code, tmp_path, repo)
    [entry] = [u for u in card.detail["unjudged"] if u.get("name") == "resposeType"]
    assert entry["line"] == _line_of(tmp_path, "`resposeType`")
    assert entry["reason"].startswith("named in a comment of the sample"), entry
    # A fence that uses nothing of the product's: its comments name another's API.
    other = 'const fs = require("fs");\n// `readFileSync` blocks\nfs.readFileSync("x");\n'
    assert _check(other, tmp_path, repo).detail["unjudged"] == []


def test_a_member_of_a_module_the_products_mock_replaces_is_listed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", MOCKY)
    mocked = 'import axios from "axios";\nmocky.mock("axios");\naxios.get.mockResolvedValue(1);\n'
    card = _check(mocked, tmp_path, repo)
    [entry] = [u for u in card.detail["unjudged"] if u.get("name") == "axios.get.mockResolvedValue"]
    assert "a module the sample replaces with the product's mock" in entry["reason"], entry
    # Not mocked: another library's API, not the product's.
    plain = 'import axios from "axios";\nconst { Agent } = require("mocky");\naxios.get.then(1);\n'
    card = _check(plain, tmp_path, repo)
    assert not [u for u in card.detail["unjudged"] if "axios" in u["text"]], card.detail


# A product whose mock functions have members (``mockImplementation``) its code declares.
MOCKFN = {
    "package.json": json.dumps({"name": "mocky", "main": "index.js"}),
    "index.js": (
        "class MockFn {\n  mockImplementation (fn) { return this }\n}\n"
        "function mock (spec) {}\n"
        "module.exports = { MockFn, mock }\n"
    ),
}


def test_a_typo_of_a_member_of_the_products_mock_function_is_a_finding(tmp_path: Path) -> None:
    """``axios.get`` of a module the product's mock replaces is the product's mock function:
    a member of it that is a typo of a product member the code never writes is a finding
    (jest's ``axios.get.mockImpementation``); any other member stays unjudged."""
    repo = make_repo(tmp_path / "repo", MOCKFN)
    head = 'import axios from "axios";\nconst mocky = require("mocky");\nmocky.mock("axios");\n'
    card = _check(head + "axios.get.mockImpementation(() => 1);\n", tmp_path, repo)
    [finding] = card.detail["violations"]
    assert finding["name"] == "axios.get.mockImpementation", finding
    assert "did you mean `mockImplementation`" in finding["reason"], finding
    # The right name, and a name that is no typo of the product's, stay unjudged.
    for member in ("mockImplementation", "mockSomethingElse"):
        card = _check(head + f"axios.get.{member}(() => 1);\n", tmp_path, repo)
        assert card.detail["violations"] == [], member
        assert [u for u in card.detail["unjudged"] if u.get("name") == f"axios.get.{member}"]
    # The mocked module's own member is another package's name: never judged as a typo.
    card = _check(head + "axios.mockImpementation(() => 1);\n", tmp_path, repo)
    assert card.detail["violations"] == [], card.detail
    # Not mocked: another library's member, whatever it is near.
    plain = 'import axios from "axios";\nconst mocky = require("mocky");\n'
    card = _check(plain + "axios.get.mockImpementation(() => 1);\n", tmp_path, repo)
    assert card.detail["violations"] == [], card.detail


def test_a_member_of_a_package_named_like_the_products_is_listed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", MOCKY)
    code = (
        'const { Agent } = require("mocky");\n'
        'const native = require("mocky-native");\n'
        'native.mockComponent("x");\n'
        'const other = require("other");\n'
        "other.run();\n"
    )
    card = _check(code, tmp_path, repo)
    names = [u.get("name") for u in card.detail["unjudged"]]
    assert names == ["native.mockComponent"], card.detail
    assert "a package named like the product's" in card.detail["unjudged"][0]["reason"]


def test_the_keys_of_an_object_a_handed_callback_throws_are_listed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", MOCKY)
    code = (
        'mocky.get("/teapot", async function (request, reply) {\n'
        "  const inner = () => { throw { notMine: 1 } };\n"
        "  throw { appCode: 418 };\n"
        "});\n"
    )
    card = _check(code, tmp_path, repo)
    names = [u.get("name") for u in card.detail["unjudged"] if u.get("name")]
    assert names == ["appCode"], card.detail
    [entry] = [u for u in card.detail["unjudged"] if u.get("name") == "appCode"]
    assert entry["line"] == _line_of(tmp_path, "appCode")
    assert "an object thrown by the callback handed to mocky.get()" in entry["reason"]


def test_python_code_commented_out_is_read_and_quoted_names_are_listed(tmp_path: Path) -> None:
    from tests.test_gate_code_samples_python import WIREKIT

    repo = make_repo(tmp_path / "repo", dict(WIREKIT))
    code = (
        "import wirekit\n"
        "client = wirekit.Client()\n"
        "if True:\n"
        "    # or, depending on the case:\n"
        "    # client.shutt()\n"
        "# `timeot` is in seconds\n"
        "client.close()\n"
    )
    card = _check(code, tmp_path, repo, "python")
    assert [(v["name"], v["line"]) for v in card.detail["violations"]] == [
        ("client.shutt", _line_of(tmp_path, "# client.shutt"))
    ], card.detail
    [entry] = [u for u in card.detail["unjudged"] if u.get("name") == "timeot"]
    assert entry["line"] == _line_of(tmp_path, "`timeot`")
    assert entry["reason"].startswith("named in a comment of the sample"), entry
