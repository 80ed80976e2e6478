"""The Chinese call claims gate 16 reads (repository wikis written in Chinese).

Gate 13's nine shapes and gate 16's frames (:mod:`.wiring_lines`) are English; a Qoder or
DeepWiki page written in Chinese states its call graph in sentences they never list. This
module reads them for gate 16 alone (gate 13's scores stay the seeds'), on prose lines
holding a CJK character that gate 13 and :mod:`.wiring_lines` list no call claim on.

REGISTERED SHAPES (session 29, helper h30zh; written and committed before this reader was
coded, from the tune half of bench/labels/gate16_repowiki.jsonl only: its 16 false and 87
true rows on Chinese lines, e.g. "`onSave` 回调通过 `saveSession` 方法触发" (false),
"`send_email`接口通过调用`poemail.send.send_email`方法实现" (false), "`_deactivate_skill()`
方法调用 `agent.deactivate_skill()`" (true), "`clear()` 方法会调用 `this.add()`" (true),
"`GeminiSessionManager`会触发`AuthManager`的`rotateAccount`方法" (true)):

- VERBS: 调用 (calls), 触发 (triggers), 委托给 (delegates to), 转发给/转发到 (forwards
  to), 交给/交由 `Y` ... 处理 (hands to `Y` to handle). 返回 (returns) is no call verb here:
  a Chinese return claim is a return-type shape, not read yet (nothing listed).
- NAMES: a name is a code span that names a function (:func:`.wiring_names.subject`), or
  an identifier-shaped token written bare (ASCII, with a dot, an underscore, ``()`` or a
  camelCase joint: ``PyOfficeRobot.chat.receive_message``, ``SessionManager``; not ``API``,
  ``Gemini``). ``A 的 B`` / ``A 中的 B`` is the member ``A.B`` (``B`` alone when ``A`` is a
  file). A noun may follow a name (方法 函数 回调 接口 类 Hook 组件 模块 ...). Callees
  after the verb: one name, or a list joined by 、 和 与 及 以及 或 / +; a callee followed by
  事件, 消息 or 信号 is an event or a message, not a function (not read).
- ACTIVE (X calls Y): (a) adjacent: ``X [noun] [adverbs] VERB Y``, the adverbs from a
  closed list (会 将 则 再 还 也 先 首先 然后 随后 最终 直接 立即 内部 负责 通过 在 ...), no
  punctuation or other name between (``X 通过调用 Y``, ``X 在调用 Y 前``, ``X 会调用 Y``);
  (b) topic: the sentence (split at the full stop, the full-width ! ? ; and line ends)
  opens on ``X [noun]`` and the verb comes later in it with no other name between (a
  Chinese topic chain: "`a`方法在收到事件后, 调用`b()`", a full-width comma); (c) chain: a
  later verb of the sentence whose text since the last callee holds no name has the same
  caller ("`a` 调用 `b`, 然后调用 `c`"); (d) place: ``在 X 中 VERB Y`` (added before
  coding); ``由 X VERB Y`` is active too (X is the agent). A list of callers
  (``A 和 B 调用 C``) is one caller of them together: one reaching the callee verifies
  it, only all failing contradict it.
- PASSIVE (X calls Y): ``Y [noun] (由|被) X [noun] [adverbs] VERB`` with no name after the
  verb; ``Y [noun] 通过 X [noun] VERB`` with no name after the verb (the brief's
  "`onSave` 回调通过 `saveSession` 方法触发": `saveSession` triggers `onSave`).
- UNJUDGED, listed with a reason: a caller or callee that is an anaphor (它 它们 其 该X 此X
  这X 这些X 上述X: "该方法会调用 `b`", "会调用这些方法"): the sentence it stands for is not
  read; a verb with a named callee and no caller (a subject-less bullet "- 调用 `X`", a
  plain noun such as 用户 or 系统 as subject); opinions: 编排/协调/统筹 (orchestrates,
  coordinates) between names, as gate 13's ORCHESTRATES.
- NOT READ (nothing listed): a verb with no name or anaphor after it (调用 as a noun: "IPC
  调用都通过 ..."; "被调用时" with no agent), ``X 通过 Y 调用 Z`` (a means phrase with two
  names before the verb), 使用/依赖/封装/基于 (uses, depends on, wraps, is built on: no
  call claim), 返回给 (returns to).
AFTER THE FIRST TUNE RUN (all tune pages, 17 contradicted read): a callee before a
possessive 的 (``调用 X 暴露的方法``), 触发's callee not ending its clause (``触发 X 重新渲染``),
and ``通过 Y 调用 Z`` (Y the means) are not read; gate 16 leaves unjudged the verdicts
its ``_judge_chinese`` names (a caller of the callee's own name, a class's own method, a
class or component as the callee).
Each claim is gate 16's ``CALLS`` claim record (line, code, text, verdict, evidence), with
the frame ``zh <shape>``, judged against the call graph as the English ones are.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from pytest_postgates.helpers.wiring_names import Subject, spans_in, subject

if TYPE_CHECKING:
    from pytest_postgates.post import Post

TEXT_LIMIT = 160
_HAN = r"[\u4e00-\u9fff]"
_CJK = re.compile(_HAN)
# A name in a line's skeleton: its code spans and bare identifiers, each a numbered mark.
_MARK = "\ue000(\\d+)\ue001"
_NOUN = (
    r"(?:\s*(?:回调函数|处理函数|处理器|方法|函数|回调|接口|类|Hook|hook|钩子|组件|模块|文件|脚本"
    r"|实例|对象|服务|中间件|工具|命令|API))?"
)
_NAME = _MARK + _NOUN
_ADVERBS = (
    r"(?:\s*(?:会先|会|将|则|再|还|也|都|又|先|首先|然后|随后|接着|之后|最终|最后|直接|立即|内部"
    r"|负责|通过|在|主要|同时|进而|从而|自动|异步|同步|可以|可|能够|能|需要|便|就|才|即|仍|依次"
    r"|分别|进一步|实际上|实际|真正|会直接|来))*\s*"
)
_ANAPHOR = (
    r"(?:它们|它|其|该(?:" + _HAN + r"|[A-Za-z]){0,4}|此" + _HAN + "{0,3}|这些?" + _HAN + "{0,3}"
    r"|上述" + _HAN + "{0,3})"
)
_VERB = re.compile(r"调用|触发|委托给|转发给|转发到|交给|交由|编排|协调|统筹")
_OPINION = frozenset({"编排", "协调", "统筹"})
_JOINT = r"\s*(?:、|和|与|及|以及|或者|或|/|\+)\s*"
_CALLEES = re.compile(r"\s*(?:了|其|一下)?\s*(?P<list>" + _NAME + r"(?:" + _JOINT + _NAME + r")*)")
# After a callee: an event or message (not a function), or a possessive (the callee is
# the noun it modifies: "调用 `useQRCode` 暴露的下载方法"); after 触发's callee, a clause end
# or a joint ("触发 `X` 重新渲染" triggers a render, no call).
_NOT_CALLEE = re.compile(r"\s*(?:事件|消息|信号|标志|(?:暴露|提供|返回|导出|定义|内部|中)?的)")
_TRIGGERED = re.compile(r"\s*(?:$|[\uff0c。\uff1b,.;:\uff1a、)\uff09]|并|后|时|以|来)")
_ANAPHOR_AFTER = re.compile(r"\s*(?:了\s*)?" + _ANAPHOR)
_CALLER = re.compile(r"(?P<list>" + _NAME + r"(?:" + _JOINT + _NAME + r")*)" + _ADVERBS + "$")
_PLACE = re.compile(r"在\s*" + _NAME + r"\s*(?:中|里|内)" + _ADVERBS + "$")
_AGENT = re.compile(r"(?:由|被)\s*(?P<list>" + _NAME + r")" + _ADVERBS + "$")
_VIA = re.compile(
    r"(?P<callee>" + _NAME + r")" + _ADVERBS + r"通过\s*(?P<list>" + _NAME + r")" + _ADVERBS + "$"
)
_BULLET = r"\s*(?:[-*+]\s+|\d+[.)]\s*)?(?:\*\*[^*]+\*\*\s*[:\uff1a]?\s*)?(?:\*\*)?"
_OPENING = re.compile(_BULLET + r"(?P<list>" + _NAME + r")")
_ANAPHOR_BEFORE = re.compile(r"(?:^|[\uff0c,\uff1a:\s])" + _ANAPHOR + _NOUN + _ADVERBS + "$")
_SENTENCE_END = re.compile(r"[。\uff01\uff1f\uff1b!?;]")
# A bare identifier: a dot, an underscore, a call's () or a camelCase joint make it a name.
_BARE = re.compile(
    r"(?<![\w$./:\ue001-])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?(?![\w$/:-])"
)
_BARE_SHAPED = re.compile(r"[._]|\(\)$|[a-z][A-Z]|[A-Z]{2}[a-z]")
_FILE = re.compile(r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|vue|json|md|ya?ml|toml|html|css)$")
_NAMED = re.compile(_MARK + r"(\s*(?:回调函数|处理函数|方法|函数|回调|钩子|Hook|hook))?")
_MEMBER = re.compile(_MARK + r"\s*(?:中的|的)\s*" + _MARK)


@dataclass(frozen=True)
class ChineseClaim:
    """A Chinese call claim: its line, the line's text, the shape that read it, the caller
    and callees (None and () when unjudged, with the reason)."""

    line: int
    text: str
    frame: str
    caller: Subject | None = None
    callees: tuple[Subject, ...] = ()
    reason: str = ""


def chinese_claims(post: Post, english: Collection[int]) -> list[ChineseClaim]:
    """The Chinese call claims of the post's prose lines (fenced code, its markers and the
    Related-posts tail left out) that hold a CJK character and no English call claim
    (``english``: the lines gate 13 or :mod:`.wiring_lines` list a call claim on)."""
    stop = post.related_posts_line
    code_lines = post.code_lines | post.fence_marker_lines
    last = len(post.lines) if stop is None else min(len(post.lines), stop - 1)
    found: list[ChineseClaim] = []
    for number in range(post.body_start_line, last + 1):
        text = post.lines[number - 1]
        if number in code_lines or number in english or not _CJK.search(text):
            continue
        if _VERB.search(text):
            found += line_claims(number, text, spans_in(post, number))
    return found


def skeleton(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[str]]:
    """The line with each name replaced by a numbered mark, and the names: its code spans,
    its identifier-shaped bare tokens, and ``A 的 B`` joined as ``A.B``."""
    names: list[str] = []
    parts: list[str] = []
    cursor = 0
    for start, end, written in spans:
        parts.append(_bare(text[cursor:start], names))
        parts.append(_mark(names, written))
        cursor = end
    parts.append(_bare(text[cursor:], names))
    joined = "".join(parts)
    while (member := _MEMBER.search(joined)) is not None:
        owner, name = names[int(member.group(1))], names[int(member.group(2))]
        whole = name if _FILE.search(owner) else f"{owner.removesuffix('()')}.{name}"
        joined = joined[: member.start()] + _mark(names, whole) + joined[member.end() :]
    return joined, names


def _mark(names: list[str], name: str) -> str:
    names.append(name)
    return f"\ue000{len(names) - 1}\ue001"


def _bare(text: str, names: list[str]) -> str:
    def replace(found: re.Match[str]) -> str:
        token = found.group(0)
        if _FILE.search(token) or not _BARE_SHAPED.search(token):
            return token
        return _mark(names, token)

    return _BARE.sub(replace, text)


def line_claims(line: int, text: str, spans: list[tuple[int, int, str]]) -> list[ChineseClaim]:
    """The claims of one line (see the module doc), sentence by sentence."""
    marked, names = skeleton(text, spans)
    shown = text.strip()[:TEXT_LIMIT]
    ends = [0] + [m.end() for m in _SENTENCE_END.finditer(marked)] + [len(marked)]
    return [c for a, b in pairwise(ends) for c in _sentence(line, shown, marked[a:b], names)]


def _subjects(listed: str, names: list[str]) -> list[Subject]:
    """The names of a list that name a function: a plain word only with a noun that says
    so (`next` 函数)."""
    found = []
    for number, noun in _NAMED.findall(listed):
        written = subject(names[int(number)], named=bool(noun))
        if written is not None:
            found.append(written)
    return found


def _together(callers: list[Subject]) -> Subject | None:
    if len(callers) < 2:
        return callers[0] if callers else None
    text = ", ".join(c.text for c in callers)
    return Subject(text, callers[0].name, members=tuple(callers))


def _sentence(line: int, shown: str, sentence: str, names: list[str]) -> list[ChineseClaim]:
    claims: list[ChineseClaim] = []
    # (caller, where its last callee ended): the topic chain's caller for a later verb
    chained: tuple[Subject, int] | None = None
    for verb in _VERB.finditer(sentence):
        before, after = sentence[: verb.start()], sentence[verb.end() :]
        callees = _CALLEES.match(after)
        if verb.group() in _OPINION:
            if callees is not None and re.search(_NAME + r"\s*" + _HAN + r"{0,4}\s*$", before):
                claims.append(ChineseClaim(line, shown, "opinion", reason=OPINION))
            continue
        if callees is None or _NOT_CALLEE.match(after, callees.end()):
            if callees is None and _ANAPHOR_AFTER.match(after) and re.search(_MARK, before):
                claims.append(ChineseClaim(line, shown, "active", reason=ANAPHOR_CALLEE))
            elif callees is None:
                claims += _passive(line, shown, before, names, verb.group())
            continue
        handed = verb.group() in ("交给", "交由") and "处理" not in after[callees.end() :][:12]
        triggered = verb.group() == "触发" and not _TRIGGERED.match(after, callees.end())
        targets = _subjects(callees.group("list"), names)
        if handed or triggered or not targets:
            continue
        frame, caller = _active(before, sentence, names, chained)
        if frame == "means":
            continue
        if caller is None:
            claims.append(ChineseClaim(line, shown, frame, reason=_no_caller(before, sentence)))
            continue
        chained = (caller, verb.end() + callees.end())
        claims.append(ChineseClaim(line, shown, frame, caller, tuple(targets)))
    return claims


OPINION = "an opinion: it says a component orchestrates others, which no call graph shows"
ANAPHOR_CALLER = "the caller is an anaphor (它, 该方法 ...): the sentence it stands for is not read"
ANAPHOR_CALLEE = "the callee is an anaphor (这些方法 ...): the sentence it stands for is not read"
NO_CALLER = "no name is the caller: a subject-less clause or a plain noun as its subject"


def _active(
    before: str, sentence: str, names: list[str], chained: tuple[Subject, int] | None
) -> tuple[str, Subject | None]:
    """The caller of an active verb, and the shape that read it."""
    near = _CALLER.search(before)
    if near is not None:
        if re.search(r"通过\s*$", before[: near.start()]):
            return "means", None  # "(X) 通过 Y 调用 Z": Y is the means, X is not read
        return "active", _together(_subjects(near.group("list"), names))
    place = _PLACE.search(before)
    if place is not None:
        return "place", _together(_subjects(place.group(0), names))
    if chained is not None and not re.search(_MARK, before[chained[1] :]):
        return "chain", chained[0]
    opening = _OPENING.match(sentence)
    if opening is not None and not re.search(_MARK, before[opening.end() :]):
        return "topic", _together(_subjects(opening.group("list"), names))
    return "active", None


def _no_caller(before: str, sentence: str) -> str:
    if _ANAPHOR_BEFORE.search(before) or re.match(_BULLET + _ANAPHOR, sentence):
        return ANAPHOR_CALLER
    return NO_CALLER


def _passive(line: int, shown: str, before: str, names: list[str], verb: str) -> list[ChineseClaim]:
    """``Y 由/被 X VERB`` and ``Y 通过 X VERB``: X calls Y."""
    agent = _AGENT.search(before)
    frame = "passive 由/被"
    if agent is None and verb in ("调用", "触发"):
        agent, frame = _VIA.search(before), "passive 通过"
    if agent is None:
        return []
    callers = _subjects(agent.group("list"), names)
    if not callers:
        return []
    ahead = before[: agent.start("list")]
    if frame == "passive 通过":
        target = agent.group("callee")
    else:
        near = re.search("(?P<callee>" + _NAME + ")" + _ADVERBS + r"(?:由|被)\s*$", ahead)
        if near is None:
            anaphor = re.search(_ANAPHOR + _NOUN + _ADVERBS + r"(?:由|被)\s*$", ahead)
            return [ChineseClaim(line, shown, frame, reason=ANAPHOR_CALLEE)] if anaphor else []
        target = near.group("callee")
    targets = _subjects(target, names)
    if not targets:
        return []
    return [ChineseClaim(line, shown, frame, callers[0], tuple(targets))]
