"""What the product's code says about its values beyond their declarations (issue 24: the
model's own reading of the code, not a guess from a name, says what a documented value is):
a name declared with a type holds that type, a chain goes on into a field's declared type
(unjudged where that type is another package's), and a member assigned to a class after it
is the class's."""

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
                "from watchdog.observers import Observer\n"
                "class Runner:\n"
                "    file_watcher: 'Optional[PollingObserver]' = None\n"
                "    observer: Observer\n"
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
    # A class attribute's annotation types the chain through it: another package's class.
    assert model.resolve(["Runner", "observer", "schedule"]).outcome == "unjudged"


# As a bundler's configuration types: options typed as the product's own interfaces, as
# another package's types, and as object types written inline.
_CONFIG = {
    "src/config.ts": (
        "import type { WatchOptions } from 'chokidar'\n"
        "import type { RollupOptions } from 'rollup'\n"
        "export interface ServerOptions {\n"
        "  watch?: WatchOptions | null; hmr?: HmrOptions | boolean\n"
        "}\n"
        "export interface HmrOptions { overlay?: boolean }\n"
        "export interface BuildOptions { rollupOptions?: RollupOptions; minify?: boolean }\n"
        "export interface UserConfig {\n"
        "  server?: ServerOptions\n"
        "  build?: BuildOptions\n"
        "  css?: { modules?: { scopeBehaviour?: 'global' | 'local' } }\n"
        "}\n"
        "export function build(config: UserConfig): void {}\n"
    ),
}


def test_a_chain_goes_on_into_the_declared_type_of_a_field() -> None:
    model = build_model("c", _CONFIG)
    assert model.resolve(["UserConfig", "server", "hmr", "overlay"]).outcome == "found"
    # The field's own type decides, not any class's member of that name.
    missed = model.resolve(["UserConfig", "server", "hmr", "minify"])
    assert (missed.outcome, missed.owner, missed.missing) == ("missing", "HmrOptions", "minify")
    # An object type written inline as a field's type: its fields are keys of the product.
    assert model.resolve(["UserConfig", "css", "modules", "scopeBehaviour"]).outcome == "found"


def test_members_of_a_field_declared_as_another_packages_type_are_unjudged() -> None:
    model = build_model("c", _CONFIG)
    for chain in (
        ["UserConfig", "server", "watch", "usePolling"],
        ["UserConfig", "build", "rollupOptions", "output", "manualChunks"],
        # Rooted at the name a field is declared with (`server?: ServerOptions`), as a
        # configuration reference writes its options.
        ["server", "watch", "usePolling"],
        ["rollupOptions", "output"],
    ):
        resolved = model.resolve(chain, head_called=False)
        assert resolved.outcome == "unjudged", (chain, resolved)
        assert "does not declare" in resolved.reason
    assert model.resolve(["server", "hmr", "overlay"], head_called=False).outcome == "found"


def test_a_member_assigned_to_a_class_after_it_is_a_static_member() -> None:
    model = build_model(
        "c",
        {
            "lib/AxiosError.js": (
                "class AxiosError extends Error { toJSON() { return {} } }\n"
                "AxiosError.from = (error, code) => new AxiosError(error.message, code)\n"
                "AxiosError.prototype.isAxiosError = true\n"
                "export default AxiosError\n"
            ),
        },
    )
    assert model.resolve(["AxiosError", "from"]).outcome == "found"
    assert model.resolve(["AxiosError", "isAxiosError"]).outcome == "found"
    assert model.resolve(["AxiosError", "fromError"]).outcome == "missing"


def test_a_type_with_an_index_signature_takes_any_member() -> None:
    model = build_model(
        "c",
        {
            "lib/types/index.d.ts": (
                "export interface ParserOptions {\n"
                "  ecmaFeatures?: { jsx?: boolean; [key: string]: any } | undefined;\n"
                "  [key: string]: any;\n"
                "}\n"
                "export interface LanguageOptions { parserOptions?: ParserOptions | undefined }\n"
                "export interface Strict { parserOptions?: ParserOptions; name: string }\n"
            ),
        },
    )
    chain = ["LanguageOptions", "parserOptions", "ecmaVersion"]
    resolved = model.resolve(chain)
    assert resolved.outcome == "unjudged", resolved
    assert "index signature" in resolved.reason
    assert model.resolve(["LanguageOptions", "parserOptions", "ecmaFeatures"]).outcome == "found"
    assert model.resolve(["Strict", "nme"]).outcome == "missing"  # no index signature: closed
