"""Gate 2's attribution rules (issue 10): whose thing an ungrounded token names, when the
sentence or the post's own sample says it is not the product's.

Each rule runs only on a token that no repository grounds, that is no dependency and that
the post does not present as the product's API (a model id, a flag, a rule of the
product's lint namespace, a member of a product class, a name after the product's name or
imported from the product's package, a path into the product's tree stay claims). Each
says which rule decided, and what the run could not judge stays ``unjudged``, never
grounded.

The two rules (``third-party-server-tool``, ``sample-input``) are declared, with what each
decides and why, in helpers/clearing_rules.py's table; ``symbol_rules_off`` turns either
off. The others were deleted on held-out evidence (docs/history.md): ``vendor``,
``third-party-package``, ``quoted-source``, ``spelling-variant``, ``example-clause``,
``example-instance``, ``number-spelling`` and ``router-variant-example`` changed no finding
of the held-out docs of other projects or of NeuroLink's own docs folder when turned off
(session 21): a token nothing ties to the product is unjudged (``not-anchored``) whatever
the sentence says, so they decided nothing the anchors had not. ``vendor-namespace-model``
and ``free-form-key`` were dropped earlier.

- ``linked-elsewhere`` (unjudged): the token is the text of a link (or inside it) to an
  address that is not the product's (another project's repository or package page, a
  standard's or a language's documentation): the page itself says whose name it is. The
  product's own addresses are those whose host names the product (``fastify.dev``,
  ``python-httpx.org``) and, on a code host or package registry, the product's repository
  or package; a relative link is the site's own. Unlike the rules above it also decides a
  token that a product name roots or resembles (``reply.sendFile`` linked to the
  repository of the plugin that adds it): only a token that grounds stays grounded. The
  text of an MkDocs autoref to an object of a package the product imports is that package's.

- ``link-label`` / ``link-target``: a path that is the label of a link to that very file
  (``Defined in: [types/cli.ts:762](https://github.com/o/p/blob/<sha>/src/lib/types/cli.ts#L762)``,
  as API reference generators write): where the link is a file of the product's
  repository that exists, the token is grounded by it (``link-target``); a relative link
  to it is the site's own (``link-label``, not a reference: gate 6 checks the target); a
  permalink (a commit's full id) names that commit's file, unjudged against the checkout.

The declared codebase's own rule (``declared-tree``: a path through two or more folders the
product's tree never uses) lives with the other declared-codebase rules in outcome_rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from pytest_postgates.evidence.grounding import quoted_source_file
from pytest_postgates.helpers.code_fences import json_placeholder
from pytest_postgates.helpers.grounding_rules import LINE_SUFFIX
from pytest_postgates.helpers.outcome_rules import Repos
from pytest_postgates.post import package_spelling

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.evidence.grounding import PostDefinitions
    from pytest_postgates.helpers.tokens import Token
    from pytest_postgates.post import Post

Outcome = tuple[str, str, str]  # (outcome, rule, reason)

# A list item or table row whose first code span is the token.
_ITEM_HEAD = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+|\|\s*)(?:\*\*|__)?`(?P<first>[^`]+)`")
# A list item that is only a list of code spans, after an optional short label
# ("- Blob Storage: `list_containers`, `upload_blob`").
_ITEM_OF_SPANS = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[\w /&.-]{1,30}:\s*)?`[^`]+`(?:\s*,\s*(?:and\s+)?`[^`]+`)*\s*$"
)
_HEADING_LINE = re.compile(r"^\s{0,3}(?P<level>#{1,6})\s+(?P<title>.*?)\s*#*\s*$")
_TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\(\))?$")
# A package named by an install command or a scoped package's code span.
_INSTALL = re.compile(
    r"\b(?:npx|bunx|uvx|npm\s+(?:i|install|add|-g)|pnpm\s+(?:add|dlx)|yarn\s+(?:add|dlx)"
    r"|pip\s+install)\s+(?:-{1,2}[\w-]+\s+)*(?P<package>@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)"
)
_SCOPED_SPAN = re.compile(r"`(?P<package>@[a-z0-9][\w.-]*/[\w.-]+)`")
_MCP_TALK = re.compile(r"\bMCP\b|\bmodel ?context ?protocol\b|\bservers?\b", re.I)


def _is_product_package(name: str, repos: Repos) -> bool:
    lowered = name.lower()
    return any(
        n and (lowered == n.lower() or lowered.startswith(n.lower() + "/"))
        for n in repos.product_names
    )


def _enclosing_bracket(content: str, at: int) -> tuple[str, int]:
    """The innermost bracket left open before ``at``, and where it is."""
    depth = {")": 0, "]": 0, "}": 0}
    opener = {"(": ")", "[": "]", "{": "}"}
    for position in range(at - 1, -1, -1):
        char = content[position]
        if char in depth:
            depth[char] += 1
        elif char in opener:
            closer = opener[char]
            if depth[closer]:
                depth[closer] -= 1
            else:
                return char, position
    return "", -1


_NOT_CALLS = frozenset("if while for switch catch return typeof await yield function".split())


def _is_argument_or_element(content: str, at: int) -> bool:
    """Whether the name at ``at`` is passed in: an argument of a call (`f(a, x)`, not
    `if (x)`) or an element of an array."""
    bracket, position = _enclosing_bracket(content, at)
    if bracket == "[":
        return True
    if bracket != "(":
        return False
    callee = re.search(r"([\w$]+)\s*$", content[:position])
    return callee is not None and callee.group(1) not in _NOT_CALLS


def _quotes_product_source(content: str, repos: Repos) -> bool:
    """A fence whose first comment names a file of the product's tree is the product's
    code quoted, not the post's sample."""
    index = repos.primary.index
    return any(
        index.match_path(name.removeprefix("./")) or index.match_filename(name.rsplit("/", 1)[-1])
        for name in quoted_source_file(content)
    )


