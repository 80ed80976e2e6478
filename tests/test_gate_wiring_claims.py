"""Gate 16, wiring_claims: the call claims and function-flow diagrams gate 13 flags, judged
against the API model's call graph of a small repository built here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.gates import BY_ID, GATES
from pytest_postgates.gates.wiring_claims import WiringClaimsSettings
from pytest_postgates.helpers.wiring_mermaid import mermaid_edges
from pytest_postgates.helpers.wiring_subjects import call_subjects, subject
from tests.helpers import git, make_post, make_repo, repo_context

TS_SOURCES = {
    "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
    "src/lib/engine.ts": """
import { loadConfig } from "./config";
import { Store } from "./store";

export class Engine {
  private store = new Store();
  async run(input: string): Promise<string> {
    const config = loadConfig();
    this.validate(input);
    return this.render(input, config);
  }
  validate(input: string): void {
    if (!input) { throw new Error("empty"); }
  }
  render(input: string, config: object): string {
    return this.store.save(input);
  }
  shutdown(): void {
    this.store.close();
  }
}
""",
    "src/lib/config.ts": """
export function loadConfig(): object { return parseYaml(""); }
export function parseYaml(text: string): object { return {}; }
export function auditTrail(): void {}
""",
    "src/lib/store.ts": """
export class Store {
  save(value: string): string { return value; }
  close(): void {}
}
""",
}

POST = """
# Inside the engine

The `Engine.run()` method calls `loadConfig()` and then `validate()` before rendering.
Under the hood `run()` invokes `parseYaml()` through the config loader.
The `shutdown()` method calls `auditTrail()` to record the stop.
`render()` calls `store.save()` on its store.
`validate()` is called by `shutdown()`.
The engine is a thin wrapper around the store.

```mermaid
flowchart TD
    A["run()"] --> B["loadConfig()"]
    B --> C["parseYaml()"]
    C --> D["auditTrail()"]
```
"""


@pytest.fixture
def ts_repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", TS_SOURCES)


def _card(repo: Path, tmp_path: Path, body: str, **settings: object) -> Any:
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    post = make_post(body, posts)
    context = repo_context(repo, tmp_path / "cache", **settings)
    return BY_ID[16].evaluate(post, context)


def _by_subject(card: Any) -> dict[str, dict[str, Any]]:
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_true_claims_are_verified_and_false_ones_contradicted(
    ts_repo: Path, tmp_path: Path
) -> None:
    card = _card(ts_repo, tmp_path, POST)
    claims = _by_subject(card)
    run_config = claims["Engine.run() -> loadConfig()"]
    assert run_config["verdict"] == "verified"
    assert "src/lib/engine.ts:8" in run_config["evidence"]
    assert claims["Engine.run() -> validate()"]["verdict"] == "verified"
    # Through a path of two calls, within the default depth of 3.
    path = claims["run() -> parseYaml()"]
    assert path["verdict"] == "verified" and path["code"] == "CALLS"
    assert "through 2 calls" in path["evidence"]
    # The line matches CALL_DIRECTION too: judged once, the other listed as the same claim.
    (direction,) = [c for c in card.detail["claims"] if c["code"] == "CALL_DIRECTION"]
    assert direction["verdict"] == "unjudged" and "same sentence" in direction["evidence"]
    wrong = claims["shutdown() -> auditTrail()"]
    assert wrong["verdict"] == "contradicted"
    assert "it calls `close`" in wrong["evidence"]
    # A method of a field whose class the code states (`private store = new Store()`).
    field = claims["render() -> store.save()"]
    assert field["verdict"] == "verified" and "src/lib/engine.ts:16" in field["evidence"]
    passive = claims["shutdown() -> validate()"]  # "validate() is called by shutdown()"
    assert passive["verdict"] == "contradicted"
    # The mermaid chain: two real call edges, one invented.
    assert claims["run() -> loadConfig()"]["code"] == "MERMAID_EDGE"
    assert claims["run() -> loadConfig()"]["verdict"] == "verified"
    assert claims["loadConfig() -> parseYaml()"]["verdict"] == "verified"
    assert claims["parseYaml() -> auditTrail()"]["verdict"] == "contradicted"
    assert card.verdict == "FAIL"
    messages = [f.message for f in card.findings]
    assert "shutdown() does not call auditTrail(); shutdown() calls `close`" in messages
    # Opinions are listed, unjudged, with why.
    (thin,) = [c for c in card.detail["claims"] if c["code"] == "THIN_CLASS"]
    assert thin["verdict"] == "unjudged" and "opinion" in thin["evidence"]
    assert card.detail["counts"]["contradicted"] == 3


def test_the_depth_is_a_setting(ts_repo: Path, tmp_path: Path) -> None:
    body = "Under the hood `run()` invokes `parseYaml()` through the config loader.\n"
    assert _card(ts_repo, tmp_path, body).verdict == "PASS"
    shallow = _card(ts_repo, tmp_path, body, **{"wiring_call_depth": 1})
    (claim,) = [c for c in shallow.detail["claims"] if "subject" in c]
    assert claim["verdict"] == "contradicted"
    assert "within 1 calls" in claim["evidence"]
    assert WiringClaimsSettings().wiring_call_depth == 3


def test_a_mermaid_edge_has_a_depth_of_its_own(ts_repo: Path, tmp_path: Path) -> None:
    body = '```mermaid\nflowchart TD\n    A["run()"] --> B["parseYaml()"]\n```\n'
    (edge,) = _by_subject(_card(ts_repo, tmp_path, body)).values()
    assert edge["verdict"] == "verified" and "through 2 calls" in edge["evidence"]
    shallow = _card(ts_repo, tmp_path, body, **{"wiring_edge_depth": 1, "wiring_call_depth": 8})
    (edge,) = _by_subject(shallow).values()
    assert edge["verdict"] == "contradicted" and "within 1 calls" in edge["evidence"]
    assert WiringClaimsSettings().wiring_edge_depth == 6


def test_a_sequence_edge_is_verified_only_by_a_function_the_diagram_draws(
    ts_repo: Path, tmp_path: Path
) -> None:
    """`validate --> render`: no call path, but `Engine.run` calls the two in turn. Drawn in
    a diagram that names `run` (a step flowchart of what it does), the edge is that
    sequence; in one that does not, whether that is the flow it draws is not told: the
    edge is unjudged, never verified by some other function's order."""
    step = (
        '```mermaid\nflowchart TD\n    R["run()"] --> V["validate()"]\n'
        '    V --> D["render()"]\n```\n'
    )
    claims = _by_subject(_card(ts_repo, tmp_path, step))
    assert claims["validate() -> render()"]["verdict"] == "verified"
    assert "in sequence" in claims["validate() -> render()"]["evidence"]
    apart = '```mermaid\nflowchart TD\n    V["validate()"] --> D["render()"]\n```\n'
    (edge,) = _by_subject(_card(ts_repo, tmp_path, apart)).values()
    assert edge["verdict"] == "unjudged", edge
    assert "`run` calls the first" in edge["evidence"]


