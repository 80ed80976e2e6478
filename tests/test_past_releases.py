"""The product's past (evidence/past_releases.py, helpers/past_names.py): a name an
earlier release declared is the subject of a page about that release, and named as removed
in a finding anywhere else."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_postgates.evidence import past_releases as past_releases_module
from pytest_postgates.evidence.past_releases import PastReleases, past_releases
from pytest_postgates.gates import symbol_grounding as gate
from pytest_postgates.helpers.past_names import _past_parts, page_about_the_past, page_majors
from tests.helpers import git, make_post, make_repo, repo_context, token_outcome

V1 = (
    "class Linter:\n"
    "    def verify(self, text: str) -> list[str]:\n        return []\n\n"
    "    def define_rule(self, name: str) -> None: ...\n\n\n"
    "class RuleTester:\n    def run_all(self) -> None: ...\n"
)
V2 = "class Linter:\n    def verify(self, text: str) -> list[str]:\n        return []\n"


def _commit_and_tag(repo: Path, text: str, tag: str) -> None:
    (repo / "lintlib" / "linter.py").write_text(text, encoding="utf-8")
    git(repo, "commit", "-qam", tag)
    git(repo, "tag", "-a", tag, "-m", tag)  # annotated: its commit is the tag's target


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("lintlib"),
        {"lintlib/__init__.py": "from .linter import Linter\n", "lintlib/linter.py": V1},
    )
    git(root, "tag", "v0.9.0")  # a lightweight tag of an older major
    _commit_and_tag(root, V1 + "\n# 1.2\n", "v1.2.0")
    _commit_and_tag(root, V1 + "\n# 1.3\n", "v1.3.0")
    _commit_and_tag(root, V2, "v2.0.0")
    (root / "lintlib" / "extra.py").write_text("def helper() -> None: ...\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "after the release")
    git(root, "tag", "not-a-version")
    return root


def test_the_newest_tag_of_each_earlier_major_and_where_it_declared_the_name(
    repo: Path, tmp_path: Path
) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    past = PastReleases(repo, head, tmp_path / "cache")
    assert [r.tag for r in past.releases()] == ["v1.3.0", "v0.9.0"]
    declared = past.last_declared(["Linter", "define_rule"])
    assert declared is not None
    assert (declared.release, declared.where) == ("v1.3.0", "lintlib/linter.py")
    assert past.last_declared(["Linter", "invented_rule"]) is None
    assert past.last_declared(["RuleTester", "run_all"]) is not None
    # Only as written: `rule_tester` or `Ruletester` reads as a variable named for the
    # class, which is how a page may write an instance, not the past's name.
    assert past.last_declared(["rule_tester", "run_all"]) is None
    assert past.last_declared(["ruletester", "run_all"]) is None
    assert (
        past.last_declared(["Linter", "verify"]) is not None
    )  # still there: gate 2 asks only on a miss
    # Cached on disk: another process reads the model back without a build.
    again = PastReleases(repo, head, tmp_path / "cache")
    assert list((tmp_path / "cache").glob("pastmodel-*.json"))
    assert again.last_declared(["Linter", "define_rule"]) == declared
    # One per process for a repository at a commit.
    assert past_releases(repo, head, tmp_path / "c2") is past_releases(repo, head, tmp_path / "c2")


def test_a_repository_with_one_major_or_no_tags_has_no_past(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "r", {"pkg/__init__.py": "def f() -> None: ...\n"})
    head = git(root, "rev-parse", "HEAD").strip()
    assert PastReleases(root, head, tmp_path / "cache").releases() == []
    git(root, "tag", "v3.1.0")
    assert PastReleases(root, head, tmp_path / "cache2").releases() == []


def test_a_removed_name_is_unjudged_on_a_migration_guide_only(repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(repo, tmp_path / "cache")
    body = "`Linter.define_rule()` is gone; `Linter.define_rulez()` never was.\n"
    guide = gate.GATE.evaluate(make_post(body, tmp_path, name="migrating-to-2.0.0.md"), ctx)
    removed = token_outcome(guide, "Linter.define_rule()")
    assert (removed["outcome"], removed["rule"]) == ("unjudged", "past-release")
    assert "v1.3.0" in removed["reason"] and "migrat" in removed["reason"]
    # An invented name on the same page is still an invention.
    invented = token_outcome(guide, "Linter.define_rulez()")
    assert invented["outcome"] == "ungrounded"
    # On any other page the removed name is a finding, and no past model is built for it.
    cache = tmp_path / "elsewhere"
    usage = gate.GATE.evaluate(
        make_post(body, tmp_path, name="usage.md"), repo_context(repo, cache)
    )
    stale = token_outcome(usage, "Linter.define_rule()")
    assert stale["outcome"] == "ungrounded"
    assert not list(cache.rglob("pastmodel-*.json"))


def test_the_rule_can_be_turned_off(repo: Path, tmp_path: Path) -> None:
    ctx = repo_context(repo, tmp_path / "cache", symbol_rules_off=("past-release",))
    body = "`Linter.define_rule()` is gone.\n"
    card = gate.GATE.evaluate(make_post(body, tmp_path, name="migrating-to-2.0.0.md"), ctx)
    entry = token_outcome(card, "Linter.define_rule()")
    assert entry["outcome"] == "ungrounded" and "v1.3.0" not in entry["reason"]


def test_a_member_found_only_loosely_in_a_release_is_no_past_name(
    repo: Path, tmp_path: Path
) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    past = PastReleases(repo, head, tmp_path / "cache")
    # `lintlib.anything.define_rule`: the release's model cannot type `anything`, and
    # would find `define_rule` as a member of some class; that is no declaration.
    assert past.last_declared(["lintlib", "Linter", "define_rule"]) is not None
    assert past.last_declared(["Linter", "verify", "define_rule"]) is None


def test_an_old_major_released_from_a_maintenance_branch_is_its_past(tmp_path: Path) -> None:
    """An old major's last release, cut from a branch the gated commit's history never
    merges (fastify's v2.15.3), is that major's past: its newest tag, not the newest one the
    history holds; a newer or current major's tag off the history is no past of it."""
    root = make_repo(
        tmp_path / "lintlib",
        {"lintlib/__init__.py": "from .linter import Linter\n", "lintlib/linter.py": V2},
    )
    git(root, "tag", "v1.3.0")
    main = git(root, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(root, "checkout", "-qb", "1.x")
    _commit_and_tag(root, V1 + "\n# 1.4\n", "v1.4.0")  # define_rule only here
    git(root, "checkout", "-q", main)
    _commit_and_tag(root, V2 + "\n# 2.0\n", "v2.0.0")
    git(root, "checkout", "-qb", "next")
    _commit_and_tag(root, V2 + "\n# 3.0\n", "v3.0.0")  # a newer major, not in main's history
    git(root, "checkout", "-q", main)
    head = git(root, "rev-parse", "HEAD").strip()
    past = PastReleases(root, head, tmp_path / "cache")
    assert [r.tag for r in past.releases()] == ["v1.4.0"]
    declared = past.last_declared(["Linter", "define_rule"])
    assert declared is not None and declared.release == "v1.4.0"


V0 = (
    "class Linter:\n"
    "    def verify(self, text: str) -> list[str]:\n        return []\n\n"
    "    def old_rule(self) -> None: ...\n\n\n"
    "def configure(options: object) -> object:\n    return options.legacyFlag\n"
)


@pytest.fixture(scope="module")
def old_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """old_rule and legacyFlag only in 0.x, define_rule in 1.x, neither in 2.x."""
    root = make_repo(
        tmp_path_factory.mktemp("oldlib"),
        {"lintlib/__init__.py": "from .linter import Linter\n", "lintlib/linter.py": V0},
    )
    git(root, "tag", "v0.9.0")
    _commit_and_tag(root, V1, "v1.0.0")
    _commit_and_tag(root, V2, "v2.0.0")
    return root


def test_a_migration_guide_reads_the_major_it_migrates_from_however_old(
    old_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(past_releases_module, "MAX_RELEASES", 1)  # the newest earlier major only
    head = git(old_repo, "rev-parse", "HEAD").strip()
    assert [r.tag for r in PastReleases(old_repo, head, tmp_path / "c").releases()] == ["v1.0.0"]
    body = "`Linter.old_rule()` is gone.\n"
    ctx = repo_context(old_repo, tmp_path / "cache")
    to_one = gate.GATE.evaluate(make_post(body, tmp_path, name="migrating-to-1.0.0.md"), ctx)
    entry = token_outcome(to_one, "Linter.old_rule()")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "past-release"), entry
    assert "v0.9.0" in entry["reason"]
    # A guide to 2.0 is about 1.x (read) and the newest majors: 0.x is not its past.
    to_two = gate.GATE.evaluate(make_post(body, tmp_path, name="migrating-to-2.0.0.md"), ctx)
    assert token_outcome(to_two, "Linter.old_rule()")["outcome"] == "ungrounded"


def test_a_page_whose_opening_says_its_subject_was_removed_is_about_the_past(
    repo: Path, tmp_path: Path
) -> None:
    ctx = repo_context(repo, tmp_path / "cache")
    removed = "This rule was removed in v2.0.0.\n\n`Linter.define_rule()` checks names.\n"
    card = gate.GATE.evaluate(make_post(removed, tmp_path, name="define-rule.md"), ctx)
    entry = token_outcome(card, "Linter.define_rule()")
    assert (entry["outcome"], entry["rule"]) == ("unjudged", "past-release"), entry
    assert "was removed in v2.0.0" in entry["reason"]
    current = "This rule checks names.\n\n`Linter.define_rule()` checks names.\n"
    card = gate.GATE.evaluate(make_post(current, tmp_path, name="define-rule.md"), ctx)
    assert token_outcome(card, "Linter.define_rule()")["outcome"] == "ungrounded"


@pytest.mark.parametrize(
    ("name", "about"),
    [
        ("history/tool.md", 'its folder says "history"'),
        ("HISTORY.md", 'its file says "HISTORY"'),
        ("changelog.md", 'its file says "changelog"'),
        ("guide/history-of-errors.md", ""),
        ("usage.md", ""),
    ],
)
def test_a_page_on_earlier_releases_is_known_by_its_file_or_folder(
    name: str, about: str, tmp_path: Path
) -> None:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    assert page_about_the_past(make_post("Text.\n", tmp_path, name=name)) == about


@pytest.mark.parametrize(
    ("name", "title", "opening", "majors"),
    [
        ("migrating-to-2.0.0.md", "", "", [1]),
        ("migrate-to-10.0.0.md", "", "", [9]),
        ("Migration-Guide-V5.md", "", "", [4]),
        ("upgrading.md", "Migrate to v3.x", "", [2]),
        ("valid-jsdoc.md", "", "This rule was removed in ESLint v9.0.0 and replaced.", [8]),
        ("migration.md", "", "", []),
        ("usage.md", "", "Options were removed from the defaults.", []),
    ],
)
def test_the_majors_a_page_is_about(
    name: str, title: str, opening: str, majors: list[int], tmp_path: Path
) -> None:
    front = f"---\ntitle: {title or 'T'}\n---\n"
    post = make_post(f"{opening}\n\nText.\n", tmp_path, name=name, front=front)
    assert page_majors(post) == majors


def test_a_single_name_an_old_release_wrote_and_the_name_a_near_miss_is_about(
    old_repo: Path, tmp_path: Path
) -> None:
    head = git(old_repo, "rev-parse", "HEAD").strip()
    past = PastReleases(old_repo, head, tmp_path / "cache")
    written = past.last_declared(["legacyFlag"])  # an attribute 0.x's code reads
    assert written is not None and written.release == "v0.9.0"
    assert past.last_declared(["legacyFlags"]) is None

    @dataclass
    class Judged:
        token: str
        reason: str
        rule: str = "model-near-miss"
        outcome: str = "ungrounded"

    near = "is not declared in the product; did you mean `x`?"
    # A member of a value the model cannot type: looked up by the member's name.
    assert _past_parts(Judged("engine.getFormatter()", f"`getFormatter` {near}")) == [
        "getFormatter"
    ]
    # A near miss of the chain's head: the chain, as written.
    assert _past_parts(Judged("McpServer.list_prompts", f"`McpServer` {near}")) == [
        "McpServer",
        "list_prompts",
    ]
    assert _past_parts(Judged('"requireReturn": false', f"the key `requireReturn` {near}")) == [
        "requireReturn"
    ]


CLI_V1 = (
    "import argparse\n\n\ndef main() -> None:\n"
    '    parser = argparse.ArgumentParser(prog="lint")\n'
    '    parser.add_argument("--old-style")\n    parser.parse_args()\n'
)


def test_a_flag_an_earlier_release_declared_is_unjudged_on_a_migration_guide_only(
    tmp_path: Path,
) -> None:
    """A flag the parser of an earlier release declared (eslint's `--no-eslintrc` on its
    migration guides) is the page's subject there, and a finding anywhere else."""
    root = make_repo(
        tmp_path / "cli",
        {
            "pyproject.toml": '[project]\nname = "lintlib"\nversion = "1.0"\n'
            '[project.scripts]\nlint = "lintlib.cli:main"\n',
            "lintlib/__init__.py": "",
            "lintlib/cli.py": CLI_V1,
        },
    )
    git(root, "tag", "v1.0.0")
    (root / "lintlib" / "cli.py").write_text(CLI_V1.replace("--old-style", "--new-style"))
    git(root, "commit", "-qam", "2.0")
    git(root, "tag", "v2.0.0")
    body = "The `--old-style` flag is gone.\n"
    guide = gate.GATE.evaluate(
        make_post(body, tmp_path, name="migrating-to-2.0.0.md"),
        repo_context(root, tmp_path / "cache"),
    )
    removed = token_outcome(guide, "--old-style")
    assert (removed["outcome"], removed["rule"]) == ("unjudged", "past-release")
    assert "v1.0.0" in removed["reason"]
    usage = gate.GATE.evaluate(
        make_post(body, tmp_path, name="usage.md"), repo_context(root, tmp_path / "c2")
    )
    assert token_outcome(usage, "--old-style")["outcome"] == "ungrounded"
