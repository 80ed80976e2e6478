"""The digest of the code that decides gate 2's results (gates/symbol_grounding.py keys its
cached results by it)."""

from __future__ import annotations

from pathlib import Path


def rules_digest(*gate_files: str) -> str:
    """A digest of the code that decides gate 2's results (the gate's modules,
    ``gate_files``, the rules and the models they read), read when the gate is imported, so
    that it is the source of the code that runs: a file edited while a run is under way
    must never file the old code's verdicts under the new code's key."""
    import hashlib

    from pytest_postgates import code_references, html_text, prose
    from pytest_postgates.evidence import (
        api_model,
        cli_model,
        cli_python,
        dependency_models,
        doc_versions,
        grounding,
        known_bases,
        model_facts,
        model_js,
        model_packages,
        model_python,
        name_spelling,
        type_model,
        type_tables,
    )
    from pytest_postgates.helpers import (
        anchor_rules,
        attribution_rules,
        command_lines,
        dependency_rules,
        grounding_rules,
        history_cues,
        model_grounding,
        outcome_rules,
        page_names,
        tokens,
        typed_keys,
        versioned_pages,
    )

    digest = hashlib.sha256()
    modules = (
        code_references,  # which references outside code spans are tokens
        html_text,
        prose,
        api_model,
        cli_model,  # the product's CLI: executables, commands, derived flags
        cli_python,
        anchor_rules,
        model_facts,
        model_js,
        model_packages,
        model_python,
        name_spelling,  # which spellings are near misses of the product's names
        model_grounding,
        command_lines,  # whose a flag on the page's command lines is
        doc_versions,  # the release a versioned page documents
        dependency_models,  # the declared dependencies' and the standard library's names
        dependency_rules,
        grounding,
        grounding_rules,
        history_cues,
        outcome_rules,
        attribution_rules,
        page_names,
        tokens,
        typed_keys,
        versioned_pages,  # a versioned page no release judges
        type_model,
        type_tables,
        known_bases,  # the types outside the product whose members and keys are known
    )
    for module_file in (*gate_files, *(module.__file__ or "" for module in modules)):
        digest.update(Path(module_file).read_bytes())
    return digest.hexdigest()[:16]