def test_a_step_the_diagram_s_function_reaches_through_a_helper_is_in_sequence(
    ts_repo: Path, tmp_path: Path
) -> None:
    """`parseYaml --> validate` drawn with `run()`: `run` reaches `parseYaml` through
    `loadConfig` and then calls `validate`, so the edge is a step of its flow; the same
    edge in a diagram that names no function reaching both is contradicted."""
    drawn = (
        '```mermaid\nflowchart TD\n    R["run()"] --> P["parseYaml()"]\n'
        '    P --> V["validate()"]\n```\n'
    )
    claims = _by_subject(_card(ts_repo, tmp_path, drawn))
    edge = claims["parseYaml() -> validate()"]
    assert edge["verdict"] == "verified", edge
    assert "`run` reaches the first through its call" in edge["evidence"], edge
    alone = '```mermaid\nflowchart TD\n    P["parseYaml()"] --> V["validate()"]\n```\n'
    (edge,) = _by_subject(_card(ts_repo, tmp_path, alone)).values()
    assert edge["verdict"] == "contradicted", edge


def test_a_sequence_through_a_call_matched_by_name_alone_is_not_refuted(
    tmp_path: Path,
) -> None:
    """`createElement() --> execute()` in a step flowchart: `onDrop` calls `createElement`
    and then `engine.execute(...)` on a value of unknown type, which may be any of four
    classes' `execute`. No function provably runs the two in order, but none provably
    does not: the edge is unjudged, not contradicted."""
    commands = "".join(
        f"export class {name} {{ execute(): void {{}} }}\n"
        for name in ("AddCommand", "MoveCommand", "DeleteCommand", "ResizeCommand")
    )
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "canvas", "version": "1.0.0"}\n',
            "src/commands.ts": commands,
            "src/canvas.ts": (
                "import { AddCommand } from './commands';\n"
                "export function createElement(kind: string): object { return { kind }; }\n"
                "export function onDrop(engine: any, kind: string): void {\n"
                "  const element = createElement(kind);\n"
                "  engine.execute(new AddCommand());\n"
                "}\n"
            ),
        },
    )
    body = '```mermaid\nflowchart TD\n    C["createElement()"] --> E["execute()"]\n```\n'
    (edge,) = _by_subject(_card(repo, tmp_path, body)).values()
    assert edge["verdict"] == "unjudged", edge
    assert "matches by its name alone" in edge["evidence"], edge


