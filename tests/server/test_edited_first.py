"""After an edit the edited functions' findings are published first, the rest of the file's check
after them: what the user typed is checked in the time its own function takes, however long the
file, and findings an edit changes elsewhere (a caller's) come with the check's own publication."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from extractors.api import Config, Finding
from server.lsp.analysis import Analysis
from tests.server.lsp_helpers import checked, line_of, open_doc, record_publications, start, until

TEXT = """#include <stdlib.h>

void release(char *p)
{
    (void)p;
}

void user(int n)
{
    char *q = malloc(n);
    release(q);
}

int other(int n)
{
    int *r = malloc(n);
    if (r)
        r[0] = n;
    return n;
}
"""
# release() now frees its argument twice: a finding of its own, and user() no longer leaks
BODY = "    (void)p;"
FREES_TWICE = "    free(p);\n    free(p);"
EDITED = TEXT.replace(BODY, FREES_TWICE)
AT = line_of(TEXT, BODY)
# where each finding is, before and after the edit (0-based lines)
USER_LEAK, OTHER_LEAK = line_of(TEXT, "char *q = malloc"), line_of(TEXT, "int *r = malloc")
SECOND_FREE, USER_CALL = line_of(EDITED, "free(p);") + 1, line_of(EDITED, "release(q);")
USER_LEAK_MOVED, OTHER_LEAK_MOVED = line_of(EDITED, "char *q = malloc"), line_of(EDITED, "int *r = malloc")
FINAL = [("double-free", SECOND_FREE), ("double-free", USER_CALL), ("memory-leak", OTHER_LEAK_MOVED)]


async def opened(
    client: LanguageClient, tmp_path: Path, text: str
) -> tuple[str, list[tuple[int | None, list[types.Diagnostic]]]]:
    """A push session with ``a.c`` (``text``) open and checked, and its publications from the start."""
    path = tmp_path / "a.c"
    path.write_text(text)
    published = record_publications(client, path.as_uri())
    await start(client, tmp_path, settings={"debounceMs": 0})
    uri = open_doc(client, path)
    await until(lambda: checked(client, "a.c v1:"), "the first check")
    return uri, published


def seen(found: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line) for d in found)


def replace_body(client: LanguageClient, uri: str, whole: bool, rest: str = "") -> None:
    """Version 2: release() frees twice (``rest``: what follows ``TEXT`` in the document)."""
    change: types.TextDocumentContentChangeEvent
    if whole:
        change = types.TextDocumentContentChangeWholeDocument(text=EDITED + rest)
    else:
        rng = types.Range(types.Position(AT, 0), types.Position(AT, len(BODY)))
        change = types.TextDocumentContentChangePartial(range=rng, text=FREES_TWICE)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(types.VersionedTextDocumentIdentifier(version=2, uri=uri), [change])
    )


async def test_the_edited_function_is_published_before_the_callers_it_changed(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri, published = await opened(client, tmp_path, TEXT)
    assert seen(published[-1][1]) == [("memory-leak", USER_LEAK), ("memory-leak", OTHER_LEAK)]

    replace_body(client, uri, whole=False)
    await until(lambda: checked(client, "a.c v2:"), "the check of the edit")
    # first release()'s own finding with the others' as shown before (moved down a line), then the
    # check's: user() hands release() its block, so it frees it twice too and leaks it no more
    assert [seen(found) for version, found in published if version == 2] == [
        [("double-free", SECOND_FREE), ("memory-leak", USER_LEAK_MOVED), ("memory-leak", OTHER_LEAK_MOVED)],
        FINAL,
    ]


# a definition the parser cannot read past a syntax error (braces that do not match, as while
# typing an initialiser): a note, not a finding, and no extent of its own
LOST = """
static int *slot_of(int n){
  static int slots[] = {
    [2] = 20 } [3] = { 30
  };
  return &slots[n - 2];
}
"""


async def test_a_function_the_parser_lost_keeps_its_note_before_the_check(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri, published = await opened(client, tmp_path, TEXT + LOST)
    note = ("not-checked", line_of(TEXT + LOST, "slot_of(") + 1)  # one line lower after the edit
    assert ("not-checked", note[1] - 1) in seen(published[-1][1])

    replace_body(client, uri, whole=False, rest=LOST)
    await until(lambda: checked(client, "a.c v2:"), "the check of the edit")
    assert [seen(found) for version, found in published if version == 2] == [
        sorted(
            [("double-free", SECOND_FREE), ("memory-leak", USER_LEAK_MOVED), ("memory-leak", OTHER_LEAK_MOVED), note]
        ),
        sorted([*FINAL, note]),
    ]


async def test_a_pull_client_is_told_to_pull_again_when_the_check_changed_more(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "a.c"
    path.write_text(TEXT)
    await start(client, tmp_path, pull=True, settings={"debounceMs": 0})
    uri = open_doc(client, path)
    await until(lambda: checked(client, "a.c v1:"), "the first check")
    refreshes = client.diagnostic_refresh_count

    replace_body(client, uri, whole=False)
    early = await pull(client, uri)  # the edited function's findings at least
    assert ("double-free", SECOND_FREE) in seen(early)
    await until(lambda: client.diagnostic_refresh_count > refreshes, "a refresh once the check changed user()")
    assert seen(await pull(client, uri)) == FINAL


async def test_a_replaced_text_waits_for_the_whole_check(client: LanguageClient, tmp_path: Path) -> None:
    """No line of a replaced text has a known place, so nothing shown can stand for the functions
    not checked yet: the first publication of the new version is the check's."""
    uri, published = await opened(client, tmp_path, TEXT)

    replace_body(client, uri, whole=True)
    await until(lambda: checked(client, "a.c v2:"), "the check of the edit")
    assert [seen(found) for version, found in published if version == 2] == [FINAL]


