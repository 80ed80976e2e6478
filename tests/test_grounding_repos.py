"""`repos`: gate 2 grounds against more repositories than the configured one, and says
which repository grounded each token. Through pytest, with real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import git, make_repo

FRONT = "---\nlayout: post\ntitle: T\ndate: 2026-01-01\n---\n"


@pytest.fixture
def product(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(
        tmp_path_factory.mktemp("product") / "widgets",
        {
            "package.json": '{"name": "@acme/widgets"}\n',
            "src/render.ts": "export function renderWidget() {}\n",
        },
    )


@pytest.fixture
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_repo(
        tmp_path_factory.mktemp("docs") / "handbook",
        {"guide/style.md": "# Style\n\nUse `sentenceCase` headings.\n"},
    )
    # A later commit that the configured ref does not reach.
    git(root, "checkout", "-q", "-b", "next")
    (root / "guide" / "later.md").write_text("the `laterOnlyName` arrives here\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "later")
    git(root, "checkout", "-q", "main")
    return root


def _blog(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, config: str) -> Path:
    """A blog in its own git repository, with its own tooling, grounded against `product`."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    pytester.makepyprojecttoml("[tool.postgates]\n" + config)
    (pytester.path / "scripts").mkdir()
    (pytester.path / "scripts" / "build-feed.mjs").write_text("export function buildFeed() {}\n")
    (pytester.path / "_posts").mkdir()
    git(pytester.path, "init", "-q", "-b", "main")
    return pytester.path


def _write_post(blog: Path, name: str, body: str) -> None:
    (blog / "_posts" / f"2026-01-01-{name}.md").write_text(FRONT + body)
    git(blog, "add", "-A")
    git(blog, "commit", "-qm", name)


def _card(blog: Path, name: str) -> dict:
    path = blog / ".postgates" / "scorecards" / f"2026-01-01-{name}-gate2-symbol_grounding.json"
    return json.loads(path.read_text())


def _outcome(card: dict, token: str) -> tuple[str, dict]:
    for outcome, entries in card["detail"]["outcomes"].items():
        for entry in entries:
            if entry["token"] == token:
                return outcome, entry
    for entry in card["detail"]["ungrounded"]:
        if entry["token"] == token:
            return "ungrounded", entry
    raise AssertionError(token)


def test_the_repository_holding_the_posts_is_added_by_default(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, product: Path
) -> None:
    blog = _blog(pytester, monkeypatch, f'repo = "{product}"\n')
    _write_post(
        blog,
        "tooling",
        "The feed is built by `scripts/build-feed.mjs` calling `buildFeed` and `renderWidget`.\n",
    )
    _write_post(blog, "invented", "It calls `renderWidget` and `renderGadget`.\n")
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.assert_outcomes(passed=1, failed=1)
    card = _card(blog, "tooling")
    assert card["verdict"] == "PASS"
    assert card["detail"]["repos"] == ["repo", "posts"]
    outcome, entry = _outcome(card, "scripts/build-feed.mjs")
    assert (outcome, entry["repo"], entry["where"]) == (
        "external",
        "posts",
        "scripts/build-feed.mjs",
    )
    assert _outcome(card, "buildFeed")[1]["repo"] == "posts"
    outcome, entry = _outcome(card, "renderWidget")
    assert (outcome, entry["repo"]) == ("grounded", "repo")
    # The blog repository never grounds a name on the posts themselves.
    invented = _card(blog, "invented")
    assert _outcome(invented, "renderGadget")[0] == "ungrounded"


def test_configured_repos_ground_at_their_own_ref(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, product: Path, docs: Path
) -> None:
    # Every token a claim (the seeds' mode): `laterOnlyName` is tied to no repository.
    config = (
        f'repo = "{product}"\nsymbol_unanchored_claims = true\n'
        f'[[tool.postgates.repos]]\nname = "handbook"\npath = "{docs}"\nref = "main"\n'
    )
    blog = _blog(pytester, monkeypatch, config)
    _write_post(
        blog,
        "docs",
        "Headings use `sentenceCase` (see `guide/style.md`); `laterOnlyName` is not out yet.\n",
    )
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.assert_outcomes(failed=1)
    card = _card(blog, "docs")
    assert card["detail"]["repos"] == ["repo", "handbook", "posts"]
    outcome, entry = _outcome(card, "guide/style.md")
    assert (outcome, entry["repo"]) == ("external", "handbook")
    # The handbook's prose names `sentenceCase`; prose is no evidence for a code name.
    assert _outcome(card, "sentenceCase")[0] == "ungrounded"
    # It exists only on a branch the configured ref does not reach.
    assert _outcome(card, "laterOnlyName")[0] == "ungrounded"


