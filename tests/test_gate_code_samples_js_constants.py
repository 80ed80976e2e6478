"""Gate 15 on members of a product constant a factory builds (``export const vi =
createVitest()``): judged against the type the model resolves for it (the constant's
annotation, the declared return type of the function that makes it, the class it is a
``new`` of); otherwise unjudged with the reason, never grounded by text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_repo, sample_card
from tests.helpers import sample_violations as _violations
from tests.helpers import unjudged_reasons as _unjudged

FILES = {
    "package.json": json.dumps({"name": "mockkit", "exports": {".": "./src/index.ts"}}),
    "src/index.ts": ('export { mk, annotated, made, loose, helpers } from "./utils.js";\n'),
    "src/types.ts": (
        "export interface MockUtils {\n"
        "  fn(): void;\n"
        "  spyOn(target: object, name: string): void;\n"
        "}\n"
    ),
    "src/factory.ts": (
        'import type { MockUtils } from "./types.js";\n'
        "export function createMockUtils(): MockUtils { return {} as MockUtils; }\n"
        "export function untyped() { return {}; }\n"
    ),
    "src/utils.ts": (
        'import { createMockUtils, untyped } from "./factory.js";\n'
        'import type { MockUtils } from "./types.js";\n'
        "export class Recorder { start(): void {} }\n"
        "export const mk = createMockUtils();\n"
        "export const annotated: MockUtils = build();\n"
        "export const made = new Recorder();\n"
        "export const loose = untyped();\n"
        "export const helpers = { format: () => '' };\n"
        "function build(): any { return {}; }\n"
    ),
}


@pytest.fixture(scope="module")
def mock_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("mockkit"), FILES)


def _check(code: str, tmp_path: Path, repo: Path) -> Scorecard:
    card: Scorecard = sample_card(code, "ts", tmp_path, repo)
    return card


def test_members_of_a_constant_a_factory_makes_are_judged_against_its_return_type(
    tmp_path: Path, mock_repo: Path
) -> None:
    card = _check(
        'import { mk } from "mockkit";\nmk.fn();\nmk.spyOn(console, "log");\nmk.mocked();',
        tmp_path,
        mock_repo,
    )
    assert _violations(card) == [("member", "mk.mocked")]
    assert card.detail["checked_by_kind"].get("member", 0) >= 3


def test_an_annotated_constant_and_a_new_instance_are_judged_against_their_types(
    tmp_path: Path, mock_repo: Path
) -> None:
    card = _check(
        'import { annotated, made } from "mockkit";\n'
        "annotated.fn();\nannotated.fnn();\nmade.start();\nmade.stop();",
        tmp_path,
        mock_repo,
    )
    assert _violations(card) == [("member", "annotated.fnn"), ("member", "made.stop")]


def test_a_constant_whose_type_the_model_cannot_resolve_is_unjudged_with_the_reason(
    tmp_path: Path, mock_repo: Path
) -> None:
    card = _check('import { loose } from "mockkit";\nloose.anything();', tmp_path, mock_repo)
    assert _violations(card) == []
    assert any("loose.anything" in r and "untyped" in r for r in _unjudged(card))


# A JavaScript module typed by its hand-written declaration file, whose default export is a
# constant of an inline type with a call signature (ky's `declare const ky: { ... }`).
CALLABLE = {
    "package.json": json.dumps({"name": "fetchy", "main": "index.js", "types": "index.d.ts"}),
    "index.js": (
        "const createInstance = defaults => {\n"
        "  const fetchy = (input, options) => send(input, options)\n"
        "  fetchy.get = (input, options) => fetchy(input, options)\n"
        "  return fetchy\n"
        "}\n"
        "export default createInstance()\n"
    ),
    "index.d.ts": (
        "export interface Options {\n"
        "  json?: unknown;\n"
        "  onDownloadProgress?: (percent: number) => void;\n"
        "  prefixUrl?: string;\n"
        "}\n"
        "declare const fetchy: {\n"
        "  (url: string, options?: Options): Promise<Response>;\n"
        "  get(url: string, options?: Options): Promise<Response>;\n"
        "};\n"
        "export default fetchy;\n"
    ),
}


def test_a_constant_of_an_inline_callable_type_is_judged_by_its_declaration(
    tmp_path: Path,
) -> None:
    # Its members are the inline type's; calling it takes the call signature's options.
    repo = make_repo(tmp_path / "repo", CALLABLE)
    code = (
        "import fetchy from 'fetchy';\n"
        "await fetchy('https://example.com', { onProgress: () => {}, json: {} });\n"
        "await fetchy.get('https://example.com', { prefixUrl: '/api' });\n"
        "fetchy.gett('https://example.com');\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("member", "fetchy.gett"), ("option_key", "onProgress")]
    reasons = {v["name"]: v["reason"] for v in card.detail["violations"]}
    assert "fetchy() takes no option onProgress" in reasons["onProgress"], reasons
    assert "`onDownloadProgress`" in reasons["onProgress"], reasons
    assert card.detail["checked_by_kind"]["option_key"] == 3


# ky's Options extends RequestInit, a global type of the web platform (lib.dom, Node's
# fetch): its keys are known, so the keys of an options object are judged; a file that
# imports its own RequestInit (node-fetch's) means that one, which the model does not read.
EXTENDED = {
    **CALLABLE,
    "index.d.ts": (
        "export interface Options extends RequestInit {\n"
        "  onDownloadProgress?: (percent: number) => void;\n"
        "}\n"
        "declare const fetchy: {\n"
        "  (url: string, options?: Options): Promise<Response>;\n"
        "};\n"
        "export default fetchy;\n"
    ),
}


@pytest.mark.parametrize("imported", [False, True])
def test_option_keys_of_a_type_extending_the_global_request_init_are_judged(
    tmp_path: Path, imported: bool
) -> None:
    files = dict(EXTENDED)
    if imported:
        files["index.d.ts"] = (
            "import type { RequestInit } from 'node-fetch';\n" + files["index.d.ts"]
        )
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import fetchy from 'fetchy';\n"
        "await fetchy('/a', { onProgress: () => {}, method: 'POST', signal: ac.signal });\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    if imported:
        assert _violations(card) == []
        assert any("fetchy()" in r for r in _unjudged(card)), _unjudged(card)
    else:
        assert _violations(card) == [("option_key", "onProgress")]
        assert card.detail["checked_by_kind"]["option_key"] == 3


def test_omit_written_as_pick_of_exclude_keyof_is_read_as_omit(tmp_path: Path) -> None:
    # ky's `_Omit<T, K> = Pick<T, Exclude<keyof T, K>>`, Omit before TypeScript had it:
    # the keys are judged (they were all unjudged: the type "cannot be followed").
    files = dict(CALLABLE)
    files["index.d.ts"] = (
        "type _Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;\n"
        "export interface Options {\n"
        "  body?: string;\n"
        "  json?: unknown;\n"
        "  onDownloadProgress?: (percent: number) => void;\n"
        "}\n"
        "interface WithoutBody extends _Omit<Options, 'body'> { method?: 'get' }\n"
        "declare const fetchy: {\n"
        "  get(url: string, options?: WithoutBody): Promise<Response>;\n"
        "};\n"
        "export default fetchy;\n"
    )
    repo = make_repo(tmp_path / "repo", files)
    code = (
        "import fetchy from 'fetchy';\n"
        "await fetchy.get('/a', { onProgress: () => {}, json: {}, method: 'get', body: 'x' });\n"
    )
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("option_key", "onProgress")]
    # The key the alias leaves out is no key of the type (the declaration file names it for
    # the other type, so it stays unjudged, as a key the code names that a .d.ts lacks).
    assert any("option body" in r and "does not declare it" in r for r in _unjudged(card))


def test_a_computed_default_export_is_typed_by_its_declaration_file(tmp_path: Path) -> None:
    """ava's entry: ``export {default} from '../lib/worker/main.js'``, whose default is a value
    the code computes (``export default refs.runnerChain``); the entry's declaration file
    says what it is (``declare const test: TestFn; export default test``), as TypeScript
    reads it."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(
                {
                    "name": "runner",
                    "exports": {".": {"types": "./entry/main.d.ts", "default": "./entry/main.js"}},
                }
            ),
            "entry/main.js": "export {default} from '../lib/main.js';\n",
            "entry/main.d.ts": (
                "import type {TestFn} from '../types/test-fn.js';\n"
                "declare const test: TestFn;\n"
                "export default test;\n"
            ),
            "types/test-fn.d.ts": (
                "export interface TestFn {\n"
                "  (title: string, run: () => void): void;\n"
                "  serial: TestFn;\n"
                "  before(run: () => void): void;\n"
                "}\n"
            ),
            "lib/main.js": "import {refs} from './state.js';\nexport default refs.runnerChain;\n",
            "lib/state.js": "export const refs = {runnerChain: null};\n",
        },
    )
    code = "import test from 'runner';\ntest.serail('x', () => {});\ntest.before(() => {});\n"
    card = sample_card(code, "js", tmp_path, repo)
    assert _violations(card) == [("member", "test.serail")], _unjudged(card)
