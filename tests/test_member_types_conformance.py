"""Gate 15's members of values whose type the product declares against the TypeScript
compiler (issue 26), for the shapes bench/member_types_conformance.py showed the follower
missing: a callback handed where the parameter's type is a union of function types beside
a promise, or where overloads take each (fastify's ``register``), a generic function type
written bare (its type parameters' defaults), a function type declared in a namespace
(undici's ``Dispatcher.StreamFactory``), and a class extending the built-in ``Error`` in a file that
declares a local type named ``Error`` (got's ``RequestError``).

For each, the compiler (tests/ts_member_types_oracle.js, TypeScript from
``POSTGATES_TS_ORACLE_DIR``) types the probe a sample holds and lists its members; the
sample uses the first of them and an invented one, and the invented one must be the only
finding (the real one neither a finding nor unjudged). Without Node or the oracle the test
skips saying so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import load_bench, make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged
from tests.test_known_bases_conformance import _oracle_dir

ORACLE = Path(__file__).with_name("ts_member_types_oracle.js")
bench = load_bench("member_types_conformance", "member_types_conformance.py")
TS_PACKAGE = json.dumps({"name": "probe", "exports": {".": "./src/index.ts"}})

PLUGINS = (
    "export interface Server { close(): void; address(): string }\n"
    "export interface Instance<S = Server> { server: S; decorate(name: string): void }\n"
    "export type PluginCallback<O = {}, S = Server> =\n"
    "  (instance: Instance<S>, opts: O, done: () => void) => void;\n"
    "export type PluginAsync<O = {}, S = Server> =\n"
    "  (instance: Instance<S>, opts: O) => Promise<void>;\n"
)

# label -> (files of the product, the compiler's entry file, the probe's export and kind,
# the text its setup's last line starts with)
CASES: dict[str, tuple[dict[str, str], str, str, str, str]] = {
    "a union of function types beside a promise": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": PLUGINS
            + (
                "export interface App {\n"
                "  register(plugin: PluginAsync | Promise<{ default: PluginAsync }> | undefined):"
                " App;\n}\n"
                "export function createApp(): App { return {} as App; }\n"
            ),
        },
        "src/index.ts",
        "createApp",
        "callback",
        "made.register(",
    ),
    "overloads, the first the call fits": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": PLUGINS
            + (
                "export interface App {\n"
                "  register(plugin: PluginCallback): App;\n"
                "  register(plugin: PluginAsync): App;\n"
                "  register(plugin: PluginCallback | PluginAsync | Promise<PluginAsync>): App;\n"
                "}\n"
                "export function createApp(): App { return {} as App; }\n"
            ),
        },
        "src/index.ts",
        "createApp",
        "callback",
        "made.register(",
    ),
    "a generic function type written bare": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": PLUGINS
            + "export function register(plugin: PluginAsync, options?: object): void {}\n",
        },
        "src/index.ts",
        "register",
        "callback",
        "register(",
    ),
    "a function type a namespace declares": (
        {
            "package.json": TS_PACKAGE,
            "src/dispatcher.ts": (
                "declare class Dispatcher { close(): void }\n"
                "declare namespace Dispatcher {\n"
                "  export interface StreamFactoryData<T = null> { statusCode: number; opaque: T }\n"
                "  export type StreamFactory<T = null> = (data: StreamFactoryData<T>) => void\n"
                "}\nexport default Dispatcher;\n"
            ),
            "src/index.ts": (
                "import Dispatcher from './dispatcher';\n"
                "export function stream(url: string, factory: Dispatcher.StreamFactory): void {}\n"
            ),
        },
        "src/index.ts",
        "stream",
        "callback",
        "stream(",
    ),
    "a class extending Error beside a local type Error": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "type Error = { code?: string };\n"
                "export class RequestError extends Error {\n"
                "  code = 'E';\n  timings?: number;\n}\n"
                "export class ReadError extends RequestError {}\n"
            ),
        },
        "src/index.ts",
        "ReadError",
        "returned",
        "const value = new ReadError(",
    ),
}


def compiler_row(root: Path, entry: str, export: str, kind: str, start: str) -> dict[str, object]:
    done = subprocess.run(
        ["node", str(ORACLE), str(_oracle_dir()), str(root), entry],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [
        row
        for row in json.loads(done.stdout)
        if row["export"] == export
        and row["kind"] == kind
        and row["setup"][-1].startswith(start)
        and not row.get("excluded")
    ]
    assert rows, done.stdout[:2000]
    row: dict[str, object] = rows[0]
    return row


@pytest.mark.parametrize("label", sorted(CASES))
def test_the_gate_follows_the_value_to_the_compiler_s_type(label: str, tmp_path: Path) -> None:
    files, entry, export, kind, start = CASES[label]
    repo = make_repo(tmp_path / "repo", files)
    row = compiler_row(repo, entry, export, kind, start)
    members = row["members"]
    assert isinstance(members, list) and members and not row["open"]
    setup, close = row["setup"], row["close"]
    assert isinstance(setup, list) and isinstance(close, str)
    item = bench.Item("probe", export, kind, setup, str(row["probe"]), close, str(members[0]),
                      False, str(row["type"]))  # fmt: skip
    code, _real, _invented = bench.sample(item, 0)
    card = sample_card(code, "ts", tmp_path, repo)
    invented = f"{row['probe']}.{bench.INVENTED}0"
    if kind == "returned" and setup[-1].startswith("const value = new "):
        invented = f"{export}.{bench.INVENTED}0"  # a class's instance is shown by its name
    assert _violations(card) == [("member", invented)], (code, _unjudged(card))
    real = f"{row['probe']}.{members[0]}"
    assert not [r for r in _unjudged(card) if members[0] in r], (code, real, _unjudged(card))
