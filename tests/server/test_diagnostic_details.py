"""End to end (issue #15): what a diagnostic carries besides its range and message: the Unnecessary tag
of code that does nothing, which quick fix is preferred, and the call stack of each witness step."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import LEAK, code_actions, codes, diagnostics, line_of, open_doc, start

pytestmark = pytest.mark.slow  # an editor feature end to end: the whole suite, not the edit loop's tier

DEAD = "int twice(int a)\n{\n    int x = a * 2;\n    x = a;\n    return x;\n}\n"
# The first free happens in a callee: the witness step that shows it is inside release, reached from finish.
FREED_IN_CALLEE = """#include <stdlib.h>

static void release(char *buf)
{
    free(buf);
}

void finish(int n)
{
    char *buf = malloc(n);
    if (!buf)
        return;
    release(buf);
    free(buf);
}
"""


async def the_finding(client: LanguageClient, folder: Path, text: str, rule: str) -> tuple[str, types.Diagnostic]:
    path = folder / f"{rule}.c"
    path.write_text(text)
    uri = open_doc(client, path)
    found = await diagnostics(client, uri, lambda ds: rule in codes(ds), f"a {rule} diagnostic")
    return uri, next(d for d in found if d.code == rule)


async def test_a_dead_store_is_unnecessary_code_and_a_leak_is_not(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    _, dead = await the_finding(client, tmp_path, DEAD, "dead-store")
    assert dead.range.start.line == line_of(DEAD, "int x = a * 2;")
    assert list(dead.tags or []) == [types.DiagnosticTag.Unnecessary]  # the editor greys the store out, as clangd does
    _, leak = await the_finding(client, tmp_path, LEAK, "memory-leak")
    assert not leak.tags


async def test_the_suppression_is_the_one_preferred_quick_fix(client: LanguageClient, tmp_path: Path) -> None:
    """Auto fix (VS Code's ``editor.action.autoFix``, Neovim's ``apply=true``) takes the preferred action
    only when there is exactly one: silencing this finding, never turning the rule off everywhere."""
    await start(client, tmp_path)
    uri, dead = await the_finding(client, tmp_path, DEAD, "dead-store")
    actions = await code_actions(client, uri, dead)
    preferred = [a.title for a in actions if a.is_preferred]
    assert preferred == ["Suppress dead-store on this line"]
    assert any(a.title.startswith("Disable rule dead-store") for a in actions)


async def test_witness_steps_in_a_callee_name_the_call_stack(client: LanguageClient, tmp_path: Path) -> None:
    """The related information says where a step happens as ``ctlsp check`` does:
    "'buf' freed here (free(buf);) (in release, called from finish)"."""
    await start(client, tmp_path)
    uri, double = await the_finding(client, tmp_path, FREED_IN_CALLEE, "double-free")
    frees = [i for i, line in enumerate(FREED_IN_CALLEE.splitlines()) if line == "    free(buf);"]
    assert double.range.start.line == frees[1]  # reported at the second free
    related = double.related_information or []
    by_line = {r.location.range.start.line: r.message for r in related}
    in_callee = by_line[frees[0]]
    assert in_callee.endswith("'buf' freed here (free(buf);) (in release, called from finish)")
    second = by_line[double.range.start.line]
    assert second.endswith("'buf' freed here (free(buf);)")  # in finish itself: no stack to name
    assert [r.message.split(". ")[0] for r in related] == [str(i) for i in range(1, len(related) + 1)]
    assert all(r.location.uri == uri for r in related)
