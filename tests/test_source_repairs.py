"""Parsing the JavaScript/TypeScript the grammar misreads (evidence/source_repairs.py): each
known misread is repaired in place, byte offsets and line breaks kept, and the API model
reads the declarations the misread used to swallow (google/zx's `src/core.ts` was one error
node: none of its exports was in the model)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.evidence.source_repairs import REPAIRS, error_bytes, parse_repaired


def _typescript() -> Any:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    return parsers["typescript"]


# Each misread, with a declaration after it that the misread hides from the tables.
MISREADS = {
    "a generic call signature on its own line": (
        "export interface Shell {\n"
        "  (pieces: TemplateStringsArray, ...args: any[]): number\n"
        "  <O extends Partial<Options>>(opts: O): Shell\n"
        "  sync: boolean\n"
        "}\n"
        "export function usePowerShell(): void {}\n"
    ),
    "in a type literal too": (
        "type PipeMethod = {\n"
        "  (file: string): Stream\n"
        "  <D extends Writable>(dest: D): Stream\n"
        "}\n"
        "export function usePowerShell(): void {}\n"
    ),
    "export type * (TypeScript 5.0)": (
        "export type * from './types.js'\nexport function usePowerShell(): void {}\n"
    ),
    "typeof import(...) as a type": (
        "const jasmine = runtime.requireInternalModule<typeof import('./jasmineLight')>(\n"
        "  JASMINE,\n"
        ");\n"
        "export function usePowerShell(): void {}\n"
    ),
}


@pytest.mark.parametrize("source", MISREADS.values(), ids=list(MISREADS))
def test_each_misread_is_repaired(source: str) -> None:
    parser = _typescript()
    data = source.encode()
    assert parser.parse(data).root_node.has_error  # the grammar misreads it
    repaired, tree = parse_repaired(parser, data)
    assert not tree.root_node.has_error
    assert len(repaired) == len(data) and repaired.count(b"\n") == data.count(b"\n")


def test_the_model_reads_what_a_misread_swallowed() -> None:
    source = MISREADS["a generic call signature on its own line"]
    model = build_model("c0ffee", {"src/core.ts": source})
    assert model.declares("usePowerShell")
    assert not model.facts.unread
    assert "sync" in model.member_names  # the interface itself is read, members and all


def test_export_type_star_reexports_its_module() -> None:
    sources = {
        "src/index.ts": "export type * from './types.js'\n",
        "src/types.ts": "export interface TestFn { (title: string): void }\n",
    }
    model = build_model("c0ffee", sources)
    assert not model.facts.unread
    assert "TestFn" in model.facts.modules["src/index.ts"]  # re-exported by the index


def test_a_repair_that_adds_errors_is_not_taken() -> None:
    # A line opening with `<` after a line that does not end a member, in a file that
    # parses: nothing to repair, the source stays as written.
    parser = _typescript()
    data = b"const f = g\n  <T>(x)\nexport const h = 1\n"
    before = error_bytes(parser.parse(data).root_node)
    repaired, tree = parse_repaired(parser, data)
    assert error_bytes(tree.root_node) <= before
    if not before:
        assert repaired == data


_LINES = st.lists(
    st.sampled_from(
        [
            "  <T>(x: T): T",
            "  (a: string): number",
            "export type * from './x'",
            "type Q = typeof import('./m')",
            "interface I {",
            "}",
            "const a = b",
            "  <div>text</div>",
            "",
        ]
    ),
    max_size=12,
)


@given(_LINES)
def test_repairs_keep_every_offset(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    for repair in REPAIRS:
        out = repair(data)
        assert len(out) == len(data)
        assert [i for i, b in enumerate(out) if b == 10] == [
            i for i, b in enumerate(data) if b == 10
        ]


def test_typeof_import_is_blanked_only_as_a_type_argument() -> None:
    # A variable's annotation the grammar reads is what the model types the variable by.
    data = (
        b"const fs: typeof import('fs-extra') = load()\n"
        b"const j = r.requireInternalModule<typeof import('./jasmineLight')>(\n  J,\n);\n"
    )
    assert _typescript().parse(data).root_node.has_error
    repaired, tree = parse_repaired(_typescript(), data)
    assert not tree.root_node.has_error
    assert repaired.startswith(b"const fs: typeof import('fs-extra')")
    assert b"jasmineLight" not in repaired


def test_flow_typed_javascript_is_read_by_the_typescript_grammar_before_any_blanking() -> None:
    # jest's Flow-typed matchers: the JavaScript grammar misreads `import type` and the
    # annotations, the TypeScript one reads them; blanking the JavaScript parse first lost
    # the matchers object (and gate 15 went silent on `expect().toBeinstanceOf`).
    source = (
        "import type {\n  MatchersObject,\n} from './types';\n\n"
        "const matchers: MatchersObject = {\n"
        "  toBeInstanceOf(received: any, constructor: Function) {\n    return true;\n  },\n"
        "};\n\nmodule.exports = matchers;\n"
    )
    model = build_model("c0ffee", {"packages/jest-matchers/src/matchers.js": source})
    assert not model.facts.unread
    assert "toBeInstanceOf" in model.member_names


def test_a_statement_left_out_is_named_on_the_model() -> None:
    # A class never closed: the grammar reads what follows as its body; the statement is
    # left out, the names after it read, and the file named as read in part.
    source = "export class Parser {\n  parse() { return 1 }\n\nexport const after = 1\n"
    model = build_model("c0ffee", {"src/parser.js": source})
    assert model.declares("after") and model.declares("Parser")
    assert "left out" in model.facts.unread["src/parser.js"]
