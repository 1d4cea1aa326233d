"""The server's side of the checker process (``worker.py``): starting it, talking to it, and starting
it again when it dies.

The event loop never waits on the process: messages go out through a sender thread (pickling a big
buffer and writing it to a full pipe happen there) and come in through a receiver thread that hands
each to the loop, where a request's future is resolved and its partial findings are routed to the
callback its caller gave. :class:`WorkerClient` is the one connection of the server;
:class:`FolderAnalysis` is what a workspace folder uses, as it used its ``Analysis`` when checks ran
in the server's process.

Invariants:

- every awaited request ends: with the worker's answer, or with :class:`WorkerLost` when the
  process dies before answering (or is down for good), or with ``CancelledError`` when its waiter
  is cancelled (the worker is then told to skip it, :class:`~server.lsp.worker_messages.Withdraw`);
- one process at a time: a dead one's late messages are dropped, and every folder the server has
  open is opened again in its successor, with the folder's current configuration, before anything
  else is sent to it; what the server had asked of the dead one it asks again itself (``on_lost``);
- the process never outlives the server: it ends when its pipe closes, and is stopped (and
  reaped) on shutdown.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import queue
import signal
import threading
import time
import traceback
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from extractors.api import PARTIAL_EVERY, Cancelled, Config, Finding, Rule, catalogue
from server.lsp.text_splice import changed_span
from server.lsp.worker_messages import (
    Announce,
    AnnounceEdit,
    CheckDiskText,
    CheckFile,
    CheckOutcome,
    CheckPaths,
    CloseFolder,
    Collect,
    Extents,
    Failure,
    OpenFolder,
    Partial,
    Ready,
    Reconfigure,
    Reply,
    Request,
    Stop,
    SyncProject,
    Tidy,
    ToWorker,
    Withdraw,
)

log = logging.getLogger(__name__)
R = TypeVar("R")
# findings so far of a file in a long check; with extents, those of the edited functions only
PartialFindings = Callable[[str, list[Finding], Extents | None], None]

STEADY_SECONDS = 60.0  # a process that dies younger than this died early
MAX_EARLY_DEATHS = 3  # that many early deaths in a row: no new process (a file that crashes it, say)
REAP_SECONDS = 10.0  # how long a process whose pipe closed may take to end before it is killed


class WorkerGone(Exception):
    """A request that will get no answer: nothing is wrong with the caller, nothing to report."""


class WorkerLost(WorkerGone):
    """The checker process died before answering (a new one is started unless it died too often)."""


class FolderClosed(WorkerGone):
    """The request's folder was closed (its analysis is gone)."""


class WorkerError(Exception):
    """The request raised in the checker process; the message is its traceback there."""


@dataclass
class _Pending:
    future: asyncio.Future[object]
    partial: PartialFindings | None


def _checker_main(conn: multiprocessing.connection.Connection, log_level: int) -> None:
    """The checker process's entry, by reference to this light module: the checker's own module
    (and with it the whole front end) is imported in that process only, never in the server's."""
    from server.lsp.worker import main

    main(conn, log_level)


