"""Squiggles stay put while typing: an edit moves the findings of the functions it did not touch and
changes nothing else of them, in every publication and every pull, even while the half-typed code
does not parse (an open brace swallows the functions below it); findings through functions in other
files stay too, since each edit is checked against every file the project holds."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from extractors.api import Finding, Location, WitnessStep
from server.lsp.steady import LineShift, Shown, settle
from tests.server.lsp_helpers import (
    checked,
    codes,
    diagnostics,
    edit,
    line_of,
    open_doc,
    record_publications,
    start,
    until,
)

TEXT = """#include <stdlib.h>

int first(int n)
{
    char *p = malloc(n);
    if (p == NULL)
        return -1;
    p[0] = 1;
    return 0;
}

int typed(int n)
{
    int x = n;
    return x;
}

int second(int n)
{
    char *q = malloc(n);
    q[0] = 1;
    free(q);
    return 0;
}

int third(int n)
{
    char *r = malloc(n);
    if (!r) return 1;
    return 0;
}
"""
TYPED = "    if (x > 2) {\n        x = 3;\n    }\n"  # typed one key at a time into typed()
AT = line_of(TEXT, "int x = n;") + 1
TYPED_START, TYPED_END = line_of(TEXT, "int typed("), line_of(TEXT, "    return x;") + 1

Shape = tuple[object, str, tuple[int, int, int, int], tuple[tuple[str, int, int], ...]]


def shape(d: types.Diagnostic, shift: int = 0) -> Shape:
    """What the user sees of a diagnostic, with its lines (and its steps' lines) at or below the
    insertion point moved by ``shift``."""

    def line(n: int) -> int:
        return n + shift if n >= AT else n

    r = d.range
    steps = tuple(
        (i.location.uri, line(i.location.range.start.line), i.location.range.start.character)
        for i in d.related_information or ()
    )
    return d.code, d.message, (line(r.start.line), r.start.character, line(r.end.line), r.end.character), steps


def others(found: Sequence[types.Diagnostic], typed_lines: int) -> list[Shape]:
    """Diagnostics outside typed() (which spans ``typed_lines`` more lines than at first)."""
    last = TYPED_END + typed_lines
    return sorted(shape(d) for d in found if not TYPED_START <= d.range.start.line <= last)


def keystrokes() -> list[tuple[int, int, str]]:
    """(line, character, key) of each key typed."""
    out, line, character = [], AT, 0
    for key in TYPED:
        out.append((line, character, key))
        line, character = (line + 1, 0) if key == "\n" else (line, character + 1)
    return out


def newlines_before(version: int) -> int:
    """Lines typed by the time of ``version`` (version 2 is the first key)."""
    return TYPED[: max(version - 1, 0)].count("\n")


async def test_typing_in_one_function_leaves_the_others_where_they_were(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "a.c"
    path.write_text(TEXT)
    uri = path.as_uri()
    published = record_publications(client, uri)
    await start(client, tmp_path, settings={"debounceMs": 0})
    open_doc(client, path)
    await until(lambda: checked(client, "a.c v1:"), "the first check")
    first = others(client.diagnostics[uri], 0)
    assert [c for c, *_ in first] == ["memory-leak", "memory-leak", "null-dereference"]

    for version, (line, character, key) in enumerate(keystrokes(), start=2):
        edit(client, uri, version, (line, character, line, character), key)
        if key in "{;}":  # let these checks finish: after "{" nothing below parses as a function
            await until(lambda v=version: checked(client, f"a.c v{v}:"), f"the check of v{version}")
        else:
            await asyncio.sleep(0.01)
    last = len(TYPED) + 1
    await until(lambda: checked(client, f"a.c v{last}:"), "the last check")

    after_first = [(v, ds) for v, ds in published if v is not None and v >= 2]
    assert len(after_first) >= 4
    for version, found in after_first:
        n = newlines_before(version)
        assert others(found, n) == [(c, m, _moved(r, n), _moved_steps(s, n)) for c, m, r, s in first], version


def _moved(r: tuple[int, int, int, int], n: int) -> tuple[int, int, int, int]:
    return (r[0] + n if r[0] >= AT else r[0], r[1], r[2] + n if r[2] >= AT else r[2], r[3])


def _moved_steps(steps: tuple[tuple[str, int, int], ...], n: int) -> tuple[tuple[str, int, int], ...]:
    return tuple((u, line + n if line >= AT else line, c) for u, line, c in steps)


async def test_every_pull_while_typing_has_the_other_functions_in_place(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "a.c"
    path.write_text(TEXT)
    await start(client, tmp_path, pull=True, settings={"debounceMs": 0})
    uri = open_doc(client, path)
    first = others(await pull(client, uri), 0)
    assert len(first) == 3
    for version, (line, character, key) in enumerate(keystrokes(), start=2):
        edit(client, uri, version, (line, character, line, character), key)
        n = newlines_before(version)
        found = await pull(client, uri)  # answered once the check of this version is published
        assert others(found, n) == [(c, m, _moved(r, n), _moved_steps(s, n)) for c, m, r, s in first], version


async def pull(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return list(report.items)


A = """#include <stdlib.h>
void release(char *p);

/* the caller */
void work(int n)
{
    char *p = malloc(n);
    if (!p)
        return;
    release(p);
    free(p);
}
"""
B = "#include <stdlib.h>\nvoid release(char *q)\n{\n    free(q);\n}\n"


@pytest.mark.parametrize("pull_client", [False, True], ids=["push", "pull"])
async def test_a_finding_through_another_file_stays_while_typing(
    client: LanguageClient, tmp_path: Path, pull_client: bool
) -> None:
    """The double free through release() in b.c stays when a comment of a.c is edited, moves with a
    line added above it, and goes when a newer check sees b.c's unsaved buffer no longer free."""
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    a.write_text(A)
    b.write_text(B)
    await start(client, tmp_path, pull=pull_client, settings={"debounceMs": 0})
    uri = open_doc(client, a)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await until(lambda: checked(client, "workspace"), "the workspace check")

    async def shown(version: int) -> list[tuple[str, int]]:
        if pull_client:
            found: Sequence[types.Diagnostic] = await pull(client, uri)
        else:
            await until(lambda: checked(client, f"a.c v{version}:"), f"the check of v{version}")
            found = client.diagnostics[uri]
        return [(str(d.code), d.range.start.line) for d in found]

    double = line_of(A, "    free(p);")
    assert ("double-free", double) in await shown(1)
    edit(client, uri, 2, (3, 2, 3, 2), " ")  # a space in the comment
    assert await shown(2) == [("double-free", double)]
    edit(client, uri, 3, (3, 0, 3, 0), "\n")  # a line above: the finding moves down
    assert await shown(3) == [("double-free", double + 1)]

    # release() stops freeing in b.c's unsaved buffer: the next check of a.c reads that buffer.
    b_uri = open_doc(client, b)
    b_free = line_of(B, "free(q);")
    edit(client, b_uri, 2, (b_free, 4, b_free, 12), "(void)q;")
    await until(lambda: checked(client, "b.c v2:"), "the check of b.c's edit")
    edit(client, uri, 4, (4, 2, 4, 2), " ")
    assert "double-free" not in codes(await diagnostics_now(client, uri, pull_client, 4))


async def diagnostics_now(client: LanguageClient, uri: str, pull_client: bool, version: int) -> list[types.Diagnostic]:
    if pull_client:
        return await pull(client, uri)
    await until(lambda: checked(client, f"a.c v{version}:"), f"the check of v{version}")
    return list(await diagnostics(client, uri, lambda ds: True, "a.c's diagnostics"))


# ----- the merge itself, without a server ------------------------------------------------------------


def finding(function: str, line: int, path: str = "a.c", step_line: int | None = None) -> Finding:
    steps = (WitnessStep(Location(path, step_line, 0, step_line, 1), "here", function),) if step_line else ()
    return Finding("memory-leak", "warning", "leak", Location(path, line, 4, line, 9), function, steps)


def insert(shift: LineShift, line: int, text: str) -> None:
    position = types.Position(line, 0)
    shift.add(types.TextDocumentContentChangePartial(range=types.Range(position, position), text=text))


def test_lines_move_below_an_edit_and_have_no_place_on_it() -> None:
    shift = LineShift()
    insert(shift, 5, "a\nb\n")  # old line 5 is now line 7, and touched
    assert [shift.line(n) for n in (4, 5, 6)] == [4, None, 8]
    assert shift.extent((0, 4)) == (0, 4) and shift.extent((6, 9)) == (8, 11)
    assert shift.extent((3, 5)) is None and shift.extent((2, 9)) is None  # an edit inside touches it
    shift.add(types.TextDocumentContentChangeWholeDocument(text="x"))
    assert shift.line(0) is None and shift.extent((0, 1)) is None


def test_a_swallowed_function_keeps_its_findings_moved_and_artefacts_inside_it_are_dropped() -> None:
    old = Shown(
        (finding("f", 2), finding("g", 12, step_line=11), finding("h", 20)),
        {"f": (0, 5), "g": (10, 14), "h": (18, 22)},
    )
    shift = LineShift()
    insert(shift, 3, "{\n")  # inside f, which now swallows g (the parse puts f on 0..23)
    new_found = [finding("f", 4), finding("f", 13), finding("h", 21)]  # f's "finding" at 13 is in g's text
    now = settle("a.c", old, shift, new_found, {"f": (0, 23), "h": (19, 23)})
    assert [(f.function, f.location.start_line) for f in now.findings] == [("f", 4), ("g", 13), ("h", 21)]
    g = next(f for f in now.findings if f.function == "g")
    assert g.witness[0].location.start_line == 12  # its steps in the file move too
    assert now.extents["g"] == (11, 15)  # kept for the next edit, where its text is now


def test_a_function_found_in_place_takes_the_new_findings_even_fewer() -> None:
    """A callee's edit may legitimately remove the finding of an untouched caller: the new parse
    finds the caller where its text is, so the new check's word stands."""
    old = Shown((finding("f", 2), finding("g", 12)), {"f": (0, 5), "g": (10, 14)})
    shift = LineShift()
    insert(shift, 3, "x;\n")
    now = settle("a.c", old, shift, [], {"f": (0, 6), "g": (11, 15)})
    assert now.findings == ()


def test_steps_in_other_files_do_not_move() -> None:
    kept = finding("g", 12, step_line=3, path="a.c")
    step = WitnessStep(Location("b.c", 3, 0, 3, 1), "in b", "rel")
    elsewhere = Finding(kept.rule_id, kept.severity, kept.message, kept.location, "g", (step,))
    shift = LineShift()
    insert(shift, 0, "\n\n")
    moved = shift.finding(elsewhere)
    assert moved is not None and moved.location.start_line == 14 and moved.witness[0].location.start_line == 3
