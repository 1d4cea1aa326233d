"""Issue #15: LSP ends a line at ``\\n``, ``\\r\\n`` and a lone ``\\r``; tree-sitter only at ``\\n``.
Diagnostics of files with old Mac (``\\r``) or mixed line ends must be on the lines an editor shows,
whether the file is open, edited or only found by the workspace scan."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import code_actions, codes, diagnostics, edit, open_doc, start

# each test starts a server and its checker process; tests/server/test_line_ends_cli.py is the fast tier's
pytestmark = pytest.mark.slow

LINES = [
    "#include <stdlib.h>",
    "// a comment: a // comment ends at the line end, whichever it is",
    "int work(int n)",
    "{",
    "    char *p = malloc(n);",
    "    if (p == NULL)",
    "        return -1;",
    "    p[0] = 1;",
    "    return 0;",
    "}",
    "",
]
MALLOC = LINES.index("    char *p = malloc(n);")
RETURN = LINES.index("    return 0;")


def joined(ends: list[str]) -> str:
    return "".join(line + ends[i % len(ends)] for i, line in enumerate(LINES))


def editor_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


async def the_leak(client: LanguageClient, uri: str, line: int) -> types.Diagnostic:
    found = await diagnostics(
        client,
        uri,
        lambda ds: any(d.code == "memory-leak" and d.range.start.line == line for d in ds),
        f"a memory-leak diagnostic on line {line}",
    )
    return next(d for d in found if d.code == "memory-leak")


@pytest.mark.parametrize(
    "ends", [["\r"], ["\r\n"], ["\r", "\n", "\r\n"], ["\r\n", "\r"]], ids=["cr", "crlf", "mixed", "crlf-cr"]
)
async def test_a_leak_is_reported_on_the_line_the_editor_shows(
    client: LanguageClient, tmp_path: Path, ends: list[str]
) -> None:
    text = joined(ends)
    assert editor_lines(text)[MALLOC] == LINES[MALLOC]
    await start(client, tmp_path, related_information=False)  # the hover then quotes each step's line
    path = tmp_path / "leak.c"
    path.write_bytes(text.encode())
    uri = open_doc(client, path, text)
    leak = await the_leak(client, uri, MALLOC)
    assert leak.range.end.line == MALLOC
    assert (leak.range.start.character, leak.range.end.character) == (4, 24)  # the declaration
    assert leak.related_information
    lines = [r.location.range.start.line for r in leak.related_information]
    assert lines[0] == MALLOC and RETURN in lines
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), leak.range.start)
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "char *p = malloc(n);" in hover.contents.value and f"`leak.c:{MALLOC + 1}`" in hover.contents.value


async def test_a_file_only_on_disk_gets_its_leak_on_the_right_line(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "leak.c").write_bytes(joined(["\r"]).encode())
    await start(client, tmp_path)  # the workspace scan reads it from disk
    leak = await the_leak(client, (tmp_path / "leak.c").as_uri(), MALLOC)
    assert leak.related_information and RETURN in [r.location.range.start.line for r in leak.related_information]


async def test_a_newline_typed_after_a_lone_cr_keeps_the_lines(client: LanguageClient, tmp_path: Path) -> None:
    """Typing ``\\n`` right after a lone ``\\r`` makes one ``\\r\\n``: no new line. A blank line typed
    above the allocation then moves the leak down by one, not by two."""
    text = joined(["\r"])
    await start(client, tmp_path)
    path = tmp_path / "leak.c"
    path.write_bytes(text.encode())
    uri = open_doc(client, path, text)
    await the_leak(client, uri, MALLOC)
    edit(client, uri, 2, (1, 0, 1, 0), "\n")  # after the \r ending line 0
    edit(client, uri, 3, (MALLOC, 0, MALLOC, 0), "\r")  # a blank line above the allocation
    await the_leak(client, uri, MALLOC + 1)
    # And the suppression the quick fix inserts lands on the right line of the edited text.
    edit(client, uri, 4, (MALLOC + 1, 0, MALLOC + 1, 0), "    // ctlsp-ignore[memory-leak]\r")
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the suppressed leak to go")


# A header with old Mac line ends whose macro defines its argument: read from disk as one line, its
# #define would be no directive, and reading x after set_int(x, d) an uninitialised read.
HEADER = "/* util */\r#define set_int(i, d) ((i) = (int)(d))\r"
USES_HEADER = [
    "#include <stdlib.h>",
    '#include "util.h"',
    "int get(int d)",
    "{",
    "    int x;",
    "    set_int(x, d);",
    "    return x;",
    "}",
    *LINES[2:],
]


@pytest.mark.parametrize("opened", [False, True], ids=["on-disk", "open"])
async def test_a_headers_macros_count_whatever_its_line_ends(
    client: LanguageClient, tmp_path: Path, opened: bool
) -> None:
    (tmp_path / "util.h").write_bytes(HEADER.encode())
    text = "\r".join(USES_HEADER)
    path = tmp_path / "leak.c"
    path.write_bytes(text.encode())
    await start(client, tmp_path)
    uri = open_doc(client, path, text) if opened else path.as_uri()
    malloc = USES_HEADER.index("    char *p = malloc(n);")
    found = await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "the leak")
    assert codes(found) == ["memory-leak"]  # no uninitialised-read of x: set_int defines it
    assert found[0].range.start.line == malloc


@pytest.mark.parametrize("end", ["\r", "\r\n"], ids=["cr", "crlf"])
async def test_the_suppression_comment_ends_with_the_files_own_line_end(
    client: LanguageClient, tmp_path: Path, end: str
) -> None:
    text = joined([end])
    path = tmp_path / "leak.c"
    path.write_bytes(text.encode())
    await start(client, tmp_path)
    uri = open_doc(client, path, text)
    leak = await the_leak(client, uri, MALLOC)
    suppress = next(a for a in await code_actions(client, uri, leak) if a.is_preferred)
    assert suppress.edit and suppress.edit.changes
    (insert,) = suppress.edit.changes[uri]
    assert insert.new_text == f"    // ctlsp-ignore[memory-leak]{end}"
    edit(client, uri, 2, (MALLOC, 0, MALLOC, 0), insert.new_text)
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the suppressed leak to go")
