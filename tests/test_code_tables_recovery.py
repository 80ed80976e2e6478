"""Gate 15's code tables where the grammar misreads a file, and where the repository tracks
its build output: what a table holds must not depend on how the file was misread, nor on
whether the tables were read from the cache (google/zx: ``import { $ } from 'zx'`` was a
finding on a warm cache and unjudged on a cold one, both wrongly)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.evidence import code_tables
from pytest_postgates.evidence.code_tables import tables_for_source
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.evidence.source_repairs import recovered
from pytest_postgates.gates import code_samples
from tests.helpers import make_post, make_repo, repo_context, sample_violations, unjudged_reasons

# A call signature whose type parameter has a conditional default: the grammar misreads
# the interface, and its error recovery reads every declaration after it as part of it.
SWALLOWING = (
    """export interface Shell<
  S = false,
  R = S extends true ? number : string,
> {
  (pieces: TemplateStringsArray, ...args: any[]): R
  <O extends Partial<Options> = Partial<Options>, """
    """R = O extends { sync: true } ? Shell<true> : Shell>(opts: O): R
  sync: {
    (pieces: TemplateStringsArray, ...args: any[]): number
  }
}

export type $ = Shell & Options

export const $: $ = make(
  function (pieces: any) {
    return 1
  } as $,
)

export class ProcessPromise extends Promise<number> {
  run(): this { return this }
}
"""
)


def test_declarations_a_misread_statement_swallows_are_still_tabled() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    source = SWALLOWING.encode()
    tree = parsers["typescript"].parse(source)
    assert tree.root_node.has_error
    # Blanking alone (no repair): the statement taken out is still declared, as a name
    # whose members are not known, and what it swallowed is read.
    blanked, tree = recovered(parsers["typescript"], source, tree)
    assert blanked.split()[:5] == [b"export", b"type", b"Shell", b"=", b"any;"]
    assert not tree.root_node.has_error
    assert len(blanked) == len(source)
    # With the repair first (evidence/source_repairs.py), the interface itself is read.
    table = tables_for_source("src/core.ts", SWALLOWING, parsers)
    assert table is not None
    assert {"$", "ProcessPromise", "Shell"} <= set(table.exports)
    assert set(table.classes["ProcessPromise"]["members"]) == {"run"}
    assert set(table.classes["Shell"]["members"]) == {"sync"}


def test_a_statement_taken_out_stays_declared_in_javascript_too() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    # The class is never closed: the grammar reads the statement after it as its body.
    text = "export class Parser {\n  parse() { return 1 }\n\nexport const after = 1\n"
    table = tables_for_source("src/parser.js", text, parsers)
    assert table is not None
    assert {"Parser", "after"} <= set(table.exports)


FILES = {
    "package.json": json.dumps(
        {
            "name": "zxish",
            "type": "module",
            "main": "./build/index.cjs",
            "exports": {".": {"import": "./build/index.js", "require": "./build/index.cjs"}},
        }
    ),
    "src/index.ts": "export * from './core.ts'\nexport const VERSION: string = '1'\n",
    "src/core.ts": "export const $ = (pieces: TemplateStringsArray) => 1\n",
    # The build output, tracked: a bundle, which the tables never read.
    "build/index.js": "import * as m from './index.cjs'\nexport const { $, VERSION } = m\n",
    "build/index.cjs": "module.exports = require('./core.cjs')\n",
}


def test_a_tracked_build_output_maps_to_its_source_cold_and_warm(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "zxish", FILES)
    body = "Intro.\n\n```js\nimport { $, VERSION, nope } from 'zxish'\n```\n"
    cards = []
    for run in ("cold", "warm"):
        # A new process's memory: the warm run reads the cold run's rows from the cache
        # folder (the files it parsed, and those it found it does not read).
        code_tables._TABLES.clear()
        code_tables._BY_INDEX.clear()
        (tmp_path / run).mkdir()
        post = make_post(body, tmp_path / run)
        cards.append(code_samples.GATE.evaluate(post, repo_context(repo, tmp_path / "cache")))
    for card in cards:
        assert sample_violations(card) == [("named_export", "nope")]
        assert card.detail["resolved"] == {"zxish": "src/index.ts"}
        assert not [r for r in unjudged_reasons(card) if "could not be read" in r]