def test_a_sequence_run_by_code_outside_any_function_is_not_refuted(tmp_path: Path) -> None:
    """`parseQuery() --> runSearch()`: neither calls the other, and no function runs the two
    in turn, but the route handler written at the server's top level does. Code outside
    any function is code all the same: the edge is unjudged, not contradicted (the same
    edge with the handler gone is contradicted)."""
    search = (
        "export function parseQuery(q: string): string { return q; }\n"
        "export async function runSearch(q: string): Promise<string> { return q; }\n"
    )
    server = (
        'import { parseQuery, runSearch } from "./search";\n'
        "const app = makeApp();\n"
        'app.get("/search", async (req: any, res: any) => {\n'
        "  const query = parseQuery(req.query.q);\n"
        "  res.json(await runSearch(query));\n"
        "});\n"
    )
    files = {"package.json": '{"name": "finder", "version": "1.0.0"}\n', "src/search.ts": search}
    body = '```mermaid\nflowchart TD\n    P["parseQuery()"] --> S["runSearch()"]\n```\n'
    bare = make_repo(tmp_path / "bare", files)
    (tmp_path / "b").mkdir()
    (tmp_path / "s").mkdir()
    (edge,) = _by_subject(_card(bare, tmp_path / "b", body)).values()
    assert edge["verdict"] == "contradicted", edge
    served = make_repo(tmp_path / "served", {**files, "src/server.ts": server})
    (edge,) = _by_subject(_card(served, tmp_path / "s", body)).values()
    assert edge["verdict"] == "unjudged", edge
    assert "the code of src/server.ts outside any function calls the first" in edge["evidence"]


def test_an_edge_from_a_class_to_its_own_method_is_not_refuted(
    ts_repo: Path, tmp_path: Path
) -> None:
    """`Engine --> shutdown()` in a diagram of components and their methods: no method of
    Engine calls `shutdown`, but the edge may draw what the class has, so it is unjudged;
    an edge from the class to a function it does not have is still contradicted."""
    body = (
        '```mermaid\nflowchart TD\n    E["Engine (engine.ts)"] --> S["shutdown()"]\n'
        '    E --> A["auditTrail()"]\n```\n'
    )
    claims = _by_subject(_card(ts_repo, tmp_path, body))
    member = claims["Engine (engine.ts) -> shutdown()"]
    assert member["verdict"] == "unjudged", member
    assert "is a method of `Engine (engine.ts)`" in member["evidence"]
    assert claims["Engine (engine.ts) -> auditTrail()"]["verdict"] == "contradicted"


def test_names_the_model_does_not_know_are_unjudged_never_contradicted(
    ts_repo: Path, tmp_path: Path
) -> None:
    body = (
        "The `bootEngine()` helper calls `loadConfig()` first.\n"
        "`loadConfig()` calls `readFileSync()` from Node.\n"
    )
    card = _card(ts_repo, tmp_path, body)
    claims = _by_subject(card)
    assert claims["bootEngine() -> loadConfig()"]["verdict"] == "unjudged"
    assert "no function or method" in claims["bootEngine() -> loadConfig()"]["evidence"]
    assert claims["loadConfig() -> readFileSync()"]["verdict"] == "unjudged"
    assert card.verdict == "PASS"


def test_a_body_read_with_syntax_errors_is_never_contradicted(tmp_path: Path) -> None:
    sources = dict(TS_SOURCES)
    sources["src/lib/broken.ts"] = "export function broken() { loadConfig(; }\n"
    repo = make_repo(tmp_path / "repo", sources)
    card = _card(repo, tmp_path, "The `broken()` function calls `auditTrail()` at the end.\n")
    (claim,) = [c for c in card.detail["claims"] if "subject" in c]
    assert claim["verdict"] == "unjudged"
    assert "not fully read" in claim["evidence"]


def test_python_claims_are_judged_too(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/app.py": (
                "from pkg.util import helper\n\n"
                "class App:\n"
                "    def start(self):\n"
                "        helper()\n\n"
                "    def stop(self):\n"
                "        pass\n"
            ),
            "pkg/util.py": "def helper():\n    pass\n",
        },
    )
    body = "`App.start()` calls `helper()`. The `App.stop()` method calls `helper()` too.\n"
    card = _card(repo, tmp_path, body)
    claims = _by_subject(card)
    assert claims["App.start() -> helper()"]["verdict"] == "verified"
    assert claims["App.stop() -> helper()"]["verdict"] == "contradicted"


def test_a_post_without_call_claims_passes_without_reading_a_repository(tmp_path: Path) -> None:
    from tests.helpers import context

    card = BY_ID[16].evaluate(make_post("Nothing wired here.\n", tmp_path), context())
    assert card.verdict == "PASS"
    assert card.detail["claims"] == []


def test_call_claims_without_a_repository_are_an_error(tmp_path: Path) -> None:
    from tests.helpers import context

    post = make_post("`run()` calls `loadConfig()` first.\n", tmp_path)
    card = BY_ID[16].evaluate(post, context())
    assert card.verdict == "ERROR"


