"""The product's command line read from JavaScript bins and parsers beyond yargs and
commander (issue 24): a bin without a suffix read by its shebang (a Python script's too),
command-line-args option definitions, meow's flags, and a parser read only in part leaving
the flag set open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.repomap import source_language
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.model_grounding import judge_flag
from tests.helpers import make_post, make_repo, repo_context, token_outcome


def _ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)


@pytest.mark.parametrize(
    ("path", "text", "language"),
    [
        ("bin/cli", "#!/usr/bin/env node\nrequire('x')\n", "javascript"),
        ("bin/cli", "#!/usr/bin/env -S node --no-warnings\n", "javascript"),
        ("bin/cli", "#!/usr/local/bin/node\n", "javascript"),
        ("bin/cli", "#!/usr/bin/env ts-node\n", "typescript"),
        ("bin/tool", "#!/usr/bin/python3.12\nimport sys\n", "python"),
        ("bin/tool", "#!/bin/sh\nexec node x.js\n", None),  # a shell script
        ("bin/tool", "node is not a shebang\n", None),
        ("bin/cli.sh", "#!/usr/bin/env node\n", None),  # a suffix tells, and is not ours
        ("lib/cli.js", "", "javascript"),  # the suffix decides
        ("LICENSE", "MIT License\n", None),
    ],
)
def test_a_source_files_language_is_its_suffixs_else_its_shebangs(
    path: str, text: str, language: str | None
) -> None:
    assert source_language(path, text) == language


NCU_BIN = (
    "#!/usr/bin/env node\n\n"
    "var program = require('commander');\n\n"
    "program\n"
    "    .version(require('../package').version)\n"
    "    .option('-j, --jsonAll', 'output new package.json')\n"
    "    .option('--jsonUpgraded', 'output upgraded dependencies in json')\n"
    "    .option('-u, --upgrade', 'upgrade package.json dependencies')\n\n"
    "program.parse(process.argv);\n"
)


def test_a_bin_without_a_suffix_is_read_by_its_shebang(tmp_path: Path) -> None:
    """A package.json ``bin`` naming ``bin/ncu`` (``#!/usr/bin/env node``, no suffix): the
    model reads its parser as it reads a ``.js`` bin's, so its flags are judged."""
    manifest = '{"name": "ncu", "bin": {"ncu": "./bin/ncu"}}'
    notes = "#!/bin/sh\n# --jsonFlat is a shell script's word, not a flag of the product\n"
    repo = make_repo(
        tmp_path / "repo", {"package.json": manifest, "bin/ncu": NCU_BIN, "bin/notes": notes}
    )
    ctx = _ctx(repo, tmp_path)
    for line, token, outcome in (
        ("ncu --jsonAll", "--jsonAll", "grounded"),
        ("ncu -u --upgrade", "--upgrade", "grounded"),
        ("ncu --version", "--version", "grounded"),  # commander's .version()
        ("ncu --json", "--json", "ungrounded"),
        ("ncu --jsonFlat", "--jsonFlat", "ungrounded"),
    ):
        body = f"```bash\n{line}\n```\n\nSee `{token}`.\n"
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == (outcome, "model-command"), line
    # Written in prose, a near miss of a declared flag is one too.
    entry = _outcome("Pass `--jsonUpgrade` to it.\n", "--jsonUpgrade", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-cli")
    model = build_model("c", {"bin/ncu": NCU_BIN, "bin/notes": notes})
    assert "json-all" in model.facts.flags and "bin/notes" not in model.facts.unread


def test_a_python_script_without_a_suffix_is_read_by_its_shebang() -> None:
    """A Python script run by its shebang is no module one imports: keyed by its path (it
    names no module of the product), its parser is read; a shell script is not a source."""
    script = "#!/usr/bin/env python3\nimport argparse\n\np = argparse.ArgumentParser()\n"
    script += 'p.add_argument("--fast")\n'
    model = build_model("c", {"bin/tool": script, "tool/__init__.py": "", "bin/run": "#!/bin/sh\n"})
    assert model.facts.flags == {"fast": "bin/tool"} and not model.facts.unread
    assert "bin/tool" not in model.modules and "tool" in model.modules


DEFINITIONS = (
    "module.exports = [\n"
    "  { name: 'output', alias: 'o', type: String, description: 'json or markdown' },\n"
    "  { name: 'json-all', type: Boolean },\n"
    "  { name: 'registry', type: String, multiple: true },\n"
    "];\n"
)
CLA_BIN = (
    "#!/usr/bin/env node\n"
    "const commandLineArgs = require('command-line-args');\n"
    "const definitions = require('../lib/options');\n"
    "const options = commandLineArgs(definitions);\n"
)


def test_command_line_args_definitions_declare_the_products_flags(tmp_path: Path) -> None:
    """command-line-args parses by a list of ``{ name, type, alias }`` definitions, kept in a
    module of their own that imports nothing: their names are the product's flags when the
    product parses with command-line-args, and nothing when it does not."""
    manifest = '{"name": "info", "bin": {"info": "./bin/info"}}'
    files = {"package.json": manifest, "bin/info": CLA_BIN, "lib/options.js": DEFINITIONS}
    ctx = _ctx(make_repo(tmp_path / "repo", files), tmp_path)
    for token, outcome in (
        ("--output", "grounded"),
        ("--json-all", "grounded"),
        ("--output-json", "ungrounded"),  # a near miss of --output
        ("--registy", "ungrounded"),
    ):
        entry = _outcome(f"Pass `{token}` to it.\n", token, tmp_path, ctx)
        assert (entry["outcome"], entry.get("rule")) == (outcome, "model-cli"), token
    entry = _outcome(
        "```bash\ninfo --markdown\n```\n\n`--markdown`.\n", "--markdown", tmp_path, ctx
    )
    assert (entry["outcome"], entry["rule"]) == ("ungrounded", "model-command")
    # The same list in a product that parses with something else declares no flag.
    other = build_model("c", {"lib/options.js": DEFINITIONS, "bin/x.js": "main();\n"})
    assert not other.facts.flags and not other.cli.present


def test_definitions_from_another_package_leave_the_flag_set_open(tmp_path: Path) -> None:
    """A parser also fed definitions the model cannot read (another package's, or a list
    made at run time) takes flags the model cannot list: an undeclared flag is unjudged,
    with the place, never a finding; a declared one still grounds."""
    serve = (
        "const commandLineArgs = require('command-line-args');\n"
        "const { devServer } = require('dev-server/bin/cli-flags');\n"
        "const args = commandLineArgs(devServer, { partial: true });\n"
    )
    manifest = '{"name": "info", "bin": {"info": "./bin/info"}}'
    files = {
        "package.json": manifest,
        "bin/info": CLA_BIN,
        "lib/options.js": DEFINITIONS,
        "lib/serve.js": serve,
    }
    ctx = _ctx(make_repo(tmp_path / "repo", files), tmp_path)
    entry = _outcome("Pass `--output-json` to it.\n", "--output-json", tmp_path, ctx)
    assert (entry["outcome"], entry.get("rule")) == ("unjudged", "model-cli")
    assert "lib/serve.js:3" in entry["reason"] and "dev-server/bin/cli-flags" in entry["reason"]
    entry = _outcome(
        "```bash\ninfo --markdown\n```\n\n`--markdown`.\n", "--markdown", tmp_path, ctx
    )
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-command")
    assert _outcome("Pass `--output`.\n", "--output", tmp_path, ctx)["outcome"] == "grounded"
    # A list spread with one made at run time is open too; one written here is not.
    listed = "module.exports = [...core, { name: 'x', type: String }];\n"
    made = "const core = cli.getArguments();\n" + listed
    written = "const core = [{ name: 'y', type: Boolean }];\n" + listed
    for text, open_ in ((made, True), (written, False)):
        model = build_model("c", {"bin/info.js": CLA_BIN, "lib/options.js": text})
        assert bool(model.facts.open_flags) is open_, text
        assert "x" in model.facts.flags


MEOW_HELP = "`\n  Usage\n    $ ncu [options]\n`"


def test_meows_flag_spec_declares_the_products_flags(tmp_path: Path) -> None:
    """meow 4 and later: ``flags`` declares each flag (a boolean one negated too, as its
    parser takes ``--no-x``), ``alias`` a long alias; meow adds ``--help`` and ``--version``."""
    cli = (
        "import meow from 'meow';\n"
        f"const cli = meow({MEOW_HELP}, {{\n"
        "  flags: {\n"
        "    jsonAll: { type: 'boolean', alias: 'j' },\n"
        "    registry: { type: 'string', alias: 'registry-url' },\n"
        "  },\n"
        "});\n"
    )
    manifest = '{"name": "ncu", "type": "module", "bin": {"ncu": "./cli.js"}}'
    ctx = _ctx(make_repo(tmp_path / "repo", {"package.json": manifest, "cli.js": cli}), tmp_path)
    for line, token, outcome in (
        ("ncu --json-all", "--json-all", "grounded"),
        ("ncu --jsonAll", "--jsonAll", "grounded"),
        ("ncu --no-json-all", "--no-json-all", "grounded"),
        ("ncu --registry-url x", "--registry-url", "grounded"),
        ("ncu --help", "--help", "grounded"),
        ("ncu --json", "--json", "ungrounded"),
    ):
        body = f"```bash\n{line}\n```\n\nSee `{token}`.\n"
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == (outcome, "model-command"), line


PRETTY_BIN = (
    "#!/usr/bin/env node\n"
    "const args = require('args')\n"
    "args\n"
    "  .option(['c', 'colorize'], 'Force adding color sequences to the output')\n"
    "  .option(['t', 'translateTime'], 'Display epoch timestamps as UTC ISO format')\n"
    "  .option('search', 'specify a search pattern')\n"
    "  .options([{ name: ['k', 'errorLikeObjectKeys'], description: 'error keys' }])\n"
    "const opts = args.parse(process.argv)\n"
)


def test_the_args_packages_options_declare_the_products_flags(tmp_path: Path) -> None:
    """args names an option by a string or by an array of its short and long names
    (``.option(["c", "colorize"], ...)``, ``.options([{ name: [...] }])``), and adds
    ``--help`` and ``--version``: the flag set is closed, so a near miss is a finding."""
    model = build_model("c", {"bin.js": PRETTY_BIN})
    assert not model.facts.open_flags
    for flag in ("--colorize", "--translateTime", "--search", "--errorLikeObjectKeys"):
        assert model.cli.flag(flag) == "bin.js", flag
    assert model.cli.flag("--help") and model.cli.flag("--version")
    decision = judge_flag("--translateTimes", model)
    assert decision is not None and decision.outcome == "ungrounded"
    named_at_run_time = PRETTY_BIN.replace("['c', 'colorize']", "[short, long]")
    assert build_model("c", {"bin.js": named_at_run_time}).facts.open_flags


def test_meow_without_a_flag_spec_leaves_the_flag_set_open(tmp_path: Path) -> None:
    """meow 3 has no flag spec: it hands minimist options (``alias``, ``boolean``,
    ``string``) on, and minimist takes any flag. The names it gives are declared; any
    other flag is unjudged with that reason."""
    cli = (
        "#!/usr/bin/env node\n"
        "var meow = require('meow');\n"
        "var cli = meow(['Usage', '  $ lerna [command]'], {\n"
        "  alias: { independent: 'i', forcePublish: 'force-version' },\n"
        "  boolean: ['canary'],\n"
        "});\n"
    )
    manifest = '{"name": "lerna", "bin": {"lerna": "./bin/lerna.js"}}'
    files = {"package.json": manifest, "bin/lerna.js": cli}
    ctx = _ctx(make_repo(tmp_path / "repo", files), tmp_path)
    for token in ("--independent", "--force-version", "--force-publish", "--canary"):
        assert _outcome(f"Pass `{token}`.\n", token, tmp_path, ctx)["outcome"] == "grounded"
    entry = _outcome("Pass `--exclude` to it.\n", "--exclude", tmp_path, ctx)
    assert (entry["outcome"], entry.get("rule")) == ("unjudged", "model-cli")
    assert "bin/lerna.js:3" in entry["reason"] and "minimist" in entry["reason"]
    body = "```bash\nlerna publish --canaryy\n```\n\nSee `--canaryy`.\n"
    entry = _outcome(body, "--canaryy", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-command")


@pytest.mark.parametrize(
    ("cli", "open_"),
    [
        ("program.option('--upgrade').option('--slow');", False),
        ("for (const f of flags) { program.option(f.flags, f.description); }", True),
        ("program.addOption(new Option(spec.flags));", True),
        ("program.addOption(new Option('--upgrade'));", False),
    ],
)
def test_commander_options_named_at_run_time_leave_the_flag_set_open(cli: str, open_: bool) -> None:
    source = "const { program, Option } = require('commander');\n" + cli + "\nprogram.parse();\n"
    model = build_model("c", {"bin/cli.js": source})
    assert bool(model.facts.open_flags) is open_
    decision = judge_flag("--upgrad", model)  # a near miss, when the set is closed
    assert decision is not None
    assert decision.outcome == ("unjudged" if open_ else "ungrounded")


@pytest.mark.parametrize(
    ("head", "spread", "open_"),
    [
        ("const shared = { verbose: { type: 'boolean' } };", "...shared", False),
        ("import { shared } from 'other-cli/options';", "...shared", True),
        ("", "...CommandFactory.common", False),  # a class written in the file
        ("const shared = loadOptions();", "...shared", True),
        ("", "...require('other-cli/options')", True),
    ],
)
def test_a_yargs_table_spread_from_elsewhere_leaves_the_flag_set_open(
    head: str, spread: str, open_: bool
) -> None:
    source = (
        "import yargs from 'yargs';\n"
        f"{head}\n"
        "class CommandFactory { static common = { quiet: { type: 'boolean' } }; }\n"
        f"yargs.options({{ {spread}, fast: {{ type: 'boolean' }} }}).parse();\n"
    )
    model = build_model("c", {"src/cli.ts": source})
    assert bool(model.facts.open_flags) is open_, model.facts.open_flags
    assert "fast" in model.facts.flags


def test_gate_15_leaves_a_flag_of_an_open_parser_unjudged(tmp_path: Path) -> None:
    """Gate 15 reads the bin's parser from its tables: a flag it does not declare is a
    finding while the options are all written, and unjudged with the place once one is
    named at run time."""
    from pytest_postgates.gates import code_samples

    base = "const { program } = require('commander');\nprogram.option('--upgrade');\n"
    dynamic = "for (const f of extra) { program.option(f.flags); }\n"
    manifest = '{"name": "tool", "bin": {"tool": "./bin/tool.js"}}'
    body = "Run it:\n\n```bash\ntool --upgrad\n```\n"
    for tail, found in (("", True), (dynamic, False)):
        files = {"package.json": manifest, "bin/tool.js": base + tail + "program.parse();\n"}
        repo = make_repo(tmp_path / f"repo{len(tail)}", files)
        ctx = repo_context(repo, tmp_path / f"cache{len(tail)}")
        card = code_samples.GATE.evaluate(make_post(body, tmp_path), ctx)
        names = [(v["kind"], v["name"]) for v in card.detail["violations"]]
        assert names == ([("cli_flag", "--upgrad")] if found else []), tail
        if not found:
            reasons = [u["reason"] for u in card.detail["unjudged"]]
            assert any("takes flags it does not list (bin/tool.js:3)" in r for r in reasons)
