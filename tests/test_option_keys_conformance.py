"""Gate 15's keys of an object passed to a product function against the TypeScript
compiler (issue 26), for the shapes of type the follower reads beyond one file: a type of a
namespace another file declares, a namespace import, a type an installed package declares
(by name and as its default export), a signature's type parameter read as its constraint,
a class's public parameter properties, the WHATWG URL beside the product's options, and a
JavaScript export whose hand-written declaration tree declares it as a function.

For each, the compiler (tests/ts_option_keys_oracle.js, TypeScript from
``POSTGATES_TS_ORACLE_DIR``) lists the properties of the parameter's type (and one level
down where a property is an object type); a sample passes every one of them plus an
invented key (and one inside each nested object), and the invented keys must be the only
findings. Without Node or the oracle the test skips saying so."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged
from tests.test_known_bases_conformance import _oracle_dir

ORACLE = Path(__file__).with_name("ts_option_keys_oracle.js")
INVENTED, INSIDE = "zzInvented", "zzInside"
TS_PACKAGE = json.dumps({"name": "probe", "exports": {".": "./src/index.ts"}})
# An installed package the product's types come from: an interface by name, a class as
# the default export (cacheable-lookup's shape).
DEPENDENCY = {
    "node_modules/dep/package.json": json.dumps({"name": "dep", "types": "index.d.ts"}),
    "node_modules/dep/index.d.ts": (
        "export interface Config { alpha?: number; beta?: string }\n"
        "declare class Lookup { servers: string[]; lookup(host: string): void }\n"
        "export default Lookup;\n"
    ),
}

# label -> (files of the product, the compiler's entry file, the export, called or made)
CASES: dict[str, tuple[dict[str, str], str, str, str]] = {
    "a type of a namespace another file declares": (
        {
            "package.json": TS_PACKAGE,
            "src/dispatcher.ts": (
                "declare class Dispatcher { close(): void }\n"
                "declare namespace Dispatcher {\n"
                "  export interface Base { origin?: string }\n"
                "  export interface Options extends Base { retries?: number; path: string }\n"
                "}\nexport default Dispatcher;\n"
            ),
            "src/index.ts": (
                "import Dispatcher from './dispatcher';\n"
                "export function probe(options: Dispatcher.Options): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "a type of a namespace import": (
        {
            "package.json": TS_PACKAGE,
            "src/errors.ts": "export interface Options { code?: string; cause?: unknown }\n",
            "src/index.ts": (
                "import * as Errors from './errors';\n"
                "export function probe(options: Errors.Options): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "an installed package's interface and default export": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "import Lookup, { Config as DepConfig } from 'dep';\n"
                "export interface Options extends DepConfig { cache?: Lookup | false; own?: 1 }\n"
                "export function probe(options: Options): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    # Not among the Node types known by name: read in the installed @types/node.
    "a Node module's type read in @types/node": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "import { TcpNetConnectOpts } from 'net';\n"
                "export interface Options extends TcpNetConnectOpts { own?: number }\n"
                "export function probe(options: Options): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "a type parameter read as its constraint": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "export interface Store { getState(): number; subscribe(): void }\n"
                "export function probe<S extends Store>(api: S): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "a class's public parameter properties": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "export class Timeout extends Error {\n"
                "  constructor(threshold: number, public event: string, readonly code = 'x',"
                " private secret = 1) { super(); }\n}\n"
                "export function probe(error: Timeout): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "the URL beside the product's options": (
        {
            "package.json": TS_PACKAGE,
            "src/index.ts": (
                "export interface Options { retries?: number; prefixUrl?: string }\n"
                "export function probe(input: string | URL | Options): void {}\n"
            ),
        },
        "src/index.ts",
        "probe",
        "call",
    ),
    "a JavaScript constant its declarations declare as a function": (
        {
            "package.json": json.dumps(
                {"name": "probe", "main": "index.js", "types": "index.d.ts", "type": "module"}
            ),
            "index.js": (
                "function make() { return { merge(a, b) { return { ...a, ...b }; } }; }\n"
                "const instance = make();\nconst { merge } = instance;\nexport { merge };\n"
            ),
            "index.d.ts": "export * from './types/merge';\n",
            "types/merge.d.ts": (
                "export interface MergeOptions { deep?: boolean; arrays?: 'concat' | 'replace' }\n"
                "export function merge(options: MergeOptions): void;\n"
            ),
        },
        "index.d.ts",
        "merge",
        "call",
    ),
    "a JavaScript function its declarations declare as a class": (
        {
            "package.json": json.dumps(
                {"name": "probe", "main": "index.js", "types": "index.d.ts", "type": "module"}
            ),
            "index.js": (
                "function Failure(message, config) { this.message = message; }\n"
                "Failure.from = (error) => new Failure(error.message);\nexport { Failure };\n"
            ),
            "index.d.ts": (
                "export interface FailureConfig { url?: string; method?: string }\n"
                "export class Failure extends Error {\n"
                "  constructor(message?: string, config?: FailureConfig);\n}\n"
            ),
        },
        "index.d.ts",
        "Failure",
        "new",
    ),
}


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else json.dumps(name)


def compiler_row(root: Path, entry: str, export: str, form: str) -> dict[str, object]:
    """The compiler's properties of the first parameter ``export`` takes as an object
    (one level down too), called (``form`` "call") or made (``new``)."""
    done = subprocess.run(
        ["node", str(ORACLE), str(_oracle_dir()), str(root), entry],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [
        row for row in json.loads(done.stdout) if row["export"] == export and row["form"] == form
    ][:1]
    assert len(rows) == 1, rows
    row: dict[str, object] = rows[0]
    return row


@pytest.mark.parametrize("label", sorted(CASES))
def test_the_gate_takes_exactly_the_compiler_s_keys(
    label: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, entry, export, form = CASES[label]
    repo = make_repo(tmp_path / "repo", files)
    installed = tmp_path / "installed"
    for name, text in DEPENDENCY.items():
        (installed / name).parent.mkdir(parents=True, exist_ok=True)
        (installed / name).write_text(text, encoding="utf-8")
    if "@types/node" in label:
        # The oracle's @types/node, for the gate and the compiler alike.
        (installed / "node_modules" / "@types").mkdir(parents=True)
        (installed / "node_modules" / "@types" / "node").symlink_to(_oracle_dir() / "@types/node")
    (repo / "node_modules").symlink_to(installed / "node_modules")  # the compiler's
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(installed))  # the gate's
    row = compiler_row(repo, entry, export, form)
    keys, nested = row["keys"], row["nested"]
    assert isinstance(keys, list) and keys and INVENTED not in keys
    assert isinstance(nested, dict)
    written = []
    for name in keys:
        inner = nested.get(name)
        if inner:
            inside = ", ".join(f"{_key(k)}: 1" for k in [*inner, INSIDE])
            written.append(f"{_key(name)}: {{ {inside} }}")
        else:
            written.append(f"{_key(name)}: 1")
    literal = ", ".join([*written, f"{INVENTED}: 1"])
    before = "undefined, " * int(str(row["position"]))
    made = "new " if form == "new" else ""
    code = f"import {{ {export} }} from 'probe';\n{made}{export}({before}{{ {literal} }});\n"
    card = sample_card(code, "ts", tmp_path, repo)
    expected = [("option_key", INSIDE)] * len(nested) + [("option_key", INVENTED)]
    assert _violations(card) == sorted(expected), (code, _unjudged(card))
