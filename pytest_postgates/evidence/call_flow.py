"""Where a call sits in the flow of the function whose call it is (the call graph's
:attr:`~.model_facts.CallSite.flow` and :attr:`~.model_facts.CallSite.scope`).

``flow`` is a set of bits, each counted only inside the calling function (a loop around
the function itself, or around the line that declares a local function, is no loop of its
body):

- :data:`LOOP`: in a loop's body (JavaScript/TypeScript ``for``, ``for-in``/``for-of``,
  ``while``, ``do``, a ``for``'s test and update, a function written in place handed to
  an iteration method, ``xs.forEach(x => ...)``, ``.map``, ``.reduce``, ``setInterval``;
  Python ``for`` and ``while``, a comprehension or generator expression): it may run many
  times, so a call written before another may run after it;
- :data:`BRANCH`: in a branch that may not run (``if``/``else``, ``switch`` cases,
  ``catch``, a ternary's arms, the right side of ``&&``, ``||``, ``??`` and their
  assignments, an optional call ``o?.f()``; Python's ``if``/``elif``/``else``, ``match``
  cases, ``except`` and a ``try``'s or loop's ``else``, a conditional expression's arms,
  the operands after the first of ``and``/``or``, ``assert``);
- :data:`ARGUMENT`: inside another call's arguments, which run before that call though
  written after its callee; the bits above :data:`HELD_SHIFT` say how many lines before
  the call the outermost call holding it starts (:func:`held_from`);
- :data:`CLOSURE` (Python only; JavaScript's are its ``scope``): in a function written in
  place (a nested ``def``, a ``lambda``), which runs when something calls it.

``arms`` (:func:`arm_path`, :func:`py_flows`) names the loops and the arms of conditionals
around a call, outermost first, each "<where the loop or conditional starts>:<L or where
the arm starts>" joined by "/": two calls in different arms of one conditional that no
loop around it repeats never both run (:func:`exclusive`); two under one loop may run in
either order (:func:`share_loop`). An arm is an ``if``'s consequence or alternative, a
``switch``/``match`` case (a case falling through to the next is still read as its own
arm: a pair it holds is then left unjudged, never verified), a ternary's arm, a ``try``'s
body or one of its handlers (a Python ``try``'s ``else`` is in the body's arm: it runs
after it).

``scope`` is read by :class:`Scopes`: the functions written in place (closures) around a
JavaScript call, and how each is held (stored, a message handler, handed to a call).
"""

from __future__ import annotations

import ast
from typing import Any

from pytest_postgates.evidence.file_table import node_text
from pytest_postgates.evidence.messages import js_message

LOOP = 1
BRANCH = 2
ARGUMENT = 4
CLOSURE = 8
HELD_SHIFT = 4
# The mark of an arm that may leave before its end (:func:`leaves_first`).
LEAVES = "!"

# The query patterns of the JavaScript/TypeScript reader (calls_js) that capture the loops
# (``@loop``), the branches (``@branch``) and the argument lists (``@argument``).
JS_FLOW_PATTERNS = (
    "(for_statement condition: (_) @loop)",
    "(for_statement increment: (_) @loop)",
    "(for_statement body: (_) @loop)",
    "(for_in_statement body: (_) @loop)",
    "(while_statement) @loop",
    "(do_statement) @loop",
    "(if_statement consequence: (_) @branch)",
    "(if_statement alternative: (_) @branch)",
    "(switch_statement body: (_) @branch)",
    "(catch_clause) @branch",
    "(ternary_expression consequence: (_) @branch)",
    "(ternary_expression alternative: (_) @branch)",
    '(binary_expression operator: ["&&" "||" "??"] right: (_) @branch)',
    '(augmented_assignment_expression operator: ["||=" "&&=" "??="] right: (_) @branch)',
    "(arguments) @argument",
    "(if_statement consequence: (_) @arm)",
    "(if_statement alternative: (_) @arm)",
    "(ternary_expression consequence: (_) @arm)",
    "(ternary_expression alternative: (_) @arm)",
    "(switch_body (switch_case) @arm)",
    "(switch_body (switch_default) @arm)",
    "(try_statement body: (_) @arm)",
    "(catch_clause) @arm",
)
# The methods and functions that call a function handed to them once per item or tick.
_ITERATING = frozenset(
    {"forEach", "map", "flatMap", "filter", "reduce", "reduceRight", "some", "every"}
    | {"find", "findIndex", "findLast", "findLastIndex", "sort", "toSorted", "from"}
    | {"replace", "replaceAll", "setInterval", "each", "times", "mapValues", "forOwn"}
)
_KINDS = (("loop", LOOP), ("branch", BRANCH), ("argument", ARGUMENT), ("arm", 0))
_ARM = 3

