"""The API model's call graph (evidence/calls_python.py, calls_js.py, call_resolution.py,
call_graph.py): each function's calls, resolved where the code says which function is
called, cached with the model and checked like the rest of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence import api_model as api_model_module
from pytest_postgates.evidence.api_model import api_model
from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.index import open_index
from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls, ModelFacts
from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.model_python import read_python
from pytest_postgates.evidence.repomap import load_parsers
from tests.helpers import git, make_repo

PY_ENGINE = """
from pkg import util
from pkg.util import helper as h
import pkg.store

class Base:
    def close(self):
        return 1

class Engine(Base):
    def __init__(self):
        self.store = pkg.store.Store()

    def run(self, items):
        h(items)
        util.other()
        self.step()
        self.close()
        self.store.save()
        self.cache.clear()
        return [self.step() for _ in items]

    def step(self):
        return len([])

def main():
    engine = Engine()
    engine.run(1)
"""
PY_UTIL = "def helper(x):\n    return other()\n\ndef other():\n    pass\n"
PY_STORE = "class Store:\n    def save(self):\n        pass\n"

TS_ENGINE = """
import { helper as h, other } from "./util";
import * as util from "./util.js";
import { Store } from "./store";
import { Facade } from "./index";
import ext from "lodash";

export class Base {
  close(): number { return 1; }
}

