"""Hostile posts: an invented member after a call (`makeWidget().inventedMethod()`).

Issue 25: the part of a call chain after the first call was never checked, so an invented
method grounded on the real factory's name. The API model follows the chain: after a
product function whose return type it knows, the members of that class; after one whose
result it cannot type, the member must still be a member of some product class.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import symbol_grounding as gate
from tests.helpers import FRONT_MATTER, make_post, make_repo, repo_context

WIDGET_TS = """export class Widget {
  render(): string { return ""; }
}
export function makeWidget(): Widget { return new Widget(); }
export function makeThing() { return {}; }
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(
        tmp_path_factory.mktemp("widgets"),
        {"package.json": '{"name": "@acme/widgets"}\n', "src/widget.ts": WIDGET_TS},
    )


@pytest.mark.parametrize(
    ("token", "outcome"),
    [
        ("makeWidget().render()", "grounded"),
        ("makeWidget().inventedMethod()", "ungrounded"),
        ("makeThing().inventedMethod()", "ungrounded"),
        ("new Widget().render()", "grounded"),
    ],
)
def test_every_member_of_a_chain_is_checked(
    token: str, outcome: str, repo: Path, tmp_path: Path
) -> None:
    post = make_post(FRONT_MATTER + f"Then `{token}` draws it.\n", tmp_path)
    card = gate.GATE.evaluate(post, repo_context(repo, tmp_path / "cache"))
    outcomes = {e["token"]: o for o, es in card.detail["outcomes"].items() for e in es}
    outcomes.update({u["token"]: "ungrounded" for u in card.detail["ungrounded"]})
    assert outcomes[token] == outcome, card.detail
