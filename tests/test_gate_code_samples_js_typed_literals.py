"""Gate 15 on object literals a fence shows with no call (issue 26): a README's "Options"
block or a config file's ``export default {...}`` matched against the object types the
product exports (``export interface Config``) as well as its functions' options, and a
literal the sample types itself (``const c: Config``, ``satisfies Config``, ``<Config>``,
a JSDoc ``@type {import('pkg').Config}``) judged against that type directly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

KIT = {
    "package.json": json.dumps({"name": "kit", "exports": {".": "./src/index.ts"}}),
    "src/index.ts": (
        "export interface Config {\n"
        "  alpha: number;\n"
        "  beta: number;\n"
        "  gamma: number;\n"
        "  prerender?: { crawl: boolean; retry: number; delay: number };\n"
        "}\n"
        "export type Theme = { color: string; size: number; weight: number };\n"
        "export function run(): void {}\n"
    ),
}
# A JavaScript package whose options type is declared by hand beside it (`index.d.ts`).
PRETTY = {
    "package.json": json.dumps({"name": "pretty", "main": "index.js", "types": "index.d.ts"}),
    "index.js": "module.exports = function build(opts) { return opts; };\n",
    "index.d.ts": (
        "declare function build(options?: object): void;\n"
        "export interface PrettyOptions { colorize: boolean; crlf: boolean; mkdir: boolean }\n"
        "export default build;\n"
    ),
}


def _card(tmp_path: Path, code: str, language: str = "ts", files: dict[str, str] = KIT) -> object:
    return sample_card(code, language, tmp_path, make_repo(tmp_path / "repo", files))


def _reasons(card: object) -> str:
    return " ".join(v["reason"] for v in card.detail["violations"])  # type: ignore[attr-defined]


def test_an_object_shown_alone_is_matched_to_an_exported_interface(tmp_path: Path) -> None:
    card = _card(tmp_path, "{\n  alpha: 1,\n  beta: 2,\n  gamma: 3,\n  delta: 4\n}")
    assert sample_violations(card) == [("option_key", "delta")]
    assert "Config takes no option delta" in _reasons(card)


def test_an_exported_config_object_is_matched_one_key_down(tmp_path: Path) -> None:
    # A config file's `export default {...}` (no call), and the `prerender` defaults
    # shown alone: the object an exported type holds under a key.
    card = _card(tmp_path, "export default {\n  alpha: 1,\n  beta: 2,\n  gamma: 3,\n  gama: 4\n}")
    assert sample_violations(card) == [("option_key", "gama")]
    nested = _card(tmp_path / "n", "{\n  crawl: true,\n  retry: 1,\n  retries: 3,\n  delay: 500\n}")
    assert sample_violations(nested) == [("option_key", "retries")]
    assert "Config's prerender takes no option retries" in _reasons(nested)


def test_a_declared_type_of_a_javascript_package_is_read(tmp_path: Path) -> None:
    # The README's options block of a CommonJS package: its `index.d.ts` declares them.
    code = "{\n  colorize: false,\n  crlf: false,\n  mkdir: true,\n  destination: 1\n}"
    card = _card(tmp_path, code, "js", PRETTY)
    assert sample_violations(card) == [("option_key", "destination")]
    assert "PrettyOptions takes no option destination" in _reasons(card)


def test_two_types_taking_as_many_keys_is_a_tie_left_unjudged(tmp_path: Path) -> None:
    files = {
        **KIT,
        "src/index.ts": (
            "export interface Left { alpha: number; beta: number; gamma: number; left: 1 }\n"
            "export interface Right { alpha: number; beta: number; gamma: number; right: 1 }\n"
        ),
    }
    card = _card(tmp_path, "{\n  alpha: 1,\n  beta: 2,\n  gamma: 3,\n  delta: 4\n}", files=files)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("2 functions or types take 3 of its 4 keys (Left, Right)" in r for r in reasons)


def test_a_literal_matching_no_type_is_listed_unjudged(tmp_path: Path) -> None:
    card = _card(tmp_path, "{\n  north: 1,\n  south: 2,\n  east: 3\n}")
    assert sample_violations(card) == []
    why = (
        "an object literal shown alone: no function or type of the product whose keys the "
        "model closes takes any of its keys"
    )
    assert set(unjudged_reasons(card)) == {why}
    assert len(unjudged_reasons(card)) == 4  # the literal, then each key


IMPORT = "import type { Config } from 'kit';\n"
TYPED = {
    "annotated": IMPORT + "const c: Config = { alpha: 1, betta: 2 };\n",
    "satisfies": IMPORT + "export default { betta: 2 } satisfies Config;\n",
    "asserted": IMPORT + "export default <Config>{ alpha: 1, betta: 2 };\n",
    "as": "import { type Config } from 'kit';\nmodule.exports = { betta: 2 } as Config;\n",
}


@pytest.mark.parametrize("shape", sorted(TYPED))
def test_a_literal_the_sample_types_is_judged_against_that_type(tmp_path: Path, shape: str) -> None:
    # Too few keys to tell whose they are when shown alone: the type says whose.
    card = _card(tmp_path, TYPED[shape])
    assert sample_violations(card) == [("option_key", "betta")]
    assert "Config takes no option betta (Config declares no betta); did you mean `beta`?" in (
        _reasons(card)
    )


@pytest.mark.parametrize(
    "code",
    [
        "/** @type {import('kit').Config} */\nmodule.exports = { alpha: 1, betta: 2 };\n",
        "/** @type {import('kit').Config} */\nconst config = { betta: 2 };\n"
        "module.exports = config;\n",
        "/** @satisfies {import('kit').Config} */\nexport default { betta: 2 };\n",
    ],
)
def test_a_literal_a_jsdoc_comment_types_is_judged_against_that_type(
    tmp_path: Path, code: str
) -> None:
    card = _card(tmp_path, code, "js")
    assert sample_violations(card) == [("option_key", "betta")]
    assert "did you mean `beta`?" in _reasons(card)


def test_a_typed_literal_judges_its_nested_keys(tmp_path: Path) -> None:
    code = (
        "import type { Config } from 'kit';\n"
        "const c: Config = { alpha: 1, prerender: { crawl: true, retries: 2 } };\n"
    )
    card = _card(tmp_path, code)
    assert sample_violations(card) == [("option_key", "retries")]
    assert "did you mean `retry`?" in _reasons(card)


def test_a_literal_typed_by_another_package_is_left_alone(tmp_path: Path) -> None:
    # Vite's config, whose keys happen to be the product's too: not the product's object.
    code = (
        "import type { UserConfig } from 'vite';\n"
        "import { run } from 'kit';\n"
        "const c: UserConfig = { alpha: 1, beta: 2, gamma: 3, delta: 4 };\n"
        "run();\n"
    )
    card = _card(tmp_path, code)
    assert sample_violations(card) == []
    assert not any("shown alone" in r for r in unjudged_reasons(card))


def test_a_literal_typed_by_a_product_name_that_is_no_object_type_is_unjudged(
    tmp_path: Path,
) -> None:
    code = "import { run } from 'kit';\nconst c: run = { alpha: 1, betta: 2 };\n"
    card = _card(tmp_path, code)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("an object literal typed run: the model reads no object type" in r for r in reasons)


def test_a_type_a_function_takes_whole_is_named_by_that_function(tmp_path: Path) -> None:
    # build()'s options are PrettyOptions and the keys its code reads (`extra`): not a tie
    # between build() and PrettyOptions, but build()'s options.
    files = {
        **PRETTY,
        "index.js": (
            "function build(opts) { return [opts.colorize, opts.extra]; }\n"
            "module.exports = build;\n"
        ),
        "index.d.ts": PRETTY["index.d.ts"].replace("options?: object", "options?: PrettyOptions"),
    }
    code = "{\n  colorize: false,\n  crlf: false,\n  mkdir: true,\n  destination: 1\n}"
    card = _card(tmp_path, code, "js", files)
    assert sample_violations(card) == [("option_key", "destination")]
    assert _reasons(card).startswith("build() takes no option destination")


def test_an_exported_list_of_the_fences_own_objects_is_no_options_object(
    tmp_path: Path,
) -> None:
    # A docs editor's harness: the exported object hands on the fence's `config`, which
    # is judged itself (shown alone); the list's own keys are the fence's names.
    code = (
        "const config = {\n  alpha: 1,\n  beta: 2,\n  gamma: 3,\n  gama: 4\n};\n"
        "module.exports = {\n  actions: [],\n  config: config,\n};\n"
    )
    card = _card(tmp_path, code, "js")
    assert sample_violations(card) == [("option_key", "gama")]
    assert unjudged_reasons(card) == []
    listed = _card(tmp_path / "l", "module.exports = {\n  actions: [],\n  config: 1,\n};\n", "js")
    assert len(unjudged_reasons(listed)) == 3  # too few keys: the literal, then each key


def test_a_type_name_a_later_fence_imports_from_another_package_is_that_packages(
    tmp_path: Path,
) -> None:
    # The page imported `Config` from the product first; a later fence imports its own
    # `Config` from another package: that fence's literal is the other package's.
    body = (
        "Intro.\n\n```ts\nimport type { Config } from 'kit';\n```\n\nThen:\n\n"
        "```ts\nimport { hash, Config } from 'argon2';\n"
        "const options: Config = { hashLength: 100 };\nhash('x', options);\n```\n"
    )
    from pytest_postgates.gates import code_samples
    from tests.helpers import make_post, repo_context

    repo = make_repo(tmp_path / "repo", KIT)
    card = code_samples.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "c"))
    assert sample_violations(card) == []
