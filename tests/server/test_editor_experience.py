"""End to end (issue #15, editor experience): workspace diagnostics pulled or pushed for every checked
file, result ids on pulls, headers opened as C++ and buffers closed without saving."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from extractors.api import Config
from server.lsp.features import create_server
from server.lsp.handlers import language
from server.lsp.handlers.text_sync import in_workspace
from server.lsp.settings import merge_settings
from tests.server.lsp_helpers import LEAK, codes, diagnostics, edit, line_of, open_doc, start, until

pytestmark = pytest.mark.slow  # an editor feature end to end: the whole suite, not the edit loop's tier

FIXED = LEAK.replace("    return 0;\n", "    free(p);\n    return 0;\n")
# b.c hands its buffer to a.c's keep(): whether it leaks depends on a.c (a workspace check's finding).
KEEP_FREES = "#include <stdlib.h>\nvoid keep(char *p)\n{\n    free(p);\n}\n"
KEEP_KEEPS = "#include <stdlib.h>\nvoid keep(char *p)\n{\n    (void)p;\n}\n"
CALLER = (
    "#include <stdlib.h>\nvoid keep(char *p);\n\nint work(int n)\n{\n    char *p = malloc(n);\n"
    "    if (!p)\n        return -1;\n    keep(p);\n    return 0;\n}\n"
)


def open_as(client: LanguageClient, path: Path, text: str, language_id: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
        )
    )
    return uri


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))


def save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))


async def pull_document(
    client: LanguageClient, uri: str, previous: str | None = None
) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri), previous_result_id=previous)
    )
    assert isinstance(
        report, types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport
    )
    return report


async def pull_workspace(
    client: LanguageClient, previous: dict[str, str] | None = None
) -> dict[str, types.WorkspaceFullDocumentDiagnosticReport | types.WorkspaceUnchangedDocumentDiagnosticReport]:
    ids = [types.PreviousResultId(uri=uri, value=value) for uri, value in (previous or {}).items()]
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=ids))
    return {item.uri: item for item in report.items}


async def start_like_vscode(client: LanguageClient, root: Path) -> None:
    """A pull client as VS Code is one: it asks for the workspace's diagnostics at once (and after each
    refresh), so that the server never pushes to it."""
    await start(client, root, pull=True)
    await pull_workspace(client)


def full(item: object) -> Sequence[types.Diagnostic]:
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport | types.RelatedFullDocumentDiagnosticReport)
    return item.items


# ----- workspace diagnostics -------------------------------------------------------------------------
async def test_workspace_pull_reports_every_checked_file_with_result_ids(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "a.c").write_text(LEAK)
    (tmp_path / "b.c").write_text(FIXED)
    await start_like_vscode(client, tmp_path)
    await until(lambda: client.diagnostic_refresh_count, "the scan's workspace/diagnostic/refresh")
    a, b = (tmp_path / "a.c").as_uri(), (tmp_path / "b.c").as_uri()

    first = await pull_workspace(client)
    assert set(first) == {a, b}  # nobody opened them: the workspace check reported them
    assert codes(full(first[a])) == ["memory-leak"] and codes(full(first[b])) == []
    assert first[a].version is None and first[a].result_id and first[b].result_id
    held = {uri: item.result_id or "" for uri, item in first.items()}
    assert held[a] != held[b]

    again = await pull_workspace(client, held)
    assert all(isinstance(item, types.WorkspaceUnchangedDocumentDiagnosticReport) for item in again.values())
    assert {uri: item.result_id for uri, item in again.items()} == held

    # a.c fixed on disk (the file watcher tells the server): a new id for a.c only.
    refreshes = client.diagnostic_refresh_count
    (tmp_path / "a.c").write_text(FIXED)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(a, types.FileChangeType.Changed)])
    )
    await until(lambda: client.diagnostic_refresh_count > refreshes, "a refresh after the re-check")
    after = await pull_workspace(client, held)
    assert codes(full(after[a])) == [] and after[a].result_id not in (None, held[a])
    assert isinstance(after[b], types.WorkspaceUnchangedDocumentDiagnosticReport)
    assert client.diagnostics == {}  # pulled, never also pushed


@pytest.mark.parametrize("pull", [False, True], ids=["push", "pull"])
async def test_saving_reports_the_findings_of_files_nobody_has_open(
    client: LanguageClient, tmp_path: Path, pull: bool
) -> None:
    """An edit of a.c, saved, makes b.c (never opened) leak: the workspace check on save reports b.c,
    pushed to a client without pull diagnostics and in the workspace pull of one with them."""
    (tmp_path / "a.c").write_text(KEEP_FREES)
    (tmp_path / "b.c").write_text(CALLER)
    b = (tmp_path / "b.c").as_uri()
    if pull:
        await start_like_vscode(client, tmp_path)
        await until(lambda: client.diagnostic_refresh_count, "the scan's refresh")
        first = await pull_workspace(client)
        held = {uri: item.result_id or "" for uri, item in first.items()}
        assert codes(full(first[b])) == []
    else:
        await start(client, tmp_path)
        await diagnostics(client, b, lambda ds: codes(ds) == [], "b.c clean from the scan")
    a = open_doc(client, tmp_path / "a.c")
    line = line_of(KEEP_FREES, "free(p);")
    edit(client, a, 2, (line, 4, line, 12), "(void)p;")
    refreshes = client.diagnostic_refresh_count
    save(client, a)
    if pull:
        await until(lambda: client.diagnostic_refresh_count > refreshes, "the save's refresh")
        report = await pull_workspace(client, held)
        assert codes(full(report[b])) == ["memory-leak"] and report[b].result_id != held[b]
        assert client.diagnostics == {}
    else:
        await diagnostics(client, b, lambda ds: codes(ds) == ["memory-leak"], "b.c's leak pushed after the save")


async def test_a_workspace_pull_does_not_wait_for_a_long_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process: a workspace check that does not end holds a workspace pull only for the short wait,
    which answers with what there is, and the check goes on."""
    monkeypatch.setattr(language, "WORKSPACE_PULL_WAIT", 0.2)
    server = create_server()
    server.diagnostics = {"file:///w/a.c": []}
    server.result_ids.update("file:///w/a.c", None, [])
    endless = asyncio.get_running_loop().create_task(asyncio.sleep(3600))
    server._full_task = endless  # a check still running
    try:
        report = await asyncio.wait_for(
            language.pull_workspace_diagnostics(server, types.WorkspaceDiagnosticParams(previous_result_ids=[])),
            timeout=5,
        )
        assert [item.uri for item in report.items] == ["file:///w/a.c"]
        assert not endless.done()
    finally:
        endless.cancel()


