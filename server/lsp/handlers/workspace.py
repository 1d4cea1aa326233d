"""Workspace events: folders added or removed, settings changed, files changed on disk, and the
file watchers the server asks the client for.

Files the editor has open are the editor's business (text sync); these events are about everything
else the checks read: the configuration and the C files nobody has open.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls import uris

from server.lsp.handlers.base import Feature, guarded
from server.lsp.server import CtlspServer
from server.workspace import C_SUFFIXES, COMPILE_COMMANDS, CONFIG_NAME, PYPROJECT


@guarded("didChangeWorkspaceFolders")
def did_change_folders(ls: CtlspServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    removed = {Path(uris.to_fs_path(f.uri) or f.uri).resolve() for f in params.event.removed}
    added = [Path(uris.to_fs_path(f.uri) or f.uri).resolve() for f in params.event.added]
    roots = [r for r in ls.roots if r not in removed] + [r for r in added if r not in ls.roots]

    async def change() -> None:
        await ls.set_roots(roots)
        ls.request_full_check("workspace folders changed")

    ls.spawn(change(), "workspace folders change")


@guarded("didChangeConfiguration")
def did_change_configuration(ls: CtlspServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict) and "ctlsp" in settings:
        ls.init_settings = settings["ctlsp"]
    ls.spawn(ls.reload_configuration("settings changed"), "configuration reload")


@guarded("didChangeWatchedFiles")
def did_change_watched(ls: CtlspServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A changed configuration file reloads the configuration; so does a ``compile_commands.json``
    that appears, goes or is not the one in use (which one counts is part of the configuration:
    the nearest at or above the folder). A change to the database in use only re-reads it: the
    workspace check hands its new text in, and only files whose entries changed are re-derived."""
    reload: str | None = None
    recheck: str | None = None
    databases = (f.analysis.config.compile_commands for f in ls.folders.values())
    in_use = {Path(d).resolve() for d in databases if d}
    for event in params.changes:
        name = event.uri.rsplit("/", 1)[-1]
        if name in (CONFIG_NAME, PYPROJECT):
            reload = f"{name} changed"
        elif name == COMPILE_COMMANDS:
            path = Path(uris.to_fs_path(event.uri) or event.uri).resolve()
            same = path in in_use
            if same and event.type == types.FileChangeType.Changed:
                recheck = recheck or f"{path} changed"
            else:
                reload = reload or f"{path} {_VERB[event.type]}"
        elif name.endswith(C_SUFFIXES) and event.uri not in ls.docs:
            recheck = recheck or "files changed on disk"
    if reload is not None:
        ls.spawn(ls.reload_configuration(reload), "configuration reload")
    elif recheck is not None:
        ls.request_full_check(recheck)


_VERB = {
    types.FileChangeType.Created: "appeared",
    types.FileChangeType.Changed: "changed",
    types.FileChangeType.Deleted: "was deleted",
}


async def register_watchers(ls: CtlspServer) -> None:
    """Ask the client to tell us about the configuration files (ctlsp.toml, pyproject.toml,
    compile_commands.json) and C files changing on disk (if it can)."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[
            types.FileSystemWatcher(glob_pattern=f"**/{CONFIG_NAME}"),
            types.FileSystemWatcher(glob_pattern=f"**/{PYPROJECT}"),
            types.FileSystemWatcher(glob_pattern=f"**/{COMPILE_COMMANDS}"),
            types.FileSystemWatcher(glob_pattern="**/*.{c,h}"),
        ]
    )
    registration = types.Registration(
        id="ctlsp-watch", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception as e:
        ls.log(f"ctlsp: file watching unavailable: {e}")


FEATURES = (
    Feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, did_change_folders),
    Feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION, did_change_configuration),
    Feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, did_change_watched),
)
