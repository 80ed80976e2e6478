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
