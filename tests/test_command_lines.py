"""A flag belongs to the command it follows on the page (helpers/command_lines.py): after
the product's executable it is judged against that command's flags in the API model, after
another program it is that program's (unjudged, listed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.command_lines import OPEN, page_command_lines
from tests.helpers import make_post, make_repo, repo_context, token_outcome

CLI_PY = """import typer

app = typer.Typer()


@app.command()
def clean(dry_run: bool = False, color: bool = True) -> None:
    pass


@app.command()
def scan(depth: int = typer.Option(1, "--depth", "-d")) -> None:
    pass


utils = typer.Typer()
app.add_typer(utils, name="utils")


@utils.command()
def docs(output: str = "README.md") -> None:
    pass


def main() -> None:
    app()
"""
FILES = {
    "pyproject.toml": '[project]\nname = "tidy"\nversion = "1.0"\n\n'
    '[project.scripts]\ntidy = "tidy.cli:main"\n',
    "tidy/__init__.py": "",
    "tidy/__main__.py": "from tidy.cli import main\n\nmain()\n",
    "tidy/cli.py": CLI_PY,
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("tidy"), FILES)


def _outcome(body: str, token: str, tmp_path: Path, ctx: GateContext) -> dict[str, Any]:
    return token_outcome(gate.GATE.evaluate(make_post(body, tmp_path), ctx), token)


def _ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache", symbol_unanchored_claims=False)


@pytest.mark.parametrize(
    ("line", "token", "outcome"),
    [
        ("$ tidy clean --dry-run", "--dry-run", "grounded"),
        ("$ tidy clean --no-color", "--no-color", "grounded"),  # derived from `color: bool`
        ("$ python -m tidy clean --help", "--help", "grounded"),  # derived, and -m runs it
        ("$ uv run tidy scan --depth 2", "--depth", "grounded"),
        ("$ tidy clean --depth 2", "--depth", "ungrounded"),  # scan's flag, not clean's
        ("$ tidy scan --dry-run", "--dry-run", "ungrounded"),
        ("$ npx tidy clean --purge", "--purge", "ungrounded"),
        ("$ tidy utils docs --output x.md", "--output", "grounded"),  # the deepest command
        ("$ tidy utils --output x.md", "--output", "ungrounded"),  # the group's own: --help
    ],
)
def test_a_flag_after_the_products_command_is_judged_by_its_command(
    line: str, token: str, outcome: str, repo: Path, tmp_path: Path
) -> None:
    body = f"Run it:\n\n```console\n{line}\n```\n\nThe `{token}` flag matters.\n"
    entry = _outcome(body, token, tmp_path, _ctx(repo, tmp_path))
    assert (entry["outcome"], entry.get("rule")) == (outcome, "model-command")
    if line == "$ tidy clean --depth 2":
        assert re.search(r"`tidy clean`, run on line \d+, takes no --depth", entry["reason"])
        assert "(the command scan takes it)" in entry["reason"]


@pytest.mark.parametrize(
    ("body", "token", "program"),
    [
        ("```console\n$ uv init app --bare\n```\n\nThe `--bare` flag.\n", "--bare", "uv"),
        ("Try `ls -sh` or `ls -hs`.\n\nSo `-sh` it is.\n", "-sh", "ls"),
        (
            "```console\n$ python main.py --help\nOptions:\n  --name TEXT\n```\n\nUse `--name`.\n",
            "--name",
            "python main.py",
        ),
        ("```bash\npip install --upgrade tidy\n```\n\nWith `--upgrade`.\n", "--upgrade", "pip"),
    ],
)
def test_a_flag_of_another_program_is_not_the_products(
    body: str, token: str, program: str, repo: Path, tmp_path: Path
) -> None:
    entry = _outcome(body, token, tmp_path, _ctx(repo, tmp_path))
    assert (entry["outcome"], entry.get("rule")) == ("unjudged", "other-command")
    assert f"a flag of `{program}`" in entry["reason"]


def test_a_flag_on_no_command_line_is_a_claim_only_as_a_near_miss_of_a_real_flag(
    repo: Path, tmp_path: Path
) -> None:
    ctx = _ctx(repo, tmp_path)
    # On no command line, and no near miss of the product's flags: it names nothing of the
    # product, whether or not the page runs the product (the deleted anchor-flag made it a
    # claim there; held out it decided no token; a miss of the whole parser read closed
    # made 16 findings on the tune half's docs, none a defect). The parser is read whole,
    # so it is listed, never grounded by the text (issue 24).
    for body in ("```console\n$ tidy clean\n```\n\nPass `--purge-all` too.\n",
                 "A generic bool option is `--purge-all`.\n"):  # fmt: skip
        entry = _outcome(body, "--purge-all", tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-cli-closed")
    # A near miss of a real flag is a claim wherever it is written.
    near = _outcome("Pass `--dry-runs`.\n", "--dry-runs", tmp_path, ctx)
    assert (near["outcome"], near["rule"]) == ("ungrounded", "model-cli")
    # So is a typo of a one-word flag (a letter left out, changed or typed in).
    for typo in ("--outpt", "--outpot", "--outputt"):
        near = _outcome(f"Pass `{typo}`.\n", typo, tmp_path, ctx)
        assert (near["outcome"], near["rule"]) == ("ungrounded", "model-cli"), typo
        assert "did you mean `--output`?" in near["reason"]
    # A short flag is no typo of another short one.
    entry = _outcome("Pass `--dept`.\n", "--dept", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "model-cli-closed")


def test_page_command_lines_read_prompts_outputs_runners_and_spans(
    repo: Path, tmp_path: Path
) -> None:
    from pytest_postgates.evidence.api_model import api_model
    from pytest_postgates.evidence.index import open_index

    model = api_model(open_index(repo, "HEAD", tmp_path / "index"), tmp_path / "cache")
    assert model.facts.executables == {"tidy": "tidy.cli:main"}
    assert model.facts.main_modules == ["tidy"]
    body = (
        "```console\n$ FOO=1 sudo tidy scan -d 2 && ls -la\nUsage: tidy [OPTIONS]\n"
        "  --install-completion  Install it.\n```\n\n"
        "Or `pnpm exec tidy clean --dry-run -- --later`.\n"
    )
    lines = page_command_lines(make_post(body, tmp_path), model, "tidy")
    seen = [(c.program, c.product, c.command, sorted(c.flags)) for c in lines]
    assert seen == [
        ("tidy", True, "scan", ["-d"]),
        ("ls", False, "", ["-la"]),
        ("ls", False, "", ["install-completion"]),  # output follows the last command
        ("pnpm exec tidy", True, "clean", ["dry-run"]),  # after `--`: passed on
    ]


def test_a_command_the_cli_makes_at_run_time_is_open(tmp_path: Path) -> None:
    cli = (
        "import click\n\n@click.group()\ndef cli():\n    pass\n\n"
        "def load(name):\n    cli.add_command(make(name))\n"
    )
    model = build_model("c", {"tool/__init__.py": "", "tool/cli.py": cli})
    assert model.cli.open and model.facts.open_commands == ["tool/cli.py:8"]
    from pytest_postgates.helpers.command_lines import _command_of

    assert _command_of(["main.py", "run", "--x"], model) == OPEN


def test_a_package_script_that_runs_the_bin_runs_the_product(tmp_path: Path) -> None:
    cli = (
        'const { Command } = require("commander");\n'
        "const program = new Command();\n"
        'program.command("gen").option("--fast").option("--no-color");\n'
        "program.parse();\n"
    )
    manifest = (
        '{"name": "@acme/gen", "bin": {"gen": "./bin/cli.js"},'
        ' "scripts": {"cli": "node bin/cli.js", "test": "vitest run"}}'
    )
    repo = make_repo(tmp_path / "repo", {"package.json": manifest, "bin/cli.js": cli})
    ctx = _ctx(repo, tmp_path)
    for line, token, outcome in (
        ("pnpm run cli gen --fast", "--fast", "grounded"),
        ("pnpm cli gen --help", "--help", "grounded"),  # commander's own
        ("npx @acme/gen gen --no-color", "--no-color", "grounded"),
        ("npm run cli gen --slow", "--slow", "ungrounded"),
    ):
        body = f"```bash\n{line}\n```\n\nSee `{token}`.\n"
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry["rule"]) == (outcome, "model-command"), line
    # A script that runs something else (`vitest run`) is another program's.
    entry = _outcome("```bash\nnpm run test --watch\n```\n\n`--watch`.\n", "--watch", tmp_path, ctx)
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "other-command")


def test_an_optionator_option_list_declares_the_products_flags(tmp_path: Path) -> None:
    """optionator (eslint's parser) takes a list of ``{ option, type }`` objects; a Boolean
    one is also taken negated. A typo of one of them is a near miss wherever it is written,
    and another program's ``{ option, type }`` objects (no optionator) declare nothing."""
    options = (
        'const optionator = require("optionator");\n'
        "module.exports = () => optionator({\n  options: [\n"
        '    { heading: "Caching" },\n'
        '    { option: "cache-location", type: "path::String", description: "Where" },\n'
        '    { option: "config-lookup", type: "Boolean", default: "true" },\n'
        '    { option: "format", alias: "f", type: "String" },\n  ],\n});\n'
    )
    manifest = '{"name": "lintr", "bin": {"lintr": "./bin/lintr.js"}}'
    bin_file = 'require("../lib/options.js")().parse(process.argv);\n'
    repo = make_repo(
        tmp_path / "repo",
        {"package.json": manifest, "bin/lintr.js": bin_file, "lib/options.js": options},
    )
    ctx = _ctx(repo, tmp_path)
    for token, outcome, rule in (
        ("--cache-location", "grounded", "model-cli"),
        ("--no-config-lookup", "grounded", "model-cli"),
        ("--format", "grounded", "model-cli"),
        ("--cache-locaton", "ungrounded", "model-cli"),
        ("--formatt", "ungrounded", "model-cli"),
    ):
        entry = _outcome(f"Pass `{token}` to it.\n", token, tmp_path, ctx)
        assert (entry["outcome"], entry.get("rule")) == (outcome, rule), token
    body = "```bash\nlintr --cache-strategy x\n```\n\nSee `--cache-strategy`.\n"
    with_command = _outcome(body, "--cache-strategy", tmp_path, ctx)
    assert (with_command["outcome"], with_command["rule"]) == ("ungrounded", "model-command")
    # The same objects in a file that does not import optionator are no option list.
    other = make_repo(
        tmp_path / "other",
        {"package.json": manifest, "bin/lintr.js": bin_file,
         "lib/options.js": options.replace('require("optionator")', 'require("./opts")')},
    )  # fmt: skip
    entry = _outcome("Pass `--cache-locaton`.\n", "--cache-locaton", tmp_path,
                     _ctx(other, tmp_path / "o"))  # fmt: skip
    assert entry["outcome"] == "unjudged", entry


@pytest.mark.parametrize(
    ("span", "outcome"),
    [
        ("tidy clean --dry-run --no-color", "grounded"),
        ("python -m tidy scan --depth 3", "grounded"),
        ("tidy scan --dry-run", "ungrounded"),  # clean's flag, not scan's
        ("tidy clean --dryrun", "ungrounded"),
    ],
)
def test_a_span_that_runs_the_product_is_judged_flag_by_flag(
    span: str, outcome: str, repo: Path, tmp_path: Path
) -> None:
    entry = _outcome(f"Run `{span}` first.\n", span, tmp_path, _ctx(repo, tmp_path))
    assert (entry["outcome"], entry.get("rule")) == (outcome, "model-command")
    # Another program's command line is left to the other rules.
    other = _outcome(
        "Run `uv sync --frozen` first.\n", "uv sync --frozen", tmp_path, _ctx(repo, tmp_path)
    )
    assert other.get("rule") != "model-command"


def test_a_plugin_is_judged_on_its_hosts_command_line(tmp_path: Path) -> None:
    plugin = (
        'def pytest_addoption(parser):\n    parser.addoption("--gates-all", action="store_true")\n'
    )
    files = {
        "pyproject.toml": '[project]\nname = "gates"\nversion = "1"\n\n'
        '[project.entry-points.pytest11]\ngates = "gates.plugin"\n',
        "gates/__init__.py": "",
        "gates/plugin.py": plugin,
    }
    ctx = _ctx(make_repo(tmp_path / "repo", files), tmp_path)
    for line, token, decided in (
        ("pytest docs/ --gates-all", "--gates-all", ("grounded", "model-command")),
        ("python -m pytest --gates-all", "--gates-all", ("grounded", "model-command")),
        ("pytest --gates-al", "--gates-al", ("ungrounded", "model-cli")),  # a near miss
        ("pytest --snapshot-update", "--snapshot-update", ("unjudged", "other-command")),
        # Near `--all`'s words but in the host's namespace, not the plugin's: the host's.
        ("pytest --update-all", "--update-all", ("unjudged", "other-command")),
    ):
        body = f"```bash\n{line}\n```\n\nSee `{token}`.\n"
        entry = _outcome(body, token, tmp_path, ctx)
        assert (entry["outcome"], entry.get("rule")) == decided, line


@pytest.mark.parametrize(
    ("span", "outcome"),
    [
        ("-d/--depth <n>", "grounded"),
        ("-d, --depth", "grounded"),
        ("--depth, -d", "grounded"),
        ("-d/--deptth <n>", "ungrounded"),  # a near miss of --depth, as `--deptth` alone is
    ],
)
def test_a_short_option_written_with_its_long_one_is_judged_by_the_long_one(
    span: str, outcome: str, repo: Path, tmp_path: Path
) -> None:
    entry = _outcome(f"Pass `{span}` to scan deeper.\n", span, tmp_path, _ctx(repo, tmp_path))
    assert (entry["kind"], entry["outcome"]) == ("flag", outcome)
    if outcome == "ungrounded":
        assert "did you mean `--depth`?" in entry["reason"]


def test_pdms_legacy_cli_table_declares_the_products_executable(tmp_path: Path) -> None:
    # PDM's metadata before PEP 621: the console scripts are `[tool.pdm.cli]`.
    pyproject = (
        '[tool.pdm]\nname = "tidy"\nversion = "1.0"\n\n[tool.pdm.cli]\ntidier = "tidy.cli:main"\n'
    )
    repo = make_repo(tmp_path / "repo", {**FILES, "pyproject.toml": pyproject})
    ctx = _ctx(repo, tmp_path)
    for line, outcome in (("$ tidier scan --depth 2", "grounded"),
                          ("$ tidier clean --depth 2", "ungrounded")):  # fmt: skip
        body = f"```console\n{line}\n```\n\nThe `--depth` flag.\n"
        entry = _outcome(body, "--depth", tmp_path, ctx)
        assert (entry["outcome"], entry.get("rule")) == (outcome, "model-command"), line


def test_a_command_line_the_sentence_says_is_gone_is_no_claim(repo: Path, tmp_path: Path) -> None:
    """jest's upgrade guide: "The interactive config initialization command `jest --init`
    has been **removed**": a flag the page says the product dropped is its past, unjudged
    (historical), as a name is."""
    ctx = _ctx(repo, tmp_path)
    body = "The config command `tidy clean --init` has been **removed**.\n"
    entry = _outcome(body, "tidy clean --init", tmp_path, ctx)
    assert (entry["outcome"], entry.get("rule")) == ("unjudged", "historical"), entry
    entry = _outcome("The `--purge` flag was removed in 2.0.\n", "--purge", tmp_path, ctx)
    assert (entry["outcome"], entry.get("rule")) == ("unjudged", "historical"), entry
    # Still a claim when the page offers it as the present.
    body = "Run `tidy clean --purge` now.\n"
    assert _outcome(body, "tidy clean --purge", tmp_path, ctx)["outcome"] == "ungrounded"