@pytest.mark.parametrize(
    ("line", "caller", "callees"),
    [
        ("`a()` calls `b()`.", "a()", ["b()"]),
        (
            "The `Foo.run` method then calls `bar()`, `baz()` and `qux()`.",
            "Foo.run",
            ["bar()", "baz()", "qux()"],
        ),
        ("`y()` is called by `x()` on startup.", "x()", ["y()"]),
        ("`Client.send`, which in turn calls `encode()`.", "Client.send", ["encode()"]),
        ("`a()` calls `b()`, which calls `c()`.", "a()", ["b()"]),
        ("It uses `needsRefresh` to check expiry, calls a `refreshToken` flow.", None, []),
        ("Two `generate()` calls, one hand-off.", None, []),
        # A plain word is a function when the prose says so ("the `collect` method").
        ("The `collect` method calls `parse_post` first.", "collect", ["parse_post"]),
        # A callee written as a link's text or an MkDocs autoref: the brackets are markup,
        # and an autoref is read as its target (the name it resolves to).
        ("The `collect` method calls [`parse()`](api.md#parse) first.", "collect", ["parse()"]),
        (
            "The `collect` method calls [parse()][pkg.Parser.parse].",
            "collect",
            ["pkg.Parser.parse"],
        ),
        ("[`run()`](api.md) calls `stop()` at the end.", "run()", ["stop()"]),
        # A pronoun caller stands for the subject of the sentence that introduced it,
        # across a run of "It ..." sentences; a referent that is no subject is not read.
        ("The `run` method is the entry. It then calls `stop()` last.", "run", ["stop()"]),
        ("`run()` is short \u2014 it calls `stop()` at the end.", "run()", ["stop()"]),
        (
            "Our `run()` opens a span. It sets a flag. It also uses helpers like `stop()`.",
            "run()",
            ["stop()"],
        ),
        ("The result of `run()` is cached. It calls `stop()` later.", None, []),
        # A list of callees each with its purpose: "`a` to ... and `b` to ...".
        (
            "The `run` method calls `read()` to load the file and `close()` after.",
            "run",
            ["read()", "close()"],
        ),
        ("It calls `stop()` at the end.", None, []),
        # A method written with the dot of its call (`.dict()`) is that method.
        ("`.json()` in turn calls `.dict()` and dumps it.", ".json()", [".dict()"]),
        # A pronoun for a list of functions ("Methods like `a`, `b`, and `c`") is the list.
        (
            "Methods like `toA`, `toB`, and `toC` map spans. It also uses helpers like `mapIt`.",
            "toA, toB and toC",
            ["mapIt"],
        ),
        ("Values like `toA` and `toB` map spans. It also calls `mapIt`.", None, []),
    ],
)
def test_call_subjects_are_read_next_to_the_verb(
    tmp_path: Path, line: str, caller: str | None, callees: list[str]
) -> None:
    post = make_post(line + "\n", tmp_path)
    found = call_subjects(post, post.body_start_line)[0]
    if caller is None:
        assert found.caller is None and found.reason
        return
    assert found.caller is not None and found.caller.text == caller
    assert [c.text for c in found.callees] == callees


def test_each_verb_of_a_sentence_makes_its_claim(tmp_path: Path) -> None:
    post = make_post("`a()` calls `b()`, which calls `c()`.\n", tmp_path)
    found = call_subjects(post, post.body_start_line)
    pairs = [(c.caller.text if c.caller else "", [s.text for s in c.callees]) for c in found]
    assert pairs == [("a()", ["b()"]), ("b()", ["c()"])]


def test_subjects_and_mermaid_edges() -> None:
    assert subject("text") is None  # a plain word is no function name
    assert subject("Client#send") == subject("Client#send")
    send = subject("Client#send")
    assert send is not None and (send.owner, send.name) == ("Client", "send")
    made = subject("new Store()")
    assert made is not None and made.constructs and made.name == "Store"
    edges = mermaid_edges(
        'flowchart TD\n  A["run()"] --> B["loadConfig()"]\n'
        '  B -->|throws| C["report()"]\n'
        '  B --> D["streamText() via the adapter"]\n'
        '  M1["merge()"] --> M2["merge()"]\n',
        10,
    )
    assert [(e.line, e.source.text, e.target.text) for e in edges] == [
        (11, "run()", "loadConfig()")
    ]


def test_a_class_diagram_relation_labelled_as_inheritance_is_no_call_edge() -> None:
    """`useLedger --> useRealtime : "extends"`: the label after the colon says the relation
    is inheritance, no call; any other label (`: "reads"`) leaves the edge read."""
    edges = mermaid_edges(
        'classDiagram\n  useLedger --> useRealtime : "extends"\n'
        '  useLedger --> useImportFlow : "reads state"\n',
        1,
    )
    assert [(e.source.text, e.target.text) for e in edges] == [("useLedger", "useImportFlow")]


def test_gate_16_is_hard_and_runs_before_the_judge_gates() -> None:
    # DESIGN.md's run order 9: after the deterministic gates, before the paid judges.
    ids = [gate.id for gate in GATES]
    assert ids.index(16) == ids.index(11) + 1
    assert all(ids.index(16) < ids.index(judge) for judge in (4, 3, 9, 10, 13))
    assert BY_ID[16].name == "wiring_claims" and not BY_ID[16].advisory


# ---------------------------------------------------------------------- through pytest


