"""pygls protocol that leaves C documents out of pygls' own in-memory workspace.

The server keeps each open C file itself (UTF-8 bytes plus an incrementally re-parsed tree); letting
pygls keep a second copy would re-split the whole text on every keystroke, which on a 50k-line file
costs more than the incremental parse.  Other documents (ctlsp.toml) still go to pygls' workspace.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from server.workspace import C_SUFFIXES


def _is_c(uri: str) -> bool:
    return uri.endswith(C_SUFFIXES)


class CtlspProtocol(LanguageServerProtocol):
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        if not _is_c(params.text_document.uri):
            self.workspace.put_text_document(params.text_document)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        if not _is_c(params.text_document.uri):
            for change in params.content_changes:
                self.workspace.update_text_document(params.text_document, change)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        if not _is_c(params.text_document.uri):
            self.workspace.remove_text_document(params.text_document.uri)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
