"""Session lifecycle: ``initialize`` (what the client can do, where the workspace is),
``initialized`` (configuration, file watchers, the first workspace check) and ``shutdown``.

The first check waits for ``initialized`` rather than ``initialize`` because only then may the
server ask the client for its settings (``workspace/configuration``).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls import uris

from server.lsp.handlers.base import Feature, guarded
from server.lsp.handlers.workspace import register_watchers
from server.lsp.positions import Columns
from server.lsp.server import VERSION, CtlspServer


@guarded("initialize")
def on_initialize(ls: CtlspServer, params: types.InitializeParams) -> None:
    ls.init_settings = params.initialization_options
    ls.worker.start()  # it loads while the session begins: the first check waits the less
    if isinstance(ls.init_settings, dict) and "ctlsp" in ls.init_settings:
        ls.init_settings = ls.init_settings["ctlsp"]
    folders = params.workspace_folders or []
    roots = [uris.to_fs_path(f.uri) for f in folders]
    if not roots and params.root_uri:
        roots = [uris.to_fs_path(params.root_uri)]
    ls.roots = [Path(r).resolve() for r in roots if r]
    text_caps = params.capabilities.text_document
    ls.pull_mode = bool(text_caps and text_caps.diagnostic)
    general = params.capabilities.general
    encodings = (general.position_encodings if general else None) or []
    for enc in encodings:
        if enc in ("utf-8", "utf-16", "utf-32"):
            ls.columns = Columns(str(enc))
            break


@guarded("initialized")
async def on_initialized(ls: CtlspServer, params: types.InitializedParams) -> None:
    await ls.set_roots(ls.roots)
    ls.ready.set()
    await register_watchers(ls)
    ls.log(f"ctlsp {VERSION}: {'pull' if ls.pull_mode else 'push'} diagnostics, roots {ls.roots}")
    ls.request_full_check("workspace opened")


@guarded("shutdown")
def on_shutdown(ls: CtlspServer, params: None) -> None:
    ls.stop_background_work()


FEATURES = (
    Feature(types.INITIALIZE, on_initialize),
    Feature(types.INITIALIZED, on_initialized),
    Feature(types.SHUTDOWN, on_shutdown),
)