export class Engine extends Base {
  private cb = () => { this.step(); };
  constructor() { super(); this.init(); }
  init(): void {}
  async run(items: number[]): Promise<void> {
    h(1);
    util.other();
    this.step();
    this.close();
    this.store.save();
    items.map((v) => this.#secret());
    ext.map([]);
    new Store();
    new Facade();
  }
  step(): number { return other(); }
  #secret(): void {}
}

export function main(): void {
  function inner() { other(); }
  inner();
}
"""
TS_UTIL = "export function helper(x: number) { return other(); }\nexport function other() {}\n"
TS_STORE = "export class Store { save(): void {} }\nexport class Facade extends Store {}\n"
TS_INDEX = 'export { Facade } from "./store";\n'


def _calls(facts: ModelFacts) -> dict[str, list[tuple[str, str, str]]]:
    return {f.qualname: [(c.text, c.kind, c.target) for c in f.calls] for f in facts.functions}


def test_python_calls_resolve_through_imports_self_bases_and_constructors() -> None:
    facts = read_python(
        {
            "pkg/__init__.py": "",
            "pkg/engine.py": PY_ENGINE,
            "pkg/util.py": PY_UTIL,
            "pkg/store.py": PY_STORE,
        }
    )
    calls = _calls(facts)
    assert calls["pkg.engine.Engine.run"] == [
        ("h", "resolved", "pkg.util.helper"),
        ("util.other", "resolved", "pkg.util.other"),
        ("self.step", "resolved", "pkg.engine.Engine.step"),
        ("self.close", "resolved", "pkg.engine.Base.close"),  # inherited
        # A field whose class the code states (``self.store = pkg.store.Store()``).
        ("self.store.save", "resolved", "pkg.store.Store.save"),
        ("self.cache.clear", "dynamic", ""),  # a value of unknown type: not guessed
        ("self.step", "resolved", "pkg.engine.Engine.step"),  # in a comprehension
    ]
    assert calls["pkg.engine.Engine.__init__"] == [
        ("pkg.store.Store", "constructor", "pkg.store.Store")
    ]
    assert calls["pkg.engine.main"][0] == ("Engine", "resolved", "pkg.engine.Engine.__init__")
    assert calls["pkg.engine.Engine.step"] == [("len", "unresolved", "")]
    line = next(f for f in facts.functions if f.qualname == "pkg.engine.Engine.run").calls[0]
    assert line.line == PY_ENGINE.splitlines().index("        h(items)") + 1


@pytest.fixture(scope="module")
def ts_facts() -> ModelFacts:
    parsers = load_parsers()
    if isinstance(parsers, str):
        pytest.fail(parsers)  # tree-sitter is a dependency: its absence is a failure here
    sources = {
        "src/engine.ts": TS_ENGINE,
        "src/util.ts": TS_UTIL,
        "src/store.ts": TS_STORE,
        "src/index.ts": TS_INDEX,
    }
    return read_js(sources, parsers)


def test_typescript_calls_resolve_through_imports_this_super_and_new(
    ts_facts: ModelFacts,
) -> None:
    calls = _calls(ts_facts)
    assert calls["src/engine.ts:Engine.run"] == [
        ("h", "resolved", "src/util.ts.helper"),
        ("util.other", "resolved", "src/util.ts.other"),  # a namespace import
        ("this.step", "resolved", "src/engine.ts:Engine.step"),
        ("this.close", "resolved", "src/engine.ts:Base.close"),  # inherited
        ("this.store.save", "dynamic", ""),
        ("items.map", "dynamic", ""),
        ("this.#secret", "resolved", "src/engine.ts:Engine.#secret"),  # in a closure
        ("ext.map", "external", ""),
        ("Store", "constructor", "src/store.ts:Store"),
        ("Facade", "constructor", "src/store.ts:Facade"),  # through a re-export
    ]
    assert calls["src/engine.ts:Engine.constructor"] == [
        ("super", "dynamic", ""),  # Base declares no constructor
        ("this.init", "resolved", "src/engine.ts:Engine.init"),
    ]
    assert calls["src/engine.ts:Engine.cb"] == [
        ("this.step", "resolved", "src/engine.ts:Engine.step")
    ]
    # A function written inside another is that body's, and a node of its own
    # (calls_nested) that the enclosing function's call of it resolves to.
    assert calls["src/engine.ts.main"] == [
        ("other", "resolved", "src/util.ts.other"),
        ("inner", "resolved", "src/engine.ts.main.<locals>.inner"),
    ]
    assert calls["src/engine.ts.main.<locals>.inner"] == [
        ("other", "resolved", "src/util.ts.other")
    ]
    assert all(f.complete for f in ts_facts.functions)


def test_a_body_with_syntax_errors_is_not_fully_read() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = "export function broken() { other(; }\nexport function other() {}\n"
    facts = read_js({"src/a.ts": source}, parsers)
    by_name = {f.name: f for f in facts.functions}
    assert by_name["broken"].complete is False
    assert by_name["other"].complete is True


def test_switch_and_match_statements_are_read_with_their_value_and_kept_in_the_cache(
    tmp_path: Path,
) -> None:
    """What a body switches over (a TS switch, a Python match), as written, with its line;
    a switch in a nested function is the enclosing function's, like its calls (and the
    local function's own, calls_nested)."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = (
        "export function pick(kind: string): number {\n"
        "  const inner = () => { switch (event.type) { default: return 1; } };\n"
        "  switch (kind) { case 'a': return 1; default: return inner(); }\n"
        "}\n"
        "export function plain(): void {}\n"
    )
    js = {f.name: f.switches for f in read_js({"src/a.ts": source}, parsers).functions}
    assert js == {"pick": [("event.type", 2), ("kind", 3)], "inner": [("event.type", 2)]} | {
        "plain": []
    }
    python = "def route(event):\n    match event.kind:\n        case _:\n            return 1\n"
    (route,) = read_python({"pkg/__init__.py": "", "pkg/r.py": python}).functions
    assert route.switches == [("event.kind", 2)]
    assert FunctionCalls.from_json(json.loads(json.dumps(route.to_json()))) == route


