"""Issue 16: no pattern a post reaches takes super-linear time on hostile input.

For every scanner that replaced a backtracking regex (tests/hostile/regex_cases.py), the
time on its adversarial input must grow about linearly: sixteen times the input may cost
at most 48 times as long (linear is 16x; the replaced regexes were 256x and worse). Each
size is timed in CPU time of this thread (a machine shared by other jobs stretches wall
time, not thread time) as the best of a few runs, and a failing ratio is measured again
before it counts; hypothesis adds noise around the
adversarial input. Every measurement runs under an alarm, so the old regexes (minutes on
these inputs) fail the test instead of hanging it.

Both tests time work: they are a bench (``pytest --run-bench`` or ``-m bench``), out of the
default run; ``python bench/regex_growth.py`` prints the figures beside the old regexes'.
The scanners' answers are checked by default in tests/test_scan.py.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.regex_cases import CASES, Case

SMALL = 4_000
GROWTH = 16
ALLOWED_RATIO = 48
ALARM_SECONDS = 20.0
FLOOR_SECONDS = 0.0005  # below this, timer noise dominates the small measurement

pytestmark = pytest.mark.bench


class TooSlow(Exception):
    pass


@contextmanager
def alarm(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def _raise(signum: int, frame: object) -> None:
        raise TooSlow(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def best_time(work: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.thread_time()
        work()
        best = min(best, time.thread_time() - started)
    return best


def growth(case: Case, prefix: str, suffix: str) -> tuple[float, float]:
    small = prefix + case.adversarial(SMALL) + suffix
    large = prefix + case.adversarial(SMALL * GROWTH) + suffix
    with alarm(ALARM_SECONDS):
        small_time = best_time(lambda: list(case.new.finditer(small)))
        large_time = best_time(lambda: list(case.new.finditer(large)))
        case.new.search(large)
    return max(small_time, FLOOR_SECONDS), large_time


NOISE = st.text(alphabet=st.sampled_from("`<>![](){}%:/.- a\n'\"*_"), max_size=12)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(prefix=NOISE, suffix=NOISE)
def test_time_grows_linearly_on_adversarial_input(case: Case, prefix: str, suffix: str) -> None:
    ratios = []
    for _attempt in range(3):
        small_time, large_time = growth(case, prefix, suffix)
        ratios.append(large_time / small_time)
        if ratios[-1] <= ALLOWED_RATIO:
            return
    pytest.fail(
        f"{case.name}: {GROWTH}x the input took {min(ratios):.0f}x the time "
        f"(allowed {ALLOWED_RATIO}x; {small_time * 1000:.1f} ms -> {large_time * 1000:.1f} ms)"
    )


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_600_kb_adversarial_line_takes_well_under_a_second(case: Case) -> None:
    # The sizes: 300-600 KB lines took 64-146 s. A second is generous; typical is
    # a few tens of milliseconds.
    text = case.adversarial(600_000)
    with alarm(ALARM_SECONDS):
        took = best_time(lambda: list(case.new.finditer(text)), runs=1)
    assert took < 5.0, f"{case.name}: {took:.2f} s on 600 KB"
