"""A name the product's code declares with a type holds a value of that type: a chain rooted
at it is found when that type has the chain (issue 24: the model's own declarations, not a
guess from the name, say what a documented value is)."""

from __future__ import annotations

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.model_facts import ModelFacts

# As jest's watch plugins: the class `JestHooks` makes the hook objects, and the values the
# code passes around under the name `jestHooks` are typed as the interface `JestHookEmitter`.
_HOOKS = {
    "src/JestHooks.ts": (
        "export default class JestHooks {\n"
        "  isUsed(hook: string): boolean { return true }\n"
        "  getEmitter(): JestHookEmitter { return {} as JestHookEmitter }\n"
        "}\n"
    ),
    "src/types.ts": (
        "export type JestHookEmitter = {\n"
        "  onFileChange: (fs: string[]) => void;\n"
        "  onTestRunComplete: (results: object) => void;\n"
        "};\n"
        "export interface RunOptions { watcher?: Watcher | null; nested: { hooks: Emitters } }\n"
        "export interface Watcher { start(): void }\n"
        "export type Emitters = Readonly<JestHookEmitter>;\n"
    ),
    "src/runJest.ts": (
        "import type {JestHookEmitter} from './types'\n"
        "const getTestPaths = async (jestHooks: JestHookEmitter, filter?: string) => {\n"
        "  jestHooks.onFileChange([])\n"
        "}\n"
        "export default async function runJest({ emitter }: { emitter?: JestHookEmitter }) {}\n"
    ),
}


def test_a_chain_rooted_at_a_typed_name_is_found_in_its_declared_type() -> None:
    model = build_model("c", _HOOKS)
    # The name alone guesses the class JestHooks, which has no such member; the parameter
    # `jestHooks: JestHookEmitter` says what the value is.
    assert model.instance_class("jestHooks") == "JestHooks"
    assert model.resolve(["jestHooks", "onFileChange"]).outcome == "found"
    assert model.resolve(["jestHooks", "onTestRunComplete"]).outcome == "found"
    assert model.resolve(["jestHooks", "isUsed"]).outcome == "found"  # the class's, as before
    # A member neither type has stays a miss, named against the name's class as before.
    missed = model.resolve(["jestHooks", "onFileChanged"])
    assert (missed.outcome, missed.owner, missed.missing) == (
        "missing",
        "JestHooks",
        "onFileChanged",
    )


def test_fields_of_object_types_and_parameters_are_typed_names() -> None:
    facts = build_model("c", _HOOKS).facts
    assert facts.typed_names["jestHooks"] == ["JestHookEmitter"]
    assert facts.typed_names["watcher"] == ["Watcher"]  # `Watcher | null`
    assert facts.typed_names["hooks"] == ["Emitters"]  # a nested object type's field
    assert facts.typed_names["emitter"] == ["JestHookEmitter"]  # a destructured parameter
    assert "filter" not in facts.typed_names  # a primitive type names no type
    model = build_model("c", _HOOKS)
    assert model.resolve(["watcher", "start"]).outcome == "found"
    assert model.resolve(["emitter", "onTestRunComplete"]).outcome == "found"
    assert ModelFacts.from_json(facts.to_json()).typed_names == facts.typed_names


def test_python_annotations_of_parameters_and_class_attributes_are_typed_names() -> None:
    model = build_model(
        "c",
        {
            "pkg/__init__.py": "",
            "pkg/watch.py": (
                "from typing import Optional, Union\n"
                "class FileWatcher:\n"
                "    def start(self) -> None: ...\n"
                "class PollingObserver:\n"
                "    def schedule(self) -> None: ...\n"
                "class Runner:\n"
                "    file_watcher: 'Optional[PollingObserver]' = None\n"
                "    def run(self, observer_pool: PollingObserver | None, count: int,\n"
                "            *, watch_list: Union[FileWatcher, str]) -> None: ...\n"
            ),
        },
    )
    typed = model.facts.typed_names
    assert typed["file_watcher"] == ["PollingObserver"]
    assert typed["observer_pool"] == ["PollingObserver"]
    assert typed["watch_list"] == ["FileWatcher"]
    assert "count" not in typed  # a built-in is no class of the product's
    # The name guesses FileWatcher; the annotation says the value is a PollingObserver.
    assert model.instance_class("file_watcher") == "FileWatcher"
    assert model.resolve(["file_watcher", "schedule"]).outcome == "found"
    assert model.resolve(["file_watcher", "start"]).outcome == "found"
    assert model.resolve(["file_watcher", "stop"]).outcome == "missing"