class _Process:
    """One checker process, its pipe, and the server's two threads on that pipe."""

    def __init__(self, client: WorkerClient, loop: asyncio.AbstractEventLoop) -> None:
        self.client = client
        self.loop = loop
        context = multiprocessing.get_context("spawn")  # a clean interpreter: never fork a threaded server
        self.conn, child = context.Pipe()
        level = logging.getLogger().getEffectiveLevel()
        self.process = context.Process(
            target=_checker_main, args=(child, level), name="ctlsp-checker", daemon=True
        )
        self.process.start()
        child.close()  # else the pipe never reads as closed when the process dies
        self.started = time.monotonic()
        self.outbox: queue.SimpleQueue[ToWorker | None] = queue.SimpleQueue()
        threading.Thread(target=self._send_all, name="ctlsp-worker-send", daemon=True).start()
        threading.Thread(target=self._receive_all, name="ctlsp-worker-receive", daemon=True).start()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def _post(self, fn: Callable[..., None], *args: Any) -> bool:
        """Run ``fn(*args)`` on the event loop; False once the loop is closed (the server ended)."""
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            return False
        return True

    def _send_all(self) -> None:
        while (message := self.outbox.get()) is not None:
            try:
                self.conn.send(message)
            except (OSError, ValueError):
                return  # the pipe is closed: the receiver reports the process lost
            except Exception:
                if isinstance(message, Request):  # it will never be answered: fail it here
                    self._post(self.client._dispatch, self, Failure(message.id, "error", traceback.format_exc()))
                else:
                    log.error("cannot send %s:\n%s", type(message).__name__, traceback.format_exc())

    def _receive_all(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                break
            except Exception:
                log.error("unreadable message from the checker process:\n%s", traceback.format_exc())
                break
            if not self._post(self.client._dispatch, self, message):
                return
        self.process.join(REAP_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()
        self._post(self.client._lost, self, self.process.exitcode)

    def stop(self) -> None:
        """Ask the process to end (the receiver reaps it, or kills it if it does not)."""
        self.outbox.put(Stop())
        self.outbox.put(None)


class WorkerClient:
    """The server's one checker process: started on first use, replaced when it dies.

    ``on_ready(pid)`` runs on the event loop when a process is up (its modules imported: checks
    start from then on); ``on_lost(message, restarted)`` runs there after a process died unexpectedly: the
    message says so for the user, and ``restarted`` whether a new process took its place (it did
    unless :data:`MAX_EARLY_DEATHS` processes in a row died within :data:`STEADY_SECONDS` of their
    start). The requests the dead process had not answered fail with :class:`WorkerLost`."""

    def __init__(self, on_ready: Callable[[int], None], on_lost: Callable[[str, bool], None]) -> None:
        self._on_ready = on_ready
        self._on_lost = on_lost
        self._process: _Process | None = None
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._folders: dict[int, FolderAnalysis] = {}
        self._early_deaths = 0
        self.generation = 0  # processes started so far: what one was handed, the next has not
        self.down = False  # checking is off: processes died too often
        self.stopped = False

    @property
    def pid(self) -> int | None:
        """The running process's id (None before the first use and after the end)."""
        return self._process.pid if self._process is not None else None

    def next_id(self) -> int:
        return next(self._ids)

    def start(self) -> None:
        """Start the process now (it imports the checker for a while before it can check), unless
        it runs already."""
        self._running()

    def open_folder(self, analysis: FolderAnalysis) -> int:
        """Register a folder's analysis; its project is made in the process now and after every
        restart (with the configuration it has then)."""
        process = self._running()  # first, since a process starting opens the folders registered
        folder = self.next_id()
        self._folders[folder] = analysis
        if process is not None:
            process.outbox.put(OpenFolder(folder, analysis.config))
        return folder

    def close_folder(self, folder: int) -> None:
        if self._folders.pop(folder, None) is not None:
            self.send(CloseFolder(folder))

    def send(self, message: ToWorker) -> None:
        """Send a message that needs no answer (dropped while checking is off)."""
        process = self._running()
        if process is not None:
            process.outbox.put(message)

    async def call(self, request: Request[R], partial: PartialFindings | None = None) -> R:
        """Send ``request`` and await its answer; ``partial`` hears its findings so far (on the
        event loop). Raises ``Cancelled`` (a newer text stopped it), :class:`FolderClosed`,
        :class:`WorkerLost` or :class:`WorkerError`."""
        process = self._running()
        if process is None:
            raise WorkerLost("the checker process is not running")
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._pending[request.id] = _Pending(future, partial)
        process.outbox.put(request)
        try:
            return cast(R, await future)
        except asyncio.CancelledError:
            if self._pending.pop(request.id, None) is not None:
                self.send(Withdraw(request.id))
            raise

    def tidy(self) -> None:
        """A check's diagnostics are out: the process forgets what its files no longer need and
        freezes the rest out of later collections (``MemoryPolicy``)."""
        self.send(Tidy())

    async def collect(self) -> int:
        """The server is idle: the process's full collection; the objects it freed."""
        return await self.call(Collect(self.next_id()))

    def stop(self) -> None:
        """End the process for good (shutdown): later requests fail with :class:`WorkerLost`."""
        self.stopped = True
        if self._process is not None:
            self._process.stop()

    # ----- the process's life -----------------------------------------------------------------
    def _running(self) -> _Process | None:
        """The process, started on first use; None once stopped or down."""
        if self._process is None and not (self.stopped or self.down):
            self._start()
        return self._process

    def _start(self) -> None:
        try:
            self._process = _Process(self, asyncio.get_running_loop())
        except Exception:
            log.error("cannot start the checker process:\n%s", traceback.format_exc())
            self.down = True
            return
        self.generation += 1
        for folder, analysis in self._folders.items():
            self._process.outbox.put(OpenFolder(folder, analysis.config))
        log.info("checker process %s started", self._process.pid)

    def _dispatch(self, process: _Process, message: Any) -> None:
        """Event loop: a message from ``process`` (dropped if that process was replaced)."""
        if process is not self._process:
            return
        if isinstance(message, Ready):
            self._on_ready(message.pid)
            return
        if isinstance(message, Partial):
            pending = self._pending.get(message.request)
            if pending is not None and pending.partial is not None:
                try:
                    pending.partial(message.path, message.findings, message.functions)
                except Exception:
                    log.error("publishing partial findings failed:\n%s", traceback.format_exc())
            return
        if not isinstance(message, Reply | Failure):
            log.error("unexpected message from the checker process: %r", message)
            return
        done = self._pending.pop(message.request, None)
        if done is None or done.future.done():
            return  # withdrawn
        if isinstance(message, Reply):
            done.future.set_result(message.value)
        elif message.kind == "cancelled":
            done.future.set_exception(Cancelled(message.detail))
        elif message.kind == "closed":
            done.future.set_exception(FolderClosed(message.detail))
        else:
            done.future.set_exception(WorkerError(message.detail))

    def _lost(self, process: _Process, exitcode: int | None) -> None:
        """Event loop: ``process`` ended. Unless the server stopped it: start another (or give up),
        tell the server, and fail what the dead one had not answered."""
        if process is not self._process:
            return
        self._process = None
        pending = list(self._pending.values())
        self._pending.clear()
        if not self.stopped:
            early = time.monotonic() - process.started < STEADY_SECONDS
            self._early_deaths = self._early_deaths + 1 if early else 0
            how = _how_it_ended(exitcode)
            if self._early_deaths >= MAX_EARLY_DEATHS:
                self.down = True
            else:
                self._start()
            if self._process is not None:
                message = f"ctlsp: the checker process ended unexpectedly ({how}); checking again in a new one"
            else:
                message = (
                    f"ctlsp: the checker process ended unexpectedly ({how}), {self._early_deaths} times in a row; "
                    "checking is off until the server restarts"
                )
            self._on_lost(message, self._process is not None)
        for entry in pending:
            if not entry.future.done():
                entry.future.set_exception(WorkerLost(f"the checker process ended ({_how_it_ended(exitcode)})"))


def _how_it_ended(exitcode: int | None) -> str:
    if exitcode is None:
        return "no exit status"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


class FolderAnalysis:
    """A workspace folder's analysis as the event loop sees it: its configuration and rules (read by
    the server's handlers), and coroutines that run the folder's work in the checker process. The
    project itself lives there (``analysis.Analysis``)."""

    def __init__(self, client: WorkerClient, config: Config) -> None:
        self.client = client
        self.config = config
        self.rules: list[Rule] = list(catalogue(config))
        self.compile_commands_error: str | None = None  # as of the last sync of the project
        self.closed = False
        # path -> (process generation, text) last announced: its check need not send the text again
        self._announced: dict[str, tuple[int, str]] = {}
        # path -> (process generation, text) the process holds from the file's last announcement:
        # what a later one sends as an edit of (kept while the file is open in the editor)
        self._held: dict[str, tuple[int, str]] = {}
        self.id = client.open_folder(self)

    def announce(self, path: str, text: str) -> None:
        """A file's new text, handed to the project at once so that a check of an older text stops
        (it raises ``Cancelled``) and a check of it that has not started is skipped (it answers
        None); the check of this text is requested as usual. A file announced before to the same
        process is sent as the span that changed."""
        if self.closed:
            return
        self.client.start()  # the process the message goes to, so that its generation is known
        generation = self.client.generation
        held = self._held.get(path)
        if held is not None and held[0] == generation:
            self.client.send(AnnounceEdit(self.id, path, changed_span(held[1], text)))
        else:
            self.client.send(Announce(self.id, path, text))
        self._held[path] = self._announced[path] = (generation, text)

    def forget_text(self, path: str) -> None:
        """The file was closed in the editor: its next announcement sends the whole text."""
        self._held.pop(path, None)

    async def check_file(
        self,
        path: str,
        text: str,
        partial: PartialFindings | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: bool = False,
    ) -> CheckOutcome | None:
        """``Analysis.check_file_sync`` in the process; None if outdated (a newer text of the file,
        or a newer check of it, was sent meanwhile)."""
        last = self._announced.pop(path, None)
        known = last is not None and last[0] == self.client.generation and last[1] is text
        sent = None if known else text  # else it crossed the pipe with the announcement
        request = CheckFile(self._id(), self.id, path, sent, partial is not None, partial_every, early)
        try:
            return await self.client.call(request, partial)
        except WorkerError:
            self.forget_text(path)  # the process may have lost the text (worker._edited): send it all
            raise

    async def check_paths(
        self,
        paths: Sequence[str],
        partial: PartialFindings | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: Collection[str] = (),
    ) -> CheckOutcome:
        """``Analysis.check_paths_sync`` in the process: one chunk of the workspace check."""
        request = CheckPaths(self._id(), self.id, tuple(paths), partial is not None, partial_every, frozenset(early))
        return await self.client.call(request, partial)

    async def check_disk_text(self, path: str, buffer: str, keep: bool) -> tuple[list[Finding], bool] | None:
        """``Analysis.check_disk_text_sync`` in the process; None if the file was opened again."""
        return await self.client.call(CheckDiskText(self._id(), self.id, path, buffer, keep))

    async def sync_project(
        self, texts: Mapping[str, str], disk_roots: Sequence[Path], root: Path | None, roots: Sequence[Path]
    ) -> list[str]:
        """``Analysis.sync_project_sync`` in the process: the C files the folder now checks."""
        request = SyncProject(self._id(), self.id, dict(texts), tuple(disk_roots), root, tuple(roots))
        synced = await self.client.call(request)
        self.compile_commands_error = synced.compile_commands_error
        return synced.paths

    async def reconfigure(self, config: Config, texts: Mapping[str, str]) -> None:
        """A new configuration (``texts``: the folder's open buffers). It is the folder's at once, so
        a process started meanwhile opens the folder with it."""
        self.config = config
        self.rules = list(catalogue(config))
        await self.client.call(Reconfigure(self._id(), self.id, config, dict(texts)))

    def close(self) -> None:
        """The folder is gone: later requests fail with :class:`FolderClosed`."""
        self.closed = True
        self.client.close_folder(self.id)

    def _id(self) -> int:
        if self.closed:
            raise FolderClosed("the folder's analysis is closed")
        return self.client.next_id()