def test_calls_on_the_languages_global_objects_are_external_not_dynamic() -> None:
    """`JSON.parse()`, `Math.max()`, `str.join()` call the language's own objects: never a
    product function, so never followed by name as dynamic dispatch. A product binding of
    the same name still resolves."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = (
        "import { Math as M } from './m';\n"
        "export function read(text: string): number {\n"
        "  const data = JSON.parse(text);\n"
        "  console.log(data);\n"
        "  return M.max(1, 2) + Math.max(1, 2);\n"
        "}\n"
    )
    facts = read_js(
        {"src/a.ts": source, "src/m.ts": "export class Math { static max() {} }\n"}, parsers
    )
    kinds = _calls(facts)["src/a.ts.read"]
    assert kinds == [
        ("JSON.parse", "external", ""),
        ("console.log", "external", ""),
        ("M.max", "resolved", "src/m.ts:Math.max"),
        ("Math.max", "external", ""),
    ]
    python = "def glue(parts):\n    return str.join(',', parts) + parts.strip()\n"
    (glue,) = read_python({"pkg/__init__.py": "", "pkg/g.py": python}).functions
    assert [(c.text, c.kind) for c in glue.calls] == [
        ("str.join", "external"),
        ("parts.strip", "dynamic"),
    ]


def test_the_call_graph_is_cached_with_the_model_and_checked(tmp_path: Path) -> None:
    root = make_repo(
        tmp_path / "repo",
        {"pkg/__init__.py": "", "pkg/util.py": PY_UTIL, "pkg/store.py": PY_STORE},
    )
    cache = tmp_path / "cache"
    index = open_index(root, git(root, "rev-parse", "HEAD").strip(), cache)
    api_model(index, cache)
    api_model_module._MODELS.clear()  # a new process: the model comes from the folder
    (written,) = cache.glob("apimodel-*.json")
    loaded = api_model_module._load(written, index)
    assert loaded is not None
    graph = loaded.call_graph
    (helper,) = graph.named("helper")
    assert [(c.name, c.target) for c in helper.calls] == [("other", "pkg.util.other")]
    # A forged edge (the call's name is written nowhere in the caller's file) is a model
    # the code does not confirm: it is rebuilt, not trusted.
    data = json.loads(written.read_text())
    for row in data["facts"]["functions"]:
        if row[0] == "pkg.util.other":
            row[6].append(["save", "save", 5, "resolved", "pkg.store.Store.save"])
    written.write_text(json.dumps(data))
    assert api_model_module._load(written, index) is None


def _function(qualname: str, calls: list[CallSite], complete: bool = True) -> FunctionCalls:
    return FunctionCalls(qualname, qualname.rsplit(".", 1)[-1], "", "m.py", 1, complete, calls)


def _graph() -> CallGraph:
    return CallGraph(
        [
            _function("m.a", [CallSite("b", "b", 2, "resolved", "m.b")]),
            _function("m.b", [CallSite("c", "c", 3, "resolved", "m.c")]),
            _function("m.c", [CallSite("d", "d", 4, "resolved", "m.d")]),
            _function("m.d", []),
            _function("m.x", [CallSite("run", "self.store.run", 5, "dynamic")]),
            _function("m.run", [CallSite("d", "d", 6, "resolved", "m.d")]),
            _function("m.make", [CallSite("from_parent", "Item.from_parent", 7, "dynamic")]),
        ]
    )


def test_reach_finds_direct_calls_paths_within_the_depth_and_calls_by_name() -> None:
    graph = _graph()
    (a,) = graph.named("a")
    direct = graph.reach([a], frozenset({"m.b"}), frozenset({"b"}), 3)
    assert [h.call.target for h in direct.hops] == ["m.b"]
    path = graph.reach([a], frozenset({"m.d"}), frozenset({"d"}), 3)
    assert [h.caller.name for h in path.hops] == ["a", "b", "c"]
    assert not graph.reach([a], frozenset({"m.d"}), frozenset({"d"}), 2).found
    (x,) = graph.named("x")
    by_name = graph.reach([x], frozenset({"m.run"}), frozenset({"run"}), 1)
    assert by_name.hops[0].by_name
    # Through dynamic dispatch only when asked to follow it, and then marked so.
    assert not graph.reach([x], frozenset({"m.d"}), frozenset({"d"}), 3).found
    through = graph.reach([x], frozenset({"m.d"}), frozenset({"d"}), 3, follow_dynamic=True)
    assert through.found and through.through_dynamic
    # A member called on the target class uses it (`Item.from_parent(...)` makes an Item).
    (make,) = graph.named("make")
    assert graph.reach([make], frozenset({"m.Item"}), frozenset({"Item"}), 1).found


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sets(st.integers(min_value=0, max_value=5), max_size=4), min_size=1, max_size=6))
def test_python_edges_are_exactly_the_calls_written(edges: list[set[int]]) -> None:
    """A module of functions f0..fn, each calling the ones drawn: the call graph holds
    exactly those edges (calls to names that are not functions stay unresolved)."""
    count = len(edges)
    lines = []
    for index, callees in enumerate(edges):
        lines.append(f"def f{index}():")
        body = [f"    f{callee}()" for callee in sorted(callees)] or ["    pass"]
        lines += body
    facts = read_python({"mod.py": "\n".join(lines) + "\n"})
    got = {f.name: {(c.kind, c.target) for c in f.calls} for f in facts.functions}
    for index, callees in enumerate(edges):
        expected = {("resolved", f"mod.f{c}") if c < count else ("unresolved", "") for c in callees}
        assert got[f"f{index}"] == expected


def test_a_dynamic_call_of_a_common_name_is_not_followed() -> None:
    """Following `x.get()` to every `get` of the product would reach most of the code: a
    name more than DYNAMIC_FANOUT functions share is not followed."""
    from pytest_postgates.evidence.call_graph import DYNAMIC_FANOUT

    many = [
        FunctionCalls(
            f"m{i}.get", "get", f"C{i}", "m.py", i, True, [CallSite("d", "d", i, "resolved", "m.d")]
        )
        for i in range(DYNAMIC_FANOUT + 1)
    ]
    caller = _function("m.x", [CallSite("get", "self.cache.get", 5, "dynamic")])
    graph = CallGraph([*many, caller, _function("m.d", [])])
    assert not graph.reach([caller], frozenset({"m.d"}), frozenset({"d"}), 3, True).found
    few = CallGraph([*many[:DYNAMIC_FANOUT], caller, _function("m.d", [])])
    assert few.reach([caller], frozenset({"m.d"}), frozenset({"d"}), 3, True).found


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sets(st.integers(min_value=0, max_value=5), max_size=4), min_size=1, max_size=6),
    st.booleans(),
)
def test_typescript_edges_are_exactly_the_calls_written(
    edges: list[set[int]], as_methods: bool
) -> None:
    """Functions (or methods of one class, called through ``this``) f0..fn, each calling the
    ones drawn, some inside a closure: the call graph holds exactly those edges."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    count = len(edges)
    receiver = "this." if as_methods else ""
    bodies = []
    for index, callees in enumerate(edges):
        calls = [f"{receiver}f{callee}();" for callee in sorted(callees)]
        # Every other call inside an arrow function: still this body's call.
        body = " ".join(
            call if n % 2 else f"[1].map(() => {call[:-1]});" for n, call in enumerate(calls)
        )
        head = f"f{index}(): void" if as_methods else f"export function f{index}(): void"
        bodies.append(f"{head} {{ {body} }}")
    source = "\n".join(bodies)
    if as_methods:
        source = "export class C {\n" + source + "\n}\n"
    facts = read_js({"src/mod.ts": source}, parsers)
    prefix = "src/mod.ts:C." if as_methods else "src/mod.ts."
    got = {
        f.name: {(c.kind, c.target) for c in f.calls if c.name.startswith("f")}
        for f in facts.functions
    }
    missing = "dynamic" if as_methods else "unresolved"
    for index, callees in enumerate(edges):
        expected = {("resolved", f"{prefix}f{c}") if c < count else (missing, "") for c in callees}
        assert got[f"f{index}"] == expected