# ----- document pull -----------------------------------------------------------------------------------
async def test_document_pull_answers_unchanged_while_the_result_id_is_current(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start(client, tmp_path, pull=True)
    await until(lambda: client.diagnostic_refresh_count, "the scan's refresh")
    uri = open_doc(client, path)
    first = await pull_document(client, uri)
    assert codes(full(first)) == ["memory-leak"] and first.result_id
    same = await pull_document(client, uri, first.result_id)
    assert isinstance(same, types.RelatedUnchangedDocumentDiagnosticReport) and same.result_id == first.result_id
    assert codes(full(await pull_document(client, uri, "an-old-id"))) == ["memory-leak"]

    # A blank line moves the leak one line down: new diagnostics, so a new id and a full report.
    edit(client, uri, 2, (2, 0, 2, 0), "\n")
    moved = await pull_document(client, uri, first.result_id)
    assert codes(full(moved)) == ["memory-leak"] and moved.result_id != first.result_id
    assert full(moved)[0].range.start.line == line_of(LEAK, "malloc") + 1
    # A comment at the end changes no diagnostic: unchanged.
    edit(client, uri, 3, (11, 0, 11, 0), "/* note */\n")
    still = await pull_document(client, uri, moved.result_id)
    assert isinstance(still, types.RelatedUnchangedDocumentDiagnosticReport) and still.result_id == moved.result_id
    # The fix: no findings, another id.
    fix_line = line_of(LEAK, "return 0;") + 1
    edit(client, uri, 4, (fix_line, 0, fix_line, 0), "    free(p);\n")
    fixed = await pull_document(client, uri, moved.result_id)
    assert codes(full(fixed)) == [] and fixed.result_id not in (first.result_id, moved.result_id)


# ----- headers -----------------------------------------------------------------------------------------
HEADER_LEAK = """#include <stdlib.h>

static inline int work(int n)
{
    char *p = malloc(n);
    if (p == NULL)
        return -1;
    p[0] = 1;
    return 0;
}
"""


async def test_a_header_opened_as_cpp_is_checked_as_c(client: LanguageClient, tmp_path: Path) -> None:
    header = tmp_path / "util.h"
    header.write_text("#include <stdlib.h>\n")  # the leak is only in the unsaved buffer
    other = tmp_path / "widget.cpp"
    other.write_text(HEADER_LEAK)
    await start(client, tmp_path)
    await diagnostics(client, header.as_uri(), lambda ds: codes(ds) == [], "the header from the scan")
    cpp = open_as(client, other, HEADER_LEAK, "cpp")  # C++ is not checked, whatever it contains
    uri = open_as(client, header, HEADER_LEAK, "cpp")  # VS Code's language id for .h
    found = await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "the leak in the header")
    leak = next(d for d in found if d.code == "memory-leak")
    assert leak.range.start.line == line_of(HEADER_LEAK, "malloc")
    assert cpp not in client.diagnostics


