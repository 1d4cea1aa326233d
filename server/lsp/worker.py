"""The checker process: every workspace folder's ``Analysis``, checked on one thread, driven by the
language server over a pipe (the messages are in ``worker_messages``; the server's side is
``worker_client``).

Checking runs in a process of its own so that the server's event loop never waits on it: the
interpreter's lock, full collections over the multi-gigabyte heap of models and caches, and long C
calls (tree-sitter parses, z3) would otherwise hold every request while a check runs. Here three
threads share the work, and the invariants are:

- the *check thread* (the main thread) runs every command and request, one at a time, in the
  order sent, so every project (and z3, see ``analysis``) is used from this thread only;
- the *reader thread* receives every message the moment it arrives, so a message never queues
  behind a running check: it acts on control messages at once (a withdrawn request is marked so,
  and skipped or answered "outdated" when its turn comes) and queues the rest for the check thread;
- the *edit thread* hands announced texts to their projects (``Analysis.announce``), which stops a
  check of an older text at its next function and waits for it to unwind: a wait the reader must
  not do. A request queued after an announcement waits for it to be in before it runs, so a check
  never starts on a text older than the one announced before it. An announcement for a folder
  whose project the check thread has not made yet waits for it there.

The process ends when its pipe closes (the server ended, however it ended) or on :class:`Stop`, at
once (``os._exit``: a check in a long C call would not stop otherwise).
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from extractors.api import Cancelled, Finding
from server import collector
from server.lsp.analysis import Analysis
from server.lsp.memory import MemoryPolicy
from server.lsp.text_splice import splice
from server.lsp.worker_messages import (
    Announce,
    AnnounceEdit,
    CheckDiskText,
    CheckFile,
    CheckPaths,
    CloseFolder,
    Collect,
    Extents,
    Failure,
    FolderRequest,
    FromWorker,
    OpenFolder,
    Partial,
    Ready,
    Reconfigure,
    Reply,
    Request,
    Stop,
    SyncProject,
    Tidy,
    Withdraw,
)

log = logging.getLogger(__name__)


class NoFolder(Exception):
    """The request's folder was closed (or never opened) before the request ran."""


@dataclass
class Ticket:
    """A request the reader has queued: whether the server still wants it (see ``worker_messages``)."""

    request: Request[Any]
    wanted: bool = True


@dataclass
class Queued:
    """A command or request for the check thread, with the announcements sent before it."""

    message: Any
    after: Future[None] | None
    ticket: Ticket | None = None


@dataclass
class Worker:
    """The process's state: the folders' analyses (check thread only), the requests in flight and
    the pipe (shared by the threads, under their locks)."""

    conn: Connection
    folders: dict[int, Analysis] = field(default_factory=dict)
    memory: MemoryPolicy = field(default_factory=MemoryPolicy)
    work: queue.SimpleQueue[Queued] = field(default_factory=queue.SimpleQueue)
    tickets: dict[int, Ticket] = field(default_factory=dict)
    tickets_lock: threading.Lock = field(default_factory=threading.Lock)
    send_lock: threading.Lock = field(default_factory=threading.Lock)
    edits: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="ctlsp-edit")
    )
    last_edit: Future[None] | None = None  # reader thread only
    # (folder, path) -> the text the last announcement of the file gave: what the next
    # :class:`AnnounceEdit` of it edits (reader thread only)
    texts: dict[tuple[int, str], str] = field(default_factory=dict)
    # folder -> set once its project is made (the reader adds one per folder opened)
    opened: dict[int, threading.Event] = field(default_factory=dict)

    def send(self, message: FromWorker) -> None:
        with self.send_lock:
            self.conn.send(message)

    def withdraw(self, wanted: Callable[[Request[Any]], bool]) -> None:
        """Reader thread: mark the queued or running requests that ``wanted`` refuses."""
        with self.tickets_lock:
            for ticket in self.tickets.values():
                if ticket.wanted and not wanted(ticket.request):
                    ticket.wanted = False


