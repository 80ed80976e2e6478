"""Mermaid parsing with real mermaid.js (mermaidx's bundle) in worker processes."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.tools import mermaid
from pytest_postgates.tools.mermaid import (
    MermaidEngineError,
    MermaidParser,
    condense,
    diagram_key,
    source_line,
)

# One diagram of each common type, with the type mermaid reports for it.
VALID = {
    "flowchart": (
        "flowchart LR\n    A[Start] --> B{Decide}\n    B -->|yes| C[Done]\n    B -->|no| A\n",
        "flowchart-v2",
    ),
    "sequence": (
        "sequenceDiagram\n    Alice->>Bob: Hello\n    Bob-->>Alice: Hi back\n",
        "sequence",
    ),
    "class": (
        "classDiagram\n    Animal <|-- Duck\n    class Duck {\n      +swim()\n    }\n",
        "class",
    ),
    "state": (
        "stateDiagram-v2\n    [*] --> Idle\n    Idle --> Busy: start\n    Busy --> [*]\n",
        "stateDiagram",
    ),
    "er": ("erDiagram\n    CUSTOMER ||--o{ ORDER : places\n", "er"),
    "gantt": (
        "gantt\n    title Plan\n    dateFormat YYYY-MM-DD\n    section Build\n"
        "    Parser :a1, 2026-01-01, 3d\n    Gates :after a1, 2d\n",
        "gantt",
    ),
    "pie": ('pie title Pets\n    "Dogs" : 3\n    "Cats" : 2\n', "pie"),
}

# Broken diagrams: (text, diagram line mermaid blames, error class, words of its message).
INVALID = {
    # An edge whose arrow is cut off ("B -- C" opens edge text that never closes).
    "broken_edge": (
        "flowchart LR\n    A --> B\n    B -- C\n",
        3,
        "Error",
        "Expecting 'LINK'",
    ),
    # A node label opened with [" and never closed: mermaid blames the node's line.
    "unclosed_label": (
        'flowchart TD\n    A["unclosed]\n    B --> C\n',
        2,
        "Error",
        "Expecting 'SQE'",
    ),
    "unknown_type": ("flowchar TD\n    A --> B\n", None, "UnknownDiagramError", "No diagram"),
    "sequence_no_colon": ("sequenceDiagram\n    Alice->>Bob Hello\n", 2, "Error", "Expecting"),
    "pie_no_colon": ('pie\n    "Dogs" 3\n', 2, "MermaidParseError", "Expecting token"),
}


@pytest.fixture(scope="module")
def parser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MermaidParser]:
    """A QuickJS parser shared by the module: the engine starts once."""
    made = MermaidParser(tmp_path_factory.mktemp("mermaid-cache"), engine="quickjs")
    yield made
    made.close()


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_diagrams_of_each_type_parse(parser: MermaidParser, name: str) -> None:
    code, diagram_type = VALID[name]
    result = parser.parse(code)
    assert result.ok, result
    assert result.diagram_type == diagram_type


@pytest.mark.parametrize("name", sorted(INVALID))
def test_broken_diagrams_give_mermaids_message_and_line(parser: MermaidParser, name: str) -> None:
    code, line, error, words = INVALID[name]
    result = parser.parse(code)
    assert result.kind == "parse", result
    assert result.error == error
    assert words in result.message
    assert result.line == line
    assert "\n" not in result.message  # condensed to one line for the finding


def test_the_engine_is_started_once_and_reused(tmp_path: Path) -> None:
    fresh = MermaidParser(tmp_path, engine="quickjs")
    try:
        for name in ("flowchart", "sequence", "class"):
            assert fresh.parse(VALID[name][0]).ok
        assert fresh.worker_starts == 1
        assert fresh.engine_calls == 3
        assert fresh.worker_info["sticky_match"] is True
        # The getConfig memo found its text in this mermaidx's bundle; when a new mermaidx
        # changes it, this fails rather than silently running 2x slower.
        assert fresh.worker_info["config_memo"] is True
    finally:
        fresh.close()


def test_second_parse_is_served_from_memory_then_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = VALID["flowchart"][0]
    first = MermaidParser(tmp_path, engine="quickjs")
    try:
        assert first.parse(code).ok
        assert first.parse(code).ok
        assert first.engine_calls == 1  # the second came from memory
    finally:
        first.close()
    assert list((tmp_path / "mermaid").rglob(f"{diagram_key(code)}.json"))

    second = MermaidParser(tmp_path, engine="quickjs")
    assert second.parse(code).ok
    assert (second.engine_calls, second.worker_starts) == (0, 0)  # from disk, no engine

    # Another mermaidx (another mermaid.js) must not reuse the verdict.
    monkeypatch.setattr(mermaid, "mermaidx_version", lambda: "0.0.0-other")
    try:
        assert second.parse(code).ok
        assert second.engine_calls == 1
    finally:
        second.close()


def test_parse_errors_are_cached_too(tmp_path: Path) -> None:
    code = INVALID["broken_edge"][0]
    first = MermaidParser(tmp_path, engine="quickjs")
    try:
        expected = first.parse(code)
    finally:
        first.close()
    second = MermaidParser(tmp_path, engine="quickjs")
    assert second.parse(code) == expected
    assert second.engine_calls == 0


def test_a_pathological_diagram_times_out_and_the_next_one_parses(tmp_path: Path) -> None:
    # mermaid's comment-stripping regex backtracks quadratically over whitespace lines:
    # 5,000 of them take ~30 s in QuickJS, these 20,000 (40 KB, under maxTextSize) minutes.
    slow = "flowchart TD\n" + " \n" * 20_000 + "A --> B\n"
    quick = MermaidParser(tmp_path, engine="quickjs", timeout=0.5)
    try:
        assert quick.parse(VALID["pie"][0]).ok  # started and warm
        started = time.monotonic()
        result = quick.parse(slow)
        elapsed = time.monotonic() - started
        assert result.kind == "timeout"
        assert "within 0.5 s" in result.message
        assert elapsed < 10
        # The stuck worker was killed; a fresh one takes the next diagram.
        assert quick.parse(VALID["er"][0]).ok
        assert quick.worker_starts == 2
    finally:
        quick.close()
    # Written to the disk cache with the limit it ran out of, so that a rerun does not wait
    # for it again (tests/hostile/test_budgets.py); a longer limit tries again.
    stored = list((tmp_path / "mermaid").rglob(f"{diagram_key(slow)}.json"))
    assert [json.loads(path.read_text())["limit"] for path in stored] == [0.5]


def test_a_worker_that_dies_mid_parse_is_an_engine_result(tmp_path: Path) -> None:
    slow = "flowchart TD\n" + " \n" * 20_000 + "A --> B\n"
    crashing = MermaidParser(tmp_path, engine="quickjs", timeout=60)
    try:
        assert crashing.parse(VALID["pie"][0]).ok
        worker = crashing._idle[0]
        threading.Timer(0.5, worker.process.kill).start()
        result = crashing.parse(slow)
        assert result.kind == "engine"
        assert "exited with code" in result.message
        assert crashing.parse(VALID["state"][0]).ok  # and the parser recovers
    finally:
        crashing.close()


def test_no_worker_at_all_is_an_engine_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mermaid.sys, "executable", str(tmp_path / "no-python"))
    broken = MermaidParser(tmp_path, engine="quickjs")
    with pytest.raises(MermaidEngineError, match="cannot start a mermaid worker"):
        broken.parse(VALID["pie"][0])


def test_text_over_mermaids_size_limit_is_refused_without_the_engine(tmp_path: Path) -> None:
    huge = "flowchart TD\n" + "A --> B\n" * 8_000
    limited = MermaidParser(tmp_path, engine="quickjs")
    result = limited.parse(huge)
    assert result.kind == "parse"
    assert "Maximum text size" in result.message
    assert limited.engine_calls == 0


def test_a_batch_is_parsed_by_parallel_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mermaid, "DIAGRAMS_PER_WORKER", 2)
    monkeypatch.setattr(mermaid, "_free_cpus", lambda: 2)  # whatever else the machine runs
    pool = MermaidParser(tmp_path, engine="quickjs", max_workers=2)
    try:
        codes = [VALID[name][0] for name in ("flowchart", "sequence", "class", "er")]
        results = pool.parse_many([*codes, codes[0]])  # a repeat is parsed once
        assert all(results[code].ok for code in codes)
        assert pool.worker_starts == 2
        assert pool.engine_calls == 4
        assert len(pool._idle) == 1  # extra workers are stopped after the batch
    finally:
        pool.close()


def test_speed_ups_do_not_change_any_result(parser: MermaidParser, tmp_path: Path) -> None:
    """The sticky-regex and getConfig speed-ups against mermaidx's bundle as shipped."""
    plain = MermaidParser(tmp_path, engine="quickjs", patched=False)
    try:
        codes = [code for code, _ in VALID.values()] + [case[0] for case in INVALID.values()]
        assert plain.parse_many(codes) == parser.parse_many(codes)
        assert plain.worker_info["sticky_match"] is False
        assert plain.worker_info["config_memo"] is False
    finally:
        plain.close()


