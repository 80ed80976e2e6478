"""Questions asked of the API model's call graph: which functions a name means, what a
function calls, and whether one function reaches another within a number of calls.

A path is made of resolved calls (the code says which function is called); a call on a
value of unknown type (dynamic dispatch) or a bare name the model could not resolve counts
only by its name, and only as the last hop (``X`` calls ``this.store.save()``: it may call
``Store.save``). :meth:`CallGraph.reach` says whether a path exists that way, and whether
one exists at all when dynamic calls are followed to the product functions of their name
(then the claim is possible, not shown); a name shared by many functions (`get`, `fetch`)
is not followed. :meth:`CallGraph.opaque` finds the calls within reach that may call a
function the graph does not show: a callee the code computes (``opaque``: a computed key, a
wrapping decorator), a callback (a
parameter called) where the function is passed as a value somewhere, or the function
passed as a value; where one is, no path shown does not mean none exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from pytest_postgates.evidence.messages import Listen, SendSite
from pytest_postgates.evidence.model_facts import CallSite, FunctionCalls, ValueEnd

_BY_NAME = ("dynamic", "unresolved")
# An opaque call matches a callee by its name as written (a callback called `onDone`), like
# a dynamic one, but is never followed by that name: it may be any function.
_MATCHED_BY_NAME = (*_BY_NAME, "opaque", "callback")
# A dynamic call is followed to the functions of its name only when they are few: a call
# named `get` or `fetch` may be any of dozens, and following it reaches most of the code.
DYNAMIC_FANOUT = 5
_DIRECT = ("resolved", "constructor")
# A function's own members that call it (JavaScript's Function.prototype).
_INVOKERS = frozenset({"call", "apply"})


@dataclass(frozen=True)
class Hop:
    """One call on a path: ``caller`` made ``call``; ``by_name``: matched by its name only."""

    caller: FunctionCalls
    call: CallSite
    by_name: bool = False

    def where(self) -> str:
        return f"{self.caller.path}:{self.call.line}"


@dataclass(frozen=True)
class Reach:
    """How a source reaches a target: ``hops`` (empty: it does not), and whether the path
    needed a dynamic call followed by name on the way (``through_dynamic``)."""

    hops: tuple[Hop, ...] = ()
    through_dynamic: bool = False

    @property
    def found(self) -> bool:
        return bool(self.hops)


class CallGraph:
    """The product's functions and methods with their calls, indexed by name and owner."""

    def __init__(self, functions: Iterable[FunctionCalls], values: Iterable[ValueEnd] = ()) -> None:
        self.by_qualname: dict[str, FunctionCalls] = {}
        # the module-level constants that are no function, by name (see ValueEnd)
        self.values: dict[str, list[ValueEnd]] = {}
        for value in values:
            self.values.setdefault(value.name, []).append(value)
        self.by_name: dict[str, list[FunctionCalls]] = {}
        self.by_owner: dict[str, list[FunctionCalls]] = {}
        self.by_path: dict[str, list[FunctionCalls]] = {}
        # the names passed as values somewhere: what a callback may be
        self.passed: set[str] = set()
        # the message handlers registered, by (channel kind, key) and by handler name:
        # (the registering function, its registration); see :mod:`.messages`
        self.registered: dict[tuple[str, str], list[tuple[FunctionCalls, Listen]]] = {}
        self.handlers: dict[str, list[tuple[FunctionCalls, Listen]]] = {}
        for function in functions:
            for listen in function.listens:
                self.registered.setdefault(listen[:2], []).append((function, listen))
                self.handlers.setdefault(listen[2], []).append((function, listen))
            self.passed.update(c.name for c in function.calls if c.kind == "passed")
            self.by_qualname.setdefault(function.qualname, function)
            self.by_name.setdefault(function.name, []).append(function)
            self.by_path.setdefault(function.path, []).append(function)
            if function.owner:
                self.by_owner.setdefault(function.owner, []).append(function)

    def named(self, name: str, owner: str = "") -> list[FunctionCalls]:
        """The functions called ``name`` (methods of ``owner`` only, when given)."""
        found = self.by_name.get(name, [])
        return [f for f in found if f.owner == owner] if owner else list(found)

    def methods_of(self, owner: str) -> list[FunctionCalls]:
        return list(self.by_owner.get(owner, []))

    def sending(
        self, sources: Sequence[FunctionCalls], depth: int
    ) -> Iterator[tuple[tuple[Hop, ...], FunctionCalls, SendSite]]:
        """Each message sent by ``sources`` or by the functions they reach through at most
        ``depth - 1`` resolved calls, nearest first: (the calls on the way, the sender, its
        send site)."""
        paths: dict[str, tuple[Hop, ...]] = {s.qualname: () for s in sources}
        frontier = list(sources)
        for _level in range(depth):
            following: list[FunctionCalls] = []
            for function in frontier:
                for site in function.sends:
                    yield paths[function.qualname], function, site
                for call in function.calls:
                    called = self.by_qualname.get(call.target) if call.kind == "resolved" else None
                    if called is not None and called.qualname not in paths:
                        paths[called.qualname] = (*paths[function.qualname], Hop(function, call))
                        following.append(called)
            frontier = following

    def handler_functions(self, registrar: FunctionCalls, handler: str) -> list[FunctionCalls]:
        """The functions a registration's handler name means: those of the registering
        file, else every product function of the name when few bear it."""
        named = self.by_name.get(handler, [])
        local = [f for f in named if f.path == registrar.path]
        return local or (named if len(named) <= DYNAMIC_FANOUT else [])

    def value_call(self, sources: Sequence[FunctionCalls], depth: int) -> Hop | None:
        """The first call of a function value (a callback, a callee the code computes, a
        bare name no product function bears: ``cb(data)``) made by ``sources`` or by what
        they reach within ``depth - 1`` calls, dynamic ones followed by name (one whose
        name too many functions bear counts itself): a call that may run a function handed
        over as a value. None when there is none."""
        parents: dict[str, tuple[str, Hop] | None] = {s.qualname: None for s in sources}
        steps = partial(self._steps, follow_dynamic=True)
        for _qualname, caller, call in self._breadth_first(parents, depth, steps):
            if call.kind in ("opaque", "callback"):
                return Hop(caller, call)
            if call.kind == "dynamic" and len(self.by_name.get(call.name, [])) > DYNAMIC_FANOUT:
                return Hop(caller, call)  # a name too common to follow: it may be any
            if call.kind == "unresolved" and "." not in call.text and call.name not in self.by_name:
                return Hop(caller, call)
        return None

    def reach(
        self,
        sources: Sequence[FunctionCalls],
        targets: frozenset[str],
        names: frozenset[str],
        depth: int,
        follow_dynamic: bool = False,
    ) -> Reach:
        """The shortest path (at most ``depth`` calls) from any of ``sources`` to a call
        whose target is in ``targets`` (qualnames: functions, or classes constructed) or,
        as the last hop, a dynamic or unresolved call named one of ``names``.
        ``follow_dynamic``: dynamic calls lead on to the functions of their name (when
        there are at most :data:`DYNAMIC_FANOUT`)."""
        parents: dict[str, tuple[str, Hop] | None] = {s.qualname: None for s in sources}
        steps = partial(self._steps, follow_dynamic=follow_dynamic)
        for qualname, caller, call in self._breadth_first(parents, depth, steps):
            hop = _hit(caller, call, targets, names)
            if hop is not None:
                return self._path(parents, qualname, hop)
        return Reach()

    def opaque(
        self, sources: Sequence[FunctionCalls], depth: int, names: frozenset[str]
    ) -> Hop | None:
        """The first call made by ``sources``, or by a function they reach through at most
        ``depth - 1`` resolved calls, that may be a call of a function named one of
        ``names`` the graph does not show: an opaque call (a callee the code computes), a
        callback called when a product function of one of the names is passed as a value
        somewhere, or one of the names passed as a value (whatever receives it may call
        it). None when there is none."""
        passed = bool(names & self.passed)
        parents: dict[str, tuple[str, Hop] | None] = {s.qualname: None for s in sources}
        for _qualname, caller, call in self._breadth_first(parents, depth, self._resolved):
            if (
                call.kind == "opaque"
                or (call.kind == "callback" and passed)
                or (call.kind == "passed" and call.name in names)
            ):
                return Hop(caller, call)
        return None

    def _breadth_first(
        self,
        parents: dict[str, tuple[str, Hop] | None],
        depth: int,
        steps: Callable[[CallSite], list[str]],
    ) -> Iterator[tuple[str, FunctionCalls, CallSite]]:
        """Each call made by the functions in ``parents`` (the sources, mapped to None) and
        by those ``steps`` leads them to, level by level for at most ``depth`` levels, each
        function once; ``parents`` records the call that first led to each function."""
        frontier = list(parents)
        for _level in range(depth):
            following: list[str] = []
            for qualname in frontier:
                caller = self.by_qualname.get(qualname)
                if caller is None:
                    continue
                for call in caller.calls:
                    yield qualname, caller, call
                    for step in steps(call):
                        if step not in parents:
                            parents[step] = (qualname, Hop(caller, call, call.kind in _BY_NAME))
                            following.append(step)
            frontier = following
            if not frontier:
                break

    @staticmethod
    def _resolved(call: CallSite) -> list[str]:
        return [call.target] if call.kind == "resolved" else []

    def _steps(self, call: CallSite, follow_dynamic: bool) -> list[str]:
        if call.kind == "resolved":
            return [call.target]
        if follow_dynamic and call.kind in _BY_NAME and call.name:
            named = self.by_name.get(call.name, [])
            return [f.qualname for f in named] if len(named) <= DYNAMIC_FANOUT else []
        return []

    @staticmethod
    def _path(parents: dict[str, tuple[str, Hop] | None], last: str, hop: Hop) -> Reach:
        hops = [hop]
        at = parents.get(last)
        while at is not None:
            previous, step = at
            hops.append(step)
            at = parents.get(previous)
        hops.reverse()
        dynamic = any(h.by_name for h in hops[:-1])
        return Reach(tuple(hops), dynamic)


def _hit(
    caller: FunctionCalls, call: CallSite, targets: frozenset[str], names: frozenset[str]
) -> Hop | None:
    if call.kind == "passed":  # a value passed, no call
        return None
    if call.kind in _DIRECT and call.target in targets:
        return Hop(caller, call)
    if call.kind in _MATCHED_BY_NAME and call.name in names:
        return Hop(caller, call, by_name=True)
    # A member of the target named as the receiver (`PostFile.from_parent(...)` uses the
    # class PostFile): a call of it, certain when the member resolved.
    receiver, dot, _member = call.text.partition(".")
    if dot and receiver in names:
        return Hop(caller, call, by_name=call.kind not in _DIRECT)
    # `handler.call(this, x)`, `this.save.apply(this, args)`: the function itself, called
    parts = call.text.split("(", 1)[0].split(".")
    if call.name in _INVOKERS and len(parts) > 2 and parts[-2] in names:
        return Hop(caller, call, by_name=True)
    return None
