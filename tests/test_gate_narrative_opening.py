"""Gate 11, narrative_opening: a real entity in the opening, no brochure phrases."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pytest_postgates.gates import narrative_opening as gate
from tests.helpers import context, make_post

GOOD_OPENING = "We run pytest over our Jekyll posts on every push.\n\n"
# Both checks are house style, enforced where a project sets these keys (the blog the seeds
# calibrated them on does); test_unadopted_* checks the default.
ADOPTED: dict[str, object] = {"opening_entity_required": True, "enforce_banned_phrases": True}


def test_builtin_lists_are_large_enough_and_hold_the_seeds_examples() -> None:
    assert len(gate.BUILTIN_BANNED_PHRASES) >= 40
    for phrase in ("as platforms scale", "paradigm shift", "cutting-edge", "in today's"):
        assert phrase in gate.BUILTIN_BANNED_PHRASES
    assert len(set(gate.BUILTIN_BANNED_PHRASES)) == len(gate.BUILTIN_BANNED_PHRASES)


@pytest.mark.parametrize(
    "line",
    [
        "As platforms scale, teams need more.",
        "This is a paradigm shift for docs.",
        "A cutting edge approach.",  # a space for the hyphen still counts
        "A cutting\u2011edge approach.",  # so does a non-breaking hyphen
        "In today\u2019s world, posts matter.",  # and a curly apostrophe
        "IN TODAY'S WORLD",
        "It was a Game Changer.",
    ],
)
def test_banned_phrases_match_ignoring_case_hyphens_and_apostrophes(
    line: str, tmp_path: Path
) -> None:
    card = gate.GATE.evaluate(make_post(GOOD_OPENING + line + "\n", tmp_path), context(**ADOPTED))
    assert card.verdict == "FAIL"
    assert card.detail["banned_phrase_count"] == 1
    assert card.detail["banned_phrases"][0]["line"] == 8


@pytest.mark.parametrize(
    "line",
    [
        "The `cutting-edge` check lives in the gate.",  # quoted in an inline code span
        "See [the list](https://example.com/paradigm-shift) for details.",  # inside a URL
        "A shortcutting-edge case is not the phrase.",  # not on a word boundary
        "Synergistic effects are measured.",  # "synergy" is a word, not a prefix
        "Seamless integrations are listed.",  # "seamless integration" + s is another word
    ],
)
def test_phrases_in_code_urls_or_inside_words_do_not_count(line: str, tmp_path: Path) -> None:
    card = gate.GATE.evaluate(make_post(GOOD_OPENING + line + "\n", tmp_path), context(**ADOPTED))
    assert card.detail["banned_phrase_count"] == 0, card.detail
    assert card.verdict == "PASS"


def test_phrases_in_fenced_code_do_not_count(tmp_path: Path) -> None:
    body = GOOD_OPENING + "```text\nparadigm shift, cutting-edge\n```\n"
    assert gate.GATE.evaluate(make_post(body, tmp_path), context(**ADOPTED)).verdict == "PASS"


def test_opening_without_entity_fails_with_its_line(tmp_path: Path) -> None:
    body = "\n\nOur team believes that quality matters more than ever for everyone.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path), context(**ADOPTED))
    assert card.verdict == "FAIL"
    assert card.detail["entity_count"] == 0
    assert [(f.line, f.code) for f in card.findings] == [(8, "NO_ENTITY")]


def test_entity_after_the_opening_region_does_not_count(tmp_path: Path) -> None:
    filler = "Words about nothing in particular. " * 40  # well past 1200 characters
    card = gate.GATE.evaluate(
        make_post(filler + "\nThen pytest appears.\n", tmp_path), context(**ADOPTED)
    )
    assert card.detail["entity_count"] == 0
    card = gate.GATE.evaluate(
        make_post("Then pytest appears.\n" + filler, tmp_path), context(**ADOPTED)
    )
    assert card.detail["entities_found"] == ["pytest"]


def test_builtin_entities_are_case_sensitive(tmp_path: Path) -> None:
    # "go" and "rust" as plain words are not Go or Rust; lower-case "python" is not Python.
    body = "We go on and the rust stays; python as a word is a snake.\n"
    assert (
        gate.GATE.evaluate(make_post(body, tmp_path), context(**ADOPTED)).detail["entity_count"]
        == 0
    )


def test_package_and_known_entities_name_the_product_ignoring_case(tmp_path: Path) -> None:
    body = "NeuroLink keeps the models in line, says Yama.\n"
    assert (
        gate.GATE.evaluate(make_post(body, tmp_path), context(**ADOPTED)).detail["entity_count"]
        == 0
    )
    card = gate.GATE.evaluate(
        make_post(body, tmp_path), context(**ADOPTED, package="@juspay/neurolink")
    )
    assert card.detail["entities_found"] == ["neurolink"]
    card = gate.GATE.evaluate(
        make_post("yama reviews it.\n", tmp_path), context(**ADOPTED, known_entities=("Yama",))
    )
    assert card.detail["entities_found"] == ["Yama"]


def test_banned_phrases_setting_extends_the_list(tmp_path: Path) -> None:
    post = make_post(GOOD_OPENING + "It is truly best of breed.\n", tmp_path)
    assert gate.GATE.evaluate(post, context(**ADOPTED)).verdict == "PASS"
    card = gate.GATE.evaluate(post, context(banned_phrases=("best of breed",)))
    assert card.verdict == "FAIL"
    assert card.findings[0].code == "BANNED_PHRASE"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_product_names_come_from_the_repository_package_json(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "_posts").mkdir(parents=True)
    (repo / "package.json").write_text(json.dumps({"name": "@acme/widgetry"}))
    _git(repo, "init", "-q")
    _git(repo, "add", "package.json")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    post = make_post("Widgetry renders the charts.\n", repo / "_posts")
    card = gate.GATE.evaluate(post, context(**ADOPTED))
    assert card.detail["entities_found"] == ["widgetry"]
    assert card.detail["repo_names"][:2] == ["@acme/widgetry", "widgetry"]
    assert "note" not in card.detail


def test_outside_a_repository_the_gate_still_runs_and_says_so(tmp_path: Path) -> None:
    card = gate.GATE.evaluate(
        make_post(GOOD_OPENING, tmp_path), context(**ADOPTED, repo=tmp_path / "nowhere")
    )
    assert card.verdict == "PASS"
    assert "repository names not used" in card.detail["note"]


def test_every_banned_hit_is_a_finding_with_its_line(tmp_path: Path) -> None:
    body = GOOD_OPENING + "A paradigm shift.\n\nWorld-class and cutting-edge.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path), context(**ADOPTED))
    assert [(f.line, f.code) for f in card.findings] == [
        (8, "BANNED_PHRASE"),
        (10, "BANNED_PHRASE"),
        (10, "BANNED_PHRASE"),
    ]
    assert card.score == 3


def test_a_docs_site_page_needs_no_named_tool_in_its_opening(tmp_path: Path) -> None:
    """A section index of an MkDocs site opens on its subject, not on a story: NO_ENTITY is
    a blog rule. Brochure phrases still count, and the setting turns the rule back on."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    body = "\n\nThe options of this section, one page each, in the order below.\n"
    post = make_post(body, tmp_path / "docs", name="index.md")
    card = gate.GATE.evaluate(post, context())
    assert card.verdict == "PASS", card.findings
    assert card.detail["entity_required"] is False
    forced = gate.GATE.evaluate(post, context(opening_entity_required=True))
    assert [f.code for f in forced.findings] == ["NO_ENTITY"]
    brochure = make_post(body + "\nIt is a paradigm shift.\n", tmp_path / "docs", name="b.md")
    adopted = context(enforce_banned_phrases=True)
    assert [f.code for f in gate.GATE.evaluate(brochure, adopted).findings] == ["BANNED_PHRASE"]