@pytest.mark.skipif(mermaid.default_engine() != "v8", reason="mini-racer (V8) is not installed")
def test_v8_speed_ups_do_not_change_any_result(tmp_path: Path) -> None:
    """V8's bundle drops the sticky-match wrapper and mermaidx's RegExp-statics shim (V8
    has both natively): the same results as the bundle as shipped."""
    fast = MermaidParser(tmp_path / "fast", engine="v8")
    plain = MermaidParser(tmp_path / "plain", engine="v8", patched=False)
    try:
        codes = [code for code, _ in VALID.values()] + [case[0] for case in INVALID.values()]
        assert fast.parse_many(codes) == plain.parse_many(codes)
        assert fast.worker_info["statics_shim"] is False
        assert fast.worker_info["sticky_match"] is False
        assert fast.worker_info["config_memo"] is True
        assert plain.worker_info["statics_shim"] is True
    finally:
        fast.close()
        plain.close()


@pytest.mark.skipif(mermaid.default_engine() != "v8", reason="mini-racer (V8) is not installed")
def test_v8_gives_the_same_results_as_quickjs(parser: MermaidParser, tmp_path: Path) -> None:
    fast = MermaidParser(tmp_path, engine="v8")
    try:
        codes = [code for code, _ in VALID.values()] + [case[0] for case in INVALID.values()]
        assert fast.parse_many(codes) == parser.parse_many(codes)
    finally:
        fast.close()


