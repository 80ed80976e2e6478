"""What the docs' own samples bind a name to, for gate 15's reading of a page that uses
the name without binding it (``orm.em.flush()`` where another page of the same folder
shows ``const orm = await MikroORM.init({...})``).

Every JavaScript/TypeScript fence of the other pages in the page's folder is read as the
page's are (:class:`~pytest_postgates.helpers.js_samples.JsSample`, with a report of its
own that no card shows), and each binding of a name there is recorded with the product
type the reader gives its value: a declaration, an assignment, an import, a parameter, a
function or class the sample declares. The page's own bindings, where it has any, decide
alone, however many fences the folder has (the page's narrative binds the name where it
uses it: the guide page that inits a SQLite ORM means that one); else the folder's. A name
all of whose bindings give one product type is typed so
(:func:`~pytest_postgates.helpers.js_unbound.conventional`), citing the first binding
(file:line). Bindings that give several product types type it by their nearest common
product base in the model's class hierarchy (``MikroORM`` for ``MikroORM`` and
``SqliteMikroORM``), so a member the base lacks is judged as on the base: unjudged where a
product type below it declares it
(:meth:`~pytest_postgates.helpers.js_types.JsTypes.declared_below`: every binding's type is
one, and what a TypeScript class has beyond its base it declares itself), a finding only
where none does; with no one nearest common base the name is unknown, the types listed as
the reason. Any binding the reader does not type (a parameter without an annotation,
another package's import, a function of the page's) leaves the name untyped. Code only:
what the pages' prose says is not read."""

from __future__ import annotations

import hashlib
import posixpath
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.helpers.js_comments import read_comments
from pytest_postgates.helpers.js_tree import node_text, pattern_names
from pytest_postgates.helpers.sample_checks import (
    ASSUMED_FROM_NAME,
    CODE_NAMED,
    OPEN_TYPE,
    SampleValue,
)
from pytest_postgates.post import Fence, ParsedAhead, PostRefused, is_markdown, parse_post

if TYPE_CHECKING:
    from pytest_postgates.helpers.js_reading import FenceReading
    from pytest_postgates.helpers.js_types import Cls, JsTypes

# The origin of a value typed by the docs' bindings (sample_checks.SampleValue.origin).
DOCS_BOUND = "typed as the docs' own samples bind it"
# A folder of more pages than this is not read (its names stay untyped), nor a name that
# more fences than this write.
MAX_PAGES = 400
MAX_FENCES = 200
_PARAMETERS = {
    "required_parameter": "pattern",
    "optional_parameter": "pattern",
    "arrow_function": "parameter",
    "for_in_statement": "left",
    "catch_clause": "parameter",
}
_DECLARED = frozenset({"function_declaration", "class_declaration"})
# An identifier: a name the index of a folder's words of code answers (DocsNames._holding).
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# A run's pages read from disk, by (resolved path, size, time of change): whether parsing
# found problems, and the fences (:func:`_disk_page`).
DiskPages = dict[tuple[str, int, int], tuple[bool, tuple[Fence, ...]]]
# A binding's product type (and whether it is open: a type parameter's default), or None.
Key = tuple["Cls", bool] | None


@dataclass(frozen=True)
class DocsName:
    """A name every binding of which in the docs' samples gives one product type, or
    product types whose nearest common base is one (``base_of``: the types, as shown)."""

    cls: Cls
    where: str  # the first binding: file:line
    open_type: bool  # reached through a type parameter read as its default
    base_of: str = ""

    def value(self, name: str) -> SampleValue:
        common = f"; {self.base_of}: their nearest common base is {self.cls[0]}"
        origin = f"{OPEN_TYPE}; " * self.open_type + f"{DOCS_BOUND} ({name} at {self.where}"
        return SampleValue("typed", self.cls[1], self.cls[0],
                           origin=origin + common * bool(self.base_of) + ")")  # fmt: skip


@dataclass(frozen=True)
class Unbased:
    """A name the docs' samples bind to product types with no one nearest common base."""

    why: str

    def value(self, name: str) -> SampleValue:
        return SampleValue("unknown", origin=f"{name} is never bound in the page's samples; "
                           f"the docs' samples bind it to {self.why}")  # fmt: skip


