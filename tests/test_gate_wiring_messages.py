"""Gate 16's message edges: calls whose argument decides who is reached (postMessage with an
action, emit/on, dispatchEvent/addEventListener, Electron IPC, Python signals), read into the
API model's call graph and judged on a small repository built here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.model_python import read_python
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import BY_ID
from tests.helpers import make_post, make_repo, repo_context

MESSAGING = """
const FORWARD = "FORWARD_TO_BACKGROUND";
export function sendToBackground(payload) {
  window.parent.postMessage({ action: FORWARD, payload }, "*");
}
export function saveThemeToStorage(theme) {
  window.parent.postMessage({ action: "SAVE_THEME", payload: theme }, "*");
}
export function saveAnything(kind, value) {
  window.parent.postMessage({ action: kind, payload: value }, "*");
}
export function saveViaBackground(value) {
  sendToBackground({ value });
}
export function noop(value) { return value; }
export function tick(value) { return value; }
export function saveAll(theme) { noop(theme); sendToBackground(theme); }
export function saveLater(kind) { tick(kind); saveAnything(kind, 1); }
"""
BUS = """
import { bus } from "./emitter";
export function onSaved(item) { renderList(item); }
export function onDeleted(item) { clearList(item); }
export function renderList(item) { return item; }
export function clearList(item) { return item; }
export function wire() {
  bus.on("item:saved", onSaved);
  bus.on("item:deleted", onDeleted);
}
export function saveItem(item) { bus.emit("item:saved", item); }
export function dropItem(item, kind) { bus.emit(kind, item); }
export function listen(evt, handler) { bus.on(evt, handler); }
export function boot() { bus.on("item:cleared", () => clearList(null)); }
"""
EMITTER = "export const bus = { on() {}, emit() {} };\n"
SOURCES = {
    "package.json": '{"name": "@acme/ext", "version": "1.0.0"}\n',
    "src/messaging.js": MESSAGING,
    "src/list.js": BUS,
    "src/emitter.js": EMITTER,
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", SOURCES)


def _claims(repo: Path, tmp_path: Path, body: str) -> dict[str, dict[str, Any]]:
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    card = BY_ID[16].evaluate(make_post(body, posts), repo_context(repo, tmp_path / "cache"))
    return {c["subject"]: c for c in card.detail["claims"] if "subject" in c}


def test_the_model_records_send_sites_and_registrations_with_their_keys() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/messaging.js": MESSAGING, "src/list.js": BUS}, parsers)
    by_name = {f.name: f for f in facts.functions}
    # a constant of the file resolved, written name kept
    assert by_name["sendToBackground"].sends == [
        ("message", "FORWARD_TO_BACKGROUND", "FORWARD", "postMessage", 4)
    ]
    assert by_name["saveAnything"].sends == [("message", "", "", "postMessage", 10)]
    assert by_name["wire"].listens == [
        ("event", "item:saved", "onSaved", 8),
        ("event", "item:deleted", "onDeleted", 9),
    ]
    python = (
        "saved = signal('saved')\n"
        "def save(x):\n    saved.send(x)\n"
        "@receiver(saved)\ndef on_saved(sender):\n    pass\n"
    )
    py = {f.name: f for f in read_python({"pkg/__init__.py": "", "pkg/a.py": python}).functions}
    assert py["save"].sends == [("signal", "saved", "", "send", 3)]
    assert py["on_saved"].listens == [("signal", "saved", "on_saved", 4)]


def test_a_send_written_with_its_key_is_compared_with_the_keys_the_caller_sends(
    repo: Path, tmp_path: Path
) -> None:
    body = """
# Saving

```mermaid
flowchart TD
    A["saveThemeToStorage(theme)"] --> P["postMessage(FORWARD_TO_BACKGROUND)"]
    B["saveViaBackground(value)"] --> Q["postMessage(FORWARD_TO_BACKGROUND)"]
    C["saveAnything(kind)"] --> R["postMessage(FORWARD_TO_BACKGROUND)"]
    D["saveThemeToStorage(theme)"] --> S["postMessage('SAVE_THEME')"]
    E["saveThemeToStorage(theme)"] --> T["postMessage(RESTORE_ALL)"]
```
"""
    claims = _claims(repo, tmp_path, body)
    wrong = claims["saveThemeToStorage(theme) -> postMessage(FORWARD_TO_BACKGROUND)"]
    assert wrong["verdict"] == "contradicted", wrong
    assert "`SAVE_THEME` (src/messaging.js:7)" in wrong["evidence"]
    assert "sent by `sendToBackground` at src/messaging.js:4" in wrong["evidence"]
    through = claims["saveViaBackground(value) -> postMessage(FORWARD_TO_BACKGROUND)"]
    assert through["verdict"] == "verified" and "sendToBackground" in through["evidence"]
    computed = claims["saveAnything(kind) -> postMessage(FORWARD_TO_BACKGROUND)"]
    assert computed["verdict"] == "unjudged" and "computes" in computed["evidence"]
    assert claims["saveThemeToStorage(theme) -> postMessage('SAVE_THEME')"]["verdict"] == (
        "verified"
    )
    # a key no send of the product writes: not placed, so never contradicted
    unknown = claims["saveThemeToStorage(theme) -> postMessage(RESTORE_ALL)"]
    assert unknown["verdict"] == "unjudged" and "cannot place" in unknown["evidence"]


def test_a_message_edge_verifies_a_call_and_a_computed_key_keeps_it_unjudged(
    repo: Path, tmp_path: Path
) -> None:
    body = """
# The list

