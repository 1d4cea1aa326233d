"""LSP features of ctlsp: each notification or request handler delegates to :class:`CtlspServer`.

Handlers are thin and individually guarded: an exception in one request is logged to the client
(window/logMessage) and answered with an empty result, so a bug never takes the session down.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris

from extractors.api import NOT_CHECKED, Config
from server.lsp.actions import disable_rule_action, rule_of, suppress_action
from server.lsp.analysis import Analysis
from server.lsp.diagnostics import path_to_uri
from server.lsp.documents import Document
from server.lsp.positions import Columns
from server.lsp.server import VERSION, CtlspServer
from server.lsp.witness import COMMAND as WITNESS_COMMAND
from server.lsp.witness import hover_markdown, witness_payload
from server.workspace import C_SUFFIXES, CONFIG_NAME, PYPROJECT, find_config_file, read_source


def create_server() -> CtlspServer:
    server = CtlspServer()

    def guarded(what: str, default: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Per-request safety net: an exception is logged to the client and the request gets ``default``."""

        def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
            if asyncio.iscoroutinefunction(fn):

                async def run_async(ls: CtlspServer, params: Any) -> Any:
                    try:
                        return await fn(ls, params)
                    except Exception:
                        ls.log(f"ctlsp: {what} failed:\n{traceback.format_exc()}", types.MessageType.Error)
                        return default

                return run_async

            def run(ls: CtlspServer, params: Any) -> Any:
                try:
                    return fn(ls, params)
                except Exception:
                    ls.log(f"ctlsp: {what} failed:\n{traceback.format_exc()}", types.MessageType.Error)
                    return default

            return run

        return wrap

    @server.feature(types.INITIALIZE)
    @guarded("initialize")
    def on_initialize(ls: CtlspServer, params: types.InitializeParams) -> None:
        ls.init_settings = params.initialization_options
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

    @server.feature(types.INITIALIZED)
    @guarded("initialized")
    async def on_initialized(ls: CtlspServer, params: types.InitializedParams) -> None:
        try:
            config = await ls.load_configuration()
            ls.analysis = Analysis(config)
        except Exception:
            ls.log(f"ctlsp: bad configuration, using defaults:\n{traceback.format_exc()}")
            ls.analysis = Analysis(Config())
        ls.ready.set()
        await register_watchers(ls)
        ls.log(f"ctlsp {VERSION}: {'pull' if ls.pull_mode else 'push'} diagnostics, roots {ls.roots}")
        ls.request_full_check("workspace opened")

    @server.feature(types.SHUTDOWN)
    def on_shutdown(ls: CtlspServer, params: None) -> None:
        ls.stop_background_work()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded("didOpen")
    def did_open(ls: CtlspServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        path = ls.path_of(item.uri)
        if not path.endswith(C_SUFFIXES):
            return
        ls.docs[item.uri] = Document.from_text(item.uri, path, item.version, item.text, ls.columns)
        ls.schedule_check(item.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("didChange")
    def did_change(ls: CtlspServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.docs.get(params.text_document.uri)
        if doc is None:
            return
        changed = doc.apply_changes(params.content_changes, params.text_document.version)
        ls.note_edited(doc.uri, doc.functions_in(changed))
        ls.schedule_check(doc.uri, ls.settings.debounce_ms / 1000)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded("didSave")
    def did_save(ls: CtlspServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith("/" + CONFIG_NAME) or uri.endswith("/" + PYPROJECT):
            ls.spawn(ls.reload_configuration(f"{CONFIG_NAME} saved"), "configuration reload")
        elif uri in ls.docs:
            ls.request_full_check(f"{Path(ls.docs[uri].path).name} saved")

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("didClose")
    def did_close(ls: CtlspServer, params: types.DidCloseTextDocumentParams) -> None:
        doc = ls.forget(params.text_document.uri)
        if doc is not None and ls.analysis is not None:
            analysis = ls.analysis
            text = read_source(Path(doc.path))
            if text is None:
                ls.spawn(analysis.run(analysis.remove_sync, doc.path), "close")
            else:
                ls.spawn(analysis.run(analysis.update_sync, doc.path, text), "close")

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded("didChangeWorkspaceFolders")
    def did_change_folders(ls: CtlspServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {Path(uris.to_fs_path(f.uri) or f.uri).resolve() for f in params.event.removed}
        added = [Path(uris.to_fs_path(f.uri) or f.uri).resolve() for f in params.event.added]
        ls.roots = [r for r in ls.roots if r not in removed] + [r for r in added if r not in ls.roots]
        ls.request_full_check("workspace folders changed")

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded("didChangeConfiguration")
    def did_change_configuration(ls: CtlspServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and "ctlsp" in settings:
            ls.init_settings = settings["ctlsp"]
        ls.spawn(ls.reload_configuration("settings changed"), "configuration reload")

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded("didChangeWatchedFiles")
    def did_change_watched(ls: CtlspServer, params: types.DidChangeWatchedFilesParams) -> None:
        config_changed = False
        sources_changed = False
        for event in params.changes:
            name = event.uri.rsplit("/", 1)[-1]
            if name in (CONFIG_NAME, PYPROJECT):
                config_changed = True
            elif name.endswith(C_SUFFIXES) and event.uri not in ls.docs:
                sources_changed = True
        if config_changed:
            ls.spawn(ls.reload_configuration(f"{CONFIG_NAME} changed"), "configuration reload")
        elif sources_changed:
            ls.request_full_check("files changed on disk")

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded("hover")
    def hover(ls: CtlspServer, params: types.HoverParams) -> types.Hover | None:
        hits = ls.findings_at(params.text_document.uri, params.position)
        if not hits:
            return None
        parts = [hover_markdown(f, ls.line, ls.rule_doc(f.rule_id)) for f, _ in hits]
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
            range=hits[0][1].range,
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @guarded("codeAction", [])
    def code_action(ls: CtlspServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        path = ls.path_of(uri)
        actions: list[types.CodeAction] = []
        seen: set[str] = set()
        for diagnostic in params.context.diagnostics:
            rule = rule_of(diagnostic)
            if rule is None or rule == NOT_CHECKED:  # a note about ctlsp itself: nothing to suppress
                continue
            line_text = ls.line(path, diagnostic.range.start.line)
            actions.append(suppress_action(uri, diagnostic, line_text, rule))
            if rule in seen:
                continue
            seen.add(rule)
            root = ls.root_for(path)
            config_path = find_config_file(root) or root / CONFIG_NAME  # the file in effect, never shadowed
            config_doc = ls.workspace.text_documents.get(path_to_uri(str(config_path)))
            existing = config_doc.source if config_doc else read_source(config_path)
            actions.append(disable_rule_action(config_path, rule, existing, diagnostic))
        return actions

    @server.command(WITNESS_COMMAND)
    async def witness(ls: CtlspServer, *args: Any) -> dict[str, Any] | None:
        if len(args) not in (2, 3) or not isinstance(args[0], str):
            raise ValueError(f"{WITNESS_COMMAND} takes [uri, line, character] or [uri, fingerprint]")
        uri = args[0]
        await ls.wait_checked(uri)
        if len(args) == 3:
            hits = ls.findings_at(uri, types.Position(int(args[1]), int(args[2])))
            finding = hits[0][0] if hits else None
        else:
            finding = next(
                (f for f in ls.findings.get(ls.path_of(uri), []) if f.fingerprint == args[1]), None
            )
        return witness_payload(finding, ls.line, ls.columns) if finding else None

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="ctlsp", inter_file_dependencies=True, workspace_diagnostics=False
        ),
    )
    async def pull_diagnostics(
        ls: CtlspServer, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport:
        try:
            await ls.wait_checked(params.text_document.uri)
        except Exception:
            ls.log(f"ctlsp: pull diagnostics failed:\n{traceback.format_exc()}", types.MessageType.Error)
        return types.RelatedFullDocumentDiagnosticReport(
            items=ls.diagnostics.get(params.text_document.uri, [])
        )

    return server


async def register_watchers(ls: CtlspServer) -> None:
    """Ask the client to tell us about ctlsp.toml and C files changing on disk (if it can)."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[
            types.FileSystemWatcher(glob_pattern=f"**/{CONFIG_NAME}"),
            types.FileSystemWatcher(glob_pattern=f"**/{PYPROJECT}"),
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
