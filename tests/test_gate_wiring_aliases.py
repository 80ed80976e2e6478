"""Gate 16 through module aliases and Vue single-file components (issue 30): the call graph
follows an import written through a tsconfig/jsconfig ``paths`` alias or ``baseUrl``, or a
bundler alias the config declares statically (:mod:`pytest_postgates.evidence.specifier_aliases`),
and reads the script blocks of ``.vue`` files (:mod:`pytest_postgates.evidence.vue_files`);
a computed alias is never guessed. Small repositories built here."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.evidence.specifier_aliases import SpecifierAliases
from pytest_postgates.evidence.tsconfig_paths import aliases_for
from pytest_postgates.evidence.vue_files import script_text
from tests.helpers import make_repo
from tests.test_gate_wiring_claims import _by_subject, _card

LIB = {
    "package.json": json.dumps({"name": "app", "dependencies": {"vue": "^3"}}),
    "src/lib/helper.ts": (
        "import { deepWork } from './deep';\nexport function runHelper() { return deepWork(); }\n"
    ),
    "src/lib/deep.ts": (
        "export function deepWork() { return 1; }\nexport function otherWork() {}\n"
    ),
}
EDGES = "```mermaid\nflowchart TD\n    useAlpha --> deepWork\n    useAlpha --> otherWork\n```\n"


def _verdicts(repo: Path, tmp_path: Path, body: str = EDGES) -> dict[str, str]:
    return {s: c["verdict"] for s, c in _by_subject(_card(repo, tmp_path, body)).items()}


def test_a_tsconfig_paths_alias_is_followed_through_a_solution_style_config(
    tmp_path: Path,
) -> None:
    """Vite's templates: tsconfig.json lists no files and references tsconfig.app.json,
    which extends a base declaring ``baseUrl`` and ``paths``. `@lib/runHelper` is the
    product's: read as another package's, `useAlpha -> deepWork` was contradicted."""
    files = {
        **LIB,
        "tsconfig.json": (
            '{"files": [], "references": [{"path": "./tsconfig.app.json"},'
            ' {"path": "./tsconfig.node.json"}]}'
        ),
        "tsconfig.app.json": '{"extends": "./tsconfig.base.json", "include": ["src"]}',
        "tsconfig.node.json": (
            '{"include": ["vite.config.ts"], "compilerOptions": {"baseUrl": "."}}'
        ),
        "tsconfig.base.json": (
            '{"compilerOptions": {"baseUrl": ".",\n  // aliases\n'
            '  "paths": {"@lib/*": ["src/lib/*"],},}}'
        ),
        "src/a.ts": (
            "import { runHelper } from '@lib/helper';\n"
            "export function useAlpha() { runHelper(); }\n"
        ),
    }
    assert [a[0] for a in aliases_for("src", files.get)] == ["@lib/*", "*"]
    assert aliases_for("", files.get) == (("*", ("*",), "."),)  # vite.config.ts's
    assert [a[0] for a in aliases_for("web", {"jsconfig.json": files["tsconfig.base.json"]}.get)]
    repo = make_repo(tmp_path / "repo", files)
    assert _verdicts(repo, tmp_path) == {
        "useAlpha -> deepWork": "verified",
        "useAlpha -> otherWork": "contradicted",
    }


def test_a_vite_alias_declared_with_path_resolve_is_followed(tmp_path: Path) -> None:
    """`'@': path.resolve(__dirname, 'src')` (and `fileURLToPath(new URL(...))`): `@/` names
    src/, so the path through `runHelper` is shown, where it was dynamic (unjudged)."""
    for target in (
        "path.resolve(__dirname, 'src')",
        "fileURLToPath(new URL('./src', import.meta.url))",
    ):
        files = {
            **LIB,
            "vite.config.ts": (
                "import path from 'path';\nimport { fileURLToPath, URL } from 'node:url';\n"
                f"export default {{ resolve: {{ alias: {{ '@': {target} }} }} }};\n"
            ),
            "src/a.ts": (
                "import { runHelper } from '@/lib/helper';\n"
                "export function useAlpha() { runHelper(); }\n"
            ),
        }
        repo = make_repo(tmp_path / target[:4], files)
        verdicts = _verdicts(repo, tmp_path)
        assert verdicts == {
            "useAlpha -> deepWork": "verified",
            "useAlpha -> otherWork": "contradicted",
        }, target


def test_a_computed_alias_is_never_guessed() -> None:
    """An alias whose target or key the config computes: what it may match is the
    product's, unresolved (None), not another package's ("")."""
    config = (
        "import path from 'path';\nconst root = process.env.ROOT;\n"
        "export default { resolve: { alias: { '~lib': root, ...more } } };\n"
    )
    files = {**LIB, "vite.config.ts": config, "src/lib/x.ts": ""}
    from pytest_postgates.evidence.repomap import load_parsers

    parsers = load_parsers()
    assert isinstance(parsers, dict)
    aliases = SpecifierAliases(files.get, lambda base: None, parsers["typescript"])
    assert aliases.locate("src/a.ts", "~lib/runHelper") is None
    assert aliases.locate("src/a.ts", "@/lib/runHelper") is None  # no declaration: no guess
    assert aliases.locate("src/a.ts", "zod") is None  # keys computed, not a dependency
    assert aliases.locate("src/a.ts", "vue") == ""  # a dependency
    assert aliases.locate("src/a.ts", "node:fs") == ""


def test_an_alias_into_node_modules_names_another_party() -> None:
    """Docusaurus's tsconfig maps `@docusaurus/*` into node_modules: another party's (""),
    while `@components/*` names the product's files."""
    config = (
        '{"compilerOptions": {"baseUrl": ".", "paths": {"@components/*": ["./src/components/*"],'
        ' "@docusaurus/*": ["./node_modules/@docusaurus/*"]}}}'
    )
    files = {"site/tsconfig.json": config}
    known = {"site/src/components/Badge.tsx"}
    aliases = SpecifierAliases(
        files.get, lambda base: next((p for p in known if p.startswith(base + ".")), None)
    )
    assert aliases.locate("site/src/x.tsx", "@components/Badge") == "site/src/components/Badge.tsx"
    assert aliases.locate("site/src/x.tsx", "@docusaurus/router") == ""
    assert aliases.locate("site/src/x.tsx", "@components/Gone") is None