# The start bytes of the innermost loop and branch around a call (-1: none), the
# argument lists around it, outermost first: (start byte, the line of the call they are
# of), and the loops and arms around it, outermost first: (the start byte of the loop or
# of the conditional, its token: "L" or where the arm starts).
Marks = tuple[int, int, tuple[tuple[int, int], ...], tuple[tuple[int, str], ...]]


def flow_bits(marks: Marks, start: int, line: int) -> int:
    """The flow of a call at ``line`` with ``marks`` inside a function starting at byte
    ``start`` (-1: the file's module code): a loop or branch counts when the innermost one
    starts inside the function (none around the call inside it does otherwise); an argument
    list when one does, with the outermost one's call (see :func:`held_from`)."""
    flow = (LOOP if marks[0] > start else 0) | (BRANCH if marks[1] > start else 0)
    held = [call_line for at, call_line in marks[2] if at > start]
    return flow | (ARGUMENT | (line - held[0]) << HELD_SHIFT if held else 0)


def arm_path(marks: Marks, start: int) -> str:
    """The loops and arms around a call with ``marks`` inside a function starting at byte
    ``start`` (-1: the file's module code), as :attr:`~.model_facts.CallSite.arms`."""
    return "/".join(f"{at}:{token}" for at, token in marks[3] if at > start)


def _tokens(arms: str) -> list[str]:
    return arms.split("/") if arms else []


def _diverge(first: str, then: str) -> tuple[list[str], list[str], list[str]]:
    """The tokens two calls' arms share (outermost first) and the rest of each."""
    ours, theirs = _tokens(first), _tokens(then)
    shared = 0
    while shared < min(len(ours), len(theirs)) and ours[shared] == theirs[shared]:
        shared += 1
    return ours[:shared], ours[shared:], theirs[shared:]


def leaves_first(first: str, then: str) -> bool:
    """Whether the earlier of two calls of one function with ``arms`` ``first`` and ``then``
    sits in an arm, not around the later one, that may leave it before its end (a
    ``return``, a ``throw``/``raise``, a ``break`` out of it): a run that calls the first
    may never reach the second, even on a loop's next pass."""
    return any(token.endswith(LEAVES) for token in _diverge(first, then)[1])


def exclusive(first: str, then: str) -> bool:
    """Whether two calls of one function with ``arms`` ``first`` and ``then`` sit in
    different arms of one conditional that no loop around it (inside the function) runs
    again: no run of the function runs both."""
    shared, ours, theirs = _diverge(first, then)
    if not ours or not theirs or any(t.endswith(":L") for t in shared):
        return False
    mine, other = ours[0].split(":", 1), theirs[0].split(":", 1)
    return mine[0] == other[0] and "L" not in (mine[1], other[1])


def share_loop(first: str, then: str) -> str:
    """Where a loop around both calls with ``arms`` ``first`` and ``then`` starts ("":
    none): its later passes may run either after the other."""
    shared = _diverge(first, then)[0]
    return next((t.split(":", 1)[0] for t in shared if t.endswith(":L")), "")


def held_from(line: int, flow: int) -> int:
    """The line of the outermost call whose arguments hold a call at ``line`` with
    ``flow`` (``line`` itself when none does): a call written there or later may be the
    one that runs after it."""
    return line - (flow >> HELD_SHIFT)