def test_the_calls_outside_any_function_are_the_module_code_s() -> None:
    """A route handler written at a file's top level (`app.get("/x", (req, res) => ...)`)
    and a script's `if __name__ == "__main__":` block run product calls no function
    holds: they are the file's module code, in order, with its callbacks' parameters
    called as callbacks and the names it passes recorded as passed."""
    from pytest_postgates.evidence.call_resolution import MODULE_CODE

    parsers = load_parsers()
    assert not isinstance(parsers, str)
    server = (
        'import { parseQuery, runSearch, onClose } from "./search";\n'
        "const app = makeApp();\n"
        'app.get("/search", async (req, res, next) => {\n'
        "  const query = parseQuery(req.query.q);\n"
        "  res.json(await runSearch(query));\n"
        "  next();\n"
        "});\n"
        'app.on("close", onClose);\n'
        "export function unrelated(): void {}\n"
    )
    search = (
        "export function parseQuery(q: string): string { return q; }\n"
        "export async function runSearch(q: string): Promise<string> { return q; }\n"
        "export function onClose(): void {}\n"
    )
    facts = read_js({"src/server.ts": server, "src/search.ts": search}, parsers)
    calls = _calls(facts)
    assert calls[f"src/server.ts.{MODULE_CODE}"] == [
        ("makeApp", "unresolved", ""),
        ("app.get", "dynamic", ""),
        ("parseQuery", "resolved", "src/search.ts.parseQuery"),
        ("res.json", "dynamic", ""),
        ("runSearch", "resolved", "src/search.ts.runSearch"),
        ("next", "callback", ""),
        ("app.on", "dynamic", ""),
        ("onClose", "passed", ""),
    ]
    assert "onClose" in CallGraph(facts.functions).passed
    assert f"src/search.ts.{MODULE_CODE}" not in calls  # no code outside its functions
    python = (
        "from pkg.steps import load, save\n"
        "def main():\n"
        "    pass\n"
        "@register(key=load)\n"
        "def handler():\n"
        "    save()\n"
        "if __name__ == '__main__':\n"
        "    data = load()\n"
        "    save(data)\n"
    )
    steps = (
        "def load():\n    pass\n\ndef save(data=None):\n    pass\n\ndef register(key):\n    pass\n"
    )
    facts = read_python({"pkg/__init__.py": "", "pkg/run.py": python, "pkg/steps.py": steps})
    calls = _calls(facts)
    assert calls[f"pkg.run.{MODULE_CODE}"] == [
        ("register", "unresolved", ""),
        ("load", "passed", ""),
        ("load", "resolved", "pkg.steps.load"),
        ("save", "resolved", "pkg.steps.save"),
    ]
    assert calls["pkg.run.handler"][-1] == ("save", "resolved", "pkg.steps.save")


