"""Gate 15's accounting of the fences it reads (issue 26: never silent).

The readers (:mod:`.js_samples` and the helpers it calls, the shell line checks) judge what
they can type and list some of what they cannot; this step runs after them, once per page,
and lists every use they parsed and recorded nothing for: what the fence parses minus what
the card names. A use is named on the card when an entry of its line (checked, violation or
unjudged) names the member or key, or when an entry of the same fence quotes the use
(``orm.em.find``) in its reason.

What is accounted for:

* JavaScript/TypeScript: every member chain (``orm.em.removeEntity(book)``: the steps
  ``em`` and ``removeEntity``) and every key of an object literal a call or ``new`` is
  handed (nested objects and arrays included; not inside a function it is handed). A chain
  that is not the product's is left out: one rooted at a global of the runtime
  (``document``, ``console``, ``Math``), at a name imported from another package, at a
  literal, at a function or class the page declares itself, or at a variable the sample
  binds to one of those; the keys passed to such a callee likewise. Everything else gets an
  ``unjudged`` entry with why its receiver is not typed: a name the page never binds, a
  parameter of a function the sample writes, ``this``, a variable holding such a value;
* shell fences: a code-shaped name (``camelCase``, ``snake_case``, ``dotted.name``) a
  comment writes (``# autoSubFolderIndex: true``) is prose in the sample: listed with that
  reason.

The entries never fail the gate: ``unjudged`` counts in the card's summary only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_postgates.helpers.js_free_calls import JS_GLOBALS
from pytest_postgates.helpers.js_tree import (
    PASS_THROUGH,
    named_nodes,
    node_string,
    node_text,
    pattern_names,
)
from pytest_postgates.helpers.sample_checks import SampleReport, SampleValue, one_line

if TYPE_CHECKING:
    from pytest_postgates.post import Fence

# Globals of the runtimes a sample runs in (browser, Node, Deno, Bun), with the language's.
RUNTIME = JS_GLOBALS | frozenset(
    {"document", "window", "console", "process", "globalThis", "navigator", "module",
     "exports", "self", "localStorage", "sessionStorage", "location", "history", "Buffer",
     "performance", "crypto", "Intl", "Deno", "Bun", "__dirname", "__filename", "import",
     "Element", "HTMLElement", "Event", "WebSocket", "Worker", "Image", "Audio", "undefined",
     "NaN", "Infinity", "arguments", "jest", "vi", "chai", "assert", "t", "cy"}
)  # fmt: skip
_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "method_definition", "generator_function_declaration", "generator_function"}
)  # fmt: skip
_DECLARATIONS = frozenset(
    {"function_declaration", "class_declaration", "class", "generator_function_declaration",
     "abstract_class_declaration"}
)  # fmt: skip
_LITERALS = frozenset(
    {"string", "template_string", "number", "array", "object", "regex", "true", "false",
     "null", "undefined", "jsx_element", "jsx_self_closing_element"}
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# The keys an object pattern takes by name (``{ a }``, ``{ "a": b }``, ``{ a = 1 }``).
_PATTERN_KEYS = frozenset({"shorthand_property_identifier_pattern", "property_identifier",
                           "string", "identifier"})  # fmt: skip
# A name written as code in a shell comment: camelCase, snake_case or a dotted chain.
_SHELL_NAME = re.compile(
    r"(?<![\w$./-])(?:[a-z_$][\w$]*[A-Z][\w$]*|[A-Za-z]\w*_\w+|[a-z_]\w*(?:\.[a-z_]\w*)+)(?![\w$])"
)
_SHELL_COMMENT = re.compile(r"(?:^|\s)#\s?(.*)$")
_URLISH = re.compile(r"\S+://\S+|\S+\.(?:md|js|ts|json|html|py|sh|ya?ml|toml|txt)\b")

NEVER_BOUND = "`{root}` is never bound in the samples: its type is not shown"
PARAMETER = "`{root}` is a parameter of a function the sample writes: its type is not shown"
THIS = "`this` is not typed where the sample uses it: its type is not shown"
SUPER = "`super` is not typed where the sample uses it: its type is not shown"
THIS_OVER = "`{root}` is of the sample's class over `{base}`; {why}"
HOLDS = "`{root}` holds {held}, whose type is not shown"
UNTYPED_BINDING = "`{root}` is bound without a value the gate types: its type is not shown"
_NO_CHECK = "and no check of the gate recorded this use"
PRODUCT_VALUE = "`{root}` holds {what}, " + _NO_CHECK
CALL_RESULT = "the value `{root}` returns is not typed: its type is not shown"
OWN_RESULT = "the value `{root}()` returns, a function the sample writes, is not typed"
OTHER_ROOT = "the receiver `{root}` is no name the gate types: its type is not shown"
KEY_OF = "a key of the object passed to `{callee}()`: {why}"
KEY_OF_PRODUCT = (
    "a key of the object passed to `{callee}()`: the parameter's type is not known to the gate"
)
SHELL_COMMENT = "named in a comment of a shell sample: prose, which gate 15 does not judge"


@dataclass
class PageAccount:
    """What the accounting knows of the page across its fences: the names bound to another
    package's imports and the names the page's own code declares (functions, classes)."""

    foreign: set[str] = field(default_factory=set)
    own: set[str] = field(default_factory=set)
    not_product: set[str] = field(default_factory=set)  # variables holding such values
    # The functions the page writes (declared, or a variable bound to one): what a call of
    # one returns is not typed (a wrapper of the product's factory, say), never its own.
    functions: set[str] = field(default_factory=set)


# ------------------------------------------------------------------------ the card


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


@dataclass
class CardNames:
    """What the card names, by line (words of entries' names and reasons) and the uses
    quoted in the reasons of entries in a line range."""

    by_line: dict[int, set[str]]
    reasons: list[tuple[int, str]]
    _quoted: tuple[range, str] = (range(0), "")

    @classmethod
    def of(cls, report: SampleReport) -> CardNames:
        by_line: dict[int, set[str]] = {}
        reasons: list[tuple[int, str]] = []
        for entry in (*report.checked_names, *report.violations, *report.unjudged):
            line = int(entry.get("line", 0))
            said = f"{entry.get('name', '')} {entry.get('reason', '')}"
            by_line.setdefault(line, set()).update(_words(said))
            if entry.get("reason"):
                reasons.append((line, str(entry["reason"])))
        return cls(by_line, reasons)

    def names(self, line: int, word: str, use: str, lines: range) -> bool:
        """Whether an entry at ``line`` names ``word``, or one of the fence (``lines``)
        quotes ``use`` in its reason."""
        if word in self.by_line.get(line, ()):
            return True
        if not use:
            return False
        if self._quoted[0] != lines:  # the fence's reasons, gathered once per fence
            self._quoted = (lines, "\n".join(why for at, why in self.reasons if at in lines))
        return use in self._quoted[1]

    def add(self, line: int, name: str, reason: str) -> None:
        self.by_line.setdefault(line, set()).update(_words(f"{name} {reason}"))


def listing(report: SampleReport, line: int, text: str, reason: str, name: str) -> None:
    """An unjudged entry, as :meth:`SampleReport.skip` makes it, appended without its
    search for a twin (linear in the card): the card's names (:class:`CardNames`) keep a
    use from being listed twice."""
    report.unjudged.append({"line": line, "text": text.strip()[:160],
                            "reason": one_line(reason), "name": name})  # fmt: skip


# ------------------------------------------------------------------------ JavaScript


@dataclass(frozen=True)
class Step:
    line: int  # the page line of the member's name
    name: str
    use: str  # the receiver and the member, as the reader quotes it: ``orm.em.find``


def _chain(node: Any, source: bytes) -> tuple[Any, list[Any]]:
    """The root of a member chain (the node it starts from) and its member nodes, from
    the root out."""
    members: list[Any] = []
    while True:
        if node.type == "member_expression":
            members.append(node)
            node = node.child_by_field_name("object")
        elif node.type == "call_expression":
            node = node.child_by_field_name("function")
        elif node.type in ("subscript_expression",):
            node = node.child_by_field_name("object")
        elif node.type in PASS_THROUGH and node.named_children:
            node = node.named_children[0]
        else:
            return node, list(reversed(members))
        if node is None:
            return None, list(reversed(members))


def _called(node: Any) -> bool:
    """Whether a name is the function a call calls (``f()``, not ``f.call``)."""
    parent = node.parent
    return bool(
        parent is not None
        and parent.type == "call_expression"
        and parent.child_by_field_name("function") == node
    )


def _outermost(node: Any) -> bool:
    """Whether a member expression is the last step of its chain (its parent continues
    no chain through it)."""
    parent = node.parent
    while parent is not None and parent.type in PASS_THROUGH:
        node, parent = parent, parent.parent
    if parent is None:
        return True
    if parent.type == "member_expression":
        return bool(parent.child_by_field_name("object") != node)
    if parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return _outermost(parent) if parent.parent is not None else True
    if parent.type == "subscript_expression" and parent.child_by_field_name("object") == node:
        return _outermost(parent)
    return True


# Where an identifier is a value the fence hands on (not a callee, a receiver, a binding,
# a key or a JSX tag): an argument, an array item, an object's value, an assignment's or a
# declaration's value, what a function returns, an operand.
_VALUE_PARENTS = frozenset({
    "arguments", "array", "pair", "assignment_expression", "variable_declarator",
    "return_statement", "spread_element", "binary_expression", "ternary_expression",
    "parenthesized_expression", "extends_clause", "class_heritage",
})  # fmt: skip


def _in_error(node: Any) -> bool:
    """Whether a node sits in a part of the tree that does not parse."""
    while node is not None:
        if node.type == "ERROR" or node.is_missing:
            return True
        node = node.parent
    return False


def _free_value(node: Any) -> bool:
    """Whether an identifier stands as a value (:data:`_VALUE_PARENTS`), not as the name
    its parent binds or the key of a pair; in a part that does not parse, nothing is (the
    fragment is listed as unparsed, fence_fragments)."""
    parent = node.parent
    if parent.type not in _VALUE_PARENTS or _in_error(node):
        return False
    if parent.type in ("pair", "assignment_expression", "variable_declarator"):
        field_name = "left" if parent.type == "assignment_expression" else "name"
        field_name = "key" if parent.type == "pair" else field_name
        taken = parent.child_by_field_name(field_name)
        return taken is None or taken.id != node.id
    return True


def _shown(source: bytes, node: Any) -> str:
    """A chain as the card names it: calls as ``()``, whitespace and arguments dropped."""
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        return (_shown(source, function) if function is not None else "") + "()"
    if node.type == "member_expression":
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        head = _shown(source, obj) if obj is not None else ""
        return f"{head}.{node_text(source, prop) if prop is not None else ''}"
    if node.type == "subscript_expression":
        obj = node.child_by_field_name("object")
        return (_shown(source, obj) if obj is not None else "") + "[]"
    if node.type in PASS_THROUGH and node.named_children:
        return _shown(source, node.named_children[0])
    return " ".join(node_text(source, node).split())[:60]


class JsAccount:
    """The accounting of one JavaScript/TypeScript fence."""

    def __init__(
        self,
        source: bytes,
        first: int,
        page: PageAccount,
        bound: set[str],
        product: Callable[[str], str | None],
        is_product_spec: Callable[[str | None], bool],
    ) -> None:
        self.source, self.first, self.page = source, first, page
        self.bound = bound  # names the page's samples bind (the reader's)
        self.product = product  # what a product value a name holds is, else None
        self.is_product_spec = is_product_spec
        self.declared: dict[str, Any] = {}  # variable -> its value node (None: none)
        self._walked: tuple[Any, list[Any]] | None = None  # the fence's tree, walked once

    def nodes(self, root: Any) -> list[Any]:
        """``root`` and every named node under it in document order (:func:`named_nodes`),
        walked once for the five readings of the fence's tree."""
        if self._walked is None or self._walked[0] != root:
            self._walked = root, list(named_nodes(root))
        return self._walked[1]

    def line(self, node: Any) -> int:
        return self.first + int(node.start_point[0])

    def text(self, node: Any) -> str:
        return node_text(self.source, node)

    # -------------------------------------------------------------- what the fence binds
    def bindings(self, root: Any) -> None:
        for node in self.nodes(root):
            kind = node.type
            if kind == "import_statement":
                spec = node_string(self.source, node.child_by_field_name("source"))
                if not self.is_product_spec(spec):
                    clause = next((c for c in node.named_children if c.type == "import_clause"),
                                  None)  # fmt: skip
                    for name in pattern_names(clause) if clause is not None else []:
                        self.page.foreign.add(self.text(name))
            elif kind == "variable_declarator":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                if name is None:
                    continue
                for local in pattern_names(name):
                    self.declared.setdefault(self.text(local), value)
                if name.type == "identifier" and value is not None and value.type in _FUNCTIONS:
                    self.page.functions.add(self.text(name))
            elif kind in _DECLARATIONS:
                named = node.child_by_field_name("name")
                if named is not None:
                    self.page.own.add(self.text(named))
                    if "function" in kind:
                        self.page.functions.add(self.text(named))
        for local, value in self.declared.items():
            if value is not None and self.why(value, set()) is None:
                self.page.not_product.add(local)

    # -------------------------------------------------------------- why a receiver is untyped
    def why(self, node: Any, seen: set[str]) -> str | None:
        """Why the value an expression gives is not typed (None: it is not the product's:
        a global, another package's, a literal, the page's own)."""
        root, _ = _chain(node, self.source)
        if root is None:
            return OTHER_ROOT.format(root=_shown(self.source, node))
        kind = root.type
        while kind in ("new_expression", "await_expression") and root.named_children:
            made = root.child_by_field_name("constructor") or root.named_children[0]
            root, _ = _chain(made, self.source)
            if root is None:
                return OTHER_ROOT.format(root=_shown(self.source, node))
            kind = root.type
        if kind == "binary_expression":
            return self._operands(root, seen)
        if kind in _LITERALS or kind in _FUNCTIONS or kind == "class":
            return None
        if kind in ("this", "super"):
            return self._this(root, seen)
        if kind != "identifier":
            return OTHER_ROOT.format(root=_shown(self.source, root))
        name = self.text(root)
        # A parameter (a caught error, a loop's variable) shadows what the page binds and
        # the runtime's globals (`test('x', (t) => t.pass())`: `t` is the callee's value).
        binder = self._parameter(root, name)
        if binder is not None:
            if binder.type in _FUNCTIONS and self._handed_elsewhere(binder, seen):
                return None
            return PARAMETER.format(root=name)
        what = self.product(name)  # a product value before a global of its name (`test`)
        if what is not None and name not in self.page.foreign:
            return PRODUCT_VALUE.format(root=name, what=what)
        if name in self.page.functions and _called(root):
            return OWN_RESULT.format(root=name)
        # This fence's binding of a name comes before another fence's and before a global of
        # the name (`const t = new Test()`: no test runner's `t`).
        if name in self.declared:
            value = self.declared[name]
            if value is None:
                return UNTYPED_BINDING.format(root=name)
            if name in seen:
                return UNTYPED_BINDING.format(root=name)
            inner = self.why(value, {*seen, name})
            if inner is None:
                return None
            held = f"`{_shown(self.source, value)[:60]}`"
            return HOLDS.format(root=name, held=held)
        if name in RUNTIME or name in self.page.foreign or name in self.page.own:
            return None
        if name in self.page.not_product:
            return None
        if name in self.bound:
            return UNTYPED_BINDING.format(root=name)
        return NEVER_BOUND.format(root=name)

    def _operands(self, node: Any, seen: set[str]) -> str | None:
        """Why the value of ``a || b`` (``??``, ``&&``) is not typed: either operand's (the
        first untyped one); an arithmetic or comparison's value is no product's."""
        operator = node.child_by_field_name("operator")
        if operator is None or self.text(operator) not in ("||", "??", "&&"):
            return None
        for side in ("left", "right"):
            operand = node.child_by_field_name(side)
            why = self.why(operand, seen) if operand is not None else None
            if why is not None:
                return why
        return None

    def _this(self, node: Any, seen: set[str]) -> str | None:
        """Why ``this`` (or ``super``) is not typed: None in a method of a class the page
        declares over no base, or over a base that is not the product's (the page's own
        instance); the reason otherwise (a base of the product's, whose members the readers
        judge where they type them; a function or an object's method the product may call
        with any ``this``)."""
        parent = node.parent
        while parent is not None and parent.type not in (
            "class_body",
            "function_declaration",
            "function_expression",
            "function",
        ):
            parent = parent.parent  # an arrow function's `this` is its context's
        owner = parent.parent if parent is not None and parent.type == "class_body" else None
        if owner is None:
            return THIS if node.type == "this" else SUPER
        heritage = next((c for c in owner.named_children if c.type == "class_heritage"), None)
        bases = [
            b.named_children[0] if b.type == "extends_clause" and b.named_children else b
            for b in (heritage.named_children if heritage is not None else [])
            if b.type != "implements_clause"
        ]
        whys = [(base, self.why(base, seen)) for base in bases]
        untyped = [(base, why) for base, why in whys if why is not None]
        if not untyped:
            return None
        base, why = untyped[0]
        return THIS_OVER.format(root=node.type, base=_shown(self.source, base), why=why)

    def _parameter(self, node: Any, name: str) -> Any:
        """The function (or catch clause, loop) around ``node`` that binds ``name`` as a
        parameter, a caught error or a loop's variable; None when none does."""
        parent = node.parent
        while parent is not None:
            held = None
            if parent.type in _FUNCTIONS:
                held = parent.child_by_field_name("parameters") or parent.child_by_field_name(
                    "parameter"
                )
            elif parent.type in ("catch_clause", "for_in_statement"):
                held = parent.child_by_field_name("parameter") or parent.child_by_field_name("left")
            if held is not None and any(self.text(n) == name for n in pattern_names(held)):
                return parent
            parent = parent.parent
        return None

    def _handed_elsewhere(self, function: Any, seen: set[str]) -> bool:
        """Whether a function is handed to a call that is not the product's (``[1,
        2].map((n) => ...)``, ``lodash.get``): its parameters are that callee's values."""
        args = function.parent
        call = args.parent if args is not None and args.type == "arguments" else None
        if call is None or call.type not in ("call_expression", "new_expression"):
            return False
        callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
        return callee is not None and self.why(callee, seen) is None

    # -------------------------------------------------------------- the uses
    def chains(self, root: Any) -> Iterator[tuple[Any, list[Step], str | None]]:
        """Each outermost member chain: its node, its steps, and why its root is untyped
        (None: not the product's)."""
        for node in self.nodes(root):
            if node.type != "member_expression" or not _outermost(node):
                continue
            base, members = _chain(node, self.source)
            steps = []
            for member in members:
                prop = member.child_by_field_name("property")
                obj = member.child_by_field_name("object")
                if prop is None or obj is None or prop.type == "private_property_identifier":
                    continue
                name = self.text(prop)
                use = f"{' '.join(self.text(obj).split())[:60]}.{name}"
                steps.append(Step(self.line(prop), name, use))
            if steps and base is not None:
                yield node, steps, self.why(node, set())

    def keys(self, root: Any) -> Iterator[tuple[int, str, str]]:
        """Each key of an object literal a call or ``new`` of a callee that may be the
        product's is handed: its line, the key as the card names it (``hooks.onError``) and
        why it is not judged."""
        for node in self.nodes(root):
            if node.type not in ("call_expression", "new_expression"):
                continue
            callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
            args = node.child_by_field_name("arguments")
            if callee is None or args is None or args.type != "arguments":
                continue
            if callee.type == "identifier" and self.text(callee) in self.page.functions:
                continue  # the keys of a function the page writes are its own
            why = self.why(callee, set())
            if why is None:  # a function the page declares, a global, another package's
                continue
            shown = ("new " if node.type == "new_expression" else "") + _shown(self.source, callee)
            reason = KEY_OF.format(callee=shown, why=why)
            if why.endswith(_NO_CHECK):  # a product callee whose parameter no check typed
                reason = KEY_OF_PRODUCT.format(callee=shown)
            for arg in args.named_children:
                for line, key in self._object_keys(arg, ""):
                    yield line, key, reason

    def free_calls(self, root: Any) -> Iterator[Step]:
        """Each use of a bare name no sample binds, that is no global and no function the
        page writes: called (``const x = connect(url)`` with no import), made with ``new``
        (``new Client()``), or a value in CapWords (``plugins: [MyPlugin]``, a class or
        constant handed on): what it is, is not shown. A member's receiver is the chains'
        (:meth:`chains`); a JSX tag is a component the page renders, not listed here."""
        for node in self.nodes(root):
            parent = node.parent
            if node.type == "call_expression":
                callee, use = node.child_by_field_name("function"), "{}()"
            elif node.type == "new_expression" and not _in_error(node):
                callee, use = node.child_by_field_name("constructor"), "new {}()"
            elif node.type == "identifier" and parent is not None and _free_value(node):
                callee, use = node, "{}"
            else:
                continue
            if callee is None or callee.type != "identifier":
                continue
            name = self.text(callee)
            if use == "{}" and not name[:1].isupper():
                continue
            if self.why(callee, set()) == NEVER_BOUND.format(root=name):
                yield Step(self.line(callee), name, use.format(name))

    def taken_apart(self, root: Any) -> Iterator[tuple[Step, str | None]]:
        """Each key an object pattern takes from a value (``const { data } = load()``: the
        member ``data`` of what ``load()`` returns; nested patterns by their path), and why
        that value is not typed (None: not the product's)."""
        for node in self.nodes(root):
            if node.type != "variable_declarator":
                continue
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is None or value is None or name.type != "object_pattern":
                continue
            why = self.why(value, set())
            shown = _shown(self.source, value)
            for line, path in self._pattern_keys(name, ""):
                yield Step(line, path.rsplit(".", 1)[-1], f"{shown}.{path}"), why

    def _pattern_keys(self, pattern: Any, prefix: str) -> Iterator[tuple[int, str]]:
        for item in pattern.named_children:
            key, below = None, None
            if item.type == "shorthand_property_identifier_pattern":
                key = item
            elif item.type == "pair_pattern":
                key, below = item.child_by_field_name("key"), item.child_by_field_name("value")
            elif item.type == "object_assignment_pattern":  # `{ retries = 3 }`
                key = item.child_by_field_name("left")
            if key is None or key.type not in _PATTERN_KEYS:
                continue
            word = node_string(self.source, key) if key.type == "string" else self.text(key)
            if not word:
                continue
            path = f"{prefix}.{word}" if prefix else word
            yield self.line(key), path
            while below is not None and below.type == "assignment_pattern":
                below = below.child_by_field_name("left")
            if below is not None and below.type == "object_pattern":
                yield from self._pattern_keys(below, path)

    def _object_keys(self, node: Any, prefix: str) -> Iterator[tuple[int, str]]:
        while node.type in PASS_THROUGH and node.named_children:
            node = node.named_children[0]
        if node.type == "array":
            for item in node.named_children:
                yield from self._object_keys(item, prefix)
            return
        if node.type != "object":
            return
        for item in node.named_children:
            key = None
            value = None
            if item.type == "pair":
                key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
            elif item.type == "shorthand_property_identifier":
                key = item
            elif item.type == "method_definition":
                key = item.child_by_field_name("name")
            if key is None or key.type not in (
                "property_identifier", "string", "shorthand_property_identifier", "number"
            ):  # fmt: skip
                continue
            word = node_string(self.source, key) if key.type == "string" else self.text(key)
            if not word:
                continue
            name = f"{prefix}.{word}" if prefix else word
            yield self.line(key), name
            if value is not None and value.type not in _FUNCTIONS:
                yield from self._object_keys(value, name)


def account_js(
    report: SampleReport,
    card: CardNames,
    content: str,
    first: int,
    parser: Any,
    account: JsAccount | None = None,
    **reader: Any,
) -> int:
    """List, unjudged, each use of one JavaScript/TypeScript fence the card does not name
    (``first``: the page line of the fence's first line); the number listed."""
    source = content.encode("utf-8")
    tree = parser.parse(source)
    if account is None:
        account = JsAccount(source, first, **reader)
    account.bindings(tree.root_node)
    lines = range(first, first + content.count("\n") + 1)
    shown = content.splitlines()
    listed = 0

    def text_of(line: int) -> str:
        row = line - first
        return shown[row] if 0 <= row < len(shown) else ""

    for node, steps, why in account.chains(tree.root_node):
        if why is None:
            continue
        missing = [s for s in steps if not card.names(s.line, s.name, s.use, lines)]
        if not missing:
            continue
        name = _shown(source, node)
        at = missing[0].line
        names = ", ".join(f"`{s.name}`" for s in missing)
        reason = f"{name}: {why} ({names} not judged)"
        listing(report, at, text_of(at), reason, name)
        card.add(at, name, reason)
        listed += 1
    for step in account.free_calls(tree.root_node):
        if card.names(step.line, step.name, step.use, lines):
            continue
        what = "makes" if step.use.startswith("new ") else "calls" if step.use[-1:] == ")" else "is"
        reason = f"{step.use}: {NEVER_BOUND.format(root=step.name)} (what it {what} not judged)"
        listing(report, step.line, text_of(step.line), reason, step.use)
        card.add(step.line, step.use, reason)
        listed += 1
    for step, why in account.taken_apart(tree.root_node):
        if why is None or card.names(step.line, step.name, step.use, lines):
            continue
        reason = f"{step.use}: taken apart from a value; {why} (`{step.name}` not judged)"
        listing(report, step.line, text_of(step.line), reason, step.use)
        card.add(step.line, step.use, reason)
        listed += 1
    for line, key, reason in account.keys(tree.root_node):
        if card.names(line, key.rsplit(".", 1)[-1], "", lines):
            continue
        listing(report, line, text_of(line), reason, key)
        card.add(line, key, reason)
        listed += 1
    return listed


# ------------------------------------------------------------------------ shell


def shell_comment_names(content: str, first: int) -> Iterator[tuple[int, str, str]]:
    """The code-shaped names the comments of a shell fence write: (page line, line, name)."""
    for row, text in enumerate(content.split("\n")):
        found = _SHELL_COMMENT.search(text)
        if found is None or text.lstrip().startswith("#!"):
            continue
        said = _URLISH.sub(" ", found.group(1))
        for match in dict.fromkeys(m.group(0) for m in _SHELL_NAME.finditer(said)):
            yield first + row, text, match


def account_shell(report: SampleReport, card: CardNames, content: str, first: int) -> int:
    """List, unjudged, the code-shaped names a shell fence's comments write that the card
    does not name; the number listed."""
    listed = 0
    for line, text, name in shell_comment_names(content, first):
        if all(w in card.by_line.get(line, ()) for w in _words(name)):
            continue
        listing(report, line, text, SHELL_COMMENT, name)
        card.add(line, name, SHELL_COMMENT)
        listed += 1
    return listed


# ------------------------------------------------------------------------ the page


def held(value: SampleValue | None) -> str | None:
    """What a product value a sample name holds is, as a reason says it (None: none)."""
    if value is None:
        return None
    if value.kind == "unknown":
        return f"a value of the product ({value.origin})" if value.origin else "a product value"
    what = {"namespace": "the product's module", "export": "the product's export",
            "instance": "an instance of the product's", "typed": "an instance of the product's",
            "declared": "the product's declared"}.get(value.kind, "the product's")  # fmt: skip
    return f"{what} `{value.name}`" if value.name and value.kind != "namespace" else what


def fences_read(
    fences: Sequence[tuple[Fence, str | None]],
    named: bool,
    python_tops: frozenset[str],
    python_untagged: Callable[[str], bool],
) -> list[tuple[Fence, str | None]]:
    """The fences the accounting reads: Python ones where the product has top Python
    packages; with a package name, shell ones and JavaScript/TypeScript ones (an untagged
    fence read as JavaScript that is Python's, ``python_untagged``, aside)."""
    return [
        (fence, kind)
        for fence, kind in fences
        if (kind == "python" and python_tops)
        or (named and kind == "shell")
        or (named and kind == "code" and (fence.lang or not python_untagged(fence.content)))
    ]
