"""Gate 15, code_samples: the API a code sample uses exists at the ref."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_postgates.config import Settings as PlainSettings
from pytest_postgates.config import SettingsError, apply
from pytest_postgates.gates import BY_NAME, POSITION, default_settings
from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import git, make_post, make_repo, repo_context

PACKAGE = "@acme/kit"
MANIFEST = {
    "name": PACKAGE,
    "type": "module",
    "bin": {"kit": "./dist/cli/index.js"},
    "exports": {
        ".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"},
        "./server": "./dist/server/index.js",
        "./processors/*": "./dist/processors/*.js",
    },
}
TS_FILES = {
    "package.json": json.dumps(MANIFEST),
    # index: a star re-export that cycles back, an aliased re-export, a default export.
    "src/lib/index.ts": (
        'export * from "./a.js";\n'
        'export { Real as Renamed, helper } from "./b.js";\n'
        'import { Engine } from "./engine.js";\n'
        "export { Engine };\n"
        'export type { Options } from "./types.js";\n'
        "export default class Kit { run(): void {} }\n"
    ),
    "src/lib/a.ts": (
        'export * from "./index.js";\n'  # the cycle
        "export const alpha = 1;\n"
        "export class Base { baseMethod(): void {} static baseStatic(): void {} }\n"
        "export enum Mode { Fast, Slow }\n"
    ),
    "src/lib/b.ts": (
        'import { Base } from "./a.js";\n'
        "export class Real extends Base {\n"
        "  static fromConfig(): Real { return new Real(); }\n"
        "  constructor(private readonly secret: string) { super(); }\n"
        "  generate(): string { return ''; }\n"
        "  get status(): string { return ''; }\n"
        "  count = 0;\n"
        "}\n"
        "export function helper(): void {}\n"
    ),
    "src/lib/engine.ts": (
        'import { EventEmitter } from "events";\n'
        "export class Engine extends EventEmitter { start(): void {} }\n"
    ),
    "src/lib/types.ts": "export interface Options { model: string }\n",
    "src/lib/server/index.ts": "export const createServer = () => 1;\n",
    "src/lib/processors/archive/index.ts": "export const archive = 1;\n",
    "src/lib/processors/pdf.ts": "export const pdf = 1;\n",
    # A yargs CLI: a command module, nested commands, an options table, aliases.
    "src/cli/index.ts": (
        'import yargs from "yargs";\n'
        'import { generateCommand } from "./commands.js";\n'
        "yargs(process.argv.slice(2))\n"
        "  .command(generateCommand)\n"
        '  .command("models <sub>", "models", (y) => y.command("list", "list"))\n'
        '  .option("debug", { type: "boolean", alias: ["verbose-log"] })\n'
        "  .parse();\n"
    ),
    "src/cli/commands.ts": (
        'import type { CommandModule } from "yargs";\n'
        "export const generateCommand: CommandModule = {\n"
        '  command: ["generate [input]", "gen"],\n'
        '  describe: "generate text",\n'
        '  builder: { temperature: { type: "number" }, maxTokens: { type: "number" } },\n'
        "  handler: () => {},\n"
        "};\n"
    ),
}


@pytest.fixture(scope="module")
def ts_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("ts"), TS_FILES)


def _check(body: str, tmp_path: Path, repo: Path, **settings: object) -> Scorecard:
    return gate.GATE.evaluate(
        make_post(body, tmp_path), repo_context(repo, tmp_path / "cache", **settings)
    )


def _ts(code: str) -> str:
    return f"Intro.\n\n```typescript\n{code}\n```\n"


def _sh(code: str) -> str:
    return f"Run it:\n\n```bash\n{code}\n```\n"


def _names(card: Scorecard) -> list[tuple[str, str]]:
    return [(v["kind"], v["name"]) for v in card.detail["violations"]]


def test_registered_right_after_gate_14_and_advisory_by_default() -> None:
    assert POSITION[15] == POSITION[14] + 1
    assert BY_NAME["code_samples"] is gate.GATE
    assert gate.GATE.advisory is True
    settings = apply(PlainSettings(), {"gates": {"code_samples": {"advisory": False}}}, Path(), "t")
    assert settings.is_advisory("code_samples", gate.GATE.advisory) is False


def test_real_names_through_re_export_chains_aliases_and_a_cycle(
    tmp_path: Path, ts_repo: Path
) -> None:
    code = (
        'import Kit, { alpha, Renamed, Mode, Engine, helper } from "@acme/kit";\n'
        'import type { Options } from "@acme/kit";\n'
        'export { Base } from "@acme/kit";\n'
        'import { createServer } from "@acme/kit/server";'
    )
    card = _check(_ts(code), tmp_path, ts_repo)
    assert card.verdict == "PASS", card.detail
    assert card.detail["checked_by_kind"]["export"] == 9
    assert card.detail["resolved"] == {
        "@acme/kit": "src/lib/index.ts",
        "@acme/kit/server": "src/lib/server/index.ts",
    }
    assert "src/lib/b.ts" in card.detail["sources_read"]


def test_invented_export_is_a_violation_with_close_names(tmp_path: Path, ts_repo: Path) -> None:
    code = 'import { Reel, Real, KitSession } from "@acme/kit";'
    card = _check(_ts(code), tmp_path, ts_repo)
    assert card.verdict == "FAIL"
    assert _names(card) == [("named_export", "Reel"), ("named_export", "Real"),
                            ("named_export", "KitSession")]  # fmt: skip
    # `Real` is exported only under its alias, and the feedback says so.
    assert "Renamed" in card.findings[1].fix or "Real" not in card.findings[1].fix
    assert card.findings[0].code == "UNKNOWN_EXPORT"
    assert card.detail["violations"][0]["where_looked"] == "src/lib/index.ts"


def test_require_destructuring_and_namespace_members(tmp_path: Path, ts_repo: Path) -> None:
    code = (
        'const { alpha, omega } = require("@acme/kit");\n'
        'import * as kit from "@acme/kit";\n'
        "kit.helper();\n"
        "kit.nothing();"
    )
    card = _check(_ts(code), tmp_path, ts_repo)
    assert _names(card) == [("named_export", "omega"), ("named_export", "nothing")]


def test_members_of_classes_instances_and_inherited_ones(tmp_path: Path, ts_repo: Path) -> None:
    code = (
        'import { Renamed, Engine } from "@acme/kit";\n'
        "const r = new Renamed('k');\n"
        "r.generate(); r.status; r.count; r.secret; r.baseMethod();\n"
        "Renamed.fromConfig(); Renamed.baseStatic();\n"
        "r.generateStream();\n"
        "Renamed.generate();\n"
        "const e = new Engine();\n"
        "e.start(); e.on('x', () => {}); e.stop();"
    )
    card = _check(_ts(code), tmp_path, ts_repo)
    assert _names(card) == [
        ("member", "Renamed.generateStream"),
        ("member", "Renamed.generate"),
        ("member", "Engine.stop"),
    ]
    assert "instance member" in card.detail["violations"][1]["reason"]
    assert "generate" in card.findings[0].fix  # close real name suggested


def test_default_import_of_a_module_without_default(tmp_path: Path, ts_repo: Path) -> None:
    card = _check(_ts('import createServer from "@acme/kit/server";'), tmp_path, ts_repo)
    assert _names(card) == [("default_export", "default")]
    assert card.findings[0].code == "NO_DEFAULT_EXPORT"


def test_missing_target_when_the_exports_source_does_not_exist(
    tmp_path: Path, ts_repo: Path
) -> None:
    code = (
        'import { pdf } from "@acme/kit/processors/pdf";\n'
        'import { archive } from "@acme/kit/processors/archive";'
    )
    card = _check(_ts(code), tmp_path, ts_repo)
    assert _names(card) == [("missing_target", "@acme/kit/processors/archive")]
    reason = card.detail["violations"][0]["reason"]
    assert "src/lib/processors/archive/index.ts exists" in reason
    assert "dist/processors/archive.js" in reason


def test_chains_and_values_of_unknown_type_are_unjudged_not_grounded(
    tmp_path: Path, ts_repo: Path
) -> None:
    code = (
        'import { Renamed, helper } from "@acme/kit";\n'
        "const r = new Renamed('k');\n"
        "const out = r.generate();\n"
        "out.text.length;\n"
        "r.status.trim();\n"
        "helper.call;"
    )
    card = _check(_ts(code), tmp_path, ts_repo)
    assert card.verdict == "PASS"
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("type of the value" in r and "out.text" in r for r in reasons)
    # `status` is declared a string: a chain past it is not the product's to judge.
    assert any("r.status.trim" in r and "Real.status declares no product class" in r
               for r in reasons)  # fmt: skip
    assert all({"line", "text", "reason"} <= set(u) for u in card.detail["unjudged"])


def test_yargs_commands_and_flags(tmp_path: Path, ts_repo: Path) -> None:
    code = (
        "npx @acme/kit generate 'hi' --temperature 0.2 --max-tokens=5 --maxTokens 3\n"
        "kit gen --no-debug --verbose-log --help\n"
        "pnpm dlx @acme/kit@latest models list\n"
        "kit generat 'hi'\n"
        "kit generate --temperatur 0.2\n"
        "bunx @acme/kit <command> --<flag>"
    )
    card = _check(_sh(code), tmp_path, ts_repo)
    assert _names(card) == [("cli_command", "generat"), ("cli_flag", "--temperatur")]
    assert "--temperature" in card.findings[1].fix
    assert "generate" in card.findings[0].fix
    assert card.detail["cli"]["frameworks"] == ["yargs"]
    assert {u["reason"] for u in card.detail["unjudged"]} >= {
        "<command> is a placeholder, not a command"
    }


def test_advisory_override_makes_it_hard(tmp_path: Path, ts_repo: Path) -> None:
    code = 'import { Nope } from "@acme/kit";'
    card = _check(_ts(code), tmp_path, ts_repo, advisory_overrides={"code_samples": False})
    assert card.verdict == "FAIL"


# ---------------------------------------------------------------------- commander, unknown


@pytest.fixture(scope="module")
def commander_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    manifest = {"name": "tool", "bin": "./lib/cli.js", "main": "./lib/index.js"}
    return make_repo(
        tmp_path_factory.mktemp("commander"),
        {
            "package.json": json.dumps(manifest),
            "lib/index.js": (
                "module.exports = { run, Runner };\nfunction run() {}\nclass Runner {}\n"
            ),
            "lib/cli.js": (
                'const { Command, Option } = require("commander");\n'
                'const program = new Command("tool");\n'
                'program.version("1.0").option("-t, --temperature <value>", "t");\n'
                'program.command("serve <dir>").option("--port <n>").option("--no-open");\n'
                'program.addOption(new Option("--log-level <level>"));\n'
            ),
        },
    )


def test_commander_commands_and_flags(tmp_path: Path, commander_repo: Path) -> None:
    code = (
        "tool serve . --port 8080 --no-open --log-level debug --version\n"
        "tool serv\ntool serve --prot 1"
    )
    card = _check(_sh(code), tmp_path, commander_repo)
    assert _names(card) == [("cli_command", "serv"), ("cli_flag", "--prot")]
    card = _check(_ts('const { run, walk } = require("tool");'), tmp_path, commander_repo)
    assert _names(card) == [("named_export", "walk")]


def test_a_yargs_command_named_at_run_time_leaves_the_commands_open(tmp_path: Path) -> None:
    """A CommandModule whose ``command`` is computed (lerna's removed commands, registered in
    a loop) is a command the gate cannot name: the command table is open there, so a word
    no written command has is unjudged with the place, never called missing."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "tool", "bin": "./cli.js"}),
            "cli.js": (
                'const yargs = require("yargs");\n'
                "const cli = yargs(process.argv.slice(2));\n"
                'cli.command({ command: "run", describe: "run it", handler() {} });\n'
                '["add", "link"].forEach((name) => {\n'
                "  cli.command({\n"
                '    command: name === "add" ? "add <pkg>" : name,\n'
                '    describe: "removed",\n'
                "    handler() {},\n"
                "  });\n"
                "});\n"
            ),
        },
    )
    card = _check(_sh("tool run\ntool add foo\ntool link"), tmp_path, repo)
    assert _names(card) == []
    reasons = " ".join(u["reason"] for u in card.detail["unjudged"])
    assert "the CLI adds commands at run time (cli.js:5" in reasons, reasons