def test_a_python_file_opening_with_a_byte_order_mark_is_read() -> None:
    """Python runs a file whose text opens with a UTF-8 byte order mark (Windows editors
    write one); the model reads it like any other, its functions and calls included."""
    source = '\ufeff"""Entry point."""\nfrom pkg.steps import load\n\ndef main():\n    load()\n'
    facts = read_python(
        {"pkg/__init__.py": "", "pkg/app.py": source, "pkg/steps.py": "def load():\n    pass\n"}
    )
    assert "pkg/app.py" not in facts.unread
    assert _calls(facts)["pkg.app.main"] == [("load", "resolved", "pkg.steps.load")]


def test_getattr_with_an_attribute_the_code_names_is_a_call_of_that_attribute() -> None:
    """`getattr(obj, "extract", None)` names the attribute: calling it (directly, or
    through a local bound once to it) calls `obj.extract`. A name the code computes, or a
    local bound twice, stays opaque."""
    source = (
        "class Extractor:\n"
        "    def extract(self, event):\n"
        "        return []\n"
        "    def again(self):\n"
        "        getattr(self, 'extract')(1)\n"
        "def process(extractor, name):\n"
        "    method = getattr(extractor, 'extract', None)\n"
        "    for found in method(2):\n"
        "        pass\n"
        "    computed = getattr(extractor, name)\n"
        "    computed()\n"
        "    twice = getattr(extractor, 'a')\n"
        "    twice = getattr(extractor, 'b')\n"
        "    twice()\n"
    )
    calls = _calls(read_python({"pkg/__init__.py": "", "pkg/m.py": source}))
    assert ("self.extract", "resolved", "pkg.m.Extractor.extract") in calls["pkg.m.Extractor.again"]
    made = [(text, kind) for text, kind, _target in calls["pkg.m.process"] if text != "getattr"]
    assert made == [("extractor.extract", "dynamic"), ("computed", "opaque"), ("twice", "opaque")]


