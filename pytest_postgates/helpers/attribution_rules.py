"""Gate 2's attribution rules (issue 10): whose thing an ungrounded token names, when the
sentence or the post's own sample says it is not the product's.

Each rule runs only on a token that no repository grounds, that is no dependency and that
the post does not present as the product's API (a model id, a flag, a rule of the
product's lint namespace, a member of a product class, a name after the product's name or
imported from the product's package, a path into the product's tree stay claims). Each
says which rule decided, and what the run could not judge stays ``unjudged``, never
grounded.

The rules (``vendor``, ``third-party-package``, ``example-clause``, ``example-instance``,
``spelling-variant``, ``sample-input``, ``quoted-source``, ``third-party-server-tool``,
``number-spelling``, ``router-variant-example``) are declared, with what each decides and
why, in helpers/clearing_rules.py's table; ``symbol_rules_off`` turns any of them off.
Two were dropped on held-out evidence (docs/history.md): ``vendor-namespace-model`` (it
let planted namespace inventions through) and ``free-form-key`` (it cleared a real
defect held out).

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
from pytest_postgates.helpers.model_grounding import chain_parts
from pytest_postgates.helpers.outcome_rules import ROUTER_VARIANTS, Repos
from pytest_postgates.post import package_spelling

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_model import ApiModel
    from pytest_postgates.evidence.grounding import PostDefinitions
    from pytest_postgates.helpers.tokens import Token
    from pytest_postgates.post import Post
    from pytest_postgates.prose import Paragraph

Outcome = tuple[str, str, str]  # (outcome, rule, reason)

_CODE_SPAN = re.compile(r"`([^`]+)`")
# Between a cue and its token: other code spans of one list, and list words.
_LIST_GLUE = r"(?:\s|,|/|\(|`[^`]*`|\b(?:or|and|a|an|the)\b)*"
_WORD_NAME = r"[A-Z][A-Za-z0-9+.-]*[A-Za-z0-9]"
_PARTY = rf"{_WORD_NAME}(?:\s{_WORD_NAME})?"
# "Acme's free access is one model, `x`": the possessive, then plain words to the token.
_POSSESSIVE = re.compile(
    rf"(?<![\w`@/.-])(?P<party>{_PARTY})(?:'s|\u2019s)\s+(?P<gap>[^`.;:\u2014\u2013(]{{0,40}})$"
)
# "It's wrapped in ...", "That's ...": contractions, not possessives; "the SDK's", "the
# API's": a generic noun, whose owner the sentence names elsewhere, not a party.
_CONTRACTIONS = frozenset(
    "it that there what here let he she who where this one everyone nobody someone today"
    " now how why when sdk api cli ui server client model provider".split()
)
# "the Acme `x` / `y` endpoints": the party's name right before the list.
_ADJECTIVE = re.compile(rf"\bthe\s+(?P<party>{_PARTY})\s+{_LIST_GLUE}$")
_ADJECTIVE_NOUN = re.compile(
    r"^`?(?:\s*(?:/|,|or|and)\s*`[^`]+`)*\s+(?:endpoints?|APIs?|methods?|fields?|parameters?"
    r"|options?|headers?|events?|errors?|calls?|SDKs?|functions?)\b"
)
# "the `@acme/sdk` SDK's `x()`", "`acme`'s `x`".
_PACKAGE_POSSESSIVE = re.compile(
    r"`(?P<package>[^`]+)`(?:\s+(?:SDK|package|library|client|CLI|module))?(?:'s|\u2019s)"
    r"\s+(?:own\s+)?$"
)
_PACKAGE_CUE = re.compile(
    r"\b(?:librar(?:y|ies)|packages?|generators?|linters?|formatters?|bundlers?"
    r"|frameworks?)\s+(?:like|such as)\s+" + _LIST_GLUE + "$",
    re.I,
)
_PACKAGE_NAME = re.compile(r"^(?:@[a-z0-9][\w.-]*/)?[a-z0-9][a-z0-9._-]*$")
_EXAMPLE_CLAUSE = re.compile(
    r"(?:^|--|\u2014|\u2013|;|:|\()\s*(?:for example|for instance|e\.g\.),?\s+(?P<gap>[^`.;:]*)$",
    re.I,
)
_PARTY_SERVER = re.compile(rf"\b({_WORD_NAME})\s+(?:MCP\s+)?(?:servers?|services?|APIs?|SDKs?)\b")
_INDEFINITE = re.compile(r"(?:^|[\s(])an?\s+$", re.I)
# "a `x` call": one call of a tool; "a `x` tool is registered" says the product has one.
_INSTANCE_NOUN = re.compile(r"^`?\s+(?:calls?|invocations?)\b")
_TOOL_TALK = re.compile(r"\btools?\b", re.I)
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
_INSTALL_COMMAND = re.compile(
    r"^(?:npx|bunx|npm\s+(?:i|install|add|-g|exec)|pnpm\s+(?:add|dlx)|yarn\s+(?:add|dlx))"
    r"(?:\s+-{1,2}[\w-]+)*\s+(?P<package>@?[a-z0-9][\w.-]*(?:/[\w.-]+)?)(?:@[\w.^~-]+)?"
    r"(?:\s+[^\s;&|`$]+)*$"
)
_SCOPED_SPAN = re.compile(r"`(?P<package>@[a-z0-9][\w.-]*/[\w.-]+)`")
_MCP_TALK = re.compile(r"\bMCP\b|\bmodel ?context ?protocol\b|\bservers?\b", re.I)
_ROUTER_VARIANT_ID = re.compile(r"^[a-z0-9][\w.-]*/[\w.-]+:(?P<variant>[a-z]+)$")


def _is_other_party(party: str, repos: Repos) -> bool:
    """A capitalised name that is neither the product nor a configured repository, nor a
    name the repository declares in code (a class, type or constant of its own)."""
    lowered = party.lower()
    names = {n.lower() for n in repos.product_names} | {r.name.lower() for r in repos.extras}
    names |= {r.name.lower() for r in repos.unavailable}
    if any(n and (n in lowered or lowered in n) for n in names):
        return False
    index = repos.primary.index
    head = party.split()[0]
    declared = (
        f"{keyword} {head}{end}"
        for keyword in ("class", "interface", "enum")
        for end in (" ", "<", "{")
    )
    return not index.contains(f"type {head} =") and not any(index.contains(d) for d in declared)


def _is_product_package(name: str, repos: Repos) -> bool:
    lowered = name.lower()
    return any(
        n and (lowered == n.lower() or lowered.startswith(n.lower() + "/"))
        for n in repos.product_names
    )


def vendor(text: str, kind: str, sentence: str, offset: int, repos: Repos) -> Outcome | None:
    # A path names a file of a tree: the product's files are named after the vendors it
    # wraps ("DeepSeek's version, from `src/.../deepseek.ts`"), so a path stays a claim.
    if offset < 0 or kind in ("path", "filename"):
        return None
    before = sentence[:offset].removesuffix("`")
    after = sentence[offset + len(text) :]
    package = _PACKAGE_POSSESSIVE.search(before)
    if package:
        name = package.group("package").strip()
        # `@neurolink/sdk`'s `x`: a package named after the product is presented as the
        # product's (a wrong name for it), so its member is a claim about the product.
        named_after = any(n.lower() in name.lower() for n in repos.product_names if len(n) > 2)
        if _PACKAGE_NAME.match(name) and not named_after and not _is_product_package(name, repos):
            return (
                "unjudged",
                "vendor",
                f"a member of {name}, whose source this run does not hold",
            )
    tail = before[-80:]
    possessive = _POSSESSIVE.search(tail)
    if (
        possessive
        and not tail[: possessive.start()].rstrip().endswith("`")
        and possessive.group("party").lower() not in _CONTRACTIONS
        and " -" not in possessive.group("gap")
        and _is_other_party(possessive.group("party"), repos)
    ):
        party = possessive.group("party")
        return ("unjudged", "vendor", f"names {party}'s thing, which the repository cannot judge")
    adjective = _ADJECTIVE.search(before[-80:])
    party = adjective.group("party") if adjective else ""
    if (
        adjective
        and party.lower() not in _CONTRACTIONS
        and _ADJECTIVE_NOUN.match(after)
        and _is_other_party(party, repos)
    ):
        return ("unjudged", "vendor", f"names {party}'s API, which the repository cannot judge")
    return None


def third_party_package(text: str, sentence: str, offset: int, repos: Repos) -> Outcome | None:
    install = _INSTALL_COMMAND.match(text)
    if install and _third_party_packages(f"npx {install.group('package')}", repos):
        # `npx @acme-mcp/server-x`, `npm -g @acme-mcp/server-x`: installing another
        # party's package (the product's own install line stays a claim: a wrong name or
        # scope of the product is a fabrication).
        return (
            "unjudged",
            "third-party-package",
            f"installs {install.group('package')}, a package of another scope than the"
            " product's; its registry is not consulted offline",
        )
    rooted = dependency_root(text, repos)
    if rooted is not None:
        return (
            "unjudged",
            "third-party-package",
            f"rooted in {rooted[0]}, a package the repository declares as a dependency"
            f" ({rooted[1]}): another package's API, whose source this run does not hold",
        )
    if offset < 0 or not _PACKAGE_NAME.match(text) or _is_product_package(text, repos):
        return None
    # A package named after the product, or in the product's scope, is the product's.
    lowered = text.lower()
    if any(n.lower() in lowered for n in repos.product_names if len(n) > 2):
        return None
    scopes = {n.split("/")[0].lower() for n in repos.product_names if n.startswith("@")}
    if text.startswith("@") and text.split("/")[0] in scopes:
        return None
    if repos.lint is not None and text.startswith(repos.lint.prefix + "/"):
        return None
    cue = _PACKAGE_CUE.search(sentence[max(0, offset - 120) : offset].removesuffix("`"))
    if cue is None:
        return None
    return (
        "unjudged",
        "third-party-package",
        "a third-party package the sentence names as one of a kind; no manifest of the"
        " repository declares it, and its registry is not consulted offline",
    )


def _distribution_key(name: str) -> str:
    """A package's name as Python imports it (PEP 503 normalised: `-`, `.` -> `_`)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def dependency_root(text: str, repos: Repos) -> tuple[str, str] | None:
    """(package, manifest) when the token's chain starts at a package a manifest of the
    repository declares (`logfire.configure()`, `tqdm.tqdm`, `google.genai.types.X` for
    `google-genai`); never the product's own package. A bare package name is
    `_dependency`'s (an external, by name)."""
    parts = chain_parts(text.strip())
    if not parts or (len(parts) < 2 and "(" not in text):
        return None
    products = {_distribution_key(n) for n in repos.product_names}
    for _name, deps in repos.dependencies:
        direct = {_distribution_key(d): d for d in deps.direct}
        for size in range(len(parts), 0, -1):
            key = _distribution_key(".".join(parts[:size]))
            if key in direct and key not in products:
                package = direct[key]
                return package, deps.source(package) or "a manifest"
    return None


