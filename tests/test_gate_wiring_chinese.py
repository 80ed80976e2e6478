"""Gate 16's Chinese call claims (helpers/wiring_chinese.py): each registered shape read
off one line, and gate 16 judging them against a small repository's call graph."""

# Chinese prose is written with full-width commas and colons: the test lines keep them.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_postgates.gates import BY_ID
from pytest_postgates.helpers.wiring_chinese import (
    ANAPHOR_CALLEE,
    ANAPHOR_CALLER,
    NO_CALLER,
    OPINION,
    line_claims,
    skeleton,
)
from tests.helpers import make_post, make_repo, repo_context

_SPAN = re.compile(r"`([^`]+)`")


def _spans(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(1)) for m in _SPAN.finditer(text)]


def _read(text: str) -> list[tuple[str, str, list[str], str]]:
    """(frame, caller, callees, reason) of each claim the line holds."""
    return [
        (c.frame, c.caller.text if c.caller else "", [t.text for t in c.callees], c.reason)
        for c in line_claims(1, text, _spans(text))
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ACTIVE (a): adjacent, adverbs between
        ("- `_deactivate_skill()` 方法调用 `agent.deactivate_skill()`",
         [("active", "_deactivate_skill()", ["agent.deactivate_skill()"], "")]),
        ("在清空之后，`clear()` 方法会调用 `this.add()` 添加一条日志。",
         [("active", "clear()", ["this.add()"], "")]),
        ("`send_email`接口通过调用`poemail.send.send_email`方法实现邮件发送功能",
         [("active", "send_email", ["poemail.send.send_email"], "")]),
        ("2. `loggerMiddleware` 在调用 `next(action)` 前打印 action",
         [("active", "loggerMiddleware", ["next(action)"], "")]),
        # A 的 B is the member A.B; a bare identifier-shaped token is a name
        ("失败时，`GeminiSessionManager`会触发`AuthManager`的`rotateAccount`方法。",
         [("active", "GeminiSessionManager", ["AuthManager.rotateAccount"], "")]),
        ("- useTaskStore.retryTask 调用 TaskEngine.retry，失败时回退。",
         [("active", "useTaskStore.retryTask", ["TaskEngine.retry"], "")]),
        ("- `PromptHandler` 委托给 `buildPrompt` 与 `sendPrompt`。",
         [("active", "PromptHandler", ["buildPrompt", "sendPrompt"], "")]),
        ("- `stopTrace` 交由 `TraceProcessor` 处理事件。",
         [("active", "stopTrace", ["TraceProcessor"], "")]),
        # a list of callers is one caller of them together
        ("`runA` 和 `runB` 会调用 `helperFn`。", [("active", "runA, runB", ["helperFn"], "")]),
        # ACTIVE (b) topic, (c) chain, (d) place
        ("`handleSelection`方法在收到选中事件后，调用`ui.show()`在指定位置显示工具栏。",
         [("topic", "handleSelection", ["ui.show()"], "")]),
        ("`runAll` 调用 `stepOne`，然后调用 `stepTwo`。",
         [("active", "runAll", ["stepOne"], ""), ("chain", "runAll", ["stepTwo"], "")]),
        ("- **新增** 在 `mainEntry` 中调用 `discover_skills()` 发现技能",
         [("place", "mainEntry", ["discover_skills()"], "")]),
        # PASSIVE: 由/被 and 通过
        ("`alignData` 被 `runBacktest` 调用，作为预处理。",
         [("passive 由/被", "runBacktest", ["alignData"], "")]),
        ("`onSave` 回调通过 `saveSession` 方法触发，当表单验证通过时。",
         [("passive 通过", "saveSession", ["onSave"], "")]),
        # UNJUDGED: anaphors, no caller, opinions
        ("`reconnect`方法用于重连。该方法会先关闭连接，然后调用`establishConnection`重新连接。",
         [("active", "", [], ANAPHOR_CALLER)]),
        ("当 `AppController` 或其他模块需要更新主题时，会调用这些方法。",
         [("active", "", [], ANAPHOR_CALLEE)]),
        ("这一过程由 `lib/messaging.js` 中的 `saveSessionsToStorage` 函数触发。",
         [("passive 由/被", "", [], ANAPHOR_CALLEE)]),
        ("- 调用 MCPManager.executeTool，按服务器模式发送请求", [("active", "", [], NO_CALLER)]),
        ("- `researchTopic` 链式编排 `webSearch` + `fetchUrl`", [("opinion", "", [], OPINION)]),
        # NOT READ
        ("所有 IPC 调用都通过 `ipcRenderer.invoke` 进行。", []),
        ("随后通过 SessionManager 调用 sendGeminiMessage 发送。", []),
        ("- ExportPanel：提供导出入口，调用 useQRCode 暴露的下载方法。", []),
        ("- StyleCustomizer 通过回调更新样式，触发 useQRCode 重新渲染。", []),
        ("`handleReset`方法触发`onReset`事件。", []),
        ("`useReduxStore` 基于 `useSyncExternalStore` 实现订阅。", []),
    ],
)  # fmt: skip
def test_each_registered_shape_is_read(
    text: str, expected: list[tuple[str, str, list[str], str]]
) -> None:
    assert _read(text) == expected


