"""Text synchronisation: open, change, save and close of documents.

Only C files become :class:`Document` s (bytes and a line table); an edit is
applied at once and its check is debounced, a save re-checks the whole workspace (where calls into
other files are followed), and closing hands the file on disk back to the project and re-checks it,
so that the findings shown for a closed file are those of its text on disk, as for every file nobody
has open.

Which documents are C is decided by the file's extension, the one rule the workspace scan follows
too (``C_SUFFIXES``), not by the language id: editors open ``.h`` files as C++ (VS Code's ``cpp``),
and a ``.cpp`` file is not C whatever the editor calls it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from extractors.api import Cancelled
from server.lsp.diagnostics import path_to_uri
from server.lsp.documents import Document
from server.lsp.handlers.base import Feature, guarded
from server.lsp.server import CtlspServer
from server.lsp.worker_client import FolderAnalysis
from server.workspace import C_SUFFIXES, CONFIG_NAME, PYPROJECT, skipped_dir


def is_c_document(path: str) -> bool:
    return path.endswith(C_SUFFIXES)


@guarded("didOpen")
def did_open(ls: CtlspServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    path = ls.path_of(item.uri)
    if not is_c_document(path):
        return
    ls.docs[item.uri] = Document.from_text(item.uri, path, item.version, item.text, ls.columns)
    ls.withdraw_pushed(path_to_uri(path))  # a pull client pulls it while it is open
    ls.schedule_check(item.uri, 0)


@guarded("didChange")
def did_change(ls: CtlspServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.docs.get(params.text_document.uri)
    if doc is None:
        return
    doc.apply_changes(params.content_changes, params.text_document.version)
    ls.note_changes(doc.uri, params.content_changes)
    ls.schedule_check(doc.uri, ls.settings_for(doc.path).debounce_ms / 1000, edited=True)


@guarded("didSave")
def did_save(ls: CtlspServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith("/" + CONFIG_NAME) or uri.endswith("/" + PYPROJECT):
        ls.spawn(ls.reload_configuration(f"{CONFIG_NAME} saved"), "configuration reload")
    elif uri in ls.docs:
        ls.request_full_check(f"{Path(ls.docs[uri].path).name} saved")


@guarded("didClose")
def did_close(ls: CtlspServer, params: types.DidCloseTextDocumentParams) -> None:
    doc = ls.forget(params.text_document.uri)
    analysis = ls.analysis_for(doc.path) if doc is not None else None
    if doc is None or analysis is None:
        return
    analysis.forget_text(doc.path)
    key = path_to_uri(doc.path)
    task = ls.spawn(recheck_from_disk(ls, analysis, doc), f"re-check of {Path(doc.path).name} on close")
    ls.disk_checks[key] = task  # a pull of the closed document waits for it

    def done(_: asyncio.Task[None]) -> None:
        if ls.disk_checks.get(key) is task:
            del ls.disk_checks[key]

    task.add_done_callback(done)


async def recheck_from_disk(ls: CtlspServer, analysis: FolderAnalysis, doc: Document) -> None:
    """A closed document's file on disk goes back into the project in place of the buffer, and is
    checked as the workspace check checks it (across files); its findings replace the buffer's. A
    buffer closed with unsaved edits may have changed other files' findings too: the workspace is
    checked again then. A file gone from disk, or one the workspace does not hold (opened from
    elsewhere), leaves the project and its diagnostics are cleared, as the workspace check would.
    Nothing is published if the document is opened again (or the configuration changes) meanwhile:
    the checker process skips the check if the document's check is requested before this one runs.
    If the process dies meanwhile, the new one's workspace check publishes the file."""
    path = doc.path
    folder = ls.folder_for(path)
    keep = folder is not None and in_workspace(path, folder.disk_roots())  # the folder owns it: see folders

    def wanted() -> bool:
        return ls.analysis_for(path) is analysis and doc.uri not in ls.docs

    while True:
        try:
            result = await analysis.check_disk_text(path, doc.checked_text, keep)
            break
        except Cancelled:  # an edit of another file came in: its check runs, then this one again
            await ls.edits_checked()
    if result is None or not wanted() or ls.doc_for_path(path) is not None:
        return
    findings, differed = result
    ls.publish(path, findings)
    if ls.pull_mode:
        ls.refresh_pulled_diagnostics()
    if differed:
        ls.request_full_check(f"{Path(path).name} closed without saving")


def in_workspace(path: str, roots: list[Path]) -> bool:
    """Whether the workspace check reads ``path``: a C file under one of the folders, in no folder
    the walk skips (hidden, build output, dependencies) and not hidden itself."""
    file = Path(path)
    for root in roots:
        try:
            inside = file.relative_to(root.resolve())
        except ValueError:
            continue
        folders, name = inside.parts[:-1], inside.name
        if is_c_document(name) and not name.startswith(".") and not any(skipped_dir(d) for d in folders):
            return True
    return False


FEATURES = (
    Feature(types.TEXT_DOCUMENT_DID_OPEN, did_open),
    Feature(types.TEXT_DOCUMENT_DID_CHANGE, did_change),
    Feature(types.TEXT_DOCUMENT_DID_SAVE, did_save),
    Feature(types.TEXT_DOCUMENT_DID_CLOSE, did_close),
)