def common_base(types: JsTypes, classes: list[Cls]) -> Cls | None:
    """The nearest product class or type every one of ``classes`` is or extends, in the
    model's class hierarchy (:meth:`JsTypes.lineage`): of the types all their lineages
    share, the one no other shared type extends; None when there is none, or several
    (two interfaces a class implements both)."""
    lineages = [[(e.name, e.path) for e in types.lineage(cls)] for cls in classes]
    if any(not lineage for lineage in lineages):
        return None
    shared = set(lineages[0]).intersection(*lineages[1:])
    below = {base for cls in shared for base in [(e.name, e.path) for e in types.lineage(cls)][1:]}
    nearest = shared - below
    return nearest.pop() if len(nearest) == 1 else None


def carried(origin: str, open_type: bool) -> str:
    """The origin a value reached from one of ``origin`` has: assumed from the name stays
    so; open when either is (a type parameter's default), the docs' binding still cited."""
    if origin == ASSUMED_FROM_NAME or origin.startswith(CODE_NAMED):
        return origin
    cited = origin[origin.index(DOCS_BOUND) :] if DOCS_BOUND in origin else ""
    opened = OPEN_TYPE if open_type or origin.startswith(OPEN_TYPE) else ""
    return "; ".join(part for part in (opened, cited) if part)


def cited(origin: str) -> str:
    """The docs' binding or the code's declarations an origin cites, as a reason ends
    with ("" when none)."""
    if origin.startswith(CODE_NAMED):
        return f"; {origin}"
    return f"; {origin[origin.index(DOCS_BOUND) :]}" if DOCS_BOUND in origin else ""


class Recording(Protocol):
    """A fence reader that records the bindings it reads."""

    bindings: list[tuple[str, int, Key]] | None

    def types(self) -> JsTypes | None: ...

    def fence(self, content: str, first_line: int, tsx: bool, typescript: bool = False) -> None: ...


def record(sample: FenceReading, node: Any, bindings: list[tuple[str, int, Key]]) -> None:
    """The names ``node`` binds (read by the fence reader just before), each with the
    product type the reader gave it (None: none, or not a product type)."""
    kind = node.type
    for name in _targets(node):
        local = node_text(sample.source, name)
        held = None if kind in _DECLARED else sample.values.get(local)
        bindings.append((local, sample.line(name), _key(sample, held)))


def _targets(node: Any) -> list[Any]:
    """The identifier nodes ``node`` binds (none: it is no binding)."""
    kind = node.type
    if kind == "variable_declarator":
        target = node.child_by_field_name("name")
    elif kind == "assignment_expression":
        target = node.child_by_field_name("left")
        target = target if target is not None and target.type == "identifier" else None
    elif kind in _PARAMETERS:
        target = node.child_by_field_name(_PARAMETERS[kind])
    elif kind == "import_statement":
        target = next((c for c in node.named_children if c.type == "import_clause"), None)
    elif kind in _DECLARED:
        target = node.child_by_field_name("name")
    else:
        return []
    if target is None:
        return []
    return [target] if target.type == "identifier" else pattern_names(target)


def binders(content: str, tsx: bool, parsers: Mapping[str, Any]) -> frozenset[str]:
    """Every name a node of the fence's tree binds as :func:`record` reads bindings (the
    fence as the reader parses it: its commented-out code uncommented), whatever the
    reader holds: the names a reading of the fence can record, and more (a fence the
    reader does not walk records none)."""
    parser = parsers["tsx" if tsx else "typescript"]
    source = read_comments(content, 1, parser, []).encode("utf-8")
    stack: list[Any] = [parser.parse(source).root_node]
    found: set[str] = set()
    while stack:
        node = stack.pop()
        found.update(node_text(source, name) for name in _targets(node))
        stack.extend(node.named_children)
    return frozenset(found)


def _key(sample: FenceReading, held: SampleValue | None) -> Key:
    if held is None:
        return None
    if held.kind == "typed" and held.origin in ("", OPEN_TYPE) and held.name:
        return (held.name, held.module), held.origin == OPEN_TYPE
    if held.kind == "instance":
        cls = sample.class_of(held)
        return (cls, False) if cls is not None else None
    return None


