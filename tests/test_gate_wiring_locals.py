"""Gate 16 and the functions written inside a function (:mod:`~pytest_postgates.evidence.
calls_nested`): a Vue component's ``setup()`` handlers, a factory's returned functions. Each is
a node of the call graph qualified by its top-level function, and a name it takes from its
closure (a parameter, a local) is a callback, never the module function of that name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import BY_ID
from tests.helpers import make_post, make_repo, repo_context

MODAL = """
import { api } from "./api";
export function reset() { return 0; }
export default {
  setup(props, { emit }) {
    const form = {};
    const loadSessions = async () => { form.list = await api.list(); };
    function saveSession() {
      validate();
      api.save(form);
      closeModal();
    }
    const validate = () => form.name != null;
    const closeModal = () => { emit("close"); };
    return { saveSession, loadSessions, closeModal };
  },
};
export function makeStore(reset) {
  const save = () => { reset(); persist(); };
  function persist() { return 1; }
  return { save };
}
export function makeTimer() {
  const reset = pickReset();
  const stop = () => { reset(); };
  return { stop };
}
"""
SOURCES = {
    "package.json": '{"name": "@acme/modal", "version": "1.0.0"}\n',
    "src/modal.js": MODAL,
    "src/api.js": "export const api = { list() { return []; }, save(x) { return x; } };\n",
}


def _claims(tmp_path: Path, body: str) -> dict[str, dict[str, Any]]:
    repo = make_repo(tmp_path / "repo", SOURCES)
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    card = BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_a_local_function_is_a_node_with_its_own_calls() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/modal.js": MODAL, "src/api.js": SOURCES["src/api.js"]}, parsers)
    by_name = {f.name: f for f in facts.functions if "<locals>" in f.qualname}
    save = by_name["saveSession"]
    assert save.qualname == "src/modal.js.setup@5.<locals>.saveSession"
    calls = {c.name: (c.kind, c.target) for c in save.calls}
    assert calls["validate"] == ("resolved", "src/modal.js.setup@5.<locals>.validate")
    assert calls["closeModal"] == ("resolved", "src/modal.js.setup@5.<locals>.closeModal")
    assert "list" not in calls  # loadSessions' call, not saveSession's
    # a parameter of the enclosing factory is a callback, not the module's `reset`
    store_save = {c.name: c.kind for c in by_name["save"].calls}
    assert store_save == {"reset": "callback", "persist": "resolved"}
    # so is a local of the enclosing function (`const reset = pickReset()`)
    assert [(c.name, c.kind) for c in by_name["stop"].calls] == [("reset", "callback")]


def test_claims_on_local_functions_are_judged(tmp_path: Path) -> None:
    body = (
        "# The modal\n\n"
        "`saveSession` calls `closeModal` once the form is valid.\n\n"
        "`saveSession` calls `loadSessions` to refresh the list.\n\n"
        "`save()` calls `reset()` and `persist()`.\n"
    )
    claims = _claims(tmp_path, body)
    assert claims["saveSession -> closeModal"]["verdict"] == "verified", claims
    contradicted = claims["saveSession -> loadSessions"]
    assert contradicted["verdict"] == "contradicted", contradicted
    # `reset` is the factory's parameter there: whatever its caller passes
    assert claims["save() -> reset()"]["verdict"] != "contradicted", claims
    assert claims["save() -> persist()"]["verdict"] == "verified", claims


FACTORY = """
def reset():
    return 0


def make_store(reset_hook):
    state = {}

    def save():
        validate()
        reset_hook()
        persist()

    def validate():
        return bool(state)

    def persist():
        state["saved"] = True

    def reset():
        state.clear()

    save()
    return save, reset
"""


def test_a_python_local_function_is_a_node_with_its_closure_settled() -> None:
    from pytest_postgates.evidence.model_python import read_python

    facts = read_python({"pkg/__init__.py": "", "pkg/store.py": FACTORY})
    by_qualname = {f.qualname: f for f in facts.functions}
    save = by_qualname["pkg.store.make_store.<locals>.save"]
    assert [(c.name, c.kind, c.target) for c in save.calls] == [
        ("validate", "resolved", "pkg.store.make_store.<locals>.validate"),
        ("reset_hook", "callback", ""),
        ("persist", "resolved", "pkg.store.make_store.<locals>.persist"),
    ]
    outer = {c.name: c.target for c in by_qualname["pkg.store.make_store"].calls}
    # the enclosing function's own call of `save` is the local function
    assert outer["save"] == "pkg.store.make_store.<locals>.save"
