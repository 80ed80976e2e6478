"""Fabrication recall of gate 2: plausible inventions planted in real posts, share caught.

Takes the real NeuroLink blog posts dated up to 2026-06-30 that pass gate 2 grounded at
the NeuroLink repository's ``release`` ref, and replaces real grounded tokens of their
prose with plausible inventions of seven shapes:

- ``letter``: a letter of a real identifier changed (``generateText`` -> ``generateTaxt``);
- ``joined``: two real words of the post joined into a name that does not exist;
- ``path``: a wrong path segment next to a real file (``providers/anthropic.ts`` ->
  ``providers/anthropic/client.ts``, ``providers`` -> ``provider``);
- ``member`` / ``member-call``: an invented member of a real class, without and with call
  parentheses (``NeuroLink.generateWithAvatar``, ``NeuroLink.generateWithAvatar()``);
- ``flag``: an invented command-line flag where a reader takes it as the product's: a
  real flag the prose names and the post's own command lines give to the product's
  command (``npx @juspay/neurolink generate --provider x``) is replaced in the prose and on
  those lines (a copy of the post, ``<post>-flags.md``, as ``sample-key``; its own seeded
  stream). Until 2026-12 it was a random ``--a-b`` in place of any prose name, which no
  reader takes as the product's flag (gate 2 now reads a flag by the command it follows);
  its draws are still made so the other shapes' plants stay what they were;
- ``lint-rule``: an invented rule in the product's lint namespace (``neurolink/no-x-y``);
- ``model-id``: an invented model id in the product's catalogue style (a version bumped or
  a tier added to a real id: ``claude-sonnet-4-5`` -> ``claude-sonnet-4-8``);
- ``variant-suffix`` / ``variant-base``: a router variant gate 2 does not know on a real
  model id (``gpt-4o:turbo``), and a real OpenRouter variant on an invented id
  (``gpt-4o-ultra:nitro``);
- ``sample-key``: a real option the prose names and the post's own sample writes as a key
  of an object the product types as a closed object (``input: { text }`` passed to
  ``neurolink.generate()``, where the declared type has no index signature and declares
  that key), a letter changed in both the prose and the sample's key. The free-form-record
  rule must leave it a claim. Where the object is a free-form record an invented key is not
  a fabrication, so none is planted there. The closed type is found with the type model the
  rule uses (``TypeModel.closed_with``), and the real key must be one of its declared
  fields. These are planted in a separate copy of each post (``<post>`` with ``-keys``), so
  the other shapes' figures are those of the same planted posts as before.

Two more shapes, drawn after those with their own seeded stream and budget
(``--per-post-context``, default 2), so the plants above stay exactly as they were:

- ``listed-tool``: an invented name in the place of a real one that opens a list item or
  table row (``- `getCurrentTime` - ...`` -> ``- `fetchLedger` - ...``), in the real name's
  case style: a tool or function under the product's own heading, the shape gate 2's
  ``third-party-server-tool`` rule must never clear;
- ``namespaced-model``: an invented model id in a vendor namespace the product's catalogue
  uses (``anthropic/claude-sonnet-4-5`` -> ``anthropic/claude-sonnet-4-9``), the shape its
  ``vendor-namespace-model`` rule must never clear.

Every invention is checked not to exist in the repository at the ref with ``git grep -F``
(and ``git ls-tree`` for paths; for a member, the member name itself; for a flag, its name
with and without dashes and in camelCase) before it is planted. Then gate 2 runs on the
planted posts and the script prints, per shape and in total, the share of inventions whose
outcome is ``ungrounded`` (anything else is a miss, listed with the rule that let it
through). Seeded: the same inputs give the same inventions.

By default the bench does not draw: it plants the inventions of a committed table,
``bench/labels/planted_inventions.tsv`` (post name, shape, original, line, invention, and
where a key or a flag was also renamed; no post text), into the posts read from
``--posts``. The table was drawn once with ``--draw --write-table``; because a draw plants
in the posts that pass gate 2, a fresh draw moves whenever gate 2 changes, so two commits
are only comparable on the same table. A row whose original is no longer on its line (an
edited post) is printed as NOT PLANTED. ``--draw`` runs a fresh draw as before.

    python bench/fabrication_recall.py [--repo PATH] [--ref release] [--posts DIR]
        [--until 2026-06-30] [--seed 20260701] [--per-post 9] [--min-posts 40]
        [--json bench/results/fabrication_recall.json] [--table TSV | --draw [--write-table TSV]]

``--json OUT`` also writes the figures for the docs (bench/results_json.py).

``--repo`` defaults to $POSTGATES_NEUROLINK, ``--posts`` to $POSTGATES_NEUROLINK_BLOG or
the shared corpus (``../shared/corpus/neurolink-blog/_posts`` from a worktree).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_postgates.config import Settings

HERE = Path(__file__).resolve().parent
SHARED_POSTS = HERE.parent.parent / "shared" / "corpus" / "neurolink-blog" / "_posts"
DEFAULT_UNTIL = "2026-06-30"
DEFAULT_SEED = 20260701
SHAPES = (
    "letter",
    "joined",
    "path",
    "member",
    "member-call",
    "flag",
    "lint-rule",
    "model-id",
    "variant-suffix",
    "variant-base",
)
CONTEXT_SHAPES = ("listed-tool", "namespaced-model")
FLAG_SHAPE = "flag"
FLAGS_PER_POST = 2
# The flag shape as planted until 2026-12 (a random `--a-b` in place of any prose name):
# drawn and chosen as before so that the other shapes' plants do not move, never planted.
RETIRED_FLAG = "prose-flag"
# A list item or table row whose first code span is the token, or an item that is only a
# list of code spans after a short label (gate 2's third-party-server-tool shapes).
ITEM_HEAD = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+|\|\s*)(?:\*\*|__)?`(?P<first>[^`]+)`")
ITEM_OF_SPANS = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[\w /&.-]{1,30}:\s*)?`[^`]+`(?:\s*,\s*(?:and\s+)?`[^`]+`)*\s*$"
)
TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{3,}$")

VERBS = (
    "resolve register fetch build compute apply merge parse load sync flush render "
    "schedule normalize hydrate prefetch reconcile"
).split()
NOUNS = (
    "Avatar Budget Session Pipeline Snapshot Quota Route Manifest Ledger Cursor Lease "
    "Checkpoint Envelope Shard Beacon Tier"
).split()
FLAG_WORDS = (
    "max min warm cold strict lenient retry replay shard quota budget trace burst "
    "prefetch ledger cursor tier"
).split()
MODEL_TIERS = ("ultra", "max", "turbo-plus", "pro-max", "lite-x")
# Gate 2 leaves an OpenRouter variant of a real id unjudged: these shapes check that an
# invented suffix on a real id, and a real suffix on an invented id, are still caught.
INVENTED_VARIANTS = ("turbo", "priority", "fast", "max", "preview")
REAL_VARIANTS = ("free", "nitro", "online", "thinking", "exacto")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{5,}$")
CLASS = re.compile(r"^[A-Z][a-z]+[A-Za-z0-9]*$")
MODEL_ID = re.compile(r"^(?:[a-z][\w.-]*/)?[a-z][a-z0-9]*-[\w.:-]*\d[\w.:-]*$")
FLAG = re.compile(r"^--[a-z][a-z0-9-]+$")
FLAG_TOKEN = re.compile(r"^--[A-Za-z][A-Za-z0-9-]+$")  # a bare long flag (`--maxTokens`)
PLAIN_PATH = re.compile(r"^[\w.@+-]+(?:/[\w.@+-]+)+/?$")  # no URL, template or glob

# A whole-tree `git grep` of a large repository (vitest's, with a few thousand patterns)
# took over 120 s on a loaded two-core machine; a slow answer is still an answer.
GIT_TIMEOUT = 900


@dataclass(frozen=True)
class Invention:
    shape: str
    original: str  # the real grounded token it replaces
    line: int  # the post line the original is written on
    text: str  # the invented token as planted
    probes: tuple[str, ...]  # strings that must not occur in the repository
    # sample-key: (post line, column) of each key in the post's fences renamed with it.
    keys: tuple[tuple[int, int], ...] = ()


class Repository:
    """Existence checks against the repository at one ref (``git grep -F``, ``ls-tree``)."""

    def __init__(self, root: Path, ref: str) -> None:
        self.root, self.ref = root, ref
        listing = self._git("ls-tree", "-r", "--name-only", "--full-tree", ref).stdout
        self.paths = set(listing.decode("utf-8", "replace").splitlines())
        self.dirs = {
            "/".join(p.split("/")[:i]) for p in self.paths for i in range(1, p.count("/") + 1)
        }
        self._known: dict[str, bool] = {}
        # An exact "present" answer known without git (the gate's own index of the text
        # files): such a text is refused at once; every "absent" is still asked of git.
        self.present_hint: Callable[[str], bool] | None = None

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            ["git", "-C", str(self.root), *args],
            capture_output=True,
            check=False,
            timeout=GIT_TIMEOUT,
        )

    def holds(self, text: str) -> bool:
        """``git grep -F`` over every tracked file at the ref (binary files included)."""
        if text not in self._known:
            found = self._git("grep", "-q", "-F", "-e", text, self.ref, "--")
            # git grep exits 1 when nothing matched; 0 is a match (unreadable blobs of the
            # checkout are reported on stderr and skipped).
            self._known[text] = found.returncode == 0
        return self._known[text]

    def any_holds(self, texts: Sequence[str]) -> bool:
        """``git grep -F -q`` with every text as a pattern: whether any one occurs."""
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write("\n".join(texts) + "\n")
        try:
            found = self._git("grep", "-q", "-F", "-f", handle.name, self.ref, "--")
        finally:
            os.unlink(handle.name)
        return found.returncode == 0

    def prefetch(self, texts: Iterable[str], batch: int = 64) -> None:
        """Answer many ``holds`` at once by group testing: a batch in which nothing occurs
        is settled by one ``git grep``; a batch with a hit is split in halves until each
        text that occurs is found on its own (inventions are mostly absent)."""
        todo = sorted({t for t in texts if t and t not in self._known and "\n" not in t})
        if self.present_hint is not None:
            for text in todo:
                if self.present_hint(text):
                    self._known[text] = True
            todo = [t for t in todo if t not in self._known]

        def settle(group: list[str]) -> None:
            if len(group) == 1:
                self.holds(group[0])
            elif not self.any_holds(group):
                self._known.update(dict.fromkeys(group, False))
            else:
                half = len(group) // 2
                settle(group[:half])
                settle(group[half:])

        groups = [todo[i : i + batch] for i in range(0, len(todo), batch)]
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(settle, groups))

    def path_exists(self, path: str) -> bool:
        clean = path.strip("/")
        return clean in self.paths or clean in self.dirs

    def absent(self, invention: Invention) -> bool:
        if invention.shape == "path" and self.path_exists(invention.text):
            return False
        return not any(self.holds(probe) for probe in invention.probes)


# ---------------------------------------------------------------------- inventions


def camel_words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)


def letter_changed(token: str, rng: random.Random) -> str | None:
    positions = [i for i, c in enumerate(token) if i > 0 and c.islower()]
    if not positions:
        return None
    i = rng.choice(positions)
    vowels = "aeiou"
    pool = vowels if token[i] in vowels else "bcdfghklmnprstvz"
    replacement = rng.choice([c for c in pool if c != token[i]])
    return token[:i] + replacement + token[i + 1 :]


def joined(first: str, second: str) -> str | None:
    a, b = camel_words(first), camel_words(second)
    if len(a) < 1 or len(b) < 2:
        return None
    head = a[0] if first[0].islower() else a[0].capitalize()
    return head + "".join(w.capitalize() for w in b[1:])


def wrong_segment(path: str, rng: random.Random) -> str | None:
    parts = path.rstrip("/").split("/")
    if len(parts) < 2:
        return None
    stem, _, ext = parts[-1].partition(".")
    options: list[str] = []
    if ext:
        options.append("/".join([*parts[:-1], stem, "client." + ext]))  # file -> folder
        options.append("/".join([*parts[:-1], stem, "index." + ext]))
    for i in range(len(parts) - 1):
        segment = parts[i]
        variant = segment[:-1] if segment.endswith("s") else segment + "s"
        options.append("/".join([*parts[:i], variant, *parts[i + 1 :]]))
    return rng.choice(options) if options else None


def invented_member(rng: random.Random) -> str:
    return rng.choice(VERBS) + rng.choice(NOUNS)


def invented_flag(rng: random.Random) -> str:
    first, second = rng.sample(FLAG_WORDS, 2)
    return f"--{first}-{second}"


def invented_rule(prefix: str, rng: random.Random) -> str:
    first, second = rng.sample(FLAG_WORDS, 2)
    return f"{prefix}/no-{first}-{second}"


def invented_model(model: str, rng: random.Random) -> str | None:
    numbers = list(re.finditer(r"\d+", model))
    if numbers and rng.random() < 0.6:
        last = numbers[-1]
        bumped = str(int(last.group()) + rng.randint(3, 7))
        return model[: last.start()] + bumped + model[last.end() :]
    return f"{model}-{rng.choice(MODEL_TIERS)}"


def flag_probes(flag: str) -> tuple[str, ...]:
    name = flag.lstrip("-")
    camel = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), name)
    return (flag, name, camel)


@dataclass(frozen=True)
class Grounded:
    token: str
    kind: str
    line: int


def candidates_for(
    grounded: Sequence[Grounded], rng: random.Random, lint_prefix: str, rounds: int = 6
) -> list[Invention]:
    """Inventions for one post, shapes taken round robin, not yet checked against the
    repository (so the seed alone decides them)."""
    identifiers = [g for g in grounded if g.kind == "symbol" and IDENT.match(g.token)]
    classes = [g for g in identifiers if CLASS.match(g.token)]
    paths = [
        g
        for g in grounded
        if g.kind in ("path", "filename") and "/" in g.token and PLAIN_PATH.match(g.token)
    ]
    flags = [g for g in grounded if g.kind == "flag" and FLAG.match(g.token)]
    rules = [g for g in grounded if g.kind == "lint-rule"]
    models = [g for g in grounded if MODEL_ID.match(g.token) and g.kind != "path"]
    # Any real id, vendor-prefixed ones included, for the variant shapes.
    model_ids = [g for g in grounded if MODEL_ID.match(g.token) and ":" not in g.token]

    def make(shape: str) -> Invention | None:
        g: Grounded | None
        probes: tuple[str, ...] = ()
        if shape == "letter":
            g = rng.choice(identifiers) if identifiers else None
            text = letter_changed(g.token, rng) if g else None
        elif shape == "joined":
            g = rng.choice(identifiers) if identifiers else None
            other = rng.choice(identifiers) if identifiers else None
            text = joined(g.token, other.token) if g and other and other != g else None
        elif shape == "path":
            g = rng.choice(paths) if paths else None
            text = wrong_segment(g.token, rng) if g else None
        elif shape in ("member", "member-call"):
            g = rng.choice(classes) if classes else None
            member = invented_member(rng)
            call = "()" if shape == "member-call" else ""
            text = f"{g.token}.{member}{call}" if g else None
            probes = (member,)
        elif shape == "flag":
            # Planted in prose in place of any name, a flag is no claim a reader takes as
            # the product's: the flag shape is planted on the product's command lines
            # instead (command_flag_candidates). This one is still drawn and chosen, then
            # dropped (RETIRED_FLAG), so every other plant stays what it was.
            pool = flags or identifiers
            g = rng.choice(pool) if pool else None
            text = invented_flag(rng) if g else None
            probes = flag_probes(text) if text else ()
            shape = RETIRED_FLAG
        elif shape == "lint-rule":
            pool = rules or identifiers
            g = rng.choice(pool) if pool else None
            text = invented_rule(lint_prefix, rng) if g else None
            probes = (text, text.split("/", 1)[1]) if text else ()
        elif shape == "variant-suffix":
            g = rng.choice(model_ids) if model_ids else None
            text = f"{g.token}:{rng.choice(INVENTED_VARIANTS)}" if g else None
        elif shape == "variant-base":
            g = rng.choice(model_ids) if model_ids else None
            base = invented_model(g.token, rng) if g else None
            text = f"{base}:{rng.choice(REAL_VARIANTS)}" if base else None
            probes = (text, base) if text and base else ()
        else:  # model-id
            g = rng.choice(models) if models else None
            text = invented_model(g.token, rng) if g else None
        if g is None or not text or text == g.token:
            return None
        return Invention(shape, g.token, g.line, text, probes or (text,))

    made = [make(shape) for _round in range(rounds) for shape in SHAPES]
    return [invention for invention in made if invention is not None]


def invented_tool(original: str, rng: random.Random) -> str:
    """An invented name in the original's case style (snake_case or camelCase)."""
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    if "_" in original or original.islower():
        return f"{verb}_{noun.lower()}"
    if original[0].isupper():
        return verb.capitalize() + noun
    return verb + noun