# ----------------------------------------------------------------- line mapping (pure)
@pytest.mark.parametrize(
    ("code", "processed", "expected"),
    [
        ("flowchart TD\nA-->B\nB-->", 3, 3),
        # a comment line is removed before mermaid counts
        ("flowchart TD\n%% note\n\nA-->B\nB-->", 4, 5),
        # front matter is removed (and the blank line after it)
        ("---\ntitle: T\n---\n\nflowchart TD\nA-->B\nB-->", 3, 7),
        # a directive line is emptied, then leading blank lines are trimmed
        ("%%{init: {'theme':'dark'}}%%\nflowchart TD\nA-->B\nB-->", 3, 4),
        # mermaid's end-of-input line is one past the end: the last non-blank line
        ("flowchart TD\nA-->B\nB-->\n\n", 9, 3),
    ],
)
def test_source_line_replays_mermaids_preprocessing(
    code: str, processed: int, expected: int
) -> None:
    assert source_line(code, processed) == expected


def test_source_line_is_linear_on_pathological_text() -> None:
    started = time.monotonic()
    assert source_line("---\n" + " \n" * 24_000 + "A-->B", 2) >= 1
    assert source_line("flowchart TD\n" + " \n" * 24_000 + "%% x\nA-->B", 3) >= 1
    assert time.monotonic() - started < 2


_JS_COMMENTS = re.compile(r"^\s*%%(?!\{)[^\n]+\n?", re.M)
_JS_FRONT_MATTER = re.compile(r"^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+", re.S)


def _strip(spans: list[tuple[int, int]], text: str) -> str:
    return mermaid._without(spans, text, list(range(len(text))))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=[" ", "\t", "\n", "%", "{", "a"], max_size=24))
def test_comment_removal_equals_mermaids_regex(text: str) -> None:
    # On ASCII, Python's regex engine agrees with JavaScript's for this pattern.
    assert _strip(mermaid._comment_spans(text), text) == _JS_COMMENTS.sub("", text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["---", "-", "\n", "\n", " ", "a", " ---", "\t"]), max_size=12))
def test_front_matter_removal_equals_mermaids_regex(parts: list[str]) -> None:
    text = "".join(parts)
    expected = _JS_FRONT_MATTER.sub("", text, count=1)
    assert _strip(mermaid._front_matter_span(text), text) == expected


def test_condense_keeps_mermaids_words_and_drops_the_caret_excerpt() -> None:
    message = (
        "Parse error on line 3:\n...A-->BB-- C\n--------------------^\n"
        "Expecting 'LINK', 'UNICODE_TEXT', got '1'"
    )
    assert condense(message) == "Parse error on line 3: Expecting 'LINK', 'UNICODE_TEXT', got '1'"
    assert condense("No diagram type detected") == "No diagram type detected"


def test_free_cpus_come_from_current_idle_time_not_the_load_average(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = iter([(100, 1000), (100 + 150, 1000 + 200)])  # idle 150 of 200 jiffies
    monkeypatch.setattr(mermaid, "_cpu_times", lambda: next(readings))
    monkeypatch.setattr(mermaid.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(mermaid.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(mermaid, "_usable_cpus", lambda: 4)
    monkeypatch.setattr(mermaid.os, "getloadavg", lambda: (9.0, 9.0, 9.0))  # stale: ignored
    assert mermaid._free_cpus() == 3  # 75% of 4 CPUs idle
    # Without /proc/stat the load average decides; never fewer than one engine.
    monkeypatch.setattr(mermaid, "_cpu_times", lambda: (_ for _ in ()).throw(OSError()))
    assert mermaid._free_cpus() == 1
    monkeypatch.setattr(mermaid.os, "getloadavg", lambda: (1.2, 1.0, 1.0))
    assert mermaid._free_cpus() == 3


def test_cpu_times_read_this_machine() -> None:
    if not Path("/proc/stat").exists():
        pytest.skip("no /proc/stat on this platform")
    idle, total = mermaid._cpu_times()
    assert 0 <= idle <= total
    assert 1 <= mermaid._free_cpus() <= mermaid._usable_cpus()