def main(conn: Connection, log_level: int = logging.WARNING) -> None:
    """The process's entry (``multiprocessing`` spawns it with a fresh interpreter). Its standard
    output is the server's, the LSP channel: it is pointed at standard error first, so that nothing
    printed here can corrupt the protocol."""
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    logging.basicConfig(stream=sys.stderr, level=log_level, format="%(levelname)s %(name)s[worker]: %(message)s")
    collector.tune()
    worker = Worker(conn)
    threading.Thread(target=read, args=(worker,), name="ctlsp-reader", daemon=True).start()
    worker.send(Ready(os.getpid()))
    while True:
        run(worker, worker.work.get())


# ----- the reader thread --------------------------------------------------------------------------
def read(worker: Worker) -> None:
    """Receive every message as it arrives; end the process when the pipe closes."""
    while True:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            os._exit(0)  # the server is gone: nobody wants what is running
        except Exception:
            log.error("unreadable message from the server:\n%s", traceback.format_exc())
            os._exit(1)
        try:
            receive(worker, message)
        except Exception:
            log.error("message %s failed:\n%s", type(message).__name__, traceback.format_exc())


def receive(worker: Worker, message: Any) -> None:
    """Reader thread: act on a control message, queue anything else (see the module's doc)."""
    if isinstance(message, Stop):
        os._exit(0)
    if isinstance(message, Withdraw):
        worker.withdraw(lambda r: r.id != message.request)
        return
    if isinstance(message, AnnounceEdit) and (message := _edited(worker, message)) is None:
        return
    if isinstance(message, Announce):
        worker.withdraw(lambda r: not r.outdated_by(message.folder, message.path))
        worker.texts[(message.folder, message.path)] = message.text
        _hand_over(worker, message.folder, message.path, message.text)
        return
    if isinstance(message, OpenFolder):
        worker.opened[message.folder] = threading.Event()  # set once the check thread made it
    if isinstance(message, CloseFolder):  # (its event stays: an edit may be waiting on it)
        for key in [key for key in worker.texts if key[0] == message.folder]:
            del worker.texts[key]
    ticket: Ticket | None = None
    if isinstance(message, Request):
        if (about := message.about) is not None:
            worker.withdraw(lambda r: r.about != about)
        ticket = Ticket(message)
        with worker.tickets_lock:
            worker.tickets[message.id] = ticket
    worker.work.put(Queued(message, worker.last_edit, ticket))


def _edited(worker: Worker, message: AnnounceEdit) -> Announce | None:
    """The announcement an edit stands for. An edit of a text this process does not hold (which the
    server's bookkeeping rules out) withdraws what would read the file and forgets its announced
    text, so that the check of it fails instead of checking a wrong text; the server then sends the
    whole text again."""
    key = (message.folder, message.path)
    base = worker.texts.pop(key, None)
    try:
        if base is None:
            raise ValueError("no text of it was announced before")
        return Announce(message.folder, message.path, splice(base, message.change))
    except ValueError as e:
        log.error("an edit of %s cannot be applied: %s", message.path, e)
    worker.withdraw(lambda r: not r.outdated_by(message.folder, message.path))
    _hand_over(worker, message.folder, message.path, None)
    return None


def _hand_over(worker: Worker, folder: int, path: str, text: str | None) -> None:
    """Reader thread: hand a file's announced text (None: forget it) to its folder's project on the
    edit thread (see the module's doc), in the order sent."""
    opened = worker.opened.get(folder)
    if opened is None:
        return  # the folder was never opened
    done = worker.edits.submit(_set_text, worker, opened, folder, path, text)
    done.add_done_callback(_log_failure)
    worker.last_edit = done


def _set_text(worker: Worker, opened: threading.Event, folder: int, path: str, text: str | None) -> None:
    """Edit thread: the folder's project is made on the check thread, where its :class:`OpenFolder`
    was queued before this announcement, so it is waited for; nothing the check thread runs before
    it waits on this edit, so the wait ends."""
    opened.wait()
    analysis = worker.folders.get(folder)
    if analysis is None:
        return
    if text is None:
        analysis.forget_announced(path)
    else:
        analysis.announce(path, text)


def _log_failure(done: Future[None]) -> None:
    if not done.cancelled() and (e := done.exception()) is not None:
        log.error("handing an edit to the project failed: %s: %s", type(e).__name__, e)