def sample_input(
    text: str, post: Post, repos: Repos, definitions: PostDefinitions
) -> Outcome | None:
    placeholder = json_placeholder(text, post.fences)  # JSON has no names: the page's
    if placeholder is not None and text not in definitions.product_imports:
        why = f"a bare word of the post's JSON sample (fence at line {placeholder}): a placeholder"
        return "not-a-reference", "sample-input", why
    if not re.fullmatch(r"[a-z][A-Za-z0-9_]*", text) or text in definitions.product_imports:
        return None
    pattern = re.compile(rf"(?<![\w$.]){re.escape(text)}(?![\w$])")
    for fence in post.fences:
        content = fence.content
        if text not in content or _quotes_product_source(content, repos):
            continue
        for match in pattern.finditer(content):
            rest = content[match.end() :]
            if re.match(r"\s*(?:[:(=]|\?\.)", rest):
                continue  # a key, a call or an assignment: not a value passed in
            if match.start() and content[match.start() - 1] in "\"'`":
                # A string literal passed in (an event or option name) may be the
                # product's own vocabulary: `emit("response_complete")` held out in
                # NeuroLink's docs was a real defect, so it stays a claim.
                continue
            if _is_argument_or_element(content, match.start()):
                return (
                    "not-a-reference",
                    "sample-input",
                    f"a value the post's own sample passes in (fence at line"
                    f" {fence.start_line}) without declaring it: the reader's own data",
                )
    return None


def _section(post: Post, line: int) -> tuple[str, list[str]]:
    """The nearest heading above ``line`` (outside fences) and the prose lines from it to
    ``line``. Only the token's own section: a parent section's install line says nothing
    about the lists of the subsections below it (the product's own server may be one)."""
    code = post.code_lines
    for number in range(line - 1, 0, -1):
        if number in code:
            continue
        match = _HEADING_LINE.match(post.lines[number - 1])
        if match is not None:
            lines = [post.lines[n - 1] for n in range(number + 1, line) if n not in code]
            return match.group("title"), lines
    return "", []


def _third_party_packages(text: str, repos: Repos) -> list[str]:
    found = [m.group("package") for m in _INSTALL.finditer(text)]
    found += [m.group("package") for m in _SCOPED_SPAN.finditer(text)]
    scopes = {n.split("/")[0].lower() for n in repos.product_names if n.startswith("@")}
    named = [n.lower() for n in repos.product_names if len(n) > 2]
    return [
        package
        for package in found
        if not _is_product_package(package, repos)
        and package.split("/")[0].lower() not in scopes
        and not any(n in package.lower() for n in named)
    ]


def third_party_server_tool(text: str, token: Token, post: Post, repos: Repos) -> Outcome | None:
    if not _TOOL_NAME.match(text) or not 0 < token.line <= len(post.lines):
        return None
    line = post.lines[token.line - 1]
    item = _ITEM_HEAD.match(line)
    listed = _ITEM_OF_SPANS.match(line) is not None and f"`{text}`" in line
    if not listed and (item is None or item.group("first") != text):
        return None
    title, lines = _section(post, token.line)
    named = [n.lower() for n in repos.product_names if len(n) > 2]
    if not title or any(n in title.lower() for n in named):
        return None  # a list under the product's own heading is the product's
    # Only the heading and the prose before the list: what the page says the list is of.
    before = "\n".join([title, *lines])
    packages = [
        p
        for p in _third_party_packages(before, repos)
        if _MCP_TALK.search(p) or _MCP_TALK.search(before)
    ]
    if not packages:
        return None
    return (
        "unjudged",
        "third-party-server-tool",
        f"a tool listed under the section of {packages[-1]}, another party's MCP server,"
        " whose source this run does not hold",
    )


# The rules in the order they are tried (each in helpers/clearing_rules.py's table).
RULES: tuple[str, ...] = ("third-party-server-tool", "sample-input")


def attribute(
    text: str,
    token: Token,
    post: Post,
    repos: Repos,
    definitions: PostDefinitions,
    rules_off: frozenset[str] = frozenset(),
) -> Outcome | None:
    """The first attribution rule not in ``rules_off`` that decides an ungrounded token the
    post does not present as the product's (the caller checks that), as (outcome, rule,
    reason)."""
    checks = {
        "third-party-server-tool": lambda: third_party_server_tool(text, token, post, repos),
        "sample-input": lambda: sample_input(text, post, repos, definitions),
    }
    for name in RULES:
        if name in rules_off:
            continue
        decided = checks[name]()
        if decided:
            return decided
    return None


