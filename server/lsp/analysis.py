"""The session's one extractors ``Project`` and knowledge base, driven from a single worker thread.

Keeping one Project (and its KnowledgeBase) for the whole session is what makes checks incremental:
only functions whose text changed are re-extracted and only models whose digest changed are
re-checked.  The Project is not thread-safe, so every call goes through one single-thread executor;
the event loop stays free to apply edits and answer requests meanwhile.

That thread is the process's, shared by the projects of all workspace folders: the solver behind
witness refutation (z3, one context per process) must never run in two threads at once, nor have
its objects freed by one thread's garbage collection while another solves, which crashed the
server when two folders were checked together.  The interpreter's lock runs Python one thread at a
time anyway, so checking folders one after another costs nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import tree_sitter

from checker import KnowledgeBase
from extractors.api import NOT_CHECKED, PARTIAL_EVERY, Config, Finding, Project, Rule, catalogue
from server.lsp.memory import MemoryPolicy
from server.workspace import header_stamp, read_header

log = logging.getLogger(__name__)
T = TypeVar("T")

Extents = dict[str, tuple[int, int]]


@dataclass(frozen=True)
class CheckOutcome:
    """A check's findings per file, with the work it did; ``extents``: per checked file, the first and
    last line of each function its parse found (what ``steady`` keeps findings by)."""

    findings: dict[str, list[Finding]]
    counters_delta: dict[str, int]
    changed_functions: tuple[str, ...] = ()
    extents: dict[str, Extents] = field(default_factory=dict)


class Analysis:
    """Owns the Project; all methods whose name ends in ``_sync`` run on the worker thread only."""

    def __init__(self, config: Config) -> None:
        self.kb = KnowledgeBase()
        self.config = config
        self.project = Project(config, kb=self.kb)
        self.rules: list[Rule] = list(catalogue(config))
        self.files: set[str] = set()
        self.disk_stamps: dict[str, tuple[int, int]] = {}  # path -> (mtime_ns, size) when last read
        self.header_stamps: dict[str, tuple[int, int] | None] = {}  # the same, of included headers
        self._closed = False
        # Edits go to the project from their own thread: a new text cancels the check in flight at
        # its next function (the project's database), and waiting for that must not hold the event loop.
        self._edits = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ctlsp-edit")
        self.memory = MemoryPolicy()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise RuntimeError("the folder's analysis is closed")
        return await asyncio.get_running_loop().run_in_executor(_checks(), fn, *args)

    def shutdown(self) -> None:
        self._closed = True  # the check thread is shared: later runs of this analysis are refused
        self._edits.shutdown(wait=False, cancel_futures=True)

    def announce(self, path: str, text: str, tree: tree_sitter.Tree | None) -> None:
        """Event loop: a file's new text, handed to the project at once so that a check of an older
        text stops (it raises ``Cancelled`` and publishes nothing); the check of this text is
        scheduled as usual and finds it set.  Only files the project has: a new one is added by the
        worker, which owns the set of files."""
        if path not in self.files:
            return
        project = self.project
        done = self._edits.submit(project.set_file, path, text)
        done.add_done_callback(_log_failure)

    def counters(self) -> dict[str, int]:
        return dict(self.project.counters)

    def reconfigure_sync(self, config: Config, sources: dict[str, str]) -> None:
        """Take a new configuration: in the project when it changes only the rules (the next check
        runs only the rules it adds or changes), else in a new Project, keeping the knowledge base
        (it is content-keyed)."""
        self.config = config
        self.rules = list(catalogue(config))
        if self.project.reconfigure(config):
            for path, text in sources.items():
                self.update_sync(path, text)
            return
        self.project = Project(config, kb=self.kb)
        self.files = set()
        self.disk_stamps = {}
        self.header_stamps = {}
        for path, text in sources.items():
            self.update_sync(path, text)

    def update_sync(self, path: str, text: str, tree: tree_sitter.Tree | None = None) -> tuple[str, ...]:
        update = self.project.update_file(path, text)
        self.files.add(path)
        if path in self.header_stamps:
            self.project.set_header(path, text)  # an edited header's macros count before it is saved
        self.sync_headers_sync([path])
        names: list[str] = []
        for attr in ("changed", "added", "removed"):
            names.extend(getattr(update, attr, ()) or ())
        return tuple(sorted(set(names)))

    def sync_headers_sync(self, paths: list[str] | None = None) -> None:
        """Hand the project the local headers the files of ``paths`` (or all) include, read again
        from disk when their modification stamp changed; a header open in the editor gives its
        buffer instead (see :meth:`update_sync`)."""
        for header in self.project.header_paths(paths):
            stamp = header_stamp(header)
            if header in self.header_stamps and (self.header_stamps[header] == stamp or header in self.files):
                continue
            self.header_stamps[header] = stamp
            self.project.set_header(header, read_header(header) if stamp is not None else None)

    def remove_sync(self, path: str) -> None:
        self.disk_stamps.pop(path, None)
        if path in self.files:
            self.files.discard(path)
            self.project.remove_file(path)

    def check_file_sync(
        self,
        path: str,
        text: str,
        tree: tree_sitter.Tree | None,
        still_wanted: Callable[[], bool],
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: bool = False,
    ) -> CheckOutcome | None:
        """While typing: refresh one file and check it against every file the project holds (the
        unsaved buffers of open files, the saved text of the others), so that a finding through a
        function in another file stays while the user types; None if outdated. The project reuses
        everything the edit did not change: on Lua's 35 files, after the workspace check, an edit of
        one function costs tens of milliseconds, about what a same-file check costs.

        ``partial`` hears the findings so far while a long check runs (called on this thread);
        ``early``: the file's findings have not been shown yet, so ``partial`` first hears those
        whose witness refutation is known (``Project.check``'s first pass: never one that
        refutation removes), and the others once refuted."""
        if not still_wanted():
            return None
        before = self.counters()
        changed = self.update_sync(path, text, tree)
        if not still_wanted():
            return None
        findings = self.project.check(
            paths=[path], partial=partial, partial_every=partial_every, early=(path,) if early else ()
        )
        result = {path: list(findings.get(path, [])) + self.notes(path)}
        return CheckOutcome(result, _delta(before, self.counters()), changed, {path: self.extents(path)})

    def check_paths_sync(
        self,
        paths: list[str],
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: Collection[str] = (),
    ) -> CheckOutcome:
        """Interprocedural check of some files against the whole project (one chunk of a full check);
        ``early``: those not shown yet (see :meth:`check_file_sync`)."""
        before = self.counters()
        findings = self.project.check(
            paths=paths, interprocedural=True, partial=partial, partial_every=partial_every, early=early
        )
        result = {p: list(findings.get(p, [])) + self.notes(p) for p in paths}
        return CheckOutcome(result, _delta(before, self.counters()), extents={p: self.extents(p) for p in paths})

    def extents(self, path: str) -> Extents:
        """First and last line of each function of ``path`` as the project parsed it."""
        state = self.project.files.get(path)
        if state is None:
            return {}
        return {name: (m.start_row, m.last_row) for name, m in state.model.functions.items()}

    def notes(self, path: str) -> list[Finding]:
        """Functions of ``path`` that could not be modelled, as information diagnostics: a quiet
        editor must mean checked code."""
        return [
            Finding(NOT_CHECKED, "info", u.message, u.location, u.function) for u in self.project.unmodelled(path)
        ]


@cache
def _checks() -> ThreadPoolExecutor:
    """The one thread every folder's project is checked on (see the module's doc)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="ctlsp-check")


def _log_failure(done: Future[None]) -> None:
    if not done.cancelled() and (e := done.exception()) is not None:
        log.error("handing an edit to the project failed: %s: %s", type(e).__name__, e)


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: v - before.get(k, 0) for k, v in sorted(after.items()) if isinstance(v, int)}