def example_clause(text: str, sentence: str, offset: int, repos: Repos) -> Outcome | None:
    """An example clause that puts the token on another party's server ("-- for example,
    both a GitHub server and a GitLab server exposing `x`"): a cue elsewhere in the
    sentence, or an example that names no other party, decides nothing."""
    if offset < 0:
        return None
    cue = _EXAMPLE_CLAUSE.search(sentence[max(0, offset - 120) : offset].removesuffix("`"))
    if cue is None:
        return None
    gap = cue.group("gap")
    if any(n.lower() in gap.lower() for n in repos.product_names if len(n) > 2):
        return None
    parties = [m.group(1) for m in _PARTY_SERVER.finditer(gap)]
    if not parties or not all(_is_other_party(party, repos) for party in parties):
        return None
    return (
        "not-a-reference",
        "example-clause",
        f"the clause's example puts it on {parties[0]}'s server, another party's",
    )


def _camel_words(name: str) -> list[str]:
    return re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)


def _paragraph(post: Post, line: int) -> Paragraph | None:
    return next((p for p in post.prose.paragraphs if p.line <= line <= p.end_line), None)


def example_instance(
    text: str, line: int, post: Post, sentence: str, offset: int
) -> Outcome | None:
    if offset < 0 or not re.fullmatch(r"[a-z][A-Za-z0-9]*", text):
        return None
    paragraph = _paragraph(post, line)
    if not _TOOL_TALK.search(paragraph.source if paragraph else sentence):
        return None
    after = sentence[offset + len(text) :]
    if _INDEFINITE.search(sentence[:offset].removesuffix("`")) and _INSTANCE_NOUN.match(after):
        return (
            "not-a-reference",
            "example-instance",
            "an indefinite article makes it one example of the tools the sentence speaks of",
        )
    # Its counterpart: the same name with another verb, introduced as an example above.
    words = _camel_words(text)
    for match in _CODE_SPAN.finditer(sentence[:offset]):
        other = match.group(1)
        other_words = _camel_words(other)
        if (
            len(words) > 1
            and other_words[1:] == words[1:]
            and other != text
            and _INDEFINITE.search(sentence[: match.start()])
            and _INSTANCE_NOUN.match(sentence[match.end() - 1 :])
        ):
            return (
                "not-a-reference",
                "example-instance",
                f"the counterpart of the sentence's example `{other}`",
            )
    return None


