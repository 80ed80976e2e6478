"""The digest of the code that decides gate 15's results (gates/code_samples.py keys its
cached results by it)."""

from __future__ import annotations

from pathlib import Path


def rules_digest(*gate_files: str) -> str:
    """A digest of the code that decides gate 15's results (the gate's modules,
    ``gate_files``, the sample readers and checks, the API tables and lookup): a cached
    result from another version of the rules is not reused."""
    import hashlib

    from pytest_postgates.evidence import (
        api_lookup,
        api_model,
        build_entries,
        cli_model,
        cli_python,
        code_surface,
        code_tables,
        dependency_models,
        dependency_versions,
        doc_versions,
        known_bases,
        model_facts,
        model_js,
        model_python,
        past_releases,
        public_functions,
        read_keys,
        resolution,
        type_model,
        type_tables,
        workspaces,
    )
    from pytest_postgates.helpers import (
        code_fences,
        command_lines,
        config_samples,
        help_listings,
        js_callbacks,
        js_comments,
        js_docs_names,
        js_free_calls,
        js_handed,
        js_namespaces,
        js_option_keys,
        js_samples,
        js_signatures,
        js_tree,
        js_types,
        js_unbound,
        page_accounting,
        python_bases,
        python_comments,
        python_samples,
        python_types,
        sample_accounting,
        sample_accounting_python,
        sample_checks,
        sample_sides,
        versioned_pages,
    )

    digest = hashlib.sha1()
    modules = (js_samples, js_handed, js_namespaces, js_option_keys, js_unbound, js_tree,
               js_comments, js_free_calls, js_signatures, js_types, sample_checks, api_lookup,
               python_comments, python_samples, python_types, api_model, model_facts,
               model_python, model_js, type_model, type_tables, public_functions, workspaces,
               build_entries, sample_sides, resolution, past_releases, help_listings,
               command_lines, cli_model, cli_python, known_bases, config_samples,
               code_surface, doc_versions, versioned_pages, sample_accounting,
               sample_accounting_python, page_accounting, code_fences, python_bases,
               dependency_models, dependency_versions, js_callbacks, js_docs_names,
               read_keys)  # fmt: skip
    for module in (*gate_files, *(m.__file__ for m in modules)):
        digest.update(Path(module or "").read_bytes())
    digest.update(code_tables.extractor_source())
    return digest.hexdigest()[:12]
