"""Gate 14, import_specifiers: real package names and exported subpaths in code samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence import exports
from pytest_postgates.gates import import_specifiers as gate
from pytest_postgates.post import parse_post
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

EXPORTS = {
    ".": {"import": "./dist/index.js", "require": "./dist/index.cjs"},
    "./client": "./dist/client.js",
    "./types": "./dist/types.js",
    "./processors/*": "./dist/processors/*.js",
    "./processors/internal/*": None,
    "./adapters/*": {"import": "./dist/adapters/*.js"},
    "./package.json": "./package.json",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    manifest = {"name": "@juspay/neurolink", "exports": EXPORTS}
    return make_repo(tmp_path_factory.mktemp("pkg"), {"package.json": json.dumps(manifest)})


def _check(body: str, tmp_path: Path, repo: Path, **settings: object):
    return gate.GATE.evaluate(
        make_post(body, tmp_path), repo_context(repo, tmp_path / "cache", **settings)
    )


def test_the_seed_incident_three_imports_of_a_package_that_does_not_exist(
    tmp_path: Path, repo: Path
) -> None:
    body = "".join(
        f"Sample {i}:\n\n```javascript\nimport {{ NeuroLink }} from '@neurolink/sdk';\n```\n\n"
        for i in range(3)
    )
    card = _check(body, tmp_path, repo)
    assert card.verdict == "FAIL"
    assert [(v["line"], v["specifier"], v["kind"]) for v in card.detail["violations"]] == [
        (9, "@neurolink/sdk", "import"),
        (15, "@neurolink/sdk", "import"),
        (21, "@neurolink/sdk", "import"),
    ]
    assert "published as @juspay/neurolink" in card.detail["violations"][0]["reason"]
    assert card.detail["package"] == "@juspay/neurolink" and card.detail["exports_checked"] is True


@pytest.mark.parametrize(
    ("specifier", "ok"),
    [
        ("@juspay/neurolink", True),
        ("@juspay/neurolink/client", True),
        ("@juspay/neurolink/processors/pdf", True),
        ("@juspay/neurolink/processors/deep/nested", True),  # Node's * spans "/"
        ("@juspay/neurolink/processors/internal/secret", False),  # more specific null wins
        ("@juspay/neurolink/adapters/hono", True),
        ("@juspay/neurolink/package.json", True),
        ("@juspay/neurolink/middleware", False),  # the seeds' real defect
        ("@juspay/neurolink/dist/index.js", False),
        ("@juspay/neurolink/processors", False),
    ],
)
def test_subpaths_resolve_through_the_exports_map_like_node(
    specifier: str, ok: bool, tmp_path: Path, repo: Path
) -> None:
    card = _check(f'```ts\nimport x from "{specifier}";\n```\n', tmp_path, repo)
    assert (card.verdict == "PASS") is ok, card.detail


def test_every_import_form_is_extracted_with_its_line(tmp_path: Path, repo: Path) -> None:
    body = (
        "```typescript\n"  # 6
        "import type { A } from '@neurolink/a';\n"  # 7
        'import {\n  B,\n  C,\n} from "@neurolink/b";\n'  # 8-11 (specifier on 11)
        "import '@neurolink/side';\n"  # 12
        "export { D } from '@neurolink/d';\n"  # 13
        "const e = require('@neurolink/e');\n"  # 14
        "const f = await import(`@neurolink/f`);\n"  # 15
        "import g from './neurolink-local';\n"  # relative: exempt
        "import h from '@/lib/neurolink';\n"  # alias: exempt
        "import i from '~/neurolink';\n"
        "import j from '#neurolink';\n"
        "import k from 'react';\n"  # not the product
        "```\n"
    )
    card = _check(body, tmp_path, repo)
    assert [(v["line"], v["specifier"], v["kind"]) for v in card.detail["violations"]] == [
        (7, "@neurolink/a", "import"),
        (11, "@neurolink/b", "import"),
        (12, "@neurolink/side", "side-effect"),
        (13, "@neurolink/d", "export"),
        (14, "@neurolink/e", "require"),
        (15, "@neurolink/f", "dynamic"),
    ]


def test_install_commands_in_shell_fences(tmp_path: Path, repo: Path) -> None:
    body = (
        "```bash\n"
        "npm install @juspay/neurolink@latest zod\n"  # 7: fine
        "pnpm add -D @juspay/neurolink@^1.2 @neurolink/sdk\n"  # 8: one bad
        "yarn add neurolink && npm i --save-dev @neurolink/cli@2\n"  # 9: two bad
        "$ bun add --registry https://r.example neurolink-pro\n"  # 10: one bad, flag value skipped
        "echo npm install @neurolink/nope  # not an install: it is echo\n"
        "```\n"
    )
    card = _check(body, tmp_path, repo)
    assert [(v["line"], v["specifier"]) for v in card.detail["violations"]] == [
        (8, "@neurolink/sdk"),
        (9, "@neurolink/cli"),
        (9, "neurolink"),
        (10, "neurolink-pro"),
    ]


def test_untagged_fences_are_read_when_they_look_like_code(tmp_path: Path, repo: Path) -> None:
    body = (
        "```\nimport { x } from '@neurolink/sdk'\n```\n\n"
        "```\nnpm i @neurolink/sdk\n```\n\n"
        "```text\nimport y from '@neurolink/sdk'\n```\n"
    )
    card = _check(body, tmp_path, repo)
    assert [v["kind"] for v in card.detail["violations"]] == ["import", "install"]


def test_exports_are_read_at_the_ref_not_the_working_tree(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "r",
        {"package.json": json.dumps({"name": "@juspay/neurolink", "exports": {".": "./i.js"}})},
    )
    git(repo, "tag", "v1")
    (repo / "package.json").write_text(
        json.dumps({"name": "@juspay/neurolink", "exports": {".": "./i.js", "./rag": "./r.js"}})
    )
    body = "```js\nimport r from '@juspay/neurolink/rag';\n```\n"
    assert _check(body, tmp_path, repo).verdict == "FAIL"  # working tree change not committed
    git(repo, "commit", "-qam", "export rag")
    assert _check(body, tmp_path, repo).verdict == "PASS"
    assert _check(body, tmp_path, repo, ref="v1").verdict == "FAIL"


def test_product_pattern_and_package_settings(tmp_path: Path, repo: Path) -> None:
    body = "```js\nimport a from 'acme-widgets/extra';\nimport b from '@neurolink/sdk';\n```\n"
    card = _check(body, tmp_path, repo, package="acme-widgets", product_pattern="acme")
    assert [v["specifier"] for v in card.detail["violations"]] == ["acme-widgets/extra"]


def test_no_package_name_is_an_error_only_when_something_needs_judging(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"README.md": "no package here\n"})
    assert _check("No code.\n", tmp_path, repo).verdict == "PASS"
    card = _check("```js\nimport x from 'y';\n```\n", tmp_path, repo)
    assert card.verdict == "ERROR" and "no package name" in card.detail["error"]


@pytest.mark.parametrize(
    ("exports_value", "subpath", "ok"),
    [
        ("./index.js", "x", False),  # string sugar: only "."
        ({"import": "./a.js", "require": "./b.cjs"}, "x", False),  # conditions sugar
        ({"./a/*.js": "./dist/a/*.js"}, "a/b.js", True),
        ({"./a/*.js": "./dist/a/*.js"}, "a/b.ts", False),
        ({"./*": "./dist/*.js", "./private/*": None}, "private/x", False),
        ({"./*": "./dist/*.js", "./private/*": None}, "public/x", True),
        ({"./x": {"node": None, "default": None}}, "x", False),
        ({"./x": [None, "./x.js"]}, "x", True),  # null is remembered, the next item tried
        ({"./x": ["bad", "./x.js"]}, "x", True),  # an invalid target is skipped
        ({"./feature/": "./dist/feature/"}, "feature/y.js", False),  # folder maps: gone in 17
        ({"./p/*": "./dist/*.js"}, "p/", False),  # "*" matches at least one character
    ],
)
def test_node_exports_resolution(exports_value: object, subpath: str, ok: bool) -> None:
    result = exports.resolve(exports_value, subpath, exports.IMPORT_CONDITIONS)
    assert result.ok is ok, result


MANIFEST = {
    "name": "@juspay/neurolink",
    "main": "./dist/index.js",
    "exports": {
        ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
        "./cjs-only": {"require": "./dist/cjs-only.cjs"},
        "./types": {"types": "./dist/types.d.ts"},
        "./broken": "dist/broken.js",
    },
}


@pytest.fixture(scope="module")
def kinds_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("kinds"), {"package.json": json.dumps(MANIFEST)})


def test_each_import_kind_resolves_with_its_own_conditions(
    tmp_path: Path, kinds_repo: Path
) -> None:
    body = (
        "```ts\n"  # 6
        "import { NeuroLink } from '@juspay/neurolink';\n"  # 7: import -> ./dist/index.js
        "const { NeuroLink: N } = require('@juspay/neurolink');\n"  # 8: no require, no default
        "const c = require('@juspay/neurolink/cjs-only');\n"  # 9: fine
        "import c2 from '@juspay/neurolink/cjs-only';\n"  # 10: import has no such condition
        "import type { Options } from '@juspay/neurolink/types';\n"  # 11: types only: fine
        "import { options } from '@juspay/neurolink/types';\n"  # 12: not for a runtime import
        "export type { T } from '@juspay/neurolink/types';\n"  # 13: fine
        "```\n"
    )
    card = _check(body, tmp_path, kinds_repo)
    assert card.verdict == "FAIL"
    violations = {v["line"]: v for v in card.detail["violations"]}
    assert sorted(violations) == [8, 10, 12]
    assert violations[8]["code"] == "ERR_PACKAGE_PATH_NOT_EXPORTED"
    assert 'No "exports" main defined' in violations[8]["reason"]
    assert "conditions tried: require, node" in violations[8]["reason"]
    assert "Package subpath './cjs-only' is not defined" in violations[10]["reason"]
    assert "conditions tried: node, import" in violations[10]["reason"]
    assert "types" not in violations[12]["reason"].split("conditions tried:")[1]
    resolved = {r["line"]: r["target"] for r in card.detail["resolved"]}
    assert resolved == {
        7: "./dist/index.js",
        9: "./dist/cjs-only.cjs",
        11: "./dist/types.d.ts",
        13: "./dist/types.d.ts",
    }


def test_invalid_targets_and_configurations_are_findings_not_crashes(tmp_path: Path) -> None:
    mixed = {"name": "@juspay/neurolink", "exports": {".": "./i.js", "import": "./i.js"}}
    repo = make_repo(tmp_path / "r", {"package.json": json.dumps(mixed)})
    card = _check("```js\nimport n from '@juspay/neurolink';\n```\n", tmp_path, repo)
    assert card.verdict == "FAIL"
    assert card.detail["violations"][0]["code"] == "ERR_INVALID_PACKAGE_CONFIG"
    other = make_repo(tmp_path / "k", {"package.json": json.dumps(MANIFEST)})
    card = _check("```js\nimport b from '@juspay/neurolink/broken';\n```\n", tmp_path, other)
    violation = card.detail["violations"][0]
    assert violation["code"] == "ERR_INVALID_PACKAGE_TARGET"
    assert 'targets must start with "./"' in violation["reason"]


def test_the_bare_name_needs_a_main_entry_in_the_map(tmp_path: Path) -> None:
    manifest = {"name": "@juspay/neurolink", "exports": {"./client": "./dist/client.js"}}
    repo = make_repo(tmp_path / "r", {"package.json": json.dumps(manifest)})
    body = "```js\nimport n from '@juspay/neurolink';\n"
    body += "import c from '@juspay/neurolink/client';\n```\n"
    card = _check(body, tmp_path, repo)
    assert [(v["line"], v["code"]) for v in card.detail["violations"]] == [
        (7, "ERR_PACKAGE_PATH_NOT_EXPORTED")
    ]


LEGACY_FILES: dict[str, str | bytes] = {
    "package.json": json.dumps({"name": "acme-kit", "main": "./lib/main.js", "files": ["dist"]}),
    "lib/main.js": "module.exports = {};\n",
    "util.js": "",
    "folder/index.js": "",
}


def test_without_exports_files_at_the_ref_decide_as_require_and_import_find_them(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "r", LEGACY_FILES)
    (repo / "uncommitted.js").write_text("")  # in the working tree only
    body = (
        "```js\n"  # 6
        "const kit = require('acme-kit');\n"  # 7: lib/main.js
        "import kit2 from 'acme-kit';\n"  # 8: lib/main.js
        "const u = require('acme-kit/util');\n"  # 9: util.js by extension search
        "import u2 from 'acme-kit/util';\n"  # 10: ESM does not search extensions
        "import u3 from 'acme-kit/util.js';\n"  # 11: fine
        "const f = require('acme-kit/folder');\n"  # 12: folder/index.js
        "import f2 from 'acme-kit/folder';\n"  # 13: a folder import
        "const w = require('acme-kit/uncommitted');\n"  # 14: not at the ref
        "const d = require('acme-kit/dist/extra');\n"  # 15: a build output: not judged
        "```\n"
    )
    card = _check(body, tmp_path, repo, package="acme-kit")
    assert card.detail["exports_checked"] is False
    violations = {v["line"]: v["code"] for v in card.detail["violations"]}
    assert violations == {
        10: "ERR_MODULE_NOT_FOUND",
        13: "ERR_UNSUPPORTED_DIR_IMPORT",
        14: "MODULE_NOT_FOUND",
    }
    assert [u["line"] for u in card.detail["unjudged"]] == [15]
    assert "dist/" in card.detail["unjudged"][0]["reason"]
    resolved = {r["line"]: r["target"] for r in card.detail["resolved"]}
    assert resolved == {
        7: "./lib/main.js",
        8: "./lib/main.js",
        9: "./util.js",
        11: "./util.js",
        12: "./folder/index.js",
    }


def test_a_null_exports_field_is_the_legacy_lookup(tmp_path: Path) -> None:
    files = dict(LEGACY_FILES)
    files["package.json"] = json.dumps({"name": "acme-kit", "exports": None})
    repo = make_repo(tmp_path / "r", files)
    body = "```js\nconst u = require('acme-kit/util');\nconst n = require('acme-kit');\n```\n"
    card = _check(body, tmp_path, repo, package="acme-kit")
    # No main and no index.js at the top: the bare name does not resolve.
    assert [(v["line"], v["code"]) for v in card.detail["violations"]] == [(8, "MODULE_NOT_FOUND")]


def test_type_only_forms_are_marked_for_the_types_condition(tmp_path: Path) -> None:
    body = (
        "```ts\n"
        "import type { A } from 'p/a';\n"
        "export type { B } from 'p/b';\n"
        "import type from 'p/c';\n"  # a default import named "type"
        "import { type D } from 'p/d';\n"  # an inline modifier: the import stays
        "import E from 'p/e';\n"
        "```\n"
    )
    post = parse_post(tmp_path / "p.md", (FRONT_MATTER + body).encode())
    assert [(s.text, s.type_only) for s in gate.extract_specifiers(post)] == [
        ("p/a", True),
        ("p/b", True),
        ("p/c", False),
        ("p/d", False),
        ("p/e", False),
    ]


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.text(
        alphabet="import{}from'\"`();@/ \nrequire npm install pnpm add -Dexport*a.", max_size=200
    )
)
def test_extraction_never_raises_on_code_shaped_noise(tmp_path: Path, code: str) -> None:
    for lang in ("ts", "bash", ""):
        post = parse_post(tmp_path / "p.md", (FRONT_MATTER + f"```{lang}\n{code}\n```\n").encode())
        for specifier in gate.extract_specifiers(post):
            assert specifier.text and "\n" not in specifier.text
            assert post.body_start_line <= specifier.line <= len(post.lines)


def test_retry_feedback_names_the_closest_exported_subpaths(tmp_path: Path, repo: Path) -> None:
    body = (
        "```js\nimport a from '@juspay/neurolink/procesors/pdf';\nimport b from 'neurolink';\n```\n"
    )
    card = _check(body, tmp_path, repo)
    fixes = [finding.fix for finding in card.findings]
    assert fixes[0].endswith("closest exported: @juspay/neurolink/processors/*")
    assert "closest" not in fixes[1]  # not the product's name at all: nothing to suggest


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jest's shape: a private root, the product and its sibling packages in workspaces."""
    files = {
        "package.json": json.dumps(
            {"name": "jest-monorepo", "private": True, "workspaces": ["packages/*"]}
        ),
        "packages/jest/package.json": json.dumps({"name": "jest", "main": "./build/index.js"}),
        "packages/jest/src/index.ts": "export const run = 1;\n",
        "packages/jest-globals/package.json": json.dumps(
            {"name": "@jest/globals", "exports": {".": "./build/index.js"}}
        ),
        "packages/jest-globals/src/index.ts": "export const jest = 1;\n",
        "packages/jest-private/package.json": json.dumps(
            {"name": "@jest/internal", "private": True}
        ),
    }
    return make_repo(tmp_path_factory.mktemp("mono"), files)