def listed(token: str, line: str) -> bool:
    """Whether ``token`` opens a list item or table row of ``line``, or is one of an item's
    list of code spans."""
    head = ITEM_HEAD.match(line)
    return (head is not None and head.group("first") == token) or (
        ITEM_OF_SPANS.match(line) is not None and f"`{token}`" in line
    )


def context_candidates(
    grounded: Sequence[Grounded], lines: Sequence[str], rng: random.Random, rounds: int = 4
) -> list[Invention]:
    """The two context shapes for one post (their own stream: the main shapes' draws do
    not move)."""
    tools = [
        g
        for g in grounded
        if g.kind == "symbol"
        and TOOL_NAME.match(g.token)
        and 0 < g.line <= len(lines)
        and listed(g.token, lines[g.line - 1])
    ]
    namespaced = [g for g in grounded if MODEL_ID.match(g.token) and "/" in g.token]
    made: list[Invention] = []
    for _round in range(rounds):
        if tools:
            g = rng.choice(tools)
            made.append(Invention("listed-tool", g.token, g.line, invented_tool(g.token, rng), ()))
        if namespaced:
            g = rng.choice(namespaced)
            text = invented_model(g.token, rng)
            if text and text != g.token:
                made.append(Invention("namespaced-model", g.token, g.line, text, ()))
    return [Invention(i.shape, i.original, i.line, i.text, (i.text,)) for i in made]


