"""Without ``POSTGATES_CACHE_KEY`` a restored index's history is git's, not the folder's:
the commit ids, tags and commit messages an index folder holds (``meta.json``,
``messages.txt``) ground SHA, version and phrase tokens in gate 2, and nothing in the folder
vouches for them. A planted id, tag or message between two runs grounds nothing; the
CHANGELOG is the one the (verified) file list names; and a post's text added to the index
(git's own blob, so the text check passes) is refused: posts are never evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_postgates.evidence import index as index_module
from pytest_postgates.evidence.index import open_index
from pytest_postgates.gates import symbol_grounding
from pytest_postgates.post import parse_post
from tests.helpers import FRONT_MATTER, git, make_post, make_repo, repo_context

KEY_ENV = "POSTGATES_CACHE_KEY"
INVENTED_SHA = "c0ffee1234"
INVENTED_TAG = "v9.8.7"
INVENTED_MESSAGE = "flux capacitor overdrive"
BODY = (
    "Call `realFunction()` as fixed in `v1.2.0`, commit `{sha}`, the `{message}` step "
    "and release `{tag}`.\n"
)


@pytest.fixture
def real(tmp_path: Path) -> tuple[Path, str]:
    repo = make_repo(
        tmp_path / "real",
        {
            "src/app.ts": "export function realFunction() {}\n",
            "CHANGELOG.md": "# Changes\n\n## 1.2.0\n\n- realFunction is faster.\n",
            "docs/notes.txt": "Version 9.8.7 of another tool is unrelated; see 5 ms.\n",
        },
    )
    git(repo, "tag", "v1.2.0")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def plant_history(folder: Path) -> None:
    """A forger's edit of an index folder: an invented commit id and tag in ``meta.json``,
    an invented commit message, the CHANGELOG moved to another (real, verified) file."""
    meta = json.loads((folder / "meta.json").read_text())
    meta["commits"] = sorted([*meta["commits"], INVENTED_SHA + "0" * 30])
    meta["tags"] = [*meta["tags"], INVENTED_TAG]
    meta["changelog_path"] = "docs/notes.txt"
    (folder / "meta.json").write_text(json.dumps(meta))
    with open(folder / "messages.txt", "a", encoding="utf-8") as messages:
        messages.write(INVENTED_MESSAGE + "\n\0")


def gate_2(root: Path, cache: Path, tmp_path: Path) -> tuple[str, list[str]]:
    body = BODY.format(sha=INVENTED_SHA, message=INVENTED_MESSAGE, tag=INVENTED_TAG)
    post = make_post(FRONT_MATTER + body, tmp_path)
    context = repo_context(root, cache, symbol_unanchored_claims=True)
    card = symbol_grounding.GATE.evaluate(post, context)
    return card.verdict, sorted(u["token"] for u in card.detail["ungrounded"])


def test_a_history_planted_in_an_unkeyed_index_between_two_runs_grounds_nothing(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    root, commit = real
    cache = tmp_path / "cache"
    first = gate_2(root, cache, tmp_path)
    assert first == ("FAIL", sorted([INVENTED_SHA, INVENTED_MESSAGE, INVENTED_TAG]))
    folder = cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"
    plant_history(folder)
    assert gate_2(root, cache, tmp_path) == first
    index = open_index(root, commit, cache)
    assert index.changelog_path == "CHANGELOG.md" and "1.2.0" in index.changelog
    assert index.commit_for(INVENTED_SHA) is None and INVENTED_TAG not in index.tags
    assert not index.in_messages(INVENTED_MESSAGE)


def test_an_unkeyed_index_reads_the_history_git_has_now(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tag or branch made after the index was built is known without a rebuild (the
    history is read from git at each load; the text index is kept)."""
    monkeypatch.delenv(KEY_ENV, raising=False)
    root, commit = real
    cache = tmp_path / "cache"
    open_index(root, commit, cache)
    folder = cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"
    inode = (folder / "text.bin").stat().st_ino
    git(root, "tag", "v1.3.0")
    index = open_index(root, commit, cache)
    assert "v1.3.0" in index.tags and "v1.2.0" in index.tags
    assert index.commit_for(commit[:10]) == commit
    assert (folder / "text.bin").stat().st_ino == inode


def test_with_a_cache_key_a_planted_history_breaks_the_seal(
    real: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, "a-long-random-ci-secret")
    root, commit = real
    cache = tmp_path / "cache"
    first = gate_2(root, cache, tmp_path)
    plant_history(cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all")
    assert gate_2(root, cache, tmp_path) == first


def test_a_post_planted_into_an_unkeyed_index_is_not_its_own_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text of a ``_posts`` file added to a restored index (its blob id is git's, so
    the text check alone passes) is refused: posts are never searched."""
    from tests.hostile.test_hostile_forged_word_table import plant_words

    monkeypatch.delenv(KEY_ENV, raising=False)
    post_text = FRONT_MATTER + f"Call `realFunction()` as of release `{INVENTED_TAG}`.\n"
    root = make_repo(
        tmp_path / "blog",
        {"src/app.ts": "export function realFunction() {}\n", "_posts/2026-06-03-x.md": post_text},
    )
    commit = git(root, "rev-parse", "HEAD").strip()
    cache = tmp_path / "cache"
    post = root / "_posts" / "2026-06-03-x.md"

    def run() -> tuple[str, list[str]]:
        context = repo_context(root, cache, symbol_unanchored_claims=True)
        card = symbol_grounding.GATE.evaluate(parse_post(post), context)
        return card.verdict, [u["token"] for u in card.detail["ungrounded"]]

    first = run()
    assert first == ("FAIL", [INVENTED_TAG])
    folder = cache / f"index-v{index_module.INDEX_VERSION}-{commit}-all"
    meta = json.loads((folder / "meta.json").read_text())
    size = (folder / "text.bin").stat().st_size
    with open(folder / "text.bin", "ab") as text:
        text.write(post.read_bytes() + b"\0")
    meta["text_paths"].append("_posts/2026-06-03-x.md")
    meta["offsets"].append(size)
    (folder / "meta.json").write_text(json.dumps(meta))
    plant_words(folder, root, {})
    assert run() == first
