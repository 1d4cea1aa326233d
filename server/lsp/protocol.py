"""pygls protocol for ctlsp: C documents stay out of pygls' own workspace, and every request gets
the answer the LSP session rules ask for.

The server keeps each open C file itself (UTF-8 bytes plus an incrementally re-parsed tree); letting
pygls keep a second copy would re-split the whole text on every keystroke, which on a 50k-line file
costs more than the incremental parse.  Other documents (ctlsp.toml) still go to pygls' workspace.

pygls leaves some requests unanswered, so the client waits forever and the user sees a popup:
params that do not convert to the method's type (a negative position, a missing field) fail while
the message is read, before any handler runs, and requests after ``shutdown`` are dropped. Here the
first get InvalidParams, the second InvalidRequest, requests before ``initialize`` get
ServerNotInitialized, and notifications before it are dropped, as the specification says.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any

import cattrs
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method

from server.workspace import C_SUFFIXES

log = logging.getLogger(__name__)


def _is_c(uri: str) -> bool:
    return uri.endswith(C_SUFFIXES)


class _Answered:
    """Stands for a message that was answered while it was read (its params did not convert)."""


ANSWERED = _Answered()


def _invalid_params(method: str, error: BaseException | None) -> JsonRpcInvalidParams:
    """InvalidParams naming what is wrong, as cattrs puts it (``required field missing @ $.params.x``)."""
    if isinstance(error, cattrs.BaseValidationError):
        detail = "; ".join(cattrs.transform_error(error))
    else:
        detail = str(error) if error else "cannot be read"
    return JsonRpcInvalidParams(f"Invalid params of {method}: {detail}")


class CtlspProtocol(LanguageServerProtocol):
    initialize_received = False
    exit_status: int | None = None  # set by exit: 0 after shutdown, 1 without

    # ----- the session's rules ----------------------------------------------------------------
    def structure_message(self, data: dict[str, Any]) -> Any:
        """Answer a request whose params do not convert with InvalidParams (pygls raises, and the
        reading loop can only show the error to the user, leaving the request unanswered)."""
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and isinstance(data.get("method"), str)):
                raise  # a notification: nobody to answer
            method = data["method"]
            log.warning("invalid params of %s %r: %s", method, data["id"], exc.__cause__)
            self._send_response(data["id"], error=_invalid_params(method, exc.__cause__).to_response_error())
            return ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is ANSWERED:
            return
        method = getattr(message, "method", None)
        is_request = isinstance(message, RPCRequest)
        if method == types.INITIALIZE and is_request:
            self.initialize_received = True
        elif method is not None and method != types.EXIT:
            refusal: JsonRpcException | None = None
            if not self.initialize_received:
                refusal = JsonRpcServerNotInitialized(f"{method} before initialize")
            elif self._shutdown:
                refusal = JsonRpcInvalidRequest(f"{method} after shutdown")
            if refusal is not None:
                if is_request:
                    self._send_response(message.id, error=refusal.to_response_error())
                return  # a notification is dropped
        super().handle_message(message)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """Record the exit status before pygls ends the event loop: pygls' ``sys.exit`` there is
        swallowed by its own loop runner, so :meth:`CtlspServer.start_io` re-raises it."""
        self.exit_status = 0 if self._shutdown else 1
        yield from super().lsp_exit(*args)

    # ----- C documents are the server's own ----------------------------------------------------
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
