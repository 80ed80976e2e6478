"""Hostile posts: zero-width and bidi-control characters inside a backticked token.

An invented name with an invisible character in it (`RealClass\u200bInvented`) used to ground
on its visible half through the phrase fallback's longest-word match. Such a token is a
finding of its own (INVISIBLE_CHARACTER), fails the gate, and is grounded as written only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.grounding import invisible_characters
from pytest_postgates.gates import GateContext
from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import make_post, make_repo, repo_context

FILES = {
    "src/lib/neurolink.ts": "export class NeuroLink {\n  generateText() {}\n}\n",
    "package.json": '{"name": "@acme/neuro"}\n',
}
INVISIBLES = {
    "ZERO WIDTH SPACE": "\u200b",
    "WORD JOINER": "\u2060",
    "RIGHT-TO-LEFT OVERRIDE": "\u202e",
    "ZERO WIDTH NO-BREAK SPACE": "\ufeff",
    # Round two (issue 25): none of these was on the old list; each is caught by its Unicode
    # properties (Cf, default-ignorable, variation selector, tag, baseless mark).
    "ARABIC LETTER MARK": "\u061c",
    "COMBINING GRAPHEME JOINER": "\u034f",
    "VARIATION SELECTOR-16": "\ufe0f",
    "TAG SPACE": "\U000e0020",
    "KHMER VOWEL INHERENT AQ": "\u17b4",
    "INTERLINEAR ANNOTATION ANCHOR": "\ufff9",
    "MUSICAL SYMBOL BEGIN BEAM": "\U0001d173",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("invisible"), FILES)


@pytest.fixture
def ctx(repo: Path, tmp_path: Path) -> GateContext:
    return repo_context(repo, tmp_path / "cache")


@pytest.mark.parametrize("name", sorted(INVISIBLES))
@pytest.mark.parametrize(
    "template",
    ["NeuroLink{c}InventedThing", "NeuroLink.generate{c}Avatar", "generate{c}Text", "{c}NeuroLink"],
)
def test_an_invisible_character_is_a_finding_and_never_grounds_on_the_visible_half(
    name: str, template: str, tmp_path: Path, ctx: GateContext
) -> None:
    token = template.format(c=INVISIBLES[name])
    # Plenty of real tokens around it: the share alone would pass the threshold.
    real = " ".join(f"`{t}`" for t in ["NeuroLink", "generateText", "src/lib/neurolink.ts"])
    card = gate.GATE.evaluate(make_post(f"Uses {real} and `{token}` here.\n", tmp_path), ctx)
    codes = [f.code for f in card.findings]
    assert "INVISIBLE_CHARACTER" in codes
    assert card.verdict == "FAIL"
    assert [u["token"] for u in card.detail["ungrounded"]] == [token]
    reason = card.detail["ungrounded"][0]["reason"]
    assert f"U+{ord(INVISIBLES[name]):04X}" in reason
    assert "matched word" not in reason
    message = next(f.message for f in card.findings if f.code == "INVISIBLE_CHARACTER")
    assert INVISIBLES[name] not in message  # the finding shows the escape, not the character


def test_the_same_name_without_the_invisible_character_grounds(
    tmp_path: Path, ctx: GateContext
) -> None:
    card = gate.GATE.evaluate(make_post("Uses `NeuroLink` and `generateText`.\n", tmp_path), ctx)
    assert card.verdict == "PASS"
    assert not [f for f in card.findings if f.code == "INVISIBLE_CHARACTER"]


@pytest.mark.parametrize(
    "char",
    [
        "\u2065",  # unassigned, default-ignorable
        "\ufff0",  # unassigned, default-ignorable
        "\ufffb",  # INTERLINEAR ANNOTATION TERMINATOR (Cf)
        "\U0001d17a",  # MUSICAL SYMBOL END PHRASE (Cf)
        "\U000e0100",  # VARIATION SELECTOR-17
        "\U000e007f",  # CANCEL TAG
        "\u17b5",  # KHMER VOWEL INHERENT AA
        "\u3164",  # HANGUL FILLER (a letter that draws nothing)
        "\U0001bca0",  # SHORTHAND FORMAT LETTER OVERLAP
        "\u0007",  # a control character
    ],
)
def test_invisible_characters_are_found_by_property_not_by_a_list(char: str) -> None:
    assert invisible_characters(f"Neuro{char}Link") == [f"U+{ord(char):04X}"]


@pytest.mark.parametrize("token", ["\u0301NeuroLink", "NeuroLink.\u0300generate", "a_\u0308b"])
def test_a_combining_mark_with_no_base_is_invisible(token: str) -> None:
    assert invisible_characters(token) != []


@pytest.mark.parametrize(
    "token",
    [
        "cafe\u0301",
        "nai\u0308\u0301ve",
        "na\u00efve",
        "\u2764\ufe0f",
        "\u0928\u093f",
        "\u00e9t\u00e9",
    ],
)
def test_visible_marks_and_emoji_presentation_are_not_invisible(token: str) -> None:
    assert invisible_characters(token) == []
