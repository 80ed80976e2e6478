"""The inline code tokens of a post's prose that name repository things: what gate 2
grounds, and what the judged gates' repository slices are built around.

Tokens are the inline code spans of the post's prose (markdown-it's, so double-backtick
spans work) and the code-shaped references outside backticks (``<code>`` in HTML, heading
words, link text, MkDocs autorefs), never fenced code, front matter or the Related-posts
block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pytest_postgates.code_references import CODE_SPAN

if TYPE_CHECKING:
    from pytest_postgates.post import Post

MAX_TOKEN = 80

# Names that are never repository symbols: language keywords and literals, runtime
# globals, common command-line tools, file formats and external products.
ALLOWLIST: frozenset[str] = frozenset(
    """
    abstract any as async await boolean break case catch class const constructor continue
    debugger declare default delete do else enum export extends false finally for from
    function get if implements import in infer instanceof interface is keyof let module
    namespace never new null number object of package private protected public readonly
    require return satisfies set static string super switch symbol this throw true try type
    typeof undefined unique unknown var void while with yield bigint Array ArrayBuffer
    BigInt Boolean Buffer Date Error EventEmitter Function Infinity Intl JSON Map Math NaN
    Number Object Promise Proxy Reflect RegExp Set String Symbol TypeError Uint8Array URL
    URLSearchParams WeakMap WeakSet console document fetch globalThis process window
    setTimeout setInterval clearTimeout structuredClone AbortController Response Request
    Headers ReadableStream WritableStream TextEncoder TextDecoder Record Partial Required
    Readonly Pick Omit Exclude Extract NonNullable ReturnType Parameters Awaited __dirname
    __filename exports False None True and assert def del elif except global lambda nonlocal
    not or pass raise self cls async_ print len dict list tuple str int float bool bytes
    range open isinstance Exception ValueError KeyError RuntimeError OSError __init__
    __main__ __name__ node npm npx pnpm yarn bun deno git gh curl wget bash sh zsh make
    docker kubectl python python3 pip pipx uv pytest tox ruff mypy eslint prettier tsc jest
    vitest jq sed awk grep ls cd cat echo ssh openssl brew apt apt-get sudo JavaScript
    TypeScript Node.js React Next.js Vue HTTP HTTPS JSON YAML TOML HTML CSS SQL REST GraphQL
    gRPC MCP OAuth JWT SSE WebSocket UTF-8 ASCII CLI API SDK CI CD URL URI OpenAI Anthropic
    Claude Gemini Vertex Mistral Ollama Bedrock Azure AWS GCP GitHub GitLab Bitbucket Slack
    Docker Kubernetes Redis PostgreSQL SQLite MongoDB Jekyll Markdown mermaid GET POST PUT
    PATCH DELETE HEAD OPTIONS
    """.split()
)
MIME_TYPE = re.compile(
    r"^(application|audio|font|image|message|model|multipart|text|video)/[\w.+-]+$"
)
PURE_NUMBER = re.compile(r"^\d+(\.\d+)?$")
# Never repository symbols although they look like them: bare file extensions, lint rule
# codes, errno/open/signal constants, members of Node's built-in modules.
NEVER_SYMBOLS = re.compile(
    r"^(?:\.[A-Za-z0-9]{1,8}|MD\d{3}|E[A-Z]{3,}|O_[A-Z]+|SIG[A-Z]+"
    r"|(?:fs|path|os|zlib|net|http|https|http2|crypto|child_process|util|stream|events|url|dns"
    r"|tls|readline|worker_threads|cluster|buffer|assert|timers|perf_hooks|querystring)"
    r"\.[A-Za-z_]\w*(?:\(\))?)$"
)
LIQUID_RAW = re.compile(r"\{%-?\s*(?:end)?raw\s*-?%\}")
QUOTED = re.compile(r"""^(['"])(.+)\1$""")


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    # Where it was written: "code-span" (backticks), or "html-code", "heading",
    # "link-text", "autoref" (pytest_postgates.code_references).
    source: str = CODE_SPAN
    # The URL of a link whose text holds the token, at any of its places ("" if none): the
    # page saying where the name lives.
    href: str = ""
    # The later lines the same token is written on (a gate lists a token once, and points
    # at every place a reader would have to fix).
    also: tuple[int, ...] = ()


def extract_tokens(post: Post, allowlist: frozenset[str] = ALLOWLIST) -> list[Token]:
    """Distinct prose tokens, each with the line it first appears on and the later lines it
    is written on again: the code spans in document order, then the code-shaped references
    outside backticks not already among them (a name written both ways is judged where it
    stands in backticks)."""
    seen: dict[str, Token] = {}
    candidates = [(s.text, s.line, CODE_SPAN, s.href) for s in post.prose_code_spans]
    candidates += [(ref.text, ref.line, ref.source, ref.href) for ref in post.code_references]
    for text, line, source, href in candidates:
        # Jekyll's {% raw %} wrapper is markup around the token, not part of it.
        raw = LIQUID_RAW.sub("", text).strip()
        quoted = QUOTED.match(raw)
        if quoted:  # `'gpt'` names the string gpt
            raw = quoted.group(2)
        if raw in seen:
            first = seen[raw]
            if href and not first.href:
                first = replace(first, href=href)
            if line != first.line and line not in first.also:
                first = replace(first, also=tuple(sorted((*first.also, line))))
            seen[raw] = first
            continue
        if not raw or len(raw) > MAX_TOKEN or len(raw) < 2:
            continue
        if raw in allowlist or MIME_TYPE.match(raw) or PURE_NUMBER.match(raw):
            continue
        if NEVER_SYMBOLS.match(raw):
            continue
        seen[raw] = Token(raw, line, source, href)
    return list(seen.values())
