"""Run batches: computed by exactly one process per run, read by every other one."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from pytest_postgates.batch import RunBatches


def test_in_memory_batch_is_computed_once() -> None:
    calls = []
    batches = RunBatches()
    for _ in range(3):
        assert batches.get("lint", lambda: calls.append(1) or {"n": len(calls)}) == {"n": 1}
    assert calls == [1]


def test_processes_sharing_a_run_dir_compute_once(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    code = (
        "import sys, os; from pathlib import Path; from pytest_postgates.batch import RunBatches\n"
        "def work():\n"
        "    with open(sys.argv[2], 'a') as log: log.write(f'{os.getpid()}\\n')\n"
        "    return {'value': 42}\n"
        "assert RunBatches(Path(sys.argv[1])).get('links', work) == {'value': 42}\n"
    )
    log = tmp_path / "computed.log"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(run_dir), str(log)]) for _ in range(4)
    ]
    assert [p.wait() for p in procs] == [0, 0, 0, 0]
    assert len(log.read_text().splitlines()) == 1


def test_the_plugin_removes_its_run_dir(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A temporary folder of its own: another run's marker (another xdist worker, another
    # checkout's suite) must not be the one found below.
    private = pytester.path.parent / f"{pytester.path.name}-tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    pytester.makepyfile(
        "def test_x(request):\n    import pytest_postgates.session as s\n"
        "    d = request.config.stash[s.STATE_KEY].context.batches.run_dir\n"
        "    open(str(d) + '.seen', 'w').write(str(d))\n    assert d.is_dir()\n"
    )
    pytester.runpytest("--postgates", "-p", "no:cacheprovider").assert_outcomes(passed=1)
    seen = next(Path(tempfile.gettempdir()).glob("postgates-run-*.seen"))
    assert not Path(seen.read_text()).exists()
    seen.unlink()


# ---------------------------------------------------------------- batches follow -k
SPY_CONFTEST = """
import json
from pathlib import Path

from pytest_postgates.gates import blog_quality, readability_links
from pytest_postgates.tools.lint import batch as lint

SEEN = {}
SPIED = ((lint, "lint_batch"), (blog_quality, "_parse_corpus"), (readability_links, "_corpus_urls"))
ORIGINALS = {}


def _spy(name, original):
    def spy(posts, *args, **kwargs):
        SEEN.setdefault(name, []).append(sorted(Path(p).name for p in posts))
        return original(posts, *args, **kwargs)

    return spy


def pytest_configure(config):
    for module, name in SPIED:
        ORIGINALS[name] = getattr(module, name)
        setattr(module, name, _spy(name, ORIGINALS[name]))


def pytest_unconfigure(config):
    for module, name in SPIED:
        setattr(module, name, ORIGINALS[name])
    Path("batches.json").write_text(json.dumps(SEEN))
