"""Gate 2's outcomes other than grounded-in-the-configured-repository: which tokens the post
presents as the product's, which it defines itself, which another repository or a declared
dependency grounds, which are not references (commands, builtins, placeholders, globs,
negated or hypothetical mentions), and which are unjudged (an OpenRouter variant, a declared
codebase this run cannot read). Split from the gate module (issue 14): behaviour unchanged."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from pytest_postgates.config import GroundingRepo
from pytest_postgates.evidence.grounding import (
    CODE_KINDS,
    Dependencies,
    NamedIndex,
    PostDefinitions,
    code_evidence,
    is_route_template,
)
from pytest_postgates.helpers.cues import EXAMPLE, NEGATION
from pytest_postgates.helpers.grounding_rules import (
    CALL,
    FLAG,
    LINE_SUFFIX,
    MEMBER_CHAIN,
    _normalise_chain,
    _text_grounding,
    ground_in,
)

if TYPE_CHECKING:
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.evidence.lint_rules import LintRules
    from pytest_postgates.post import Post


SHELL_TOOLS = frozenset(
    """git gh curl wget docker docker-compose kubectl helm ls cd cat echo export grep rg sed
    awk ssh scp brew apt apt-get sudo chmod chown mkdir rm cp mv tar jq openssl sh bash zsh
    make cmake launchctl systemctl crontab tail head less wc sort uniq xargs find kill ps
    env source diff patch ln touch which dig nslookup ping redis-cli psql sqlite3 python
    python3 pip pip3 pipx uv go cargo rustup terraform aws gcloud az ollama test""".split()
)
BUILTIN_GLOBALS = frozenset(
    """Array Object JSON Math Promise String Number Date RegExp Reflect Symbol Map Set
    WeakMap Intl Buffer console process crypto globalThis window document navigator
    performance URL Response Request Headers Error fetch os sys re json asyncio""".split()
)
BUILTIN_METHODS = frozenset(
    """map filter reduce reduceRight forEach find findIndex findLast some every includes
    indexOf lastIndexOf join split slice splice push pop shift unshift concat sort reverse
    flat flatMap fill keys values entries from of isArray then catch finally all allSettled
    race any resolve reject toString toFixed valueOf trim trimStart trimEnd startsWith
    endsWith replace replaceAll match matchAll padStart padEnd toLowerCase toUpperCase
    charAt at length parse stringify assign freeze create defineProperty hasOwnProperty
    getTime now toISOString log warn error info debug abort signal next return throw
    append get set has delete clear size add apply call bind exit argv path environ
    stdout stderr cwd env platform nextTick hrtime memoryUsage uptime floor ceil round
    random max min abs sqrt pow""".split()
)
PLACEHOLDER = re.compile(
    r"^<[^<>]+>$|YOUR[_-]|your[_-]|\bxxx+\b|XXX|\.\.\.|…|^\$\([^)]*\)$|^(?:\[[A-Z_ ]+\])+$"
    r"|^[A-Z]{2,10}-\d{1,6}$|^\$\{[^}]*\}$|^<\w+>$"
)
PARAM_SEGMENT = re.compile(r"<[^<>/]+>|\{[^{}/]+\}|\$\{[^}]*\}")
HYPOTHETICAL_CUE = re.compile(
    rf"(?<!\w)(?:{EXAMPLE}|i\.e\.,? a|imagine|hypothetical(?:ly)?|suppose"
    r"|pretend|illustrative|made[- ]up|fictional|invented)(?!\w)",
    re.I,
)
# "a tool named `x`" introduces an example only where the sentence is one: it opens with
# the phrase or speaks of what could be ("a server could advertise a tool named `x`");
# "creating a function named `x`" states what the product does.
NAMED_CUE = re.compile(
    r"(?<!\w)an? (?:\w+ )?(?:tool|function|server|method|file|package|class|variable|"
    r"endpoint|rule|module|service|field|key|command|prompt|table|column|event|step)"
    r" (?:named|called)(?!\w)",
    re.I,
)
READER_FILE = re.compile(
    r"^`?\s*(?:in|to|into|at the root of) your (?:own )?(?:repository|repo|project|codebase)\b",
    re.I,
)
MODAL = re.compile(r"\b(?:could|would|might|may|if|suppose|say|hypothetically)\b", re.I)
NEGATED_CUE = re.compile(
    # The shared cues first: at one position the longer "there is no separate" must win.
    rf"(?<!\w)(?:{NEGATION}|never existed|does not exist|doesn't exist|did not exist"
    r"|didn't exist|no such|is not a real|isn't a real|not a real|nonexistent|non-existent"
    r"|there is no|there's no"
    r"|was never (?:a|an|the|part)|does not ship|doesn't ship|is not part of|isn't part of"
    r"|fabricated|hallucinated|not (?:an? )?(?:actual|real) "
    r"|(?:aren't|isn't|is not|are not|was not|wasn't) in the \w+ "
    r"(?:catalog|catalogue|list|registry)"
    r")",
    re.I,
)
PRODUCT_VERBS = (
    r"(?:'s|\u2019s|\s+(?:exposes|provides|ships|exports|offers|adds|has|supports|includes"
    r"|introduces|calls|uses|defines|registers|returns|accepts))\b"
)


@dataclass
class Repos:
    """The configured repository first, then the more repositories gate 2 grounds against."""

    primary: NamedIndex
    extras: list[NamedIndex]
    lint: LintRules | None
    dependencies: list[tuple[str, Dependencies]]
    product_names: tuple[str, ...]
    # ``repos`` entries this run cannot read (declared without a path, posts in no git
    # repository): the tokens they claim are listed as unjudged, never grounded.
    unavailable: tuple[GroundingRepo, ...] = ()


# ---------------------------------------------------------------------- the other outcomes


def _head(text: str) -> str:
    chain = _normalise_chain(CALL.sub(lambda m: m.group("callee"), text)).lstrip(".")
    return re.split(r"[.\s/(]", chain, maxsplit=1)[0]


# Paths that are never the repository's files: absolute or home paths, URLs, globs,
# installed packages, and names an example makes up (`foo/`, `my-app/`, `{provider}`).
READERS_PATH = re.compile(
    r"^(?:/|~|[A-Za-z]:\\)|://|[*?{}<>]|(?:^|/)node_modules(?:/|$)"
    r"|(?:^|/)(?:foo|bar|baz|example|examples?-[\w-]+|(?:my|some|your)[-_][\w-]*)(?:[./]|$)",
    re.I,
)


def presented_as_product(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> bool:
    """Whether the post presents the token as the product's API (:func:`presentation`)."""
    return presentation(text, sentence, offset, repos, definitions) is not None


