"""Mermaid diagrams parsed by real mermaid.js, in worker processes, cached by content.

Gate 1 needs mermaid's own verdict on every diagram (the seeds' ``validate-mermaid.sh``):
a hand-written grammar would drift from what the blog's readers' browsers do. mermaidx
ships mermaid.js (v11) with a DOM shim and runs it in QuickJS-ng (always installed) or V8
(``mini-racer``, the ``mermaidx[v8engine]`` extra). mermaidx itself only *renders*, and a
render builds a fresh JavaScript context per diagram (1.5-3.5 s each here); a parse needs
neither layout nor a fresh context. So a worker process (:mod:`.mermaid_worker`) loads
mermaidx's bundle once (the same scripts mermaidx evaluates,
:func:`mermaidx.engines._common.context_scripts`) and calls ``mermaid.parse`` for each
diagram in that one context; this module is the parent side (workers, deadlines, cache).

Why worker processes: a diagram must never hang or crash a test run. mermaidx sets no time
limit (QuickJS's refuses the Python callbacks mermaidx's text measurement needs), some
diagrams do take minutes (mermaid's comment-stripping regex backtracks quadratically over
blank lines), and a native crash would take pytest with it. The parent waits for each answer
with a deadline and kills the worker when it passes; the next diagram gets a fresh worker.
A batch is spread over as many workers as there are free CPUs. A worker starts once and is
reused, so the cost of loading mermaid.js (about a second) is paid once per worker, not per
diagram.

Two speed-ups keep mermaid's results and make parsing several times faster
(``bench/mermaid_speed.py --compare-unpatched`` on the 212 real diagrams: 5.5 -> 25
diagrams/s on QuickJS, 32 -> 59 on V8, on a busy 2-CPU machine):

- QuickJS does not optimise ``^``-anchored regular expressions: mermaid's jison lexers test
  ``input.match(/^(?:rule)/)`` for ~50 rules per token, and each test scans the whole rest of
  the diagram, which makes lexing quadratic. ``String.prototype.match`` is wrapped so that a
  non-global regex whose whole pattern is ``^(?:...)`` runs as the equivalent sticky regex
  (match at position 0 only): the same result by construction.
- ``getConfig()`` deep-copies mermaid's whole configuration on every call (~50 calls per
  flowchart; half of V8's parse time). The copy is memoised until the configuration object
  changes (``setConfig`` clears it; every parse starts a new configuration). This edits two
  expressions of the minified bundle; when the text is not found (another mermaidx
  version), the bundle runs unchanged, only slower.

A shared mutable config copy could in principle leak one caller's change into the next
caller of the same parse; ``tests/test_mermaid.py`` compares patched and unpatched results
on every diagram type it uses, and ``bench/mermaid_speed.py --compare-unpatched`` on all 212
diagrams of the real corpus: identical verdicts, types and messages.

Results are cached in memory (per process) and on disk (``<cache_dir>/mermaid/``), keyed by
a hash of the diagram text, the mermaidx version and :data:`CACHE_SCHEMA`; an entry holds
its key and the mermaidx version and is signed like every cache entry (``signing.py``), so a
planted or copied one is a miss. Engine failures
are cached in memory only: they depend on the machine, not on the text. Timeouts are cached
on disk too, with the time limit they ran out of, so that a rerun does not pay for a
hostile diagram again (issue 16); a parser with a longer limit tries again.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import math
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from functools import lru_cache, partial
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Literal

from pytest_postgates import signing
from pytest_postgates.fileio import write_atomic

WORKER_MODULE = "pytest_postgates.tools.mermaid_worker"  # run with -m
CACHE_SCHEMA = 1  # bump when a cached result's meaning or shape changes
# Seconds one diagram may take. The slowest real diagram (60 lines, subgraphs) parses in
# ~0.3 s on QuickJS; a diagram still parsing after this is pathological (a browser tab
# would freeze on it too).
PARSE_TIMEOUT = 20.0
# Seconds all the diagrams of one post may take together (each within PARSE_TIMEOUT): six
# valid 48 KB diagrams once took 87 s. Diagrams past it are unchecked, never passed.
POST_BUDGET = 30.0
# Starting a worker (interpreter, imports, evaluating 3.5 MB of mermaid.js) is bounded
# separately: a loaded CI machine must not turn a slow start into a diagram verdict.
STARTUP_TIMEOUT = 120.0
# Starting a worker costs about a second, as much as parsing 20 (QuickJS) to 70 (V8)
# diagrams, and a fresh worker's engine is not warmed up yet: a batch gets one more worker
# per this many uncached diagrams (up to ``max_workers``).
DIAGRAMS_PER_WORKER = 40
# mermaid refuses to render longer diagram text (its ``maxTextSize`` default).
MAX_TEXT_SIZE = 50_000

Engine = Literal["auto", "quickjs", "v8"]
Kind = Literal["ok", "parse", "timeout", "engine"]


class MermaidEngineError(RuntimeError):
    """No engine could be started: the gate cannot judge diagrams at all (an ERROR)."""


@dataclass(frozen=True)
class MermaidResult:
    """mermaid's verdict on one diagram.

    ``kind`` is ``ok`` (parsed), ``parse`` (mermaid rejected it: ``message`` is mermaid's
    own), ``timeout`` (did not finish within the time limit) or ``engine`` (the engine
    failed on it, e.g. crashed). ``line`` is the 1-based line of the diagram text as
    written (mermaid's line, mapped back through its own preprocessing), when mermaid
    names one.
    """

    kind: Kind
    diagram_type: str | None = None
    message: str = ""
    line: int | None = None
    error: str = ""  # mermaid's error class, e.g. UnknownDiagramError

    @property
    def ok(self) -> bool:
        return self.kind == "ok"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MermaidResult:
        return cls(
            kind=data["kind"],
            diagram_type=data.get("diagram_type"),
            message=data.get("message", ""),
            line=data.get("line"),
            error=data.get("error", ""),
        )


def _well_formed(data: dict[str, Any]) -> bool:
    """The exact shape :meth:`MermaidParser._store` writes."""
    line = data.get("line")
    return (
        data.get("kind") in ("ok", "parse", "timeout")
        and isinstance(data.get("message", ""), str)
        and isinstance(data.get("error", ""), str)
        and (data.get("diagram_type") is None or isinstance(data["diagram_type"], str))
        and (line is None or (isinstance(line, int) and not isinstance(line, bool)))
    )


@lru_cache(maxsize=1)
def mermaidx_version() -> str:
    try:
        return metadata.version("mermaidx")
    except metadata.PackageNotFoundError:
        return "missing"


def diagram_key(code: str) -> str:
    """The cache key of a diagram: its text, the mermaidx (hence mermaid.js) version and the
    cache schema. The engine is not part of it: both run the same mermaid.js."""
    text = f"{CACHE_SCHEMA}\0{mermaidx_version()}\0{code}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def default_engine() -> Literal["quickjs", "v8"]:
    """V8 when mini-racer is installed (about 7x faster than QuickJS), else QuickJS. Looked
    up once per process: gate 1 asks for its parser on every post."""
    return "v8" if find_spec("py_mini_racer") is not None else "quickjs"


# --------------------------------------------------------------------------- line mapping
# mermaid's preprocessing (preprocessDiagram in mermaid 11), which runs before any parser:
# its line numbers are lines of the processed text. The same steps are replayed here with a
# record of where every remaining character came from.
_FRONT_MATTER_OPEN = re.compile(r"([^\S\n\r]*)---[^\S\n]*")
_DIRECTIVE = re.compile(
    r"%{2}\{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!\}%{2}).|\r?\n)*))?\s*(?:\}%{2})?",
    re.I | re.A,
)
_ON_LINE = re.compile(r"\bon line (\d+)")
# JavaScript's \s (the regexes replayed here are JavaScript's).
_JS_SPACE = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _front_matter_span(text: str) -> list[tuple[int, int]]:
    r"""mermaid's ``/^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+/s``, line by line
    (the regex itself backtracks quadratically over long runs of blank lines)."""
    lines = text.split("\n")
    opening = _FRONT_MATTER_OPEN.fullmatch(lines[0])
    if opening is None:
        return []
    closing = re.compile(re.escape(opening.group(1)) + r"---[^\S\n]*")
    # The opening's greedy \s* swallows the blank lines after it, so the closing line is
    # first looked for two lines past them; only when there is none does the regex give
    # one blank line back, which lets the line right after them close. The closing line
    # needs a newline after it.
    blank = 0
    while blank + 2 < len(lines) and not lines[blank + 1].strip():
        blank += 1
    candidates = [*range(blank + 2, len(lines) - 1), *([blank + 1] if blank else [])]
    for index in candidates:
        if index < len(lines) - 1 and closing.fullmatch(lines[index]):
            last = index
            while last + 2 < len(lines) and not lines[last + 1].strip():
                last += 1  # blank lines after the closing line go too
            return [(0, sum(len(line) + 1 for line in lines[: last + 1]))]
    return []


def _comment_spans(text: str) -> list[tuple[int, int]]:
    r"""mermaid's ``/^\s*%%(?!{)[^\n]+\n?/gm`` (comment lines), in linear time: from a line
    start, whitespace (across lines) then ``%%`` not followed by ``{`` or a line end."""
    size = len(text)
    run_end = list(range(size + 1))  # first non-space position at or after each index
    for index in range(size - 1, -1, -1):
        if text[index] in _JS_SPACE:
            run_end[index] = run_end[index + 1]
    spans = []
    start = 0
    while start < size:
        first = run_end[start]
        if text.startswith("%%", first) and first + 2 < size and text[first + 2] not in "{\n":
            newline = text.find("\n", first + 2)
            end = size if newline < 0 else newline + 1
            spans.append((start, end))
            start = end
            continue
        newline = text.find("\n", start)
        if newline < 0:
            break
        start = newline + 1
    return spans


def _without(spans: list[tuple[int, int]], text: str, origin: list[int]) -> str:
    """``text`` without the (ordered, disjoint) spans; ``origin``, a source line per
    character, is updated in place."""
    kept: list[str] = []
    kept_origin: list[int] = []
    position = 0
    for start, end in spans:
        kept.append(text[position:start])
        kept_origin.extend(origin[position:start])
        position = end
    kept.append(text[position:])
    kept_origin.extend(origin[position:])
    origin[:] = kept_origin
    return "".join(kept)


def source_line(code: str, processed_line: int) -> int:
    """The line of ``code`` (1-based, as written) that mermaid calls ``processed_line``.

    mermaid numbers the lines of its preprocessed text (front matter, directives and
    comment lines removed, leading whitespace trimmed); the same steps are replayed here
    with a record of where every remaining character came from. A line past the end
    (mermaid reports end-of-input one line further) is the last non-blank line."""
    last = _last_content_line(code)
    text = code.replace("\r\n", "\n").replace("\r", "\n")
    origin: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        origin.extend([number] * (len(line) + 1))
    origin = origin[: len(text)]
    text = _without(_front_matter_span(text), text, origin)
    text = _without([m.span() for m in _DIRECTIVE.finditer(text)], text, origin)
    text = _without(_comment_spans(text), text, origin)
    stripped = len(text) - len(text.lstrip("".join(_JS_SPACE)))
    text, origin = text[stripped:], origin[stripped:]
    starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    if not 1 <= processed_line <= len(starts) or starts[processed_line - 1] >= len(text):
        return last
    return min(origin[starts[processed_line - 1]], last)


def _last_content_line(code: str) -> int:
    lines = code.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number in range(len(lines), 0, -1):
        if lines[number - 1].strip():
            return number
    return 1


def condense(message: str) -> str:
    """mermaid's message on one line: jison's excerpt and caret lines are dropped (they
    only make sense in a monospace block), everything mermaid says is kept."""
    lines = [line.rstrip() for line in message.strip().splitlines() if line.strip()]
    if len(lines) >= 3 and re.fullmatch(r"-*\^", lines[2].strip()):
        lines = [lines[0], *lines[3:]]
    return " ".join(lines)


def _result_from_worker(code: str, raw: dict[str, Any]) -> MermaidResult:
    kind = raw.get("kind", "engine")
    if kind == "ok":
        return MermaidResult("ok", diagram_type=raw.get("type"))
    message = str(raw.get("message") or "")
    if kind != "parse":
        return MermaidResult(kind, message=message)
    line: int | None = None
    located = raw.get("loc_line")
    if isinstance(located, int) and located > 0:
        line = located
    else:
        stated = _ON_LINE.search(message)
        line = int(stated.group(1)) if stated else None
    mapped = source_line(code, line) if line is not None else None
    return MermaidResult(
        "parse", message=condense(message), line=mapped, error=str(raw.get("name") or "")
    )


# ------------------------------------------------------------------------ parent side
class _Worker:
    """One worker process and its answers, read by a thread so that waits can time out."""

    def __init__(self, engine: str, patched: bool, startup_timeout: float) -> None:
        package_parent = str(Path(__file__).resolve().parents[2])  # holds pytest_postgates/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            part for part in (package_parent, env.get("PYTHONPATH", "")) if part
        )
        command = [sys.executable, "-m", WORKER_MODULE, "--worker", engine]
        if not patched:
            command.append("--unpatched")
        # Kept open for the worker's lifetime (read when it dies), closed in close().
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=env,
            )
        except OSError as exc:
            self._stderr.close()
            raise MermaidEngineError(f"cannot start a mermaid worker: {exc}") from exc
        self._answers: queue.Queue[bytes | None] = queue.Queue()
        self._sequence = 0
        threading.Thread(target=self._read, name="mermaid-reader", daemon=True).start()
        hello = self._next(startup_timeout)
        if not isinstance(hello, dict) or not hello.get("ready"):
            reason = hello.get("fatal") if isinstance(hello, dict) else None
            self.kill()
            raise MermaidEngineError(
                reason or f"mermaid worker did not start ({engine}): {self._stderr_tail()}"
            )
        self.info: dict[str, Any] = hello

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._answers.put(line)
        self._answers.put(None)

    def _next(self, timeout: float) -> dict[str, Any] | None:
        try:
            line = self._answers.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self._answers.put(None)  # stays closed for later readers
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            return {"kind": "engine", "message": f"unreadable worker output: {line[:200]!r}"}
        return answer if isinstance(answer, dict) else None

    def request(self, code: str, timeout: float) -> dict[str, Any]:
        self._sequence += 1
        message = json.dumps({"id": self._sequence, "code": code}).encode("ascii") + b"\n"
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(message)
            self.process.stdin.flush()
        except OSError:
            return self._crashed()
        try:
            line = self._answers.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            return {
                "kind": "timeout",
                "message": f"mermaid did not finish parsing within {timeout:g} s",
            }
        if line is None:
            return self._crashed()
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or answer.get("id") != self._sequence:
            self.kill()  # pragma: no cover - protocol invariant
            return {"kind": "engine", "message": f"unreadable worker answer: {line[:200]!r}"}
        return answer

    def _crashed(self) -> dict[str, Any]:
        code = self.process.wait()
        return {
            "kind": "engine",
            "message": f"mermaid worker exited with code {code}: {self._stderr_tail()}",
        }

    def _stderr_tail(self) -> str:
        try:
            self._stderr.seek(0)
            text = self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return "no output"
        return text[-500:] if text else "no output"

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(timeout=10)

    def close(self) -> None:
        """Ask the worker to stop (end of input), then make sure it did."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        with contextlib.suppress(OSError, ValueError):
            self._stderr.close()


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _cpu_times() -> tuple[int, int]:
    """(idle, total) jiffies of all CPUs since boot, from Linux's /proc/stat."""
    with open("/proc/stat", encoding="ascii") as stream:
        values = [int(value) for value in stream.readline().split()[1:]]
    return values[3] + values[4], sum(values)  # idle + iowait


def _idle_cpus(interval: float = 0.1) -> float | None:
    """How many CPUs were idle over the last ``interval`` seconds; None where /proc/stat
    cannot tell (not Linux)."""
    try:
        idle_before, total_before = _cpu_times()
        time.sleep(interval)
        idle_after, total_after = _cpu_times()
    except (OSError, ValueError, IndexError):
        return None
    if total_after <= total_before:
        return None
    share = (idle_after - idle_before) / (total_after - total_before)
    return share * (os.cpu_count() or 1)


def _free_cpus() -> int:
    """CPUs not busy right now. On a busy machine a second engine only competes with the
    first: measured on 2 CPUs under a load of 2-3, one engine parsed the corpus faster than
    two. Measured over a tenth of a second rather than from the load average, which lags a
    minute behind: right after one test run it would still count that run's work (and
    under xdist, the workers waiting for this batch are not busy)."""
    idle = _idle_cpus()
    if idle is None:
        try:
            idle = _usable_cpus() - os.getloadavg()[0]
        except (AttributeError, OSError):  # pragma: no cover - not on every platform
            idle = float(_usable_cpus())
    return max(1, min(_usable_cpus(), round(idle)))


class MermaidParser:
    """Parses diagrams with mermaid.js; caches results in memory and on disk.

    ``engine_calls`` counts diagrams actually sent to an engine (cache misses).
    """

    def __init__(
        self,
        cache_dir: Path | None = None,
        *,
        engine: Engine = "auto",
        timeout: float = PARSE_TIMEOUT,
        max_workers: int | None = None,
        patched: bool = True,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        self.cache_dir = cache_dir / "mermaid" if cache_dir is not None else None
        self.engine: Literal["quickjs", "v8"] = default_engine() if engine == "auto" else engine
        self.timeout = timeout
        self.max_workers = max(1, max_workers or min(_usable_cpus(), 4))
        self.patched = patched
        self.startup_timeout = startup_timeout
        self.engine_calls = 0
        self.worker_starts = 0
        self.worker_info: dict[str, Any] = {}
        self._memory: dict[str, MermaidResult] = {}
        self._idle: list[_Worker] = []
        self._live = 0
        self._condition = threading.Condition()

    # ------------------------------------------------------------------ cache
    def _disk_path(self, key: str) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / key[:2] / f"{key}.json"

    def cached(self, code: str) -> MermaidResult | None:
        key = diagram_key(code)
        hit = self._memory.get(key)
        if hit is not None:
            return hit
        path = self._disk_path(key)
        if path is None:
            return None
        try:
            data = signing.verified(json.loads(path.read_text(encoding="utf-8")))
            # An entry is the one for this diagram and this mermaid.js (and, with a cache
            # key, signed): a planted or copied "ok" is a miss.
            if (
                data is None
                or data.get("key") != key
                or data.get("mermaidx") != mermaidx_version()
                or not _well_formed(data)
            ):
                return None
            hit = MermaidResult.from_dict(data)
            if hit.kind == "timeout":
                limit = float(data.get("limit", 0))
                if limit < self.timeout:
                    return None  # this parser would wait longer: try again
            elif hit.kind not in ("ok", "parse"):
                return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        self._memory[key] = hit
        return hit

    def _store(self, code: str, result: MermaidResult) -> None:
        key = diagram_key(code)
        self._memory[key] = result
        path = self._disk_path(key)
        if path is None or result.kind not in ("ok", "parse", "timeout"):
            return
        data = result.to_dict() | {"key": key, "mermaidx": mermaidx_version()}
        if result.kind == "timeout":
            data["limit"] = self.timeout
        with contextlib.suppress(OSError):
            write_atomic(path, json.dumps(signing.signed(data), sort_keys=True))

    def clear_memory(self) -> None:
        self._memory.clear()

    # ------------------------------------------------------------------ parsing
    def parse(self, code: str) -> MermaidResult:
        return self.parse_many([code])[code]

    def parse_many(
        self,
        codes: Iterable[str],
        post_budget: float | None = None,
        post_of: Mapping[str, object] | None = None,
    ) -> dict[str, MermaidResult]:
        """Results for every diagram text; uncached ones are parsed in parallel workers.

        With ``post_budget``, the diagrams of one post (``post_of`` maps a text to its post;
        without it all are one post's) share that many seconds of parsing: a diagram that
        would need more is left out of the results (unchecked), and is not cached.

        Raises :class:`MermaidEngineError` when no worker can be started at all."""
        results: dict[str, MermaidResult] = {}
        todo: list[str] = []
        ledger = _Ledger(post_budget, post_of or {})
        for code in dict.fromkeys(codes):
            hit = self.cached(code)
            if hit is not None:
                results[code] = hit
            elif len(code) > MAX_TEXT_SIZE:
                results[code] = MermaidResult(
                    "parse",
                    message=f"Maximum text size in diagram exceeded: {len(code):,} characters, "
                    f"mermaid renders at most {MAX_TEXT_SIZE:,}",
                    error="MaxTextSize",
                )
            else:
                todo.append(code)
        if not todo:
            return results
        workers = min(self.max_workers, _free_cpus(), math.ceil(len(todo) / DIAGRAMS_PER_WORKER))
        parse = partial(self._parse_uncached, ledger=ledger)
        if workers <= 1:
            parsed = [parse(code) for code in todo]
        else:
            with ThreadPoolExecutor(workers, thread_name_prefix="mermaid") as pool:
                parsed = list(pool.map(parse, todo))
        for code, result in zip(todo, parsed, strict=True):
            if result is not None:
                results[code] = result
        self._trim(keep=1)
        return results

    def _parse_uncached(self, code: str, ledger: _Ledger | None = None) -> MermaidResult | None:
        left = ledger.left(code) if ledger is not None else None
        if left is not None and left <= 0:
            return None  # the post's budget is spent: unchecked
        timeout = self.timeout if left is None else min(self.timeout, left)
        worker = self._acquire()
        started = time.monotonic()
        try:
            raw = worker.request(code, timeout)
        finally:
            self._release(worker)
            if ledger is not None:
                ledger.charge(code, time.monotonic() - started)
        with self._condition:
            self.engine_calls += 1
        result = _result_from_worker(code, raw)
        if result.kind == "timeout" and timeout < self.timeout:
            return None  # cut short by the post's budget, not by the diagram: unchecked
        self._store(code, result)
        return result

    # ------------------------------------------------------------------ workers
    def _acquire(self) -> _Worker:
        with self._condition:
            while True:
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive:
                        return worker
                    self._live -= 1
                if self._live < self.max_workers:
                    self._live += 1
                    break
                self._condition.wait()
        try:
            worker = _Worker(self.engine, self.patched, self.startup_timeout)
        except BaseException:
            with self._condition:
                self._live -= 1
                self._condition.notify()
            raise
        with self._condition:
            self.worker_starts += 1
            self.worker_info = worker.info
        return worker

    def _release(self, worker: _Worker) -> None:
        with self._condition:
            if worker.alive:
                self._idle.append(worker)
            else:
                self._live -= 1
            self._condition.notify()

    def _trim(self, keep: int) -> None:
        """Stop idle workers beyond ``keep``: each holds a mermaid.js heap (~100 MB)."""
        with self._condition:
            extra = self._idle[keep:]
            del self._idle[keep:]
            self._live -= len(extra)
        for worker in extra:
            worker.close()

    def close(self) -> None:
        self._trim(keep=0)


class _Ledger:
    """Seconds of parsing each post has spent against its budget (shared by the threads of
    one :meth:`MermaidParser.parse_many`)."""

    def __init__(self, budget: float | None, post_of: Mapping[str, object]) -> None:
        self.budget = budget
        self.post_of = post_of
        self.spent: dict[object, float] = {}
        self._lock = threading.Lock()

    def left(self, code: str) -> float | None:
        if self.budget is None:
            return None
        with self._lock:
            return self.budget - self.spent.get(self.post_of.get(code), 0.0)

    def charge(self, code: str, seconds: float) -> None:
        post = self.post_of.get(code)
        with self._lock:
            self.spent[post] = self.spent.get(post, 0.0) + seconds


_SHARED: dict[tuple[Path | None, str], MermaidParser] = {}
_SHARED_LOCK = threading.Lock()


def shared_parser(cache_dir: Path | None) -> MermaidParser:
    """The process's parser for a cache folder: its worker is started once and reused by
    every post the process checks."""
    key = (cache_dir, default_engine())
    with _SHARED_LOCK:
        parser = _SHARED.get(key)
        if parser is None:
            parser = _SHARED[key] = MermaidParser(cache_dir)
        return parser


@atexit.register
def _close_shared() -> None:
    for parser in list(_SHARED.values()):
        parser.close()
