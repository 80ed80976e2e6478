"""Time budgets: one gate may spend at most ``gate_timeout`` seconds on one post.

A hostile or pathological post must cost its own gate an ERROR, not the run an hour. The
budget interrupts the gate's Python work with :class:`BudgetExceeded`, which the runner
turns into an ERROR scorecard for that post and gate only.

How the work is interrupted:

- In the main thread where the platform has ``setitimer`` (POSIX), by ``SIGALRM``: the
  handler raises in the gate's own frame. CPython runs signal handlers between bytecodes
  and also from inside long C loops that poll for signals, the regex engine among them,
  so a backtracking regex is stopped too.
- Elsewhere (a worker thread, Windows, or while another SIGALRM user such as
  pytest-timeout's signal method owns the timer), by a watchdog thread that raises the
  same exception asynchronously in the gate's thread (``PyThreadState_SetAsyncExc``). That
  lands at the next bytecode: a single long C call (one regex match) finishes first.

Why this is safe enough: :class:`BudgetExceeded` derives from ``BaseException``, so a gate's
own ``except Exception`` cannot swallow it and carry on past its budget, while ``finally``
blocks and context managers still run (subprocesses are killed by ``subprocess.run``,
temporary files removed). Work that is shared by every post is never charged to, nor
interrupted by, the post that happens to trigger it: :func:`paused` stops the clock
around the run's batches (one linter run, one link batch, one mermaid batch for the whole
corpus) and around cross-process locks (a lock is never abandoned half-held). Those have
budgets of their own (the linter's and mermaid's timeouts).
"""

from __future__ import annotations

import ctypes
import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


class BudgetExceeded(BaseException):
    """Raised inside the work whose budget ran out."""

    def __init__(self, seconds: float, label: str) -> None:
        super().__init__(f"{label} took longer than its budget of {seconds:g} s")
        self.seconds = seconds
        self.label = label


@dataclass
class _Budget:
    seconds: float
    label: str
    deadline: float  # time.monotonic() value
    thread: int
    paused_left: float | None = None  # seconds left while paused
    fired: bool = False


_local = threading.local()


def _stack() -> list[_Budget]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def _can_use_signal() -> bool:
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        return False
    handler = signal.getsignal(signal.SIGALRM)
    if handler not in (signal.SIG_DFL, signal.SIG_IGN, None, _on_alarm):
        return False  # someone else's alarm (pytest-timeout): leave it alone
    return handler is _on_alarm or signal.getitimer(signal.ITIMER_REAL)[0] == 0


def _on_alarm(signum: int, frame: object) -> None:
    stack = _stack()
    if not stack:
        return
    budget = stack[-1]
    if budget.paused_left is not None or budget.fired:
        return
    left = budget.deadline - time.monotonic()
    if left > 0.001:  # woken early (an outer budget re-armed us): sleep on
        signal.setitimer(signal.ITIMER_REAL, left)
        return
    budget.fired = True
    raise BudgetExceeded(budget.seconds, budget.label)


class _Watchdog:
    """Raises BudgetExceeded in a thread that cannot take SIGALRM."""

    def __init__(self, budget: _Budget) -> None:
        self.budget = budget
        self._wake = threading.Event()
        self._done = False
        self._thread = threading.Thread(target=self._watch, name="postgates-budget", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done:
            budget = self.budget
            if budget.paused_left is not None:
                self._wake.wait()
                self._wake.clear()
                continue
            left = budget.deadline - time.monotonic()
            if left > 0:
                self._wake.wait(left)
                self._wake.clear()
                continue
            if not self._done and not budget.fired:
                budget.fired = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(budget.thread), ctypes.py_object(_WatchdogExceeded)
                )
            return

    def poke(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._done = True
        self._wake.set()
        self._thread.join()


class _WatchdogExceeded(BudgetExceeded):
    """An asynchronous exception is raised from its class, without arguments."""

    def __init__(self) -> None:
        budget = _stack()[-1] if _stack() else None
        super().__init__(budget.seconds if budget else 0.0, budget.label if budget else "work")


@contextmanager
def limit(seconds: float | None, label: str) -> Iterator[None]:
    """Run the block under a budget of ``seconds`` (None, 0 or infinity: no budget)."""
    if not seconds or seconds <= 0 or math.isinf(seconds) or math.isnan(seconds):
        yield
        return
    stack = _stack()
    if stack:  # budgets do not nest: the outer one keeps counting
        yield
        return
    budget = _Budget(seconds, label, time.monotonic() + seconds, threading.get_ident())
    use_signal = _can_use_signal()
    watchdog = None
    previous = None
    stack.append(budget)
    try:
        if use_signal:
            previous = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        else:
            watchdog = _Watchdog(budget)
            _local.watchdog = watchdog
        yield
    finally:
        # Disarm first: nothing may fire while the budget is being taken down.
        if use_signal:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        if watchdog is not None:
            watchdog.stop()
            _local.watchdog = None
        stack.pop()


@contextmanager
def paused() -> Iterator[None]:
    """Stop the clock of the running budget (if any) for the block: shared work (a batch
    over the whole corpus, a cross-process lock) is neither charged to nor interrupted by
    the post that happens to trigger it."""
    stack = _stack()
    budget = stack[-1] if stack else None
    if budget is None or budget.paused_left is not None or budget.fired:
        yield
        return
    budget.paused_left = max(0.0, budget.deadline - time.monotonic())
    signalled = budget.thread == threading.get_ident() and _owns_alarm()
    if signalled:
        signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        yield
    finally:
        left = budget.paused_left
        budget.deadline = time.monotonic() + left
        budget.paused_left = None
        if signalled:
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
        watchdog = getattr(_local, "watchdog", None)
        if watchdog is not None:
            watchdog.poke()


def _owns_alarm() -> bool:
    return hasattr(signal, "setitimer") and signal.getsignal(signal.SIGALRM) is _on_alarm
