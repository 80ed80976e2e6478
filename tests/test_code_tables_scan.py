"""Gate 15's tables: the import scan the CLI walk follows, the files it parses, and the
cache file that xdist workers and later runs share."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.evidence import code_tables
from pytest_postgates.evidence.code_tables import scan_imports, tables_for_source
from pytest_postgates.evidence.repomap import load_parsers
from pytest_postgates.gates import code_samples as gate
from tests.helpers import make_post, make_repo, repo_context

PARSERS = load_parsers()
assert not isinstance(PARSERS, str), PARSERS


def test_scan_finds_static_dynamic_and_require_imports_but_not_comment_lines() -> None:
    text = (
        'import a from "./a.js";\n'
        "import {\n  b,\n  c,\n} from './b.js';\n"
        'import "./side-effect.js";\n'
        "export * from `./c.js`;\n"
        'export { d } from "../d.js";\n'
        'const e = require("./e");\n'
        "async function load() {\n"
        '  const { f } = await import("./f.js");\n'
        "}\n"
        '// import g from "./g.js";\n'
        "/**\n"
        ' * import h from "./h.js";\n'
        " */\n"
        'const label = "./not-an-import";\n'
        'import pkg from "yargs";\n'
    )
    assert scan_imports(text) == [
        "./a.js",
        "./b.js",
        "./side-effect.js",
        "./c.js",
        "../d.js",
        "./e",
        "./f.js",
    ]


_SPEC = st.from_regex(r"\.{1,2}/[a-z][a-z0-9/_-]{0,12}(\.js)?", fullmatch=True)
_QUOTE = st.sampled_from(['"', "'"])


@st.composite
def _module(draw: st.DrawFn) -> str:
    """A TypeScript module of top-level import forms and other statements."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        spec, q = draw(_SPEC), draw(_QUOTE)
        form = draw(st.integers(0, 8))
        lines.append(
            [
                f"import x{len(lines)} from {q}{spec}{q};",
                f"import {{ a{len(lines)}, b as c{len(lines)} }} from {q}{spec}{q};",
                f"import {{\n  m{len(lines)},\n}} from {q}{spec}{q};",
                f"import {q}{spec}{q};",
                f"export * from {q}{spec}{q};",
                f"export {{ e{len(lines)} }} from {q}{spec}{q};",
                f"const r{len(lines)} = require({q}{spec}{q});",
                f"export const s{len(lines)} = await import({q}{spec}{q});",
                f"export class K{len(lines)} {{ m(): string {{ return {q}{spec}{q}; }} }}",
            ][form]
        )
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None)
@given(_module())
def test_the_scan_finds_every_import_the_parse_finds(text: str) -> None:
    table = tables_for_source("src/m.ts", text, PARSERS)  # type: ignore[arg-type]
    assert table is not None
    assert set(table.deps) <= set(scan_imports(text))


def _cli_repo(root: Path) -> Path:
    manifest = {"name": "tool", "bin": "./lib/cli.js"}
    return make_repo(
        root,
        {
            "package.json": json.dumps(manifest),
            "lib/cli.js": (
                'const { Command } = require("commander");\n'
                'const { format } = require("./util.js");\n'
                'const program = new Command("tool");\n'
                'program.command("serve").option("--port <n>");\n'
                'program.command("auth").action(async () => {\n'
                '  const { addAuthOptions } = await import("./commands/auth.js");\n'
                "  addAuthOptions(program);\n"
                "});\n"
            ),
            # Reached by the walk, names no framework: scanned, never parsed.
            "lib/util.js": (
                'const { pad } = require("./deep.js");\nexports.format = (x) => pad(x);\n'
            ),
            "lib/deep.js": "exports.pad = (x) => x;\n",
            # A command module the CLI loads lazily: its options are the CLI's.
            "lib/commands/auth.js": (
                'const { Option } = require("commander");\n'
                "exports.addAuthOptions = (program) =>\n"
                '  program.addOption(new Option("--token <t>"));\n'
            ),
        },
    )


def test_cli_walk_follows_lazy_imports_and_parses_only_framework_files(tmp_path: Path) -> None:
    repo = _cli_repo(tmp_path / "repo")
    cache = tmp_path / "cache"
    post = make_post("Run:\n\n```bash\ntool auth --token x\ntool serve --tokn 1\n```\n", tmp_path)
    card = gate.GATE.evaluate(post, repo_context(repo, cache))
    assert [(v["kind"], v["name"]) for v in card.detail["violations"]] == [("cli_flag", "--tokn")]
    assert card.detail["cli"]["read"] == ["lib/cli.js", "lib/commands/auth.js"]
    (tables_file,) = cache.glob("codetables-*.jsonl")
    rows = [json.loads(line) for line in tables_file.read_text().splitlines() if line]
    assert sorted(row["path"] for row in rows) == ["lib/cli.js", "lib/commands/auth.js"]


def test_cache_rows_are_appended_and_a_cut_row_is_skipped(tmp_path: Path) -> None:
    repo = _cli_repo(tmp_path / "repo")
    cache = tmp_path / "cache"
    post = make_post("Run:\n\n```bash\ntool serve --port 1\n```\n", tmp_path)
    gate.GATE.evaluate(post, repo_context(repo, cache))
    (tables_file,) = cache.glob("codetables-*.jsonl")
    first = tables_file.read_text()
    # A writer killed half-way leaves a cut row; the next save starts a new line.
    tables_file.write_text(first + '{"path": "lib/util.js", "tab')
    code_tables._TABLES.clear()
    code_tables._BY_INDEX.clear()
    files, absent, _sources = code_tables._read_cache(tables_file) or ({}, set(), {})
    assert sorted(files) == ["lib/cli.js", "lib/commands/auth.js"] and not absent
    body = "Run:\n\n```bash\ntool serve --port 2\n```\n"
    later = make_post(body, tmp_path, name="2026-06-04-b.md")
    card = gate.GATE.evaluate(later, repo_context(repo, cache))
    assert card.verdict == "PASS" and card.detail["checked"] == 2
    assert tables_file.read_text().startswith(first)  # appended to, never rewritten