@pytest.mark.parametrize(
    ("specifier", "ok"),
    [
        ("jest", True),
        ("@jest/globals", True),  # a sibling the repository publishes
        ("@jest/globals/build/index.js", False),  # resolved through its own exports map
        ("@jest/internal", False),  # private: no reader installs it
        ("@jest/invented", False),
    ],
)
def test_a_monorepo_sibling_package_is_resolved_in_its_own_folder(
    specifier: str, ok: bool, tmp_path: Path, monorepo: Path
) -> None:
    body = f'```ts\nimport {{ x }} from "{specifier}";\n```\n\n```bash\nnpm i -D {specifier}\n```\n'
    card = _check(body, tmp_path, monorepo, package="jest")
    assert (card.verdict == "PASS") is ok, card.detail
    if not ok:
        assert card.detail["violations"][0]["specifier"] == specifier


def test_a_package_the_page_links_to_another_project_is_unjudged(tmp_path: Path) -> None:
    # got's docs: [`gh-got`](https://github.com/sindresorhus/gh-got) is a package built on
    # got; `gh-got` matches got's product pattern, yet the page says whose package it is.
    repo = make_repo(tmp_path / "got", {"package.json": json.dumps({"name": "got"})})
    body = (
        "See [`gh-got`](https://github.com/sindresorhus/gh-got) and "
        "[got4aws](https://www.npmjs.com/package/got4aws).\n\n"
        "```js\nimport ghGot from 'gh-got';\nimport x from 'got4aws';\n"
        "import y from 'got-invented';\n```\n\n"
        "Our own [`got`](https://github.com/sindresorhus/got) is not elsewhere.\n"
    )
    card = _check(body, tmp_path, repo)
    assert [v["specifier"] for v in card.detail["violations"]] == ["got-invented"]
    unjudged = {u["specifier"]: u["reason"] for u in card.detail["unjudged"]}
    assert set(unjudged) == {"gh-got", "got4aws"}
    assert "github.com/sindresorhus/gh-got" in unjudged["gh-got"]