_WORDS = st.sampled_from(
    ["调用", "触发", "由", "被", "通过", "的", "，", "。", "它", "该方法", "会"]
)
_NAMES = st.from_regex(r"[a-z][a-zA-Z_]{0,8}(\(\))?", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_WORDS, _NAMES.map(lambda n: f"`{n}`")), max_size=14))
def test_the_skeleton_keeps_every_span_and_the_reader_never_fails(parts: list[str]) -> None:
    text = " ".join(parts)
    marked, names = skeleton(text, _spans(text))
    assert "`" not in marked
    spans = [t for _a, _b, t in _spans(text)]
    assert all(any(span in name for name in names) for span in spans)
    for claim in line_claims(1, text, _spans(text)):
        # a claim has both ends, or a reason and no end
        assert (claim.caller is not None and claim.callees) or (claim.reason and not claim.callees)


SOURCES = {
    "package.json": '{"name": "@acme/kit", "version": "1.0.0"}\n',
    "src/session.ts": """
import { sendRequest } from "./client";
export function startSession(): void { loadConfig(); sendRequest(); }
export function stopSession(): void { closeSocket(); }
export function loadConfig(): void {}
export function closeSocket(): void {}
""",
    "src/client.ts": (
        "export function sendRequest(): void {}\nexport function auditLog(): void {}\n"
    ),
}


def _card(tmp_path: Path, body: str) -> Any:
    repo = make_repo(tmp_path / "repo", SOURCES)
    (tmp_path / "posts").mkdir()
    post = make_post(body, tmp_path / "posts")
    return BY_ID[16].evaluate(post, repo_context(repo, tmp_path / "cache"))


def test_a_false_chinese_claim_is_contradicted_and_a_true_one_verified(tmp_path: Path) -> None:
    body = (
        "# 会话\n\n"
        "`startSession` 函数会调用 `sendRequest` 发送请求。\n\n"
        "`stopSession` 方法调用 `auditLog` 记录日志。\n\n"
        "`loadConfig` 由 `startSession` 调用。\n\n"
        "该方法还会调用 `closeSocket`。\n"
    )
    card = _card(tmp_path, body)
    claims = {c.get("subject", c["evidence"][:20]): c for c in card.detail["claims"]}
    true = claims["startSession -> sendRequest"]
    assert true["verdict"] == "verified" and true["frame"] == "zh active"
    assert true["code"] == "CALLS" and "src/session.ts" in true["evidence"]
    false = claims["stopSession -> auditLog"]
    assert false["verdict"] == "contradicted" and "closeSocket" in false["evidence"]
    assert claims["startSession -> loadConfig"]["verdict"] == "verified"
    (anaphor,) = [c for c in card.detail["claims"] if "anaphor" in c["evidence"]]
    assert anaphor["verdict"] == "unjudged" and anaphor["text"].startswith("该方法")
    assert card.verdict == "FAIL"
    assert [f.message for f in card.findings] == [
        "stopSession does not call auditLog; stopSession calls `closeSocket`"
    ]


def test_a_chinese_caller_of_the_callee_s_own_name_is_unjudged(tmp_path: Path) -> None:
    card = _card(tmp_path, "# 会话\n\n- sendRequest：调用 client.sendRequest 并返回结果。\n")
    (claim,) = card.detail["claims"]
    assert claim["verdict"] == "unjudged" and "share the name" in claim["evidence"]


def test_a_class_s_own_method_and_a_class_as_callee_are_unjudged(tmp_path: Path) -> None:
    sources = {
        **SOURCES,
        "src/store.ts": """
export class Store {
  save(): void {}
  flush(): void {}
}
export function persistAll(): void { console.log("x"); }
""",
    }
    repo = make_repo(tmp_path / "repo", sources)
    (tmp_path / "posts").mkdir()
    body = "# 存储\n\n`Store` 调用 `flush` 方法。\n\n`persistAll` 调用 `Store` 保存数据。\n"
    post = make_post(body, tmp_path / "posts")
    card = BY_ID[16].evaluate(post, repo_context(repo, tmp_path / "cache"))
    claims = {c["subject"]: c for c in card.detail["claims"]}
    own = claims["Store -> flush"]
    assert own["verdict"] == "unjudged" and "a step of the class" in own["evidence"]
    used = claims["persistAll -> Store"]
    assert used["verdict"] == "unjudged" and "class or component" in used["evidence"]
    assert card.verdict == "PASS"
