"""Gate 16, step edges and functions written in place: a function stored where it is written
(an object's property, a JSX attribute, a member assigned) runs when something calls it,
not where it is written, so its calls are in no sequence with the calls around it; a
function handed to a call (``.then(() => ...)``, ``forEach``) may run in place, and its
calls keep their order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_postgates.evidence.model_facts import in_turn, may_follow
from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import BY_ID
from tests.helpers import make_post, make_repo, repo_context

RENDER = """
export function renderContent(x) { return x; }
export function processRendered(x) { return x; }
export function appendMessage(x) {
  processRendered(x);
  return {
    update: (y) => { renderContent(y); },
  };
}
export function appendLater(x, p) {
  processRendered(x);
  p.then(() => renderContent(x));
}
"""
SETTINGS = """
import { saveThemeToStorage, sendToBackground } from "./messaging";
export class SettingsController {
  constructor(view) {
    this.view = new view({
      onTheme: (t) => { saveThemeToStorage(t); },
      onLogs: () => this.downloadLogs(),
    });
  }
  downloadLogs() { sendToBackground({ logs: true }); }
}
"""
MESSAGING = """
export function sendToBackground(payload) {
  window.parent.postMessage({ action: "FORWARD_TO_BACKGROUND", payload }, "*");
}
export function saveThemeToStorage(theme) {
  window.parent.postMessage({ action: "SAVE_THEME", payload: theme }, "*");
}
"""
SOURCES = {
    "package.json": '{"name": "@acme/chat", "version": "1.0.0"}\n',
    "src/render.js": RENDER,
    "src/settings.js": SETTINGS,
    "src/messaging.js": MESSAGING,
}


def _claims(tmp_path: Path, body: str, **sources: str) -> dict[str, dict[str, Any]]:
    repo = make_repo(tmp_path / "repo", {**SOURCES, **sources})
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    card = BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_the_model_records_the_functions_written_in_place_around_a_call() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/render.js": RENDER}, parsers)
    calls = {(c.name, c.line): c.scope for f in facts.functions for c in f.calls}
    assert calls[("processRendered", 5)] == ""
    assert calls[("renderContent", 7)].endswith(":stored")
    assert calls[("renderContent", 12)].endswith(":handed")
    assert in_turn("", calls[("renderContent", 12)])
    assert not in_turn("", calls[("renderContent", 7)])
    assert not in_turn("10:stored", "20:stored") and in_turn("10:handed", "20:handed")
    assert in_turn("10:stored", "10:stored/30:handed")
    assert may_follow("", "10:stored") and may_follow("10:on7", "")
    assert not may_follow("10:stored", "20:stored") and not may_follow("10:on7", "20:on9")


def test_a_call_in_a_stored_function_is_no_step_after_the_calls_around_it(
    tmp_path: Path,
) -> None:
    """`processRendered --> renderContent`: `appendMessage` calls the first and returns an
    object whose `update` calls the second, whenever its holder calls it: not a sequence
    the function runs, yet one that runs if the holder calls `update` after, which the
    graph cannot refute: unjudged, never contradicted. `appendLater` hands the second to
    `.then` (it may run in place, after the first): the same edge in its file stays a
    sequence."""
    body = '```mermaid\nflowchart TD\n    M["processRendered()"] --> C["renderContent()"]\n```\n'
    (edge,) = _claims(tmp_path / "later", body).values()
    assert edge["verdict"] == "unjudged", edge
    assert "`appendLater` calls the first" in edge["evidence"], edge
    stored = RENDER.split("export function appendLater")[0]
    (edge,) = _claims(tmp_path / "stored", body, **{"src/render.js": stored}).values()
    assert edge["verdict"] == "unjudged", edge
    assert "runs after the other" in edge["evidence"], edge


def test_a_callback_of_an_options_object_may_run_after_the_calls_before_it(
    tmp_path: Path,
) -> None:
    """`fetchRows --> drawRows`: `refresh` calls the first, then hands `load` an options
    object whose `onDone` calls the second; `load` may call it back after: unjudged. A file
    where the two sit in two stored functions only (two handlers of one object) is no
    sequence: contradicted."""
    rows = (
        "export function fetchRows() { return 1; }\n"
        "export function drawRows() { return 2; }\n"
        "export function load(url, options) { return url; }\n"
        "export function refresh() {\n"
        "  fetchRows();\n"
        "  load('/rows', { onDone: () => drawRows() });\n"
        "}\n"
    )
    body = '```mermaid\nflowchart TD\n    F["fetchRows()"] --> D["drawRows()"]\n```\n'
    (edge,) = _claims(tmp_path / "callback", body, **{"src/rows.js": rows}).values()
    assert edge["verdict"] == "unjudged", edge
    assert "`refresh` calls the first" in edge["evidence"], edge
    apart = rows.replace(
        "  fetchRows();\n  load('/rows', { onDone: () => drawRows() });\n",
        "  load('/rows', { onStart: () => fetchRows(), onDone: () => drawRows() });\n",
    )
    (edge,) = _claims(tmp_path / "apart", body, **{"src/rows.js": apart}).values()
    assert edge["verdict"] == "contradicted", edge


def test_two_stored_functions_of_one_object_are_no_sequence(tmp_path: Path) -> None:
    """`saveThemeToStorage --> postMessage(FORWARD_TO_BACKGROUND)`: the constructor stores
    one handler calling the first and another reaching a send of the key; neither runs
    after the other, so only the call reading is left, and it is contradicted (the first
    posts SAVE_THEME)."""
    body = (
        '```mermaid\nflowchart TD\n    S["saveThemeToStorage(theme)"] --> '
        'P["postMessage(FORWARD_TO_BACKGROUND)"]\n```\n'
    )
    (edge,) = _claims(tmp_path, body).values()
    assert edge["verdict"] == "contradicted", edge
    assert "SAVE_THEME" in edge["evidence"], edge


IPC_SOURCES = {
    "package.json": '{"name": "@acme/desk", "version": "1.0.0"}\n',
    "src/rows.js": (
        "export function addRow(x) { return x; }\nexport function dropRow(x) { return x; }\n"
    ),
    "src/main.js": (
        'import { addRow, dropRow } from "./rows";\n'
        "export function register(ipcMain) {\n"
        '  ipcMain.handle("rows:add", (_e, x) => addRow(x));\n'
        '  ipcMain.handle("rows:drop", (_e, x) => {\n'
        "    dropRow(x);\n"
        "  });\n"
        "}\n"
    ),
    "src/renderer.js": (
        "export function saveRow(ipcRenderer, x) {\n"
        '  return ipcRenderer.invoke("rows:add", x);\n'
        "}\n"
    ),
}


def test_a_handler_written_in_place_is_its_own_code(tmp_path: Path) -> None:
    """`register` writes two IPC handlers in place: each is its own code (the calls
    written inside it), not all of `register`'s. `saveRow` sends `rows:add`, whose
    handler calls `addRow` only: "saveRow calls dropRow" is contradicted with the keys,
    "saveRow calls addRow" stays unjudged (a message reaches it); and the two handlers run
    when their messages come, in no order: `addRow --> dropRow` is no sequence."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/main.js": IPC_SOURCES["src/main.js"]}, parsers)
    (register,) = [f for f in facts.functions if f.name == "register"]
    scopes = {c.name: c.scope for c in register.calls}
    assert scopes["addRow"].endswith(":on3") and scopes["dropRow"].endswith(":on4")
    repo = make_repo(tmp_path / "repo", IPC_SOURCES)
    posts = tmp_path / "posts"
    posts.mkdir()
    body = (
        "The `saveRow()` function calls `dropRow()`.\n\n"
        "The `saveRow()` function calls `addRow()`.\n\n"
        '```mermaid\nflowchart TD\n    A["addRow()"] --> D["dropRow()"]\n```\n'
    )
    card = BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))
    claims = {c["subject"]: c for c in card.detail["claims"] if "subject" in c}
    dropped = claims["saveRow() -> dropRow()"]
    assert dropped["verdict"] == "contradicted", dropped
    assert "`rows:add`" in dropped["evidence"] and "`rows:drop`" in dropped["evidence"], dropped
    added = claims["saveRow() -> addRow()"]
    assert added["verdict"] == "unjudged" and "a message may reach it" in added["evidence"]
    edge = claims["addRow() -> dropRow()"]
    assert edge["verdict"] == "contradicted", edge