def test_in_a_prompted_fence_only_the_prompted_lines_are_commands(
    tmp_path: Path, commander_repo: Path
) -> None:
    # The lines after `$ tool --help` are what it printed: a line of that output that
    # starts with the program's name (`tool deploy  deploy it`) is no command the page runs.
    code = "$ tool --help\n  tool deploy  deploy it\n  tool serv\n$ tool serv"
    card = _check(f"Run it:\n\n```console\n{code}\n```\n", tmp_path, commander_repo)
    assert _names(card) == [("cli_command", "serv")]  # the prompted line's alone


def test_unknown_cli_framework_is_unjudged(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps({"name": "raw", "bin": "./cli.js"}),
            "cli.js": "const args = process.argv.slice(2);\nif (args[0] === 'go') {}\n",
        },
    )
    card = _check(_sh("raw go --fast"), tmp_path, repo)
    assert card.verdict == "PASS" and card.detail["checked"] == 0
    assert "no framework the gate reads" in card.detail["unjudged"][0]["reason"]


# ---------------------------------------------------------------------- Python


@pytest.fixture(scope="module")
def py_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(
        tmp_path_factory.mktemp("py"),
        {
            "pyproject.toml": (
                '[project]\nname = "snake-kit"\n[project.scripts]\nsnake = "snake_kit.cli:main"\n'
            ),
            "snake_kit/__init__.py": (
                "from snake_kit.core import Engine as Engine\n"
                "from .util import *\n__all__ = ['Engine', 'VERSION']\nVERSION = '1'\n"
            ),
            "snake_kit/core.py": "class Engine:\n    def run(self): ...\n\nDEFAULT, OTHER = 1, 2\n",
            "snake_kit/util.py": "def slugify(text): ...\n_private = 1\n",
            "snake_kit/cli.py": (
                "import argparse\nimport click\n\n"
                "def main():\n"
                "    parser = argparse.ArgumentParser()\n"
                "    sub = parser.add_subparsers()\n"
                "    run = sub.add_parser('run', aliases=['r'])\n"
                "    run.add_argument('--fast', action='store_true')\n"
                "    parser.add_argument('-v', '--verbose')\n\n"
                "@click.group()\ndef cli(): ...\n\n"
                "@cli.command(name='export-all')\n@click.option('--dry-run/--no-dry-run')\n"
                "def export_all(dry_run): ...\n"
            ),
        },
    )


