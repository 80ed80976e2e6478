"""What a Python function's body does with its ``**kwargs`` (issue 26: "honouring
``**kwargs`` that are forwarded to a known signature, and saying so when they are not"):
the keys it reads by name, the callees it passes them all to, whether it uses them any other
way; a ``**kwargs`` handed whole, as one argument, to a method of its class or a function of
its module is read through that function's use of its parameter (collerek/ormar's
``BaseField`` hands its keywords to ``_populate_from_kwargs``). Read by
:mod:`.model_python` into :class:`~.model_facts.CallableFacts`."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

Function = ast.FunctionDef | ast.AsyncFunctionDef
FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)
# The methods by which code reads one key of a mapping (`x.get("key")`): the keys the
# model records (keys_read) and the keys a function's ``**kwargs`` is read for.
KEY_READS = frozenset({"get", "pop", "setdefault"})


def callee_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


@dataclass(frozen=True)
class Passes:
    """The functions a ``**kwargs`` may be handed to whole, as one argument, and still be
    followed: the methods of its class (``self._populate(kwargs)``) and the functions of its
    module (``_check(kwargs)``); the depth of such hand-overs so far."""

    methods: Mapping[str, Function]
    functions: Mapping[str, Function]
    depth: int = 0
    # The methods of its class followed (``self._populate``): a subclass that overrides one
    # may read other keys (read_python then leaves the keywords open).
    followed: list[str] = field(default_factory=list)

    def target(self, call: ast.Call, index: int) -> tuple[Function, str] | None:
        """The function ``call`` runs and its parameter at positional ``index``."""
        if self.depth >= _MAX_PASSES or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            found = self.methods.get(func.attr) if func.value.id in ("self", "cls") else None
            self.followed.extend([func.attr] if found is not None else [])
            bound = found is not None and not any(
                callee_name(d) == "staticmethod" for d in found.decorator_list
            )
        elif isinstance(func, ast.Name):
            found, bound = self.functions.get(func.id), False
        else:
            return None
        if found is None:
            return None
        positional = [*found.args.posonlyargs, *found.args.args][1 if bound else 0 :]
        return (found, positional[index].arg) if index < len(positional) else None


# How many hand-overs of a ``**kwargs`` as one argument are followed (then: any keyword).
_MAX_PASSES = 3


def kwargs_use(
    function: Function, kwargs: str, passes: Passes | None = None
) -> tuple[list[str], list[str], bool]:
    """What ``function``'s body does with its ``**kwargs`` named ``kwargs`` (see
    :class:`CallableFacts`): keys read by name, callees passed them all, any other use.
    Handed whole to a function of ``passes`` as one argument, what that function does with
    its parameter counts as this body's use."""
    read: list[str] = []
    to: list[str] = []
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(function):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    for node in ast.walk(function):
        if node is not function and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            if kwargs in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}:
                return read, to, True  # a nested function's own name: not followed
        if not (isinstance(node, ast.Name) and node.id == kwargs):
            continue
        if not isinstance(node.ctx, ast.Load):
            return read, to, True  # rebound: what it holds then is not the keywords
        above = parents.get(node)
        if isinstance(above, ast.keyword) and above.arg is None:
            call = parents.get(above)
            if isinstance(call, ast.Call):
                to.append(ast.unparse(call.func))
                continue
        if isinstance(above, ast.Call) and node in above.args and passes is not None:
            handed = passes.target(above, above.args.index(node))
            if handed is None:
                return read, to, True
            deeper = replace(passes, depth=passes.depth + 1)
            more_read, more_to, open_ = kwargs_use(*handed, deeper)
            if open_:
                return read, to, True
            read += more_read
            to += more_to
            continue
        key = _read_key(node, above, parents.get(above) if above is not None else None)
        if key is None:
            return read, to, True
        read.append(key)
    return sorted(set(read)), sorted(set(to)), False


def _read_key(node: ast.Name, above: ast.AST | None, higher: ast.AST | None) -> str | None:
    """The key ``kwargs.get("x")``, ``kwargs["x"]`` or ``"x" in kwargs`` reads, else None."""
    if isinstance(above, ast.Attribute) and above.attr in KEY_READS:
        if isinstance(higher, ast.Call) and higher.func is above and higher.args:
            first = higher.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                return first.value
        return None
    if isinstance(above, ast.Subscript) and above.value is node:
        index = above.slice
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return index.value
        return None
    if (
        isinstance(above, ast.Compare)
        and len(above.ops) == 1
        and above.comparators[0] is node
        and isinstance(above.ops[0], (ast.In, ast.NotIn))
        and isinstance(above.left, ast.Constant)
        and isinstance(above.left.value, str)
    ):
        return above.left.value
    return None
