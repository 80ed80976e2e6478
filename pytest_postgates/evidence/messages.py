"""Message passing in the call graph: the calls whose ARGUMENT decides which function runs.

A send site (``emitter.emit("saved")``, ``window.postMessage({action: "SAVE"})``,
``ipcRenderer.invoke("load")``, ``document.dispatchEvent(new CustomEvent("x"))``,
``dispatch({type: "ADD"})``, Python's ``saved.send(self)``) records its channel kind and
key; a registration (``emitter.on("saved", onSaved)``, ``ipcMain.handle("load", load)``,
``addEventListener("x", h)``, ``saved.connect(h)``, ``@receiver(saved)``) records its
channel kind, key and the handler's name ("" when written in place). A function that
sends key K on a kind reaches the handlers registered for K on it (the message edge). A
key is a string literal or a name the same file binds to one (``const K = "k"``,
``Types.K`` of a top-level object literal); any other key is computed (""), and so is a
``message`` registration's, whose handler reads the key itself. The kinds and the calls
they read are registered in bench/labels/gate16_message_channels.txt.
"""

from __future__ import annotations

import ast
from typing import Any

from pytest_postgates.evidence.file_table import node_text, string_value

# (channel kind, key, key as written when a name, sending call's name, line)
SendSite = tuple[str, str, str, str, int]
# (channel kind, key, handler's name as passed or "", line)
Listen = tuple[str, str, str, int]

EVENT, DOM, IPC, MESSAGE, ACTION, SIGNAL = "event", "dom", "ipc", "message", "action", "signal"
_LISTEN_VERBS = frozenset({"on", "once", "addListener", "prependListener", "prependOnceListener"})
_IPC_SENDS = frozenset({"send", "invoke", "sendSync"})
_IPC_LISTENS = frozenset({"on", "once", "handle", "handleOnce"})
# The properties of a message object that name its kind.
_KEY_FIELDS = ("action", "type", "cmd", "command", "kind", "event")
_EVENT_CLASSES = frozenset({"CustomEvent", "Event", "MessageEvent"})
_SIGNAL_SENDS = frozenset({"send", "send_robust"})


def js_constants(source: bytes, root: Any) -> dict[str, str]:
    """The file's top-level names bound to a string (``const K = "k"``) and the string
    members of its top-level object literals (``"Types.K"``)."""
    found: dict[str, str] = {}
    for statement in root.named_children:
        declaration = statement
        if statement.type == "export_statement":
            declaration = statement.child_by_field_name("declaration") or statement
        if declaration.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in declaration.named_children:
            name, value = (
                declarator.child_by_field_name("name"),
                declarator.child_by_field_name("value"),
            )
            if name is None or value is None or name.type != "identifier":
                continue
            while value.type in (
                "as_expression",
                "satisfies_expression",
                "parenthesized_expression",
            ):
                value = value.named_children[0]
            bound = node_text(source, name)
            literal = string_value(source, value)
            if literal is not None:
                found[bound] = literal
            elif value.type == "object":
                for pair in value.named_children:
                    key, held = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                    member = string_value(source, held) if held is not None else None
                    if pair.type == "pair" and key is not None and member is not None:
                        found[f"{bound}.{node_text(source, key).strip(chr(34) + chr(39))}"] = member
    return found


def _key(source: bytes, node: Any | None, constants: dict[str, str]) -> tuple[str, str]:
    """(key, the name it is written as) of an argument: a literal, a constant of the file;
    ("", "") when computed."""
    if node is None:
        return "", ""
    literal = string_value(source, node)
    if literal is not None:
        return literal, ""
    if node.type in ("identifier", "member_expression"):
        written = node_text(source, node)
        if written in constants:
            return constants[written], written.rsplit(".", 1)[-1]
    return "", ""


def _message_key(source: bytes, node: Any | None, constants: dict[str, str]) -> tuple[str, str]:
    """The key of a message: its kind property (``{action: "SAVE", ...}``), or the message
    itself when it is a string."""
    if node is not None and node.type == "object":
        for pair in node.named_children:
            key = pair.child_by_field_name("key")
            if (
                pair.type == "pair"
                and key is not None
                and node_text(source, key).strip("'\"") in _KEY_FIELDS
            ):
                return _key(source, pair.child_by_field_name("value"), constants)
        return "", ""
    return _key(source, node, constants)


def _handler(source: bytes, node: Any | None) -> str:
    """The name of the function a registration passes ("" when written in place, "*" when
    it is a value the model cannot name)."""
    if node is None:
        return "*"
    if node.type in ("arrow_function", "function_expression", "function"):
        return ""
    if node.type == "call_expression":  # `this.onSaved.bind(this)`
        held = node.child_by_field_name("function")
        if (
            held is not None
            and held.type == "member_expression"
            and node_text(source, held.child_by_field_name("property") or held) == "bind"
        ):
            node = held.child_by_field_name("object")
    if node is not None and node.type == "identifier":
        return node_text(source, node)
    if node is not None and node.type == "member_expression":
        prop = node.child_by_field_name("property")
        return node_text(source, prop) if prop is not None else "*"
    return "*"