# Hosts where the first path segments name a repository or a package, not the host's owner.
_CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})
_REGISTRIES = {"npmjs.com": "package", "pypi.org": "project", "crates.io": "crates"}


def products_address(url: str, names: frozenset[str]) -> bool | None:
    """Whether ``url`` is the product's own address (None: not an absolute web address)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower().removeprefix("www.")
    segments = [unquote(s).lower() for s in parts.path.split("/") if s]
    if host in _CODE_HOSTS:
        if len(segments) < 2:
            return bool(segments) and segments[0] in names  # the product's organisation
        return segments[1].removesuffix(".git") in names
    if host in _REGISTRIES:
        marker = _REGISTRIES[host]
        if marker in segments[:-1]:
            package = "/".join(segments[segments.index(marker) + 1 :][:2])
            return package in names or package.split("/")[0] in names
        return False
    # A host that spells the product's name or a word of it (``vitejs.dev``,
    # ``python-httpx.org``, ``ai.pydantic.dev``): when in doubt, the product's.
    return any(
        word in host
        for name in names
        for word in (name, *re.split(r"[-_./@]", name))
        if len(word) >= 3
    )


def linked_elsewhere(
    token: Token, repos: Repos, post: Post, model: ApiModel | None = None
) -> Outcome | None:
    """``linked-elsewhere``: the page links the token, or a package name it spells
    another way (``griffe_pydantic`` for a linked ``griffe-pydantic``), to an address not
    the product's, or writes it in the text of an MkDocs autoref to an object of a package
    the product imports from outside (``[`x` flag on `TypeAdapter`][pydantic.TypeAdapter]``
    in pydantic-ai's docs)."""
    theirs = _autoref_elsewhere(token, post, model)
    if theirs:
        return (
            "unjudged",
            "linked-elsewhere",
            f"the page links it to `{theirs}`, an object of the package `{theirs.split('.')[0]}` "
            "the product imports from outside: another party's name",
        )
    href = token.href
    if not href and _DISTRIBUTION.fullmatch(token.text):
        href = post.linked_names.get(package_spelling(token.text), "")
    if not href:
        return None
    names = frozenset(n.lower() for n in repos.product_names if len(n) >= 2)
    if not names or products_address(href, names) is not False:
        return None
    host = (urlsplit(href).hostname or "").lower().removeprefix("www.")
    how = "it" if token.href else "the package it names"
    return (
        "unjudged",
        "linked-elsewhere",
        f"the page links {how} to {host}, not to the product: another party's name, which "
        "this repository cannot judge",
    )


def _autoref_elsewhere(token: Token, post: Post, model: ApiModel | None) -> str:
    """The target of an autoref whose text holds the token in backticks, when the target's
    package is none of the product's modules but one its code imports from outside."""
    if model is None or token.href or not 0 < token.line <= len(post.lines):
        return ""
    for found in _AUTOREF.finditer(post.lines[token.line - 1]):
        text, target = found.group(1), found.group(2)
        root = target.split(".")[0]
        if f"`{token.text}`" not in text or not root or root in model.modules:
            continue
        if any(site.module.split(".")[0] == root for site in model.facts.import_sites):
            return target
    return ""


_AUTOREF = re.compile(r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\[([\w.]+)\]")

# A distribution's name as packaging spells it (``griffe_pydantic``, ``tidy-extras``).
_DISTRIBUTION = re.compile(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]")


def link_label(token: Token, kind: str, repos: Repos) -> tuple[str, str, str] | None:
    """``link-target`` (grounded, with the file) or ``link-label`` (not a reference) for a
    path that labels a link to the file it names; None otherwise."""
    if not token.href or kind not in ("path", "filename", "symbol", "phrase"):
        return None
    label = LINE_SUFFIX.sub("", token.text.strip()).removeprefix("./").strip("/")
    if "." not in label and "/" not in label:
        return None  # a file's name or a path, nothing shorter
    try:
        parts = urlsplit(token.href)
    except ValueError:
        return None
    target = unquote(parts.path).strip("/")
    if not label or not (target == label or target.endswith("/" + label)):
        return None
    if not parts.scheme:
        return ("not-a-reference", "link-label", f"the label of a link to {target}")
    names = frozenset(n.lower() for n in repos.product_names if len(n) >= 2)
    segments = target.split("/")
    host = (parts.hostname or "").lower().removeprefix("www.")
    if (
        host in _CODE_HOSTS
        and len(segments) > 4
        and segments[1].lower() in names
        and segments[2] in ("blob", "tree")
    ):
        path = "/".join(segments[4:])
        index = repos.primary.index
        if index.is_file(path) or index.is_dir(path):
            return ("grounded", "link-target", path)
        if re.fullmatch(r"[0-9a-f]{40}", segments[3]):
            # A permalink: the page names the file of that commit, not of the checkout.
            why = f"the label of a permalink to {path} at commit {segments[3][:12]}"
            return ("unjudged", "link-target", why + ", not a claim about the checkout")
    return None
