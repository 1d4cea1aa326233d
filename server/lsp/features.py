"""``create_server``: a :class:`CtlspServer` with every LSP handler of ctlsp registered.

The handlers live in ``server/lsp/handlers``, one module per concern (lifecycle, text sync, workspace
events, language features), at module level and each wrapped in ``guarded``; this module only wires
them to a fresh server, so that every caller (the CLI, tests) gets the same server.
"""

from __future__ import annotations

from server.lsp.handlers import language, lifecycle, text_sync, workspace
from server.lsp.server import CtlspServer

_MODULES = (lifecycle, text_sync, workspace, language)


def create_server() -> CtlspServer:
    server = CtlspServer()
    for module in _MODULES:
        for method, handler, options in module.FEATURES:
            server.feature(method, options)(handler)
    for name, handler in language.COMMANDS:
        server.command(name)(handler)
    return server