def test_a_contradicted_claim_fails_the_item_with_what_the_code_calls(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg"))
    for name, content in TS_SOURCES.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    posts = pytester.path / "_posts"
    posts.mkdir()
    front = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
    (posts / "2026-01-01-good.md").write_text(front + "`Engine.run()` calls `loadConfig()`.\n")
    (posts / "2026-01-01-bad.md").write_text(front + "`Engine.shutdown()` calls `auditTrail()`.\n")
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", "-A")
    git(pytester.path, "commit", "-qm", "kit")
    feedback = pytester.path / "feedback.txt"
    result = pytester.runpytest_subprocess(
        "-rA", "--postgates-only=16", f"--postgates-feedback={feedback}"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*2026-01-01-bad.md:6: CALLS Engine.shutdown() does not call auditTrail(); *"]
    )
    assert "Engine.shutdown() does not call auditTrail()" in feedback.read_text()
    cards = list((pytester.path / ".postgates" / "scorecards").glob("*-gate16-wiring_claims.json"))
    verdicts = {json.loads(p.read_text())["verdict"] for p in cards}
    assert verdicts == {"PASS", "FAIL"}


DECLARATIONS = {
    "src/lib/client.ts": """
export class Client {
  async send(body: string): Promise<Reply> { return new Reply(); }
  private encode(body: string): Uint8Array { return new Uint8Array(); }
  #sign(): string { return ""; }
  close(): void {}
}
export class Reply {}
""",
    "pkg/__init__.py": "",
    "pkg/tool.py": "def _helper() -> dict[str, int]:\n    return {}\n",
}


def test_return_types_and_visibility_are_judged_against_the_declarations(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", DECLARATIONS)
    body = (
        "`Client.send()` returns a `Promise<Reply>` once the server answers.\n"
        "`Client.close()` returns a `Promise<Reply>` as well.\n"
        "`encode()` is a private method of the client.\n"
        "`close()` is a private helper too.\n"
        "`_helper()` is private, by Python's underscore.\n"
        "The `#sign()` is a public method.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {(c["line"], c["code"]): c for c in card.detail["claims"]}
    first = 6  # the body's first line, after the five lines of front matter
    assert claims[(first, "RETURN_TYPE")]["verdict"] == "verified"
    assert "Promise<Reply>" in claims[(first, "RETURN_TYPE")]["evidence"]
    close = claims[(first + 1, "RETURN_TYPE")]
    assert close["verdict"] == "contradicted" and "declares `void`" in close["evidence"]
    assert claims[(first + 2, "VISIBILITY")]["verdict"] == "verified"
    assert claims[(first + 3, "VISIBILITY")]["verdict"] == "contradicted"
    assert claims[(first + 4, "VISIBILITY")]["verdict"] == "verified"
    assert claims[(first + 5, "VISIBILITY")]["verdict"] == "contradicted"
    messages = [f.message for f in card.findings]
    assert "close() is not private; close() is public" in messages
    assert (
        "Client.close() does not return Promise<Reply>; Client.close() returns `void`" in messages
    )


INNER_TYPES = {
    "src/lib/session.ts": """
export type Outcome = Reply;
export type Mode = "fast" | "slow" | null;
export class Reply {}
export class Receipt {}
export class Session<T> {
  async reply(): Promise<Reply> { return new Reply(); }
  async outcome(): Promise<Outcome> { return new Reply(); }
  async value(): Promise<T> { return undefined as T; }
  async loose(): Promise<any> { return 1; }
}
""",
}


def test_a_return_type_naming_another_type_inside_the_promise_is_contradicted(
    tmp_path: Path,
) -> None:
    """`Promise<Receipt>` for a declared `Promise<Reply>`: the wrapper agrees, the type
    inside does not. An alias of another type, a type parameter or `any` on either side
    stays unjudged; an alias of literal values is a type of its own."""
    repo = make_repo(tmp_path / "repo", INNER_TYPES)
    body = (
        "`reply()` returns a `Promise<Receipt>` once the server answers.\n"
        "`outcome()` returns a `Promise<Reply>` too.\n"
        "`reply()` returns a `Promise<Outcome>` as well.\n"
        "`value()` returns a `Promise<Receipt>` for a session of receipts.\n"
        "`loose()` returns a `Promise<Receipt>` here.\n"
        "`reply()` returns a `Promise<Mode>` in fast mode.\n"
    )
    card = _card(repo, tmp_path, body)
    verdicts = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "RETURN_TYPE"}
    wrong = verdicts[1]
    assert wrong["verdict"] == "contradicted", wrong
    assert "declares `Promise<Reply>`" in wrong["evidence"]
    assert [verdicts[n]["verdict"] for n in (2, 3, 4, 5)] == ["unjudged"] * 4
    # An alias of literal values names no other type: a type of its own.
    assert verdicts[6]["verdict"] == "contradicted", verdicts[6]
    assert "reply() does not return Promise<Receipt>; reply() returns `Promise<Reply>`" in [
        f.message for f in card.findings
    ]


BODIES = {
    "src/lib/detector.ts": """
import { CsvReader } from "./readers";
export class Detector {
  detect(kind: string): string {
    switch (kind) {
      case "csv": return new CsvReader().read();
      default: return "";
    }
  }
  guess(name: string): string { return this.detect(name); }
}
export function route(event: { type: string }): void {
  helperStep();
}
export function helperStep(): void {}
export function wrapReader(): string { return new CsvReader().read(); }
""",
    "src/lib/readers.ts": "export class CsvReader { read(): string { return ''; } }\n",
    "pkg/__init__.py": "",
    "pkg/events.py": (
        "def dispatch(event):\n"
        "    match event.kind:\n"
        "        case 'a':\n"
        "            return 1\n"
        "    return 0\n"
    ),
}


def test_switch_claims_are_judged_against_the_body(tmp_path: Path) -> None:
    """SWITCH: the function named next to the word holds a switch (Python: a match), over
    the value the claim names; contradicted when its body, read in full, holds none."""
    repo = make_repo(tmp_path / "repo", BODIES)
    body = (
        "`Detector.detect()` routes each file through a switch over `kind` to its reader.\n"
        "The built-in formats stay in `Detector`'s switch/case.\n"
        "`route()` has a switch statement over the event type.\n"
        "`dispatch()` is a switch statement on `event.kind`.\n"
        "`Detector.detect()` holds a switch over `name`, as it happens.\n"
        "The factory grew into a switch statement.\n"
        "`Detector.guess()` hands the name on through a switch over `kind`.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "SWITCH"}
    detect = claims[1]
    assert detect["verdict"] == "verified", detect
    assert "src/lib/detector.ts:5" in detect["evidence"] and "`kind`" in detect["evidence"]
    assert claims[2]["verdict"] == "verified"
    route = claims[3]
    assert route["verdict"] == "contradicted", route
    assert "src/lib/detector.ts:12" in route["evidence"]
    assert claims[4]["verdict"] == "verified" and "pkg/events.py:2" in claims[4]["evidence"]
    # A switch over another value than the one named: the code may name it otherwise.
    assert claims[5]["verdict"] == "unjudged" and "`kind`" in claims[5]["evidence"]
    assert claims[6]["verdict"] == "unjudged"
    # A switch of a function the claimed one calls: "routes it through a switch".
    guess = claims[7]
    assert guess["verdict"] == "verified" and "through guess -> detect" in guess["evidence"]
    assert "route() holds no switch statement; route() calls `helperStep`" in [
        f.message for f in card.findings
    ]


def test_contains_claims_are_judged_as_calls_of_the_body(tmp_path: Path) -> None:
    """FN_CONTAINS: "the `X` function wraps `Y`" holds when X's body calls or constructs
    Y; a claim whose object is no code name is unjudged."""
    repo = make_repo(tmp_path / "repo", BODIES)
    body = (
        "The `wrapReader` function wraps `CsvReader` in a single call.\n"
        "The `route` function contains a call to `guess()` first.\n"
        "The `wrapReader` function wraps your reader into a tool.\n"
        "The `Detector` class implements `Reader` for every format.\n"
    )
    card = _card(repo, tmp_path, body)
    claims = {c["line"] - 5: c for c in card.detail["claims"] if c["code"] == "FN_CONTAINS"}
    assert claims[1]["verdict"] == "verified", claims[1]
    assert claims[1]["subject"] == "wrapReader -> CsvReader"
    assert claims[2]["verdict"] == "contradicted", claims[2]
    assert claims[3]["verdict"] == "unjudged" and "in words" in claims[3]["evidence"]
    assert claims[4]["verdict"] == "unjudged"


def test_a_call_on_a_global_object_is_no_path_to_the_products_functions(tmp_path: Path) -> None:
    """`JSON.parse()` is the runtime's: the claim that `load()` reaches `audit()` is not
    left unjudged because a product function named `parse` calls `audit()`."""
    sources = {
        "src/lib/load.ts": (
            "export function load(text: string): object { return JSON.parse(text); }\n"
            "export class Parser { parse(): void { audit(); } }\n"
            "export function audit(): void {}\n"
        )
    }
    repo = make_repo(tmp_path / "repo", sources)
    claims = _by_subject(_card(repo, tmp_path, "The `load()` function calls `audit()` first.\n"))
    claim = claims["load() -> audit()"]
    assert claim["verdict"] == "contradicted", claim
    assert "it calls `JSON.parse`" in claim["evidence"]


def test_a_call_claim_whose_callee_is_an_autoref_is_judged(ts_repo: Path, tmp_path: Path) -> None:
    # MkDocs docs link a callee by its dotted path ([save()][kit.Store.save]) instead of a
    # code span: the claim is read and judged like `Store.save()`.
    body = (
        "The `Engine.shutdown()` method calls [save()][kit.Store.save] on the way out.\n\n"
        "The `Engine.shutdown()` method calls [`close()`](store.md#close) on the way out.\n"
    )
    claims = _by_subject(_card(ts_repo, tmp_path, body))
    assert claims["Engine.shutdown() -> kit.Store.save"]["verdict"] == "contradicted"
    assert claims["Engine.shutdown() -> close()"]["verdict"] == "verified"


def test_a_call_claim_whose_caller_is_a_pronoun_is_judged(ts_repo: Path, tmp_path: Path) -> None:
    body = "The `Engine.shutdown()` method stops the engine. It then calls `auditTrail()`.\n"
    claims = _by_subject(_card(ts_repo, tmp_path, body))
    assert claims["Engine.shutdown() -> auditTrail()"]["verdict"] == "contradicted"


def test_a_claim_about_a_list_of_callers_holds_when_one_of_them_calls(
    ts_repo: Path, tmp_path: Path
) -> None:
    # "Methods like `render`, `shutdown` ... It calls X": about the list together, so one
    # of them calling X verifies it, and only none calling X contradicts it.
    body = (
        "Methods like `render()` and `shutdown()` end a run. It also calls"
        " `Store.save()`.\n\n"
        "Methods like `render()` and `shutdown()` end a run. It also calls"
        " `auditTrail()`.\n"
    )
    claims = _by_subject(_card(ts_repo, tmp_path, body))
    assert claims["render() and shutdown() -> Store.save()"]["verdict"] == "verified"
    assert claims["render() and shutdown() -> auditTrail()"]["verdict"] == "contradicted"


def test_a_method_name_several_classes_define_is_judged_per_class(tmp_path: Path) -> None:
    # `run` is a method of Alpha (which calls helper) and of Beta (which does not): the
    # claim without a class does not say which, so one class's call verifies nothing; a
    # variable named after its class (`alpha.run()`) says which.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
            "src/lib/jobs.ts": (
                "export function helper(): void {}\n"
                "export class Alpha { run(): void { helper(); } }\n"
                "export class Beta { run(): void { return; } }\n"
            ),
        },
    )
    body = (
        "The `run()` method calls `helper()` first.\n\n"
        "Under the hood `alpha.run()` calls `helper()` first.\n\n"
        "Under the hood `beta.run()` calls `helper()` first.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    ambiguous = claims["run() -> helper()"]
    assert ambiguous["verdict"] == "unjudged"
    assert "`Alpha.run`" in ambiguous["evidence"] and "`Beta.run`" in ambiguous["evidence"]
    assert claims["alpha.run() -> helper()"]["verdict"] == "verified"
    assert claims["beta.run() -> helper()"]["verdict"] == "contradicted"


def test_a_method_name_several_classes_define_is_read_as_the_named_classes(
    tmp_path: Path,
) -> None:
    # A post about `Gamma` (which inherits Beta's `run`) means that `run`; a post naming
    # classes whose `run` bodies differ does not say which, and stays unjudged.
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
            "src/lib/jobs.ts": (
                "export function helper(): void {}\n"
                "export class Alpha { run(): void { helper(); } }\n"
                "export class Beta { run(): void { return; } }\n"
                "export class Gamma extends Beta { stop(): void { return; } }\n"
            ),
        },
    )
    about_gamma = "The `Gamma` job.\n\nThe `run()` method calls `helper()` first.\n"
    claim = _by_subject(_card(repo, tmp_path, about_gamma))["run() -> helper()"]
    assert claim["verdict"] == "contradicted"
    assert "read as the method of `Gamma`" in claim["evidence"]
    assert "inherited from `Beta`" in claim["evidence"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    about_alpha = "The `Alpha` job.\n\nThe `run()` method calls `helper()` first.\n"
    claim = _by_subject(_card(repo, tmp_path / "a", about_alpha))["run() -> helper()"]
    assert claim["verdict"] == "verified"
    both = "The `Alpha` and `Gamma` jobs.\n\nThe `run()` method calls `helper()` first.\n"
    claim = _by_subject(_card(repo, tmp_path / "b", both))["run() -> helper()"]
    assert claim["verdict"] == "unjudged"


def test_a_method_name_several_modules_define_is_read_as_the_named_modules(
    tmp_path: Path,
) -> None:
    # A page about the `attribute` module (pytype's docs/developers/attributes.md) means
    # its `set_attribute`, not another module's: a module named by its name, its path or a
    # dotted name's head picks the one function of that file. A name two files share, or a
    # page naming both files, says nothing.
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/attribute.py": (
                "class Handler:\n"
                "    def set_attribute(self):\n        self._set_member()\n\n"
                "    def _set_member(self):\n        return None\n"
            ),
            "pkg/convert.py": (
                "class Converter:\n    def set_attribute(self):\n        return None\n"
            ),
            "pkg/one/util.py": "def set_attribute():\n    return None\n",
            "pkg/two/util.py": "def _set_member():\n    return None\n",
        },
    )
    claim_line = "`set_attribute` then calls `_set_member`.\n"
    for index, lead in enumerate(
        ("The `attribute` module.", "See `pkg/attribute.py`.", "`attribute.get_attribute` too.")
    ):
        folder = tmp_path / f"read{index}"
        folder.mkdir()
        claim = _by_subject(_card(repo, folder, f"{lead}\n\n{claim_line}"))
        judged = claim["set_attribute -> _set_member"]
        assert judged["verdict"] == "verified", lead
        assert "read as `Handler.set_attribute` of `pkg/attribute.py`" in judged["evidence"]
    for index, lead in enumerate(
        ("The `util` module.", "The `attribute` and `convert` modules.", "No module.")
    ):
        folder = tmp_path / f"unread{index}"
        folder.mkdir()
        claim = _by_subject(_card(repo, folder, f"{lead}\n\n{claim_line}"))
        assert claim["set_attribute -> _set_member"]["verdict"] == "unjudged", lead


