"""Gate 16 on claim ends that are no function (issue 30): a module, a module-level
instance, a store a call makes, an object literal's member, a Python class without
methods; judged against the call graph of a small repository built here."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import make_repo
from tests.test_gate_wiring_claims import _by_subject, _card

ENDS_SOURCES = {
    "package.json": '{"name": "studio", "version": "1.0.0"}\n',
    "src/utils/eventSystem.ts": """
class EventManager {
  on(evt: string, cb: any) { this.cb = cb; }
  emit(evt: string) { this.cb(); }
}
const globalEventManager = new EventManager();
export const onEvent = (evt: string, cb: any) => globalEventManager.on(evt, cb);
export const emitEvent = (evt: string) => globalEventManager.emit(evt);
export default globalEventManager;
""",
    "src/composables/useChat.ts": """
import { onEvent } from '../utils/eventSystem';
export function useChat() { onEvent('x', () => 1); return 1; }
""",
    "src/composables/useConnections.ts": """
import { usePool } from './usePool';
export function useConnections(emit: any) {
  const pool = usePool();
  emit('connected');
  return pool;
}
""",
    "src/pages/App.ts": """
import { useConnections } from '../composables/useConnections';
export function App(emit: any) { return useConnections(emit); }
""",
    "src/composables/usePool.ts": "export function usePool() { return 1; }\n",
    "src/services/engine.js": """
class EngineClass {
  constructor() { this._listeners = new Map(); }
  on(evt, cb) { this._listeners.set(evt, cb); }
  submit(config) { this._emit('queued', config); }
  _emit(evt, data) { this._listeners.forEach((cb) => { cb(data); }); }
}
export const TaskEngine = new EngineClass();
export default TaskEngine;
""",
    "src/stores/useUIStore.js": """
import { create } from 'zustand';
export const useUIStore = create((set, get) => ({
  toasts: [],
  addToast(message) { set({ toasts: [...get().toasts, message] }); },
  toggleSidebar() { set({ open: !get().open }); },
}));
""",
    "src/stores/useGalleryStore.js": """
import { create } from 'zustand';
import * as db from '../db';
export const useGalleryStore = create((set, get) => ({
  images: [],
  async loadImages() { const images = await db.getImages(); set({ images }); },
}));
""",
    "src/stores/useTaskStore.js": """
import { create } from 'zustand';
import * as db from '../db';
import TaskEngine from '../services/engine';
export const useTaskStore = create((set, get) => ({
  tasks: [],
  async loadTasks() { const tasks = await db.getTasks(); set({ tasks }); },
  initBridge() { TaskEngine.on('queued', async () => { await get().loadTasks(); }); },
}));
""",
    "src/stores/useGenerationStore.js": """
import { create } from 'zustand';
import TaskEngine from '../services/engine';
import { useUIStore } from './useUIStore';
export const useGenerationStore = create((set, get) => ({
  prompt: '',
  async generate() { await TaskEngine.submit({ prompt: get().prompt }); },
  notify() { useUIStore.getState().addToast('done'); },
}));
""",
    "src/stores/useBoardStore.js": """
import { create } from 'zustand';
import { createSlice } from './slice';
export const useBoardStore = create((...a) => ({ ...createSlice(...a), clear() {} }));
""",
    "src/stores/slice.js": """
import { useUIStore } from './useUIStore';
export const createSlice = (set) => ({ toast() { useUIStore.getState().addToast('x'); } });
""",
    "src/pages/Gallery.js": """
import { useGalleryStore } from '../stores/useGalleryStore';
import { useUIStore } from '../stores/useUIStore';
export function Gallery() {
  const images = useGalleryStore();
  const ui = useUIStore();
  return [images, ui];
}
""",
    "src/db.js": """
export async function getImages() { return []; }
export async function getTasks() { return []; }
""",
}

ENDS_POST = """
# Stores

