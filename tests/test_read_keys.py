"""The keys a JavaScript function reads from an options parameter (evidence/read_keys.py):
closed where every use of the parameter is read, open with the reason where a use may read
keys the reader does not see."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_postgates.evidence.read_keys import ReadKeys, read_keys
from pytest_postgates.evidence.repomap import load_parsers


def _read(code: str, name: str = "f", position: int = 0) -> ReadKeys | None:
    parsers: Any = load_parsers()
    if isinstance(parsers, str):
        pytest.skip(parsers)
    source = code.encode("utf-8")
    return read_keys(source, parsers["javascript"].parse(source).root_node, name, position)


@pytest.mark.parametrize(
    ("code", "keys"),
    [
        ("function f(o) { return o.a + o['b'] }", {"a", "b"}),
        ("function f({ a, b: c, d = 1 }) {}", {"a", "b", "d"}),
        ("const f = (o = {}) => { const { a } = o; if ('b' in o) {} }", {"a", "b"}),
        (
            "const D = { a: 1 }\nfunction f(o) { const m = { ...D, ...o, c: 2 }; m.b }",
            {"a", "b", "c"},
        ),
        ("function f(o) { o = o || {}; const p = o.x ? o : null; p.y }", {"x", "y"}),
        ("function g(p) { p.b }\nfunction f(x, o) { g(o); o.a }", {"a", "b"}),
        ("function f(o) { if (!o || typeof o.a === 'string') {} }", {"a"}),
    ],
)
def test_closed_reads(code: str, keys: set[str]) -> None:
    position = 1 if "f(x, o)" in code else 0
    found = _read(code, position=position)
    assert found == ReadKeys(frozenset(keys)), found


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("function f(o) { send(o) }", "f() passes o to send(), which is not followed"),
        ("function f(o) { return o }", "in a return statement"),
        ("function f(o) { this.o = o }", "f() stores o in this.o"),
        ("function f(o) { o[k] }", "f() reads o with a computed key"),
        ("function f({ a, ...rest }) {}", "f() keeps the rest of its options (...rest)"),
        ("function f(o) { for (const k in o) {} }", "f() iterates the keys of o"),
        ("function f(o) { Object.keys(o) }", "iterates the keys of o (Object.keys())"),
        ("function f(o) { Object.assign(this, o) }", "f() copies o onto this"),
        ("function f(o) { g({ o }) }", "f() puts its options o in an object"),
        ("function f(o) { h(...o) }", "f() spreads o into a call"),
        ("function f(o) { o.a; return arguments[0].b }", "f() reads its arguments through"),
    ],
)
def test_open_reads(code: str, reason: str) -> None:
    found = _read(code)
    assert found is not None and found.reason, found
    assert reason in found.reason, found.reason


def test_no_such_function_or_parameter() -> None:
    assert _read("function g(o) {}") is None
    found = _read("function f() {}")
    assert found is not None and found.reason == "f() declares no parameter 1"


def _below(code: str, path: tuple[str, ...], outside: Any = None) -> ReadKeys | None:
    parsers: Any = load_parsers()
    if isinstance(parsers, str):
        pytest.skip(parsers)
    source = code.encode("utf-8")
    root = parsers["javascript"].parse(source).root_node
    return read_keys(source, root, "f", 0, path, outside)


@pytest.mark.parametrize(
    ("code", "keys"),
    [
        # member reads below a key, through an alias of the value at the key
        (
            "function f(o) { o.retry.limit; const r = o.retry || {}; r.methods }",
            {"limit", "methods"},
        ),
        # destructuring below a key: nested patterns, a name bound to it, a default
        ("function f({ retry: { limit } }) {}", {"limit"}),
        ("function f(o) { const { retry: r = {} } = o; r.limit }", {"limit"}),
        ("function f(o) { const { retry } = o; if (retry.limit) {} }", {"limit"}),
        # a merge with defaults: the defaults' keys below the key count as read
        (
            "const D = { retry: { limit: 2 } }\n"
            "function f(o) { const m = { ...D, ...o }; m.retry.backoff }",
            {"limit", "backoff"},
        ),
        # a function of the file handed the whole options reads below the key too
        (
            "function g(p) { p.retry.limit }\nfunction f(o) { g(o); o.retry.calc }",
            {"limit", "calc"},
        ),
        # only tested: nothing read below it
        ("function f(o) { if (o.retry) {} }", set()),
    ],
)
def test_closed_reads_below_a_key(code: str, keys: set[str]) -> None:
    found = _below(code, ("retry",))
    assert found == ReadKeys(frozenset(keys)), found


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("function f(o) { send(o.retry) }", "f() passes o.retry to send(), which is not followed"),
        ("function f(o) { const { retry: [a] } = o }", "f() destructures retry as array_pattern"),
        ("function f(o) { const { a, ...others } = o }", "f() keeps the rest of its options"),
        ("function f(o) { return o.retry }", "f() uses its options o.retry in a return statement"),
    ],
)
def test_open_reads_below_a_key(code: str, reason: str) -> None:
    found = _below(code, ("retry",))
    assert found is not None and found.reason, found
    assert reason in found.reason, found.reason


def test_a_call_of_another_files_function_is_followed_by_the_outside_reader() -> None:
    asked: list[tuple[str, int, tuple[str, ...]]] = []

    def outside(callee: str, index: int, path: tuple[str, ...], seen: Any) -> ReadKeys | None:
        asked.append((callee, index, path))
        return ReadKeys(frozenset({"timeout"})) if callee == "utils.normalize" else None

    code = "function f(url, o) { utils.normalize(url, o); o.retry }"
    source = code.encode("utf-8")
    parsers: Any = load_parsers()
    if isinstance(parsers, str):
        pytest.skip(parsers)
    root = parsers["javascript"].parse(source).root_node
    assert read_keys(source, root, "f", 1, (), outside) == ReadKeys(frozenset({"timeout", "retry"}))
    assert asked == [("utils.normalize", 1, ())]
    # below a key, the path is handed on; a callee the reader cannot resolve stays open
    found = _below("function f(o) { other(o) }", ("retry",), outside)
    assert found is not None and "other(), which is not followed" in found.reason


@pytest.mark.parametrize(
    ("code", "path", "keys"),
    [
        # a normalize helper that returns a merge of the options: the caller reads the
        # merged object it returns, and the defaults' keys count as read
        (
            "const D = { timeout: 1 }\n"
            "function normalize(o) { return { ...D, ...o } }\n"
            "function f(o) { const opts = normalize(o); opts.retry }",
            (),
            {"timeout", "retry"},
        ),
        (
            "const normalize = (o) => Object.assign({}, o)\n"
            "function f(o) { const x = normalize(o || {}); x.retry.limit }",
            ("retry",),
            {"limit"},
        ),
    ],
)
def test_what_a_helper_returns_of_the_options_is_read_by_the_caller(
    code: str, path: tuple[str, ...], keys: set[str]
) -> None:
    found = _below(code, path)
    assert found == ReadKeys(frozenset(keys)), found


def test_a_helper_that_returns_the_options_inside_another_object_keeps_them_open() -> None:
    found = _below("function n(o) { return { o } }\nfunction f(o) { n(o).a }", ())
    assert found is not None and "n() puts its options o in an object" in found.reason, found
    # the function asked for itself returning its options: open (what reads them is unseen)
    found = _below("function f(o) { o.a; return o }", ())
    assert found is not None and "in a return statement" in found.reason, found


@pytest.mark.parametrize(
    ("code", "keys"),
    [
        ("const K = ['a', 'b']\nfunction f(o) { for (const k of K) { o[k] } }", {"a", "b"}),
        ("function f(o) { for (const k of ['x', \"y\"]) { if (o[k]) {} } }", {"x", "y"}),
        ("const K = ['a']\nfunction f(o) { for (const k of K) { o[k].b; o.c } }", {"a", "c"}),
    ],
)
def test_a_computed_key_over_a_constant_list_of_names_reads_each_name(
    code: str, keys: set[str]
) -> None:
    """fastify's ``for (const key of routerKeys) ... options[key]``: the key is each
    string of a constant array (top-level or written in place)."""
    assert _read(code) == ReadKeys(frozenset(keys))


@pytest.mark.parametrize(
    "code",
    [
        "let K = ['a']\nfunction f(o) { for (const k of K) { o[k] } }",  # K may change
        "const K = ['a', x]\nfunction f(o) { for (const k of K) { o[k] } }",  # not all strings
        "const K = ['a']\nfunction f(o) { for (let k of K) { k = g(k); o[k] } }",  # k changes
        "const K = ['a']\nfunction f(o) { for (const k in K) { o[k] } }",  # indexes, not names
        "const K = ['a']\nfunction f(o) { for (const k of K) {} o[k] }",  # k outside the loop
    ],
)
def test_a_computed_key_over_anything_else_leaves_the_keys_open(code: str) -> None:
    found = _read(code)
    assert found is not None and found.reason == "f() reads o with a computed key", found


def test_an_open_read_still_gives_the_keys_it_sees_read_past_the_use_that_opens_it() -> None:
    found = _read("function f(o) { o.a; send(o); o.b; const { c } = o }")
    assert found == ReadKeys(
        frozenset({"a", "b", "c"}), "f() passes o to send(), which is not followed"
    ), found
