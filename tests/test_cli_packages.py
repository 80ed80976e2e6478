"""The command line of one workspace package (evidence/cli_model.package_cli): a page in a
package's folder is judged against the flags that package's own files declare, so another
package's parser that takes options named at run time does not open them (issue 24)."""

from __future__ import annotations

from pathlib import Path

from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context, token_outcome

# The CLI package registers whatever options its callers hand it (a run-time registry).
REGISTRY = (
    "const { Command } = require('commander');\n"
    "function argParser(options, args) {\n"
    "  const parser = new Command();\n"
    "  options.forEach((option) => parser.option(`--${option.name}`, option.description));\n"
    "  return parser.parse(args);\n"
    "}\n"
    "module.exports = { argParser };\n"
)
INFO = (
    "const commandLineArgs = require('command-line-args');\n"
    "const options = [{ name: 'output', type: String, description: 'json or markdown' }];\n"
    "module.exports = function info(argv) { return commandLineArgs(options, { argv }); };\n"
)
FILES = {
    "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*"]}',
    "packages/cli/package.json": '{"name": "tool-cli", "bin": {"tool": "./bin/cli.js"}}',
    "packages/cli/bin/cli.js": "require('../lib/arg-parser').argParser([], process.argv);\n",
    "packages/cli/lib/arg-parser.js": REGISTRY,
    "packages/info/package.json": '{"name": "@tool/info", "main": "src/index.js"}',
    "packages/info/src/index.js": INFO,
}
PAGE = (
    "# info\n\n| Flag | Description |\n| --- | --- |\n"
    "| `--output` | the format |\n| `--output-json` | as JSON |\n"
)


def _outcome(repo: Path, folder: str, token: str, tmp_path: Path) -> dict[str, object]:
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    (repo / folder).mkdir(parents=True, exist_ok=True)
    post = make_post(PAGE, repo / folder, name="README.md")
    return token_outcome(gate.GATE.evaluate(post, ctx), token)


def test_a_page_in_a_packages_folder_is_judged_by_that_packages_flags(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    missed = _outcome(repo, "packages/info", "--output-json", tmp_path)
    assert (missed["outcome"], missed["rule"]) == ("ungrounded", "model-cli")
    assert "`--output`" in str(missed["reason"])
    real = _outcome(repo, "packages/info", "--output", tmp_path)
    assert (real["outcome"], real["where"]) == ("grounded", "packages/info/src/index.js")


def test_a_page_outside_the_packages_keeps_the_whole_repositorys_open_flags(
    tmp_path: Path,
) -> None:
    """At the top, the registry's run-time options leave every flag open, as before."""
    repo = make_repo(tmp_path / "repo", FILES)
    outcome = _outcome(repo, "docs", "--output-json", tmp_path)
    assert (outcome["outcome"], outcome["rule"]) == ("unjudged", "model-cli")
    assert "arg-parser.js" in str(outcome["reason"])


def test_a_package_without_a_command_line_of_its_own_keeps_the_whole_one(
    tmp_path: Path,
) -> None:
    files = {**FILES, "packages/utils/package.json": '{"name": "@tool/utils"}'}
    files["packages/utils/index.js"] = "module.exports = { noop() {} };\n"
    repo = make_repo(tmp_path / "repo", files)
    outcome = _outcome(repo, "packages/utils", "--output-json", tmp_path)
    assert outcome["outcome"] == "unjudged"


# The package's own parser, closed: its table declares `--output` only; `npmPackages` is a
# key of a value the command hands another library (no option of the parser).
INFO_WITH_DETAILS = INFO + "const DETAILS = { npmPackages: '*tool*', System: ['OS'] };\n"


def test_a_flag_a_closed_parser_does_not_declare_is_a_miss_not_a_text_match(
    tmp_path: Path,
) -> None:
    """The package's parser is read whole: a flag it does not declare, near none of its
    own, is a miss naming what it takes, never grounded by the flag's name written as a
    key elsewhere (flag-option-name) nor left to the text (issue 24)."""
    files = {**FILES, "packages/info/src/index.js": INFO_WITH_DETAILS}
    repo = make_repo(tmp_path / "repo", files)
    page = PAGE + "| `--npmPackages` | the packages |\n| `--system` | the system |\n"
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    (repo / "packages/info").mkdir(parents=True, exist_ok=True)
    card = gate.GATE.evaluate(make_post(page, repo / "packages/info", name="README.md"), ctx)
    for token in ("--npmPackages", "--system"):
        outcome = token_outcome(card, token)
        assert (outcome["outcome"], outcome["rule"]) == ("ungrounded", "model-cli-closed"), token
        assert "`--output`" in str(outcome["reason"]), token


def test_help_and_version_are_not_misses_of_a_table_handed_to_an_unnamed_parser(
    tmp_path: Path,
) -> None:
    """A table of options handed to a parser the model does not name may get `--help` and
    `--version` from it: they are left to the other rules, not a closed parser's misses."""
    files = {**FILES, "packages/info/src/index.js": INFO_WITH_DETAILS}
    repo = make_repo(tmp_path / "repo", files)
    page = PAGE + "| `--help` | help |\n"
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    (repo / "packages/info").mkdir(parents=True, exist_ok=True)
    card = gate.GATE.evaluate(make_post(page, repo / "packages/info", name="README.md"), ctx)
    assert token_outcome(card, "--help")["outcome"] != "ungrounded"


def test_a_flag_a_closed_parser_does_not_declare_is_never_grounded_by_the_text(
    tmp_path: Path,
) -> None:
    """The repository's one parser, read whole: a flag it does not declare is not grounded
    by its name written as a key (flag-option-name) nor by the flag written in a string
    (flag-as-written, another program's command); near none of its flags and on no page
    of a package of its own, it is listed unjudged (issue 24)."""
    files = {
        "package.json": '{"name": "tool", "bin": {"tool": "./cli.js"}}',
        "cli.js": (
            "const { program } = require('commander');\n"
            "program.option('--cache-dir <dir>', 'where');\n"
            "const settings = { purge: true };\n"
            "const install = ['npm', 'install', '--legacy-peer-deps'];\n"
            "program.parse();\n"
        ),
    }
    repo = make_repo(tmp_path / "repo", files)
    ctx = repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)
    page = "# Use\n\nPass `--purge`, or `--legacy-peer-deps`, or `--cache`.\n"
    (repo / "docs").mkdir()
    card = gate.GATE.evaluate(make_post(page, repo / "docs", name="use.md"), ctx)
    for token in ("--purge", "--legacy-peer-deps"):
        outcome = token_outcome(card, token)
        assert (outcome["outcome"], outcome["rule"]) == ("unjudged", "model-cli-closed"), token
    near = token_outcome(card, "--cache")
    assert (near["outcome"], near["rule"]) == ("ungrounded", "model-cli")
    assert "`--cache-dir`" in str(near["reason"])
    # Listed among flags the parser takes, the page presents it as the product's: a claim,
    # and a miss (anchor-listed), with the model's reason.
    listing = "# Flags\n\n- `--cache-dir`: where\n- `--purge`: clear\n- `--help`: help\n"
    listing += "- `--version`: version\n"
    card = gate.GATE.evaluate(make_post(listing, repo / "docs", name="flags.md"), ctx)
    listed = token_outcome(card, "--purge")
    assert (listed["outcome"], listed["rule"]) == ("ungrounded", "anchor-listed")
    assert "read whole, declares no --purge" in str(listed["reason"])