def test_python_imports(tmp_path: Path, py_repo: Path) -> None:
    body = (
        "```python\nfrom snake_kit import Engine, VERSION, slugify, core, Motor\n"
        "from snake_kit.core import DEFAULT, OTHER\nimport snake_kit.core\nimport snake_kit.nope\n"
        "import os\n```\n"
    )
    card = _check(body, tmp_path, py_repo)
    assert _names(card) == [
        ("python_import", "snake_kit.Motor"),
        ("python_import", "snake_kit.nope"),
    ]


def test_argparse_and_click_definitions(tmp_path: Path, py_repo: Path) -> None:
    code = (
        "snake run --fast -v x\nsnake r --verbose\nsnake export-all --dry-run\n"
        "snake walk\nsnake run --slow\npython -m snake_kit run --fast\npython3 -m snake_kit wlk"
    )
    card = _check(_sh(code), tmp_path, py_repo)
    assert _names(card) == [
        ("cli_command", "walk"),
        ("cli_flag", "--slow"),
        ("cli_command", "wlk"),
    ]
    assert card.detail["cli"]["frameworks"] == ["argparse", "click"]


def test_typer_commands_and_options(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": (
                '[project]\nname = "tyke"\n[project.scripts]\ntyke = "tyke.app:app"\n'
            ),
            "tyke/__init__.py": "",
            "tyke/app.py": (
                "import typer\n\napp = typer.Typer()\n\n"
                "@app.command()\n"
                "def serve(port: int = typer.Option(8000, '--port', '-p')) -> None: ...\n\n"
                "@app.command()\n"
                "def build_site(dry_run: bool = typer.Option(False)) -> None: ...\n"
            ),
            # Reached by the package scan, names no framework: never parsed for the CLI.
            "tyke/util.py": "def helper() -> None: ...\n",
        },
    )
    code = "tyke serve --port 1\ntyke build-site --dry-run\ntyke serve --prot 2\ntyke deploy"
    card = _check(_sh(code), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--prot"), ("cli_command", "deploy")]
    assert card.detail["cli"]["frameworks"] == ["typer"]
    assert card.detail["cli"]["read"] == ["tyke/app.py"]


def test_a_script_whose_module_lives_in_a_workspace_member_is_read(tmp_path: Path) -> None:
    """A console script naming a module that only a workspace member's src layout holds
    (``packages/kitcli/src/kitcli``): its parser is read, as under the root or ``src/``;
    before, every flag was unjudged ("the script's module ... is not a tracked file")."""
    repo = make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": ('[project]\nname = "kit"\n[project.scripts]\nkit = "kitcli:main"\n'),
            "packages/kitlib/src/kitlib/__init__.py": "def load(path): ...\n",
            "packages/kitcli/src/kitcli/__init__.py": "from kitcli._cli import main\n",
            "packages/kitcli/src/kitcli/_cli.py": (
                "import argparse\n\n"
                "def main():\n"
                "    parser = argparse.ArgumentParser()\n"
                "    parser.add_argument('--output')\n"
                "    parser.parse_args()\n"
            ),
            # A test's copy of the module is never taken for the script's.
            "tests/fixtures/kitcli/__init__.py": "",
        },
    )
    card = _check(_sh("kit --output out.json\nkit --outptu x"), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--outptu")]
    assert card.detail["cli"]["read"] == ["packages/kitcli/src/kitcli/_cli.py"]


def test_typer_options_declared_in_annotated(tmp_path: Path) -> None:
    # typer's recommended style: the Option in the parameter's Annotated type, with or
    # without a default; a bare `Annotated[int, typer.Option()]` is named after the parameter.
    repo = make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": (
                '[project]\nname = "tyke"\n[project.scripts]\ntyke = "tyke.app:app"\n'
            ),
            "tyke/__init__.py": "",
            "tyke/app.py": (
                "from typing import Annotated\n\nimport typer\n\napp = typer.Typer()\n\n"
                "@app.command()\n"
                "def serve(\n"
                "    host: Annotated[str, typer.Option('--bind')],\n"
                "    port: Annotated[int, typer.Option('-p', '--port')] = 8000,\n"
                "    log_level: Annotated[str, typer.Option()] = 'info',\n"
                ") -> None: ...\n"
            ),
        },
    )
    code = "tyke serve --port 1 --log-level debug --bind 0.0.0.0\ntyke serve --prot 2\n"
    card = _check(_sh(code), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--prot")]
    assert card.detail["checked_by_kind"]["flag"] == 4


def test_tsconfig_out_dir_and_root_dir_map_the_build_to_its_source(tmp_path: Path) -> None:
    manifest = {"name": "mapped", "exports": {".": "./build/out/index.js"}}
    repo = make_repo(
        tmp_path / "repo",
        {
            "package.json": json.dumps(manifest),
            # JSON with comments and a trailing comma, as tsc accepts it.
            "tsconfig.json": (
                '{\n  // emitted under build/out\n  "compilerOptions": {\n'
                '    "outDir": "./build/out", "rootDir": "./source",\n  },\n}\n'
            ),
            "source/index.ts": 'export { x } from "./x.js";\n',
            "source/x.ts": "export const x = 1;\n",
        },
    )
    card = _check(_ts('import { x, y } from "mapped";'), tmp_path, repo)
    assert _names(card) == [("named_export", "y")]
    assert card.detail["resolved"] == {"mapped": "source/index.ts"}
    assert card.detail["sources_read"] == ["source/index.ts", "source/x.ts"]


# ---------------------------------------------------------------------- properties


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_any_fence_content_yields_a_card(tmp_path: Path, ts_repo: Path, content: str) -> None:
    body = f"```ts\n{content}\n```\n\n```bash\nkit {content[:40]}\n```\n"
    card = _check(body, tmp_path, ts_repo)
    assert card.verdict in ("PASS", "FAIL")
    for violation in card.detail["violations"]:
        assert violation["kind"] in gate.CODES


def test_tables_are_built_once_per_commit_and_shared_through_the_cache(
    tmp_path: Path, ts_repo: Path
) -> None:
    cache = tmp_path / "cache"
    _ = gate.GATE.evaluate(make_post(_ts('import { alpha } from "@acme/kit";'), tmp_path),
                           repo_context(ts_repo, cache))  # fmt: skip
    built = sorted(p.name for p in cache.glob("codetables-*.jsonl"))
    assert len(built) == 1
    commit = git(ts_repo, "rev-parse", "HEAD").strip()
    assert commit in built[0]


def test_source_map_setting(tmp_path: Path) -> None:
    manifest: dict[str, Any] = {"name": "odd", "exports": {".": "./out/main.js"}}
    repo = make_repo(
        tmp_path / "repo",
        {"package.json": json.dumps(manifest), "code/main.ts": "export const x = 1;\n"},
    )
    code = 'import { x, y } from "odd";'
    card = _check(_ts(code), tmp_path, repo)
    assert card.detail["violations"] == [] and "source_map" in card.detail["unjudged"][0]["reason"]
    card = _check(_ts(code), tmp_path, repo, source_map=(("out/", "code/"),))
    assert _names(card) == [("named_export", "y")]
    with pytest.raises(SettingsError):
        apply(default_settings(), {"source_map": ["dist"]}, Path(), "t")
    parsed = apply(default_settings(), {"source_map": {"dist/": "src/lib/"}}, Path(), "t")
    assert parsed.for_gate(gate.CodeSamplesSettings).source_map == (("dist/", "src/lib/"),)


# ---------------------------------------------------------------------- through pytest


@pytest.fixture
def kit_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path / "xdg"))
    for name, content in TS_FILES.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    posts = pytester.path / "_posts"
    posts.mkdir()
    front = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"
    (posts / "2026-01-01-good.md").write_text(front + _ts('import { alpha } from "@acme/kit";'))
    (posts / "2026-01-01-bad.md").write_text(front + _ts('import { KitSession } from "@acme/kit";'))
    git(pytester.path, "init", "-q")
    git(pytester.path, "add", "-A")
    git(pytester.path, "commit", "-qm", "kit")
    return pytester


