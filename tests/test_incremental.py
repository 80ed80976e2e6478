"""Result cache, --postgates-changed, interrupted runs and runs sharing a cache folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import BLOG_FRONT, GATE11_ADOPTED, GROUNDED, blog_repo, git, make_repo

FRONT, GOOD = BLOG_FRONT, GROUNDED


@pytest.fixture
def blog(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv(
        "PYTEST_ADDOPTS",
        f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest --postgates-only=2,11,13",
    )
    # Distinct bodies: identical bytes would share one cached result, by design.
    posts = {f"2026-01-0{i + 1}-post.md": FRONT + GOOD + f"\nPost {i}.\n" for i in range(3)}
    blog_repo(pytester.path, posts)
    return pytester


SPY = """
import pytest_postgates.runner as runner
_original = runner.parse_post
def spy(path, data=None):
    with open("parses.log", "a") as log:
        log.write(path.name + "\\n")
    return _original(path, data)
runner.parse_post = spy
"""


def _parses(blog: pytest.Pytester) -> list[str]:
    log = blog.path / "parses.log"
    names = log.read_text().split() if log.exists() else []
    log.unlink(missing_ok=True)
    return names


def test_unchanged_posts_are_not_gated_again(blog: pytest.Pytester) -> None:
    blog.makeconftest(SPY)
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    assert len(_parses(blog)) == 3
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    assert _parses(blog) == []  # every result came from the cache
    # Editing one post re-gates that post only; the scorecards are the same as before.
    post = blog.path / "_posts" / "2026-01-02-post.md"
    post.write_text(FRONT + GOOD + "\nMore words about pytest.\n")
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    assert _parses(blog) == ["2026-01-02-post.md"]


def test_judge_gates_without_a_judge_skip_unchanged_posts_unread(
    blog: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no judge configured the judge gates SKIP whatever the post says: that SKIP is
    cached, so a second run neither reads nor parses the post for them. Configuring a
    judge changes the key (the gates run again) and is never served from the cache."""
    monkeypatch.setenv(
        "PYTEST_ADDOPTS", "--postgates -p no:hypothesispytest --postgates-only=4,3,9,10"
    )
    blog.makeconftest(SPY)
    blog.runpytest_subprocess("-rs").assert_outcomes(skipped=12)
    assert len(_parses(blog)) == 3
    second = blog.runpytest_subprocess("-rs")
    second.assert_outcomes(skipped=12)
    assert _parses(blog) == []
    second.stdout.fnmatch_lines(["*no judge*"])
    # Another reason to skip (a judge that is configured but unreachable) is decided anew.
    (blog.path / "pyproject.toml").write_text(
        "[tool.postgates]\njudge_retries = 0\njudge_timeout = 2\n\n"
        '[[tool.postgates.judges]]\nname = "closed"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'model = "m"\napi_key_env = "POSTGATES_TEST_NO_SUCH_KEY"\n'
    )
    for _ in range(2):
        result = blog.runpytest_subprocess()
        assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
        assert len(_parses(blog)) == 3


def test_a_new_commit_or_cache_clear_gates_everything_again(blog: pytest.Pytester) -> None:
    blog.makeconftest(SPY)
    blog.runpytest_subprocess()
    _parses(blog)
    (blog.path / "src" / "app.py").write_text("def render():\n    return 1\n")
    git(blog.path, "commit", "-qam", "change code")
    blog.runpytest_subprocess()
    assert len(_parses(blog)) == 3  # grounding gates depend on the commit
    blog.runpytest_subprocess("--cache-clear")
    assert len(_parses(blog)) == 3


def test_cached_results_keep_failures(blog: pytest.Pytester) -> None:
    (blog.path / "_posts" / "2026-01-01-post.md").write_text(
        FRONT + "Uses `app.invented_thing` in pytest.\n"
    )
    first = blog.runpytest_subprocess()
    second = blog.runpytest_subprocess()
    assert first.parseoutcomes() == second.parseoutcomes()
    second.stdout.fnmatch_lines(["*UNGROUNDED `app.invented_thing`*"])