TS_STORES = {
    "src/stores/useTaskStore.js": """
import { create } from 'zustand';
import TaskEngine from '../services/engine';
export const useTaskStore = create((set, get) => ({
  tasks: [],
  params: { ...DEFAULTS },
  async loadTasks() { set({ ...get(), tasks: [] }); },
  initBridge() {
    ['a', 'b'].map((evt) => TaskEngine.on(evt, () => get().loadTasks()));
  },
}));
""",
    "src/services/engine.js": """
class Engine {
  on(evt, cb) { this.cb = cb; }
  submit() { this._emit(); }
  _emit() { [this.cb].forEach((cb) => { cb(); }); }
}
export const bus = new Engine();
export default bus;
""",
    "src/stores/useBoard.js": """
import { create } from 'zustand';
import { createSlice } from './slice';
export const useBoard = create((...a) => ({ ...createSlice(...a), clear() {} }));
""",
    "src/lib/api.ts": """
export const api = {
  sendMessage: (sid: string) => request(sid),
  ping() { return 1; },
};
function request(sid: string) { return sid; }
""",
}


def test_module_constants_that_are_no_function_are_ends_with_their_functions() -> None:
    """A store a call makes (its actions), an instance (its class) and an object literal
    (its members, arrow ones included) are recorded with the functions their initializers
    write; a function written in place handed to product code is a listener registered."""
    parsers = load_parsers()
    if isinstance(parsers, str):
        pytest.fail(parsers)
    facts = read_js(TS_STORES, parsers)
    values = {v.name: v for v in facts.values}
    store = values["useTaskStore"]
    assert (store.kind, store.made_by, store.open) == ("call", "create", False)
    # a store spreading a slice in has functions its file does not show
    assert values["useBoard"].open
    names = {q.split(".js.", 1)[1].split("@")[0] for q in store.functions}
    assert names == {"loadTasks", "initBridge"}
    assert (values["bus"].kind, values["bus"].made_by) == ("new", "Engine")
    api = values["api"]
    assert api.kind == "object"
    assert {q.split(".ts.", 1)[1].split("@")[0] for q in api.functions} == {"sendMessage", "ping"}
    by_name = {f.name: f for f in facts.functions}
    # `sendMessage: (sid) => request(sid)`: a function of its own, calling `request`
    assert [(c.text, c.kind) for c in by_name["sendMessage"].calls] == [("request", "resolved")]
    assert by_name["initBridge"].hands == [("TaskEngine.on", 9)]
    assert by_name["loadTasks"].hands == []  # `set` is no product code
    graph = CallGraph(facts.functions, facts.values)
    assert [v.path for v in graph.values["bus"]] == ["src/services/engine.js"]
    # the engine's `cb()` runs a function value
    submit = graph.named("submit")
    hop = graph.value_call(submit, 3)
    assert hop is not None and hop.call.text == "cb"
    again = FunctionCalls.from_json(by_name["initBridge"].to_json())
    assert again.hands == by_name["initBridge"].hands


def test_a_python_class_without_methods_has_its_body_read_as_a_pseudo_method() -> None:
    facts = read_python(
        {
            "pkg/__init__.py": "",
            "pkg/config.py": (
                "from pydantic_settings import BaseSettings, SettingsConfigDict\n"
                "class Settings(BaseSettings):\n"
                "    name: str = 'x'\n"
                "    model_config = SettingsConfigDict(env_file='.env')\n"
            ),
        }
    )
    calls = _calls(facts)
    assert calls["pkg.config.Settings.<class>"] == [("SettingsConfigDict", "external", "")]
