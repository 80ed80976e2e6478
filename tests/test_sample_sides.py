"""Gate 15's ``old-way-sample`` rule: a sample the page shows as the wrong or the old way,
beside its fix, is listed unjudged with the reason (issue 26)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.gates import code_samples as gate
from pytest_postgates.helpers.sample_sides import RULES, old_way_fences
from pytest_postgates.post import Post
from tests.helpers import git, make_post, make_repo, repo_context
from tests.test_gate_code_samples import TS_FILES


def _old(body: str, tmp_path: Path) -> list[int]:
    post = make_post(body, tmp_path)
    return sorted(old_way_fences(post))


def _starts(post: Post) -> list[int]:
    return [fence.start_line for fence in post.fences]


VERSIONS = "**v2:**\n\n```js\nold()\n```\n\n**v3:**\n\n```js\nnew()\n```\n"
TURN = (
    "If you are using the `linter` object, such as:\n\n```js\nconst { linter } = x;\n```\n\n"
    "Change your code to this:\n\n```js\nconst { Linter } = x;\n```\n"
)
MARKS = "```js\n// ❌ Don't\nold()\n```\n\n```js\n// ✅ Do\nnew()\n```\n"
TITLES = "```js [Before]\nold()\n```\n\n```js [After]\nnew()\n```\n"


@pytest.mark.parametrize("body", [VERSIONS, TURN, MARKS, TITLES],
                         ids=["versions", "turn", "marks", "titles"])  # fmt: skip
def test_the_old_side_of_a_pair_is_found_and_its_fix_is_not(tmp_path: Path, body: str) -> None:
    post = make_post("Intro.\n\n" + body, tmp_path)
    assert sorted(old_way_fences(post)) == _starts(post)[:1]


def test_a_label_without_a_fix_beside_it_is_not_enough(tmp_path: Path) -> None:
    assert _old("Intro.\n\nBefore:\n\n```js\nold()\n```\n\nThe end.\n", tmp_path) == []
    # A heading between: the next sample is another section's, not the fix.
    body = "Before:\n\n```js\nold()\n```\n\n## Next\n\n```js\nnew()\n```\n"
    assert _old(body, tmp_path) == []
    # Both labelled the old way: neither is the other's fix.
    assert _old("Don't:\n\n```js\na()\n```\n\nAvoid:\n\n```js\nb()\n```\n", tmp_path) == []


def test_a_later_version_is_not_the_old_side(tmp_path: Path) -> None:
    body = "**v4:**\n\n```js\nnew()\n```\n\n**v3:**\n\n```js\nold()\n```\n"
    post = make_post(body, tmp_path)
    assert sorted(old_way_fences(post)) == _starts(post)[1:]


@pytest.fixture(scope="module")
def released_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package at v2.0.0, whose v1.0.0 also exported OldThing."""
    root = tmp_path_factory.mktemp("released")
    old_index = TS_FILES["src/lib/index.ts"] + 'export { OldThing } from "./old.js";\n'
    make_repo(root, {**TS_FILES, "src/lib/index.ts": old_index,
                     "src/lib/old.ts": "export class OldThing {}\n"})  # fmt: skip
    git(root, "tag", "v1.0.0")
    (root / "src/lib/old.ts").unlink()
    (root / "src/lib/index.ts").write_text(TS_FILES["src/lib/index.ts"], encoding="utf-8")
    git(root, "commit", "-qam", "v2 drops OldThing")
    git(root, "tag", "v2.0.0")
    return root


def test_a_before_sample_beside_its_fix_is_unjudged(tmp_path: Path, released_repo: Path) -> None:
    assert [rule.name for rule in RULES] == ["old-way-sample"]
    body = (
        "Migrating.\n\n**Before:**\n\n```ts\n"
        'import { Renamed, OldThing, Invented } from "@acme/kit";\n'
        "```\n\n**After:**\n\n```ts\n"
        'import { Renamed, NewThinq } from "@acme/kit";\n'
        "```\n"
    )
    post = make_post(body, tmp_path)
    card = gate.GATE.evaluate(post, repo_context(released_repo, tmp_path / "cache"))
    # The fix is judged; on the old side a name no release declared is still an invention.
    assert sorted(v["name"] for v in card.detail["violations"]) == ["Invented", "NewThinq"]
    old = [u for u in card.detail["unjudged"] if u["reason"].startswith("OldThing:")]
    assert len(old) == 1 and "old way" in old[0]["reason"] and "v1.0.0" in old[0]["reason"]
    # Only the fix's two names count as checked: nothing of the old sample.
    assert card.detail["checked_by_kind"]["export"] == 2
    # And only they are listed as checked: the old side's names are not.
    assert sorted(i["name"] for i in card.detail["checked_names"]) == ["NewThinq", "Renamed"]
    # Turned off by name (an ablation: bench/ablation.py --gate 15), the old side is judged
    # as any sample is, and its names are findings again.
    off = repo_context(released_repo, tmp_path / "off", code_samples_rules_off=("old-way-sample",))
    card = gate.GATE.evaluate(post, off)
    names = sorted(v["name"] for v in card.detail["violations"])
    assert names == ["Invented", "NewThinq", "OldThing"]
