"""Every handler create_server registers is guarded: garbage params are logged, never raised."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

from lsprotocol import types

from server.lsp.features import create_server
from server.lsp.server import CtlspServer


def registered(server: CtlspServer) -> dict[str, Any]:
    return {**server.protocol.fm.features, **server.protocol.fm.commands}


def test_every_handler_is_wrapped_by_guarded() -> None:
    handlers = registered(create_server())
    assert types.INITIALIZE in handlers and types.TEXT_DOCUMENT_HOVER in handlers and "ctlsp.witness" in handlers
    for name, handler in handlers.items():
        fn = getattr(handler, "func", handler)  # pygls binds the server with partial() or a .func wrapper
        assert getattr(fn, "__wrapped__", None) is not None, f"{name} is not guarded"


def test_a_handler_that_raises_is_logged_and_answered_with_its_default() -> None:
    server = create_server()
    logged: list[str] = []
    server.log = lambda message, kind=types.MessageType.Info: logged.append(message)  # type: ignore[method-assign]

    async def call_all() -> None:
        for name, handler in server.protocol.fm.features.items():
            if name == types.SHUTDOWN:
                continue  # takes no params: None is what it always gets
            before = len(logged)
            result = handler(None)  # every handler reads its params, so None raises inside it
            if inspect.isawaitable(result):
                result = await result
            assert len(logged) > before and " failed:\n" in logged[-1], name
            defaults = (
                None,
                [],
                types.RelatedFullDocumentDiagnosticReport(items=[]),
                types.WorkspaceDiagnosticReport(items=[]),
            )
            assert result in defaults, name

    asyncio.run(call_all())