def test_a_named_class_whose_base_name_several_classes_bear_says_nothing(
    tmp_path: Path,
) -> None:
    # Two classes are called Base: which one Gamma inherits from is not known, so naming
    # Gamma does not pick the other Base's `run` (pytype's docs name `PyTDFunction`, whose
    # BaseValue is one of three).
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
            "src/lib/one.ts": (
                "export class Base { stop(): void { return; } }\n"
                "export class Gamma extends Base { halt(): void { return; } }\n"
            ),
            "src/lib/two.ts": (
                "export function helper(): void {}\n"
                "export class Base { run(): void { return; } }\n"
                "export class Alpha { run(): void { helper(); } }\n"
            ),
        },
    )
    body = "The `Gamma` job.\n\nThe `run()` method calls `helper()` first.\n"
    claim = _by_subject(_card(repo, tmp_path, body))["run() -> helper()"]
    assert claim["verdict"] == "unjudged"


def test_this_method_names_the_function_of_the_sentences_before(
    ts_repo: Path, tmp_path: Path
) -> None:
    # "This method" two sentences after `Engine.shutdown()` is that method, and a predicate
    # joined by "and" before the verb does not hide the verb; "It" keeps needing a subject.
    body = (
        "Stopping is the job of `Engine.shutdown()`. But this is no simple stop. This "
        "method closes the store and calls `auditTrail()` last.\n\n"
        "Stopping is the job of `Engine.shutdown()`. But this is no simple stop. It "
        "closes the store and calls `auditTrail()` last.\n"
    )
    card = _card(ts_repo, tmp_path, body)
    claims = [c for c in card.detail["claims"] if "subject" in c]
    assert [(c["subject"], c["verdict"]) for c in claims] == [
        ("Engine.shutdown() -> auditTrail()", "contradicted")
    ]
    assert "This method" in claims[0]["text"]