def choose(candidates: Sequence[Invention], repo: Repository, per_post: int) -> list[Invention]:
    """The first ``per_post`` candidates that are absent from the repository, each
    replacing a distinct real token and distinct from the others."""
    chosen: list[Invention] = []
    used: set[str] = set()
    for invention in candidates:
        if len(chosen) >= per_post:
            break
        if invention.original in used or invention.text in used:
            continue
        if repo.absent(invention):
            chosen.append(invention)
            used.update((invention.original, invention.text))
    return chosen


def inventions_for(
    grounded: Sequence[Grounded],
    repo: Repository,
    rng: random.Random,
    per_post: int,
    lint_prefix: str,
) -> list[Invention]:
    """Up to ``per_post`` checked inventions for one post."""
    candidates = candidates_for(grounded, rng, lint_prefix)
    repo.prefetch(p for c in candidates for p in c.probes)
    return [i for i in choose(candidates, repo, per_post) if i.shape != RETIRED_FLAG]


KEY_SHAPE = "sample-key"
KEYS_PER_POST = 2


def sample_key_candidates(
    post_path: Path, grounded: Sequence[Grounded], context: Any, rng: random.Random
) -> list[Invention]:
    """``sample-key`` inventions for one post (not yet checked against the repository):
    grounded prose identifiers the post's samples write only as keys of closed product
    types (module docstring)."""
    from pytest_postgates.helpers.typed_keys import TypedKeys, product_api
    from pytest_postgates.post import parse_post

    post = parse_post(post_path)
    index = context.evidence.index_for(post_path)
    package = context.settings.package or context.evidence.for_post(post_path).package_name
    keys = TypedKeys(post, index, lambda: product_api(index, context.evidence.cache_dir, package))
    samples = keys.samples()
    if samples is None:
        return []
    made: list[Invention] = []
    seen: set[str] = set()
    for g in grounded:
        if g.kind != "symbol" or not re.fullmatch(r"[a-z][A-Za-z0-9]{4,}", g.token):
            continue
        if g.token in seen:
            continue
        seen.add(g.token)
        found, words = samples.key_nodes(g.token)
        if not found or len(found) != words:
            continue  # the name is used otherwise too: renaming the keys changes more

        def closed(start: Any, path: tuple[str, ...], _label: str, key: str = g.token) -> bool:
            return bool(samples.api.model.closed_with(start, path, key))

        if not all(samples.place(sample, node, closed) for sample, node in found):
            continue
        text = letter_changed(g.token, rng)
        if not text:
            continue
        places = tuple(
            (sample.fence.start_line + node.start_point[0] + 1, node.start_point[1])
            for sample, node in found
        )
        made.append(Invention(KEY_SHAPE, g.token, g.line, text, (text,), places))
    return made