- `saveItem()` calls `onSaved()`.
- `saveItem()` calls `renderList()`.
- `saveItem()` calls `onDeleted()`.
- `dropItem()` calls `onSaved()`.
- `dropItem()` calls `clearList()`.
- `dropItem()` calls `saveItem()`.
- `saveItem()` calls `clearList()`.
"""
    claims = _claims(repo, tmp_path, body)
    edge = claims["saveItem() -> onSaved()"]
    assert edge["verdict"] == "verified", edge
    assert "src/list.js:11" in edge["evidence"] and "src/list.js:8" in edge["evidence"]
    assert claims["saveItem() -> renderList()"]["verdict"] == "verified"
    other = claims["saveItem() -> onDeleted()"]
    assert other["verdict"] == "contradicted", other
    assert "`item:saved` at src/list.js:11" in other["evidence"]
    assert "`item:deleted` at src/list.js:9" in other["evidence"]
    computed = claims["dropItem() -> onSaved()"]
    assert computed["verdict"] == "unjudged", computed
    assert "computed key" in computed["evidence"]
    # a handler that reaches the callee (`onDeleted` calls `clearList`) may be the one reached
    reaching = claims["dropItem() -> clearList()"]
    assert reaching["verdict"] == "unjudged" and "`onDeleted`" in reaching["evidence"]
    # a handler passed as a value (`listen`'s) is not one: nothing registers `saveItem`
    assert claims["dropItem() -> saveItem()"]["verdict"] == "contradicted"
    # every handler reaching it (`onDeleted`, the one `boot` writes in place) is registered
    # for another literal key than the one sent
    cleared = claims["saveItem() -> clearList()"]
    assert cleared["verdict"] == "contradicted", cleared
    assert "`item:cleared` at src/list.js:14" in cleared["evidence"]


PY_SOURCES = {
    "pyproject.toml": '[project]\nname = "acme"\nversion = "1.0"\n',
    "acme/__init__.py": "",
    "acme/events.py": """
from blinker import signal

saved = signal("saved")
deleted = signal("deleted")


def save(item):
    saved.send(item)


def audit(sender):
    return sender


def purge(sender):
    return sender


saved.connect(audit)
deleted.connect(purge)
""",
}


def test_a_python_signal_sent_reaches_the_handlers_connected_to_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "pyrepo", PY_SOURCES)
    body = "# Events\n\n- `save()` calls `audit()`.\n- `save()` calls `purge()`.\n"
    claims = _claims(repo, tmp_path, body)
    edge = claims["save() -> audit()"]
    assert edge["verdict"] == "verified", edge
    assert "acme/events.py:9" in edge["evidence"] and "acme/events.py:20" in edge["evidence"]
    other = claims["save() -> purge()"]
    assert other["verdict"] == "contradicted", other
    assert "`deleted` at acme/events.py:21" in other["evidence"]


def test_a_step_edge_into_a_send_with_its_key_is_read_as_a_sequence(
    repo: Path, tmp_path: Path
) -> None:
    body = """
# Saving all

```mermaid
flowchart TD
    S["saveAll(theme)"] --> N["noop(value)"]
    N --> P["postMessage(FORWARD_TO_BACKGROUND)"]
    N --> Q["postMessage('SAVE_THEME')"]
    T["tick(value)"] --> R["postMessage('SAVE_THEME')"]
```
"""
    claims = _claims(repo, tmp_path, body)
    assert claims["saveAll(theme) -> noop(value)"]["verdict"] == "verified"
    # `noop` posts nothing, but `saveAll`, which the diagram draws, runs it and then
    # `sendToBackground`, which posts the key
    ordered = claims["noop(value) -> postMessage(FORWARD_TO_BACKGROUND)"]
    assert ordered["verdict"] == "verified", ordered["evidence"]
    assert "in sequence" in ordered["evidence"] and "src/messaging.js:4" in ordered["evidence"]
    never = claims["noop(value) -> postMessage('SAVE_THEME')"]
    assert never["verdict"] == "contradicted", never
    assert "makes no postMessage() call" in never["evidence"]
    # after `tick`, `saveLater` posts a key the code computes: it may be SAVE_THEME
    maybe = claims["tick(value) -> postMessage('SAVE_THEME')"]
    assert maybe["verdict"] == "unjudged" and "computed key" in maybe["evidence"]


def test_a_step_into_a_send_only_in_another_arm_of_one_conditional_is_unjudged(
    tmp_path: Path,
) -> None:
    """`saveOne` calls `noop` in one arm of an if/else and sends the key in the other: no
    run does both, so the step "noop, then the send" is not verified (nor contradicted on
    that ground); with the send after the conditional it is verified."""
    body = (
        "```mermaid\nflowchart TD\n"
        '    S["saveOne(theme)"] --> N["noop(value)"]\n'
        '    N --> P["postMessage(FORWARD_TO_BACKGROUND)"]\n```\n'
    )
    head = "export function saveOne(theme) {\n  if (theme) noop(theme);\n"
    apart = head + "  else sendToBackground(theme);\n}\n"
    after = head + "  sendToBackground(theme);\n}\n"
    verdicts = {}
    saving = "export function saveAll(theme) { noop(theme); sendToBackground(theme); }\n"
    assert saving in MESSAGING
    for name, code in {"apart": apart, "after": after}.items():
        sources = {**SOURCES, "src/messaging.js": MESSAGING.replace(saving, code)}
        repo = make_repo(tmp_path / name / "repo", sources)
        claims = _claims(repo, tmp_path / name, body)
        verdicts[name] = claims["noop(value) -> postMessage(FORWARD_TO_BACKGROUND)"]
    assert verdicts["apart"]["verdict"] == "unjudged", verdicts
    assert "another arm of one conditional" in verdicts["apart"]["evidence"], verdicts
    assert verdicts["after"]["verdict"] == "verified", verdicts
