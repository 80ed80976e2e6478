"""Issue 16: a post that makes the linter hang costs a small multiple of ``gate_timeout``,
not the lint layer's own fixed limit once per bisection level.

The linter here is a fake markdownlint-cli (a Python script, configured as
``markdownlint_cli``) that lints every post clean in a blink and hangs forever on a post
holding a marker. The whole run must finish within a few gate budgets, the hanging post
must get gate 12's ERROR and every other post its real verdict.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from pytest_postgates.tools.lint import batch as lint_run
from pytest_postgates.tools.lint import isolation, process
from tests.conftest import Blog

HANGS = "HANG-THE-LINTER-HERE"
FAKE_MARKDOWNLINT = f"""#!{sys.executable}
import json, os, sys, time
args = sys.argv[1:]
if args == ["--version"]:
    print("0.43.0")
    sys.exit(0)
output = args[args.index("--output") + 1]
files = args[args.index("--") + 1:]
if any({HANGS!r} in open(name, encoding="utf-8").read() for name in files):
    parent = os.getppid()
    while os.getppid() == parent:  # hang for as long as whoever started it waits
        time.sleep(0.2)
with open(output, "w", encoding="utf-8") as out:
    json.dump([], out)
"""


def test_the_timeout_of_a_linter_process_grows_with_its_files_and_is_bounded() -> None:
    budget = 60.0
    alone = process.linter_timeout(1, budget)
    assert budget <= alone < budget + 1
    assert process.linter_timeout(16, budget) < process.linter_timeout(200, budget)
    # Generous for a healthy linter: markdownlint-cli needs about 80 ms of CPU per post
    # (rumdl 2 ms), and this machine gives a process a sixth of a CPU when it is busy.
    assert process.linter_timeout(process.FILES_PER_PROCESS, budget) >= 0.5 * 200
    # Bounded: no process waits more than a few budgets, however many files it holds.
    for files in (1, 16, 200, 5_000):
        assert process.linter_timeout(files, 2.0) <= process.BATCH_BUDGETS * 2.0
    assert max(len(chunk) for chunk in process.argument_chunks([Path("a.md")] * 1000)) <= 200


def _fake_linter(folder: Path) -> Path:
    fake = folder / "fake-markdownlint"
    fake.write_text(FAKE_MARKDOWNLINT, encoding="utf-8")
    fake.chmod(0o755)
    return fake


def _posts(folder: Path, count: int, hostile: int) -> list[Path]:
    (folder / "_posts").mkdir(parents=True)
    paths = []
    for index in range(count):
        path = folder / "_posts" / f"2026-01-{index + 1:02d}-post.md"
        path.write_text("# Title\n\nSome text.\n" + (f"\n{HANGS}\n" if index == hostile else ""))
        paths.append(path)
    return paths


@pytest.mark.skipif(sys.platform == "win32", reason="the fake linter is a shebang script")
def test_the_lint_batch_pays_a_few_budgets_for_a_hanging_post(tmp_path: Path) -> None:
    fake = _fake_linter(tmp_path)
    paths = _posts(tmp_path / "blog", 6, hostile=3)
    budget = 1.0
    started = time.monotonic()
    lint_run.lint_batch(paths[:1], "markdownlint-cli", fake, budget=budget)
    one_post = time.monotonic() - started  # what a healthy run costs here (two processes)

    def run(name: str, compute: object) -> object:
        assert callable(compute)
        return compute()

    get = isolation.isolating_get(run, paths, "markdownlint-cli", fake, budget)
    started = time.monotonic()
    batch = lint_run.batch_for(paths[0], paths, get, "markdownlint-cli", fake, budget=budget)[0]
    elapsed = time.monotonic() - started
    for index, path in enumerate(paths):
        entry = batch["files"][str(path.resolve())]
        if index == 3:
            assert f"did not finish in {process.linter_timeout(1, budget):g} s" in entry["error"]
        else:
            assert entry["error"] is None and entry["violations"] == [], entry
    # The batch's limit (six files: at most three budgets), then each post alone: the
    # hanging one's limit, and the healthy ones' usual cost.
    bound = process.linter_timeout(6, budget) + process.linter_timeout(1, budget)
    assert elapsed < bound + 8 * max(one_post, 0.5), f"{elapsed:.1f} s, healthy {one_post:.1f} s"


@pytest.mark.skipif(sys.platform == "win32", reason="the fake linter is a shebang script")
def test_a_hanging_post_costs_a_few_budgets_and_errors_alone(
    pytester: pytest.Pytester, blog: Blog
) -> None:
    fake = _fake_linter(pytester.path)
    budget = 2.0
    blog.pyproject(
        f'lint_backend = "markdownlint-cli"\nmarkdownlint_cli = "{fake}"\ngate_timeout = {budget}\n'
    )
    for day in range(1, 6):
        blog.post(f"2026-01-0{day}-post.md", "Some text here.\n")
    blog.post("2026-01-09-hostile.md", f"Some text here.\n\n{HANGS}\n")
    started = time.monotonic()
    # Before issue 16's budgets this run waited 600 s for the batch and 600 s again for
    # the post alone: the inner run's own timeout stops it long before.
    result = pytester.runpytest_subprocess("--postgates-only=12", "-p", "no:randomly", timeout=120)
    elapsed = time.monotonic() - started
    cards = blog.scorecards()
    verdicts = {
        name.split("-gate12")[0]: card["verdict"]
        for name, card in cards.items()
        if "-gate12-" in name
    }
    assert verdicts.pop("2026-01-09-hostile") == "ERROR", result.stdout.str()
    assert set(verdicts.values()) == {"PASS"}, verdicts
    assert len(verdicts) == 5
    error = cards["2026-01-09-hostile-gate12-markdownlint.json"]["detail"]["error"]
    assert "did not finish" in error and "linted alone" in error
    # A few budgets of linting plus pytest's own start on a busy machine (the test above
    # bounds the linting itself), far below the old 600 s for the batch and 600 s alone.
    assert elapsed < 100, f"{elapsed:.1f} s"
