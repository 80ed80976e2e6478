"""The sources a package's bundler config builds its outputs from (issue 26: a monorepo's
``dist/index.js`` bundled from ``src/public/index.ts``), and the JS tables of a file the
grammar misreads in one place (the declarations after it are still read)."""

from __future__ import annotations

from pytest_postgates.evidence.build_entries import config_entries
from pytest_postgates.evidence.code_tables import tables_for_source
from pytest_postgates.evidence.repomap import load_parsers

SOURCES = {
    "pkg/src/public/index.ts",
    "pkg/src/public/config.ts",
    "pkg/src/node/cli.ts",
    "pkg/src/client/env.ts",
    "pkg/src/other.ts",
}


def _entries(configs: dict[str, str]) -> dict[str, str]:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    return config_entries("pkg", configs.get, SOURCES.__contains__, parsers)


def test_object_entries_name_their_outputs() -> None:
    found = _entries(
        {
            "pkg/rollup.config.js": (
                "const entries = {\n"
                "  index: 'src/public/index.ts',\n"
                "  'workers/cli': path.resolve(dirname, 'src/node/cli.ts'),\n"
                "  gone: 'src/removed.ts',\n"  # not a source file: no entry
                "}\n"
                "export default { input: entries, external: ['vite'] }\n"
            )
        }
    )
    assert found == {"index": "pkg/src/public/index.ts", "workers/cli": "pkg/src/node/cli.ts"}


def test_input_strings_and_arrays_are_named_after_their_files() -> None:
    found = _entries(
        {
            "pkg/rolldown.config.ts": "export default [{ input: 'src/client/env.ts' }]\n",
            "pkg/tsup.config.ts": "export default { entry: ['src/public/config.ts'] }\n",
        }
    )
    assert found == {"env": "pkg/src/client/env.ts", "config": "pkg/src/public/config.ts"}


def test_a_name_built_from_two_sources_says_nothing() -> None:
    found = _entries(
        {
            "pkg/rollup.config.js": "export default { input: { index: 'src/public/index.ts' } }\n",
            "pkg/vite.config.ts": (
                "export default { build: { lib: { entry: { index: 'src/other.ts' } } } }\n"
            ),
        }
    )
    assert "index" not in found


def test_no_config_no_entries() -> None:
    assert _entries({}) == {}


# An overloaded call signature whose return type wraps over lines: the grammar misreads it,
# and its error recovery swallows the interface after it into a statement block.
MISREAD = """export interface Before { a: string }
interface EachFn {
  <T extends any[] | [any]>(cases: ReadonlyArray<T>): Ret<T>
  <T extends ReadonlyArray<any>>(cases: ReadonlyArray<T>): Ret<
    Args<T>
  >
  <T>(cases: ReadonlyArray<T>): Ret<T[]>
}

export interface Api<C = object> {
  override: {
    <K extends keyof C>(name: K, value: C[K]): Api<C>
    (values: Partial<C>): Api<C>
  }
  name: string
}

export interface After { b: string }
"""


def test_declarations_after_a_misread_statement_are_still_tabled() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    table = tables_for_source("src/types.ts", MISREAD, parsers)
    assert table is not None
    assert {"Before", "Api", "After"} <= set(table.exports)
    assert set(table.classes["Api"]["members"]) == {"override", "name"}