def command_flag_candidates(
    post_path: Path, grounded: Sequence[Grounded], context: Any, rng: random.Random
) -> list[Invention]:
    """``flag`` inventions for one post (not yet checked against the repository): a real
    flag the post names in prose and gives to the product's command on its own command
    lines (``npx @juspay/neurolink generate --provider x``), replaced in both places by an
    invented one, where a reader takes it as a flag of the product's command."""
    from pytest_postgates.evidence.api_model import api_model
    from pytest_postgates.evidence.model_facts import normal_flag
    from pytest_postgates.helpers.command_lines import page_command_lines
    from pytest_postgates.post import parse_post

    post = parse_post(post_path)
    index = context.evidence.index_for(post_path)
    model = api_model(index, context.evidence.cache_dir)
    package = context.settings.package or context.evidence.for_post(post_path).package_name
    ours = [c for c in page_command_lines(post, model, package or "") if c.product]
    made: list[Invention] = []
    seen: set[str] = set()
    for g in grounded:
        if g.kind != "flag" or not FLAG_TOKEN.match(g.token) or g.token in seen:
            continue
        seen.add(g.token)
        places = tuple(sorted({(c.line, 0) for c in ours if normal_flag(g.token) in c.flags}))
        if places:
            text = invented_flag(rng)
            made.append(Invention(FLAG_SHAPE, g.token, g.line, text, flag_probes(text), places))
    return made