def test_the_clients_extension_setting_is_no_unknown_setting() -> None:
    merged = merge_settings(Config(), {"cExtensions": [".c", ".h", ".inc"], "codeLens": False})
    assert merged.problems == []


async def test_a_header_opened_as_cpp_gets_pulled_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    header = tmp_path / "util.h"
    header.write_text("")
    await start(client, tmp_path, pull=True)
    await until(lambda: client.diagnostic_refresh_count, "the scan's refresh")
    uri = open_as(client, header, HEADER_LEAK, "cpp")
    assert codes(full(await pull_document(client, uri))) == ["memory-leak"]


# ----- closing a buffer ---------------------------------------------------------------------------------
async def test_closing_an_unsaved_buffer_republishes_the_file_on_disk(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start(client, tmp_path)
    uri = path.as_uri()
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the leak on disk from the scan")
    open_doc(client, path, FIXED)  # fixed in the editor, never saved
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "the buffer's diagnostics")
    close(client, uri)
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the leak on disk again")

    # And the other way round: a leak typed but not saved goes away with the buffer.
    path.write_text(FIXED)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri, types.FileChangeType.Changed)])
    )
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "the fix on disk")
    open_doc(client, path, LEAK)
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the unsaved leak")
    close(client, uri)
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "the file on disk again")


async def test_closing_a_buffer_whose_file_is_gone_clears_its_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start(client, tmp_path)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the leak")
    path.unlink()
    close(client, uri)
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "no diagnostics for a file that is gone")


