"""``postgates merge``: N shard runs, merged, write what one run over the corpus writes.

Every output file is compared byte for byte. The one normalisation is JUnit's wall-clock
values, which pytest writes into every run (the suite's ``timestamp`` and ``time``, each
testcase's ``time``, the ``hostname``): no two runs agree on them, so they are dropped
from both files before the comparison (merge.py says what the merged file holds there).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_postgates import ci
from pytest_postgates.merge import main as merge_main
from tests.conftest import Blog

ROOT = Path(__file__).resolve().parent.parent
SHARDS = 4
_CLOCK = re.compile(rb' (?:time|timestamp|hostname)="[^"]*"')


def outputs(folder: Path) -> list[str]:
    """The options that put every output of a run below ``folder``."""
    return [
        f"--postgates-scorecards={folder}/scorecards",
        f"--postgates-sarif={folder}/postgates.sarif",
        f"--postgates-html={folder}/report.html",
        f"--postgates-feedback={folder}/feedback.txt",
        f"--junitxml={folder}/junit.xml",
    ]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by relative path; JUnit without its clock values."""
    files = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            files[path.relative_to(folder).as_posix()] = (
                _CLOCK.sub(b"", data) if path.suffix == ".xml" else data
            )
    return files


def assert_same_outputs(single: Path, merged: Path) -> None:
    expected, got = tree(single), tree(merged)
    assert sorted(got) == sorted(expected)
    different = [name for name in expected if expected[name] != got[name]]
    assert not different, different
    # The job summary is read from the scorecards: the same too.
    summary = [
        ci.summary_markdown(ci.read_overall(folder / "scorecards"), None)
        for folder in (single, merged)
    ]
    assert summary[0] == summary[1] and "post(s) pass every hard gate" in summary[0]


def merge(out: Path, shard_folders: list[Path]) -> None:
    code = merge_main(["--out", str(out), *map(str, shard_folders)])
    assert code == 0


# ------------------------------------------------------------------- a synthetic corpus
def synthetic_corpus(blog: Blog, count: int) -> None:
    """``count`` posts: passing and failing ones of gates 11 and 13, posts whose stems
    collide (hashed scorecard names), names SARIF must percent-encode."""
    bodies = (Blog.GOOD, Blog.CLAIMS, Blog.NO_ENTITY, Blog.BROCHURE, Blog.NO_ENTITY_CLAIMS)
    for number in range(count - 3):
        folder = "_posts" if number % 3 else f"_posts/section-{number % 7}"
        blog.post(f"2026-01-01-post-{number:04d}.md", bodies[number % len(bodies)], folder=folder)
    blog.post("2026-01-01-post-0000.md", Blog.BROCHURE, folder="_posts/again")  # same stem
    blog.post("2026-01-01-a b#c.md", Blog.NO_ENTITY)
    blog.post("2026-01-01-a_b#c.md", Blog.CLAIMS)  # a stem alike once made file-safe


def run_shards_and_single(
    blog: Blog, shard_args: dict[int, tuple[str, ...]] | None = None
) -> tuple[Path, list[Path]]:
    """One run and ``SHARDS`` shard runs (separate processes) of the blog; their folders."""
    pytester = blog.pytester
    single = pytester.path / "out-single"
    pytester.runpytest_subprocess("-p", "no:randomly", *outputs(single))
    folders = []
    for index in range(1, SHARDS + 1):
        folder = pytester.path / f"out-shard-{index}"
        extra = (shard_args or {}).get(index, ())
        result = pytester.runpytest_subprocess(
            "-p", "no:randomly", f"--postgates-shard={index}/{SHARDS}", *outputs(folder), *extra
        )
        assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.outlines
        folders.append(folder)
    return single, folders


def test_four_shards_of_a_synthetic_corpus_merge_into_one_runs_outputs(blog: Blog) -> None:
    synthetic_corpus(blog, 240)
    blog.git_init()
    # Shard 2 runs under xdist: its JUnit testcases arrive in any order, the merge puts
    # them in collection order again.
    single, folders = run_shards_and_single(blog, {2: ("-n", "2")})
    merged = blog.path / "merged"
    merge(merged, folders)
    assert_same_outputs(single, merged)
    assert len(list((merged / "scorecards").glob("*-overall.json"))) == 240
    assert "~" in " ".join(p.name for p in (merged / "scorecards").iterdir())  # hashed stems


@pytest.mark.bench
def test_four_shards_of_a_1000_post_corpus_merge_into_one_runs_outputs(blog: Blog) -> None:
    synthetic_corpus(blog, 1000)
    blog.git_init()
    single, folders = run_shards_and_single(blog)
    merged = blog.path / "merged"
    merge(merged, folders)
    assert_same_outputs(single, merged)