def plant_flags(text: str, inventions: Sequence[Invention]) -> str | None:
    """Rename each flag invention's flag on the command lines it was read from (the
    lines recorded with it; a continued command's flag may be on a later line of it)."""
    lines = text.split("\n")
    for invention in inventions:
        word = re.compile(rf"(?<![\w-]){re.escape(invention.original)}(?![\w-])")
        for line, _column in invention.keys:
            index = line - 1
            for at in range(index, min(index + 12, len(lines))):
                renamed = word.sub(invention.text, lines[at], count=1)
                if renamed != lines[at]:
                    lines[at] = renamed
                    break
            else:
                return None
    return "\n".join(lines)


def plant_keys(text: str, inventions: Sequence[Invention]) -> str | None:
    """Rename each sample-key invention's keys in the post's fences (at their recorded
    line and column); None when a key is not found there."""
    lines = text.split("\n")
    for invention in inventions:
        for line, column in invention.keys:
            index = line - 1
            if not 0 <= index < len(lines):
                return None
            row = lines[index]
            at = row.find(invention.original, column)
            if at < 0 or (at and re.match(r"[\w$]", row[at - 1])):
                return None
            lines[index] = row[:at] + invention.text + row[at + len(invention.original) :]
    return "\n".join(lines)


def plant(text: str, inventions: Sequence[Invention], body_start: int) -> str | None:
    """The post with each invention written where its original token was (the original's
    code span on its line); None when a span cannot be found."""
    lines = text.split("\n")
    for invention in inventions:
        index = invention.line - 1
        if not (body_start - 1 <= index < len(lines)):
            return None
        needle = f"`{invention.original}`"
        if needle not in lines[index]:
            return None
        lines[index] = lines[index].replace(needle, f"`{invention.text}`", 1)
    return "\n".join(lines)


# ---------------------------------------------------------------------- running gate 2


def gate_context(
    repo: Path, ref: str, lint_prefix: str, lint_dir: str, config: Path | None = None
) -> Any:
    """A gate context with the repository index in the user cache folder (shared with
    ordinary runs; it is keyed by commit), and ``config``'s ``[tool.postgates]`` table on
    top when given (``--config bench/blog_team.toml``: the recall a blog team gets). Works
    with the code before the gate registry refactor too, so ``--judge`` can score kept
    posts with an older checkout."""
    from pytest_postgates import gates

    try:
        from pytest_postgates.evidence.cache import default_cache_dir
    except ImportError:  # the code before the gate registry refactor
        default_cache_dir = gates.default_cache_dir  # type: ignore[attr-defined]
    # The gates' own keys are known to settings that declare them (the per-gate settings
    # dataclasses); an older checkout has one Settings class for everything.
    make_settings = getattr(gates, "default_settings", Settings)
    settings = make_settings(
        repo=repo, ref=ref, offline=True, lint_rule_prefix=lint_prefix, lint_rules_dir=lint_dir
    )
    if config is not None:
        from pytest_postgates.config import from_pyproject

        settings = from_pyproject(settings, config)
    return gates.GateContext.create(settings, default_cache_dir())