def test_changed_collects_only_posts_changed_since_a_ref(blog: pytest.Pytester) -> None:
    (blog.path / "_posts" / "2026-01-03-post.md").write_text(FRONT + GOOD + "\nEdited.\n")
    (blog.path / "_posts" / "2026-01-09-new.md").write_text(FRONT + GOOD)
    result = blog.runpytest("--postgates-changed", "HEAD", "--collect-only", "-q")
    assert sorted({line.split("::")[0] for line in result.outlines if "::" in line}) == [
        "_posts/2026-01-03-post.md",
        "_posts/2026-01-09-new.md",
    ]
    bad = blog.runpytest("--postgates-changed", "no-such-ref")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--postgates-changed no-such-ref*does not name a commit*"])


def _leftovers(folder: Path) -> list[str]:
    bad = []
    for path in folder.rglob("*"):
        # write_atomic's temporaries are ".<name>.<random>.tmp" next to the target.
        if path.is_file() and path.name.endswith(".tmp"):
            bad.append(str(path))
        elif path.suffix == ".json":
            try:
                json.loads(path.read_text())
            except ValueError:
                bad.append(f"torn: {path}")
    return bad


def test_sigint_mid_corpus_leaves_no_partial_files(blog: pytest.Pytester) -> None:
    posts = blog.path / "_posts"
    for i in range(300):
        (posts / f"2026-02-01-many-{i:03d}.md").write_text(
            FRONT + GOOD + "\n" + "Python words. " * 400
        )
    blog.makeconftest(
        "import time\nimport pytest\n"
        "@pytest.fixture(autouse=True)\ndef slow():\n    time.sleep(0.01)\n"
    )
    env = dict(
        os.environ,
        PYTEST_ADDOPTS=f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest "
        "--postgates-only=11,13",
    )
    # A background job inherits SIGINT as ignored, and Python then installs no handler for
    # it: the child installs Python's own, so the signal below is a Ctrl-C wherever CI runs.
    launcher = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv = ['pytest', '-q', '_posts']; runpy.run_module('pytest', run_name='__main__')"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", launcher],
        cwd=blog.path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    cards = blog.path / ".postgates" / "scorecards"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(cards.glob("*.json"))) < 20:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    output = process.communicate(timeout=60)[0].decode()
    assert "KeyboardInterrupt" in output or "Interrupted" in output
    assert 20 <= len(list(cards.glob("*.json"))) < 600
    assert _leftovers(blog.path / ".postgates") == []
    assert _leftovers(blog.path / ".pytest_cache") == []