class JsFlows:
    """The loops, branches and argument lists of one JavaScript/TypeScript file, asked for
    the calls in the order of their start (a sweep, like :class:`Scopes`)."""

    def __init__(self, source: bytes, captures: dict[str, list[Any]]) -> None:
        self.source = source
        # (start byte, minus the end byte: outer first, kind, the line of an argument
        # list's call); tree nodes nest, so the open ones all hold the byte asked for
        found = [
            (node.start_byte, -node.end_byte, kind, _opener(node, kind))
            for kind, (name, _bit) in enumerate(_KINDS)
            for node in captures.get(name, ())
        ]
        found += [
            (n.start_byte, -n.end_byte, 0, 0)
            for n in captures.get("inline", ())
            if _iterated(source, n)
        ]
        found.sort()
        self.ranges = found
        # The arms (by start byte) that may leave before their end (:func:`_js_leaves`).
        self.leaving = {n.start_byte for n in captures.get("arm", ()) if _js_leaves(n)}
        self.next = 0
        self.open: list[tuple[int, int, int, int]] = []

    def at(self, callee: Any) -> Marks:
        """The innermost loop, branch and argument list around the call whose callee is
        ``callee``, and the loops and arms around it; an optional call (``o?.f()``,
        ``f?.()``) is a branch of its own."""
        byte = callee.start_byte
        ranges, opened = self.ranges, self.open
        at = self.next
        while at < len(ranges) and ranges[at][0] <= byte:
            while opened and -opened[-1][1] <= ranges[at][0]:
                opened.pop()
            opened.append(ranges[at])
            at += 1
        self.next = at
        while opened and -opened[-1][1] <= byte:
            opened.pop()
        loop = branch = -1
        held: list[tuple[int, int]] = []
        arms: list[tuple[int, str]] = []
        for start, _end, kind, line in opened:  # outermost first
            if kind == 0:
                loop = start
                arms.append((start, "L"))
            elif kind == 1:
                branch = start
            elif kind == _ARM:
                arms.append((line, f"{start}{LEAVES * (start in self.leaving)}"))
            else:
                held.append((start, line))
        if self.source.find(b"?.", byte, callee.end_byte + 2) >= 0:
            branch = byte
        return loop, branch, tuple(held), tuple(arms)


# Where a JavaScript/TypeScript function starts (its body is another function's flow), and
# what a ``break`` leaves.
_JS_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "method_definition", "generator_function_declaration", "generator_function",
     "class_declaration", "class"}
)  # fmt: skip
_JS_BREAKABLE = frozenset(
    {"for_statement", "for_in_statement", "while_statement", "do_statement", "switch_statement"}
)


def _js_leaves(arm: Any) -> bool:
    """Whether an arm holds a ``return`` or ``throw`` of its function, or a ``break`` (or a
    labelled ``break``/``continue``) that leaves it."""
    pending = list(arm.named_children)
    while pending:
        node = pending.pop()
        kind = node.type
        if kind in _JS_FUNCTIONS:
            continue
        if kind in ("return_statement", "throw_statement"):
            return True
        labelled = kind in ("break_statement", "continue_statement") and node.named_child_count
        if labelled or (kind == "break_statement" and not _broken_inside(node, arm)):
            return True
        pending += node.named_children
    return False


def _broken_inside(node: Any, arm: Any) -> bool:
    """Whether the loop or switch a ``break`` leaves lies inside ``arm``."""
    parent = node.parent
    while parent is not None and parent.id != arm.id:
        if parent.type in _JS_BREAKABLE:
            return True
        parent = parent.parent
    return False


def _opener(node: Any, kind: int) -> int:
    """An argument list's: the line of its call; an arm's: where its conditional starts
    (a switch case's: its switch's body)."""
    parent = node.parent
    if kind == 2:
        return int(parent.start_point[0]) + 1 if parent is not None else 0
    if kind == _ARM:
        return int(parent.start_byte) if parent is not None else -1
    return 0


def _iterated(source: bytes, inline: Any) -> bool:
    """Whether a function written in place is handed to an iteration method or function
    (``xs.forEach(x => ...)``, ``Array.from(xs, fn)``, ``setInterval(fn)``)."""
    call = inline.parent.parent if inline.parent is not None else None
    callee = call.child_by_field_name("function") if call is not None else None
    if callee is None:
        return False
    named = callee.child_by_field_name("property") if callee.type == "member_expression" else callee
    return named is not None and node_text(source, named) in _ITERATING


# Python: the fields of a node whose code runs in a loop, a branch or a closure.
_PY_FIELDS: dict[tuple[type[ast.AST], str], int] = {
    **{(kind, f): LOOP for kind in (ast.For, ast.AsyncFor) for f in ("target", "body")},
    **{(kind, "orelse"): BRANCH for kind in (ast.For, ast.AsyncFor, ast.While)},
    (ast.While, "test"): LOOP,
    (ast.While, "body"): LOOP,
    **{(kind, f): BRANCH for kind in (ast.If, ast.IfExp) for f in ("body", "orelse")},
    **{(ast.Try, f): BRANCH for f in ("handlers", "orelse")},
    (ast.Match, "cases"): BRANCH,
    **{(ast.Assert, f): BRANCH for f in ("test", "msg")},
    **{(kind, "elt"): LOOP for kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp)},
    **{(ast.DictComp, f): LOOP for f in ("key", "value")},
    **{
        (kind, "generators"): LOOP
        for kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
    },
    (ast.Lambda, "body"): CLOSURE,
    **{(kind, "body"): CLOSURE for kind in (ast.FunctionDef, ast.AsyncFunctionDef)},
    **{(ast.Call, f): ARGUMENT for f in ("args", "keywords")},
}
if hasattr(ast, "TryStar"):  # Python 3.11
    _PY_FIELDS.update({(ast.TryStar, f): BRANCH for f in ("handlers", "orelse")})


