"""The names the product's code shows a reader without declaring them (code_surface)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from pytest_postgates.evidence import model_check
from pytest_postgates.evidence.api_model import build_model
from pytest_postgates.evidence.code_surface import surface_names


def test_python_members_keywords_and_values_but_not_locals_imports_or_comments() -> None:
    found = surface_names(
        {
            "pkg/mod.py": (
                "from retry import stop_after_attempt\n"
                "# commented_name\n"
                "def run(client):\n"
                "    local_name = client.open_stream(timeout_s=3, flag == other)\n"
                '    return {"event": "message_delta", "text": "two words"}\n'
            )
        }
    )
    assert {"open_stream", "timeout_s", "message_delta", "event", "text"} <= found
    assert not {"stop_after_attempt", "commented_name", "local_name", "client", "flag"} & found
    assert "two words" not in found


def test_script_members_keys_and_values_but_not_comments_or_urls() -> None:
    found = surface_names(
        {
            "src/a.ts": (
                "// hiddenInComment\n/* blockHidden */\n"
                "const localOnly = api?.wrapStream; const o = { transformParams: 1 };\n"
                "const codec = 'libx264'; const url = \"https://host//notAComment\";\n"
                "const pick = ready ? first : second;\n"
            )
        }
    )
    assert {"wrapStream", "transformParams", "libx264"} <= found
    assert not {"hiddenInComment", "blockHidden", "localOnly", "notAComment", "first"} & found


def test_script_shorthand_keys_but_not_import_lists_or_declared_patterns() -> None:
    found = surface_names(
        {
            "src/a.js": (
                "import { readFile, stat } from 'fs';\n"
                "export { helperOut };\n"
                "const { fromOther } = require('other');\n"
                "let unknownMisses = 0; const knownMisses = [];\n"
                "report('code', value, { knownMisses, unknownMisses });\n"
                "call(firstArg, secondArg);\n"
            )
        }
    )
    assert {"knownMisses", "unknownMisses"} <= found
    assert not {"readFile", "stat", "helperOut", "fromOther", "firstArg", "secondArg"} & found


def test_an_unfinished_python_file_gives_what_was_read() -> None:
    assert "open_stream" in surface_names({"pkg/bad.py": "client.open_stream(\n"})


@given(st.text(max_size=300), st.sampled_from(["a.py", "a.js", "a.ts"]))
@example(".À", "a.py")  # hypothesis found it: a Unicode identifier is a name
@example(".A¼", "a.py")  # and this: `\w` takes `¼`, which no identifier may hold
@example("x.A¼", "a.js")
def test_any_text_gives_identifier_shaped_names(text: str, path: str) -> None:
    # Identifiers as the languages define them: Unicode letters included (`x.À` names `À`
    # in Python and JavaScript alike), and `$` in JavaScript.
    for name in surface_names({path: text}):
        bare = name.replace("$", "_") if path.endswith((".js", ".ts")) else name
        assert bare.isidentifier(), name


def test_a_cached_model_with_a_surface_name_its_code_does_not_write_is_refused() -> None:
    sources = {"src/a.js": "export const o = { wrapStream: 1 };\n"}
    facts = build_model("c", sources).facts
    assert model_check.unconfirmed(facts, sources, {}) == ""
    facts.surface.add("plantedName")
    assert model_check.unconfirmed(facts, sources, {}) == "member, key or value plantedName"
