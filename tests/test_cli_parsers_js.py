"""The product's command line read from JavaScript bins and parsers beyond yargs and
commander (issue 24): a bin without a suffix read by its shebang, command-line-args option
definitions, meow's flags, and a parser read only in part leaving the flag set open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.repomap import source_language
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
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
