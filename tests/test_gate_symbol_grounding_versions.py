"""Gate 2 on versioned docs: a Docusaurus page under ``versioned_docs/version-X/``
documents release X, so its prose's code names are judged against the product at the
newest tag of X, as gate 15 judges its samples (gates/releases.py); with no tag of X every
claim is unjudged with that reason, never judged against the ref."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples, symbol_grounding
from pytest_postgates.helpers.versioned_pages import RELEASE_NOT_JUDGED
from pytest_postgates.post import parse_post
from pytest_postgates.scorecard import Scorecard
from tests.helpers import FRONT_MATTER, git, make_repo, repo_context, token_outcome

V1 = "export class Widget {\n  render() { return 1 }\n  oldDraw() { return 2 }\n}\n"
V2 = "export class Widget {\n  render() { return 1 }\n}\n"
MANIFEST = json.dumps(
    {"name": "widgets", "version": "2.0.0", "type": "module", "exports": "./src/index.js"}
)
PROSE = (
    "Call `Widget.render()` to draw it, or `Widget.oldDraw()` for the old way; "
    "`Widget.neverThere()` does the rest.\n"
)


@pytest.fixture(scope="module")
def widgets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("widgets"), {"package.json": MANIFEST, "src/index.js": V1}
    )
    git(root, "tag", "v1.0.0")
    (root / "src" / "index.js").write_text(V2, encoding="utf-8")
    git(root, "commit", "-qam", "v2: oldDraw goes")
    git(root, "tag", "v2.0.0")
    site = root / "website"
    (site / "docs").mkdir(parents=True)
    (site / "versioned_docs" / "version-1.0").mkdir(parents=True)
    (site / "versioned_docs" / "version-0.5").mkdir(parents=True)
    (site / "versions.json").write_text('["1.0", "0.5"]\n', encoding="utf-8")
    return root


def _card(root: Path, folder: str, tmp_path: Path, gate: object = symbol_grounding) -> Scorecard:
    page = root / "website" / folder / "usage.md"
    page.write_text(f"{FRONT_MATTER}{PROSE}", encoding="utf-8")
    context = repo_context(root, tmp_path / "cache")
    return gate.GATE.evaluate(parse_post(page), context)  # type: ignore[attr-defined, no-any-return]


def test_a_name_removed_after_the_release_is_grounded_on_its_versioned_page(
    widgets: Path, tmp_path: Path
) -> None:
    card = _card(widgets, "versioned_docs/version-1.0", tmp_path)
    assert token_outcome(card, "Widget.oldDraw()")["outcome"] == "grounded"
    assert token_outcome(card, "Widget.neverThere()")["outcome"] == "ungrounded"
    release = card.detail["release"]
    assert (release["version"], release["tag"]) == ("1.0", "v1.0.0")
    assert card.detail["ref"] == "v1.0.0"
    assert "judged against v1.0.0" in card.summary


def test_the_current_page_is_judged_at_the_ref(widgets: Path, tmp_path: Path) -> None:
    card = _card(widgets, "docs", tmp_path)
    assert token_outcome(card, "Widget.oldDraw()")["outcome"] == "ungrounded"
    assert "release" not in card.detail


def test_a_version_with_no_tag_leaves_every_claim_unjudged(widgets: Path, tmp_path: Path) -> None:
    card = _card(widgets, "versioned_docs/version-0.5", tmp_path)
    for token in ("Widget.render()", "Widget.oldDraw()", "Widget.neverThere()"):
        entry = token_outcome(card, token)
        assert entry["outcome"] == "unjudged", entry
        assert entry["rule"] == RELEASE_NOT_JUDGED
        assert "no tag of 0.5 in the repository" in entry["reason"]
    assert card.verdict == "PASS"
    assert card.detail["claims"] == 0 and card.detail["release"]["tag"] is None
    assert "3 unjudged (the page documents a release" in card.summary
    assert "no tag of 0.5" in card.summary


def test_the_two_gates_share_one_release_evidence(widgets: Path, tmp_path: Path) -> None:
    """Gates 2 and 15 of one run read a versioned page at the same tag through one index
    and model (the run's memo), not one each."""
    page = widgets / "website" / "versioned_docs" / "version-1.0" / "both.md"
    page.write_text(f"{FRONT_MATTER}{PROSE}", encoding="utf-8")
    context = repo_context(widgets, tmp_path / "cache")
    symbol_grounding.GATE.evaluate(parse_post(page), context)
    code_samples.GATE.evaluate(parse_post(page), context)
    held = [key for key in context.memo if key[0] == "releases.evidence"]
    assert len(held) == 1, held
