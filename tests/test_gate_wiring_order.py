"""Gate 16, a step edge "A then B" against the order the code runs them in
(helpers/wiring_order.py): contradicted only when the functions the diagram draws that run
both call B before A on every path (both calls in their straight-line code, neither in a
loop, a branch, another call's arguments or a function written in place, the function not
calling itself, no other call of A before B); a loop or a recursion that runs them in the
drawn order from its second pass is never read by line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_postgates.evidence.call_flow import LOOP
from pytest_postgates.evidence.call_graph import CallGraph
from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls
from pytest_postgates.gates import BY_ID
from pytest_postgates.helpers.wiring_order import in_order_again, straight_reversed
from tests.helpers import make_post, make_repo, repo_context

STORE = {
    "package.json": '{"name": "@acme/images", "version": "1.0.0"}\n',
    "src/db.js": (
        "export const db = {\n"
        "  addImage(x) { return 1; },\n"
        "  updateImage(id, x) { return id; },\n"
        "};\n"
    ),
    # a function the diagram does not draw runs the two in the drawn order
    "src/ipc.js": (
        'import { db } from "./db";\n'
        "export function registerHandlers(x) {\n"
        "  const id = db.addImage(x);\n"
        "  db.updateImage(id, x);\n"
        "}\n"
    ),
}
SAVE_FLOW = (
    "```mermaid\nflowchart TD\n"
    '    S(["saveImage(data)"]) --> A["db.addImage(data)"]\n'
    '    A --> U["db.updateImage(id, urls)"]\n```\n'
)
EDGE = "db.addImage(data) -> db.updateImage(id, urls)"
HEAD = 'import { db } from "./db";\nexport function saveImage(data, id) {\n'


def _edge(tmp_path: Path, body: str, flow: str = SAVE_FLOW, **sources: str) -> dict[str, Any]:
    repo = make_repo(tmp_path / "repo", {**STORE, **sources})
    posts = tmp_path / "posts"
    posts.mkdir(exist_ok=True)
    context = repo_context(repo, tmp_path / "cache")
    card = BY_ID[16].evaluate(make_post(flow, posts), context)
    claims = {c["subject"]: c for c in card.detail["claims"] if "subject" in c}
    return dict(claims[EDGE])


def test_a_step_the_drawn_function_runs_the_other_way_on_its_one_path_is_contradicted(
    tmp_path: Path,
) -> None:
    """`saveImage` updates and then adds, both in its straight-line code: the step "add,
    then update" is not the flow drawn, though `registerHandlers` (not drawn) runs it."""
    body = HEAD + "  db.updateImage(id, data);\n  return db.addImage(data);\n}\n"
    edge = _edge(tmp_path, "", **{"src/storage.js": body})
    assert edge["verdict"] == "contradicted", edge
    assert "`saveImage`" in edge["evidence"] and "registerHandlers" in edge["evidence"], edge
    assert "src/storage.js:3" in edge["evidence"] and "src/storage.js:4" in edge["evidence"]


def test_the_same_step_in_python_is_contradicted(tmp_path: Path) -> None:
    db = (
        "class Db:\n    def add_image(self, x):\n        return 1\n\n"
        "    def update_image(self, i, x):\n        return i\n"
    )
    sources = {
        "pyproject.toml": '[project]\nname = "images"\nversion = "1.0"\n',
        "images/__init__.py": "",
        "images/db.py": db,
        "images/ipc.py": (
            "from images.db import Db\n\ndef register(x):\n    d = Db()\n"
            "    i = d.add_image(x)\n    d.update_image(i, x)\n"
        ),
    }
    flow = (
        "```mermaid\nflowchart TD\n"
        '    S["save_image()"] --> A["add_image()"]\n'
        '    A --> U["update_image()"]\n```\n'
    )

    def storage(lines: str) -> str:
        return "from images.db import Db\n\ndef save_image(data, i):\n    d = Db()\n" + lines

    cases = {
        "straight": "    d.update_image(i, data)\n    return d.add_image(data)\n",
        "loop": "    for x in data:\n        d.update_image(i, x)\n        d.add_image(x)\n",
        "branch": "    if i:\n        d.update_image(i, data)\n    return d.add_image(data)\n",
    }
    verdicts = {}
    for name, lines in cases.items():
        repo = make_repo(tmp_path / name / "repo", {**sources, "images/storage.py": storage(lines)})
        posts = tmp_path / name / "posts"
        posts.mkdir()
        card = BY_ID[16].evaluate(make_post(flow, posts), repo_context(repo, tmp_path / name))
        (edge,) = (c for c in card.detail["claims"] if c.get("subject", "").startswith("add_"))
        verdicts[name] = (edge["verdict"], edge["evidence"])
    assert verdicts["straight"][0] == "contradicted", verdicts
    # in a loop the drawn function runs "add, then update" from its second pass
    assert verdicts["loop"][0] == "verified" and "both in a loop" in verdicts["loop"][1], verdicts
    assert verdicts["branch"][0] == "unjudged" and "in a branch" in verdicts["branch"][1]


