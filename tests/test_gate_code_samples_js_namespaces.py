"""Gate 15 on a CommonJS package typed by hand-written declarations whose export is a
declared namespace (undici's ``module.exports.interceptors = { redirect: require(...) }``
with ``index.d.ts`` declaring ``interceptors`` as ``declare namespace Interceptors {
function redirect(opts?: RedirectOpts) }``): the namespace's members and the option keys of
its functions are judged against the declarations; a key the declarations leave out but
the JavaScript names is listed unjudged (the declarations may lag the code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import make_repo, sample_card, sample_violations, unjudged_reasons

NAMESPACE = (
    "export default Interceptors\n"
    "declare namespace Interceptors {\n"
    "  export type RedirectOpts = { maxRedirections?: number }\n"
    "  export function redirect (opts?: RedirectOpts): void\n"
    "  export function retry (opts?: { maxRetries?: number }): void\n"
    "}\n"
)
FILES = {
    "package.json": json.dumps({"name": "undy", "main": "index.js", "types": "index.d.ts"}),
    "index.js": (
        "module.exports.interceptors = {\n"
        "  redirect: require('./lib/redirect'),\n"
        "  retry: require('./lib/retry')\n"
        "}\n"
        "module.exports.hooks = { retry: require('./lib/retry') }\n"
        "module.exports.fetcher = require('./lib/retry')\n"
    ),
    "lib/redirect.js": (
        "function createRedirectInterceptor ({ maxRedirections } = {}) {\n"
        "  return (opts) => opts.throwOnMaxRedirect\n"
        "}\n"
        "module.exports = createRedirectInterceptor\n"
    ),
    "lib/retry.js": "module.exports = function retry ({ maxRetries } = {}) { return maxRetries }\n",
    # As undici has it: the export list names a top-level import, and a namespace of the
    # file declares a constant of that name as `typeof import(...)`.
    "index.d.ts": (
        "import interceptors from './types/interceptors'\n"
        "import hooks from './types/hooks'\n"
        "import fetcher from './types/fetcher'\n"
        "export { interceptors, hooks, fetcher }\n"
        "declare namespace Undy {\n"
        "  const interceptors: typeof import('./types/interceptors').default\n"
        "}\n"
    ),
    "types/interceptors.d.ts": NAMESPACE,
    "types/hooks.d.ts": NAMESPACE.replace("Interceptors", "Hooks"),
    # A namespace merged with a function of its name: its members are not the namespace's
    # exports alone.
    "types/fetcher.d.ts": (
        "declare namespace fetcher { export const version: string }\n"
        "declare function fetcher (url: string): void\n"
        "export default fetcher\n"
    ),
}


@pytest.fixture(scope="module")
def undy_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("undy"), FILES)


def test_keys_of_a_declared_namespace_function_are_judged(tmp_path: Path, undy_repo: Path) -> None:
    code = (
        'const { interceptors, hooks } = require("undy");\n'
        "interceptors.redirect({ maxRedirections: 3, maxRedirectionz: 1 });\n"
        "const { retry } = hooks;\n"
        "retry({ maxRetries: 3, minTimeoutMs: 10 });\n"
    )
    card = sample_card(code, "js", tmp_path, undy_repo)
    assert sample_violations(card) == [
        ("option_key", "maxRedirectionz"),
        ("option_key", "minTimeoutMs"),
    ]
    assert card.detail["checked_by_kind"]["option_key"] == 4


def test_a_member_the_namespace_does_not_declare_is_a_finding(
    tmp_path: Path, undy_repo: Path
) -> None:
    code = (
        'const { interceptors } = require("undy");\n'
        "interceptors.redirect();\n"
        "interceptors.redirekt();\n"
        "const { retri } = interceptors;\n"
    )
    card = sample_card(code, "js", tmp_path, undy_repo)
    assert sample_violations(card) == [
        ("member", "interceptors.redirekt"),
        ("member", "interceptors.retri"),
    ]


def test_a_key_the_declarations_lack_but_the_code_names_is_unjudged(
    tmp_path: Path, undy_repo: Path
) -> None:
    code = (
        'const { interceptors } = require("undy");\n'
        "interceptors.redirect({ maxRedirections: 3, throwOnMaxRedirect: true });\n"
    )
    card = sample_card(code, "js", tmp_path, undy_repo)
    assert sample_violations(card) == []
    reasons = unjudged_reasons(card)
    assert any("option throwOnMaxRedirect" in r and "lag" in r for r in reasons), reasons


def test_a_namespace_merged_with_a_function_is_not_judged_as_one(
    tmp_path: Path, undy_repo: Path
) -> None:
    code = 'const { fetcher } = require("undy");\nfetcher.version;\nfetcher.defaults;\n'
    card = sample_card(code, "js", tmp_path, undy_repo)
    assert sample_violations(card) == []