def run_gate(path: Path, context: Any) -> dict:
    """Gate 2's scorecard, with every ungrounded token taken from the findings (the
    scorecard lists only the first 50)."""
    from pytest_postgates.gates import symbol_grounding
    from pytest_postgates.post import parse_post

    post = parse_post(path)
    gate = getattr(symbol_grounding, "GATE", None)
    card = gate.evaluate(post, context) if gate else symbol_grounding.check(post, context)
    flagged = {
        f.message[1 : f.message.rindex("` (")]: f.message
        for f in card.findings
        if f.code == "UNGROUNDED" and "` (" in f.message
    }
    return {"verdict": card.verdict, "detail": card.detail, "flagged": flagged}


def outcome_of(card: dict, token: str) -> tuple[str, str]:
    if token in card["flagged"]:
        return "ungrounded", card["flagged"][token]
    detail = card["detail"]
    for outcome, entries in detail.get("outcomes", {}).items():
        for entry in entries:
            if entry["token"] == token:
                return outcome, entry.get("rule") or entry.get("where", "")
    return "not flagged", "grounded or not extracted"


def select_posts(posts: Path, until: str) -> list[Path]:
    return sorted(p for p in posts.glob("*.md") if p.name[:10] <= until)


def plant_all(
    args: argparse.Namespace, repo_root: Path, context: Any
) -> tuple[list[tuple[str, list[Invention], dict]], list[Path], int]:
    """Select the passing posts, invent, check, plant and score; ``--keep`` saves them."""
    from pytest_postgates.post import parse_post

    repository = Repository(repo_root, args.ref)
    rng = random.Random(args.seed)
    originals = select_posts(Path(args.posts), args.until)
    if originals:
        repository.present_hint = context.evidence.index_for(originals[0]).contains
    context_rng = random.Random(f"{args.seed}:context")
    pools: list[tuple[Path, list[Invention], list[Invention]]] = []
    key_pools: list[tuple[Path, list[Invention]]] = []
    flag_pools: list[tuple[Path, list[Invention]]] = []
    for post_path in originals:
        card = run_gate(post_path, context)
        if card["verdict"] != "PASS":
            continue
        grounded = [
            Grounded(e["token"], e["kind"], e["line"])
            for e in card["detail"].get("outcomes", {}).get("grounded", [])
        ]
        main_pool = candidates_for(grounded, rng, args.lint_prefix)
        lines = parse_post(post_path).lines
        pools.append((post_path, main_pool, context_candidates(grounded, lines, context_rng)))
        # A generator of its own, so the other shapes' inventions stay what they were.
        key_rng = random.Random(f"{args.seed}-{KEY_SHAPE}-{post_path.name}")
        key_pools.append((post_path, sample_key_candidates(post_path, grounded, context, key_rng)))
        flag_rng = random.Random(f"{args.seed}-{FLAG_SHAPE}-{post_path.name}")
        flag_pools.append(
            (post_path, command_flag_candidates(post_path, grounded, context, flag_rng))
        )
    repository.prefetch(p for _, pool, extra in pools for c in (*pool, *extra) for p in c.probes)
    repository.prefetch(p for _, pool in key_pools for c in pool for p in c.probes)
    repository.prefetch(p for _, pool in flag_pools for c in pool for p in c.probes)
    planted: list[tuple[str, list[Invention], dict]] = []
    with tempfile.TemporaryDirectory(prefix="postgates-recall-") as scratch:
        folder = args.keep or Path(scratch)
        (folder / "posts").mkdir(parents=True, exist_ok=True)
        rows = []
        for post_path, pool, extra in pools:
            inventions = choose(pool, repository, args.per_post)
            taken = {t for i in inventions for t in (i.original, i.text)}
            free = [c for c in extra if c.original not in taken and c.text not in taken]
            inventions += choose(free, repository, args.per_post_context)
            post = parse_post(post_path)
            text = plant(post.text, inventions, post.body_start_line) if inventions else None
            if text is None:
                continue  # (the retired shape included: the posts planted stay the same)
            inventions = [i for i in inventions if i.shape != RETIRED_FLAG]
            text = plant(post.text, inventions, post.body_start_line) if inventions else None
            if text is None:
                continue
            target = folder / "posts" / post_path.name
            target.write_text(text, encoding="utf-8")
            planted.append((post_path.name, inventions, run_gate(target, context)))
            rows += [table_row(post_path.name, i) for i in inventions]
        for post_path, pool in key_pools:
            inventions = choose(pool, repository, KEYS_PER_POST)
            post = parse_post(post_path)
            text = plant(post.text, inventions, post.body_start_line) if inventions else None
            text = plant_keys(text, inventions) if text is not None else None
            if text is None:
                continue
            name = f"{post_path.stem}-keys.md"
            target = folder / "posts" / name
            target.write_text(text, encoding="utf-8")
            planted.append((name, inventions, run_gate(target, context)))
            rows += [table_row(name, i) for i in inventions]
        for post_path, pool in flag_pools:
            inventions = choose(pool, repository, FLAGS_PER_POST)
            post = parse_post(post_path)
            text = plant(post.text, inventions, post.body_start_line) if inventions else None
            text = plant_flags(text, inventions) if text is not None else None
            if text is None:
                continue
            name = f"{post_path.stem}-flags.md"
            target = folder / "posts" / name
            target.write_text(text, encoding="utf-8")
            planted.append((name, inventions, run_gate(target, context)))
            rows += [table_row(name, i) for i in inventions]
        (folder / "inventions.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        if args.write_table:
            header = (
                f"# drawn by bench/fabrication_recall.py --draw, seed {args.seed}, ref {args.ref}"
            )
            args.write_table.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return planted, originals, len(pools)


def table_row(name: str, invention: Invention) -> str:
    """One row of an inventions table: the planted post's name, the shape, the original,
    its line, the invention, and the (line:column) of each sample key or command line it
    was also written on."""
    keys = ";".join(f"{line}:{column}" for line, column in invention.keys)
    fields = (name, invention.shape, invention.original, str(invention.line), invention.text)
    return "\t".join((*fields, keys))


def read_table(path: Path) -> dict[str, list[Invention]]:
    """The inventions of a table, by planted post (rows of a --keep run before the keys
    column have five fields)."""
    by_post: dict[str, list[Invention]] = defaultdict(list)
    for row in path.read_text(encoding="utf-8").splitlines():
        if not row or row.startswith("#"):
            continue
        name, shape, original, line, text, *rest = row.split("\t")
        keys = tuple(
            (int(a), int(b))
            for a, b in (k.split(":") for k in (rest[0] if rest else "").split(";") if k)
        )
        by_post[name].append(Invention(shape, original, int(line), text, (), keys))
    return by_post


def judge_kept(folder: Path, context: Any) -> list[tuple[str, list[Invention], dict]]:
    """Score posts a ``--keep`` run planted, with whatever gate 2 is importable."""
    by_post = read_table(folder / "inventions.tsv")
    return [
        (name, inventions, run_gate(folder / "posts" / name, context))
        for name, inventions in sorted(by_post.items())
    ]


def judge_table(
    table: Path, posts: Path, context: Any
) -> tuple[list[tuple[str, list[Invention], dict[str, Any]]], list[str]]:
    """Plant a committed table's inventions into the posts (read from ``posts``, never
    copied into this repository) and score them: the same plants whatever gate 2 now
    passes, so a change of the gate cannot change what is measured. Returns the scored
    posts and the rows that could not be planted (a post missing or edited)."""
    from pytest_postgates.post import parse_post

    planted: list[tuple[str, list[Invention], dict[str, Any]]] = []
    unplanted: list[str] = []
    with tempfile.TemporaryDirectory(prefix="postgates-table-") as scratch:
        for name, inventions in sorted(read_table(table).items()):
            stem = re.sub(r"-(?:keys|flags)$", "", Path(name).stem)
            source = posts / f"{stem}.md"
            if not source.is_file():
                unplanted.append(f"{name}: no such post in {posts}")
                continue
            post = parse_post(source)
            text = plant(post.text, inventions, post.body_start_line)
            if text is not None and name.endswith("-keys.md"):
                text = plant_keys(text, inventions)
            elif text is not None and name.endswith("-flags.md"):
                text = plant_flags(text, inventions)
            if text is None:
                unplanted.append(f"{name}: an original token is no longer where the table says")
                continue
            target = Path(scratch) / name
            target.write_text(text, encoding="utf-8")
            planted.append((name, inventions, run_gate(target, context)))
    return planted, unplanted


DEFAULT_TABLE = HERE / "labels" / "planted_inventions.tsv"


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=os.environ.get("POSTGATES_NEUROLINK"))
    parser.add_argument("--ref", default="release")
    parser.add_argument(
        "--posts", default=os.environ.get("POSTGATES_NEUROLINK_BLOG") or str(SHARED_POSTS)
    )
    parser.add_argument("--until", default=DEFAULT_UNTIL)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--per-post", type=int, default=9)
    parser.add_argument("--min-posts", type=int, default=40)
    parser.add_argument(
        "--per-post-context", type=int, default=2, help="listed-tool / namespaced-model plants"
    )
    parser.add_argument("--lint-prefix", default="neurolink")
    parser.add_argument("--lint-dir", default="eslint-rules")
    parser.add_argument("--verbose", action="store_true", help="list every invention")
    parser.add_argument("--json", type=Path, help="write the figures for the docs here")
    parser.add_argument("--keep", type=Path, help="write the planted posts and inventions here")
    parser.add_argument(
        "--judge",
        type=Path,
        help="only score the posts and inventions a --keep run wrote (with the code importable"
        " now, e.g. an older checkout on PYTHONPATH)",
    )
    parser.add_argument(
        "--table",
        type=Path,
        default=DEFAULT_TABLE,
        help="the committed inventions planted by default (drawn once; independent of the "
        "gate 2 being measured)",
    )
    parser.add_argument(
        "--draw",
        action="store_true",
        help="draw fresh inventions in the posts that pass gate 2 now (the bench before 2026-12)",
    )
    parser.add_argument("--write-table", type=Path, help="with --draw: write the drawn table here")
    parser.add_argument(
        "--config",
        type=Path,
        help="a file whose [tool.postgates] table is applied (bench/blog_team.toml)",
    )
    args = parser.parse_args(argv)
    if not args.repo:
        parser.error("--repo or $POSTGATES_NEUROLINK is required")
    repo_root = Path(args.repo)
    run = _results_run(args)
    context = gate_context(repo_root, args.ref, args.lint_prefix, args.lint_dir, args.config)
    unplanted: list[str] = []
    originals: list[Path] = []
    passing = -1
    if args.judge:
        planted = judge_kept(args.judge, context)
    elif args.draw or args.keep or args.write_table:
        planted, originals, passing = plant_all(args, repo_root, context)
    else:
        planted, unplanted = judge_table(args.table, Path(args.posts), context)
    by_shape: dict[str, Counter[str]] = defaultdict(Counter)
    misses: list[str] = []
    failing_after = 0
    for name, inventions, card in planted:
        failing_after += card["verdict"] != "PASS"
        for invention in inventions:
            outcome, why = outcome_of(card, invention.text)
            by_shape[invention.shape]["planted"] += 1
            if outcome == "ungrounded":
                by_shape[invention.shape]["caught"] += 1
            else:
                misses.append(
                    f"  {invention.shape:11} {invention.text!r} in {name}: {outcome} ({why})"
                )
            if args.verbose:
                change = f"{invention.original!r} -> {invention.text!r}"
                out(f"  {invention.shape:11} {change}: {outcome}")
    total = sum(c["planted"] for c in by_shape.values())
    caught = sum(c["caught"] for c in by_shape.values())
    if args.config:
        out(f"configuration: {args.config}")
    if args.judge:
        out(f"judging the posts kept in {args.judge}: {len(planted)}")
    elif passing < 0:
        header = args.table.read_text(encoding="utf-8").split("\n", 1)[0].lstrip("# ")
        out(f"the inventions of {args.table.name} ({header}): {len(planted)} posts planted")
        for row in unplanted:
            out(f"  NOT PLANTED {row}")
    else:
        out(
            f"posts dated up to {args.until}: {len(originals)}; passing gate 2 at {args.ref}: "
            f"{passing}; planted: {len(planted)} (seed {args.seed})"
        )
    out(f"{'shape':12} {'planted':>8} {'caught':>7} {'recall':>8}")
    for shape in (*SHAPES, *CONTEXT_SHAPES, KEY_SHAPE):
        counts = by_shape.get(shape, Counter())
        if counts["planted"]:
            share = counts["caught"] / counts["planted"] * 100
            out(f"{shape:12} {counts['planted']:8} {counts['caught']:7} {share:7.1f}%")
    share = caught / total * 100 if total else 0.0
    out(f"{'total':12} {total:8} {caught:7} {share:7.1f}%  (target >= 97%)")
    out(f"planted posts failing gate 2: {failing_after} / {len(planted)}")
    if misses:
        out("missed (outcome other than ungrounded):")
        for line in misses:
            out(line)
    if run is not None and args.json:
        record_figures(run, by_shape, len(originals), passing, len(planted), failing_after)
        run.write(args.json)
    if total < 300 or len(planted) < args.min_posts:
        out(f"WARNING: fewer than 300 inventions or {args.min_posts} posts")
        return 1
    return 0


