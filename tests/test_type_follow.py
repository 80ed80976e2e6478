"""Where gate 15 follows an option type beyond its file (evidence/type_follow.py), without
the compiler (tests/test_option_keys_conformance.py checks the same shapes against it):
an installed package's declaration files followed through their own ``export *``, what it
cannot read left unjudged with the reason, a class member named by one string, the known
types of Node's modules, and the rest of Node's read in an installed @types/node."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

TS_PACKAGE = json.dumps({"name": "probe", "exports": {".": "./src/index.ts"}})


def _installed(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _repo(tmp_path: Path, index: str) -> Path:
    return make_repo(tmp_path / "repo", {"package.json": TS_PACKAGE, "src/index.ts": index})


def test_a_package_s_type_is_followed_through_its_own_star_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = _installed(
        tmp_path / "installed",
        {
            "node_modules/dep/package.json": json.dumps({"name": "dep", "types": "lib/main.d.ts"}),
            "node_modules/dep/lib/main.d.ts": "export * from './config.js';\n",
            "node_modules/dep/lib/config.d.ts": "export interface Config { alpha?: number }\n",
        },
    )
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(installed))
    repo = _repo(tmp_path, "import { Config } from 'dep';\nexport function probe(o: Config) {}\n")
    card = sample_card("import { probe } from 'probe';\nprobe({ alpha: 1, alpah: 2 });", "ts",
                       tmp_path, repo)  # fmt: skip
    assert _violations(card) == [("option_key", "alpah")], _unjudged(card)


def test_a_type_from_a_package_that_is_not_installed_is_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(tmp_path / "nothing"))
    repo = _repo(
        tmp_path,
        "import { Config } from 'dep';\n"
        "export interface Options extends Config { own?: number }\n"
        "export function probe(o: Options) {}\n",
    )
    card = sample_card("import { probe } from 'probe';\nprobe({ own: 1, alpha: 2 });", "ts",
                       tmp_path, repo)  # fmt: skip
    assert _violations(card) == []
    assert any("cannot be followed" in reason for reason in _unjudged(card))


def test_a_union_with_a_type_nothing_declares_is_unjudged_not_judged_by_its_other_member(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(tmp_path / "nothing"))
    repo = _repo(
        tmp_path,
        "import { Agent } from 'agents';\n"
        "export interface Options { retries?: number }\n"
        "export function probe(o: Options | Agent) {}\n",
    )
    card = sample_card("import { probe } from 'probe';\nprobe({ keepAlive: true });", "ts",
                       tmp_path, repo)  # fmt: skip
    assert _violations(card) == []
    assert _unjudged(card)


def test_a_class_member_named_by_one_string_is_a_key(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        "export class Request { ['constructor']: typeof Request; url = '' }\n"
        "export function probe(request: Request) {}\n",
    )
    code = "import { probe } from 'probe';\nprobe({ constructor: 1, url: 1, urll: 2 });"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("option_key", "urll")], _unjudged(card)


def test_a_stream_from_node_s_module_is_known(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        "import { Readable } from 'node:stream';\n"
        "export interface Options { retries?: number }\n"
        "export function probe(o: Options | Readable) {}\n",
    )
    card = sample_card("import { probe } from 'probe';\nprobe({ retries: 1, pipe: 1, nope: 1 });",
                       "ts", tmp_path, repo)  # fmt: skip
    assert _violations(card) == [("option_key", "nope")], _unjudged(card)


def test_a_getter_with_no_declared_type_is_a_key(tmp_path: Path) -> None:
    repo = _repo(
        tmp_path,
        "export class Run extends Promise<number> {\n  get exitCode() { return 0; }\n}\n"
        "export function probe(run: Run) {}\n",
    )
    code = "import { probe } from 'probe';\nprobe({ exitCode: 1, then: 1, exitcode: 2 });"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("option_key", "exitcode")], _unjudged(card)


def test_a_package_file_nested_past_the_reader_s_depth_is_unread_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    union = " | ".join(f"'v{i}'" for i in range(3000))
    installed = _installed(
        tmp_path / "installed",
        {
            "node_modules/dep/package.json": json.dumps({"name": "dep", "types": "index.d.ts"}),
            "node_modules/dep/index.d.ts": (
                f"export type Big = {union};\nexport interface Config {{ alpha?: Big }}\n"
            ),
        },
    )
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(installed))
    repo = _repo(tmp_path, "import { Config } from 'dep';\nexport function probe(o: Config) {}\n")
    card = sample_card("import { probe } from 'probe';\nprobe({ alpha: 1 });", "ts", tmp_path, repo)
    assert str(card.verdict) != "ERROR", card.summary
    assert _violations(card) == []
    assert _unjudged(card)


def test_type_fest_s_wrappers_are_read_by_name_even_when_it_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = _installed(
        tmp_path / "installed",
        {
            "node_modules/type-fest/package.json": json.dumps(
                {"name": "type-fest", "types": "index.d.ts"}
            ),
            "node_modules/type-fest/index.d.ts": (
                "export type Merge<D, S> = D extends unknown ? S extends unknown ? "
                "Omit<D, keyof S> & S : never : never;\n"
            ),
        },
    )
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(installed))
    repo = _repo(
        tmp_path,
        "import { Merge } from 'type-fest';\n"
        "export type Options = Merge<{ alpha?: number }, { beta?: string }>;\n"
        "export function probe(o: Options) {}\n",
    )
    code = "import { probe } from 'probe';\nprobe({ alpha: 1, beta: 2, gamma: 3 });"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == [("option_key", "gamma")], _unjudged(card)


NODE_NET = (
    'declare module "net" {\n'
    "  interface TcpSocketConnectOpts { port: number; host?: string; keepAlive?: boolean }\n"
    "  interface TcpNetConnectOpts extends TcpSocketConnectOpts { timeout?: number }\n"
    "}\n"
)
NODE_USER = (
    "import { TcpNetConnectOpts } from 'node:net';\n"
    "import * as net from 'net';\n"
    "export interface ConnectOptions extends TcpNetConnectOpts { maxCachedSessions?: number }\n"
    "export function connect(o: ConnectOptions) {}\n"
    "export function dial(o: net.TcpNetConnectOpts) {}\n"
)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("connect({ port: 1, maxCachedSessions: 2, keepAlivee: true })", "keepAlivee"),
        ("dial({ port: 1, timeout: 5, hots: 'h' })", "hots"),
    ],
)
def test_a_node_module_s_type_nothing_knows_is_read_in_types_node(
    code: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # TcpNetConnectOpts is not among the Node types known by name (known_bases): read in
    # the installed @types/node, whose net.d.ts declares `module "net"`.
    installed = _installed(tmp_path / "installed", {"node_modules/@types/node/net.d.ts": NODE_NET})
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(installed))
    repo = _repo(tmp_path, NODE_USER)
    card = sample_card(f"import {{ connect, dial }} from 'probe';\n{code};\n", "ts", tmp_path, repo)
    assert _violations(card) == [("option_key", expected)], _unjudged(card)


def test_a_node_module_s_type_without_types_node_is_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTGATES_DEPENDENCY_PATH", str(tmp_path / "nothing"))
    repo = _repo(tmp_path, NODE_USER)
    code = "import { connect } from 'probe';\nconnect({ port: 1, keepAlivee: true });\n"
    card = sample_card(code, "ts", tmp_path, repo)
    assert _violations(card) == []
    assert any("cannot be followed" in reason for reason in _unjudged(card)), _unjudged(card)