def test_a_repos_entry_that_cannot_be_read_is_an_error_naming_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, product: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "not-a-repo"
    missing.mkdir()
    config = (
        f'repo = "{product}"\n[[tool.postgates.repos]]\nname = "handbook"\npath = "{missing}"\n'
    )
    blog = _blog(pytester, monkeypatch, config)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    _write_post(blog, "any", "It calls `renderWidget`.\n")
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*repos entry 'handbook'*not inside a git repository*"])


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('path = "."', "missing keys ['name']"),
        ('name = "a"\npath = "."\nbranch = "x"', "unknown keys ['branch']"),
    ],
)
def test_a_malformed_repos_entry_is_a_usage_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, entry: str, message: str
) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    pytester.makepyprojecttoml(f"[tool.postgates]\n[[tool.postgates.repos]]\n{entry}\n")
    result = pytester.runpytest("--postgates-only=2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"postgates repos entry {'a' if 'name' in entry else '?'!r}: {message}" in (
        result.stderr.str()
    )


DECLARED = '[[tool.postgates.repos]]\nname = "blog"\ntags = ["factory"]\n'
FACTORY_POST = (
    "---\nlayout: post\ntitle: T\ndate: 2026-01-01\ntags: [factory]\n---\n"
    "The feed is built by `scripts/build-feed.mjs` calling `buildFeed`, then\n"
    "`renderWidget`; the factory's report sets `held_reason`.\n"
)


def test_a_declared_codebase_without_a_path_is_the_repository_holding_the_posts(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, product: Path
) -> None:
    # Every token a claim (the seeds' mode): `held_reason` is tied to no repository.
    config = f'repo = "{product}"\nsymbol_unanchored_claims = true\n' + DECLARED
    blog = _blog(pytester, monkeypatch, config)
    (blog / "_posts" / "2026-01-01-factory.md").write_text(FACTORY_POST)
    git(blog, "add", "-A")
    git(blog, "commit", "-qm", "factory")
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.assert_outcomes(failed=1)
    card = _card(blog, "factory")
    # The entry is the blog's repository under its declared name (no automatic "posts").
    assert card["detail"]["repos"] == ["repo", "blog"]
    outcome, entry = _outcome(card, "scripts/build-feed.mjs")
    assert (outcome, entry["repo"]) == ("external", "blog")
    assert _outcome(card, "renderWidget")[0] == "grounded"
    # Available, so a name it lacks is a finding, not unjudged.
    assert _outcome(card, "held_reason")[0] == "ungrounded"
    assert "unjudged" not in card["detail"]["outcomes"]


def test_a_declared_codebase_outside_any_repository_lists_its_tokens_as_unjudged(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, product: Path
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:cacheprovider -p no:hypothesispytest")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(pytester.path.parent))
    pytester.makepyprojecttoml(f'[tool.postgates]\nrepo = "{product}"\n' + DECLARED)
    (pytester.path / "_posts").mkdir()
    (pytester.path / "_posts" / "2026-01-01-factory.md").write_text(FACTORY_POST)
    result = pytester.runpytest("-rA", "--postgates-only=2")
    result.assert_outcomes(passed=1)
    card = _card(pytester.path, "factory")
    unjudged = {e["token"]: e for e in card["detail"]["outcomes"]["unjudged"]}
    assert set(unjudged) == {"scripts/build-feed.mjs", "buildFeed", "held_reason"}
    assert unjudged["held_reason"]["reason"] == (
        "names code in blog, which is not available to this run"
    )
    assert card["detail"]["unavailable_repos"] == ["blog"]
    assert _outcome(card, "renderWidget")[0] == "grounded"