# ----- the check thread ---------------------------------------------------------------------------
def run(worker: Worker, item: Queued) -> None:
    """Check thread: one command or request; a request is answered whatever happens."""
    if item.after is not None:
        wait_for([item.after])
    message = item.message
    if item.ticket is None:
        try:
            COMMANDS[type(message)](worker, message)
        except Exception:
            log.error("%s failed:\n%s", type(message).__name__, traceback.format_exc())
        return
    ticket = item.ticket
    try:
        if not ticket.wanted and not isinstance(message, CheckFile | CheckDiskText):
            answer: Reply | Failure = Failure(message.id, "cancelled", "withdrawn")
        else:
            answer = Reply(message.id, REQUESTS[type(message)](worker, message, ticket))
    except Cancelled as e:
        answer = Failure(message.id, "cancelled", str(e))
    except NoFolder as e:
        answer = Failure(message.id, "closed", str(e))
    except Exception:
        answer = Failure(message.id, "error", traceback.format_exc())
    finally:
        with worker.tickets_lock:
            worker.tickets.pop(message.id, None)
    try:
        worker.send(answer)
    except OSError:
        os._exit(0)  # the pipe is closed: the server is gone
    except Exception:  # a value that does not pickle: the request is still answered
        worker.send(Failure(message.id, "error", traceback.format_exc()))


def _analysis(worker: Worker, request: FolderRequest[Any]) -> Analysis:
    analysis = worker.folders.get(request.folder)
    if analysis is None:
        raise NoFolder(f"folder {request.folder} is closed")
    return analysis


def _partial(worker: Worker, request: CheckFile | CheckPaths) -> Callable[[str, list[Finding]], None] | None:
    """The findings so far of a long check, sent as they come (on the check thread)."""
    if not request.partial:
        return None
    return lambda path, findings: worker.send(Partial(request.id, path, findings))


def open_folder(worker: Worker, message: OpenFolder) -> None:
    try:
        worker.folders[message.folder] = Analysis(message.config)
    finally:
        if (opened := worker.opened.get(message.folder)) is not None:
            opened.set()


def close_folder(worker: Worker, message: CloseFolder) -> None:
    worker.folders.pop(message.folder, None)


def tidy(worker: Worker, message: Tidy) -> None:
    for analysis in worker.folders.values():
        analysis.project.tidy()  # forget what the folder's files no longer need
    worker.memory.after_check()


def check_file(worker: Worker, request: CheckFile, ticket: Ticket) -> object:
    edited = None
    if request.partial:

        def edited(path: str, findings: list[Finding], functions: Extents) -> None:
            worker.send(Partial(request.id, path, findings, functions))

    analysis = _analysis(worker, request)
    text = request.text if request.text is not None else analysis.announced_text(request.path)
    return analysis.check_file_sync(
        request.path,
        text,
        lambda: ticket.wanted,
        _partial(worker, request),
        request.partial_every,
        request.early,
        edited,
    )


def check_paths(worker: Worker, request: CheckPaths, ticket: Ticket) -> object:
    return _analysis(worker, request).check_paths_sync(
        request.paths, _partial(worker, request), request.partial_every, request.early
    )


def check_disk_text(worker: Worker, request: CheckDiskText, ticket: Ticket) -> object:
    analysis = _analysis(worker, request)
    return analysis.check_disk_text_sync(request.path, request.buffer, request.keep, lambda: ticket.wanted)


def sync_project(worker: Worker, request: SyncProject, ticket: Ticket) -> object:
    return _analysis(worker, request).sync_project_sync(request.texts, request.disk_roots, request.root, request.roots)


def reconfigure(worker: Worker, request: Reconfigure, ticket: Ticket) -> object:
    _analysis(worker, request).reload_sync(request.config, request.texts)
    return None


def collect(worker: Worker, request: Collect, ticket: Ticket) -> object:
    return worker.memory.when_idle()


COMMANDS: dict[type, Callable[[Worker, Any], None]] = {
    OpenFolder: open_folder,
    CloseFolder: close_folder,
    Tidy: tidy,
}
REQUESTS: dict[type, Callable[[Worker, Any, Ticket], object]] = {
    CheckFile: check_file,
    CheckPaths: check_paths,
    CheckDiskText: check_disk_text,
    SyncProject: sync_project,
    Reconfigure: reconfigure,
    Collect: collect,
}