def test_a_step_the_drawn_function_runs_in_a_loop_is_verified(tmp_path: Path) -> None:
    """Updating then adding inside a loop (`for`, `while`, a `forEach` callback) runs
    "add, then update" from the second pass: a path that runs the step, verified, and the
    reason is said."""
    bodies = {
        "for": (
            "  for (const x of data) {\n    db.updateImage(id, x);\n    db.addImage(x);\n  }\n}\n"
        ),
        "while": (
            "  while (data.length) {\n    db.updateImage(id, data.pop());\n"
            "    db.addImage(data);\n  }\n}\n"
        ),
        "forEach": (
            "  data.forEach((x) => {\n    db.updateImage(id, x);\n    db.addImage(x);\n  });\n}\n"
        ),
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "verified", (name, edge)
        assert "both in a loop" in edge["evidence"], (name, edge)


def test_a_step_the_drawn_function_runs_in_a_branch_is_not_contradicted(
    tmp_path: Path,
) -> None:
    """`saveImage` updates a record it has an id for and adds one otherwise: each call
    in a branch (an `if`, a ternary, `&&`) is not on every path, so it is not read as
    the other way round."""
    bodies = {
        "if": (
            "  if (id) { db.updateImage(id, data); return id; }\n  return db.addImage(data);\n}\n"
        ),
        "ternary": (
            "  const u = id ? db.updateImage(id, data) : 0;\n  return db.addImage(data);\n}\n"
        ),
        "and": "  id && db.updateImage(id, data);\n  return db.addImage(data);\n}\n",
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "unjudged", (name, edge)
        assert "is in a branch that may not run" in edge["evidence"], (name, edge)


def test_a_step_whose_first_call_also_runs_earlier_is_not_contradicted(tmp_path: Path) -> None:
    """`saveImage` updates and then adds, but adds before that too: through a helper it
    calls (the step is verified through it), or through a method of a value the model does
    not type, `this.cache.prepare()`, which only `Cache.prepare` bears and which adds: the
    add may run before the update, so the step is not contradicted, and the evidence says
    why."""
    body = (
        HEAD + "  prepare(data);\n  db.updateImage(id, data);\n  return db.addImage(data);\n}\n"
        "function prepare(data) { return db.addImage(data); }\n"
    )
    edge = _edge(tmp_path / "helper", "", **{"src/storage.js": body})
    assert edge["verdict"] == "verified", edge
    assert "`saveImage` reaches the first" in edge["evidence"], edge
    cache = (
        'import { db } from "./db";\n'
        "export class Cache {\n  prepare(data) { return db.addImage(data); }\n}\n"
    )
    body = (
        HEAD + "  this.cache.prepare(data);\n  db.updateImage(id, data);\n"
        "  return db.addImage(data);\n}\n"
    )
    edge = _edge(tmp_path / "dynamic", "", **{"src/storage.js": body, "src/cache.js": cache})
    assert edge["verdict"] == "unjudged", edge
    assert "it may reach the first at src/storage.js:3" in edge["evidence"], edge


def test_a_call_in_the_arguments_is_not_read_by_line(tmp_path: Path) -> None:
    """`db.updateImage(id, db.addImage(data))` written on two lines adds first (the
    arguments run before the call): not read as "update, then add". In the arguments of
    a call written after the update (`wrap(db.addImage(data))`), it still runs after it."""
    body = HEAD + "  return db.updateImage(id,\n    db.addImage(data));\n}\n"
    edge = _edge(tmp_path / "held", "", **{"src/storage.js": body})
    assert edge["verdict"] == "unjudged", edge
    assert "another call's arguments" in edge["evidence"], edge
    body = (
        HEAD + "  db.updateImage(id, data);\n  return wrap(\n    db.addImage(data));\n}\n"
        "function wrap(x) { return x; }\n"
    )
    edge = _edge(tmp_path / "later", "", **{"src/storage.js": body})
    assert edge["verdict"] == "contradicted", edge


def _site(name: str, line: int, target: str = "", flow: int = 0) -> CallSite:
    return CallSite(name, name, line, "resolved" if target else "dynamic", target, "", flow)


def test_a_function_that_calls_itself_runs_its_calls_again() -> None:
    """The rule itself (wiring_order.straight_reversed), on a graph written by hand: a
    function calling `update` then `add` on its one path runs them the other way only,
    unless it calls itself (a recursion runs `add` and then `update` again), or the two
    are in a loop; with no line order at all, a loop or a recursion is what may run
    them in order (in_order_again)."""
    add = FunctionCalls("m.add", "add", "", "m.py", 1)
    update = FunctionCalls("m.update", "update", "", "m.py", 2)
    straight = [_site("update", 11, "m.update"), _site("add", 12, "m.add")]
    save = FunctionCalls("m.save", "save", "", "m.py", 10, calls=straight)
    first, then = (
        _Callee(frozenset({"m.add"}), frozenset({"add"})),
        _Callee(frozenset({"m.update"}), frozenset({"update"})),
    )
    graph = CallGraph([add, update, save])
    calls = ([save.calls[1]], [save.calls[0]])
    assert straight_reversed(graph, save, calls, (first, then), 3) == ""
    assert in_order_again(graph, first, then) == ""
    again = FunctionCalls(
        "m.save", "save", "", "m.py", 10, calls=[*straight, _site("save", 13, "m.save")]
    )
    graph = CallGraph([add, update, again])
    assert "may call itself" in straight_reversed(graph, again, calls, (first, then), 1)
    assert "calls itself" in in_order_again(graph, first, then)
    looped = [_site("update", 11, "m.update", LOOP), _site("add", 12, "m.add", LOOP)]
    looping = FunctionCalls("m.save", "save", "", "m.py", 10, calls=looped)
    graph = CallGraph([add, update, looping])
    calls = ([looping.calls[1]], [looping.calls[0]])
    assert "in a loop" in straight_reversed(graph, looping, calls, (first, then), 3)
    assert "both in a loop" in in_order_again(graph, first, then)
    # a message sent on the way: its handlers (which the calls do not show) may run either
    sends = [("emitter", "saved", '"saved"', "emit", 12)]
    sending = FunctionCalls("m.save", "save", "", "m.py", 10, calls=straight, sends=sends)
    graph = CallGraph([add, update, sending])
    calls = ([sending.calls[1]], [sending.calls[0]])
    assert "it sends `emit`" in straight_reversed(graph, sending, calls, (first, then), 3)


@dataclass(frozen=True)
class _Callee:
    targets: frozenset[str]
    names: frozenset[str]


def test_no_function_runs_the_step_by_line_but_a_loop_may(tmp_path: Path) -> None:
    """No function calls `addImage` and later `updateImage` by line, but one calls the
    two in a loop the other way round: from its second pass it runs them in the drawn
    order, so "no function calls them in that order" no longer holds: unjudged. With the
    loop gone, the step is contradicted as before."""
    looped = (
        'import { db } from "./db";\n'
        "export function registerHandlers(xs) {\n"
        "  for (const x of xs) {\n    db.updateImage(1, x);\n    db.addImage(x);\n  }\n}\n"
    )
    straight = (
        'import { db } from "./db";\n'
        "export function registerHandlers(x) {\n  db.updateImage(1, x);\n  db.addImage(x);\n}\n"
    )
    flow = (
        '```mermaid\nflowchart TD\n    A["db.addImage(data)"] --> U["db.updateImage(id, urls)"]\n'
        "```\n"
    )
    edge = _edge(tmp_path / "loop", "", flow, **{"src/ipc.js": looped})
    assert edge["verdict"] == "unjudged", edge
    assert "both in a loop" in edge["evidence"], edge
    edge = _edge(tmp_path / "straight", "", flow, **{"src/ipc.js": straight})
    assert edge["verdict"] == "contradicted", edge


# no function the diagram does not draw runs the step
QUIET = {"src/ipc.js": "export function registerHandlers(x) {\n  return x;\n}\n"}


def test_a_step_written_in_order_in_exclusive_arms_is_unjudged(tmp_path: Path) -> None:
    """`saveImage` adds in one arm of a conditional and updates in another (if/else,
    switch cases, a ternary, try and catch): written in the drawn order, but no run takes
    both arms, so the step is not verified; nor contradicted on that ground alone."""
    bodies = {
        "if": "  if (id) { db.addImage(data); } else { db.updateImage(id, data); }\n}\n",
        "else-if": (
            "  if (!id) db.addImage(data);\n  else if (data) db.updateImage(id, data);\n}\n"
        ),
        "switch": (
            "  switch (id) {\n    case 0: db.addImage(data); break;\n"
            "    default: db.updateImage(id, data);\n  }\n}\n"
        ),
        "ternary": "  return id ? db.addImage(data) : db.updateImage(id, data);\n}\n",
        "try": "  try { db.addImage(data); } catch (e) { db.updateImage(id, data); }\n}\n",
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **QUIET, **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "unjudged", (name, edge)
        assert "different arms of one conditional" in edge["evidence"], (name, edge)


def test_a_step_in_one_run_or_in_a_loop_around_the_arms_is_verified(tmp_path: Path) -> None:
    """The controls: the two calls one after the other (the second after the
    conditional), or the conditional inside a loop (a later pass takes the other arm)."""
    bodies = {
        "after": "  if (id) { db.addImage(data); }\n  db.updateImage(id, data);\n}\n",
        "finally": "  try { db.addImage(data); } finally { db.updateImage(id, data); }\n}\n",
        "loop": (
            "  for (const x of data) {\n"
            "    if (x) { db.addImage(x); } else { db.updateImage(id, x); }\n  }\n}\n"
        ),
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **QUIET, **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "verified", (name, edge)
        assert "`saveImage` calls the first" in edge["evidence"], (name, edge)


PY_SOURCES = {
    "pyproject.toml": '[project]\nname = "images"\nversion = "1.0"\n',
    "images/__init__.py": "",
    "images/db.py": (
        "class Db:\n    def add_image(self, x):\n        return 1\n\n"
        "    def update_image(self, i, x):\n        return i\n"
    ),
}
PY_FLOW = (
    "```mermaid\nflowchart TD\n"
    '    S["save_image()"] --> A["add_image()"]\n'
    '    A --> U["update_image()"]\n```\n'
)
PY_HEAD = "from images.db import Db\n\ndef save_image(data, i):\n    d = Db()\n"


def _python_edges(tmp_path: Path, cases: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The verdict and evidence of the drawn `add_image -> update_image` step for each
    body of `save_image` in ``cases``."""
    verdicts = {}
    for name, lines in cases.items():
        files = {**PY_SOURCES, "images/storage.py": PY_HEAD + lines}
        repo = make_repo(tmp_path / name / "repo", files)
        posts = tmp_path / name / "posts"
        posts.mkdir()
        card = BY_ID[16].evaluate(make_post(PY_FLOW, posts), repo_context(repo, tmp_path / name))
        (edge,) = (c for c in card.detail["claims"] if c.get("subject", "").startswith("add_"))
        verdicts[name] = (edge["verdict"], edge["evidence"])
    return verdicts


def test_a_python_step_in_exclusive_arms_is_unjudged(tmp_path: Path) -> None:
    cases = {
        "if": "    if i:\n        d.add_image(data)\n    else:\n        d.update_image(i, data)\n",
        "except": (
            "    try:\n        d.add_image(data)\n    except ValueError:\n"
            "        d.update_image(i, data)\n"
        ),
        "else": (
            "    try:\n        d.add_image(data)\n    except ValueError:\n        pass\n"
            "    else:\n        d.update_image(i, data)\n"
        ),
    }
    verdicts = _python_edges(tmp_path, cases)
    assert verdicts["if"][0] == "unjudged" and "different arms" in verdicts["if"][1], verdicts
    assert verdicts["except"][0] == "unjudged", verdicts
    assert verdicts["else"][0] == "verified", verdicts  # a try's else runs after its body


def test_a_step_whose_first_call_sits_in_an_arm_that_leaves_is_unjudged(tmp_path: Path) -> None:
    """`if (id) { db.addImage(data); return; } db.updateImage(...)`: the add is written
    before the update, but the arm that adds returns (or throws, or breaks out of the
    loop whose next pass would update): no run adds and then updates."""
    bodies = {
        "return": "  if (id) { db.addImage(data); return; }\n  db.updateImage(id, data);\n}\n",
        "throw": (
            "  if (id) { db.addImage(data); throw new Error('x'); }\n"
            "  db.updateImage(id, data);\n}\n"
        ),
        "nested-return": (
            "  if (id) { db.addImage(data); if (data) { return 1; } }\n"
            "  db.updateImage(id, data);\n}\n"
        ),
        "break-from-loop": (
            "  for (const x of data) {\n    db.updateImage(id, x);\n"
            "    if (x) { db.addImage(x); break; }\n  }\n}\n"
        ),
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **QUIET, **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "unjudged", (name, edge)
        if name != "break-from-loop":  # its reason: the loop (never contradicted either)
            assert "may return, throw or break" in edge["evidence"], (name, edge)


def test_an_arm_that_leaves_only_from_inside_or_later_still_verifies(tmp_path: Path) -> None:
    """The controls: a return in a function written inside the arm, a break of a loop or
    switch inside the arm, a return after the second call, and a loop's next pass after
    a `continue`."""
    bodies = {
        "inner-function": (
            "  if (id) { db.addImage(data); data.forEach((x) => { return x; }); }\n"
            "  db.updateImage(id, data);\n}\n"
        ),
        "inner-break": (
            "  if (id) { db.addImage(data); for (const x of data) { break; } "
            "switch (id) { case 1: break; } }\n  db.updateImage(id, data);\n}\n"
        ),
        "return-after": ("  if (id) { db.addImage(data); db.updateImage(id, data); return; }\n}\n"),
        "continue": (
            "  for (const x of data) {\n    db.updateImage(id, x);\n"
            "    if (x) { db.addImage(x); continue; }\n  }\n}\n"
        ),
    }
    for name, body in bodies.items():
        edge = _edge(tmp_path / name, "", **QUIET, **{"src/storage.js": HEAD + body})
        assert edge["verdict"] == "verified", (name, edge)


def test_a_python_step_whose_first_call_returns_first_is_unjudged(tmp_path: Path) -> None:
    cases = {
        "return": (
            "    if i:\n        d.add_image(data)\n        return\n    d.update_image(i, data)\n"
        ),
        "raise": (
            "    try:\n        d.add_image(data)\n        raise ValueError\n"
            "    except KeyError:\n        pass\n    d.update_image(i, data)\n"
        ),
        "inner-loop-break": (
            "    if i:\n        d.add_image(data)\n        for x in data:\n            break\n"
            "    d.update_image(i, data)\n"
        ),
        "inner-def": (
            "    if i:\n        d.add_image(data)\n\n        def later():\n            return 1\n"
            "    d.update_image(i, data)\n"
        ),
    }
    verdicts = {name: found[0] for name, found in _python_edges(tmp_path, cases).items()}
    assert verdicts == {
        "return": "unjudged",
        "raise": "unjudged",
        "inner-loop-break": "verified",
        "inner-def": "verified",
    }
