"""End to end: pytest-lsp's client talking to ``python -m server serve`` over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp_helpers import (
    LEAK,
    checked,
    code_actions,
    codes,
    diagnostics,
    edit,
    line_of,
    open_doc,
    start,
    until,
)


async def open_leak(client: LanguageClient, folder: Path) -> tuple[str, types.Diagnostic]:
    """Write LEAK to folder/leak.c, open it, and wait for its memory-leak diagnostic."""
    path = folder / "leak.c"
    path.write_text(LEAK)
    uri = open_doc(client, path)
    found = await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "a memory-leak diagnostic")
    return uri, next(d for d in found if d.code == "memory-leak")


async def test_leak_is_reported_with_witness_and_goes_away_when_fixed(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    uri, leak = await open_leak(client, tmp_path)
    assert leak.source == "ctlsp"
    assert leak.severity == types.DiagnosticSeverity.Warning
    assert leak.range.start.line == line_of(LEAK, "malloc")
    assert leak.code_description and leak.code_description.href.endswith("/docs/memory-leak.md")
    assert isinstance(leak.data, dict) and leak.data["rule"] == "memory-leak" and leak.data["fingerprint"]
    assert leak.related_information
    related_lines = [r.location.range.start.line for r in leak.related_information]
    assert related_lines[0] == line_of(LEAK, "malloc")
    assert line_of(LEAK, "return 0;") in related_lines
    assert all(r.location.uri == uri for r in leak.related_information)

    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), leak.range.start)
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    # the client lists the steps (related information) in the same hover: they are not listed twice
    assert "memory-leak" in text and f"the {len(leak.related_information)} steps listed" in text
    assert all(r.message not in text for r in leak.related_information)

    payload = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("ctlsp.witness", [uri, leak.range.start.line, leak.range.start.character])
    )
    assert isinstance(payload, dict) and payload["rule"] == "memory-leak"
    assert payload["steps"][0]["range"]["start"]["line"] == line_of(LEAK, "malloc")
    assert payload["steps"][0]["function"] == "work" and payload["steps"][0]["uri"] == uri
    by_fingerprint = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("ctlsp.witness", [uri, leak.data["fingerprint"]])
    )
    assert by_fingerprint == payload

    fix_line = line_of(LEAK, "return 0;")
    edit(client, uri, 2, (fix_line, 0, fix_line, 0), "    free(p);\n")
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the leak to disappear")


@pytest.mark.slow
async def test_code_actions_offer_suppression_and_rule_disabling(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    uri, leak = await open_leak(client, tmp_path)
    actions = await code_actions(client, uri, leak)
    assert [a.title for a in actions] == ["Suppress memory-leak on this line", "Disable rule memory-leak in ctlsp.toml"]
    suppress, disable = actions
    assert suppress.edit and suppress.edit.changes
    (insert,) = suppress.edit.changes[uri]
    assert insert.new_text == "    // ctlsp-ignore[memory-leak]\n"
    assert insert.range.start == types.Position(leak.range.start.line, 0)
    assert disable.edit and disable.edit.document_changes
    create, change = disable.edit.document_changes
    assert isinstance(create, types.CreateFile) and create.uri == (tmp_path / "ctlsp.toml").as_uri()
    assert isinstance(change, types.TextDocumentEdit)
    assert isinstance(change.edits[0], types.TextEdit)
    assert change.edits[0].new_text == "[rules.memory-leak]\nenabled = false\n"
    assert not (tmp_path / "ctlsp.toml").exists()  # the server never writes files itself

    # Applying the suppression edit (as the client would) silences the finding.
    line = leak.range.start.line
    edit(client, uri, 2, (line, 0, line, 0), insert.new_text)
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the suppressed leak to go")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "table"),
    [("ctlsp.toml", "[extract]"), ("pyproject.toml", "[tool.ctlsp.extract]")],
)
async def test_disabling_a_rule_edits_the_configuration_in_effect(
    client: LanguageClient, tmp_path: Path, name: str, table: str
) -> None:
    """A workspace folder below the project's configuration gets that file's settings, so the quick
    fix edits that file (a pyproject.toml's [tool.ctlsp] too) instead of creating a ctlsp.toml in the
    folder that would hide it."""
    (tmp_path / name).write_text(f'{table}\nallocators = ["pool_get"]\n')
    folder = tmp_path / "src"
    folder.mkdir()
    await start(client, folder)
    uri, leak = await open_leak(client, folder)
    disable = next(a for a in await code_actions(client, uri, leak) if a.title.startswith("Disable"))
    assert disable.edit and disable.edit.document_changes
    (change,) = disable.edit.document_changes  # an edit of the existing file, no file created
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == (tmp_path / name).as_uri()
    (text_edit,) = change.edits
    assert isinstance(text_edit, types.TextEdit)
    prefix = "tool.ctlsp." if name == "pyproject.toml" else ""
    assert text_edit.new_text == f"\n[{prefix}rules.memory-leak]\nenabled = false\n"


@pytest.mark.slow
async def test_save_runs_the_interprocedural_check_with_progress(
    client: LanguageClient, tmp_path: Path
) -> None:
    a = tmp_path / "a.c"
    b = tmp_path / "b.c"
    a.write_text(
        "#include <stdlib.h>\nvoid keep(char *p);\n\nint work(int n)\n{\n    char *p = malloc(n);\n"
        "    if (!p)\n        return -1;\n    keep(p);\n    return 0;\n}\n"
    )
    b.write_text("void keep(char *p)\n{\n    (void)p;\n}\n")
    await start(client, tmp_path)
    # The workspace scan at startup already checks every file, across files.
    uri = a.as_uri()
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "the cross-file leak from the scan")

    def progress_ends() -> int:
        return sum(
            isinstance(r, types.WorkDoneProgressEnd) for rs in client.progress_reports.values() for r in rs
        )

    await until(progress_ends, "the scan's progress to end")
    assert any(
        isinstance(r, types.WorkDoneProgressBegin) for rs in client.progress_reports.values() for r in rs
    )
    # While typing, calls into the other files the project holds are followed too: the leak through
    # keep() stays, one line lower.
    open_doc(client, a)
    edit(client, uri, 2, (2, 0, 2, 0), "\n")
    await until(lambda: checked(client, "a.c v2:"), "the edit's check")
    assert [(d.code, d.range.start.line) for d in client.diagnostics[uri]] == [("memory-leak", 6)]
    # On save the whole workspace is checked again, with progress.
    ends_before = progress_ends()
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    found = await diagnostics(
        client, uri, lambda ds: "memory-leak" in codes(ds), "the cross-file leak on save"
    )
    await until(lambda: progress_ends() > ends_before, "the save's progress to end")
    leak = next(d for d in found if d.code == "memory-leak")
    assert leak.range.start.line == 6


@pytest.mark.slow
async def test_disabling_a_rule_in_settings_removes_its_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "a memory-leak diagnostic")
    client.set_configuration({"debounceMs": 20, "rules": {"memory-leak": False}}, section="ctlsp")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the disabled rule to go")
    assert not client.messages  # a valid change raises no warning


@pytest.mark.slow
async def test_pull_diagnostics_when_the_client_supports_them(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    await start(client, tmp_path, pull=True)
    # After the workspace scan the server asks the client to pull again instead of pushing.
    await until(lambda: client.diagnostic_refresh_count, "workspace/diagnostic/refresh")
    uri = open_doc(client, path)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert "memory-leak" in codes(report.items)
    fix_line = line_of(LEAK, "return 0;")
    edit(client, uri, 2, (fix_line, 0, fix_line, 0), "    free(p);\n")
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert "memory-leak" not in codes(report.items)
    # This client never pulls the workspace, so the scan pushed the closed file's leak; opening the
    # file withdrew that push: the findings of an open document are pulled, never also pushed.
    assert list(client.diagnostics.get(uri, [None])) == []


@pytest.mark.slow
async def test_broken_ctlsp_toml_warns_and_the_server_keeps_working(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "ctlsp.toml").write_text('[rules.memory-leak]\nenabled = "sometimes"\n')
    await start(client, tmp_path, settings={"debounceMs": 20, "colour": "blue"})
    await until(lambda: len(client.messages) >= 2, "two showMessage warnings")
    texts = [m.message for m in client.messages]
    assert all(m.type == types.MessageType.Warning for m in client.messages)
    assert any("ctlsp.toml:2" in t for t in texts)
    assert any("ctlsp.colour" in t for t in texts)
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "diagnostics with default rules")
    # Fixing the file (reported by the client's file watcher) applies it: the rule is now off.
    registrations = client.registrations  # type: ignore[attr-defined]
    watchers = [  # register_options arrive as plain JSON
        w["globPattern"]
        for r in registrations
        if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        for w in r.register_options["watchers"]
    ]
    assert "**/ctlsp.toml" in watchers
    (tmp_path / "ctlsp.toml").write_text("[rules.memory-leak]\nenabled = false\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent((tmp_path / "ctlsp.toml").as_uri(), types.FileChangeType.Changed)]
        )
    )
    await diagnostics(
        client, uri, lambda ds: "memory-leak" not in codes(ds), "the rule disabled by ctlsp.toml"
    )


async def test_half_typed_code_never_kills_the_server(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "a memory-leak diagnostic")
    version = 1
    for text in (
        "if (p ",
        "{{{{",
        '*/ /* "',
        "#define X(",
        "}",
        "\u00e9\U0001d11e",
        "switch (",
        ")) ;; else",
    ):
        version += 1
        edit(client, uri, version, (5, 4, 5, 4), text)
    version += 1
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=LEAK)],
        )
    )
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "the leak again after the garbage")
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
    )
    assert hover is None
    assert not any(m.type == types.MessageType.Error for m in client.log_messages)


async def test_a_burst_of_edits_is_checked_once_at_the_last_version(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path, settings={"debounceMs": 400})
    path = tmp_path / "leak.c"
    path.write_text(LEAK)
    uri = open_doc(client, path)
    await diagnostics(client, uri, lambda ds: "memory-leak" in codes(ds), "a memory-leak diagnostic")
    fix_line = line_of(LEAK, "return 0;")
    for version, char in enumerate("free(p);\n", start=2):
        column = 4 + version - 2
        edit(client, uri, version, (fix_line, column, fix_line, column), char)
    last = 1 + len("free(p);\n")
    await diagnostics(client, uri, lambda ds: "memory-leak" not in codes(ds), "the leak to disappear")

    def checked_versions() -> list[int]:
        return [
            int(m.message.split(" v", 1)[1].split(":", 1)[0])
            for m in client.log_messages
            if m.message.startswith("ctlsp: checked leak.c v")
        ]

    assert await until(lambda: last in checked_versions(), "the last version's check")
    assert set(checked_versions()) <= {1, last}  # intermediate versions were never checked


@pytest.mark.slow
async def test_workspace_scan_covers_unopened_files_and_added_folders(
    client: LanguageClient, tmp_path: Path
) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    (first / "a.c").write_text(LEAK)
    (second / "b.c").write_text(LEAK)
    await start(client, first)
    await diagnostics(
        client, (first / "a.c").as_uri(), lambda ds: "memory-leak" in codes(ds), "a.c from the scan"
    )
    assert (second / "b.c").as_uri() not in client.diagnostics
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=second.as_uri(), name="two")], removed=[]
            )
        )
    )
    await diagnostics(
        client, (second / "b.c").as_uri(), lambda ds: "memory-leak" in codes(ds), "b.c after adding"
    )


@pytest.mark.slow
async def test_cross_file_double_free_has_a_witness_through_the_other_file(
    client: LanguageClient, tmp_path: Path
) -> None:
    a, b = tmp_path / "a.c", tmp_path / "b.c"
    a.write_text(
        "#include <stdlib.h>\nvoid release(char *p);\n\nvoid work(int n)\n{\n    char *p = malloc(n);\n"
        "    if (!p)\n        return;\n    release(p);\n    free(p);\n}\n"
    )
    b.write_text("#include <stdlib.h>\nvoid release(char *q)\n{\n    free(q);\n}\n")
    await start(client, tmp_path)
    uri = open_doc(client, a)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    found = await diagnostics(
        client, uri, lambda ds: "double-free" in codes(ds), "the cross-file double free"
    )
    double = next(d for d in found if d.code == "double-free")
    assert double.range.start.line == 9
    assert double.related_information
    assert b.as_uri() in [r.location.uri for r in double.related_information]
    payload = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("ctlsp.witness", [uri, 9, 4])
    )
    assert isinstance(payload, dict) and payload["rule"] == "double-free"
    inside = [s for s in payload["steps"] if s["uri"] == b.as_uri()]
    assert inside and inside[0]["function"] == "release" and inside[0]["stack"] == ["work"]
    assert inside[0]["range"]["start"]["line"] == 3


async def test_a_long_check_shows_its_findings_so_far(client: LanguageClient, tmp_path: Path) -> None:
    """With ``partialResultsMs`` 0 every function checked adds its findings to the editor at once, so
    a large file shows its first findings long before its check ends; they only ever grow, and the
    last publication is the complete result, sent once."""
    leaky = "void leak_{k}(int n)\n{{\n    char *p = malloc(n);\n    if (n)\n        p[0] = 1;\n}}\n"
    path = tmp_path / "many.c"
    clean = "int clean_{k}(int n)\n{{\n    return n + {k};\n}}\n"
    tail = "".join(clean.format(k=k) for k in range(4))  # the last report is already the whole result
    path.write_text("#include <stdlib.h>\n" + "\n".join(leaky.format(k=k) for k in range(8)) + tail)
    uri = path.as_uri()
    seen: list[int] = []
    features = client.protocol.fm.features  # count every publication, then let the client record it
    record = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            seen.append(len(params.diagnostics))
        record(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published

    await start(client, tmp_path, settings={"debounceMs": 0, "partialResultsMs": 0})
    open_doc(client, path)
    everything = ["memory-leak"] * 8 + ["null-dereference"] * 8  # each function leaks and skips a NULL check
    await diagnostics(client, uri, lambda d: codes(d) == everything, "all sixteen findings")
    assert any(0 < n < 16 for n in seen), seen  # findings were shown before the check ended
    assert seen == sorted(set(seen)), seen  # growing, and never the same publication twice


@pytest.mark.slow
async def test_function_too_deep_to_model_gets_an_information_diagnostic(
    client: LanguageClient, tmp_path: Path
) -> None:
    await start(client, tmp_path)
    text = "int deep(int x) {\n" + "{" * 3000 + "x = 1;" + "}" * 3000 + "\n    return x;\n}\n" + LEAK
    path = tmp_path / "deep.c"
    path.write_text(text)
    uri = open_doc(client, path)
    found = await diagnostics(
        client, uri, lambda ds: {"not-checked", "memory-leak"} <= set(codes(ds)), "a not-checked note and the leak"
    )
    note = next(d for d in found if d.code == "not-checked")
    assert note.severity == types.DiagnosticSeverity.Information
    assert note.range.start.line == 0 and "'deep' was not checked" in note.message
    assert (note.range.start.character, note.range.end.character) == (4, 8)  # the function's name
    assert await code_actions(client, uri, note) == []  # a note about ctlsp: no rule to suppress or disable
