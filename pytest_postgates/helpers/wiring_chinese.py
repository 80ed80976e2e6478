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
  (b) topic: the sentence (split at 。！？； and line ends) opens on ``X [noun]`` and the
  verb comes later in it with no other name between (a Chinese topic chain: "`a`方法在收到
  事件后，调用`b()`"); (c) chain: a later verb of the sentence whose text since the last
  callee holds no name has the same caller ("`a` 调用 `b`，然后调用 `c`"); (d) place:
  ``在 X 中 VERB Y`` (added before coding); ``由 X VERB Y`` is active too (X is the agent).
  A list of callers (``A 和 B 调用 C``) is one caller of them together: one reaching the
  callee verifies it, only all failing contradict it.
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
Each claim is gate 16's ``CALLS`` claim record (line, code, text, verdict, evidence), with
the frame ``zh <shape>``, judged against the call graph as the English ones are.
"""
