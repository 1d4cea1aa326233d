"""The messages between the language server and its checker process (``worker.py``), over one pipe.

Every message is a small frozen dataclass of plain data (texts, paths, configurations, findings),
pickled by ``multiprocessing.connection``; no callable crosses the pipe. The server sends three
kinds, and the worker treats them differently so that nothing the server says waits behind a
running check:

- *control* (:class:`Announce`, :class:`AnnounceEdit`, :class:`Withdraw`, :class:`Stop`): acted on
  by the worker's reader thread the moment they arrive, while the check thread is busy;
- *commands* (:class:`OpenFolder`, :class:`CloseFolder`, :class:`Tidy`): run on the check thread in
  the order sent, unanswered;
- *requests* (:class:`Request` subclasses, each with an ``id`` unique in the server's session): run
  on the check thread in the order sent, each answered by exactly one :class:`Reply` or
  :class:`Failure` carrying its id, possibly preceded by :class:`Partial` findings.

The worker's first message is :class:`Ready`.

A request is *withdrawn* when the server sends :class:`Withdraw` for it, when a later
:class:`Announce` gives a newer text of a file it would read (:meth:`Request.outdated_by`), and, for
a request about one file (:attr:`Request.about`), when a later request about the same file arrives:
the server only ever wants the newest text of a file checked. A withdrawn one-file check stops before
it starts checking and answers None (outdated); any other withdrawn request that has not started is
skipped and fails ``cancelled``, as it would have had it been running (the server runs it again).
The worker evaluates all this on its own, which is what ``still_wanted`` was when checks ran in the
server's process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from extractors.api import PARTIAL_EVERY, Config, Finding
from server.lsp.text_splice import Splice

R = TypeVar("R")

Extents = dict[str, tuple[int, int]]


@dataclass(frozen=True)
class CheckOutcome:
    """A check's findings per file, with the work it did; ``extents``: per checked file, the first and
    last line of each function its parse found (what ``steady`` keeps findings by)."""

    findings: dict[str, list[Finding]]
    counters_delta: dict[str, int]
    changed_functions: tuple[str, ...] = ()
    extents: dict[str, Extents] = field(default_factory=dict)


@dataclass(frozen=True)
class Synced:
    """A folder's project brought in line with its files: the C files it now checks, and the problem
    with its compile database, if any (what ``report_compile_commands`` shows)."""

    paths: list[str]
    compile_commands_error: str | None


# ----- control: the reader thread acts on them at once ------------------------------------------
@dataclass(frozen=True)
class Announce:
    """A file's new text in the editor: handed to the folder's project at once, so that a check of
    an older text stops at its next function (it fails ``cancelled``), and withdraws the requests
    that would read an older text of the file."""

    folder: int
    path: str
    text: str


@dataclass(frozen=True)
class AnnounceEdit:
    """An :class:`Announce` of the text made by ``change`` of the text the last announcement of the
    file gave in this process: what the server sends for a file it announced before, so that a
    keystroke crosses the pipe as the span it changed (``text_splice``)."""

    folder: int
    path: str
    change: Splice


@dataclass(frozen=True)
class Withdraw:
    """The server no longer awaits request ``request`` (its waiter was cancelled)."""

    request: int


@dataclass(frozen=True)
class Stop:
    """End the process now (the server shuts down)."""


# ----- commands: run in order on the check thread, unanswered -------------------------------------
@dataclass(frozen=True)
class OpenFolder:
    """A workspace folder's project, with its configuration (the folder's id is the server's)."""

    folder: int
    config: Config


@dataclass(frozen=True)
class CloseFolder:
    folder: int


@dataclass(frozen=True)
class Tidy:
    """A check's diagnostics are out: each project forgets what its files no longer need
    (``Project.tidy``), then what the check left is frozen (``MemoryPolicy.after_check``)."""