def _spelling(name: str) -> str:
    return re.sub(r"[-_\s]", "", name).lower()


def spelling_variant(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> Outcome | None:
    if offset < 0:
        return None
    mine = _spelling(text)
    index = repos.primary.index
    spellings = {m.group(1) for m in _CODE_SPAN.finditer(sentence)} - {text}
    spellings = {other for other in spellings if _spelling(other) == mine}
    if len(spellings) < 2:
        # Two names that differ only in case and separators are two names
        # (`apiKey`, `API_KEY`); a list of three spellings of one is a demonstration.
        return None
    for other in sorted(spellings):
        if other in definitions.declared or (re.fullmatch(r"\w+", other) and index.has_word(other)):
            return (
                "not-a-reference",
                "spelling-variant",
                f"one spelling of `{other}`, listed beside it",
            )
    return None


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


def quoted_source(text: str, token: Token, post: Post, repos: Repos) -> Outcome | None:
    """The token restates the post's own block quotation of a source that does not name
    the product (a quotation of the product's own words stays a claim about it)."""
    code = post.code_lines
    names = [n.lower() for n in repos.product_names if len(n) > 2]
    for number, line in enumerate(post.lines, 1):
        if number == token.line or number in code or not line.lstrip().startswith(">"):
            continue
        if text in line and not any(n in line.lower() for n in names):
            return (
                "unjudged",
                "quoted-source",
                f"the post's own quotation of a source holds it (line {number}); the quoted"
                " source is not available to this run",
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


_SEPARATED_NUMBER = re.compile(r"^\d{1,3}(?:(?P<sep>[,_])\d{3})(?:(?P=sep)\d{3})*$")


def number_spelling(text: str, repos: Repos) -> tuple[str, str] | None:
    """`128,000` where the code has `128_000` or `128000`: one literal, three spellings,
    as (repository, where). Each spelling is looked up as a whole word (never
    `1128_000`)."""
    match = _SEPARATED_NUMBER.match(text)
    if match is None:
        return None
    digits = text.replace(match.group("sep"), "")
    for spelling in dict.fromkeys((text.replace(",", "_"), digits)):
        for named in (repos.primary, *repos.extras):
            if named.index.has_word(spelling):
                where = named.index.locate(spelling) or "text"
                return named.name, f"{where} (as `{spelling}`)"
    return None


def router_variant_example(
    text: str, sentence: str, offset: int, rules_off: frozenset[str] = frozenset()
) -> Outcome | None:
    """Decided before the product check: the id has a model id's shape, and it is the
    router's example (the caller runs it only where the product routes through OpenRouter)."""
    match = _ROUTER_VARIANT_ID.match(text)
    if not match or offset < 0 or match.group("variant") not in ROUTER_VARIANTS:
        return None
    if "router-variant-example" in rules_off:
        return None
    bare = f"`:{match.group('variant')}`"
    before = sentence[:offset]
    if bare in sentence and re.search(r"(?:e\.g\.|for example|for instance),?\s*`?$", before, re.I):
        return (
            "unjudged",
            "router-variant-example",
            f"an example id of OpenRouter's {bare[1:-1]} variant, which the sentence describes:"
            " an id of the router's catalogue, which the repository cannot judge",
        )
    return None


# The rules in the order they are tried (each in helpers/clearing_rules.py's table).
RULES: tuple[str, ...] = (
    "third-party-server-tool",
    "vendor",
    "third-party-package",
    "quoted-source",
    "spelling-variant",
    "sample-input",
    "example-clause",
    "example-instance",
)


def attribute(
    text: str,
    kind: str,
    token: Token,
    post: Post,
    sentence: str,
    offset: int,
    repos: Repos,
    definitions: PostDefinitions,
    rules_off: frozenset[str] = frozenset(),
) -> Outcome | None:
    """The first attribution rule not in ``rules_off`` that decides an ungrounded token the
    post does not present as the product's (the caller checks that), as (outcome, rule,
    reason)."""
    checks = {
        "third-party-server-tool": lambda: third_party_server_tool(text, token, post, repos),
        "vendor": lambda: vendor(text, kind, sentence, offset, repos),
        "third-party-package": lambda: third_party_package(text, sentence, offset, repos),
        "quoted-source": lambda: quoted_source(text, token, post, repos),
        "spelling-variant": lambda: spelling_variant(text, sentence, offset, repos, definitions),
        "sample-input": lambda: sample_input(text, post, repos, definitions),
        "example-clause": lambda: example_clause(text, sentence, offset, repos),
        "example-instance": lambda: example_instance(text, token.line, post, sentence, offset),
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