def presentation(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> str | None:
    """How the post presents the token as the product's API, or None: a path into its tree
    (``path``), a model id or a flag (``catalogue``), a rule of its lint namespace
    (``lint``), imported from the product package in a fence (``import``), rooted in the
    product's name (``root``), a member of a capitalised name the repository writes
    (``member``), or named right after the product's name ("NeuroLink's `x`", "NeuroLink
    exposes `x`": ``sentence``). Each way is an anchor of its own in
    helpers/anchor_rules.py, measured and ablated apart."""
    head = _head(text)
    names = {n.lower() for n in repos.product_names}
    if "/" in text and READERS_PATH.search(text):
        return None  # the reader's path or an example's, whatever folder it starts with
    if "/" in text and not text.startswith("@"):
        first = text.lstrip("./").split("/", 1)[0]
        if first in SOURCE_ROOTS or repos.primary.index.match_path(first + "/"):
            return "path"  # a path into the product's tree is a claim about it
    if MODEL_ID.match(text) or FLAG.match(text):
        return "catalogue"  # a claim about the product's catalogue or CLI
    if repos.lint is not None and text.startswith(repos.lint.prefix + "/"):
        return "lint"
    bare_name = re.split(r"[.(]", text.lstrip("."), maxsplit=1)[0]
    if bare_name in definitions.product_imports or head in definitions.product_imports:
        return "import"
    if head.lower() in names or text.lower() in names:
        return "root"
    chain = _normalise_chain(text)
    if "." in chain.strip(".") and head[:1].isupper() and repos.primary.index.has_word(head):
        return "member"
    if offset >= 0:
        before = sentence[max(0, offset - 60) : offset]
        for name in repos.product_names:
            if re.search(rf"\b{re.escape(name)}{PRODUCT_VERBS}[^.`]*`?$", before, re.I):
                return "sentence"
    return None


def not_a_reference(
    text: str,
    kind: str,
    sentence: str,
    offset: int,
    repos: Repos,
    definitions: PostDefinitions,
    rules_off: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(rule, reason) when the token is not a claim about any repository: the first rule
    that decides it and is not in ``rules_off`` (helpers/clearing_rules.py)."""
    decisions = _not_a_reference(text, kind, sentence, offset, repos, definitions)
    return next((d for d in decisions if d[0] not in rules_off), None)


def _not_a_reference(
    text: str, kind: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> Iterator[tuple[str, str]]:
    """Every not-a-reference rule that decides the token, in the order they are tried."""
    words = text.split()
    names = {n.lower() for n in repos.product_names}
    names_product = any(name in text.lower() for name in names)
    if len(words) > 1 and not names_product:
        for segment in re.split(r"\s*(?:;|&&|\|\||\|)\s*", text):
            head = segment.split()[0] if segment.split() else ""
            tool = head.rsplit("/", 1)[-1]
            if tool in SHELL_TOOLS or head.startswith(("/bin/", "/usr/bin/", "/usr/local/bin/")):
                yield "command", f"a {tool} command line, not a repository name"
    chain = _normalise_chain(CALL.sub(lambda m: m.group("callee"), text))
    if MEMBER_CHAIN.match(chain):
        parts = [p for p in chain.split(".") if p]
        if chain.startswith(".") and parts and all(p in BUILTIN_METHODS for p in parts):
            yield "builtin", f"a built-in method ({'.'.join(parts)})"
        # A runtime global's member, only when the member is a known built-in one: an
        # invented `sys.hashInfoX` is no more a built-in than any other invention.
        if (
            len(parts) > 1
            and parts[0] in BUILTIN_GLOBALS
            and parts[0].lower() not in names
            and all(p in BUILTIN_METHODS for p in parts[1:])
        ):
            yield "builtin", f"a member of the built-in {parts[0]}"
    if LATEX_COMMAND.match(text):
        yield "markup", "a LaTeX command, not a name"
    if "/" in text and all(part in SYNTAX_WORDS for part in text.split("/")):
        yield "syntax", "language keywords, not a path"
    package = re.fullmatch(r"@([a-z0-9][\w.-]*)/([a-z0-9][\w.-]*)", text)
    if package and not any(n.lower() in text.lower() for n in repos.product_names if len(n) > 2):
        scope = "@" + package.group(1)
        product_scopes = {n.split("/")[0] for n in repos.product_names if n.startswith("@")}
        if scope not in product_scopes:
            yield "other-package", f"a package of the {scope} scope, not the product's"
    if PLACEHOLDER.search(text) and not is_route_template(text):
        yield "placeholder", "a placeholder, not a name"
    # A call's signature (`.connect(url, **options)`, `f(): Promise<?string>`) is no
    # pattern, whatever its `*` and `?` say.
    if _GLOB_TOKEN.search(text) and "/" not in text.rstrip("/").rstrip("*") and "(" not in text:
        yield "glob", "a file-name pattern, not a file"
    if (
        offset >= 0
        and kind in ("path", "filename")
        and READER_FILE.match(sentence[offset + len(text) : offset + len(text) + 40])
    ):
        yield "reader-file", "a file the reader creates in their own repository"
    if offset < 0:
        return
    # A cue decides only for the token it introduces: just before it ("there is no `x`",
    # "a tool named `x`", "e.g. `x`"), or right after it ("`x` has never existed", "`x`,
    # for example"), with nothing between them but a list of other code spans; a cue
    # elsewhere in the sentence is about something else.
    before = sentence[max(0, offset - CUE_WINDOW) : offset]
    after = sentence[offset + len(text) : offset + len(text) + CUE_WINDOW]
    if _cue_before(NEGATED_CUE, before) or _cue_after(NEGATED_CUE, after):
        # Saying a name does not exist claims nothing about the repository, even for a
        # name of the product's shape.
        yield "negated", "the sentence says it does not exist"
    if not presented_as_product(text, sentence, offset, repos, definitions):
        named = _cue_before(NAMED_CUE, before) and (
            MODAL.search(sentence) is not None
            or re.match(r"^[\s*_(\[\d.-]*an? ", sentence, re.I) is not None
        )
        if (
            named
            or _cue_before(HYPOTHETICAL_CUE, before)
            or re.match(rf"^`?\)?,?\s*(?:{EXAMPLE})", after, re.I)
        ) and not _listed_with_real_names(text, sentence, offset, repos):
            yield "hypothetical", "the sentence presents it as an example, not a real name"


_CODE_SPAN = re.compile(r"`([^`]+)`")
_LIST_GAP = re.compile(r"^\s*,?\s*(?:(?:and|or)\s+)?$")


def _listed_with_real_names(text: str, sentence: str, offset: int, repos: Repos) -> bool:
    """Whether the token stands in one list with a name the repository holds as written
    ("e.g., `OpenAITTS`, `DeepgramSTT`"): examples of the product's real things, so each
    of them is a claim (an invented one among them is a fabrication, not an example)."""
    spans = list(_CODE_SPAN.finditer(sentence))
    at = next((i for i, m in enumerate(spans) if m.start(1) == offset), None)
    if at is None:
        return False
    group = [spans[at]]
    for step in (-1, 1):
        i = at
        while 0 <= i + step < len(spans):
            a, b = (spans[i + step], spans[i]) if step < 0 else (spans[i], spans[i + step])
            if not _LIST_GAP.match(sentence[a.end() : b.start()]):
                break
            i += step
            group.append(spans[i])
    index = repos.primary.index

    def real(name: str) -> bool:
        # A short or common word (`id`, `list`) is in any repository: it proves nothing.
        if len(name) < 4:
            return False
        return index.has_word(name) if re.fullmatch(r"\w+", name) else index.contains(name)

    return any(m.group(1) != text and real(m.group(1)) for m in group)


# Between a cue and its token: other code spans of the same list, and these small words.
_LIST_GLUE = re.compile(r"^(?:\s|,|\(|:|`[^`]*`|\b(?:or|and|nor|a|an|the|any|special)\b)*`?$", re.I)


def _cue_before(cue: re.Pattern[str], before: str) -> bool:
    matches = list(cue.finditer(before))
    return bool(matches) and _LIST_GLUE.match(before[matches[-1].end() :]) is not None


def _cue_after(cue: re.Pattern[str], after: str) -> bool:
    match = cue.search(after)
    if match is None:
        return False
    gap = after[: match.start()]
    glue = (
        r"`?(?:\s|,|—|-|`[^`]*`|\b(?:and|or|nor|that|which|has|have|had|is|was|does|did"
        r"|simply|just|both)\b)*"
    )
    return re.fullmatch(glue, gap) is not None


_GLOB_TOKEN = re.compile(r"[*?]")
# `gpt-4o`, `claude-sonnet-4-6`, `openai/gpt-4o:nitro`: letters, a dash or slash, a digit.
MODEL_ID = re.compile(r"^(?:[a-z][\w.-]*/)?[a-z][a-z0-9]*-[\w.:-]*\d[\w.:-]*$")
LATEX_COMMAND = re.compile(r"^\\[A-Za-z]+(?:\{[^}]*\})*$")
SYNTAX_WORDS = frozenset("if else elif try catch finally for while do switch case".split())
CUE_WINDOW = 60
PURE_PLACEHOLDER = re.compile(r"^<[\w .:-]+>$")
# Folders a path in prose names as the product's own source tree.
SOURCE_ROOTS = frozenset("src lib test tests docs packages scripts bin dist examples".split())


_LISTED_STRING = re.compile(r"""(['"])([^'"\n]+)\1""")
_STRING_LIST = re.compile(r"""\[\s*(?:(['"])[^'"\n]+\1\s*,\s*)*(['"])[^'"\n]+\2\s*\]""")


def defined_in_post(
    text: str, sentence: str, offset: int, repos: Repos, definitions: PostDefinitions
) -> str | None:
    """The fence line declaring the token (a call's callee, a member's last part when its
    head is the post's own too), unless the post presents it as the product's API."""
    callee = CALL.sub(lambda m: m.group("callee"), text).strip()
    chain = _normalise_chain(callee)
    if not MEMBER_CHAIN.match(chain) and not MEMBER_CHAIN.match(callee):
        listed = _STRING_LIST.fullmatch(text)
        if listed and not presented_as_product(text, sentence, offset, repos, definitions):
            # `["erp-connector", "wms-connector"]`: every name the sample gave its own things.
            names = [m.group(2) for m in _LISTED_STRING.finditer(text)]
            lines = [definitions.declared.get(name) for name in names]
            if names and all(line is not None for line in lines):
                return f"fence at line {min(line for line in lines if line is not None)}"
            return None
        line = definitions.declared.get(text)  # a literal the sample names (`crop-guides`)
        if line is not None and not presented_as_product(
            text, sentence, offset, repos, definitions
        ):
            return f"fence at line {line}"
        return None
    parts = [p for p in chain.split(".") if p]
    if not parts:
        return None
    if presented_as_product(text, sentence, offset, repos, definitions):
        return None
    if len(parts) > 1:
        # `retriever.search`: the post declares both, or declares the head and the rest
        # are repository words (a member of the post's own object).
        head_line = definitions.declared.get(parts[0])
        if head_line is None:
            return None
        last_line = definitions.declared.get(parts[-1])
        if last_line is not None:
            return f"fence at line {last_line}"
        return None
    line = definitions.declared.get(parts[0])
    return f"fence at line {line}" if line is not None else None


def external(text: str, kind: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) of another repository or a declared dependency grounding it."""
    for extra in repos.extras:
        found, _ = ground_in(extra.index, text, kind, None)
        if found and (kind not in CODE_KINDS or code_evidence(extra.index, text, found.where)):
            # Another repository's prose (its README, its docs, the posts) grounds nothing.
            return extra.name, found.where
    return _dependency(text, repos)


def _dependency(text: str, repos: Repos) -> tuple[str, str] | None:
    """(repository, where) when the token names a package some repository depends on
    (never the product's own package)."""
    package = _package_of(text)
    if not package or package.lower() in {n.lower() for n in repos.product_names}:
        return None
    if package != text and MODEL_ID.match(text):
        return None  # `openai/gpt-4o` is a model id, not a module of the openai package
    for name, deps in repos.dependencies:
        source = deps.source(package)
        if not source:
            continue
        # A name only a lock file holds is a transitive dependency: a plain word there
        # (`retry`, `debug`) says nothing about the token, a distinctive name does.
        if package in deps.direct or re.search(r"[-@/.]", package):
            return name, f"dependency {package} ({source})"
    return None


def _package_of(text: str) -> str | None:
    """The npm/PyPI/crates package a token names (`@scope/name/sub` -> `@scope/name`)."""
    match = re.fullmatch(r"(@[a-z0-9][\w.-]*/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)(?:/[\w./-]*)?", text)
    return match.group(1) if match else None


# OpenRouter's documented model variants (openrouter.ai/docs, "Model variants"): a suffix
# the router, not the product, gives a model id (`openai/gpt-4o:nitro`).
ROUTER_VARIANTS = frozenset("free beta extended thinking online nitro floor exacto".split())
ROUTER_VARIANT = re.compile(r"^(?P<base>(?:[a-z0-9][\w.-]*/[\w.-]+)?):(?P<variant>[a-z]+)$")


def router_variant(text: str, repos: Repos) -> str | None:
    """The reason an OpenRouter variant of a model id is unjudged: the product routes
    through OpenRouter (its repository names it), the id before the suffix grounds in the
    repository as written, and the suffix is one of the router's documented variants (a
    bare `:nitro` is the suffix alone). An invented id or an invented suffix stays a
    claim."""
    match = ROUTER_VARIANT.match(text)
    if not match or match.group("variant") not in ROUTER_VARIANTS:
        return None
    index = repos.primary.index
    if not (index.contains("openrouter") or index.contains("OpenRouter")):
        return None
    base, suffix = match.group("base"), ":" + match.group("variant")
    if not base:
        return f"`{suffix}` is an OpenRouter model variant, which the repository cannot judge"
    if _text_grounding(index, base) is None:
        return None
    return (
        f"`{base}` is in the repository; `{suffix}` is an OpenRouter model variant,"
        " which the repository cannot judge"
    )


def _product_path(text: str, repos: Repos) -> bool:
    """A path the configured repository's tree claims, whatever post names it: one that
    reaches below the product's top level (`src/lib/x.ts` where `src/lib/` exists), or
    starts at a source root the product has (`src/x.ts`). Top-level folders most
    repositories share (`scripts/`, `docs/`, `data/`) do not decide on their own."""
    segments = [s for s in LINE_SUFFIX.sub("", text).lstrip("./").split("/") if s]
    index = repos.primary.index
    if segments[:1] and segments[0] in PRODUCT_SOURCE_ROOTS and index.is_dir(segments[0]):
        return len(segments) >= 2
    return len(segments) >= 3 and index.is_dir("/".join(segments[:2]))


PRODUCT_SOURCE_ROOTS = frozenset("src lib packages".split())


_FOLDER_NAMES: dict[tuple[str, str], frozenset[str]] = {}


def _folder_names(index: RepoIndex) -> frozenset[str]:
    """Every folder name used anywhere in the tree (kept per commit)."""
    key = (str(index.root), index.commit)
    if key not in _FOLDER_NAMES:
        _FOLDER_NAMES[key] = frozenset(
            segment for path in index.paths for segment in path.split("/")[:-1]
        )
    return _FOLDER_NAMES[key]


def declared_tree(text: str, repos: Repos) -> bool:
    """Whether a path names two or more folders whose names the product's tree never
    uses (`src/routes/(shop)/cart/v2/...`): another tree's path. One wrong segment (a
    folder misspelt, a file put in a new folder) leaves at most one such name, so it stays
    the product's path misspelt."""
    folders = [s for s in text.lstrip("./").split("/") if s][:-1]
    known = _folder_names(repos.primary.index)
    return sum(1 for folder in folders if folder not in known) >= 2


def _post_tags(post: Post) -> set[str]:
    """The post's front-matter tags (a list, or one string of space-separated tags)."""
    value = (post.front_matter or {}).get("tags")
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, list):
        return {str(tag) for tag in value}
    return set()


def unavailable_codebase(
    text: str,
    kind: str,
    post: Post,
    sentence: str,
    offset: int,
    repos: Repos,
    definitions: PostDefinitions,
) -> tuple[GroundingRepo, str] | None:
    """(entry, rule) when a ``repos`` entry this run cannot read claims the token: a path
    under one of its ``prefixes``, or any token of a post its ``posts`` globs or ``tags``
    name that the post does not present as the product's (a model id, a flag, a rule of the
    product's lint namespace, a member of a product class, a path into the product's
    tree stay claims about the product)."""
    if not repos.unavailable:
        return None
    spec = LINE_SUFFIX.sub("", text).removeprefix("./")
    for entry in repos.unavailable:
        if kind in ("path", "filename") and any(spec.startswith(p) for p in entry.prefixes):
            return entry, "declared-prefix"
    post_path = PurePosixPath(Path(post.path).as_posix())
    tags = _post_tags(post)
    for entry in repos.unavailable:
        if not any(post_path.match(glob) for glob in entry.posts) and not tags & set(entry.tags):
            continue
        if kind in ("path", "filename"):
            if MODEL_ID.match(text):
                return None
            if _product_path(text, repos):
                # One wrong segment is the product's path misspelt; two folders or more
                # that the product's tree never uses are the declared codebase's.
                if declared_tree(spec, repos):
                    return entry, "declared-tree"
                return None
        elif presented_as_product(text, sentence, offset, repos, definitions):
            return None
        return entry, "declared-post"
    return None