async def pull(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return list(report.items)


def test_the_edited_functions_findings_are_the_checks_own(tmp_path: Path) -> None:
    """What ``edited`` hears is what the whole check then finds in those functions, no more."""
    path = str(tmp_path / "a.c")
    analysis = Analysis(Config())
    heard: list[tuple[str, list[Finding], dict[str, tuple[int, int]]]] = []
    first = analysis.check_file_sync(path, TEXT, lambda: True, edited=lambda *a: heard.append(a), early=True)
    assert first is not None and heard == []  # a first check shows everything at once

    outcome = analysis.check_file_sync(path, EDITED, lambda: True, edited=lambda *a: heard.append(a))
    assert outcome is not None
    [(heard_path, findings, functions)] = heard
    assert heard_path == path and list(functions) == ["release"]
    assert functions["release"] == analysis.notes_and_extents(path)[1]["release"]
    assert [f.rule_id for f in findings] == ["double-free"]
    assert findings == [f for f in outcome.findings[path] if f.function == "release"]
    assert any(f.function == "other" for f in outcome.findings[path])

    heard.clear()
    analysis.check_file_sync(path, EDITED, lambda: True, edited=lambda *a: heard.append(a))
    assert heard == []  # nothing changed: nothing to show first


DEEP = "int deep(int x) {\n" + "{" * 3000 + "x = 1;" + "}" * 3000 + "\n    return x;\n}\n"


def test_an_edited_function_too_deep_to_model_is_heard_with_its_note(tmp_path: Path) -> None:
    """The first findings of an edit of a function that cannot be modelled are its note, read
    without the notes of the file's other functions (the lost definition's among them)."""
    path = str(tmp_path / "a.c")
    analysis = Analysis(Config())
    analysis.check_file_sync(path, TEXT + DEEP + LOST, lambda: True, early=True)
    heard: list[tuple[str, list[Finding], dict[str, tuple[int, int]]]] = []
    edited = TEXT + DEEP.replace("x = 1;", "x = 2;") + LOST
    outcome = analysis.check_file_sync(path, edited, lambda: True, edited=lambda *a: heard.append(a))
    assert outcome is not None
    [(_, findings, functions)] = heard
    assert list(functions) == ["deep"]
    assert [(f.rule_id, f.function) for f in findings] == [("not-checked", "deep")]
    assert findings == [f for f in outcome.findings[path] if f.function == "deep"]
    notes = analysis.notes_and_extents(path)[0]
    assert [f.function for f in notes] == ["deep", "slot_of"]
    assert analysis.notes_and_extents(path, ["deep", "user"])[0] == notes[:1]
    assert analysis.notes_and_extents(path, ["slot_of"])[0] == notes[1:]