# ----- requests: run in order on the check thread, each answered once ------------------------------
@dataclass(frozen=True)
class Request(Generic[R]):
    """Work whose answer the server awaits; ``R`` is the type of :attr:`Reply.value`."""

    id: int

    @property
    def about(self) -> tuple[int, str] | None:
        """The (folder, path) of a request about one file's current text (see the module's doc)."""
        return None

    def outdated_by(self, folder: int, path: str) -> bool:
        """Whether a newer text of ``path`` in ``folder`` makes the request outdated (it would read
        or hand in an older one)."""
        return self.about == (folder, path)


@dataclass(frozen=True)
class FolderRequest(Request[R]):
    """A request about one folder's project; it fails ``closed`` once the folder is closed."""

    folder: int


@dataclass(frozen=True)
class CheckFile(FolderRequest[CheckOutcome | None]):
    """``Analysis.check_file_sync``: refresh one file's text and check it against the folder's
    project; None if withdrawn. ``partial``: send :class:`Partial` findings of a long check.
    ``text`` None: the text the last :class:`Announce` of the file carried (a large file's text
    crosses the pipe once per edit)."""

    path: str
    text: str | None
    partial: bool = True
    partial_every: float = PARTIAL_EVERY
    early: bool = False

    @property
    def about(self) -> tuple[int, str] | None:
        return (self.folder, self.path)


@dataclass(frozen=True)
class CheckPaths(FolderRequest[CheckOutcome]):
    """``Analysis.check_paths_sync``: one chunk of a folder's workspace check."""

    paths: tuple[str, ...]
    partial: bool = True
    partial_every: float = PARTIAL_EVERY
    early: frozenset[str] = frozenset()

    def outdated_by(self, folder: int, path: str) -> bool:
        return folder == self.folder and path in self.paths


@dataclass(frozen=True)
class CheckDiskText(FolderRequest[tuple[list[Finding], bool] | None]):
    """``Analysis.check_disk_text_sync``: a closed buffer's file on disk in its place, checked."""

    path: str
    buffer: str
    keep: bool

    @property
    def about(self) -> tuple[int, str] | None:
        return (self.folder, self.path)


@dataclass(frozen=True)
class SyncProject(FolderRequest[Synced]):
    """``Analysis.sync_project_sync``: the folder's project in line with its open buffers
    (``texts``) and its C files on disk under ``disk_roots`` (``roots``: every workspace root, to
    leave out what a nested folder owns; ``root``: this folder's)."""

    texts: dict[str, str]
    disk_roots: tuple[Path, ...]
    root: Path | None
    roots: tuple[Path, ...]

    def outdated_by(self, folder: int, path: str) -> bool:
        return folder == self.folder and path in self.texts


@dataclass(frozen=True)
class Reconfigure(FolderRequest[None]):
    """``Analysis.reload_sync``: a new configuration, with the open buffers' texts."""

    config: Config
    texts: dict[str, str]


@dataclass(frozen=True)
class Collect(Request[int]):
    """The server is idle: a full collection (``MemoryPolicy.when_idle``); the objects freed."""


# ----- from the worker ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Ready:
    """The process is up (its modules imported) and reads its pipe; it is process ``pid``."""

    pid: int


@dataclass(frozen=True)
class Partial:
    """Findings so far of ``path`` in the long check of request ``request``; with ``functions``,
    the findings of those functions only (the edited ones, with their extents: see
    ``Analysis.check_file_sync``), shown before the rest of the file is checked again."""

    request: int
    path: str
    findings: list[Finding]
    functions: Extents | None = None


@dataclass(frozen=True)
class Reply:
    request: int
    value: object


FailureKind = Literal["cancelled", "closed", "error"]


@dataclass(frozen=True)
class Failure:
    """Request ``request`` ended without a value: ``cancelled`` (a newer text stopped its check:
    ``Cancelled``), ``closed`` (its folder is closed), ``error`` (an exception; ``detail`` is its
    traceback)."""

    request: int
    kind: FailureKind
    detail: str = ""


ToWorker = Announce | AnnounceEdit | Withdraw | Stop | OpenFolder | CloseFolder | Tidy | Request[Any]
FromWorker = Ready | Partial | Reply | Failure