def test_two_runs_sharing_a_cache_folder_at_once(blog: pytest.Pytester) -> None:
    posts = blog.path / "_posts"
    for i in range(60):
        (posts / f"2026-03-01-more-{i:02d}.md").write_text(FRONT + GOOD)
    env = dict(
        os.environ,
        PYTEST_ADDOPTS=f"{GATE11_ADOPTED} --postgates -p no:hypothesispytest "
        "--postgates-only=2,11,13",
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "_posts", f"--postgates-scorecards=cards{i}"],
            cwd=blog.path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for i in range(2)
    ]
    outputs = [run.communicate(timeout=300)[0].decode() for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert _leftovers(blog.path / ".pytest_cache") == []
    a = {p.name: p.read_bytes() for p in (blog.path / "cards0").iterdir()}
    b = {p.name: p.read_bytes() for p in (blog.path / "cards1").iterdir()}
    assert a == b and len(a) == 63 * 3 + 63


LINKED = "See [the first post](/posts/post-a/) for the setup.\n"


@pytest.fixture
def site(blog: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """Two posts, one linking to the other, gated offline by gates 6 and 12."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:hypothesispytest --postgates-only=6,12")
    posts = blog.path / "_posts"
    for old in posts.iterdir():
        old.unlink()
    (posts / "2026-01-01-post-a.md").write_text(FRONT + "\nThe first post is short.\n")
    (posts / "2026-01-02-post-b.md").write_text(FRONT + "\n" + LINKED)
    (blog.path / "pyproject.toml").write_text("[tool.postgates]\noffline = true\n")
    (blog.path / ".markdownlint.json").write_text('{"default": true, "MD041": false}\n')
    blog.makeconftest(SPY)
    return blog


def test_readability_and_lint_results_are_cached_offline(site: pytest.Pytester) -> None:
    site.runpytest_subprocess().assert_outcomes(passed=4)
    assert len(_parses(site)) == 2
    site.runpytest_subprocess().assert_outcomes(passed=4)
    assert _parses(site) == []


def test_removing_a_linked_post_regates_the_posts_linking_to_it(site: pytest.Pytester) -> None:
    site.runpytest_subprocess().assert_outcomes(passed=4)
    _parses(site)
    # post-b's bytes are unchanged, but the post it links to is gone: its cached PASS
    # must not be reused (the corpus's URLs are part of the key).
    (site.path / "_posts" / "2026-01-01-post-a.md").unlink()
    result = site.runpytest_subprocess()
    result.assert_outcomes(passed=1, failed=1)  # gate 12 costs nothing: runs after gate 6
    result.stdout.fnmatch_lines(["*BROKEN_INTERNAL_LINK*/posts/post-a/*"])
    assert _parses(site) == ["2026-01-02-post-b.md"]


def test_changing_the_lint_configuration_regates_every_post(site: pytest.Pytester) -> None:
    site.runpytest_subprocess().assert_outcomes(passed=4)
    _parses(site)
    # The front matter title is no top-level heading for MD041 once it is configured so.
    (site.path / ".markdownlint.json").write_text(
        '{"default": true, "MD041": {"front_matter_title": ""}}\n'
    )
    result = site.runpytest_subprocess()
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*MD041*"])
    assert sorted(_parses(site)) == ["2026-01-01-post-a.md", "2026-01-02-post-b.md"]


def test_links_checked_online_are_not_served_from_the_result_cache(
    site: pytest.Pytester,
) -> None:
    (site.path / "pyproject.toml").write_text("[tool.postgates]\noffline = false\n")
    site.runpytest_subprocess("--postgates-only=6").assert_outcomes(passed=2)
    _parses(site)
    site.runpytest_subprocess("--postgates-only=6").assert_outcomes(passed=2)
    assert len(_parses(site)) == 2


def test_the_result_key_names_the_code_that_runs(tmp_path: Path) -> None:
    """Two installs reporting the same version (an editable checkout, a git install at
    another commit) must not share cached verdicts: the key digests every source file."""
    from pytest_postgates import results
    from pytest_postgates.config import Settings

    package = tmp_path / "pkg"
    (package / "gates").mkdir(parents=True)
    (package / "__init__.py").write_text("", "utf-8")
    rule = package / "gates" / "rule.py"
    rule.write_text("LIMIT = 1\n", "utf-8")
    before = results.code_fingerprint(package)
    rule.write_text("LIMIT = 2\n", "utf-8")
    assert results.code_fingerprint(package) != before
    (package / "gates" / "__pycache__").mkdir()
    (package / "gates" / "__pycache__" / "rule.cpython-312.pyc").write_bytes(b"\0")
    after = results.code_fingerprint(package)
    assert after == results.code_fingerprint(package)

    cache = results.ResultCache(None, Settings())
    key = cache.key(2, b"post", "inputs", None)
    monkeypatched = results.CODE_FINGERPRINT
    try:
        results.CODE_FINGERPRINT = "another-build"
        assert cache.key(2, b"post", "inputs", None) != key
    finally:
        results.CODE_FINGERPRINT = monkeypatched


DISK_LINKED = (
    "The setup is in [the notes](../docs/setup.md) and {% link docs/usage.md %} has more.\n"
)


@pytest.fixture
def disk_site(site: pytest.Pytester) -> pytest.Pytester:
    """post-b links files on disk (a relative .md link and a {% link %} tag); post-a none."""
    docs = site.path / "docs"
    docs.mkdir()
    (docs / "setup.md").write_text("# Setup\n")
    (docs / "usage.md").write_text("# Usage\n")
    (docs / "other.md").write_text("# Other\n")
    (site.path / "_posts" / "2026-01-02-post-b.md").write_text(FRONT + "\n" + DISK_LINKED)
    return site


def test_posts_linking_files_on_disk_are_cached_while_those_files_stay(
    disk_site: pytest.Pytester,
) -> None:
    args = ("--postgates-only=6",)
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert sorted(_parses(disk_site)) == ["2026-01-01-post-a.md", "2026-01-02-post-b.md"]
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert _parses(disk_site) == []  # the linked files are unchanged: nothing re-checked
    # A file no link names, and the content of a linked one, are not what the gate reads.
    (disk_site.path / "docs" / "other.md").unlink()
    (disk_site.path / "docs" / "setup.md").write_text("# Setup, rewritten\n")
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert _parses(disk_site) == []


@pytest.mark.parametrize("change", ["rename", "delete", "replace-with-folder"])
@pytest.mark.parametrize("linked", ["setup.md", "usage.md"])
def test_a_linked_file_gone_regates_only_the_posts_linking_it(
    disk_site: pytest.Pytester, change: str, linked: str
) -> None:
    args = ("--postgates-only=6",)
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    _parses(disk_site)
    target = disk_site.path / "docs" / linked
    if change == "rename":
        target.rename(target.with_name("renamed.md"))
    elif change == "delete":
        target.unlink()
    else:
        target.unlink()
        target.mkdir()
    result = disk_site.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([f"*BROKEN_INTERNAL_LINK*{linked}*"])
    assert _parses(disk_site) == ["2026-01-02-post-b.md"]
    # Put back, the post passes again (its earlier PASS is served: the state is the same).
    if change == "rename":
        target.with_name("renamed.md").rename(target)
    else:
        if change == "replace-with-folder":
            target.rmdir()
        target.write_text("# Back\n")
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert _parses(disk_site) == []


def test_a_linked_file_appearing_or_turning_into_a_link_regates_the_post(
    disk_site: pytest.Pytester,
) -> None:
    args = ("--postgates-only=6",)
    (disk_site.path / "docs" / "usage.md").unlink()
    result = disk_site.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, failed=1)
    _parses(disk_site)
    (disk_site.path / "docs" / "usage.md").write_text("# Usage\n")
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert _parses(disk_site) == ["2026-01-02-post-b.md"]
    # A symlink out of the site: the same name, resolving elsewhere, is judged again.
    outside = disk_site.path.parent / f"{disk_site.path.name}-outside.md"
    outside.write_text("# Outside\n")
    (disk_site.path / "docs" / "usage.md").unlink()
    (disk_site.path / "docs" / "usage.md").symlink_to(outside)
    result = disk_site.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, failed=1)
    assert _parses(disk_site) == ["2026-01-02-post-b.md"]


def test_a_planted_note_of_linked_files_is_ignored_under_a_cache_key(
    disk_site: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With POSTGATES_CACHE_KEY, a note naming other files than the post's links is not
    trusted: the post is parsed and its own links noted again."""
    import sqlite3

    monkeypatch.setenv("POSTGATES_CACHE_KEY", "secret")
    args = ("--postgates-only=6",)
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    _parses(disk_site)
    database = next((disk_site.path / ".pytest_cache").rglob("results-v1.sqlite"))
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT key, value FROM notes").fetchall()
    assert len(rows) == 1  # post-b only: post-a names no file on disk
    key, genuine = rows[0]
    assert sorted(json.loads(json.loads(genuine)["value"])) == [
        str(disk_site.path / "_posts" / ".." / "docs" / "setup.md"),
        str(disk_site.path / "docs" / "usage.md"),
    ]
    forged = {"key": key, "value": "[]"}  # the shape of an unsigned note
    with sqlite3.connect(database) as db:
        db.execute("UPDATE notes SET value = ? WHERE key = ?", (json.dumps(forged), key))
    disk_site.runpytest_subprocess(*args).assert_outcomes(passed=2)
    assert _parses(disk_site) == ["2026-01-02-post-b.md"]
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT value FROM notes").fetchall() == [(genuine,)]


def test_a_scorecard_changed_on_disk_is_written_again_on_a_cached_run(
    blog: pytest.Pytester,
) -> None:
    """Unchanged scorecards are told by their stat stamp, not read again; a file edited in
    place (same size, its modification time put back), replaced or deleted is rewritten."""
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    cards = sorted((blog.path / ".postgates" / "scorecards").glob("*-gate*.json"))
    expected = {card: card.read_bytes() for card in cards}
    edited, replaced, deleted = cards[0], cards[1], cards[2]
    info = edited.stat()
    with open(edited, "r+b") as stream:  # in place: same inode, same size
        stream.write(b"[" + b" " * (info.st_size - 2) + b"]")
    os.utime(edited, ns=(info.st_atime_ns, info.st_mtime_ns))
    replaced.unlink()
    replaced.write_bytes(expected[replaced].replace(b'"PASS"', b'"FAIL"'))
    deleted.unlink()
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    assert {card: card.read_bytes() for card in cards} == expected


def test_an_overall_file_is_written_only_when_it_changed(blog: pytest.Pytester) -> None:
    """A cached run leaves unchanged overall files alone (told by their stamp, not encoded
    and compared again); one edited in place or deleted is written again."""
    blog.makeconftest(
        "import pytest_postgates.session as session\n"
        "_dumps = session.dumps\n"
        "def dumps(report):\n"
        "    with open('dumps.log', 'a') as log:\n"
        "        log.write(report['post'] + '\\n')\n"
        "    return _dumps(report)\n"
        "session.dumps = dumps\n"
    )
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    overall = sorted((blog.path / ".postgates" / "scorecards").glob("*-overall.json"))
    assert len(overall) == 3
    expected = {path: path.read_bytes() for path in overall}
    log = blog.path / "dumps.log"
    assert len(log.read_text().splitlines()) == 3  # the first run only
    edited, deleted, _ = overall
    info = edited.stat()
    with open(edited, "r+b") as stream:  # in place: same inode, same size
        stream.write(b"[" + b" " * (info.st_size - 2) + b"]")
    os.utime(edited, ns=(info.st_atime_ns, info.st_mtime_ns))
    deleted.unlink()
    log.unlink()
    blog.runpytest_subprocess().assert_outcomes(passed=6, xpassed=3)
    assert {path: path.read_bytes() for path in overall} == expected
    assert len(log.read_text().splitlines()) == 2  # the edited and the deleted one


STAMP_SPY = (
    SPY
    + """
import pytest_postgates.helpers.js_docs_names as docs_names
_stamped = docs_names.parse_post
def stamp_spy(path, data=None):
    with open("stamps.log", "a") as log:
        log.write(path.name + "\\n")
    return _stamped(path, data)
docs_names.parse_post = stamp_spy
"""
)


def test_a_prose_edit_regates_that_page_only_under_gate_15(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gate 15 reads a folder's samples for the names a page leaves unbound, so its cached
    result of a page depends on the other pages' fences, not on their prose: a prose edit
    re-gates the edited page alone, an edit of a sample the whole folder, and a run with
    nothing changed parses no page, not even to stamp the folder."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("PYTEST_ADDOPTS", "--postgates -p no:hypothesispytest --postgates-only=15")
    sample = "```ts\nimport { Client } from 'lib';\nconst client = new Client();\n```\n"
    posts = {f"2026-01-0{i + 1}-post.md": f"{FRONT}Post {i}.\n\n{sample}" for i in range(3)}
    files: dict[str, str | bytes] = {
        "package.json": json.dumps({"name": "lib", "main": "src/index.js"}),
        "src/index.js": "export class Client {\n  open() {}\n}\n",
        **{f"_posts/{name}": text for name, text in posts.items()},
    }
    make_repo(pytester.path, files, "blog")
    pytester.makeconftest(STAMP_SPY)

    def parsed() -> tuple[list[str], list[str]]:
        stamps = pytester.path / "stamps.log"
        found = sorted(stamps.read_text().split()) if stamps.exists() else []
        stamps.unlink(missing_ok=True)
        return sorted(_parses(pytester)), found

    pytester.runpytest_subprocess().assert_outcomes(xpassed=3)
    parsed()
    pytester.runpytest_subprocess().assert_outcomes(xpassed=3)
    assert parsed() == ([], [])
    edited = pytester.path / "_posts" / "2026-01-02-post.md"
    edited.write_text(edited.read_text().replace("Post 1.", "Post 1, reworded."))
    pytester.runpytest_subprocess().assert_outcomes(xpassed=3)
    # The edited page is parsed once, for its stamp; the runner takes that parse.
    assert parsed() == ([], ["2026-01-02-post.md"])
    edited.write_text(edited.read_text().replace("new Client()", "new Client(); client.open()"))
    pytester.runpytest_subprocess().assert_outcomes(xpassed=3)
    runner_parsed, stamped = parsed()
    assert sorted([*runner_parsed, *stamped]) == sorted(posts) and stamped == ["2026-01-02-post.md"]
