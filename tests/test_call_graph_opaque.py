"""The call graph's soundness: a callee the code computes (a computed key, ``getattr``, a
wrapping decorator) is an opaque call, which
may be any function; a parameter called is a callback, which may be any function the
product passes as a value; a function passed as a value may be called by whatever receives
it. Gate 16 never contradicts a claim whose caller runs one of these within the depth that
may be the callee, and still contradicts one whose caller runs none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_postgates.evidence.model_facts import ModelFacts
from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.model_python import read_python
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import BY_ID
from tests.helpers import make_post, make_repo, repo_context

PY_APP = """
import functools
from external_lib import Handler, registry, traced


class Base(Handler):
    pass


class App(Base):
    def run(self, name, callback):
        getattr(self, name)()
        fn = getattr(self, name)
        fn()
        self.table[name]()
        registry[name]()
        callback()
        helper()
        self.step()

    def register(self):
        self.hooks.append(self.plain)
        self.later(callback=helper)

    @traced
    def wrapped(self):
        self.step()

    @functools.lru_cache
    def cached(self):
        self.step()

    def __init__(self):
        super().__init__()

    def close(self):
        super().close()

    def step(self):
        pass

    def dispatch(self, name):
        return getattr(self, name)()

    def go(self):
        self.dispatch("plain")

    def plain(self):
        self.step()


class Local(Exception):
    def __init__(self):
        super().__init__()


def helper():
    pass
"""

TS_APP = """
import { EventEmitter } from "events";
import chalk from "chalk";

