"""A run killed with SIGKILL or SIGTERM leaves its ``postgates-run-*`` folder in the
temporary folder; the next run removes it, and never the folder of a run still alive."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_postgates.batch import RunBatches

# A stand-in for a run: makes its run folder the way the plugin does, then works on.
RUN = (
    "import time\n"
    "from pytest_postgates.batch import RunBatches\n"
    "print(RunBatches.create_run_dir(), flush=True)\n"
    "time.sleep(120)\n"
)


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def runs(private_tmp: Path) -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def start_run(private_tmp: Path, runs: list[subprocess.Popen[str]]) -> Path:
    env = os.environ | {"TMPDIR": str(private_tmp)}
    process = subprocess.Popen(
        [sys.executable, "-c", RUN], stdout=subprocess.PIPE, text=True, env=env
    )
    runs.append(process)
    assert process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    assert folder.parent == private_tmp and folder.is_dir()
    (folder / "batch.json").write_text("{}")  # some of the run's work
    return folder


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_folder_of_a_killed_run_is_removed_by_the_next_run(
    private_tmp: Path, runs: list[subprocess.Popen[str]], how: signal.Signals
) -> None:
    dead = start_run(private_tmp, runs)
    alive = start_run(private_tmp, runs)
    runs[0].send_signal(how)
    runs[0].wait()
    assert dead.is_dir()  # nothing cleaned up after the killed run
    batches = RunBatches(RunBatches.create_run_dir())
    try:
        assert not dead.exists()
        assert alive.is_dir() and (alive / "batch.json").is_file()  # a live run's is kept
        assert batches.run_dir is not None and batches.run_dir.is_dir()
    finally:
        batches.remove()
    assert alive.is_dir()


def test_a_run_never_removes_the_folder_of_another_live_run_in_its_process(
    private_tmp: Path,
) -> None:
    """Two runs in one process (pytester's in-process runs): each keeps its own."""
    first = RunBatches(RunBatches.create_run_dir())
    second = RunBatches(RunBatches.create_run_dir())
    try:
        assert first.run_dir is not None and first.run_dir.is_dir()
    finally:
        second.remove()
        first.remove()


def test_links_and_files_named_like_run_folders_are_left_alone(
    private_tmp: Path, tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("x")
    (private_tmp / "postgates-run-link").symlink_to(target)
    (private_tmp / "postgates-run-file").write_text("x")
    batches = RunBatches(RunBatches.create_run_dir())
    batches.remove()
    assert (target / "keep.txt").is_file()
    assert (private_tmp / "postgates-run-link").is_symlink()
    assert (private_tmp / "postgates-run-file").is_file()
