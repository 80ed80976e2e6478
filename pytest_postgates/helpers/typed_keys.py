"""Gate 2's type-directed reading of the keys a post's own samples write in the product's
objects (issue 10): a key of an object of a closed product type is a claim about the
product (``closed_product_key``: never the post's own definition, an anchor). The
``free-form-record`` rule that read the same types the other way (a key of a free-form
record is the reader's data) was deleted in session 21: turned off, it changed no finding
held out. The repository's TypeScript decides, never the key's name:

1. the object literal's place: the argument of a call (``neurolink.generate({...})``), or
   a value annotated with a type (``const o: GenerateOptions = {...}``, ``{...} satisfies
   T``), or a variable the sample passes to a call; below it, the key path
   (``context``, ``input``, ``[]`` for an array element);
2. the call's declaration: the receiver made with ``new X()`` (or annotated ``: X``) in the
   sample, ``X`` imported from the product's package (or exported by its main entry),
   followed to the class or interface that declares the method
   (:mod:`pytest_postgates.evidence.type_model`, names followed as the files import them);
   a function imported from the product likewise;
3. the declared type of the parameter, then of the field at each key of the path.

The key is decided only when, in every declaration that can hold the object, its type is
a free-form record (``Record<string, unknown>``, ``Record<string, any>``, an index
signature ``{ [key: string]: unknown }``, or an alias that resolves to one, like
``StandardRecord``), and every occurrence of the name in the post's code samples is such a
key. A closed type (``input: { text, officeFiles }`` where ``input`` declares ``text``,
``csvFiles``, ``pdfFiles``, ``files``), a call or type that cannot be followed, a receiver
of unknown origin: nothing is decided and the token stays a claim. The caller runs the rule
only on tokens the post does not present as the product's API ("NeuroLink's `x` option").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_postgates.evidence.file_table import field_of, node_text
from pytest_postgates.evidence.grounding import quoted_source_file
from pytest_postgates.evidence.type_model import FreeForm, TypeModel
from pytest_postgates.evidence.type_shapes import TypeRef
from pytest_postgates.helpers.code_fences import fence_kind
from pytest_postgates.helpers.js_tree import named_nodes

if TYPE_CHECKING:
    from pytest_postgates.evidence.api_lookup import ApiLookup, Binding
    from pytest_postgates.evidence.index import RepoIndex
    from pytest_postgates.post import Fence, Post

Outcome = tuple[str, str, str]  # (outcome, rule, reason)
# A question about the type at a key path: (start type, key path, label) -> answer or None.
Ask = Callable[[TypeRef, tuple[str, ...], str], Any]
_KEY = re.compile(r"^[A-Za-z_$][\w$-]*$")
_PASS_THROUGH = frozenset({"parenthesized_expression", "await_expression", "as_expression"})


@dataclass
class ProductApi:
    """What the rule needs of the product for one repository commit: its package name,
    the module lookup (gate 15's), the type model and the parsers."""

    package: str
    lookup: ApiLookup
    model: TypeModel
    parsers: dict[str, Any]
    manifest: dict[str, Any]
    _modules: dict[str, str | None] = field(default_factory=dict)

    def module(self, specifier: str) -> str | None:
        """The source file a product specifier's module is read from (None: it does not
        resolve to a tracked source)."""
        if specifier not in self._modules:
            from pytest_postgates.evidence import resolution

            result = resolution.resolve_specifier(
                self.manifest, specifier, "import", False, self.lookup.files
            )
            path = None
            if result.ok and result.target is not None:
                path = self.lookup.source_for(result.target).path
            self._modules[specifier] = path
        return self._modules[specifier]

    def is_product(self, specifier: str) -> bool:
        return specifier == self.package or specifier.startswith(self.package + "/")


def product_api(index: RepoIndex, cache_dir: Any, package: str | None) -> ProductApi | None:
    """The product API of ``index``'s commit, built once per index (None: no package name,
    no manifest or no TypeScript grammar: the rule then decides nothing)."""
    if not package:
        return None
    memo = index.memo("typed_keys")
    key = (str(cache_dir), package)
    if key in memo:
        found: ProductApi | None = memo[key]
        return found
    from pytest_postgates.evidence import resolution, workspaces
    from pytest_postgates.evidence.api_lookup import ApiLookup
    from pytest_postgates.evidence.code_tables import code_tables
    from pytest_postgates.evidence.repomap import LANGUAGES, load_parsers

    api: ProductApi | None = None
    parsers = load_parsers()
    files = resolution.IndexFiles(index)
    try:
        manifest = resolution.read_manifest(files)
    except ValueError:
        manifest = None
    if isinstance(parsers, str):
        memo[("reason", *key)] = parsers
    elif not manifest:
        memo[("reason", *key)] = "no package.json at the ref"
    else:
        tables = code_tables(index, cache_dir)
        memo[("reason", *key)] = tables.reason or "the module tables are not available"
        if tables.available:
            lookup = ApiLookup(tables, files, manifest)
            # The repository's packages, the product's own included: its code imports its
            # own subpaths by name (`import type { NitroConfig } from "nitropack/types"`).
            own = workspaces.PackageSite(package, "", manifest)
            lookup.sites = {**workspaces.product_packages_of(index), package: own}

            def parser_for(path: str) -> Any:
                language = LANGUAGES.get("." + path.rsplit(".", 1)[-1].lower())
                return parsers.get(language) if language in ("typescript", "tsx") else None

            def code_parser_for(path: str) -> Any:
                language = LANGUAGES.get("." + path.rsplit(".", 1)[-1].lower())
                return parsers.get(language) if language == "javascript" else None

            types = TypeModel(lookup, parser_for, code_parser_for)
            api = ProductApi(package, lookup, types, parsers, manifest)
    memo[key] = api
    return api


def unavailable_reason(index: RepoIndex, cache_dir: Any, package: str | None) -> str:
    """Why :func:`product_api` has no answer for this index ("" when it has one or was
    never asked)."""
    memo = index.memo("typed_keys")
    key = (str(cache_dir), package)
    if not package or key not in memo or memo[key] is not None:
        return "no package name" if not package and key in memo else ""
    return str(memo.get(("reason", *key), ""))


# ---------------------------------------------------------------------- the post's samples


@dataclass
class _Sample:
    """One parsed code fence."""

    fence: Fence
    source: bytes
    root: Any

    def text(self, node: Any) -> str:
        return node_text(self.source, node)


class PostSamples:
    """The post's JavaScript/TypeScript fences, parsed once, with what they bind: names
    imported from the product, and instances the samples make with ``new``."""

    def __init__(self, post: Post, api: ProductApi, quoted: Any) -> None:
        self.api = api
        self.samples: list[_Sample] = []
        self.imports: dict[str, tuple[str, str]] = {}  # local -> (specifier, imported name)
        self.declared: set[str] = set()  # names the samples declare themselves
        self.instances: dict[str, set[str]] = {}  # receiver name -> class names
        for fence in post.fences:
            if fence_kind(fence) != "code" or quoted(fence.content):
                continue
            source = fence.content.encode("utf-8")
            parser = api.parsers.get("tsx" if fence.lang in ("tsx", "jsx") else "typescript")
            if parser is None:
                continue
            sample = _Sample(fence, source, parser.parse(source).root_node)
            self.samples.append(sample)
            self._bindings(sample)

    def _bindings(self, sample: _Sample) -> None:
        for node in named_nodes(sample.root):
            kind = node.type
            if kind == "import_statement":
                self._import(sample, node)
            elif kind in ("variable_declarator", "public_field_definition"):
                name = field_of(node, "name")
                if name is None or name.type not in ("identifier", "property_identifier"):
                    continue
                self._bind(
                    sample, sample.text(name), field_of(node, "value"), field_of(node, "type")
                )
            elif kind == "assignment_expression":
                left = field_of(node, "left")
                if left is not None and left.type == "member_expression":
                    left = field_of(left, "property")
                if left is not None and left.type in ("identifier", "property_identifier"):
                    self._bind(sample, sample.text(left), field_of(node, "right"), None)
            elif kind in ("function_declaration", "class_declaration"):
                name = field_of(node, "name")
                if name is not None:
                    self.declared.add(sample.text(name))

    def _import(self, sample: _Sample, node: Any) -> None:
        source = field_of(node, "source")
        if source is None:
            return
        specifier = sample.text(source)[1:-1]
        product = self.api.is_product(specifier)
        for item in named_nodes(node):
            if item.type == "import_specifier":
                name = field_of(item, "name")
                alias = field_of(item, "alias")
                if name is None:
                    continue
                imported = sample.text(name)
                local = sample.text(alias) if alias is not None else imported
                if product:
                    self.imports[local] = (specifier, imported)
                else:
                    self.declared.add(local)  # another package's: never the product's
            elif item.type in ("namespace_import", "import_clause") and not product:
                # `import X from "other"`, `import * as X from "other"`
                for child in item.named_children:
                    if child.type == "identifier":
                        self.declared.add(sample.text(child))

    def _bind(self, sample: _Sample, name: str, value: Any, annotation: Any) -> None:
        self.declared.add(name)
        classes = self.instances.setdefault(name, set())
        while value is not None and value.type in _PASS_THROUGH:
            value = value.named_children[0] if value.named_children else None
        if value is not None and value.type == "new_expression":
            constructor = field_of(value, "constructor")
            classes.add(sample.text(constructor) if constructor is not None else "?")
        elif annotation is not None and annotation.named_children:
            written = annotation.named_children[0]
            classes.add(sample.text(written) if written.type == "type_identifier" else "?")
        else:
            classes.add("?")  # bound to something the rule does not follow

    # ---------------------------------------------------------------- product names
    def binding(self, name: str) -> Binding | None:
        """Where a class, interface, function or type the sample names is declared in the
        product: imported from the product's package, else exported by its main entry when
        the sample does not declare the name itself."""
        from pytest_postgates.evidence.api_lookup import Binding

        if name in self.imports:
            specifier, imported = self.imports[name]
        elif name in self.declared:
            return None
        else:
            specifier, imported = self.api.package, name
        module = self.api.module(specifier)
        if module is None:
            return None
        found = self.api.lookup.find_export(module, imported)
        return found if isinstance(found, Binding) else None

    # ---------------------------------------------------------------- keys
    def key_nodes(self, key: str) -> tuple[list[tuple[_Sample, Any]], int]:
        """The object-literal keys named ``key`` in the samples, and how many times the
        name occurs in them as a word at all."""
        found: list[tuple[_Sample, Any]] = []
        words = 0
        pattern = re.compile(rf"(?<![\w$]){re.escape(key)}(?![\w$])")
        for sample in self.samples:
            content = sample.fence.content
            if key not in content:
                continue
            words += len(pattern.findall(content))
            for node in named_nodes(sample.root):
                if node.type == "shorthand_property_identifier" and sample.text(node) == key:
                    found.append((sample, node))
                elif node.type == "pair":
                    name = field_of(node, "key")
                    if name is None:
                        continue
                    written = sample.text(name)
                    if name.type == "string":
                        written = written[1:-1]
                    elif name.type != "property_identifier":
                        continue
                    if written == key:
                        found.append((sample, node))
        return found, words

    def place(self, sample: _Sample, key_node: Any, ask: Ask | None = None) -> Any:
        """What ``ask`` (by default :meth:`TypeModel.free_form_at`) answers for the type of
        the object literal holding ``key_node``, or None when it cannot be followed."""
        ask = ask or self.api.model.free_form_at
        path: list[str] = []
        node = key_node.parent  # the object literal
        while node is not None:
            parent = node.parent
            while parent is not None and parent.type in _PASS_THROUGH - {"as_expression"}:
                node, parent = parent, parent.parent
            if parent is None:
                return None
            if node.type != "object" and not path:
                return None
            if parent.type == "pair" and field_of(parent, "value") == node:
                key = field_of(parent, "key")
                if key is None or key.type not in ("property_identifier", "string"):
                    return None
                written = sample.text(key)
                path.insert(0, written[1:-1] if key.type == "string" else written)
                node = parent.parent
                continue
            if parent.type == "array":
                path.insert(0, "[]")
                node = parent
                continue
            if parent.type == "arguments":
                return self._argument(sample, parent, node, tuple(path), ask)
            if parent.type == "variable_declarator" and field_of(parent, "value") == node:
                annotation = field_of(parent, "type")
                if annotation is not None:
                    return self._annotated(sample, annotation, tuple(path), ask)
                name = field_of(parent, "name")
                if name is None or name.type != "identifier":
                    return None
                return self._passed_variable(sample, sample.text(name), tuple(path), ask)
            if parent.type == "satisfies_expression":
                satisfied = parent.named_children[-1] if parent.named_children else None
                return (
                    self._annotated(sample, satisfied, tuple(path), ask)
                    if satisfied is not None
                    else None
                )
            return None
        return None

    def _annotated(self, sample: _Sample, annotation: Any, path: tuple[str, ...], ask: Ask) -> Any:
        written = annotation
        if annotation.type == "type_annotation":
            written = annotation.named_children[0] if annotation.named_children else None
        if written is None or written.type != "type_identifier":
            return None
        name = sample.text(written)
        binding = self.binding(name)
        if binding is None or binding.kind not in ("type", "interface", "class"):
            return None
        start = TypeRef(("ref", binding.local, ()), binding.path)
        return ask(start, path, name)

    def _passed_variable(self, sample: _Sample, name: str, path: tuple[str, ...], ask: Ask) -> Any:
        """`const options = {...}; neurolink.generate(options)`: every call the fence passes
        the variable to must decide the same way."""
        answers: list[Any] = []
        for node in named_nodes(sample.root):
            if node.type != "arguments":
                continue
            for argument in node.named_children:
                if argument.type == "identifier" and sample.text(argument) == name:
                    answers.append(self._argument(sample, node, argument, path, ask))
        if not answers or not all(answers):
            return None
        return answers[0]

    def _argument(
        self, sample: _Sample, arguments: Any, argument: Any, path: tuple[str, ...], ask: Ask
    ) -> Any:
        call = arguments.parent
        if call is None or call.type != "call_expression":
            return None
        position = next((i for i, a in enumerate(arguments.named_children) if a == argument), None)
        if position is None:
            return None
        callee = field_of(call, "function")
        if callee is None:
            return None
        if callee.type == "member_expression":
            receiver = field_of(callee, "object")
            method = field_of(callee, "property")
            if receiver is None or method is None:
                return None
            owner = self._receiver_class(sample, receiver)
            if owner is None:
                return None
            container, method_name = owner, sample.text(method)
        elif callee.type == "identifier":
            container, method_name = None, sample.text(callee)
        else:
            return None
        if container is None:
            binding = self.binding(method_name)
            if binding is None or binding.kind not in ("function", "const", "value"):
                return None
            found = self.api.model.signatures(binding.path, "", binding.local)
            label = f"{method_name}()"
        else:
            binding = self.binding(container)
            if binding is None or binding.kind not in ("class", "interface"):
                return None
            found = self.api.model.signatures(binding.path, binding.local, method_name)
            label = f"{container}.{method_name}()"
        if found is None:
            return None
        path_of, signatures = found
        answers = []
        for signature in signatures:
            if position >= len(signature.params):
                return None
            parameter = signature.params[position]
            if parameter.type is None or parameter.rest:
                return None
            start = TypeRef(parameter.type, path_of)
            answer = ask(start, path, f"the parameter of {label}")
            if not answer:
                return None
            answers.append(answer)
        if not answers:
            return None
        if isinstance(answers[0], FreeForm):
            answers[0].call = label
        return answers[0]

    def _receiver_class(self, sample: _Sample, receiver: Any) -> str | None:
        """The class of a call's receiver: an instance the samples make with ``new X()``
        (or annotate ``: X``), everywhere bound the same way."""
        if receiver.type == "new_expression":
            constructor = field_of(receiver, "constructor")
            return sample.text(constructor) if constructor is not None else None
        if receiver.type == "member_expression":
            head = field_of(receiver, "object")
            if head is None or head.type != "this":
                return None
            receiver = field_of(receiver, "property")
        if receiver is None or receiver.type not in ("identifier", "property_identifier"):
            return None
        classes = self.instances.get(sample.text(receiver), set())
        if len(classes) != 1 or "?" in classes:
            return None
        return next(iter(classes))


# ---------------------------------------------------------------------- the rule


@dataclass
class TypedKeys:
    """The rule for one post: its samples are parsed the first time a token asks."""

    post: Post
    index: RepoIndex
    # Built the first time a token reaches the rule (most posts never need it).
    make_api: Callable[[], ProductApi | None]
    why_not: Callable[[], str] | None = None  # why make_api had no answer
    api: ProductApi | None = None
    _samples: PostSamples | None = None
    _asked: bool = False

    def samples(self) -> PostSamples | None:
        if not self._asked:
            self._asked = True
            self.api = self.make_api()
            if self.api is not None:
                self._samples = PostSamples(self.post, self.api, self._quotes_product)
        return self._samples

    def _quotes_product(self, content: str) -> bool:
        """A fence whose first comment names a file of the product's tree is the product's
        code quoted, not the post's sample."""
        return any(
            self.index.match_path(name.removeprefix("./"))
            or self.index.match_filename(name.rsplit("/", 1)[-1])
            for name in quoted_source_file(content)
        )

    def unavailable(self) -> str:
        """Why the rule was asked and could not read the product's types ("" otherwise)."""
        if not self._asked or self.api is not None or self.why_not is None:
            return ""
        return self.why_not() or "the product's types could not be read"

    def save(self) -> None:
        """Keep the module tables the lookups parsed (gate 15's cache file)."""
        if self.api is not None and self._samples is not None:
            self.api.lookup.tables.save()


def _key_occurrences(
    text: str, kind: str, keys: TypedKeys | None
) -> tuple[PostSamples, list[tuple[_Sample, Any]], int] | None:
    """The post's samples and the key nodes spelling ``text`` (with the count of every
    use of the word), or None when ``text`` cannot be a sample's key at all."""
    if keys is None or kind != "symbol" or not _KEY.match(text):
        return None
    if not any(text in fence.content for fence in keys.post.fences):
        return None
    samples = keys.samples()
    if samples is None:
        return None
    found, words = samples.key_nodes(text)
    return samples, found, words


def closed_product_key(text: str, kind: str, keys: TypedKeys | None) -> str | None:
    """Why a name the post's samples write as a key is a claim about the product: one
    of its occurrences is a key of an object whose declared product type is closed (an
    option of `generate()`), so no post definition rule may take it as the post's own;
    None when no occurrence can be followed to a closed product type."""
    occurrences = _key_occurrences(text, kind, keys)
    if occurrences is None:
        return None
    samples, found, _words = occurrences
    model = samples.api.model
    for sample, node in found:
        answer = samples.place(sample, node, model.closed_at)
        if answer:
            line = sample.fence.start_line + node.start_point[0] + 1
            return f"the sample writes it (line {line}) as a key of `{answer}`, a closed type"
    return None