class DocsNames:
    """What the samples of the pages in a page's folder (the page's own included: where it
    binds a name in one place it may use it unbound in another) bind a name to, asked name
    by name: the fences that write the name are read (by a fresh ``reader`` per page, in
    page order; a fence not writing it binds it nowhere), and every binding of it recorded.
    A page is read as it is on disk, else as the repository has it at the ref (``at_ref``:
    file name -> text, the folder's pages there when the page is the repository's). A name
    more than :data:`MAX_FENCES` fences write is read on the asking page only (untyped
    unless the page binds it), and no name in a folder of more than :data:`MAX_PAGES`
    pages."""

    def __init__(
        self, page: Path, root: Path, at_ref: Callable[[], dict[str, str]],
        reader: Callable[[], Recording], parsers: Mapping[str, Any] | None = None,
        disk_pages: DiskPages | None = None,
    ) -> None:  # fmt: skip
        self.page, self.root, self.at_ref, self.reader = page, root, at_ref, reader
        # The parsers the reader parses with (:func:`binders`; None: every fence is read).
        self.parsers = parsers
        self.disk_pages = disk_pages  # the run's pages read from disk (:func:`_disk_page`)
        self._binders: dict[tuple[str, bool], frozenset[str]] = {}
        self._pages: list[tuple[str, list[Fence]]] | None = None
        self._names: dict[str, DocsName | Unbased | None] = {}  # by the folder's bindings
        self._own: dict[tuple[str, str], tuple[list[tuple[str, Key]], JsTypes | None]] = {}
        self._writing: dict[str, list[tuple[str, list[Fence]]]] = {}
        self._decided: dict[tuple[str, str], DocsName | Unbased | None] = {}  # by the page's own
        self._declared: dict[str, bool] = {}  # whether a fence declares the name
        # The folder's fences by each word of code they hold (:meth:`_holding`).
        self._words: dict[str, list[tuple[int, Fence]]] | None = None
        # What a reader recorded in a page's fences, by the page and the fences read.
        self._readings: dict[
            tuple[str, tuple[int, ...]], tuple[list[tuple[str, int, Key]], JsTypes | None]
        ] = {}

    def __call__(self, name: str, page: Path | None = None) -> DocsName | Unbased | None:
        """What ``page`` (the folder's first page asked about, by default) holds in ``name``
        where it uses it unbound: by its own bindings where it has any, else the folder's."""
        where = page or self.page
        shown = (
            where.relative_to(self.root).as_posix()
            if where.is_relative_to(self.root)
            else where.name
        )
        own, types = self._bindings(name, shown)
        if own:
            if (name, shown) not in self._decided:
                self._decided[(name, shown)] = _decided(own, types)
            return self._decided[(name, shown)]
        if name not in self._names:
            self._names[name] = self._typed(name)
        return self._names[name]

    def value(self, name: str, page: Path | None = None) -> SampleValue | None:
        """What the page's unbound ``name`` holds by the docs' bindings (None: untyped)."""
        found = self(name, page)
        return found.value(name) if found is not None else None

    def declared(self, name: str) -> bool:
        """Whether a fence of the folder declares ``name`` with a value (a cheap test of
        whether the name may be typed at all)."""
        if name not in self._declared:
            declared = re.compile(rf"\b(?:const|let|var)\s+{re.escape(name)}\s*[:=]")
            self._declared[name] = any(
                declared.search(f.content) for f in self._fences_naming(name)
            )
        return self._declared[name]

    def _fences_naming(self, name: str) -> list[Fence]:
        """The folder's fences whose text holds ``name`` at all (the patterns that find a
        name need its text: a substring test first leaves most fences out)."""
        holding = self._holding(name)
        if holding is not None:
            return [f for _, f in holding if name in f.content]
        return [f for _, fences in self._read() for f in fences if name in f.content]

    def _holding(self, name: str) -> list[tuple[int, Fence]] | None:
        """The folder's fences that hold ``name`` as a word of code (the page's place in
        :meth:`_read`, the fence), in page and fence order, from an index of the folder's
        words made once; None when ``name`` is no identifier (then every fence is tested).
        Every fence the patterns of :meth:`declared` and :meth:`_chosen` find an identifier
        in holds it so: both need what is before it and after it not to continue it."""
        if not _WORD.fullmatch(name):
            return None
        if self._words is None:
            words: dict[str, list[tuple[int, Fence]]] = {}
            for at, (_, fences) in enumerate(self._read()):
                for fence in fences:
                    held = (at, fence)  # one entry a fence, under each of its words
                    for word in set(_WORD.findall(fence.content)):
                        words.setdefault(word, []).append(held)
            self._words = words
        return self._words.get(name, [])

    def _read(self) -> list[tuple[str, list[Fence]]]:
        if self._pages is None:
            self._pages = _pages(self.page, self.root, self.at_ref, self.disk_pages) or []
        return self._pages

    def _chosen(self, name: str) -> list[tuple[str, list[Fence]]]:
        """Each page with its fences that write ``name``."""
        if name not in self._writing:
            word = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
            holding = self._holding(name)
            if holding is None:
                self._writing[name] = [
                    (shown, [f for f in fences if name in f.content and word.search(f.content)])
                    for shown, fences in self._read()
                ]
                return self._writing[name]
            # Only the pages with a fence that writes it: a page with none binds it nowhere.
            pages = self._read()
            writing: dict[int, list[Fence]] = {}
            for at, fence in holding:
                if name in fence.content and word.search(fence.content):
                    writing.setdefault(at, []).append(fence)
            self._writing[name] = [(pages[at][0], fences) for at, fences in writing.items()]
        return self._writing[name]

    def _typed(self, name: str) -> DocsName | Unbased | None:
        chosen = self._chosen(name)
        if sum(len(fences) for _, fences in chosen) > MAX_FENCES:
            return None
        bindings: list[tuple[str, Key]] = []
        types: JsTypes | None = None
        for shown, fences in chosen:
            if not fences:
                continue  # no fence of the page writes the name: it binds it nowhere
            found, typed = self._bindings(name, shown, fences)
            bindings += found
            types = types or typed
            if any(key is None for _, key in found):
                return None  # one untyped binding leaves it untyped (_decided): read no more
        return _decided(bindings, types)

    def _bindings(
        self, name: str, page: str, writing: list[Fence] | None = None
    ) -> tuple[list[tuple[str, Key]], JsTypes | None]:
        """Every binding of ``name`` in the fences of the folder's page shown as ``page``
        (file:line, the product type given), and the model's types the reader typed them
        with (None: no fence of the page writes the name). ``writing``: the page's fences
        that write the name, where the caller has them (else found in :meth:`_chosen`)."""
        if (name, page) not in self._own:
            fences = (
                writing
                if writing is not None
                else next((f for shown, f in self._chosen(name) if shown == page), [])
            )
            bindings: list[tuple[str, Key]] = []
            types: JsTypes | None = None
            fences = self._through_last_binder(name, fences)
            if fences:
                found, types = self._reading(page, fences)
                bindings = [(f"{page}:{line}", key) for local, line, key in found if local == name]
            self._own[(name, page)] = bindings, types
        return self._own[(name, page)]

    def _through_last_binder(self, name: str, fences: list[Fence]) -> list[Fence]:
        """``fences`` up to the last that can bind ``name`` (:func:`binders`), none when
        none can: a reader records a binding as it reads it, so the fences after the last
        that binds the name change none of its bindings, and fences none of which binds it
        give none to read."""
        if self.parsers is None:
            return fences
        last = 0
        for at, fence in enumerate(fences, 1):
            tsx = fence.lang in ("tsx", "jsx")
            if (fence.content, tsx) not in self._binders:
                self._binders[(fence.content, tsx)] = binders(fence.content, tsx, self.parsers)
            last = at if name in self._binders[(fence.content, tsx)] else last
        return fences[:last]

    def _reading(
        self, page: str, fences: list[Fence]
    ) -> tuple[list[tuple[str, int, Key]], JsTypes | None]:
        """Every binding a fresh reader records in ``fences`` of the page shown as
        ``page`` (local, line, key), and the types it typed them with: read once for the
        names whose fences they are alike (a page's one fence writes many names)."""
        at = (page, tuple(fence.start_line for fence in fences))
        if at not in self._readings:
            sample = self.reader()
            found: list[tuple[str, int, Key]] = []
            sample.bindings = found
            for fence in fences:
                typescript = fence.lang in ("ts", "typescript", "tsx", "mts", "cts")
                sample.fence(fence.content, fence.start_line + 1,
                             fence.lang in ("tsx", "jsx"), typescript)  # fmt: skip
            self._readings[at] = found, sample.types()
        return self._readings[at]