FACTORY = """
import { insert, update } from "./store";
export function createBackend() {
  async function addItem(x) { return insert(x); }
  const updateItem = (x) => update(x);
  const touch = (x) => update(x);
  function both(x) { insert(x); touch(x); }
  return { addItem, updateItem, both };
}
"""


def test_a_local_function_only_returned_runs_when_its_holder_calls_it(tmp_path: Path) -> None:
    """`createBackend` writes `addItem` and `updateItem` and returns them: each runs when
    whoever holds the object calls it, so `insert --> update` has no sequence there and is
    contradicted; a local the file calls by its name (`touch`) may run in place."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/backend.js": FACTORY}, parsers)
    (made,) = [f for f in facts.functions if f.name == "createBackend"]
    scopes = {(c.name, c.line): c.scope for c in made.calls}
    assert scopes[("insert", 4)].endswith(":stored")
    assert scopes[("update", 5)].endswith(":stored")
    assert scopes[("update", 6)].endswith(":handed")
    store = "export function insert(x) { return x; }\nexport function update(x) { return x; }\n"
    body = '```mermaid\nflowchart TD\n    I["insert()"] --> U["update()"]\n```\n'
    sources = {"src/store.js": store, "src/backend.js": FACTORY.replace("touch(x); ", "")}
    (edge,) = _claims(tmp_path, body, **sources).values()
    assert edge["verdict"] == "contradicted", edge


def test_a_function_kept_by_use_callback_runs_when_called() -> None:
    """React's `useCallback(fn, deps)` returns `fn` uncalled: its calls run when the
    handler is called, in no order with the component's other handlers."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    page = (
        'import { useCallback } from "react";\n'
        "export function Gallery({ db }) {\n"
        "  const onImport = useCallback(async (x) => { await db.addImage(x); }, [db]);\n"
        "  const onMove = useCallback(async (x) => { await db.updateImage(x); }, [db]);\n"
        "  return null;\n"
        "}\n"
    )
    facts = read_js({"src/Gallery.jsx": page}, parsers)
    (gallery,) = [f for f in facts.functions if f.name == "Gallery"]
    scopes = {c.name: c.scope for c in gallery.calls}
    assert scopes["addImage"].endswith(":stored") and scopes["updateImage"].endswith(":stored")
    assert not in_turn(scopes["addImage"], scopes["updateImage"])