@pytest.mark.parametrize("workers", [None, "2"])
def test_advisory_through_pytest_and_hard_when_configured(
    kit_project: pytest.Pytester, workers: str | None
) -> None:
    xdist = ["-n", workers] if workers else []
    result = kit_project.runpytest_subprocess("-rA", "--postgates-only=15", *xdist)
    result.assert_outcomes(xpassed=1, xfailed=1)
    kit_project.makepyprojecttoml("[tool.postgates.gates.code_samples]\nadvisory = false\n")
    result = kit_project.runpytest_subprocess("-rA", "--postgates-only=15", *xdist)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*2026-01-01-bad.md:9: UNKNOWN_EXPORT KitSession*"])
    # One tables file for the commit, shared by the workers through the cache folder.
    tables = list((kit_project.path / "xdg").rglob("codetables-*.jsonl"))
    assert len(tables) == 1
    rows = [json.loads(line) for line in tables[0].read_text().splitlines() if line]
    assert "src/lib/index.ts" in {row["path"] for row in rows if "table" in row}


_COUNT_PARSES = """
import json, os
from pathlib import Path
import pytest_postgates.post as post
import pytest_postgates.runner as runner
import pytest_postgates.helpers.js_docs_names as docs_names

PARSED = []
_parse = post.parse_post

def counted(path, *args, **kwargs):
    PARSED.append(Path(path).name)
    return _parse(path, *args, **kwargs)

post.parse_post = runner.parse_post = docs_names.parse_post = counted

def pytest_sessionfinish(session):
    Path(os.environ["PARSED_LOG"]).write_text(json.dumps(PARSED))
"""


