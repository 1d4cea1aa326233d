"""The ctlsp language server's state and check orchestration (the handlers live in handlers/).

Edits are applied on the event loop (cheap: a tree edit and an incremental re-parse); checking runs in
the checker process (``worker_client``) after a short debounce, and results for document versions that
are no longer current are dropped, so a burst of keystrokes costs one check, not one per key. The event
loop never waits on a check: requests are answered from the findings of the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import traceback
from collections.abc import Awaitable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer

from extractors.api import Cancelled, Config, Finding
from server.line_ends import split_lines
from server.lsp.diagnostics import contains, path_to_uri, to_diagnostic
from server.lsp.documents import Document
from server.lsp.folders import Folder, owner
from server.lsp.memory import IDLE_SECONDS
from server.lsp.positions import Columns
from server.lsp.progress import WorkProgress
from server.lsp.protocol import CtlspProtocol
from server.lsp.pulled import ResultIds
from server.lsp.settings import ServerSettings, load_workspace_config, merge_settings
from server.lsp.steady import Extent, LineShift, Shown, settle
from server.lsp.worker_client import FolderAnalysis, FolderClosed, PartialFindings, WorkerClient, WorkerGone, WorkerLost
from server.lsp.worker_messages import CheckOutcome, Extents
from server.workspace import read_source

log = logging.getLogger(__name__)
VERSION = "0.1.0"
FULL_CHECK_CHUNKS = 10


class CtlspServer(LanguageServer):
    protocol: CtlspProtocol

    def __init__(self) -> None:
        super().__init__(
            "ctlsp",
            VERSION,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=CtlspProtocol,
        )
        self.docs: dict[str, Document] = {}
        self.folders: dict[Path | None, Folder] = {}  # by root: see server.lsp.folders
        self.findings: dict[str, list[Finding]] = {}
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self._sent: dict[str, tuple[int | None, list[types.Diagnostic]]] = {}  # last push per uri
        self._shown: dict[str, Shown] = {}  # open uri -> what was last published for it (see ``steady``)
        self._shifts: dict[str, LineShift] = {}  # open uri -> the edits made since that publication
        self._complete: set[str] = set()  # paths whose findings of a finished check were published
        self.result_ids = ResultIds()  # of self.diagnostics, for pulls
        self.disk_checks: dict[str, asyncio.Task[None]] = {}  # uri -> re-check of a closed buffer's file
        self.init_settings: Any = None
        self.roots: list[Path] = []
        self.columns = Columns()
        self.pull_mode = False
        self.workspace_pulled = False  # a pull client has sent workspace/diagnostic (see ``pushes``)
        self._compile_warned: dict[Path | None, str | None] = {}  # per folder, the compile database problem last shown
        self.ready = asyncio.Event()
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._checking: dict[str, int] = {}  # document -> version whose check is on the worker now
        # uri -> pulls waiting: (version, whether its edited functions' findings will do, future)
        self._waiters: dict[str, list[tuple[int, bool, asyncio.Future[None]]]] = {}
        self._checked: dict[str, int] = {}
        self._first: dict[str, tuple[int, str | None]] = {}  # uri -> version, result id of its first publish
        self._whole_checked: dict[str, int] = {}
        self._disk: dict[str, tuple[float, list[str]]] = {}
        self._full_task: asyncio.Task[None] | None = None
        self._full_again = False
        self._background: set[asyncio.Task[Any]] = set()
        self._idle_collection: asyncio.Task[None] | None = None
        self.worker = WorkerClient(self._worker_ready, self._worker_lost)  # the checker process, started on first use

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio; on ``exit`` without ``shutdown`` end with status 1, as LSP asks.

        pygls' exit handler calls ``sys.exit(1)``, but its stdio runner catches that ``SystemExit``
        and returns normally, so the status is raised again once the session is over.
        """
        super().start_io(stdin, stdout)
        status = self.protocol.exit_status
        if status:
            raise SystemExit(status)

    # ----- small helpers -------------------------------------------------------------------------
    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def report_compile_commands(self) -> None:
        """Warn once about a compile database the project could not use, naming the file. A malformed
        ``compile_commands.json`` counts as none, so without a word every ``-D``/``-I`` in it would be
        silently ignored; the same problem is not repeated on each check, a new one is."""
        for root, folder in self.folders.items():
            error = folder.analysis.compile_commands_error
            if error is not None and error != self._compile_warned.get(root):
                self.warn_user(f"ctlsp: {error}; its compile flags are not used")
            self._compile_warned[root] = error

    def warn_user(self, message: str) -> None:
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        self.log(message, types.MessageType.Warning)

    def spawn(self, coro: Awaitable[Any], what: str) -> asyncio.Task[None]:
        """Run ``coro`` in the background; failures are logged to the client, never raised."""

        async def guarded() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except WorkerGone as e:  # the checker process died (said once, see ``_worker_lost``), a folder closed
                log.debug("%s ended: %s", what, e)
            except Exception:
                self.log(f"ctlsp: {what} failed:\n{traceback.format_exc()}", types.MessageType.Error)

        task = asyncio.get_running_loop().create_task(guarded())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def doc_for_path(self, path: str) -> Document | None:
        for doc in self.docs.values():
            if doc.path == path:
                return doc
        return None

    def line(self, path: str, number: int) -> str:
        """Text of a line of any file: the open buffer if there is one, else the file on disk."""
        doc = self.doc_for_path(path)
        if doc is not None:
            return doc.line_text(number)
        try:
            mtime = Path(path).stat().st_mtime
        except OSError:
            return ""
        cached = self._disk.get(path)
        if cached is None or cached[0] != mtime:
            text = read_source(Path(path)) or ""
            cached = (mtime, split_lines(text))
            self._disk[path] = cached
        lines = cached[1]
        return lines[number] if 0 <= number < len(lines) else ""

    def root_for(self, path: str) -> Path:
        return owner(self.roots, path) or Path(path).parent

    def folder_for(self, path: str) -> Folder | None:
        """The folder ``path`` belongs to (None before the configuration is loaded)."""
        return self.folders.get(owner(self.roots, path))

    def analysis_for(self, path: str) -> FolderAnalysis | None:
        folder = self.folder_for(path)
        return folder.analysis if folder is not None else None

    def settings_for(self, path: str) -> ServerSettings:
        folder = self.folder_for(path)
        return folder.settings if folder is not None else ServerSettings()

    # ----- configuration --------------------------------------------------------------------------
    async def fetch_settings(self, root: Path | None) -> Any:
        """The client's "ctlsp" settings for the folder ``root`` (its folder-level overrides too)."""
        workspace = self.client_capabilities.workspace
        if not (workspace and workspace.configuration):
            return self.init_settings
        scope = path_to_uri(str(root)) if root is not None else None
        try:
            result = await asyncio.wait_for(
                self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(scope_uri=scope, section="ctlsp")])
                ),
                timeout=10,
            )
        except Exception as e:
            self.log(f"ctlsp: workspace/configuration failed ({e}); using defaults")
            return self.init_settings
        return result[0] if result else None

    async def load_configuration(self, root: Path | None) -> tuple[Config, ServerSettings]:
        """The configuration of the folder ``root`` (its ctlsp.toml overlaid with the client's
        settings for it); problems are shown to the user, with defaults in their place."""
        base, problems = load_workspace_config(root)
        raw = await self.fetch_settings(root)
        from extractors.api import catalogue

        merged = merge_settings(base, raw, [r.id for r in catalogue(base)])
        problems.extend(merged.problems)
        where = f" (folder {root.name})" if root is not None and len(self.roots) > 1 else ""
        for problem in problems:
            self.warn_user(problem + where)
        return merged.config, merged.settings

    async def open_folder(self, root: Path | None) -> None:
        try:
            config, settings = await self.load_configuration(root)
        except Exception:
            self.log(f"ctlsp: bad configuration, using defaults:\n{traceback.format_exc()}")
            config, settings = Config(), ServerSettings()
        self.folders[root] = Folder(root, FolderAnalysis(self.worker, config), settings)

    def close_folder(self, root: Path | None) -> None:
        folder = self.folders.pop(root, None)
        if folder is not None:
            folder.analysis.close()

    async def set_roots(self, roots: list[Path]) -> None:
        """Workspace folders added or removed: a project per folder (see ``folders``). Files that
        move to another folder's project are checked there by the workspace check that follows."""
        before = self.roots
        self.roots = roots
        wanted: list[Path | None] = list(roots) or [None]
        for root in [r for r in self.folders if r not in wanted]:
            self.close_folder(root)
            for path in [p for p in self.findings if owner(before, p) == root and self.doc_for_path(p) is None]:
                self.publish(path, [])  # a file of another folder now is published by its check
        for root in wanted:
            if root not in self.folders:
                await self.open_folder(root)

    async def reload_configuration(self, reason: str) -> None:
        for root, folder in list(self.folders.items()):
            config, settings = await self.load_configuration(root)
            if self.folders.get(root) is not folder:
                continue  # the folder was closed meanwhile
            folder.settings = settings
            texts = {doc.path: doc.checked_text for doc in self.docs.values() if self.folder_for(doc.path) is folder}
            with contextlib.suppress(WorkerLost):  # the new process opened the folder with ``config``
                await folder.analysis.reconfigure(config, texts)
        self.log(f"ctlsp: configuration reloaded ({reason})")
        self.request_full_check(f"configuration changed ({reason})")

    def note_changes(self, uri: str, changes: Sequence[types.TextDocumentContentChangeEvent]) -> None:
        """Log an open document's content changes, so that the findings published before them can be
        moved to where their lines are now (see ``steady``)."""
        shift = self._shifts.setdefault(uri, LineShift())
        for change in changes:
            shift.add(change)

    def forget(self, uri: str) -> Document | None:
        """Drop a closed document and any check still pending for it. What was checked of it is
        forgotten too (a reopened document starts again at version 1), and pulls waiting for its
        check answer now."""
        self._sent.pop(uri, None)
        self._shown.pop(uri, None)
        self._shifts.pop(uri, None)
        self._checked.pop(uri, None)
        self._whole_checked.pop(uri, None)
        self._first.pop(uri, None)
        for _version, _first, fut in self._waiters.pop(uri, []):
            if not fut.done():
                fut.set_result(None)
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        return self.docs.pop(uri, None)

    def stop_background_work(self) -> None:
        for task in list(self._background):
            task.cancel()
        for folder in self.folders.values():
            folder.analysis.close()
        self.worker.stop()

    def _worker_ready(self, pid: int) -> None:
        self.log(f"ctlsp: checker process {pid} started", types.MessageType.Log)

    def _worker_lost(self, message: str, restarted: bool) -> None:
        """The checker process died (see ``worker_client``): say so once, and check everything again
        in the new one: the workspace, and each open document (the workspace check publishes only
        once all of it is done). Without a new process, nothing waits for checks any more."""
        self.warn_user(message)
        if restarted:
            self.request_full_check("the checker process was restarted")
            for uri in list(self.docs):
                self.schedule_check(uri, 0)
            return
        for uri in list(self._waiters):
            doc = self.docs.get(uri)
            if doc is not None:
                self.mark_checked(uri, doc.version)

    # ----- checking ---------------------------------------------------------------------------------
    def schedule_check(self, uri: str, delay: float, edited: bool = False) -> None:
        """Check a document after ``delay``; ``edited``: its text changed, so a check of the old
        text that is running stops now rather than when it ends."""
        old = self._pending.pop(uri, None)
        if old is not None and uri not in self._checking:
            old.cancel()  # still waiting: a check that runs is stopped through the project instead
        doc = self.docs.get(uri)
        analysis = self.analysis_for(doc.path) if doc is not None else None
        if edited and doc is not None and analysis is not None:
            analysis.announce(doc.path, doc.checked_text)
        self._pending[uri] = self.spawn(self._check_document(uri, delay), f"check of {uri}")

    async def _check_document(self, uri: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        await self.ready.wait()
        doc = self.docs.get(uri)
        folder = self.folder_for(doc.path) if doc is not None else None
        if doc is None or folder is None:
            return
        analysis = folder.analysis
        version, text, path = doc.version, doc.checked_text, doc.path

        def current() -> bool:
            d = self.docs.get(uri)
            return d is not None and d.version == version and self.folders.get(folder.root) is folder

        self._checking[uri] = version
        try:
            outcome = await analysis.check_file(
                path,
                text,
                self._partial_publisher({path: text}),
                folder.settings.partial_results_ms / 1000,
                path not in self._complete,  # not shown yet: known findings first, refuted ones after
            )
        except Cancelled:
            self._log_stopped(uri, path, version)
            return  # the newer text's check is scheduled: nothing of this one is published
        except WorkerLost:
            if self.worker.down:
                self.mark_checked(uri, version)  # no check will come: pulls answer with what there is
            return  # else the new process checks the document again (``_worker_lost``)
        except Exception:
            self.mark_checked(uri, version)  # pull requests get the previous result instead of hanging
            raise
        finally:
            if self._checking.get(uri) == version:
                del self._checking[uri]
        if outcome is None or not current():
            self._log_stopped(uri, path, version)
            return
        if self._whole_checked.get(uri) != version:  # else the workspace check covered it, across files
            self.publish(path, outcome.findings.get(path, []), outcome.extents.get(path, {}))
            self.mark_checked(uri, version)
        first = self._first.pop(uri, None)
        if first is not None and first[0] == version and first[1] != self.result_ids.get(uri):
            self.refresh_pulled_diagnostics()  # a pull may hold the first publish: it is not the last
        self.report_counters(f"{Path(path).name} v{version}", outcome)
        self.tidy_memory()

    def _log_stopped(self, uri: str, path: str, version: int) -> None:
        """A check that publishes nothing says why: the process stops a check of an outdated text
        either inside the project (the database cancels the read) or between its phases (the
        request was withdrawn), and which of the two depends only on timing."""
        doc = self.docs.get(uri)
        if doc is None:
            why = "the file was closed"
        elif doc.version != version:
            why = "the text changed"
        else:
            why = "a newer check of it was asked for"
        self.log(f"check of {Path(path).name} v{version} stopped: {why}", types.MessageType.Log)

    def tidy_memory(self) -> None:
        """After diagnostics are out: the checker process freezes what survived the check, and a
        full collection is planned for when the user has stopped typing (the collector is the
        process's: one plan for all folders)."""
        self.worker.tidy()
        if self._idle_collection is not None:
            self._idle_collection.cancel()

        async def when_idle() -> None:
            await asyncio.sleep(IDLE_SECONDS)
            freed = await self.worker.collect()
            log.debug("idle collection freed %d objects", freed)

        self._idle_collection = self.spawn(when_idle(), "idle collection")

    def _partial_publisher(self, texts: dict[str, str]) -> PartialFindings:
        """What hears the findings so far of a long check (on the event loop): they are published
        with the text of the open buffer they were found in (``texts``: the buffers handed to the
        check)."""

        def partial(path: str, findings: list[Finding], functions: Extents | None = None) -> None:
            if functions is None:
                self._publish_partial(path, texts.get(path), findings)
            else:
                self._publish_edited(path, texts.get(path), findings, functions)

        return partial

    def _publish_partial(self, path: str, text: str | None, findings: list[Finding]) -> None:
        """First findings of a long check (a large file just opened), while it goes on; only where
        they still describe the buffer the user sees and nothing newer was published, and only until
        a finished check's findings of the file were published: after that, findings so far are
        fewer than those shown, and showing them would make the others blink out and back."""
        if path in self._complete:
            return
        doc = self.doc_for_path(path)
        if doc is not None and (doc.checked_text != text or self._checked.get(doc.uri, -1) >= doc.version):
            return
        self._emit(path, findings)

    def _publish_edited(self, path: str, text: str | None, findings: list[Finding], functions: Extents) -> None:
        """The findings of the edited functions (``functions``, with their extents) of a check that
        goes on: published with every other function's findings as last shown, moved with the
        edits (``steady.settle``), so that what the user typed is checked in the time its own
        functions take, however long the file. The check's own publication follows and replaces it
        (findings of callers the edit changed come then); a pull that answered with this one is
        told to pull again (``_check_document``). Only over a publication of this document that
        the edits since can be mapped onto."""
        doc = self.doc_for_path(path)
        if doc is None or doc.checked_text != text or self._checked.get(doc.uri, -1) >= doc.version:
            return
        shown, shift = self._shown.get(doc.uri), self._shifts.get(doc.uri) or LineShift()
        if shown is None or shift.replaced:
            return
        self._emit(path, list(settle(path, shown, shift, findings, functions).findings))
        self._first[doc.uri] = (doc.version, self.result_ids.get(doc.uri))
        self._resolve_waiters(doc.uri, doc.version, first=True)

    def report_counters(self, what: str, outcome: CheckOutcome) -> None:
        """One log line per check: the functions whose text changed, and the work counters."""
        changed = ", ".join(outcome.changed_functions[:20]) or "none"
        self.log(
            f"ctlsp: checked {what}: changed functions: {changed}; "
            f"counters {json.dumps(outcome.counters_delta, sort_keys=True)}"
        )

    def mark_checked(self, uri: str, version: int) -> None:
        self._checked[uri] = max(version, self._checked.get(uri, -1))
        self._resolve_waiters(uri, version, first=False)

    def _resolve_waiters(self, uri: str, version: int, first: bool) -> None:
        """Wake who waits for ``version`` of ``uri`` (or an older one) to be checked, or, when
        ``first`` (the edited functions' findings are out), who is content with those."""
        keep = []
        for wanted, first_will_do, fut in self._waiters.get(uri, []):
            if wanted <= version and (first_will_do or not first):
                if not fut.done():
                    fut.set_result(None)
            else:
                keep.append((wanted, first_will_do, fut))
        self._waiters[uri] = keep

    async def wait_checked(self, uri: str, timeout: float = 60, first: bool = False) -> None:
        """Until the check of the document's current version is done; ``first``: or until the
        findings of its edited functions are out (``_publish_edited``), for a pull from a client
        that will pull again when told to (``refresh_pulled_diagnostics``)."""
        doc = self.docs.get(uri)
        if doc is None or self._checked.get(uri, -1) >= doc.version:
            return
        first = first and self.refreshes_pulls()
        if first and self._first.get(uri, (-1, None))[0] >= doc.version:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(uri, []).append((doc.version, first, fut))
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            self.log(f"ctlsp: diagnostics for {uri} not ready after {timeout}s; answering with the last ones")

    def publish(self, path: str, findings: list[Finding], extents: Mapping[str, Extent] | None = None) -> None:
        """A finished check's findings of ``path``, all of the file's diagnostics in one piece. For an
        open document, with ``extents`` (the functions of the parse they were found in), findings of
        functions the edits since the last publication did not touch stay put (``steady.settle``)."""
        self._complete.add(path)
        uri = path_to_uri(path)
        if extents is not None and uri in self.docs:
            shift = self._shifts.pop(uri, None) or LineShift()
            shown = settle(path, self._shown.get(uri), shift, findings, extents)
            self._shown[uri] = shown
            findings = list(shown.findings)
        self._emit(path, findings)

    def _emit(self, path: str, findings: list[Finding]) -> None:
        uri = path_to_uri(path)
        diagnostics = [to_diagnostic(f, self.line, self.columns) for f in findings]
        self.findings[path] = findings
        doc = self.docs.get(uri)
        self.result_ids.update(uri, self.diagnostics.get(uri), diagnostics, doc.version if doc else None)
        self.diagnostics[uri] = diagnostics
        if self.pushes(doc is not None):
            self._push(uri, doc.version if doc else None, diagnostics)

    def _push(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        sent = (version, diagnostics)
        if self._sent.get(uri) == sent:
            return  # the client has these for this version (a partial result, then the same final one)
        self._sent[uri] = sent
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def pushes(self, is_open: bool) -> bool:
        """Whether a file's diagnostics are pushed: always to a client without pull diagnostics; to one
        with them, for a closed file while the client has never asked for the workspace's. Such a
        client (Neovim) pulls open documents only, so the findings a workspace check makes in closed
        files reach it only pushed; a client that pulls the workspace gets them there instead."""
        return not self.pull_mode or (not is_open and not self.workspace_pulled)

    def withdraw_pushed(self, uri: str | None = None) -> None:
        """Clear what was pushed to a pull client (for ``uri``, or all of it), now that it pulls these
        diagnostics: a document it opened, or the workspace. Editors keep pushed and pulled
        diagnostics apart, so leaving the pushed ones would show every finding twice."""
        if not self.pull_mode:
            return
        for key in [uri] if uri is not None else list(self._sent):
            sent = self._sent.pop(key, None)
            if sent is not None and sent[1]:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=key, diagnostics=[]))

    def workspace_pull_seen(self) -> None:
        """The client pulls workspace diagnostics: from now on closed files are reported there only."""
        if not self.workspace_pulled:
            self.workspace_pulled = True
            self.withdraw_pushed()

    def request_full_check(self, reason: str) -> None:
        if self._full_task is not None and not self._full_task.done():
            self._full_again = True
            return
        self._full_task = self.spawn(self._full_check_loop(reason), "workspace check")

    async def _full_check_loop(self, reason: str) -> None:
        while True:
            self._full_again = False
            with contextlib.suppress(WorkerLost):  # a new process asked for this check again, or there is none
                await self._full_check(reason)
            if not self._full_again:
                return
            reason = "files changed during the last check"

    async def _full_check(self, reason: str) -> None:
        await self.ready.wait()
        progress = WorkProgress(self, "ctlsp: checking workspace")
        await progress.begin(reason)
        try:
            folders = list(self.folders.values())
            for n, folder in enumerate(folders):
                await self._check_folder(folder, reason, progress, n, len(folders))
            if self.pull_mode:
                self.refresh_pulled_diagnostics()
        finally:
            progress.end("done")

    async def _check_folder(self, folder: Folder, reason: str, progress: WorkProgress, n: int, of: int) -> None:
        """The workspace check of one folder: every C file of it across files, in chunks."""
        with contextlib.suppress(FolderClosed):  # the folder was removed meanwhile: nothing of it is published
            await self._check_folder_files(folder, reason, progress, n, of)

    async def _check_folder_files(self, folder: Folder, reason: str, progress: WorkProgress, n: int, of: int) -> None:
        analysis = folder.analysis
        while True:
            await self.edits_checked()  # an edit's check goes first, here and before each chunk
            mine = {d.path: (d.uri, d.version, d.checked_text) for d in self.docs.values()}
            open_docs = {p: entry for p, entry in mine.items() if self.folder_for(p) is folder}
            texts = {path: entry[2] for path, entry in open_docs.items()}
            try:
                paths = await analysis.sync_project(texts, folder.disk_roots(), folder.root, list(self.roots))
                break
            except Cancelled:  # an edit came in: again, with the buffers as they are then
                continue
        self.report_compile_commands()
        if not paths:
            return
        size = max(1, -(-len(paths) // FULL_CHECK_CHUNKS))
        results: dict[str, list[Finding]] = {}
        extents: dict[str, dict[str, Extent]] = {}
        totals: dict[str, int] = {}
        partial = self._partial_publisher(texts)
        for start in range(0, len(paths), size):
            chunk = paths[start : start + size]
            while True:
                await self.edits_checked()
                try:
                    early = frozenset(p for p in chunk if p not in self._complete)
                    outcome = await analysis.check_paths(
                        chunk, partial, folder.settings.partial_results_ms / 1000, early
                    )
                    break
                except Cancelled:
                    # an edit came in: its own check runs first, then this chunk again (what the
                    # cancelled run finished is kept in the project's memos)
                    continue
            results.update(outcome.findings)
            extents.update(outcome.extents)
            for key, value in outcome.counters_delta.items():
                totals[key] = totals.get(key, 0) + value
            done = min(start + size, len(paths))
            where = f" in {folder.root.name}" if folder.root is not None and of > 1 else ""
            progress.report(f"{done}/{len(paths)} files{where}", (n * 100 + done * 100 // len(paths)) // of)
        if self.folders.get(folder.root) is not folder or folder.analysis is not analysis:
            return  # reconfigured or closed meanwhile; the new configuration's check publishes
        known = {p for p in self.findings if p not in results and self.folder_for(p) is folder}
        for path in sorted(set(results) | known):
            info = open_docs.get(path)
            doc = self.docs.get(info[0]) if info else None
            if info is not None and (doc is None or doc.version != info[1]):
                continue  # edited or closed during the check; the per-edit (or close) check publishes
            if info is None and self.doc_for_path(path) is not None:
                continue  # opened during the check, which read the file on disk: its own check publishes
            self.publish(path, results.get(path, []), extents.get(path, {}))
            if info is not None:
                self._whole_checked[info[0]] = info[1]
                self.mark_checked(info[0], info[1])
        self.report_counters(f"workspace ({len(paths)} files, {reason})", CheckOutcome({}, totals))
        self.tidy_memory()

    async def edits_checked(self) -> None:
        """Wait for the checks of open documents scheduled now (an edit's): the workspace check
        goes on (and a check an edit stopped runs again) after the edit's own, which is the one
        the user waits for."""
        scheduled = [task for task in self._pending.values() if not task.done()]
        if scheduled:
            await asyncio.wait(scheduled)

    async def settle_workspace_check(self, timeout: float) -> None:
        """Wait at most ``timeout`` seconds for a workspace check that is running (never stopping it),
        so that a workspace pull answers with its results when they are that close."""
        task = self._full_task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    def refreshes_pulls(self) -> bool:
        """Whether the client pulls diagnostics again when asked to (``workspace/diagnostic/refresh``)."""
        workspace = self.client_capabilities.workspace
        diag = workspace.diagnostics if workspace else None
        return bool(self.pull_mode and diag and diag.refresh_support)

    def refresh_pulled_diagnostics(self) -> None:
        if self.refreshes_pulls():
            self.workspace_diagnostic_refresh(None)

    # ----- lookups for hover / actions / commands -----------------------------------------------
    def findings_at(self, uri: str, position: types.Position) -> list[tuple[Finding, types.Diagnostic]]:
        path = self.path_of(uri)
        pairs = zip(self.findings.get(path, []), self.diagnostics.get(uri, []), strict=False)
        return [(f, d) for f, d in pairs if contains(d.range, position)]

    def client_shows_related_information(self) -> bool:
        """Whether the client renders a diagnostic's related information (the witness steps)
        itself, next to the hover: then the hover does not list them again."""
        text = self.client_capabilities.text_document
        publish = text.publish_diagnostics if text else None
        return bool(publish and publish.related_information)

    def path_of(self, uri: str) -> str:
        doc = self.docs.get(uri)
        if doc is not None:
            return doc.path
        return str(Path(uris.to_fs_path(uri) or uri).resolve())

    def rule_doc(self, rule_id: str) -> str | None:
        for folder in self.folders.values():
            for rule in folder.analysis.rules:
                if rule.id == rule_id:
                    return str(rule.doc) if rule.doc else None
        return None