def test_a_python_function_without_match_is_no_contradicted_switch(tmp_path: Path) -> None:
    # pytype's docs call an if/elif chain over the annotation's kind "essentially a large
    # switch statement": the model records `match` statements only, so it cannot say no.
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/kinds.py": (
                "def process(value):\n"
                "    if isinstance(value, int):\n"
                "        return 1\n"
                "    elif isinstance(value, str):\n"
                "        return 2\n"
                "    return 3\n"
            ),
        },
    )
    body = "`process()` is essentially a large switch statement over the value's kind.\n"
    claims = [c for c in _card(repo, tmp_path, body).detail["claims"] if c["code"] == "SWITCH"]
    assert [c["verdict"] for c in claims] == ["unjudged"]
    assert "if/elif" in claims[0]["evidence"]


def test_a_caller_declared_only_in_stub_files_is_unjudged(tmp_path: Path) -> None:
    # A .pyi declaration has no body (pyright vendors typeshed's stubs of the stdlib): it
    # says nothing of what the function calls. The same function with a body is judged.
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/util.py": "def helper():\n    pass\n\ndef run():\n    pass\n",
            "stubs/meta.pyi": "class Meta:\n    def invoke(self) -> None: ...\n",
        },
    )
    body = "`Meta.invoke()` calls `helper()`. `run()` calls `helper()`.\n"
    claims = _by_subject(_card(repo, tmp_path, body))
    stub = claims["Meta.invoke() -> helper()"]
    assert stub["verdict"] == "unjudged" and "stub files" in stub["evidence"]
    assert claims["run() -> helper()"]["verdict"] == "contradicted"


def test_a_call_matched_by_name_on_this_is_no_call_of_another_receivers_member(
    tmp_path: Path,
) -> None:
    """vitest's locators.md:1052 ("this method calls `.elements` and wraps every element
    using `page.elementLocator`"): `all()` calls `this.elementLocator()`, its own class's
    method matched by name, which is not `page`'s; a receiver named after the caller's
    class (`locator.locate`) is the same object."""
    sources = {
        "src/locators.ts": (
            "export abstract class Locator {\n"
            "  protected abstract locate(x: string): string\n"
            "  all(): string[] { return [this.locate('a')]; }\n"
            "}\n"
            "export class PwLocator extends Locator {\n"
            "  protected locate(x: string): string { return x; }\n"
            "}\n"
            "export class Page {\n"
            "  locate(x: string): string { return x; }\n"
            "}\n"
            "export const page = new Page();\n"
        )
    }
    repo = make_repo(tmp_path / "repo", sources)
    body = (
        "The `all` method calls `page.locate` on each.\n\n"
        "The `all` method calls `locator.locate` once.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    other = claims["all -> page.locate"]
    assert other["verdict"] == "unjudged", other
    assert "this.locate" in other["evidence"], other
    assert claims["all -> locator.locate"]["verdict"] == "verified"
