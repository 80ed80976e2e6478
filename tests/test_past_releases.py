"""The product's past (evidence/past_releases.py): the newest release of each earlier major
and where it declared a name (gate 15 reads it; gate 2's past-release rule, which read it
for pages about the past, was deleted in session 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_postgates.evidence.past_releases import PastReleases, past_releases
from pytest_postgates.evidence.repo import version_tags
from tests.helpers import git, make_repo

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


def test_a_single_name_an_old_release_wrote(old_repo: Path, tmp_path: Path) -> None:
    head = git(old_repo, "rev-parse", "HEAD").strip()
    past = PastReleases(old_repo, head, tmp_path / "cache")
    written = past.last_declared(["legacyFlag"])  # an attribute 0.x's code reads
    assert written is not None and written.release == "v0.9.0"
    assert past.last_declared(["legacyFlags"]) is None


def test_version_tags_reads_plain_package_and_annotated_tags(tmp_path: Path) -> None:
    """One lister serves both readers of the repository's releases (past majors here,
    versioned docs pages in doc_versions): plain and ``v`` tags, a package's
    ``<package>@`` tags, an annotated tag standing for its commit; a pre-release or a
    name that is no version is no release."""
    root = make_repo(tmp_path / "lib", {"lintlib/__init__.py": "X = 1\n"})
    first = git(root, "rev-parse", "HEAD").strip()
    for tag in ("v1.2.3", "2.0.0", "@scope/core@3.1.0", "4.0.0-rc.1", "latest"):
        git(root, "tag", tag)
    git(root, "tag", "-a", "v5.0.0", "-m", "five")  # annotated: its object is the tag's
    found = {(t.name, t.number, t.package, t.commit) for t in version_tags(root)}
    assert found == {
        ("v1.2.3", (1, 2, 3), "", first),
        ("2.0.0", (2, 0, 0), "", first),
        ("@scope/core@3.1.0", (3, 1, 0), "@scope/core", first),
        ("v5.0.0", (5, 0, 0), "", first),
    }
    assert version_tags(tmp_path / "not-a-repository") == []


def _tag_each(root: Path, versions: list[str], with_rule: set[str]) -> None:
    for version in versions:
        _commit_and_tag(root, (V1 if version in with_rule else V2) + f"\n# {version}\n", version)


def test_a_project_under_1_0_breaks_at_minors(tmp_path: Path) -> None:
    """Under 1.0 each minor is a release line (semver), so 0.3's past is 0.2's newest
    patch and 0.1; from 1.0 on, the 0.x releases are one line, as before."""
    root = make_repo(
        tmp_path / "lintlib",
        {"lintlib/__init__.py": "from .linter import Linter\n", "lintlib/linter.py": V1},
    )
    _tag_each(root, ["v0.1.0", "v0.2.0", "v0.2.1", "v0.3.0"], {"v0.1.0", "v0.2.0", "v0.2.1"})
    head = git(root, "rev-parse", "HEAD").strip()
    past = PastReleases(root, head, tmp_path / "cache")
    assert [r.tag for r in past.releases()] == ["v0.2.1", "v0.1.0"]
    declared = past.last_declared(["Linter", "define_rule"])
    assert declared is not None and declared.release == "v0.2.1"
    _tag_each(root, ["v1.0.0"], set())
    head = git(root, "rev-parse", "HEAD").strip()
    assert [r.tag for r in PastReleases(root, head, tmp_path / "c2").releases()] == ["v0.3.0"]


def test_many_minors_under_1_0_the_newest_and_a_spread_of_the_older(tmp_path: Path) -> None:
    """Twenty 0.x minors: the newest four below the current one, then four spread evenly
    from the next down to the oldest (a name that lived over some minors long ago is met)."""
    root = make_repo(
        tmp_path / "lintlib",
        {"lintlib/__init__.py": "from .linter import Linter\n", "lintlib/linter.py": V2},
    )
    for minor in range(1, 21):
        git(root, "commit", "-q", "--allow-empty", "-m", f"0.{minor}")
        git(root, "tag", f"v0.{minor}.0")
    head = git(root, "rev-parse", "HEAD").strip()
    tags = [r.tag for r in PastReleases(root, head, tmp_path / "cache").releases()]
    assert tags == [f"v0.{m}.0" for m in (19, 18, 17, 16, 15, 10, 6, 1)]