# Python: the fields whose code is an arm of the conditional holding it, and the arm's
# tag (a ``try``'s ``else`` runs after its body: one arm with it).
_PY_ARMS: dict[tuple[type[ast.AST], str], str] = {
    **{(kind, f): f for kind in (ast.If, ast.IfExp) for f in ("body", "orelse")},
    **{(ast.Try, f): "body" for f in ("body", "orelse")},
}
# Python: the fields whose code runs in a loop (a loop token in ``arms``).
_PY_LOOPS = frozenset(key for key, bit in _PY_FIELDS.items() if bit == LOOP)
_PY_TRIES: tuple[type[ast.AST], ...] = (ast.Try,)
if hasattr(ast, "TryStar"):  # Python 3.11
    _PY_ARMS.update({(ast.TryStar, f): "body" for f in ("body", "orelse")})
    _PY_TRIES = (ast.Try, ast.TryStar)
# The fields that add a token to the arms (read by :func:`_py_arm`).
_PY_MARKED = frozenset(
    {*_PY_ARMS, *_PY_LOOPS, (ast.Match, "cases")} | {(t, "handlers") for t in _PY_TRIES}
)

# A call's flow bits and arms (:attr:`~.model_facts.CallSite.arms`), by the ``id`` of its
# :class:`ast.Call` node.
PyFlows = dict[int, tuple[int, str]]


def py_flows(root: ast.AST, into_functions: bool = True) -> PyFlows:
    """The flow bits and the arms of each call in ``root`` (a function, a class, a
    module), by the ``id`` of its :class:`ast.Call` node; a call without any is left out.
    ``into_functions`` False: the bodies of the functions written in ``root`` are not
    read (a module's code outside any function)."""
    flows: PyFlows = {}
    # (node, its flow bits, the line of the outermost call whose arguments hold it, arms)
    pending: list[tuple[ast.AST, int, int, str]] = [
        (child, 0, 0, "") for _name, child in _children(root)
    ]
    while pending:
        node, flags, held, arms = pending.pop()
        if isinstance(node, ast.Call) and (flags or arms):
            line = node.lineno
            bits = flags | ((line - held) << HELD_SHIFT if flags & ARGUMENT else 0)
            flows[id(node)] = (bits, arms)
        function = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        kind = type(node)
        for index, (name, child) in enumerate(_children(node)):
            if function and name == "body" and not into_functions:
                continue
            extra = _PY_FIELDS.get((kind, name), 0)
            if kind is ast.BoolOp and index:
                extra = BRANCH  # `a() or b()`: b runs only when a() is falsy
            opens = isinstance(node, ast.Call) and extra == ARGUMENT and not flags & ARGUMENT
            outer = node.lineno if isinstance(node, ast.Call) and opens else held
            token = _py_arm(node, name, child) if (kind, name) in _PY_MARKED else ""
            inner = f"{arms}/{token}" if arms and token else arms or token
            pending.append((child, flags | extra, outer, inner))
    return flows


def _py_arm(node: ast.AST, name: str, child: ast.AST) -> str:
    """The token ``child`` (in ``node``'s field ``name``) adds to the arms around the
    calls in it: "" for none."""
    kind = type(node)
    tag = _PY_ARMS.get((kind, name))
    if tag is None and name == "handlers" and isinstance(node, _PY_TRIES):
        tag = f"h{child.lineno}.{child.col_offset}"  # type: ignore[attr-defined]
    elif tag is None and kind is ast.Match and name == "cases":
        pattern = child.pattern  # type: ignore[attr-defined]
        tag = f"c{pattern.lineno}.{pattern.col_offset}"
    elif tag is None and (kind, name) in _PY_LOOPS:
        tag = "L"
    if tag is None:
        return ""
    if tag != "L":
        # The whole arm: a ``try``'s body and ``else`` are one.
        fields = ("body", "orelse") if isinstance(node, _PY_TRIES) and name != "handlers" else ()
        held = [s for f in fields for s in getattr(node, f)] or _field(node, name, child)
        tag += LEAVES * _py_leaves(held)
    return f"{getattr(node, 'lineno', 0)}.{getattr(node, 'col_offset', 0)}:{tag}"