def _decided(bindings: list[tuple[str, Key]], types: JsTypes | None) -> DocsName | Unbased | None:
    """The type ``bindings`` (file:line, key) give a name: their one type, else their
    nearest common base (:func:`common_base`); None when there are none or one is untyped."""
    keys = list(dict.fromkeys(key for _, key in bindings))
    if not keys or None in keys:
        return None
    typed = [key for key in keys if key is not None]
    open_type = any(opened for _, opened in typed)
    classes = list(dict.fromkeys(cls for cls, _ in typed))
    if len(classes) == 1:
        return DocsName(classes[0], bindings[0][0], open_type)
    firsts = {cls: next(w for w, k in bindings if k is not None and k[0] == cls) for cls in classes}
    listed = ", ".join(f"{cls[0]} ({firsts[cls]})" for cls in classes)
    base = common_base(types, classes) if types is not None else None
    if base is None:
        return Unbased(f"{listed}, which have no one nearest common product base")
    return DocsName(base, bindings[0][0], open_type, listed)


def _pages(
    page: Path, root: Path, at_ref: Callable[[], dict[str, str]], kept: DiskPages | None = None
) -> list[tuple[str, list[Fence]]] | None:
    """The JavaScript/TypeScript fences of each page of ``page``'s folder (None: a page
    could not be read, or there are too many)."""
    folder = page.parent
    try:
        on_disk = {p.name: p for p in folder.iterdir() if p.is_file() and is_markdown(p)}
    except OSError:
        return None
    at = at_ref()
    names = sorted({*on_disk, *at})
    if len(names) > MAX_PAGES:
        return None
    pages: list[tuple[str, list[Fence]]] = []
    for name in names:
        path = folder / name
        try:
            if name in on_disk:
                problems, read = _disk_page(path, kept)
            else:
                post = parse_post(path, at[name].encode())
                problems, read = bool(post.problems), tuple(post.fences)
        except (PostRefused, OSError, ValueError):
            return None  # a page not read may bind any name otherwise: none is typed
        if problems and not read:
            return None
        shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else name
        fences = sorted(read, key=lambda f: f.start_line)
        pages.append((shown, [f for f in fences if fence_kind(f) == "code"]))
    return pages


