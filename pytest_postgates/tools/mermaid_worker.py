"""The mermaid worker process: mermaid.js loaded once into QuickJS or V8, one diagram
parsed per request (one JSON object per line on stdin, one answer per line on stdout).

Started by :class:`pytest_postgates.tools.mermaid.MermaidParser` as
``python -m pytest_postgates.tools.mermaid_worker --worker quickjs|v8 [--unpatched]``; see
that module for why diagrams are parsed in worker processes and what the two speed-ups
(``--unpatched`` turns them off) change.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import IO, Any


def _mermaidx_version() -> str:
    """The version mermaidx says it is (already imported by then). Not
    :func:`pytest_postgates.tools.mermaid.mermaidx_version`: importing the parent's module
    (subprocess, threads, importlib.metadata) cost each worker start about 0.1 s."""
    import mermaidx  # type: ignore[import-untyped]

    return str(getattr(mermaidx, "__version__", "unknown"))


# mini-racer's own default flags (one thread: no background compiles to account for).
V8_FLAGS = ("--single-threaded",)

# Bound on event-loop steps of one parse (promise jobs and virtual timers).
_MAX_LOOP_STEPS = 200_000


_GETCONFIG = (
    '_t=o(()=>Yn({},Vx),"getConfig")',
    "_t=o(()=>__pgCfgKey===Vx?__pgCfgVal:(__pgCfgVal=Yn({},Vx),__pgCfgKey=Vx,__pgCfgVal),"
    '"getConfig")',
)
_SETCONFIG = (
    '_k=o(e=>(lZ(e),Yn(Vx,e),_t()),"setConfig")',
    '_k=o(e=>(lZ(e),Yn(Vx,e),__pgCfgKey=void 0,_t()),"setConfig")',
)

# Globals the DOM shim expects from its host. Parsing lays nothing out, so text measurement
# answers zero and logging is dropped: no call ever goes back into Python.
_HOST_JS = """
globalThis.__flat = (v) => (typeof v === "string" ? v.slice(0) : v);
globalThis.__log = () => {};
globalThis.__measureText = () => 0;
globalThis.__measureTextFull = () => ({ width: 0, height: 0, ascent: 0, descent: 0 });
globalThis.__measureGlyphs = () => [];
globalThis.__measureForeignObject = () => ({ width: 0, height: 0 });
globalThis.__pgCfgKey = undefined;
globalThis.__pgCfgVal = undefined;
"""

_STICKY_MATCH_JS = r"""
(function () {
  "use strict";
  const originalMatch = String.prototype.match;
  const sticky = new WeakMap();
  // True when the whole pattern is one group "^(?:...)": then matching the anchored regex
  // equals matching the unanchored body sticky at position 0.
  function wholeGroup(source) {
    if (!source.startsWith("^(?:") || !source.endsWith(")")) return false;
    let depth = 0;
    let inClass = false;
    for (let i = 1; i < source.length; i++) {
      const c = source[i];
      if (c === "\\") { i++; continue; }
      if (inClass) { if (c === "]") inClass = false; continue; }
      if (c === "[") { inClass = true; continue; }
      if (c === "(") depth++;
      else if (c === ")") { depth--; if (depth === 0) return i === source.length - 1; }
    }
    return false;
  }
  function stickyFor(re) {
    let s = sticky.get(re);
    if (s === undefined) {
      s = wholeGroup(re.source) ? new RegExp(re.source.slice(1), re.flags + "y") : null;
      sticky.set(re, s);
    }
    return s;
  }
  Object.defineProperty(String.prototype, "match", {
    value: function match(re) {
      if (re instanceof RegExp && !re.global && !re.sticky && !re.multiline) {
        const s = stickyFor(re);
        if (s !== null) { s.lastIndex = 0; return s.exec(String(this)); }
      }
      return originalMatch.call(this, re);
    },
    writable: true,
    configurable: true,
  });
})();
"""

_PARSE_JS = """
globalThis.__pgResult = null;
globalThis.__pgParse = function (code) {
  globalThis.__pgResult = null;
  let pending;
  try { pending = mermaid.parse(code); } catch (e) { pending = Promise.reject(e); }
  Promise.resolve(pending).then(
    (r) => {
      const type = (r && r.diagramType) || null;
      globalThis.__pgResult = JSON.stringify({ kind: "ok", type: type });
    },
    (e) => {
      const name = e && e.name && e.name !== "Error" ? e.name
        : (e && e.constructor && e.constructor.name) || "Error";
      const loc = e && e.hash && e.hash.loc ? e.hash.loc.first_line : null;
      globalThis.__pgResult = JSON.stringify({
        kind: "parse", name: String(name), message: String((e && e.message) || e),
        loc_line: typeof loc === "number" ? loc : null,
      });
    });
};
"""


# mermaidx's shim of the legacy RegExp statics (RegExp.$1 ...), which QuickJS lacks: it
# wraps RegExp.prototype.exec, every regex match of mermaid's lexers goes through the
# wrapper, and V8 leaves its fast regex paths. V8 has the statics natively, so there the
# wrapper is dropped (V8 only; the exact text, or nothing is dropped).
_LEGACY_STATICS_START = "(function () {\n  const origExec = RegExp.prototype.exec;"
_LEGACY_STATICS_END = "})();"


def _without_legacy_statics(script: str) -> tuple[str, bool]:
    start = script.find(_LEGACY_STATICS_START)
    if start < 0 or script.count(_LEGACY_STATICS_START) != 1:
        return script, False
    end = script.find(_LEGACY_STATICS_END, start)
    if end < 0:  # pragma: no cover - another mermaidx shim
        return script, False
    return script[:start] + script[end + len(_LEGACY_STATICS_END) :], True


def _bundle(patched: bool, engine: str = "quickjs") -> tuple[list[str], bool]:
    """The scripts to evaluate, mermaidx's own, optionally with the speed-ups: the
    getConfig memo (both engines); on QuickJS the sticky-match wrapper, on V8 (which
    anchors ``^`` regexes itself, and where the wrapper costs more than it saves) the
    legacy-statics shim left out."""
    from mermaidx.engines._common import (  # type: ignore[import-untyped]
        context_scripts,
        mermaid_config,
    )

    scripts = list(context_scripts())
    applied = False
    if patched:
        for index, script in enumerate(scripts):
            if script.count(_GETCONFIG[0]) == 1 and script.count(_SETCONFIG[0]) == 1:
                scripts[index] = script.replace(*_GETCONFIG).replace(*_SETCONFIG)
                applied = True
            if engine == "v8":
                scripts[index] = _without_legacy_statics(scripts[index])[0]
    init = f"mermaid.initialize({json.dumps(mermaid_config(None, None))});"
    tail = [_STICKY_MATCH_JS] if patched and engine != "v8" else []
    return [_HOST_JS, *scripts, init, *tail, _PARSE_JS], applied


class _QuickJSRunner:
    """mermaid.js in one QuickJS context, reused for every diagram."""

    def __init__(self, patched: bool) -> None:
        self.patched = patched
        self.config_memo = False
        self._build()

    def _build(self) -> None:
        import quickjs  # type: ignore[import-untyped]

        context = quickjs.Context()
        context.set_memory_limit(512 * 1024 * 1024)
        # Below the worker thread's 32 MB native stack: deep recursion is a RangeError.
        context.set_max_stack_size(24 * 1024 * 1024)
        scripts, self.config_memo = _bundle(self.patched)
        for script in scripts:
            context.eval(script)
        self._context = context

    def _run_job(self) -> bool:
        try:
            return bool(self._context.execute_pending_job())
        except StopIteration:
            return False

    def parse(self, code: str) -> dict[str, Any]:
        context = self._context
        try:
            context.eval(f"__pgParse({json.dumps(code)})")
            for _ in range(_MAX_LOOP_STEPS):
                if context.eval("globalThis.__pgResult !== null"):
                    break
                if self._run_job():
                    continue
                if not context.eval("__runNextTimer()"):
                    break
            result = context.eval("__flat(globalThis.__pgResult)")
        except Exception as exc:  # out of memory, stack overflow outside a promise, ...
            self._build()  # a context that failed mid-parse is not trusted again
            return {"kind": "engine", "message": f"QuickJS: {type(exc).__name__}: {exc}"}
        if not result:
            self._build()
            return {"kind": "engine", "message": "mermaid.parse() never settled"}
        answer: dict[str, Any] = json.loads(result)
        return answer


class _V8Runner:
    """mermaid.js in one V8 isolate (mini-racer), reused for every diagram."""

    def __init__(self, patched: bool) -> None:
        from py_mini_racer import MiniRacer, init_mini_racer

        if patched:
            # Maglev is V8's top tier here, not TurboFan: a worker parses a few hundred
            # diagrams and exits, and TurboFan's compiles cost more CPU than its code saves
            # (the 212 real diagrams: about a tenth less engine CPU, the same answers).
            init_mini_racer(flags=(*V8_FLAGS, "--max-opt=2"), ignore_duplicate_init=True)
        self._context = MiniRacer()
        scripts, self.config_memo = _bundle(patched, "v8")
        self.statics_shim = any(_LEGACY_STATICS_START in script for script in scripts)
        for script in scripts:
            self._context.eval(script)

    def parse(self, code: str) -> dict[str, Any]:
        context = self._context
        # V8 runs every pending promise job at the end of each eval(); only the shim's
        # virtual timers need pumping.
        # Each eval costs about half a millisecond of its own: the result is read in the
        # same eval that checks for it (null until the parse settles).
        context.eval(f"void __pgParse({json.dumps(code)})")
        result = context.eval("globalThis.__pgResult")
        for _ in range(_MAX_LOOP_STEPS):
            if result is not None:
                break
            ran = context.eval("__runNextTimer()")
            result = context.eval("globalThis.__pgResult")
            if not ran:
                break
        if not result:
            return {"kind": "engine", "message": "mermaid.parse() never settled"}
        answer: dict[str, Any] = json.loads(str(result))
        return answer


def _serve(engine: str, patched: bool, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The worker loop: one JSON request per line in, one JSON answer per line out."""

    def send(payload: dict[str, Any]) -> None:
        stdout.write(json.dumps(payload).encode("ascii") + b"\n")
        stdout.flush()

    try:
        runner: _QuickJSRunner | _V8Runner = (
            _V8Runner(patched) if engine == "v8" else _QuickJSRunner(patched)
        )
    except Exception as exc:
        send({"fatal": f"cannot start mermaid on {engine}: {type(exc).__name__}: {exc}"})
        return 1
    send(
        {
            "ready": True,
            "engine": engine,
            "mermaidx": _mermaidx_version(),
            "sticky_match": patched and engine != "v8",
            "config_memo": runner.config_memo,
            # mermaidx's RegExp-statics shim evaluated (always on QuickJS)
            "statics_shim": getattr(runner, "statics_shim", True),
        }
    )
    for line in stdin:
        request = json.loads(line)
        try:
            answer = runner.parse(request["code"])
        except Exception as exc:
            answer = {"kind": "engine", "message": f"{type(exc).__name__}: {exc}"}
        answer["id"] = request["id"]
        send(answer)
    return 0


def _exit_when_orphaned(parent: int) -> None:
    """A worker whose pytest died mid-parse stops at once instead of finishing a long
    parse nobody will read (end of input only ends the loop between diagrams)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(argv: list[str]) -> int:
    engine = argv[0] if argv else "quickjs"
    patched = "--unpatched" not in argv
    outcome: list[int] = [1]
    threading.Thread(
        target=_exit_when_orphaned, args=(os.getppid(),), name="orphan-watch", daemon=True
    ).start()

    def run() -> None:
        outcome[0] = _serve(engine, patched, sys.stdin.buffer, sys.stdout.buffer)

    # mermaid's recursive parsers need a deep native stack (mermaidx uses 32 MB too).
    previous = threading.stack_size(32 * 1024 * 1024)
    try:
        thread = threading.Thread(target=run, name="mermaid-engine")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    return outcome[0]


if __name__ == "__main__":  # pragma: no cover - exercised through worker processes
    if sys.argv[1:2] == ["--worker"]:
        raise SystemExit(_worker_main(sys.argv[2:]))
    raise SystemExit("usage: python -m pytest_postgates.tools.mermaid_worker --worker [quickjs|v8]")