def test_a_page_parsed_for_its_folders_stamp_is_the_runners_parse(
    kit_project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gate 15's cache key stamps every page of the post's folder (each page parsed), and
    the runner parses each post it runs: one parse of each page in a run, the stamp's
    handed to the runner (post.ParsedAhead); the cards as before."""
    kit_project.makeconftest(_COUNT_PARSES)
    log = kit_project.path / "parsed.json"
    monkeypatch.setenv("PARSED_LOG", str(log))
    result = kit_project.runpytest_subprocess("-rA", "--postgates-only=15")
    result.assert_outcomes(xpassed=1, xfailed=1)  # the bad post's finding, advisory
    parsed = json.loads(log.read_text())
    assert sorted(parsed) == ["2026-01-01-bad.md", "2026-01-01-good.md"], parsed


def test_a_repository_without_code_or_package_is_skipped_with_the_reason(tmp_path: Path) -> None:
    """A Jekyll blog (no package.json, no Python package, no code): its posts' samples have
    no product to be checked against; the gate says so (SKIP), not that it broke (issue 27:
    9 ERRORs on a blog's posts)."""
    blog = make_repo(
        tmp_path / "blog",
        {"_config.yml": "title: a blog\n", "_layouts/post.html": "<html>{{ content }}</html>\n"},
    )
    card = _check(_ts('import { x } from "y";') + _sh("pip install numpy"), tmp_path, blog)
    assert card.verdict == "SKIP", card.detail
    assert "no package" in card.detail["reason"] and "no JavaScript" in card.detail["reason"]
    # A blog whose site serves scripts of its own (assets/js/) has no product code either.
    served = make_repo(
        tmp_path / "served",
        {
            "_config.yml": "title: a blog\n",
            "_layouts/post.html": "<html>{{ content }}</html>\n",
            "assets/js/lightbox.js": "export const open = () => 1;\n",
        },
    )
    card = _check(
        _ts('import { x } from "y";') + "Then:\n\n```python\nimport numpy\n```\n", tmp_path, served
    )
    assert card.verdict == "SKIP", card.detail
    # Code without a package name is still an ERROR that says what to set.
    coded = make_repo(tmp_path / "coded", {"lib/tool.js": "export const x = 1;\n"})
    card = _check(_ts('import { x } from "y";'), tmp_path, coded)
    assert card.verdict == "ERROR" and "no package name" in card.detail["error"]


def _typer_tool(tmp_path: Path, extra: str = "") -> Path:
    """A typer CLI like typer's own: a callback taking the reader's program as its
    argument, a sub-app added under a name, and (``extra``) more of the app's code."""
    return make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": (
                '[project]\nname = "tyke"\n[project.scripts]\ntyke = "tyke.cli:main"\n'
            ),
            "tyke/__init__.py": "",
            "tyke/cli.py": (
                "import typer\n\napp = typer.Typer()\nutils_app = typer.Typer()\n"
                'app.add_typer(utils_app, name="utils")\n\n'
                "@app.callback()\n"
                "def callback(path_or_module: str = typer.Argument(None)) -> None: ...\n\n"
                "@utils_app.command()\n"
                "def docs(output: str = typer.Option('')) -> None: ...\n"
                f"{extra}"
            ),
        },
    )