"""

PAGE = (
    "This post shows how pytest runs a Python plugin over Markdown files.\n\n"
    "```mermaid\nflowchart LR\n  A --> B{n}\n```\n\n"
    "See [the docs](http://127.0.0.1:9/{n}) for more.\n"
)


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ((), ["2026-01-01-a.md", "2026-01-02-b.md", "2026-01-03-c.md"]),
        (("-k", "2026-01-02-b"), ["2026-01-02-b.md"]),
        (("-k", "2026-01-02-b or markdownlint"), None),
    ],
    ids=["all-posts", "one-post", "one-post-plus-gate-12-everywhere"],
)
def test_batches_cover_only_the_selected_posts(
    blog, selection: tuple[str, ...], expected: list[str] | None
) -> None:
    """``-k`` on one post lints, mermaid-parses and link-prefetches that post only: each
    batch a gate declares covers the posts whose item of that gate is selected."""
    for n, name in enumerate(("2026-01-01-a.md", "2026-01-02-b.md", "2026-01-03-c.md")):
        blog.post(name, PAGE.replace("{n}", str(n)))
    # Allowed, the loopback link is one to check (not a reader-local example): the batch
    # prefetches it (port 9 refuses at once; nothing leaves the machine).
    blog.pyproject('lint_backend = "rumdl"\nbody_line_floor = 1\nallow_hosts = ["127.0.0.1:9"]\n')
    blog.pytester.makeconftest(SPY_CONFTEST)
    blog.pytester.runpytest_subprocess(
        "--postgates-only=1,6,12", "--postgates-all", "_posts", *selection
    )
    seen = json.loads((blog.path / "batches.json").read_text())
    everything = ["2026-01-01-a.md", "2026-01-02-b.md", "2026-01-03-c.md"]
    if expected is None:  # gate 12 selected for every post, gates 1 and 6 for one
        assert seen == {
            "lint_batch": [everything],
            "_parse_corpus": [["2026-01-02-b.md"]],
            "_corpus_urls": [["2026-01-02-b.md"]],
        }
    else:
        assert seen == {
            "lint_batch": [expected],
            "_parse_corpus": [expected],
            "_corpus_urls": [expected],
        }


# ---------------------------------------------------------------- parts (xdist)
def _batches(run_dir: Path | None, count: int, parts: int) -> RunBatches:
    posts = tuple(Path(f"/blog/_posts/p{n:03d}.md") for n in range(count))
    batches = RunBatches(run_dir, posts, parts=parts)
    batches.selected = {"mermaid": posts}
    return batches


def test_one_process_computes_a_batch_whole() -> None:
    batches = _batches(None, 60, parts=1)
    name, posts = batches.scope("mermaid", Path("/blog/_posts/p007.md"))
    assert (name, len(posts)) == ("mermaid", 60)
    calls: list[int] = []
    for number in (0, 30, 59):
        path = Path(f"/blog/_posts/p{number:03d}.md")
        assert batches.part("mermaid", path, lambda p: calls.append(len(p)) or len(p)) == 60
    assert calls == [60]


def test_a_split_batch_covers_every_post_once_in_collection_order() -> None:
    batches = _batches(None, 50, parts=12)  # at least 12 posts a part: 4 parts
    names = []
    covered: list[Path] = []
    for number in range(50):
        name, posts = batches.scope("mermaid", Path(f"/blog/_posts/p{number:03d}.md"))
        assert Path(f"/blog/_posts/p{number:03d}.md") in posts
        if name not in names:
            names.append(name)
            covered.extend(posts)
    assert names == [f"mermaid.part{n}of4" for n in range(1, 5)]
    assert covered == list(batches.posts)
    assert batches.scope("mermaid", Path("/elsewhere.md")) == ("", ())
    assert batches.part("mermaid", Path("/elsewhere.md"), len) is None


HOLDER = """
import sys, time
from pathlib import Path
from pytest_postgates.fileio import locked
lock, held, release = (Path(arg) for arg in sys.argv[1:4])
with locked(lock):
    held.write_text("held")
    deadline = time.monotonic() + 60
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
"""


def test_a_process_waiting_on_a_lock_computes_the_parts_nobody_started(tmp_path: Path) -> None:
    """While another process holds a lock (the index build), the waiting one computes the
    parts of an offered batch, each once, and then takes the lock; the parts are there for
    every process to read."""
    from pytest_postgates.fileio import locked, set_waiting_work

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    lock, held, release = tmp_path / "index.lock", tmp_path / "held", tmp_path / "release"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), str(held), str(release)])
    try:
        for _ in range(3000):
            if held.exists() or holder.poll() is not None:
                break
            time.sleep(0.01)
        assert held.exists()
        batches = _batches(run_dir, 48, parts=4)
        computed: list[tuple[str, ...]] = []

        def compute(posts: tuple[Path, ...]) -> list[str]:
            assert not release.exists()  # the holder still holds the lock
            computed.append(tuple(p.name for p in posts))
            if len(computed) == 4:
                release.write_text("")
            return [p.name for p in posts]

        batches.offer("mermaid", compute)
        set_waiting_work(batches.help_once)
        try:
            with locked(lock):
                assert holder.wait(timeout=60) == 0
        finally:
            set_waiting_work(None)
    finally:
        release.write_text("")
        holder.wait(timeout=60)
    assert len(computed) == 4 and len(set(computed)) == 4
    other = _batches(run_dir, 48, parts=4)  # another process of the run reads them
    first = Path("/blog/_posts/p000.md")
    assert other.part("mermaid", first, lambda p: pytest.fail("computed twice")) == list(
        computed[0]
    )


def test_a_part_that_fails_while_helping_is_left_to_the_gate_that_needs_it(
    tmp_path: Path,
) -> None:
    """Helping never raises into the wait it fills (an index build's, say): the failing part
    is skipped and computed, with its error, by the gate that needs it."""
    batches = _batches(tmp_path, 24, parts=2)
    first = Path("/blog/_posts/p000.md")

    def compute(posts: tuple[Path, ...]) -> int:
        if first in posts:
            raise RuntimeError("engine crashed")
        return len(posts)

    batches.offer("mermaid", compute)
    assert batches.help_once() is True  # part 1 failed and was skipped; part 2 computed
    assert batches.help_once() is False
    assert (tmp_path / "mermaid.part2of2.json").is_file()
    assert not (tmp_path / "mermaid.part1of2.json").exists()
    with pytest.raises(RuntimeError, match="engine crashed"):
        batches.part("mermaid", first, compute)