async def test_closing_a_file_from_outside_the_workspace_clears_its_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A file opened from elsewhere is checked while open; closed, it is no file of the workspace
    (the workspace check would drop it too), so its findings go with it."""
    workspace, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    workspace.mkdir()
    elsewhere.mkdir()
    (workspace / "a.c").write_text(FIXED)
    (elsewhere / "leak.c").write_text(LEAK)
    await start(client, workspace)
    await diagnostics(client, (workspace / "a.c").as_uri(), lambda ds: codes(ds) == [], "the scan")
    uri = open_doc(client, elsewhere / "leak.c")
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the leak while open")
    close(client, uri)
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "nothing once closed")


def test_which_closed_files_the_workspace_keeps(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    roots = [root, tmp_path / "extra"]
    assert in_workspace(str(root / "src" / "a.c"), roots)
    assert in_workspace(str(root / "a.h"), roots)
    assert in_workspace(str(tmp_path / "extra" / "b.c"), roots)
    assert not in_workspace(str(tmp_path / "other" / "a.c"), roots)
    assert not in_workspace(str(root / "build" / "a.c"), roots)  # build output: not walked
    assert not in_workspace(str(root / ".git" / "a.c"), roots)
    assert not in_workspace(str(root / ".hidden.c"), roots)
    assert not in_workspace(str(root / "a.cpp"), roots)
    assert in_workspace(str(root / "build" / "a.c"), [root, root / "build"])  # unless a root itself


async def test_closing_an_unsaved_buffer_in_pull_mode(client: LanguageClient, tmp_path: Path) -> None:
    """VS Code pulls a document once more right after closing it, then relies on the workspace pull:
    both answer with the file on disk."""
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start_like_vscode(client, tmp_path)
    await until(lambda: client.diagnostic_refresh_count, "the scan's refresh")
    uri = open_doc(client, path, FIXED)
    buffer = await pull_document(client, uri)
    assert codes(full(buffer)) == []
    close(client, uri)
    closed = await pull_document(client, uri, buffer.result_id)
    assert codes(full(closed)) == ["memory-leak"] and closed.result_id != buffer.result_id
    report = await pull_workspace(client, {uri: buffer.result_id or ""})
    assert codes(full(report[uri])) == ["memory-leak"] and report[uri].version is None
    assert client.diagnostics == {}


async def test_a_document_reopened_at_version_one_is_checked_again(client: LanguageClient, tmp_path: Path) -> None:
    """A closed document forgets what was checked of it: reopened (editors start again at version 1)
    with other text, that text is checked and published, not taken for the old version 1."""
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start(client, tmp_path)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: codes(ds) == ["memory-leak"], "the leak")
    save(client, uri)  # the workspace check covers version 1 of the open document

    def workspace_checks() -> int:
        return sum(m.message.startswith("ctlsp: checked workspace") for m in client.log_messages)

    await until(lambda: workspace_checks() >= 2, "the save's workspace check")
    close(client, uri)
    open_doc(client, path, FIXED)
    await diagnostics(client, uri, lambda ds: codes(ds) == [], "the reopened buffer's diagnostics")


# ----- pull clients that never pull the workspace ---------------------------------------------------------
async def test_a_client_that_only_pulls_documents_gets_closed_files_pushed(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Neovim declares pull diagnostics but pulls open documents only: the findings of closed files
    reach it pushed. Opening such a file withdraws the push (it is pulled now, and pushed and pulled
    diagnostics would both show); closing it pushes the file on disk again."""
    (tmp_path / "a.c").write_text(LEAK)
    (tmp_path / "b.c").write_text(FIXED)
    a = (tmp_path / "a.c").as_uri()
    await start(client, tmp_path, pull=True)
    await diagnostics(client, a, lambda ds: codes(ds) == ["memory-leak"], "a.c's leak pushed after the scan")
    uri = open_doc(client, tmp_path / "a.c")
    assert codes(full(await pull_document(client, uri))) == ["memory-leak"]
    assert list(client.diagnostics[a]) == []  # withdrawn before the pull answered
    close(client, uri)
    await diagnostics(client, a, lambda ds: codes(ds) == ["memory-leak"], "a.c pushed again once closed")


async def test_a_client_that_pulls_the_workspace_is_never_pushed_to(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text(LEAK)
    await start_like_vscode(client, tmp_path)
    await until(lambda: client.diagnostic_refresh_count, "the scan's refresh")
    report = await pull_workspace(client)
    assert codes(full(report[(tmp_path / "a.c").as_uri()])) == ["memory-leak"]
    assert client.diagnostics == {}


async def test_a_first_workspace_pull_withdraws_what_was_pushed(client: LanguageClient, tmp_path: Path) -> None:
    """A client whose first workspace pull comes after the scan was pushed its closed files' findings:
    that pull answers with them, and the pushed copies are cleared, so each finding shows once."""
    (tmp_path / "a.c").write_text(LEAK)
    a = (tmp_path / "a.c").as_uri()
    await start(client, tmp_path, pull=True)
    await diagnostics(client, a, lambda ds: codes(ds) == ["memory-leak"], "a.c's leak pushed after the scan")
    report = await pull_workspace(client)
    assert codes(full(report[a])) == ["memory-leak"]
    assert {uri: list(ds) for uri, ds in client.diagnostics.items()} == {a: []}
    # From now on a closed file's findings go to the workspace pull only.
    (tmp_path / "a.c").write_text(FIXED)
    refreshes = client.diagnostic_refresh_count
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(a, types.FileChangeType.Changed)])
    )
    await until(lambda: client.diagnostic_refresh_count > refreshes, "a refresh after the re-check")
    assert codes(full((await pull_workspace(client))[a])) == []
    assert {uri: list(ds) for uri, ds in client.diagnostics.items()} == {a: []}