# --------------------------------------------------------------- the bundled corpus
def _corpus_run(*args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    command = [sys.executable, "-m", "pytest", "corpus/", "-p", "no:cacheprovider", "-q"]
    return subprocess.Popen(
        [*command, "-p", "no:randomly", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_the_bundled_corpus_in_four_shard_processes_merges_into_one_runs_outputs(
    tmp_path: Path,
) -> None:
    """The bundled corpus runs in snapshot mode (pyproject.toml): each shard also passes
    against its pinned snapshots, none reporting another shard's snapshots as unused."""
    single = _corpus_run(*outputs(tmp_path / "single"))
    shards = [
        _corpus_run(f"--postgates-shard={index}/{SHARDS}", *outputs(tmp_path / f"shard-{index}"))
        for index in range(1, SHARDS + 1)
    ]
    for process in [single, *shards]:
        output = process.communicate()[0].decode("utf-8", "replace")
        assert process.returncode == 0, output[-3000:]
        assert "unused" not in output, output[-3000:]
    merge(tmp_path / "merged", [tmp_path / f"shard-{index}" for index in range(1, SHARDS + 1)])
    assert_same_outputs(tmp_path / "single", tmp_path / "merged")


# ------------------------------------------------------------------------- refusals
def test_merge_refuses_missing_doubled_or_foreign_shards(
    blog: Blog, capsys: pytest.CaptureFixture[str]
) -> None:
    synthetic_corpus(blog, 8)
    _, folders = run_shards_and_single(blog)
    out = blog.path / "merged"
    cases = {
        "shard(s) 4 of 4 are missing": folders[:3],
        "shard 1/4 is given twice": [folders[0], *folders],
        "no shard manifest": [*folders, blog.path / "_posts"],
    }
    for message, given in cases.items():
        assert merge_main(["--out", str(out), *map(str, given)]) == 2
        errors = capsys.readouterr().err.splitlines()
        assert len(errors) == 1 and message in errors[0], errors
    assert not out.exists()


# ---------------------------------------------------------------- the documented workflow
def test_the_documented_matrix_workflow_is_the_one_tested_here() -> None:
    """docs/ci.md's matrix: N jobs with shards 1..N of N, each shard's outputs below one
    folder (uploaded whole), a cache keyed by the commit, and a merge job over them all."""
    import yaml

    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = page[page.index("## Sharding") :]
    workflow = yaml.safe_load(section.split("```yaml\n", 1)[1].split("```", 1)[0])
    gates, merge_job = workflow["jobs"]["gates"], workflow["jobs"]["merge"]
    shards = gates["strategy"]["matrix"]["shard"]
    steps = " ".join(str(step.get("run", "")) for step in gates["steps"])
    assert f"--postgates-shard=${{{{ matrix.shard }}}}/{len(shards)}" in steps
    assert shards == list(range(1, len(shards) + 1))
    for option in ("--postgates-scorecards=out/", "--postgates-sarif=out/", "--junitxml=out/"):
        assert option in steps  # every output below the folder the artifact uploads
    cache = next(step for step in gates["steps"] if "cache" in step.get("uses", ""))
    assert "${{ github.sha }}" in cache["with"]["key"]
    upload = next(step for step in gates["steps"] if "upload-artifact" in step.get("uses", ""))
    assert upload["with"]["path"] == "out/" and upload["if"] == "always()"
    assert merge_job["needs"] == "gates" and merge_job["if"] == "always()"
    runs = [str(step.get("run", "")) for step in merge_job["steps"]]
    assert "postgates merge --out merged shards/postgates-shard-*" in runs
    assert "postgates summary --scorecards merged/scorecards" in runs


NEUROLINK = os.environ.get("POSTGATES_NEUROLINK")
NEUROLINK_BLOG = os.environ.get("POSTGATES_NEUROLINK_BLOG")


@pytest.mark.bench
@pytest.mark.skipif(
    not (NEUROLINK and NEUROLINK_BLOG),
    reason="POSTGATES_NEUROLINK and POSTGATES_NEUROLINK_BLOG name the NeuroLink checkout and blog",
)
def test_the_neurolink_blog_in_four_shard_processes_merges_into_one_runs_outputs(
    tmp_path: Path,
) -> None:
    """The real corpus of issue 29's target: 130 posts, every gate, offline."""
    import shutil

    posts = Path(str(NEUROLINK_BLOG))
    blog = tmp_path / "blog"
    shutil.copytree(posts.parent, blog, ignore=shutil.ignore_patterns(".git"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env["PYTEST_ADDOPTS"] = ""
    command = [sys.executable, "-m", "pytest", posts.name, "--rootdir=.", "-q", "--tb=no"]
    command += [f"--postgates-repo={NEUROLINK}", "--postgates-ref=release"]
    command += ["--postgates-offline", "--postgates-jobs=1", "-p", "no:randomly"]
    runs = {
        "single": [],
        **{f"shard-{k}": [f"--postgates-shard={k}/{SHARDS}"] for k in (1, 2, 3, 4)},
    }
    for name, extra in runs.items():
        result = subprocess.run(
            [
                *command,
                *extra,
                "-o",
                f"cache_dir={tmp_path / name}-cache",
                *outputs(tmp_path / name),
            ],
            cwd=blog,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode in (0, 1), result.stdout[-3000:] + result.stderr[-2000:]
    merge(tmp_path / "merged", [tmp_path / f"shard-{k}" for k in (1, 2, 3, 4)])
    assert_same_outputs(tmp_path / "single", tmp_path / "merged")