def _results_run(args: argparse.Namespace) -> Any:
    """The results record of this run (bench/results_json.py), started before the work."""
    if not args.json:
        return None
    sys.path.insert(0, str(HERE.parent))
    from bench.results_json import Run

    return Run(
        "fabrication_recall",
        {"repo": str(args.repo), "ref": args.ref, "posts": str(args.posts), "until": args.until,
         "seed": args.seed, "per_post": args.per_post, "per_post_context": args.per_post_context,
         "config": str(args.config) if args.config else None},
    )  # fmt: skip


def record_figures(
    run: Any,
    by_shape: dict[str, Counter[str]],
    posts: int,
    passing: int,
    planted_posts: int,
    failing_after: int,
) -> None:
    """Recall per shape, and the posts before planting (all pass: the control) beside the
    planted posts that fail."""
    rows = run.table(
        "Inventions planted in posts that pass gate 2, share reported ungrounded",
        [{"name": "shape", "kind": "label"},
         {"name": "planted", "kind": "figure", "unit": "inventions"},
         {"name": "caught", "kind": "figure", "unit": "inventions"},
         {"name": "recall", "kind": "figure", "unit": "%"}],
    )  # fmt: skip
    for shape in (*SHAPES, *CONTEXT_SHAPES, KEY_SHAPE):
        counts = by_shape.get(shape, Counter())
        if counts["planted"]:
            share = round(100 * counts["caught"] / counts["planted"], 1)
            rows.append([shape, counts["planted"], counts["caught"], share])
    total = sum(c["planted"] for c in by_shape.values())
    caught = sum(c["caught"] for c in by_shape.values())
    rows.append(["total", total, caught, round(100 * caught / total, 1) if total else None])
    posts_rows = run.table(
        "Posts before and after planting",
        [{"name": "posts in the date range", "kind": "figure", "unit": "posts"},
         {"name": "passing gate 2 before planting", "kind": "control", "unit": "posts"},
         {"name": "planted", "kind": "figure", "unit": "posts"},
         {"name": "failing gate 2 after planting", "kind": "figure", "unit": "posts"}],
    )  # fmt: skip
    posts_rows.append([posts, passing, planted_posts, failing_after])


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    raise SystemExit(main())
