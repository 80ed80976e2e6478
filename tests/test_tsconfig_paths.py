"""TypeScript's ``paths`` aliases (pytest_postgates/evidence/tsconfig_paths.py) and gate 15
reading a CLI whose commands a monorepo imports by alias (lerna: ``import publishCmd from
"@lerna/commands/publish/command"``, mapped by tsconfig.base.json to libs/)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_postgates.evidence.tsconfig_paths import alias_targets, aliases_for, read_tsconfig
from pytest_postgates.gates import code_samples as gate
from tests.helpers import make_post, make_repo, repo_context

BASE = (
    "{\n  // the monorepo's aliases\n"
    '  "compilerOptions": {"baseUrl": ".", "paths": {\n'
    '    "@kit/core": ["libs/core/src/index.ts"],\n'
    '    "@kit/commands/*": ["libs/commands/*"],\n'
    '    "@kit/commands/serve/*": ["libs/commands/serve/src/*"],\n'
    "  }},\n}\n"
)
FILES = {
    "tsconfig.base.json": BASE,
    "packages/tool/tsconfig.json": '{"extends": "../../tsconfig.base.json", "include": []}',
}


def test_a_tsconfig_with_comments_and_trailing_commas_is_read() -> None:
    assert read_tsconfig(BASE)["compilerOptions"]["baseUrl"] == "."
    assert read_tsconfig("{not json") == {}


def test_aliases_come_from_the_nearest_config_through_its_extends_chain() -> None:
    aliases = aliases_for("packages/tool/src", FILES.get)
    patterns = [a[0] for a in aliases]
    # Exact first, then the longest prefix before `*`, as TypeScript tries them; the
    # baseUrl's own mapping of every bare specifier last.
    assert patterns == ["@kit/core", "@kit/commands/serve/*", "@kit/commands/*", "*"]
    # (each then under the baseUrl: a package when no file is there)
    assert list(alias_targets("@kit/core", aliases)) == ["libs/core/src/index.ts", "@kit/core"]
    assert list(alias_targets("@kit/commands/serve/command", aliases)) == [
        "libs/commands/serve/src/command",
        "libs/commands/serve/command",
        "@kit/commands/serve/command",
    ]
    assert list(alias_targets("yargs", aliases)) == ["yargs"]


def test_no_config_or_a_packages_config_gives_no_aliases() -> None:
    none: dict[str, str] = {}
    assert aliases_for("src", none.get) == ()
    # `extends` naming a package (another party's config) is not read.
    shared = {"tsconfig.json": '{"extends": "@tsconfig/node20/tsconfig.json"}'}
    assert aliases_for("src", shared.get) == ()


def test_gate_15_reads_cli_commands_imported_by_a_tsconfig_alias(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(
                {"name": "kit-monorepo", "private": True, "workspaces": ["packages/tool"]}
            ),
            **FILES,
            "packages/tool/package.json": json.dumps({"name": "tool", "bin": "dist/cli.js"}),
            "packages/tool/src/cli.ts": (
                'import yargs from "yargs";\n'
                'import serveCmd from "@kit/commands/serve/command";\n'
                "yargs(process.argv.slice(2)).command(serveCmd).parse();\n"
            ),
            "libs/commands/serve/src/command.ts": (
                'import type { CommandModule } from "yargs";\n'
                "const command: CommandModule = {\n"
                '  command: "serve",\n  describe: "serve it",\n'
                '  builder: { port: { type: "number" } },\n  handler() {},\n};\n'
                "export default command;\n"
            ),
        },
    )
    post = make_post("Run it:\n\n```bash\ntool serve --port 1\ntool serv\n```\n", tmp_path)
    card = gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache", package="tool"))
    assert [(v["kind"], v["name"]) for v in card.detail["violations"]] == [("cli_command", "serv")]
    assert "libs/commands/serve/src/command.ts" in card.detail["cli"]["read"]