def test_a_program_the_reader_runs_is_not_a_command_of_the_tool(tmp_path: Path) -> None:
    repo = _typer_tool(tmp_path)
    code = (
        "tyke main.py run --name Camila\n"
        "tyke ./src/app.py utils docs\n"
        "tyke my_package.main run\n"
        "tyke utils --output x\n"
        "tyke utlis"
    )
    card = _check(_sh(code), tmp_path, repo)
    # `utils` is a command (add_typer's name); the reader's programs are not commands.
    assert _names(card) == [("cli_command", "utlis")]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("main.py is a program the reader runs with tyke" in r for r in reasons)
    assert any("my_package.main is a program" in r for r in reasons)


def test_commands_added_at_run_time_leave_unknown_commands_unjudged(tmp_path: Path) -> None:
    # typer's own CLI adds the reader's app as `run` (`cli.add_command(click_obj)`).
    extra = "\ndef maybe_add_run(cli, made) -> None:\n    cli.add_command(made)\n"
    repo = _typer_tool(tmp_path, extra)
    card = _check(_sh("tyke run --name Camila\ntyke utils --outptu x"), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--outptu")]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("run: the CLI adds commands at run time (tyke/cli.py" in r for r in reasons)


def test_flags_are_judged_per_subcommand_where_the_parser_ties_them(tmp_path: Path) -> None:
    repo = _typer_tool(
        tmp_path,
        "\n@app.command()\ndef serve(port: int = typer.Option(8000)) -> None: ...\n",
    )
    code = (
        "tyke serve --port 1 --help\n"
        "tyke utils docs --output x\n"
        "tyke utils docs --port 1\n"
        "tyke serve --output x\n"
        "tyke --prot 2"
    )
    card = _check(_sh(code), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--port"), ("cli_flag", "--output"),
                            ("cli_flag", "--prot")]  # fmt: skip
    reasons = [v["reason"] for v in card.detail["violations"]]
    assert reasons[0].startswith("tyke docs has no option --port (an option of serve)")
    assert reasons[1].startswith("tyke serve has no option --output (an option of docs)")
    assert "for any command" in reasons[2]


@pytest.mark.parametrize(
    "pyproject",
    [
        '[tool.poetry]\nname = "tyke"\n\n[tool.poetry.scripts]\ntyke = "tyke.cli:main"\n',
        # PDM's metadata before PEP 621
        '[tool.pdm]\nname = "tyke"\n\n[tool.pdm.cli]\ntyke = "tyke.cli:main"\n',
    ],
)
def test_a_poetry_or_legacy_pdm_script_runs_the_products_cli(
    pyproject: str, tmp_path: Path
) -> None:
    repo = _typer_tool(tmp_path)
    (repo / "pyproject.toml").write_text(pyproject)
    git(repo, "commit", "-qam", "scripts")
    card = _check(_sh("tyke utils docs --output x\ntyke utlis"), tmp_path, repo)
    assert _names(card) == [("cli_command", "utlis")]


def _option_wrapper_tool(tmp_path: Path) -> Path:
    """An argparse CLI like pdm's: options made as objects of a wrapper class that forwards
    to ``add_argument``, added to each command's parser in a method, and a ``run`` command
    handing the rest of its line to the script it runs."""
    return make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "pdx"\n[project.scripts]\npdx = "pdx.cli:main"\n',
            "pdx/__init__.py": "",
            "pdx/cli.py": (
                "import argparse\n\n"
                "class Option:\n"
                "    def __init__(self, *args, **kwargs):\n"
                "        self.args, self.kwargs = args, kwargs\n"
                "    def add_to_parser(self, parser):\n"
                "        parser.add_argument(*self.args, **self.kwargs)\n\n"
                'lockfile_option = Option("-L", "--lockfile")\n\n'
                "def main():\n"
                "    parser = argparse.ArgumentParser()\n"
                "    commands = parser.add_subparsers()\n"
                '    lock = commands.add_parser("lock")\n'
                "    lockfile_option.add_to_parser(lock)\n"
                '    run = commands.add_parser("run")\n'
                '    run.add_argument("--list", action="store_true")\n'
                '    run.add_argument("script", nargs="?")\n'
                '    run.add_argument("args", nargs=argparse.REMAINDER)\n'
                '    commands.add_parser("exec")\n'
            ),
            # A command module whose parser comes as a parameter (pdm's own shape): its
            # pass-through is tied to no command the reader can name.
            "pdx/exec_cmd.py": (
                "import argparse\n\n"
                "def add_arguments(parser: argparse.ArgumentParser) -> None:\n"
                '    parser.add_argument("--env")\n'
                '    parser.add_argument("command")\n'
                '    parser.add_argument("args", nargs=argparse.REMAINDER)\n'
            ),
        },
    )


