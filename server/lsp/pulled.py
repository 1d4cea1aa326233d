"""Pulled diagnostics: result ids and the reports of ``textDocument/diagnostic`` and
``workspace/diagnostic``.

A result id names one list of diagnostics of one document: it changes whenever that list changes,
and only then, so that a client that sends the id it holds back gets "unchanged" instead of the list
again. Ids are shared by the document pull and the workspace pull (a client may send back either's
id for a document in the other) and carry a prefix of their own per session, so that an id a client
kept from an earlier server process never matches one of this process.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterable, Mapping, Sequence

from lsprotocol import types
from pygls import uris

from server.lsp.diagnostics import path_to_uri

DocumentReport = types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport
WorkspaceItem = types.WorkspaceFullDocumentDiagnosticReport | types.WorkspaceUnchangedDocumentDiagnosticReport


class ResultIds:
    """The result id of each document's current diagnostics, and the version of the open document
    they were found in (None for a file nobody has open)."""

    def __init__(self, session: str | None = None) -> None:
        self._session = session if session is not None else secrets.token_hex(4)
        self._counter = itertools.count(1)
        self._ids: dict[str, str] = {}
        self._versions: dict[str, int | None] = {}

    def update(
        self,
        uri: str,
        old: Sequence[types.Diagnostic] | None,
        new: Sequence[types.Diagnostic],
        version: int | None = None,
    ) -> str:
        """``uri``'s diagnostics go from ``old`` (None: never reported) to ``new``: a new id unless
        they are equal. The counter is shared by all documents, so an id is never given twice."""
        current = self._ids.get(uri)
        if current is None or old is None or list(old) != list(new):
            current = f"{self._session}-{next(self._counter)}"
            self._ids[uri] = current
        self._versions[uri] = version
        return current

    def get(self, uri: str) -> str | None:
        return self._ids.get(uri)

    def version(self, uri: str) -> int | None:
        return self._versions.get(uri)


def normal_uri(uri: str) -> str:
    """The server's spelling of a client's file URI (the one diagnostics are kept under), so that a
    client that encodes characters differently still finds its documents."""
    path = uris.to_fs_path(uri)
    return path_to_uri(path) if path else uri


def document_report(items: Sequence[types.Diagnostic], result_id: str | None, previous: str | None) -> DocumentReport:
    """``textDocument/diagnostic``: "unchanged" when the client already holds ``result_id``."""
    if result_id is not None and previous == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=list(items), result_id=result_id)


def workspace_report(
    diagnostics: Mapping[str, Sequence[types.Diagnostic]],
    ids: ResultIds,
    previous: Iterable[types.PreviousResultId],
) -> types.WorkspaceDiagnosticReport:
    """``workspace/diagnostic``: one report per document the checks have reported on (every file of
    the last workspace check, open or not), full unless the client's previous id for it is current;
    with the version of the open document the diagnostics are of (null for a closed file)."""
    held: dict[str, str] = {}
    for item in previous:
        held[item.uri] = item.value
        held.setdefault(normal_uri(item.uri), item.value)
    items: list[WorkspaceItem] = []
    for uri in sorted(diagnostics):
        result_id = ids.get(uri)
        version = ids.version(uri)
        if result_id is not None and held.get(uri) == result_id:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=version)
            )
        else:
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, items=list(diagnostics[uri]), version=version, result_id=result_id
                )
            )
    return types.WorkspaceDiagnosticReport(items=items)
