"""Result ids and the reports of pulled diagnostics (``server/lsp/pulled.py``), without a client."""

from __future__ import annotations

from lsprotocol import types

from server.lsp.pulled import ResultIds, document_report, normal_uri, workspace_report


def diagnostic(line: int, message: str = "leak") -> types.Diagnostic:
    return types.Diagnostic(
        range=types.Range(types.Position(line, 0), types.Position(line, 4)), message=message, code="memory-leak"
    )


def test_a_result_id_changes_exactly_when_the_diagnostics_change() -> None:
    ids = ResultIds("s")
    first = ids.update("file:///a.c", None, [diagnostic(1)])
    assert ids.update("file:///a.c", [diagnostic(1)], [diagnostic(1)]) == first  # equal, not identical
    moved = ids.update("file:///a.c", [diagnostic(1)], [diagnostic(2)])
    assert moved != first
    worded = ids.update("file:///a.c", [diagnostic(2)], [diagnostic(2, "other")])
    assert worded not in (first, moved)
    cleared = ids.update("file:///a.c", [diagnostic(2, "other")], [])
    assert cleared not in (first, moved, worded)
    assert ids.update("file:///a.c", [], []) == cleared
    assert ids.get("file:///a.c") == cleared


def test_result_ids_are_never_reused_across_documents_or_sessions() -> None:
    ids = ResultIds("s")
    a = ids.update("file:///a.c", None, [])
    b = ids.update("file:///b.c", None, [])
    assert a != b
    assert ResultIds().update("file:///a.c", None, []) != ResultIds().update("file:///a.c", None, [])


def test_the_version_is_the_one_of_the_last_publication() -> None:
    ids = ResultIds("s")
    ids.update("file:///a.c", None, [], 3)
    assert ids.version("file:///a.c") == 3
    ids.update("file:///a.c", [], [], None)  # closed: the file on disk
    assert ids.version("file:///a.c") is None and ids.version("file:///b.c") is None


def test_document_report_is_unchanged_only_for_the_current_id() -> None:
    items = [diagnostic(1)]
    full = document_report(items, "s-2", None)
    assert isinstance(full, types.RelatedFullDocumentDiagnosticReport)
    assert full.items == items and full.result_id == "s-2"
    stale = document_report(items, "s-2", "s-1")
    assert isinstance(stale, types.RelatedFullDocumentDiagnosticReport) and stale.result_id == "s-2"
    same = document_report(items, "s-2", "s-2")
    assert isinstance(same, types.RelatedUnchangedDocumentDiagnosticReport) and same.result_id == "s-2"
    never = document_report([], None, None)  # nothing checked yet: no id to come back with
    assert isinstance(never, types.RelatedFullDocumentDiagnosticReport) and never.result_id is None


def test_workspace_report_covers_every_document_and_skips_only_what_the_client_holds() -> None:
    ids = ResultIds("s")
    diagnostics = {"file:///w/a.c": [diagnostic(1)], "file:///w/b.c": [], "file:///w/c.h": [diagnostic(3)]}
    for uri, items in diagnostics.items():
        ids.update(uri, None, items, 7 if uri.endswith("a.c") else None)
    held = [
        types.PreviousResultId(uri="file:///w/b.c", value=ids.get("file:///w/b.c") or ""),
        types.PreviousResultId(uri="file:///w/c.h", value="s-0"),  # an old id
        types.PreviousResultId(uri="file:///w/gone.c", value="s-1"),  # nothing known of it: not reported
    ]
    report = workspace_report(diagnostics, ids, held)
    by_uri = {item.uri: item for item in report.items}
    assert sorted(by_uri) == sorted(diagnostics)
    a, b, c = by_uri["file:///w/a.c"], by_uri["file:///w/b.c"], by_uri["file:///w/c.h"]
    assert isinstance(a, types.WorkspaceFullDocumentDiagnosticReport) and a.items == [diagnostic(1)]
    assert a.version == 7 and a.result_id == ids.get("file:///w/a.c")
    assert isinstance(b, types.WorkspaceUnchangedDocumentDiagnosticReport) and b.version is None
    assert b.result_id == ids.get("file:///w/b.c")
    assert isinstance(c, types.WorkspaceFullDocumentDiagnosticReport) and c.items == [diagnostic(3)]


def test_previous_ids_match_whatever_the_client_escapes() -> None:
    ids = ResultIds("s")
    uri = normal_uri("file:///w/a%20b.c")
    ids.update(uri, None, [])
    spelled = "file:///w/a b.c" if uri != "file:///w/a b.c" else "file:///w/a%20b.c"
    report = workspace_report({uri: []}, ids, [types.PreviousResultId(uri=spelled, value=ids.get(uri) or "")])
    assert isinstance(report.items[0], types.WorkspaceUnchangedDocumentDiagnosticReport)
