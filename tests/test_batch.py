"""Run batches: computed by exactly one process per run, read by every other one."""

from __future__ import annotations

import subprocess
import sys
import tempfile
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


def test_the_plugin_removes_its_run_dir(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        "def test_x(request):\n    import pytest_postgates.session as s\n"
        "    d = request.config.stash[s.STATE_KEY].context.batches.run_dir\n"
        "    open(str(d) + '.seen', 'w').write(str(d))\n    assert d.is_dir()\n"
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    seen = next(Path(tempfile.gettempdir()).glob("postgates-run-*.seen"))
    assert not Path(seen.read_text()).exists()
    seen.unlink()