def test_options_a_wrapper_forwards_and_what_a_pass_through_command_hands_on(
    tmp_path: Path,
) -> None:
    card = _check(
        _sh(
            "pdx lock --lockfile py38.lock\npdx run test --user --provided\npdx run --lsit x\n"
            "pdx exec --env=e ls --color"
        ),
        tmp_path,
        _option_wrapper_tool(tmp_path),
    )
    # --lockfile is an option the file declares through its wrapper; --user and --provided
    # are the script's; --lsit, before the script, is run's own and misspelt.
    assert _names(card) == [("cli_flag", "--lsit")]
    reasons = [u["reason"] for u in card.detail["unjudged"]]
    assert any("--user: pdx run hands what follows test to it" in r for r in reasons), reasons
    assert any("--color: pdx exec hands what follows ls to it" in r for r in reasons), reasons


def test_options_of_the_modules_own_click_decorators_are_the_commands(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "mkd"\n[project.scripts]\nmkd = "mkd.cli:cli"\n',
            "mkd/__init__.py": "",
            "mkd/cli.py": (
                "import click\n\n"
                "def add_options(*opts):\n"
                "    def inner(f):\n"
                "        for option in reversed(opts):\n"
                "            f = option(f)\n"
                "        return f\n"
                "    return inner\n\n"
                "common_config_options = add_options(\n"
                '    click.option("-f", "--config-file"),\n'
                '    click.option("-t", "--theme"),\n)\n\n'
                "@click.group()\n"
                '@click.version_option("1.0", "-V", "--version")\n'
                "def cli(): ...\n\n"
                '@cli.command(name="deploy")\n'
                "@common_config_options\n"
                '@click.option("--force", is_flag=True)\n'
                "def deploy_command(config_file, theme, force): ...\n\n"
                '@cli.command(name="get-deps")\n'
                '@click.option("-f", "--config-file")\n'
                "def get_deps(config_file): ...\n"
            ),
        },
    )
    code = "mkd --version\nmkd deploy --config-file x.yml --theme y\nmkd get-deps --theme y"
    card = _check(_sh(code), tmp_path, repo)
    assert _names(card) == [("cli_flag", "--theme")]  # get-deps has no --theme