def js_message(
    source: bytes, callee: Any, constants: dict[str, str]
) -> tuple[SendSite | None, Listen | None]:
    """The send site or the registration a call makes (see the module doc)."""
    call = callee.parent
    arguments = call.child_by_field_name("arguments") if call is not None else None
    args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
    first = args[0] if args else None
    second = args[1] if len(args) > 1 else None
    line = callee.start_point[0] + 1
    if callee.type == "identifier":
        name, receiver = node_text(source, callee), ""
    elif callee.type == "member_expression":
        prop, held = callee.child_by_field_name("property"), callee.child_by_field_name("object")
        name = node_text(source, prop) if prop is not None else ""
        receiver = node_text(source, held) if held is not None else ""
    else:
        return None, None
    ipc = "ipc" in receiver.lower() or receiver.endswith("webContents")
    if name == "emit":
        return (EVENT, *_key(source, first, constants), name, line), None
    if name == "dispatchEvent":
        made = (
            first.child_by_field_name("constructor")
            if first is not None and first.type == "new_expression"
            else None
        )
        if first is not None and made is not None and node_text(source, made) in _EVENT_CLASSES:
            inner = first.child_by_field_name("arguments")
            given = (
                [a for a in inner.named_children if a.type != "comment"]
                if inner is not None
                else []
            )
            return (DOM, *_key(source, given[0] if given else None, constants), name, line), None
        return (DOM, "", "", name, line), None
    if ipc and name in _IPC_SENDS and receiver:
        return (IPC, *_key(source, first, constants), name, line), None
    if name == "postMessage" and receiver:
        return (MESSAGE, *_message_key(source, first, constants), name, line), None
    if name == "sendMessage" and receiver.startswith(("chrome.", "browser.")):
        message = second if receiver.endswith("tabs") else first
        return (MESSAGE, *_message_key(source, message, constants), name, line), None
    if name == "dispatch" and first is not None:
        return (ACTION, *_message_key(source, first, constants), name, line), None
    if name == "addListener" and receiver.endswith("onMessage"):
        return None, (MESSAGE, "", _handler(source, first), line)
    if name == "addEventListener":
        key = _key(source, first, constants)[0]
        if key == "message":
            return None, (MESSAGE, "", _handler(source, second), line)
        return None, (DOM, key, _handler(source, second), line)
    if ipc and name in _IPC_LISTENS and receiver:
        return None, (IPC, _key(source, first, constants)[0], _handler(source, second), line)
    if name in _LISTEN_VERBS and receiver and second is not None:
        return None, (EVENT, _key(source, first, constants)[0], _handler(source, second), line)
    return None, None


def _py_key(node: ast.expr | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ""


def _py_handler(node: ast.expr | None) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Lambda):
        return ""
    return "*"


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def py_messages(nodes: list[ast.AST]) -> tuple[list[SendSite], list[Listen]]:
    """The send sites and registrations of the calls among ``nodes`` (a body's, walked)."""
    sends: list[SendSite] = []
    listens: list[Listen] = []
    for node in nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, held, line = node.func.attr, node.func.value, node.lineno
        first = node.args[0] if node.args else None
        second = node.args[1] if len(node.args) > 1 else None
        if name == "emit":
            sends.append((EVENT, _py_key(first), "", name, line))
        elif name in ("on", "once") and second is not None:
            listens.append((EVENT, _py_key(first), _py_handler(second), line))
        elif name in _SIGNAL_SENDS and _dotted(held):
            sends.append((SIGNAL, _dotted(held), "", name, line))
        elif name == "connect" and _dotted(held) and isinstance(first, ast.Name | ast.Attribute):
            listens.append((SIGNAL, _dotted(held), _py_handler(first), line))
    return sends, listens


def py_decorated(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Listen]:
    """The registrations a function's decorators make of it: ``@receiver(sig)``,
    ``@sig.connect``, ``@emitter.on("k")``."""
    found: list[Listen] = []
    for decorator in node.decorator_list:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        args = decorator.args if isinstance(decorator, ast.Call) else []
        if isinstance(func, ast.Name) and func.id == "receiver" and args:
            for signal in (
                args[:1] if not isinstance(args[0], ast.List | ast.Tuple) else args[0].elts
            ):
                if _dotted(signal):
                    found.append((SIGNAL, _dotted(signal), node.name, decorator.lineno))
        elif isinstance(func, ast.Attribute) and func.attr == "connect" and _dotted(func.value):
            found.append((SIGNAL, _dotted(func.value), node.name, decorator.lineno))
        elif isinstance(func, ast.Attribute) and func.attr in ("on", "once") and args:
            found.append((EVENT, _py_key(args[0]), node.name, decorator.lineno))
    return found
