"""Gate 2's clearing rules as data: the steps that decide a token neither the API model nor
the product's code decided, by what the page says of it (another party's, an example, not
a name at all). Each entry names the rule a scorecard entry carries as its ``rule``, what
it decides, why, its test and what turning it off changed held out; every one can be
turned off with ``symbol_rules_off`` (an ablation: bench/ablation.py), and the next step of
gate 2's chain then decides the token.

The code of each rule lives where it did (helpers/outcome_rules.py: the not-a-reference
rules and router-variant; helpers/attribution_rules.py: the attribution rules, number
spelling and link labels; helpers/typed_keys.py: free-form records); this table is what a
reader and the ablation bench see of them.
"""

from __future__ import annotations

from pytest_postgates.helpers.rule import Rule

_OUTCOMES = "tests/test_gate_symbol_grounding_outcomes.py"
_ATTRIBUTION = "tests/test_gate_symbol_grounding_attribution.py"
_NOT_A_REFERENCE = f"{_OUTCOMES}::test_not_a_reference_rules"
_OFF = "::test_a_clearing_rule_turned_off_leaves_the_token_to_the_next_step"


def _rule(name: str, decides: str, why: str, tests: str) -> Rule:
    """A table entry; its tests: the rule's own, and its test turned off (in the same file)."""
    return Rule(name, decides, why, f"{tests}; {tests.split('::')[0]}{_OFF}")


RULES = (
    # Not a reference (outcome_rules.not_a_reference): what the token is, read off its shape
    # and the words around it.
    _rule(
        "command",
        "not-a-reference",
        "a command line of a shell tool (`git blame x`), not a repository name",
        _NOT_A_REFERENCE,
    ),
    _rule(
        "builtin",
        "not-a-reference",
        "a built-in method or a known member of a runtime global (`.map()`, `JSON.parse`)",
        _NOT_A_REFERENCE,
    ),
    _rule("markup", "not-a-reference", "a LaTeX command, not a name", _NOT_A_REFERENCE),
    _rule("syntax", "not-a-reference", "language keywords (`if/else`)", _NOT_A_REFERENCE),
    _rule(
        "other-package",
        "not-a-reference",
        "a package of another npm scope than the product's",
        _NOT_A_REFERENCE,
    ),
    _rule(
        "placeholder",
        "not-a-reference",
        "a placeholder the reader fills in (`<provider>`, `YOUR_API_KEY`, `OPS-1234`)",
        _NOT_A_REFERENCE,
    ),
    _rule("glob", "not-a-reference", "a file-name pattern (`*.pb.go`)", _NOT_A_REFERENCE),
    _rule(
        "reader-file",
        "not-a-reference",
        "a file the sentence says the reader creates in their own repository",
        _NOT_A_REFERENCE,
    ),
    _rule(
        "negated",
        "not-a-reference",
        "the sentence says the name does not exist (`there is no x`)",
        _NOT_A_REFERENCE,
    ),
    _rule(
        "hypothetical",
        "not-a-reference",
        "the sentence presents the name as an example (`a tool named x`, `e.g. x`)",
        _NOT_A_REFERENCE,
    ),
    # Attribution (attribution_rules.attribute): whose thing the sentence or sample says it is.
    _rule(
        "third-party-server-tool",
        "unjudged",
        "a tool listed under a heading that names another scope's MCP server package",
        f"{_ATTRIBUTION}::test_tools_listed_under_another_partys_server_are_unjudged",
    ),
    _rule(
        "vendor",
        "unjudged",
        "the clause gives the token to another named party (a possessive, the party's name "
        "before it)",
        f"{_ATTRIBUTION}::test_another_partys_names_are_unjudged_with_the_rule",
    ),
    _rule(
        "third-party-package",
        "unjudged",
        "a package the sentence names as one of a kind, or installs, of another scope, or "
        "rooted in a declared dependency",
        f"{_ATTRIBUTION}::test_install_commands_of_another_partys_package_are_unjudged",
    ),
    _rule(
        "quoted-source",
        "unjudged",
        "the token restates the page's own block quotation of a source",
        f"{_ATTRIBUTION}::test_a_restatement_of_the_posts_quotation_is_unjudged_unless_it_quotes"
        "_the_product",
    ),
    _rule(
        "spelling-variant",
        "not-a-reference",
        "one of three or more spellings of one name listed together, another of which grounds",
        f"{_ATTRIBUTION}::test_examples_the_sentence_gives_are_not_references",
    ),
    _rule(
        "sample-input",
        "not-a-reference",
        "a bare name the page's own sample passes in and never declares, or a bare word in "
        "a JSON sample",
        f"{_ATTRIBUTION}::test_the_samples_own_values_and_free_form_keys",
    ),
    _rule(
        "example-clause",
        "not-a-reference",
        "a clause opened by an example cue puts the token on another party's server",
        f"{_ATTRIBUTION}::test_examples_the_sentence_gives_are_not_references",
    ),
    _rule(
        "example-instance",
        "not-a-reference",
        "an indefinite article makes the token one call of a tool, in a paragraph about tools",
        f"{_ATTRIBUTION}::test_examples_the_sentence_gives_are_not_references",
    ),
    _rule(
        "router-variant-example",
        "unjudged",
        "an example id of an OpenRouter model variant the sentence describes, where the "
        "product routes through OpenRouter",
        f"{_ATTRIBUTION}::test_another_partys_names_are_unjudged_with_the_rule",
    ),
    _rule(
        "router-variant",
        "unjudged",
        "an OpenRouter variant suffix on a model id the repository writes",
        f"{_OUTCOMES}::test_an_openrouter_variant_of_a_catalogue_id_is_unjudged_and_nothing_else_is",
    ),
    _rule(
        "number-spelling",
        "grounded",
        "a number with digit separators that the code writes in another spelling (`128_000`)",
        f"{_ATTRIBUTION}::test_a_number_in_another_spelling_grounds_with_the_rule_named",
    ),
    _rule(
        "free-form-record",
        "not-a-reference",
        "a key the page's sample writes in an object the product types as a free-form record",
        "tests/test_gate_symbol_grounding_typed_keys.py::test_a_key_of_an_object_the_product"
        "_types_free_form_is_the_readers_data",
    ),
)

NAMES = frozenset(rule.name for rule in RULES)