def _disk_page(
    path: Path, kept: DiskPages | None, ahead: ParsedAhead | None = None
) -> tuple[bool, tuple[Fence, ...]]:
    """Whether :func:`~pytest_postgates.post.parse_post` finds problems in the page on
    disk, and its fences; ``kept``: the run's pages already read (a run's cache keys stamp
    the folder's pages, then its readings read them: one parse for both), by the key
    :mod:`.fence_stamps` keeps a page's stamp by; ``ahead``: where a page parsed is
    offered to the runner's parse of it (:class:`~pytest_postgates.post.ParsedAhead`)."""
    try:
        status = path.stat()
        key = (str(path.resolve()), status.st_size, status.st_mtime_ns)
    except OSError:
        key = None
    found = kept.get(key) if kept is not None and key is not None else None
    if found is None:
        post = ahead.parse(path, parse_post) if ahead is not None else parse_post(path)
        found = bool(post.problems), tuple(post.fences)
        if kept is not None and key is not None:
            kept[key] = found
    return found


def pages_at_ref(root: Path, commit: str, paths: list[str], folder: str) -> dict[str, str]:
    """The markdown pages of ``folder`` in the repository at ``commit`` (file name ->
    text), read with git: the repository's index leaves the docs' own pages out."""
    found: dict[str, str] = {}
    for path in paths:
        if posixpath.dirname(path) != folder or not is_markdown(Path(path)):
            continue
        shown = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{path}"],
                               capture_output=True, check=False)  # fmt: skip
        if shown.returncode == 0:
            found[posixpath.basename(path)] = shown.stdout.decode("utf-8", "replace")
    return found


def fences_stamp(
    path: Path, kept: DiskPages | None = None, ahead: ParsedAhead | None = None
) -> str:
    """What :func:`_pages` reads of one page (:func:`~pytest_postgates.helpers.
    fence_stamps.folder_stamp` keys a folder's cached results by it): its JavaScript/
    TypeScript fences with the lines the bindings cite, the untagged ones too (a reader may
    take them for code), and whether it could be read. An edit of its prose, or of a fence
    in another language, that moves no such fence leaves it as it was."""
    try:
        problems, fences = _disk_page(path, kept, ahead)
    except (PostRefused, OSError, ValueError):
        return "refused"
    if problems and not fences:
        return "unread"  # :func:`_pages` reads no binding of the folder then
    digest = hashlib.sha256()
    for fence in sorted(fences, key=lambda f: f.start_line):
        if fence_kind(fence) == "code" or not fence.lang:
            digest.update(f"{fence.start_line}\0{fence.info}\0{fence.content}\0".encode())
    return digest.hexdigest()[:16]