def test_a_step_a_message_may_reach_is_still_a_sequence_of_the_drawn_function(
    tmp_path: Path,
) -> None:
    """`save --> render` drawn with `flow`: `save` emits a key it computes and a handler
    written in place reaches `render`, so the call reading is open ("a message may reach
    it"); `flow` calls `save` and then `render`, so the step holds: verified in sequence.
    Without `flow` drawn, the edge stays unjudged with the message's reason."""
    bus = (
        'import { bus } from "./emitter";\n'
        "export function render(x) { return x; }\n"
        "export function save(x) { bus.emit(x.kind, x); }\n"
        'export function wire() { bus.on("saved", () => render(null)); }\n'
        "export function flow(x) { save(x); render(x); }\n"
    )
    sources = {"src/bus.js": bus, "src/emitter.js": "export const bus = { on() {}, emit() {} };\n"}
    drawn = (
        '```mermaid\nflowchart TD\n    F["flow()"] --> S["save()"]\n    S --> R["render()"]\n```\n'
    )
    edge = _claims(tmp_path / "drawn", drawn, **sources)["save() -> render()"]
    assert edge["verdict"] == "verified", edge
    assert "in sequence" in edge["evidence"], edge
    alone = '```mermaid\nflowchart TD\n    S["save()"] --> R["render()"]\n```\n'
    (edge,) = _claims(tmp_path / "alone", alone, **sources).values()
    assert edge["verdict"] == "unjudged" and "a message may reach it" in edge["evidence"], edge
