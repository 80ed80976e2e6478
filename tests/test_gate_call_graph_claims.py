"""Gate 13, call_graph_claims: the seeds' nine patterns, mermaid detector and scoring."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_postgates.gates import call_graph_claims as gate
from pytest_postgates.helpers import claim_scan
from pytest_postgates.helpers.claims import KEYWORDS, PATTERNS
from tests.helpers import FRONT_MATTER, context, make_post

# (code, a sentence of that shape, a near miss that must not fire any pattern)
SHAPES = [
    (
        "CALLS",
        "`parse_post` calls `yaml.safe_load` on the front matter.",
        "She recalls the design review.",
    ),
    ("CALLS", "The runner delegates to the gate module.", "The delegate list was long."),
    (
        "CALLS",
        "It routes each request through the cache to the gate.",
        "Routes are listed in a table.",
    ),
    ("CALLS", "The table dispatches on the gate id.", "Dispatch is a word."),
    (
        "ORCHESTRATES",
        "The session orchestrates every gate.",
        "Orchestration is an overloaded word.",
    ),
    (
        "GATE_ROLE",
        "`PostRun` is the entry point for every item.",
        "An entry point is declared once.",
    ),
    ("GATE_ROLE", "For this post the gate is the runner.", "A gate can be hard or advisory."),
    ("SWITCH", "Adding a gate means a new case in the table.", "We made a switch to Python."),
    ("SWITCH", "A large switch picks the backend.", "Switching cost nothing."),
    (
        "RETURN_TYPE",
        "It returns a Promise<Scorecard> to the caller.",
        "It returns a promise to the caller.",
    ),
    (
        "RETURN_TYPE",
        "The loader returns `ReadableStream` objects.",
        "It returns a Scorecard for each gate.",
    ),
    (
        "VISIBILITY",
        "`_evaluate` is a private method of the runner.",
        "Private data stays on the machine.",
    ),
    ("VISIBILITY", "The field is protected by a lock.", "The field is guarded by a lock."),
    ("THIN_CLASS", "The CLI is a thin wrapper around pytest.", "A thin line separates them."),
    (
        "FN_CONTAINS",
        "This function contains the fence logic.",
        "The file contains the fence logic.",
    ),
    (
        "CALL_DIRECTION",
        "Behind the scenes the scheduler invokes the worker.",
        "Behind the scenes, nothing moves.",
    ),
]


@pytest.mark.parametrize(("code", "sentence", "near_miss"), SHAPES)
def test_each_pattern_fires_on_its_shape_and_not_on_a_near_miss(
    code: str, sentence: str, near_miss: str, tmp_path: Path
) -> None:
    fired = {c.code for c in gate.scan_claims(make_post(f"{sentence}\n", tmp_path))}
    assert code in fired
    assert gate.scan_claims(make_post(f"{near_miss}\n", tmp_path)) == []


# The words (and fixed phrases) each pattern is made of.
_VOCABULARY = {
    "CALLS": "call|calls|invoke|invokes|is called by|delegate|delegates to|routes|route it|"
    "them|each|the|to|dispatch|dispatches on|recalls",
    "ORCHESTRATES": "orchestrate|orchestrates|orchestrating|orchestration|the",
    "GATE_ROLE": "is the|the|gate|entry point|entrypoint|workhorse|engine|conductor|"
    "orchestrator|is",
    "SWITCH": "switch statement|switch/case|switch|over|a new case|case to the|large|"
    "hard-coded|hardcoded",
    "RETURN_TYPE": "return|returns|a|an|`Promise<|ReadableStream|StreamResult|ModelMessage|Map<",
    "VISIBILITY": "private|public|protected|static|method|function|helper|field|class|is|a",
    "THIN_CLASS": "thin|tiny|lightweight|small|slim|provider|adapter|wrapper|shim|class|"
    "layer|module|file",
    "FN_CONTAINS": "function|method|class|contains|holds|wraps|implements|consists of",
    "CALL_DIRECTION": "under the hood|behind the scenes|internally|calls|invokes|delegates|the",
}


def _pattern_lines() -> list[tuple[str, str]]:
    """(code, line): every sequence of up to three of a pattern's words, lower and upper
    case, so that each of its shapes comes up."""
    lines = []
    for code, vocabulary in _VOCABULARY.items():
        words = vocabulary.split("|")
        for size in (1, 2, 3):
            for sequence in itertools.product(words, repeat=size):
                line = " ".join(sequence)
                lines += [(code, line), (code, line.upper())]
    return lines


def test_a_line_a_pattern_matches_holds_one_of_its_keywords() -> None:
    """The keyword prefilter of the line scan never drops a line a pattern matches."""
    patterns = dict(PATTERNS)
    matched = 0
    for code, line in _pattern_lines():
        if patterns[code].search(line):
            matched += 1
            lowered = line.lower()
            assert any(word in lowered for word in KEYWORDS[code]), (code, line)
            assert claim_scan._ANY_KEYWORD.search(lowered), line
    assert matched > 1000  # the shapes did come up


@given(
    st.lists(
        st.sampled_from(
            [word for vocabulary in _VOCABULARY.values() for word in vocabulary.split("|")]
            + [" ", "  ", "\t", "-", "_", "(", ".", "\u212a", "\u017f", "\u0131", "x"]
        ),
        max_size=10,
    )
)
def test_keywords_hold_for_lines_with_any_separators(pieces: list[str]) -> None:
    # Characters that fold to ASCII letters only outside re.ASCII (the Kelvin sign, a long
    # s, a dotless i) and separators the patterns do not name.
    line = "".join(pieces)
    for code, pattern in PATTERNS:
        if pattern.search(line):
            assert any(word in line.lower() for word in KEYWORDS[code]), (code, line)


def test_every_pattern_has_keywords() -> None:
    assert set(KEYWORDS) == set(gate.CODES)
    for code, _pattern in PATTERNS:
        assert KEYWORDS[code] and all(word == word.lower() for word in KEYWORDS[code])


def test_all_nine_codes_are_the_seeds_codes() -> None:
    assert gate.CODES == (
        "CALLS",
        "ORCHESTRATES",
        "GATE_ROLE",
        "SWITCH",
        "RETURN_TYPE",
        "VISIBILITY",
        "THIN_CLASS",
        "FN_CONTAINS",
        "CALL_DIRECTION",
    )


def test_word_boundaries_follow_javascript_ascii_semantics(tmp_path: Path) -> None:
    # In JavaScript, \b treats "é" as a non-word character, so "écalls" has a boundary
    # before "calls"; Python's Unicode \b would not. re.ASCII keeps the seeds' behaviour.
    post = make_post("Le module écalls nothing.\n", tmp_path)
    assert [c.code for c in gate.scan_claims(post)] == ["CALLS"]


FUNCTION_FLOW = """flowchart TD
A["parseInput()"] --> B["routeToProvider()"]
B --> C["dispatchCall()"]
C --> D["formatResponse()"]
"""
STAGE_FLOW = """flowchart TD
A["Input arrives"] --> B["Provider is selected"]
C["Selected provider is called"] --> D["Response is formatted for the caller"]
B --> C
"""


def test_seed_function_flow_diagram_flags_and_stage_diagram_does_not() -> None:
    flagged = gate.mermaid_function_flow(FUNCTION_FLOW)
    assert flagged is not None
    fn_labels, _ = flagged
    assert fn_labels == ("parseInput()", "routeToProvider()", "dispatchCall()", "formatResponse()")
    assert gate.mermaid_function_flow(STAGE_FLOW) is None


def test_camel_case_node_ids_flag_without_call_labels() -> None:
    block = "flowchart LR\n  parsePost --> runGate\n  runGate --> writeCard\n"
    flagged = gate.mermaid_function_flow(block)
    assert flagged is not None
    assert flagged[1] == ("parsePost", "runGate")
    # One camelCase id is not enough, and no edge means no flow at all.
    assert gate.mermaid_function_flow("flowchart LR\n  parsePost --> B\n") is None
    assert gate.mermaid_function_flow('flowchart LR\n  A["parse()"]\n') is None


def _body_with(claims: int, flows: int) -> str:
    lines = [f"Line {i}: the runner calls the gate." for i in range(claims)]
    for _ in range(flows):
        lines += ["", "```mermaid", FUNCTION_FLOW.rstrip(), "```", ""]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("claims", "flows", "score", "verdict"),
    [(0, 0, 0, "PASS"), (6, 0, 6, "PASS"), (7, 0, 7, "FAIL"), (3, 1, 6, "PASS"), (1, 2, 7, "FAIL")],
)
def test_score_is_claims_plus_three_per_flow_and_threshold_is_inclusive(
    claims: int, flows: int, score: int, verdict: str, tmp_path: Path
) -> None:
    card = gate.GATE.evaluate(make_post(_body_with(claims, flows), tmp_path), context())
    assert card.detail["claim_score"] == score
    assert card.detail["claim_count"] == claims
    assert card.detail["mermaid_function_flows"] == flows
    assert card.verdict == verdict
    assert card.detail["note"] == (gate.NOTE_PASS if verdict == "PASS" else gate.NOTE_FAIL)


def test_threshold_comes_from_settings(tmp_path: Path) -> None:
    post = make_post(_body_with(3, 0), tmp_path)
    assert gate.GATE.evaluate(post, context(call_graph_threshold=2)).verdict == "FAIL"
    assert gate.GATE.evaluate(post, context(call_graph_threshold=3)).verdict == "PASS"


def test_detail_has_the_seeds_keys(tmp_path: Path) -> None:
    card = gate.GATE.evaluate(make_post("The runner calls the gate.\n", tmp_path), context())
    assert set(card.detail) == {
        "threshold",
        "claim_score",
        "claim_count",
        "mermaid_function_flows",
        "mermaid_blocks",
        "by_code",
        "note",
        "claims",
    }
    assert card.detail["claims"] == [
        {"line": 6, "code": "CALLS", "in_code": False, "text": "The runner calls the gate."}
    ]
    assert card.detail["by_code"] == {"CALLS": 1}


def test_lines_are_file_lines_and_fenced_lines_are_tagged_in_code(tmp_path: Path) -> None:
    body = (
        "Intro line.\n"  # line 6
        "\n"
        "```python\n"  # 8: marker, skipped
        "# the runner calls the gate\n"  # 9: in code
        "```\n"  # 10
        "\n"
        "~~~~text\n"  # 12
        "```\n"  # 13: a nested marker is content of the outer fence
        "it invokes git\n"  # 14: in code
        "~~~~\n"  # 15
        "Then it orchestrates everything.\n"  # 16
    )
    claims = gate.scan_claims(make_post(body, tmp_path))
    assert [(c.line, c.code, c.in_code) for c in claims] == [
        (9, "CALLS", True),
        (14, "CALLS", True),
        (16, "ORCHESTRATES", False),
    ]


def test_scan_stops_at_related_posts_line_but_not_inside_code(tmp_path: Path) -> None:
    body = (
        "```js\n"
        "**Related posts:** this line is code and the scan goes on\n"
        "```\n"
        "It orchestrates things.\n"
        "\n"
        "**Related posts:**\n"
        "\n"
        "- [How the runner calls gates](/posts/runner/)\n"
    )
    claims = gate.scan_claims(make_post(body, tmp_path))
    assert [(c.line, c.code) for c in claims] == [(9, "ORCHESTRATES")]


def test_claim_text_is_trimmed_and_cut_at_160_characters(tmp_path: Path) -> None:
    long_line = "   The runner calls " + "x" * 300
    claims = gate.scan_claims(make_post(long_line + "\n", tmp_path))
    assert claims[0].text == long_line.strip()[:160]
    assert len(claims[0].text) == 160


def test_one_line_can_match_several_codes(tmp_path: Path) -> None:
    post = make_post("Under the hood it calls a thin wrapper that orchestrates work.\n", tmp_path)
    codes = sorted(c.code for c in gate.scan_claims(post))
    assert codes == ["CALLS", "CALL_DIRECTION", "ORCHESTRATES", "THIN_CLASS"]


def test_mermaid_findings_carry_the_block_line(tmp_path: Path) -> None:
    post = make_post("Text.\n\n```mermaid\n" + FUNCTION_FLOW + "```\n", tmp_path)
    card = gate.GATE.evaluate(post, context())
    assert card.detail["mermaid_blocks"][0]["line"] == 8
    assert [(f.line, f.code) for f in card.findings] == [(8, "MERMAID_FUNCTION_FLOW")]


def test_crlf_post_gives_the_same_claims_as_lf(tmp_path: Path) -> None:
    body = "Intro.\n\n```js\n// it calls git\n```\nThe runner delegates to gates.\n"
    lf = gate.scan_claims(make_post(body, tmp_path, "lf.md"))
    crlf_path = tmp_path / "crlf.md"
    crlf_path.write_bytes((FRONT_MATTER + body).replace("\n", "\r\n").encode())
    from pytest_postgates.post import parse_post

    assert gate.scan_claims(parse_post(crlf_path)) == lf