def test_an_alias_the_config_computes_leaves_the_claim_unjudged(tmp_path: Path) -> None:
    """`~lib/runHelper` through an alias whose target the config computes: the call is the
    product's, matched by its name, never another package's (which contradicted it)."""
    files = {
        **LIB,
        "vite.config.js": "export default { resolve: { alias: { '~lib': process.env.LIB } } };\n",
        "src/a.ts": (
            "import { runHelper } from '~lib/helper';\n"
            "export function useAlpha() { runHelper(); }\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    assert _verdicts(repo, tmp_path)["useAlpha -> deepWork"] == "unjudged"


VUE_SETUP = """<template>
  <button @click="saveForm">{{ formatLabel(label) }}</button>
</template>

<script setup lang="ts">
import { runHelper } from '../lib/helper';
import { formatLabel } from '../lib/format';
const saveForm = () => {
  runHelper();
};
</script>

<style scoped>
button { color: red; }
</style>
"""
VUE_OPTIONS = """<template><div /></template>
<script>
import { defineComponent } from 'vue';
import { otherWork } from '../lib/deep';
export default defineComponent({
  methods: {
    closePanel() {
      otherWork();
    },
  },
});
</script>
"""


def test_vue_script_blocks_are_read_with_the_files_lines(tmp_path: Path) -> None:
    """`<script setup>` functions and the methods of `defineComponent({methods})` are
    functions of the call graph, at the .vue file's lines; the component as an end is not
    read whole (its template may call what the script imports)."""
    text = script_text(VUE_SETUP)
    assert text is not None and len(text.splitlines()) == len(VUE_SETUP.splitlines())
    assert "button" not in text and text.splitlines()[8] == "  runHelper();"
    files = {
        **LIB,
        "src/lib/format.ts": "export function formatLabel(x: string) { return x; }\n",
        "src/components/ConnectionModal.vue": VUE_SETUP,
        "src/components/Panel.vue": VUE_OPTIONS,
    }
    repo = make_repo(tmp_path / "repo", files)
    body = (
        "```mermaid\nflowchart TD\n    saveForm --> deepWork\n    saveForm --> otherWork\n"
        "    closePanel --> otherWork\n    closePanel --> deepWork\n"
        "```\n\nThe component `ConnectionModal` calls `formatLabel()` to show it.\n"
    )
    claims = _by_subject(_card(repo, tmp_path, body))
    verdicts = {s: c["verdict"] for s, c in claims.items()}
    assert verdicts == {
        "saveForm -> deepWork": "verified",
        "saveForm -> otherWork": "contradicted",
        "closePanel -> otherWork": "verified",
        "closePanel -> deepWork": "contradicted",
        "ConnectionModal -> formatLabel()": "unjudged",
    }, claims
    assert "src/components/ConnectionModal.vue:9" in claims["saveForm -> deepWork"]["evidence"]
    assert "template" in claims["ConnectionModal -> formatLabel()"]["evidence"]


def test_the_api_lookup_follows_the_same_aliases(tmp_path: Path) -> None:
    """Gates 2 and 15 read a module's exports through the aliases the call graph follows:
    `export * from '@/lib/helper'` under a vite alias lists `runHelper`, where it was a
    re-export outside the tables (Unknown)."""
    from pytest_postgates.evidence import resolution
    from pytest_postgates.evidence.api_lookup import ApiLookup
    from pytest_postgates.evidence.code_tables import code_tables
    from pytest_postgates.evidence.index import open_index
    from tests.helpers import git

    files = {
        **LIB,
        "vite.config.ts": (
            "import { resolve } from 'path';\n"
            "export default { resolve: { alias: { '@': resolve(__dirname, 'src') } } };\n"
        ),
        "src/index.ts": "export * from '@/lib/helper';\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    index = open_index(repo, git(repo, "rev-parse", "HEAD").strip(), tmp_path / "cache", ())
    read = resolution.IndexFiles(index)
    lookup = ApiLookup(code_tables(index, tmp_path / "cache"), read, {})
    assert lookup.export_names("src/index.ts") == {"runHelper"}
    assert lookup.module_named("src/index.ts", "@/lib/helper") == "src/lib/helper.ts"


def test_the_api_models_exports_follow_the_same_aliases() -> None:
    """The model's module exports (what gate 2 grounds an import in) through the alias."""
    from pytest_postgates.evidence.api_model import build_model

    config = "import path from 'path';\nexport default {resolve: {alias: [\n"
    config += "  {find: '@', replacement: path.resolve(__dirname, 'src')}]}};\n"
    sources = {k: v for k, v in LIB.items() if k.endswith(".ts")}
    sources["src/index.ts"] = "export * from '@/lib/helper';\n"
    model = build_model("c0", sources, configs={"vite.config.js": config})
    assert model.facts.modules["src/index.ts"] == ["runHelper"]
    assert "src/index.ts" not in model.facts.stars