export class Runner extends EventEmitter {
  constructor() { super(); }
  emit(name: string) { return super.emit(name); }
  async report(name: string, ...args: unknown[]) {
    await Promise.all(this.reporters.map(r => r[name]?.(...args)));
  }
  async start() { await this.report("onInit", this); }
  each(done: () => void, { onEnd }: { onEnd: () => void }) { done(); onEnd(); this.#tick(); }
  #tick() {}
  stop() {
    this.#tick(); chalk[this.color](this.name); this.items[Symbol.iterator](); this["save"]();
  }
  make() { return factory()(); }
}
export function factory() { return () => {}; }
export function boot(r: Runner) { r.each(idle, { onEnd: () => {} }); }
export function idle(): void {}
export function spare(): void {}
export function runAsync(api: any) { return api.code.spare.callKwargs(1); }
export function viaCall(o: any) { return o.tools.idle.call(o); }
"""


def _kinds(facts: ModelFacts) -> dict[str, list[tuple[str, str]]]:
    return {f.qualname: [(c.text, c.kind) for c in f.calls] for f in facts.functions}


def test_python_callees_the_code_computes_are_opaque() -> None:
    facts = read_python({"pkg/__init__.py": "", "pkg/app.py": PY_APP})
    calls = _kinds(facts)
    assert calls["pkg.app.App.run"] == [
        ("getattr(self, name)", "opaque"),  # a call's result called
        ("getattr", "unresolved"),
        ("getattr", "unresolved"),
        ("fn", "opaque"),  # a local bound to getattr's result
        ("self.table[name]", "opaque"),  # an item by a key
        ("registry[name]", "external"),  # another package's item: its function
        ("callback", "callback"),  # a parameter: the caller's callback
        ("helper", "resolved"),
        ("self.step", "resolved"),
    ]
    # product functions passed as values (a closure's parameter called is no callback of
    # the function: its own body passes the closure)
    assert calls["pkg.app.App.register"] == [
        ("self.hooks.append", "dynamic"),
        ("self.plain", "passed"),
        ("self.later", "dynamic"),
        ("helper", "passed"),
    ]
    # a decorator from outside wraps the body; Python's own caches do not
    assert calls["pkg.app.App.wrapped"][0] == ("@traced", "opaque")
    assert calls["pkg.app.App.cached"] == [("self.step", "resolved")]
    # super() into a base outside the product stays dynamic dispatch (whether the base's
    # method calls back this class's overrides needs the dependency's code)
    assert calls["pkg.app.App.close"] == [("super().close", "dynamic"), ("super", "unresolved")]
    assert calls["pkg.app.App.plain"] == [("self.step", "resolved")]
    # a string passed to a dispatch by that parameter is a call of that name
    assert calls["pkg.app.App.go"] == [
        ("self.dispatch", "resolved"),
        ("self.dispatch('plain') -> [plain]", "dynamic"),
    ]


def test_typescript_callees_the_code_computes_are_opaque() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    calls = _kinds(read_js({"src/runner.ts": TS_APP}, parsers))
    assert ("r[name]", "opaque") in calls["src/runner.ts:Runner.report"]
    assert calls["src/runner.ts:Runner.constructor"] == [("super", "dynamic")]
    assert calls["src/runner.ts:Runner.emit"] == [("super.emit", "dynamic")]
    # parameters called, a destructured one included; `this.#tick()` is the private method
    assert calls["src/runner.ts:Runner.each"] == [
        ("done", "callback"),
        ("onEnd", "callback"),
        ("this.#tick", "resolved"),
    ]
    assert calls["src/runner.ts.boot"] == [("r.each", "dynamic"), ("idle", "passed")]
    # a computed member of another package's object is that package's function
    # a key the code writes is a member by its name, dynamic dispatch
    assert calls["src/runner.ts:Runner.stop"] == [
        ("this.#tick", "resolved"),
        ("chalk[this.color]", "external"),
        ("this.items[Symbol.iterator]", "dynamic"),
        ('this["save"]', "dynamic"),
    ]
    assert calls["src/runner.ts:Runner.make"] == [("factory", "resolved"), ("factory()", "opaque")]


def _claims(repo: Path, tmp_path: Path, body: str) -> dict[str, dict[str, Any]]:
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    card = BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_a_caller_running_an_opaque_call_within_the_depth_is_never_contradicted(
    tmp_path: Path,
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": '{"name": "runner", "version": "1.0.0"}\n',
            "src/runner.ts": TS_APP
            + "export class Reporter { onInit(): void {} onEnd(): void {} }\n",
        },
    )
    body = (
        "`Runner.start()` calls `onInit()` on every reporter.\n\n"
        "`Runner.start()` calls `onEnd()` on every reporter.\n\n"
        "`Runner.each()` calls `idle()` at the end.\n\n"
        "`Runner.each()` calls `spare()` at the end.\n\n"
        "`Runner.stop()` calls `idle()` at the end.\n\n"
        "`runAsync()` calls `spare()` with keywords.\n\n"
        "`viaCall()` calls `idle()` on its object.\n"
    )
    claims = _claims(repo, tmp_path, body)
    # start -> this.report("onInit") -> r[name]?.(): a string-keyed dispatch, read as a
    # call named `onInit` on a value the model does not type
    through = claims["Runner.start() -> onInit()"]
    assert through["verdict"] == "verified"
    assert "this.report('onInit') -> [onInit]" in through["evidence"]
    # the key passed is not `onEnd`: the opaque call in `report` leaves it unjudged
    other = claims["Runner.start() -> onEnd()"]
    assert other["verdict"] == "unjudged"
    assert "`r[name]` at src/runner.ts:9 (in `report`, which it calls)" in other["evidence"]
    # `done` may be `idle`, which `boot` passes as a value; never `spare`, passed nowhere
    callback = claims["Runner.each() -> idle()"]
    assert callback["verdict"] == "unjudged" and "`done`" in callback["evidence"]
    assert claims["Runner.each() -> spare()"]["verdict"] == "contradicted"
    # the control: a body that runs no such call is still contradicted
    assert claims["Runner.stop() -> idle()"]["verdict"] == "contradicted"
    # a member called on a value named like the callee (pyodide's
    # `API.pyodide_code.eval_code_async.callKwargs(...)`) may be the callee called
    held = claims["runAsync() -> spare()"]
    assert held["verdict"] == "unjudged" and "on a value named `spare`" in held["evidence"]
    # `o.tools.idle.call(o)` calls `idle`
    assert claims["viaCall() -> idle()"]["verdict"] == "verified"


def test_a_python_caller_with_getattr_or_a_wrapping_decorator_is_never_contradicted(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo", {"pkg/__init__.py": "", "pkg/app.py": PY_APP})
    body = (
        "`App.run()` calls `App.plain()` by its name.\n\n"
        "`App.wrapped()` calls `helper()` around the step.\n\n"
        "`App.cached()` calls `helper()` around the step.\n\n"
        "`App.register()` calls `helper()` later.\n\n"
        "`App.go()` calls `App.plain()` by its name.\n"
    )
    claims = _claims(repo, tmp_path, body)
    assert claims["App.run() -> App.plain()"]["verdict"] == "unjudged"
    wrapped = claims["App.wrapped() -> helper()"]
    assert wrapped["verdict"] == "unjudged" and "`@traced`" in wrapped["evidence"]
    assert claims["App.cached() -> helper()"]["verdict"] == "contradicted"
    assert claims["App.go() -> App.plain()"]["verdict"] == "verified"
    passed = claims["App.register() -> helper()"]  # `self.later(callback=helper)`
    assert passed["verdict"] == "unjudged" and "passed as a value" in passed["evidence"]


def test_a_function_assigned_to_a_member_is_read_and_reached_by_its_name(tmp_path: Path) -> None:
    """`Module.loadAll = async function () {...}` (pyodide's `Module.loadPackagesFromImports`)
    is a function of the product, reached by its member's name; `module.exports = function`
    names none."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = (
        "const Module = {};\n"
        "Module.loadAll = async function (code) { await fetchAll(code); };\n"
        "Runner.prototype.step = (x) => { helper(x); };\n"
        "module.exports = function () { helper(1); };\n"
        "function fetchAll(code) { return code; }\n"
        "function helper(x) { return x; }\n"
        "function boot() { return Module.loadAll('x'); }\n"
    )
    calls = _kinds(read_js({"src/api.js": source}, parsers))
    assert calls["src/api.js.Module.loadAll@2"] == [("fetchAll", "resolved")]
    assert calls["src/api.js.Runner.prototype.step@3"] == [("helper", "resolved")]
    assert not [q for q in calls if "exports" in q]
    repo = make_repo(
        tmp_path / "repo",
        {"package.json": '{"name": "api", "version": "1.0.0"}\n', "src/api.js": source},
    )
    claims = _claims(repo, tmp_path, "`loadAll` calls `fetchAll` first.\n")
    assert claims["loadAll -> fetchAll"]["verdict"] == "verified"


def test_a_method_called_on_a_local_the_function_made_resolves_to_its_class() -> None:
    """`store = Store(); store.save()` and `const s = new Store(); s.save()`: the method of
    the class the local was made by (a local bound twice stays dynamic dispatch)."""
    python = (
        "class Store:\n    def save(self):\n        pass\n\n"
        "def keep():\n    store = Store()\n    store.save()\n\n"
        "def twice(flag):\n    store = Store()\n    store = flag\n    store.save()\n"
    )
    calls = _kinds(read_python({"pkg/__init__.py": "", "pkg/s.py": python}))
    assert calls["pkg.s.keep"] == [("Store", "constructor"), ("store.save", "resolved")]
    assert calls["pkg.s.twice"][-1] == ("store.save", "dynamic")
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = (
        "export class Store { save(): void {} }\n"
        "export function keep() { const s = new Store(); s.save(); }\n"
        "export function other(s: any) { s.save(); }\n"
    )
    js = _kinds(read_js({"src/s.ts": source}, parsers))
    assert js["src/s.ts.keep"] == [("Store", "constructor"), ("s.save", "resolved")]
    assert js["src/s.ts.other"] == [("s.save", "dynamic")]


def test_a_file_whose_parameters_are_outside_any_function_is_read() -> None:
    """A file of top-level callbacks only (`module.exports = (o) => parse(o)`, no function
    the call graph lists) is read: its parameters belong to no function (the reader once
    failed on it, and the file went unread by the whole model)."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = "module.exports = (opts) => parse(opts);\napp.get('/', (req, res) => res.send());\n"
    facts = read_js({"lib/options.js": source}, parsers)
    assert "lib/options.js" not in facts.unread