```mermaid
flowchart TD
    useConnections --> eventSystem
    useChat --> eventSystem
    useConnections --> globalEventManager
    useChat --> globalEventManager
    useGalleryStore --> useUIStore
    useTaskStore --> useUIStore
    useGenerationStore --> useUIStore
    useGenerationStore --> useTaskStore
    useBoardStore --> useUIStore
    useGalleryStore --> useBoardStore
```
"""


def test_modules_instances_and_stores_are_ends_judged_by_their_functions(
    tmp_path: Path,
) -> None:
    """A claim end that is no function: a module (the functions its file defines), a
    module-level instance (its class's methods, or a call on it) and a Zustand store (the
    functions its initializer writes). Reached: verified; no path from a fully read
    caller: contradicted; a store registering a listener with product code, reached by a
    caller calling a function value on the way (an event emitter): unjudged. An edge
    between stores draws what uses what, never steps run in order: a component using the
    two stores in turn does not make it a sequence."""
    repo = make_repo(tmp_path / "repo", ENDS_SOURCES)
    claims = _by_subject(_card(repo, tmp_path, ENDS_POST))
    verdicts = {subject: claim["verdict"] for subject, claim in claims.items()}
    assert verdicts == {
        "useConnections -> eventSystem": "contradicted",
        "useChat -> eventSystem": "verified",
        "useConnections -> globalEventManager": "contradicted",
        "useChat -> globalEventManager": "verified",
        "useGalleryStore -> useUIStore": "contradicted",
        "useTaskStore -> useUIStore": "contradicted",
        "useGenerationStore -> useUIStore": "verified",
        "useGenerationStore -> useTaskStore": "unjudged",
        # a store spreading a slice in: its functions are not all in view
        "useBoardStore -> useUIStore": "unjudged",
        "useGalleryStore -> useBoardStore": "unjudged",
    }, claims
    assert (
        "hands a function to `TaskEngine.on`"
        in claims["useGenerationStore -> useTaskStore"]["evidence"]
    )


def test_a_listener_end_is_not_refuted_through_a_call_too_common_to_follow(
    tmp_path: Path,
) -> None:
    """`startJob` calls `TaskEngine.submit(...)` where six other classes define `submit`:
    the call is not followed
    by its name, so whether it runs the listener `useTaskStore` registered is not known."""
    sources = dict(ENDS_SOURCES)
    sources["src/services/others.js"] = "".join(
        f"export class Other{n} {{ submit() {{ return {n}; }} }}\n" for n in range(6)
    )
    sources["src/jobs.js"] = (
        "import TaskEngine from './services/engine';\n"
        "export function startJob() { TaskEngine.submit({}); }\n"
    )
    repo = make_repo(tmp_path / "repo", sources)
    body = "```mermaid\nflowchart TD\n    startJob --> useTaskStore --> useUIStore\n```\n"
    judged = _by_subject(_card(repo, tmp_path, body))["startJob -> useTaskStore"]
    assert judged["verdict"] == "unjudged", judged


def test_a_callback_may_be_an_instances_method_only_where_one_is_passed(tmp_path: Path) -> None:
    """`useConnections(emit)` calls its parameter `emit`, and the event manager has an
    `emit` method: the callback is that method only where the code hands the method over
    (`register(bus.emit)`): then the claim is unjudged, else contradicted (the case
    above)."""
    sources = dict(ENDS_SOURCES)
    sources["src/pages/Wire.ts"] = (
        "import bus from '../utils/eventSystem';\n"
        "export function wire(register: any) { register(bus.emit); }\n"
    )
    repo = make_repo(tmp_path / "repo", sources)
    claims = _by_subject(_card(repo, tmp_path, ENDS_POST))
    judged = claims["useConnections -> globalEventManager"]
    assert judged["verdict"] == "unjudged", judged


def test_a_class_without_methods_is_read_by_its_body(tmp_path: Path) -> None:
    """`Settings --> Agent` where `Settings` is a settings model with fields only: its body
    calls nothing of the product, so the edge is contradicted; a class without methods of
    its own that inherits a product class's runs those: unjudged. Two classes drawn as
    components are no steps: `main` making a `Settings` and then an `Agent` does not make
    the edge a sequence."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "agentkit"\nversion = "1.0.0"\n',
            "agentkit/__init__.py": "",
            "agentkit/config.py": (
                "from pydantic_settings import BaseSettings, SettingsConfigDict\n"
                "class Settings(BaseSettings):\n"
                "    model: str = 'gpt'\n"
                "    model_config = SettingsConfigDict(env_file='.env')\n"
            ),
            "agentkit/main.py": (
                "from agentkit.config import Settings\n"
                "from agentkit.agent import Agent\n"
                "def main():\n    settings = Settings()\n    return Agent(), settings\n"
            ),
            "agentkit/agent.py": (
                "from agentkit.base import Base\n"
                "class Agent:\n"
                "    def run(self):\n"
                "        return 1\n"
                "class Worker(Base):\n"
                "    limit: int = 3\n"
            ),
            "agentkit/base.py": (
                "class Base:\n    def start(self):\n        return Agent2()\n"
                "class Agent2:\n    def go(self):\n        return 2\n"
            ),
        },
    )
    body = (
        '```mermaid\ngraph TB\n    CFG["Settings (config.py)"] --> AG["Agent (agent.py)"]\n'
        '    W["Worker (agent.py)"] --> A2["Agent2 (base.py)"]\n    R["run()"] --> AG\n```\n'
    )
    card = _card(repo, tmp_path, body)
    claims = _by_subject(card)
    assert claims["Settings (config.py) -> Agent (agent.py)"]["verdict"] == "contradicted", claims
    assert claims["Worker (agent.py) -> Agent2 (base.py)"]["verdict"] == "unjudged", claims
    assert "base `Base`" in claims["Worker (agent.py) -> Agent2 (base.py)"]["evidence"]
