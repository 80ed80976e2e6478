"""Gate 15 never silent (issue 26): a name, member or option key a sample writes is judged
(``checked_names``, ``violations``) or named ``unjudged`` at its own line with the reason,
even where the gate leaves a whole construct unjudged. One test per mechanism that left a
defect of natural drift's tune half named by no card: the keys of an object passed to a
callee the model does not type (got's ``hooks.onError``), ..."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.scorecard import Scorecard
from tests.helpers import make_post, make_repo, repo_context

# A default export made by a function that declares nothing: its calls' keys are unjudged.
FETCHY = {
    "package.json": json.dumps({"name": "fetchy", "main": "index.js"}),
    "index.js": (
        "const createInstance = defaults => {\n"
        "  const http = (input, options) => fetch(input, { ...defaults, ...options })\n"
        "  return http\n"
        "}\n"
        "export default createInstance();\n"
    ),
}


def _check(code: str, tmp_path: Path, repo: Path, lang: str = "js") -> Scorecard:
    body = f"Intro.\n\n```{lang}\n{code}\n```\n"
    return gate.GATE.evaluate(make_post(body, tmp_path), repo_context(repo, tmp_path / "cache"))


def _named(card: Scorecard, line: int) -> list[dict[str, Any]]:
    """The card's entries at ``line`` (its page line: the fence opens at 3, front matter
    aside, so sample line n is page line n + 3 + the post's front matter lines)."""
    return [
        entry
        for listing in ("unjudged", "violations", "checked_names")
        for entry in card.detail.get(listing) or []
        if entry["line"] == line
    ]


def _line_of(tmp_path: Path, text: str) -> int:
    page = next(tmp_path.glob("*.md")).read_text(encoding="utf-8").splitlines()
    return next(at for at, line in enumerate(page, 1) if text in line)


def test_each_key_of_an_object_passed_to_an_untyped_callee_is_named(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", FETCHY)
    code = (
        'import http from "fetchy";\n'
        'http("x", {\n'
        "  hooks: {\n"
        "    onError: [\n"
        "      error => error\n"
        "    ]\n"
        "  },\n"
        "  retries: [{ limt: 2 }],\n"
        "});\n"
    )
    card = _check(code, tmp_path, repo)
    for text, name in (("hooks", "hooks"), ("onError", "hooks.onError"),
                       ("retries", "retries"), ("limt", "retries.limt")):  # fmt: skip
        [entry] = [e for e in _named(card, _line_of(tmp_path, text + ":")) if e.get("name") == name]
        assert "the keys passed to http() are not judged" in entry["reason"], entry