def _field(node: ast.AST, name: str, child: ast.AST) -> list[ast.AST]:
    value = getattr(node, name)
    whole = isinstance(value, list) and name not in ("handlers", "cases")
    return list(value) if whole else [child]


_PY_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_PY_LOOP_NODES = (ast.For, ast.AsyncFor, ast.While)


def _py_leaves(nodes: list[ast.AST]) -> bool:
    """Whether code holds a ``return`` or ``raise`` of its function, or a ``break`` of a
    loop around it."""
    pending = [(node, False) for node in nodes]
    while pending:
        node, in_loop = pending.pop()
        if isinstance(node, _PY_SCOPES):
            continue
        if isinstance(node, (ast.Return, ast.Raise)):
            return True
        if isinstance(node, ast.Break) and not in_loop:
            return True
        if isinstance(node, _PY_LOOP_NODES):  # a break in its body leaves it, not the arm
            pending += [(child, True) for child in node.body]
            pending += [(child, in_loop) for child in node.orelse]
            continue
        pending += [(child, in_loop) for child in ast.iter_child_nodes(node)]
    return False


def _children(node: ast.AST) -> list[tuple[str, ast.AST]]:
    """``node``'s child nodes with the name of the field holding each."""
    found: list[tuple[str, ast.AST]] = []
    for name, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            found.append((name, value))
        elif isinstance(value, list):
            found += [(name, item) for item in value if isinstance(item, ast.AST)]
    return found


def held(source: bytes, closure: Any) -> str:
    """How a function written in place is held: "stored" where it is written (an
    object's property or method, a JSX attribute, a member assigned, kept by
    ``useCallback``), to run when something calls it; "on<line>" when the registration
    at that line makes it a message handler (:mod:`.messages`), to run when the message
    comes; "local:<name>" for a local function (settled by the reader); else "handed"
    (to a call): it may run in place."""
    holder = closure.parent
    if holder is None:
        return "handed"
    named = closure if closure.type.endswith("declaration") else holder
    name = named.child_by_field_name("name") if named.type != "pair" else None
    if named.type in LOCALS and name is not None and name.type == "identifier":
        return f"local:{node_text(source, name)}"
    if closure.type == "method_definition":
        stored = holder.type == "object"
    elif holder.type == "jsx_expression":
        stored = holder.parent is not None and holder.parent.type == "jsx_attribute"
    elif holder.type == "assignment_expression":
        left = holder.child_by_field_name("left")
        stored = left is not None and left.type == "member_expression"
    elif holder.type == "arguments" and holder.parent is not None:
        callee = holder.parent.child_by_field_name("function")
        if callee is not None and node_text(source, callee) in _KEEPERS:
            return "stored"
        listened = js_message(source, callee, {})[1] if callee is not None else None
        return f"on{listened[3]}" if listened is not None and not listened[2] else "handed"
    else:
        stored = holder.type == "pair"
    return "stored" if stored else "handed"


# The calls that return the function handed to them uncalled (React's useCallback).
_KEEPERS = frozenset({"useCallback", "React.useCallback"})
# The declarations that make a local function.
LOCALS = frozenset(
    {"variable_declarator", "function_declaration", "generator_function_declaration"}
)


class Scopes:
    """The functions written in place around each call, read in the order of the calls
    (:attr:`~.model_facts.CallSite.scope`): a sweep over the closures by their start."""

    def __init__(self, source: bytes, closures: list[Any]) -> None:
        self.source = source
        self.closures = sorted(closures, key=lambda node: node.start_byte)
        self.next = 0
        self.open: list[tuple[Any, str]] = []  # (closure, its token), outermost first

    def at(self, node: Any, function: Any) -> str:
        """The scope of ``node`` (nodes asked for in order of their start) inside
        ``function`` (None: the file's module code)."""
        byte = node.start_byte
        while self.next < len(self.closures) and self.closures[self.next].start_byte < byte:
            closure = self.closures[self.next]
            self.next += 1
            while self.open and self.open[-1][0].end_byte <= closure.start_byte:
                self.open.pop()
            token = f"{closure.start_byte}:{held(self.source, closure)}"
            self.open.append((closure, token))
        while self.open and self.open[-1][0].end_byte <= byte:
            self.open.pop()
        start = function.start_byte if function is not None else -1
        return "/".join(
            token
            for closure, token in self.open
            if closure.start_byte > start and closure.parent != function
        )
