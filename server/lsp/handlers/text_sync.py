"""Text synchronisation: open, change, save and close of documents.

Only C files become :class:`Document` s (bytes plus an incrementally re-parsed tree); an edit is
applied at once and its check is debounced, a save re-checks the whole workspace (where calls into
other files are followed), and closing hands the file on disk back to the project.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from server.lsp.documents import Document
from server.lsp.handlers.base import Feature, guarded
from server.lsp.server import CtlspServer, read_checked_source
from server.workspace import C_SUFFIXES, CONFIG_NAME, PYPROJECT


@guarded("didOpen")
def did_open(ls: CtlspServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    path = ls.path_of(item.uri)
    if not path.endswith(C_SUFFIXES):
        return
    ls.docs[item.uri] = Document.from_text(item.uri, path, item.version, item.text, ls.columns)
    ls.schedule_check(item.uri, 0)


@guarded("didChange")
def did_change(ls: CtlspServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.docs.get(params.text_document.uri)
    if doc is None:
        return
    changed = doc.apply_changes(params.content_changes, params.text_document.version)
    ls.note_edited(doc.uri, doc.functions_in(changed))
    ls.schedule_check(doc.uri, ls.settings.debounce_ms / 1000, edited=True)


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
    if doc is not None and ls.analysis is not None:
        analysis = ls.analysis
        text = read_checked_source(Path(doc.path))
        if text is None:
            ls.spawn(analysis.run(analysis.remove_sync, doc.path), "close")
        else:
            ls.spawn(analysis.run(analysis.update_sync, doc.path, text), "close")


FEATURES = (
    Feature(types.TEXT_DOCUMENT_DID_OPEN, did_open),
    Feature(types.TEXT_DOCUMENT_DID_CHANGE, did_change),
    Feature(types.TEXT_DOCUMENT_DID_SAVE, did_save),
    Feature(types.TEXT_DOCUMENT_DID_CLOSE, did_close),
)
