"""Where a call sits in its function's flow (evidence/call_flow.py): in a loop, in a branch
that may not run, in another call's arguments, in a Python function written in place;
read by both readers, counted inside the calling function only, and kept in the cache."""

from __future__ import annotations

from pytest_postgates.evidence.call_flow import (
    ARGUMENT,
    BRANCH,
    CLOSURE,
    HELD_SHIFT,
    LOOP,
    exclusive,
    held_from,
    share_loop,
)
from pytest_postgates.evidence.model_facts import FunctionCalls, ModelFacts
from pytest_postgates.evidence.model_js import read_js
from pytest_postgates.evidence.model_python import read_python
from pytest_postgates.evidence.repomap import load_parsers

TS = """
export function run(xs: number[], k: number) {
  first();
  for (let i = 0; i < bound(); i++) { inFor(); }
  for (const x of items()) inForOf(x);
  for (const key in table) { inForIn(key); }
  while (more()) inWhile();
  do { inDo(); } while (k);
  xs.forEach((x) => inForEach(x));
  const doubled = xs.map((x) => inMap(x));
  if (test()) { inIf(); } else inElse();
  switch (k) { case 1: inCase(); break; default: inDefault(); }
  try { inTry(); } catch (e) { inCatch(); } finally { inFinally(); }
  const q = k ? inThen() : inOtherwise();
  k && inAnd(); k || inOr(); k ?? inNullish();
  maybe?.inOptional();
  outer(
    inArgument());
  function local() { for (;;) { localLoop(); } localStraight(); }
  for (const x of xs) { const inner = () => { innerStraight(); }; inner(); }
  last();
}
"""

PY = """
def run(xs, k):
    first()
    for x in items():
        in_for(x)
    else:
        in_for_else()
    while more():
        in_while()
    squares = [in_list(x) for x in xs]
    keyed = {x: in_dict(x) for x in xs}
    lazy = (in_generator(x) for x in xs)
    if test():
        in_if()
    elif other():
        in_elif()
    else:
        in_else()
    try:
        in_try()
    except ValueError:
        in_except()
    finally:
        in_finally()
    value = in_then() if k else in_otherwise()
    k and in_and()
    match k:
        case 1:
            in_case()
    handler = lambda: in_lambda()
    def local():
        for y in xs:
            local_loop(y)
        local_straight()
    outer(
        in_argument())
    with opened() as f:
        in_with(f)
    last()

for z in items():
    module_loop(z)
module_straight()
"""


def _flows(facts: ModelFacts, qualname: str) -> dict[str, int]:
    function = next(f for f in facts.functions if f.qualname == qualname)
    return {c.name: c.flow for c in function.calls if c.kind != "passed"}


def test_javascript_calls_are_marked_by_the_loops_branches_and_arguments_around_them() -> None:
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    facts = read_js({"src/run.ts": TS}, parsers)
    flows = _flows(facts, "src/run.ts.run")
    straight = ("first", "items", "test", "inTry", "inFinally", "outer", "last")
    assert {name: flows[name] for name in straight} == dict.fromkeys(straight, 0)
    for name in ("bound", "inFor", "inForOf", "inForIn", "more", "inWhile", "inDo"):
        assert flows[name] == LOOP, name
    # a function written in place handed to an iteration method runs once per item
    assert flows["inForEach"] & LOOP and flows["inMap"] & LOOP
    for name in ("inIf", "inElse", "inCase", "inDefault", "inCatch", "inThen"):
        assert flows[name] == BRANCH, name
    for name in ("inOtherwise", "inAnd", "inOr", "inNullish", "inOptional"):
        assert flows[name] == BRANCH, name
    # in another call's arguments, with how far back that call starts (one line)
    assert flows["inArgument"] & ~(-1 << HELD_SHIFT) == ARGUMENT
    line = TS.splitlines().index("    inArgument());") + 1
    assert held_from(line, flows["inArgument"]) == line - 1
    # A local function's own calls are marked inside it: the loop around the line that
    # declares `inner` is no loop of its body.
    local = _flows(facts, "src/run.ts.run.<locals>.local")
    assert local == {"localLoop": LOOP, "localStraight": 0}
    assert _flows(facts, "src/run.ts.run.<locals>.inner") == {"innerStraight": 0}
    assert flows["innerStraight"] == LOOP  # in the enclosing function, it is in a loop


def test_python_calls_are_marked_by_the_loops_branches_and_closures_around_them() -> None:
    facts = read_python({"pkg/__init__.py": "", "pkg/run.py": PY})
    flows = _flows(facts, "pkg.run.run")
    straight = ("first", "items", "test", "in_try", "in_finally", "outer", "last")
    straight += ("opened", "in_with")
    assert {name: flows[name] for name in straight} == dict.fromkeys(straight, 0)
    for name in ("in_for", "more", "in_while", "in_list", "in_dict", "in_generator"):
        assert flows[name] == LOOP, name
    for name in ("in_for_else", "in_if", "other", "in_elif", "in_else", "in_except"):
        assert flows[name] == BRANCH, name
    for name in ("in_then", "in_otherwise", "in_and", "in_case"):
        assert flows[name] == BRANCH, name
    assert flows["in_argument"] & ~(-1 << HELD_SHIFT) == ARGUMENT
    line = PY.splitlines().index("        in_argument())") + 1
    assert held_from(line, flows["in_argument"]) == line - 1
    assert flows["in_lambda"] == CLOSURE and flows["local_straight"] == CLOSURE
    assert flows["local_loop"] == CLOSURE | LOOP
    local = _flows(facts, "pkg.run.run.<locals>.local")
    assert local == {"local_loop": LOOP, "local_straight": 0}
    module = _flows(facts, "pkg.run.<module>")
    assert module["module_loop"] == LOOP and module["module_straight"] == 0


