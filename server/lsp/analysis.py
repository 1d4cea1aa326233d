"""A workspace folder's ``Project`` and knowledge base, inside the checker process (``worker.py``).

Keeping one Project (and its KnowledgeBase) per folder for the whole session is what makes checks
incremental: only functions whose text changed are re-extracted and only models whose digest changed
are re-checked. The Project is not thread-safe: every method whose name ends in ``_sync`` runs on the
worker's one check thread, which every folder's project shares. That thread must be one: the solver
behind witness refutation (z3, one context per process) must never run in two threads at once, nor
have its objects freed by one thread's garbage collection while another solves, which crashed the
server when two folders were checked together. The interpreter's lock runs Python one thread at a
time anyway, so checking folders one after another costs nothing.

The one exception is :meth:`Analysis.announce`, called from another thread of the worker while a
check runs: a new text set in the project stops the check of the old one at its next function.

This is the edge (``server/``), not the front end: it reads the files the project needs from disk
(sources nobody has open, headers, the compile database) as the CLI does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

from checker import KnowledgeBase
from extractors.api import NOT_CHECKED, PARTIAL_EVERY, Config, Finding, Project, Rule, catalogue
from server.check_runner import default_jobs
from server.lsp.folders import belongs
from server.lsp.worker_messages import CheckOutcome, Extents, Synced
from server.parallel_extraction import extract_in_parallel, read_in_parallel
from server.workspace import C_SUFFIXES, header_stamp, read_header, read_source, scan_c_files

log = logging.getLogger(__name__)
MAX_BUILDERS = 4  # processes that build a newly shown file's models: each holds a share of them

# the findings of the edited functions of a file, with their extents (see ``check_file_sync``)
EditedFindings = Callable[[str, list[Finding], Extents], None]


class Analysis:
    """Owns a folder's Project; its ``_sync`` methods run on the worker's check thread only."""

    def __init__(self, config: Config) -> None:
        self.kb = KnowledgeBase()
        self.config = config
        self.project = Project(config, kb=self.kb)
        self.rules: list[Rule] = list(catalogue(config))
        self.files: set[str] = set()
        self.disk_stamps: dict[str, tuple[int, int]] = {}  # path -> (mtime_ns, size) when last read
        self.header_stamps: dict[str, tuple[int, int] | None] = {}  # the same, of included headers
        self.announced: dict[str, str] = {}  # path -> the editor's text last announced

    def announce(self, path: str, text: str) -> None:
        """From a thread other than the check thread: a file's new text, handed to the project at once
        so that a check of an older text stops (it raises ``Cancelled`` and publishes nothing); this
        waits until that check has stopped. The check of this text comes as a request and finds it
        set (a request naming no text checks this one). Only files the project has are set: a new
        one is added by the check thread, which owns the set of files."""
        self.announced[path] = text
        if path in self.files:
            self.project.set_file(path, text)

    def forget_announced(self, path: str) -> None:
        """From the edit thread: the editor's text of ``path`` is not known here any more (an edit
        of it could not be applied), so a check of the announced text fails until the next one."""
        self.announced.pop(path, None)

    def announced_text(self, path: str) -> str:
        """The text :meth:`announce` was last handed for ``path`` (a check of an older one is
        withdrawn by that announcement, so it publishes nothing whichever text it reads)."""
        text = self.announced.get(path)
        if text is None:
            raise ValueError(f"no text of {path} was announced to check")
        return text

    def counters(self) -> dict[str, int]:
        return dict(self.project.counters)

    def reload_sync(self, config: Config, texts: Mapping[str, str]) -> None:
        """:meth:`reconfigure_sync` with the open buffers' ``texts`` and, for the other files the
        project holds, their text on disk."""
        sources = dict(texts)
        for path in sorted(self.files - set(sources)):
            text = read_source(Path(path))
            if text is not None:
                sources[path] = text
        self.reconfigure_sync(config, sources)

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

    def update_sync(self, path: str, text: str) -> tuple[str, ...]:
        """Set a file's text (the project parses it); the functions whose text changed, appeared or
        went."""
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
        self.announced.pop(path, None)
        if path in self.files:
            self.files.discard(path)
            self.project.remove_file(path)

    def sync_project_sync(
        self, texts: Mapping[str, str], disk_roots: Sequence[Path], root: Path | None, roots: Sequence[Path]
    ) -> Synced:
        """Bring the project in line with the folder's open buffers (``texts``) and its C files on
        disk under ``disk_roots`` (``roots``: all workspace roots, to leave out what a nested folder
        owns; ``root``: the folder's); a file on disk is read again only when its modification stamp
        changed."""
        on_disk = belongs(roots, root, [str(p) for p in scan_c_files(list(disk_roots))])
        for path in on_disk:
            if path in texts:
                self.disk_stamps.pop(path, None)
                continue
            try:
                stat = Path(path).stat()
            except OSError:
                continue
            stamp = (stat.st_mtime_ns, stat.st_size)
            if self.disk_stamps.get(path) == stamp and path in self.files:
                continue  # unchanged on disk since it was last read
            text = read_source(Path(path))
            if text is not None:
                self.update_sync(path, text)
                self.disk_stamps[path] = stamp
        for path, text in texts.items():
            self.update_sync(path, text)
        for gone in self.files - set(on_disk) - set(texts):
            self.remove_sync(gone)
        self.sync_headers_sync()
        paths = sorted(p for p in self.files if p.endswith(C_SUFFIXES))
        return Synced(paths, self.project.compile_commands_error)

    def check_file_sync(
        self,
        path: str,
        text: str,
        still_wanted: Callable[[], bool],
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: bool = False,
        edited: EditedFindings | None = None,
    ) -> CheckOutcome | None:
        """While typing: refresh one file and check it against every file the project holds (the
        unsaved buffers of open files, the saved text of the others), so that a finding through a
        function in another file stays while the user types; None if outdated. The project reuses
        everything the edit did not change: on Lua's 35 files, after the workspace check, an edit of
        one function costs tens of milliseconds, about what a same-file check costs.

        ``partial`` hears the findings so far while a long check runs (called on this thread);
        ``early``: the file's findings have not been shown yet, so ``partial`` first hears those
        whose witness refutation is known (``Project.check``'s first pass: never one that
        refutation removes), and the others once refuted. ``edited`` (for a file shown before)
        hears first the findings of the functions whose text changed, appeared or went, with the
        extents of those still there, before the rest of the file is checked: an edit can change
        the findings of other functions (callers of an edited one) only through what the check
        that follows finds, so until then theirs stay as shown."""
        if not still_wanted():
            return None
        before = self.counters()
        try:
            if early:
                self._read_on_every_core(path, text)
            changed = self.update_sync(path, text)
        finally:
            self.project.drop_handed_pieces()  # read for this text and configuration only
        if not still_wanted():
            return None
        if early:
            self._build_on_every_core(path, changed)
        if edited is not None and not early and changed:
            first = self.project.function_findings(path, changed)  # builds the models extents reads
            notes, extents = self.notes_and_extents(path, changed)
            names = sorted(n for n in changed if n in extents)
            edited(path, first + notes, {n: extents[n] for n in names})
        findings = self.project.check(
            paths=[path], partial=partial, partial_every=partial_every, early=(path,) if early else ()
        )
        notes, extents = self.notes_and_extents(path)
        result = {path: list(findings.get(path, [])) + notes}
        return CheckOutcome(result, _delta(before, self.counters()), changed, {path: extents})

    def _read_on_every_core(self, path: str, text: str) -> None:
        """The pieces of a file shown for the first time read by forked copies of this process as
        well, before its items are (sqlite3.c: 5,351 pieces, about 10 s on one core): what is
        read of a piece depends on nothing but the piece and the configuration. A file read
        before (an edit) reads only its changed pieces, here."""
        if path in self.files:
            return
        self.project.set_file(path, text)
        for problem in read_in_parallel(self.project, path, min(MAX_BUILDERS, default_jobs())):
            log.warning("%s", problem)

    def _build_on_every_core(self, path: str, names: Collection[str]) -> None:
        """The models of a file's functions ``names`` built by forked copies of this process as
        well, before its first check: the first findings of a file wait for every model of it
        (sqlite3.c: 4,803 functions, about 20 s on one core). The check takes them as if it had
        built them (``server.parallel_extraction``, which leaves a few to this process alone); a
        copy that fails costs only time."""
        wanted = set(names)
        keys = [k for k in self.project.model_keys([path]) if k[1] in wanted]
        for problem in extract_in_parallel(self.project, min(MAX_BUILDERS, default_jobs()), keys):
            log.warning("%s", problem)

    def check_paths_sync(
        self,
        paths: Sequence[str],
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: Collection[str] = (),
    ) -> CheckOutcome:
        """Interprocedural check of some files against the whole project (one chunk of a full check);
        ``early``: those not shown yet (see :meth:`check_file_sync`)."""
        before = self.counters()
        findings = self.project.check(
            paths=list(paths), interprocedural=True, partial=partial, partial_every=partial_every, early=early
        )
        shown = {p: self.notes_and_extents(p) for p in paths}
        result = {p: list(findings.get(p, [])) + shown[p][0] for p in paths}
        return CheckOutcome(result, _delta(before, self.counters()), extents={p: shown[p][1] for p in paths})

    def check_disk_text_sync(
        self, path: str, buffer: str, keep: bool, still_wanted: Callable[[], bool]
    ) -> tuple[list[Finding], bool] | None:
        """The file on disk in place of a closed buffer (whose text was ``buffer``), and its findings
        (None if outdated: the document was opened again); with whether the project's text of it
        changed. ``keep``: the file belongs to the workspace (else it leaves the project)."""
        if not still_wanted():
            return None
        text = read_source(Path(path)) if keep else None
        if text is None:
            self.remove_sync(path)
            return [], True
        self.update_sync(path, text)
        outcome = self.check_paths_sync([path])
        return outcome.findings.get(path, []), text != buffer

    def notes_and_extents(self, path: str, names: Collection[str] | None = None) -> tuple[list[Finding], Extents]:
        """The functions of ``path`` (of ``names`` only, when given) that could not be modelled, as
        information diagnostics (a quiet editor must mean checked code), and the first and last
        line of each function as the project parsed it, the unmodelled ones too (their notes are
        published as findings are): one the parser could not read past a syntax error has no
        extent of its own and stands at its note's lines.  With ``names`` neither the other
        functions' notes nor their extents are read: a file may have thousands."""
        unmodelled = self.project.unmodelled(path, names)
        extents = self.project.function_extents(path, names)
        for note in unmodelled:
            extents.setdefault(note.function, (note.location.start_line, note.location.end_line))
        notes = [Finding(NOT_CHECKED, "info", u.message, u.location, u.function) for u in unmodelled]
        return notes, extents


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: v - before.get(k, 0) for k, v in sorted(after.items()) if isinstance(v, int)}