def test_unadopted_checks_are_advice_on_the_card_not_failures(tmp_path: Path) -> None:
    """A project that sets none of the house-style keys: a blog post whose opening names no
    tool of the list and that uses a brochure phrase PASSES, with both listed as advice and
    the keys that would enforce them (issue 27: an essay blog failed 17 of 23 posts)."""
    body = "\n\nOur team believes that quality matters.\n\nA paradigm shift.\n"
    post = make_post(body, tmp_path)
    card = gate.GATE.evaluate(post, context())
    assert card.verdict == "PASS" and card.findings == []
    house = card.detail["house_style"]
    assert [f["code"] for f in house["opening_entity_required"]["findings"]] == ["NO_ENTITY"]
    assert "`opening_entity_required`" in house["opening_entity_required"]["reason"]
    assert [f["code"] for f in house["enforce_banned_phrases"]["findings"]] == ["BANNED_PHRASE"]
    assert "`banned_phrases`" in house["enforce_banned_phrases"]["reason"]
    assert "house-style advice, not enforced: 1 BANNED_PHRASE, 1 NO_ENTITY" in card.summary
    # Each key adopts its own check; extending the phrase list adopts the phrases.
    entity = gate.GATE.evaluate(post, context(opening_entity_required=True))
    assert [f.code for f in entity.findings] == ["NO_ENTITY"]
    assert list(entity.detail["house_style"]) == ["enforce_banned_phrases"]
    phrases = gate.GATE.evaluate(post, context(banned_phrases=("best of breed",)))
    assert [f.code for f in phrases.findings] == ["BANNED_PHRASE"]
    both = gate.GATE.evaluate(post, context(**ADOPTED))
    assert [f.code for f in both.findings] == ["NO_ENTITY", "BANNED_PHRASE"]
    assert "house_style" not in both.detail
