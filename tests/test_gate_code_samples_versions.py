"""Gate 15 on versioned docs (issue 26): a Docusaurus site keeps the pages of release X in
``versioned_docs/version-X/`` (``versions.json`` beside it lists X). Such a page documents
release X, not the code at the ref: it is judged against the product at the newest tag of X
(evidence/doc_versions.py), and when no tag of X exists every use on it is unjudged with
that reason, never judged against the ref."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.evidence.doc_versions import (
    MAX_VERSIONS,
    documented_version,
    listed_version,
    release_for,
)
from pytest_postgates.gates import code_samples
from pytest_postgates.post import parse_post
from tests.helpers import FRONT_MATTER, git, make_repo, repo_context, sample_violations

V1 = "export class Widget {\n  render() { return 1 }\n  oldDraw() { return 2 }\n}\n"
V2 = "export class Widget {\n  render() { return 1 }\n}\n"
MANIFEST = json.dumps(
    {"name": "widgets", "version": "2.0.0", "type": "module", "exports": "./src/index.js"}
)
SAMPLE = (
    'import { Widget } from "widgets";\n'
    "const widget = new Widget();\n"
    "widget.render();\n"
    "widget.oldDraw();\n"
    "widget.neverThere();\n"
)


@pytest.fixture(scope="module")
def widgets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("widgets"), {"package.json": MANIFEST, "src/index.js": V1}
    )
    git(root, "tag", "v1.0.0")
    (root / "src" / "index.js").write_text(V1 + "// 1.0.1\n", encoding="utf-8")
    git(root, "commit", "-qam", "1.0.1")
    git(root, "tag", "-a", "v1.0.1", "-m", "v1.0.1")  # annotated: its commit is the target
    (root / "src" / "index.js").write_text(V2, encoding="utf-8")
    git(root, "commit", "-qam", "v2: oldDraw goes")
    git(root, "tag", "v2.0.0")
    git(root, "tag", "v2.1.0-rc.1")
    # The site: the current docs, the 1.0 pages, and a 0.5 folder no tag stands for.
    site = root / "website"
    (site / "docs").mkdir(parents=True)
    (site / "versioned_docs" / "version-1.0").mkdir(parents=True)
    (site / "versioned_docs" / "version-0.5").mkdir(parents=True)
    (site / "versions.json").write_text('["1.0", "0.5"]\n', encoding="utf-8")
    return root


def _card(root: Path, folder: str, tmp_path: Path) -> object:
    page = root / "website" / folder / "usage.md"
    page.write_text(f"{FRONT_MATTER}Intro.\n\n```js\n{SAMPLE}```\n", encoding="utf-8")
    return code_samples.GATE.evaluate(parse_post(page), repo_context(root, tmp_path / "cache"))


def test_a_name_removed_after_the_release_is_no_finding_on_its_versioned_page(
    widgets: Path, tmp_path: Path
) -> None:
    card = _card(widgets, "versioned_docs/version-1.0", tmp_path)
    assert sample_violations(card) == [("member", "Widget.neverThere")]
    release = card.detail["release"]  # type: ignore[attr-defined]
    assert (release["version"], release["tag"]) == ("1.0", "v1.0.1")
    assert card.detail["ref"] == "v1.0.1"  # type: ignore[attr-defined]
    assert "v1.0.1" in card.summary  # type: ignore[attr-defined]
    assert "1.0" in card.summary  # type: ignore[attr-defined]


def test_the_current_page_is_judged_at_the_ref(widgets: Path, tmp_path: Path) -> None:
    card = _card(widgets, "docs", tmp_path)
    assert sample_violations(card) == [
        ("member", "Widget.neverThere"),
        ("member", "Widget.oldDraw"),
    ]
    assert "release" not in card.detail  # type: ignore[attr-defined]


def test_a_version_with_no_tag_leaves_every_use_unjudged(widgets: Path, tmp_path: Path) -> None:
    card = _card(widgets, "versioned_docs/version-0.5", tmp_path)
    assert sample_violations(card) == []
    unjudged = card.detail["unjudged"]  # type: ignore[attr-defined]
    reasons = {u.get("name"): u["reason"] for u in unjudged}
    assert {"render", "Widget.oldDraw", "Widget.neverThere"} <= set(reasons), reasons
    for reason in reasons.values():
        assert "the page documents release 0.5; no tag of 0.5 in the repository" in reason
    assert card.detail["checked"] == 0  # type: ignore[attr-defined]
    assert card.detail["release"]["tag"] is None  # type: ignore[attr-defined]
    assert card.verdict == "PASS"  # type: ignore[attr-defined]
    assert "not judged" in card.summary  # type: ignore[attr-defined]


def test_a_version_folder_versions_json_does_not_list_is_not_read_as_one(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "site" / "versioned_docs" / "version-1.0"
    folder.mkdir(parents=True)
    page = folder / "a.md"
    page.write_text("x\n", encoding="utf-8")
    assert documented_version(page) is None  # no versions.json: nothing states it
    (tmp_path / "site" / "versions.json").write_text('["2.0"]', encoding="utf-8")
    assert documented_version(page) is None
    (tmp_path / "site" / "versions.json").write_text('["2.0", "1.0"]', encoding="utf-8")
    assert documented_version(page) == "1.0"
    # A docs plugin instance of its own: `<id>_versioned_docs`, `<id>_versions.json`.
    other = tmp_path / "site" / "api_versioned_docs" / "version-3.x" / "b.md"
    other.parent.mkdir(parents=True)
    other.write_text("x\n", encoding="utf-8")
    assert documented_version(other) is None
    (tmp_path / "site" / "api_versions.json").write_text('["3.x"]', encoding="utf-8")
    assert documented_version(other) == "3.x"


def test_the_newest_tag_of_a_version(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"a.txt": "a"})
    for tag in ("v22.4.0", "v22.4.4", "v22.10.0", "22.4.2", "v5.1.0", "v5.9.8", "v6.0.0-rc.1"):
        git(root, "tag", tag)
    assert release_for(root, "22.4", "").tag == "v22.4.4"
    assert release_for(root, "5.x", "").tag == "v5.9.8"
    assert release_for(root, "5", "").tag == "v5.9.8"
    assert release_for(root, "22.4.2", "").tag == "22.4.2"
    missing = release_for(root, "6.0", "")
    assert missing.tag is None and "no tag of 6.0" in missing.reason
    assert release_for(root, "current", "").current
    assert release_for(root, "next", "").current
    odd = release_for(root, "2024-spring", "")
    assert odd.tag is None and "2024-spring" in odd.reason
    # A monorepo's package tags: the product's own (`pkg@X.Y.Z`), not a sibling's.
    git(root, "tag", "widgets@7.1.3")
    git(root, "tag", "other@7.1.9")
    assert release_for(root, "7.1", "widgets").tag == "widgets@7.1.3"
    assert release_for(root, "7.1", "").tag is None


def test_only_the_newest_versions_are_judged(widgets: Path, tmp_path: Path) -> None:
    """Each release judged costs its own index and model: versions past the bound (by
    their place in versions.json, newest first) are listed unjudged, none built."""
    listing = widgets / "website" / "versions.json"
    kept = listing.read_text(encoding="utf-8")
    older = [f"0.{n}" for n in range(MAX_VERSIONS, 0, -1)]
    listing.write_text(json.dumps([*older, "1.0"]), encoding="utf-8")
    try:
        page = widgets / "website" / "versioned_docs" / "version-1.0" / "usage.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("x\n", encoding="utf-8")
        assert listed_version(page) == ("1.0", MAX_VERSIONS)
        card = _card(widgets, "versioned_docs/version-1.0", tmp_path)
        assert sample_violations(card) == []
        reasons = [u["reason"] for u in card.detail["unjudged"]]  # type: ignore[attr-defined]
        assert reasons and all("older than the" in r for r in reasons), reasons
        assert card.detail["release"]["tag"] is None  # type: ignore[attr-defined]
    finally:
        listing.write_text(kept, encoding="utf-8")


def test_a_tag_whose_product_cannot_be_read_leaves_every_use_unjudged(tmp_path: Path) -> None:
    """The tag of 0.1 holds no package and no code: nothing there to judge the page by,
    and the ref is not what the page documents."""
    root = make_repo(tmp_path / "r", {"README.md": "widgets, soon\n"})
    git(root, "tag", "v0.1.0")
    (root / "package.json").write_text(MANIFEST, encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "index.js").write_text(V2, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the code")
    (root / "website" / "versioned_docs" / "version-0.1").mkdir(parents=True)
    (root / "website" / "versions.json").write_text('["0.1"]', encoding="utf-8")
    card = _card(root, "versioned_docs/version-0.1", tmp_path)
    assert sample_violations(card) == []
    reasons = [u["reason"] for u in card.detail["unjudged"]]  # type: ignore[attr-defined]
    assert reasons, card.detail  # type: ignore[attr-defined]
    for reason in reasons:
        assert "the page documents release 0.1; the product at v0.1.0 cannot be read" in reason
    assert card.detail["release"]["tag"] == "v0.1.0"  # type: ignore[attr-defined]
    assert "judged against" not in card.summary  # type: ignore[attr-defined]
    assert "cannot be read" in card.summary  # type: ignore[attr-defined]
