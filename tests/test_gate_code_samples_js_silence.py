"""Gate 15 is never silent on the product's API a JavaScript sample uses: every member use,
call with an object literal and ``new`` on a value rooted in the product is judged (counted
in ``checked``) or listed ``unjudged`` with its reason. The table gates each use twice, with
and without its line: the line must add to ``checked`` or carry an unjudged entry or a
violation of its own. Then the judgments these cases reach: the members of an instance of
a CommonJS class (``module.exports = Agent``), and a class a workspace package's README
makes with ``new`` without importing it (the package's default export)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "package.json": json.dumps(
        {"name": "cjslib", "main": "index.js", "workspaces": ["packages/*"]}
    ),
    "index.js": (
        "'use strict'\n"
        "const Agent = require('./lib/agent')\n"
        "module.exports.Agent = Agent\n"
        "module.exports.helpers = { retry: require('./lib/retry') }\n"
    ),
    "lib/agent.js": (
        "class Agent {\n  constructor (opts) { this.opts = opts }\n  close () {}\n"
        "  on (event, listener) { this.listener = listener }\n}\n"
        "module.exports = Agent\n"
    ),
    "lib/retry.js": "module.exports = function retry (opts) { return opts }\n",
    "packages/leak/package.json": json.dumps({"name": "leak", "main": "src/index.ts"}),
    "packages/leak/src/index.ts": (
        "export default class {\n  isLeaking(): boolean { return false; }\n}\n"
    ),
}

# (what binds the names, the one use judged or listed)
USES = [
    ('const { Agent } = require("cjslib");\nconst a = new Agent();', "a.close();"),
    ('import { Agent } from "cjslib";\nconst a = new Agent();', "a.clsoe();"),
    ('import { Agent } from "cjslib";', "new Agent({ timeout: 1 });"),
    ('const { helpers } = require("cjslib");\nconst { retry } = helpers;', "retry({ n: 3 });"),
    ('import lost from "cjslib/missing";', "lost.run();"),
    ('const lost = require("cjslib/missing");', "lost.run({ n: 1 }).then;"),
    ("const x = 1;", "new Agent().close();"),
]


@pytest.fixture(scope="module")
def cjs_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("cjs"), FILES)


def _check(code: str, tmp_path: Path, repo: Path, name: str = "2026-06-03-a.md") -> Scorecard:
    body = f"Intro.\n\n```js\n{code}\n```\n"
    post = make_post(body, tmp_path, name)
    return gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))


@pytest.mark.parametrize(("binds", "use"), USES, ids=[u for _, u in USES])
def test_every_product_use_is_judged_or_listed(
    binds: str, use: str, tmp_path: Path, cjs_repo: Path
) -> None:
    without = _check(binds, tmp_path, cjs_repo, "2026-06-03-without.md")
    card = _check(f"{binds}\n{use}", tmp_path, cjs_repo)
    text = (tmp_path / "2026-06-03-a.md").read_text(encoding="utf-8").splitlines()
    line = text.index(use) + 1
    listed = [u for u in card.detail["unjudged"] if u["line"] == line]
    found = [v for v in card.detail["violations"] if v["line"] == line]
    assert card.detail["checked"] > without.detail["checked"] or listed or found, card.detail


def test_members_of_a_commonjs_class_instance(tmp_path: Path, cjs_repo: Path) -> None:
    code = 'const { Agent } = require("cjslib");\nconst a = new Agent();\na.close();\na.clsoe();'
    card = _check(code, tmp_path, cjs_repo)
    assert [v["name"] for v in card.detail["violations"]] == ["a.clsoe"]
    assert "did you mean `close`?" in card.detail["violations"][0]["reason"]


def test_uses_after_an_import_that_does_not_resolve_are_listed_once(
    tmp_path: Path, cjs_repo: Path
) -> None:
    code = 'import lost from "cjslib/missing";\nlost.run();\nlost.stop();\nconst r = lost.make();'
    card = _check(code, tmp_path, cjs_repo)
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    together = [r for r in reasons if r.startswith("3 use(s) in this sample not judged")]
    assert together and "lost.run, lost.stop, lost.make" in together[0], reasons


def test_a_readme_makes_its_packages_default_class_without_importing_it(
    tmp_path: Path, cjs_repo: Path
) -> None:
    body = "Intro.\n\n```js\nconst detector = new LeakDetector(ref);\ndetector.isLeaked();\n```\n"
    readme = cjs_repo / "packages" / "leak" / "README.md"
    readme.write_text(body, encoding="utf-8")
    try:
        context = repo_context(cjs_repo, tmp_path / "cache")
        from pytest_postgates.post import parse_post

        card = gate.GATE.evaluate(parse_post(readme), context)
    finally:
        readme.unlink()
    names = [v["name"] for v in card.detail["violations"]]
    assert names == ["LeakDetector.isLeaked"], card.detail
    assert "did you mean `isLeaking`?" in card.detail["violations"][0]["reason"]


def test_a_folder_main_not_built_is_read_from_the_source_tsc_compiles_it_from(
    tmp_path: Path,
) -> None:
    # `"main": "dist"` (a folder, absent: never built) and a tsconfig with outDir but no
    # rootDir, including one folder: tsc writes source/index.ts to dist/index.js.
    repo = make_repo(
        tmp_path / "unbuilt",
        {
            "package.json": json.dumps({"name": "fetcher", "main": "dist"}),
            "tsconfig.json": '{\n  "compilerOptions": {"outDir": "dist"}, // built\n'
            '  "include": ["source"],\n}\n',
            "source/index.ts": "export function fetchJson(url: string): string { return url; }\n",
        },
    )
    card = _check('import { fetchJson, fetchJsn } from "fetcher";', tmp_path, repo)
    assert card.detail["resolved"] == {"fetcher": "source/index.ts"}
    assert [v["name"] for v in card.detail["violations"]] == ["fetchJsn"]


def test_a_commonjs_class_is_typed_by_the_declarations_the_package_ships(
    tmp_path: Path,
) -> None:
    # lib/agent.js implements the class; types/*.d.ts declare it (package.json "types"),
    # with the base class's overloads (a promise, or void with a callback) and the result
    # type inside a namespace.
    repo = make_repo(
        tmp_path / "typed",
        {
            "package.json": json.dumps({"name": "net", "main": "index.js", "types": "index.d.ts"}),
            "index.js": "const Agent = require('./lib/agent')\nmodule.exports.Agent = Agent\n",
            "lib/agent.js": "class Agent {\n  close () {}\n}\nmodule.exports = Agent\n",
            "index.d.ts": "export { default as Agent } from './types/agent'\n",
            "types/agent.d.ts": (
                "import Base from './base'\nexport default Agent\n"
                "declare class Agent extends Base {\n  close(): void\n}\n"
            ),
            "types/base.d.ts": (
                "export default Base\ndeclare class Base {\n"
                "  request(url: string): Promise<Base.ResponseData>\n"
                "  request(url: string, cb: (data: Base.ResponseData) => void): void\n}\n"
                "declare namespace Base {\n"
                "  export interface ResponseData { statusCode: number; body: unknown }\n}\n"
            ),
        },
    )
    code = (
        'import { Agent } from "net";\nconst agent = new Agent();\n'
        "const res = await agent.request('x');\nres.statusCode;\nres.statuCode;\n"
    )
    card = _check(code, tmp_path, repo)
    assert [v["name"] for v in card.detail["violations"]] == ["res.statuCode"], card.detail
    assert "did you mean `statusCode`?" in card.detail["violations"][0]["reason"]


def _listed(card: Scorecard, text: list[str], use: str) -> list[str]:
    line = next(number for number, written in enumerate(text, 1) if use in written)
    return [u["reason"] for u in card.detail["unjudged"] if u["line"] == line]


HANDED = (
    'const { Agent } = require("cjslib");\nconst a = new Agent({\n'
    "  hooks: { done: [(res) => res.body.text] },\n});\n"
    'a.on("done", function (job, { retries }) {\n  job.result.value;\n  retries.left;\n});\n'
    'const other = require("other");\nother.on("done", (job) => job.result.value);\n'
)


def test_members_of_a_callbacks_parameters_are_listed_with_the_call(
    tmp_path: Path, cjs_repo: Path
) -> None:
    # The product calls a callback it is handed with values the sample does not type: each
    # chain on a parameter is listed once, with the call; another library's callback is not
    # the product's.
    card = _check(HANDED, tmp_path, cjs_repo)
    text = (tmp_path / "2026-06-03-a.md").read_text(encoding="utf-8").splitlines()
    keys = (
        "the keys passed to new Agent() are not judged: its declared parameters are not in "
        "the model"
    )
    assert _listed(card, text, "res.body.text") == [
        keys,  # hooks, then hooks.done: each key is named (test_gate_code_samples_never_silent)
        keys,
        "res.body.text: res is a parameter of the callback handed to new Agent(), whose "
        "type the sample does not show",
    ], card.detail
    assert _listed(card, text, "job.result.value;") == [
        "job.result.value: job is a parameter of the callback handed to a.on(), whose "
        "type the sample does not show"
    ]
    assert _listed(card, text, "retries.left") == [
        "retries.left: retries is a parameter of the callback handed to a.on(), whose "
        "type the sample does not show"
    ]
    assert _listed(card, text, "other.on") == [], card.detail
    assert card.detail["violations"] == []


def test_a_member_of_the_package_named_but_never_bound_is_listed(
    tmp_path: Path, cjs_repo: Path
) -> None:
    card = _check("cjslib.helpers.retry({ n: 1 });\nconst x = 1;\nx.toFixed();", tmp_path, cjs_repo)
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert reasons == [
        "cjslib.helpers.retry: cjslib is never bound in the page's samples (the product's "
        "module or an instance of it: not told)",
        # The key it is handed is named too (sample_accounting); `x` holds a literal.
        "a key of the object passed to `cjslib.helpers.retry()`: `cjslib` is never bound in "
        "the samples: its type is not shown",
    ], card.detail


def test_a_fence_in_a_language_the_gate_does_not_read_is_listed_when_it_imports_the_product(
    tmp_path: Path, cjs_repo: Path
) -> None:
    body = (
        # (A `vue` fence's <script> blocks are read as JavaScript: helpers/fence_fragments.py.)
        "Intro.\n\n```coffee\nimport { Agent } from 'cjslib'\n```\n\n"
        "```coffee\nimport { ref } from 'vue'\n```\n"
    )
    post = make_post(body, tmp_path)
    card = gate.GATE.evaluate(post, repo_context(cjs_repo, tmp_path / "c"))
    line = next(n for n, text in enumerate(post.lines, 1) if "from 'cjslib'" in text)
    listed = [(u["line"], u["reason"]) for u in card.detail["unjudged"]]
    assert listed == [
        (
            line,
            "a `coffee` fence imports the product, and its code is not read: its language is "
            "not one the gate reads",
        ),
    ], card.detail
    decision = gate.decide(gate.CheckResult([], card.detail), gate.CodeSamplesSettings())
    assert decision.summary == "nothing checked: 1 use(s) of the product not judged"