def test_the_flow_is_kept_in_the_cached_model() -> None:
    facts = read_python({"pkg/__init__.py": "", "pkg/run.py": PY})
    function = next(f for f in facts.functions if f.qualname == "pkg.run.run")
    again = FunctionCalls.from_json(function.to_json())
    assert [c.flow for c in again.calls] == [c.flow for c in function.calls]
    assert any(c.flow for c in again.calls) and again.calls == function.calls


ARMS_TS = """
export function pick(k: number, xs: number[]) {
  if (k) { onIf(); } else if (k > 1) { onElseIf(); } else onElse();
  switch (k) { case 1: onCase(); break; default: onDefault(); }
  try { onTry(); } catch (e) { onCatch(); } finally { onFinally(); }
  const v = k ? onThen() : onOtherwise();
  for (const x of xs) { if (x) looped(); else otherwise(); }
  xs.forEach((x) => { if (x) eachIf(); else eachElse(); });
  after();
}
"""

ARMS_PY = """
def pick(k, xs):
    if k:
        on_if()
    elif k > 1:
        on_elif()
    else:
        on_else()
    try:
        on_try()
    except ValueError:
        on_except()
    except KeyError:
        on_key_error()
    else:
        on_try_else()
    finally:
        on_finally()
    match k:
        case 1:
            on_case()
        case _:
            on_default()
    v = on_then() if k else on_otherwise()
    for x in xs:
        if x:
            looped()
        else:
            otherwise()
    after()
"""


def _arms(facts: ModelFacts, qualname: str) -> dict[str, str]:
    function = next(f for f in facts.functions if f.qualname == qualname)
    return {c.name: c.arms for c in function.calls if c.kind != "passed"}


def _assert_arms(
    arms: dict[str, str], apart: list[tuple[str, str]], joint: list[tuple[str, str]]
) -> None:
    for first, then in apart:
        assert exclusive(arms[first], arms[then]), (first, then, arms)
        assert exclusive(arms[then], arms[first]), (first, then, arms)
    for first, then in joint:
        assert not exclusive(arms[first], arms[then]), (first, then, arms)


def test_javascript_calls_in_different_arms_of_one_conditional_are_exclusive() -> None:
    """if/else (an else-if included), switch cases, try and catch, a ternary's arms: no
    run takes two of them; a loop around the conditional runs both, in either order."""
    parsers = load_parsers()
    assert not isinstance(parsers, str)
    arms = _arms(read_js({"src/pick.ts": ARMS_TS}, parsers), "src/pick.ts.pick")
    apart = [("onIf", "onElseIf"), ("onIf", "onElse"), ("onElseIf", "onElse")]
    apart += [("onCase", "onDefault"), ("onTry", "onCatch"), ("onThen", "onOtherwise")]
    joint = [("onIf", "onCase"), ("onTry", "onFinally"), ("onCatch", "onFinally")]
    joint += [("looped", "otherwise"), ("eachIf", "eachElse"), ("onElse", "after")]
    _assert_arms(arms, apart, joint)
    assert share_loop(arms["looped"], arms["otherwise"]) and share_loop(
        arms["eachIf"], arms["eachElse"]
    )
    assert not share_loop(arms["looped"], arms["eachIf"]) and not arms["after"]


def test_python_calls_in_different_arms_of_one_conditional_are_exclusive() -> None:
    """if/elif/else, except handlers against the try's body, each other and its else,
    match cases, a conditional expression's arms; a try's else runs after its body."""
    facts = read_python({"pkg/__init__.py": "", "pkg/pick.py": ARMS_PY})
    arms = _arms(facts, "pkg.pick.pick")
    apart = [("on_if", "on_elif"), ("on_if", "on_else"), ("on_elif", "on_else")]
    apart += [("on_try", "on_except"), ("on_except", "on_key_error")]
    apart += [("on_except", "on_try_else"), ("on_case", "on_default")]
    apart += [("on_then", "on_otherwise")]
    joint = [("on_try", "on_try_else"), ("on_try", "on_finally"), ("on_except", "on_finally")]
    joint += [("looped", "otherwise"), ("on_if", "on_try"), ("on_else", "after")]
    _assert_arms(arms, apart, joint)
    assert share_loop(arms["looped"], arms["otherwise"])
    assert not share_loop(arms["on_if"], arms["on_else"])


def test_the_arms_are_kept_in_the_cached_model() -> None:
    facts = read_python({"pkg/__init__.py": "", "pkg/pick.py": ARMS_PY})
    function = next(f for f in facts.functions if f.qualname == "pkg.pick.pick")
    again = FunctionCalls.from_json(function.to_json())
    assert any(c.arms for c in again.calls) and again.calls == function.calls
