"""The engine behind :mod:`extractors.api`: :class:`Project`, a workspace of C files checked
through the project's query database.  Only ``extractors.api`` is the front end's door; this module
is loaded the first time its names are asked for there, so that a process which only reads
findings and configuration (the language server's own) never imports the checker.
"""

from __future__ import annotations

import hashlib
import os
import weakref
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from checker import KnowledgeBase
from checker.querydb import Database, DbState, Query
from extractors.calls import call_table
from extractors.check_queries import (
    RULES,
    VERDICTS,
    CheckDb,
    file_findings,
    lock_contracts,
    projector,
)
from extractors.checking import RESULT_VERSION, FunctionChecker, ordered, place, positional_key
from extractors.compile_flags import CompileCommandsError, FileFlags, compile_database
from extractors.config import PARTIAL_EVERY, Config
from extractors.findings import Finding, Location, Unmodelled
from extractors.functions import FunctionModel
from extractors.includes import MAX_DEPTH, Preprocessed
from extractors.items import Part, file_pieces, file_segments, piece_items, segment_items
from extractors.lock_contracts import LockContracts
from extractors.phase_clock import EXTRACTION
from extractors.pieces import Piece
from extractors.projection import Projector
from extractors.queries import (
    FLAGS,
    HEADER,
    PROJECT_FILES,
    SETTINGS,
    SOURCE,
    FileItems,
    FileState,
    FrontDb,
    Settings,
    file_ignores,
    file_items,
    file_model,
    file_notes,
    file_preprocessor,
    model_with_key,
    notes_of,
)
from extractors.rules import Rule, catalogue, rules_key
from extractors.suppress import suppressed


@dataclass(frozen=True)
class FileUpdate:
    path: str
    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class FunctionNode:
    """One modelled function of the project as a batch runner plans work by it: ``size`` (CFG
    nodes) stands for its cost, ``callees`` are the ids of the project functions it calls."""

    ident: str
    path: str
    size: int
    callees: tuple[str, ...]


class _Files(Mapping[str, FileState]):
    """The project's files, each derived by the database when read."""

    def __init__(self, db: FrontDb) -> None:
        self.db = db
        self.paths: set[str] = set()

    def __getitem__(self, path: str) -> FileState:
        if path not in self.paths:
            raise KeyError(path)
        return self.db.get(file_model, path)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.paths))

    def __len__(self) -> int:
        return len(self.paths)

    def __contains__(self, path: object) -> bool:
        return path in self.paths


ModelKey = tuple[str, str, bytes]  # a function's path, name and text (padded to its first column)
BuiltModel = tuple[str, str, str, "FunctionModel | Unmodelled | None"]  # path, name, model key, model
ReadPiece = tuple[Piece, Part, bool]  # a piece, its items, whether reading it read the settings

SWEEP_SLACK = 5_000
"""The fewest memos a project gains before :meth:`Project.tidy` sweeps again (so that a small
project is not swept at every edit)."""

MAX_WEIGHT = 2_000_000
"""The bound of a project's database: every memo and content entry, weighed in units of about one
small record (a projection of a few dozen nodes weighs a few).  The one cache policy of a project,
with the sweeps of :meth:`Project.tidy`.  A check of sqlite3.c (270,000 lines) holds about 1.5
million: a bound below what one check of a file reads would evict its models before the check
ends, and every edit would re-check the whole file."""


class Project:
    def __init__(
        self,
        config: Config | None = None,
        *,
        kb: KnowledgeBase | None = None,
        cache: MutableMapping[str, bytes] | None = None,
        strategy: str = "kb",
        max_weight: int = MAX_WEIGHT,
        sweeps: bool = True,
    ) -> None:
        """``strategy="lazy"`` skips the knowledge base: a one-shot run (the CLI) never reuses it
        across edits, and recording it cost up to a third of the model checking.  Without
        ``cache``, verdicts are a content table of the project's database, under its bound and
        swept with the rest (:meth:`tidy`; ``sweeps=False``: a one-shot run, which never
        tidies, and then saves recording what each computation uses).  The knowledge base keeps
        its own bound: its facts are many (861,000 after a check of sqlite3.c) and read in the
        checker's inner loop, where a lookup through the database made a whole check 8% slower."""
        self.config = config or Config()
        self.table = call_table(self.config)
        self.rules: list[Rule] = catalogue(self.config)
        self.strategy = strategy
        self.errors: list[str] = []  # the last internal errors behind model_errors and extract_errors

        def checker_of(db: Database) -> FunctionChecker:
            facts = kb if kb is not None else KnowledgeBase()
            verdicts = cache if cache is not None else db.content(VERDICTS)
            return FunctionChecker(self.rules, facts, verdicts, strategy, self.errors, db)

        self.db = CheckDb(self.table, max_weight, checker_of)
        self.db.records_uses = sweeps
        self.kb: KnowledgeBase = self.db.checker.kb
        self.cache: MutableMapping[str, bytes] = self.db.checker.cache
        self.checker = self.db.checker
        self.db.errors = self.errors
        c = self.config
        defines = (c.configured_defines(), c.command_line_defines())
        settings = Settings(c.extraction_digest(), self.table, *defines, c.command_include, c.include, c.atoms)
        self.db.set(SETTINGS, (), settings)
        self.db.set(RULES, (), rules_key(self.rules))
        self.files = _Files(self.db)
        self._headers: set[str] = set()
        self._compile: dict[str, FileFlags] | None = None  # compile_commands.json, once handed in
        self._compile_base = ""
        self.compile_commands_error: str | None = None
        self._updated: dict[str, FileItems] = {}  # per file, its items when update_file last saw it
        self._swept_to = 0  # memos the database held after the last sweep (see tidy)
        self._swept_at = (0, 0)  # the revisions of the last two sweeps
        # The database's memos are freed with the project, not at the next full collection.
        weakref.finalize(self, self.db.release).atexit = False

    def reconfigure(self, config: Config) -> bool:
        """Take ``config`` in place when it changes only the rules (which run, their severity and
        wording, custom rules): models, projections and verdicts stay, and a check then runs only
        the rules that are new or changed (results are kept per rule). False, and nothing changed,
        when it changes what is extracted: that needs a new project."""
        if (
            config.extraction_digest() != self.config.extraction_digest()
            or config.compile_commands != self.config.compile_commands
        ):
            return False
        self.config = config
        self.rules = catalogue(config)
        self.checker.set_rules(self.rules)
        self.db.set(RULES, (), rules_key(self.rules))
        return True

    @property
    def counters(self) -> dict[str, int]:
        """What the project did so far (monotone): functions extracted, reused and unreadable,
        checks run and reused, and so on."""
        db = self.db
        extracted = {"functions_extracted": db.built, "functions_reused": db.reused, "extract_errors": db.failed}
        return {**extracted, **self.checker.counts}

    @property
    def seconds(self) -> dict[str, float]:
        """Seconds spent so far per phase of checking (:data:`extractors.phase_clock.PHASES`:
        extraction a check had to do, projection, model checking, refutation), exclusive of each
        other and monotone like :attr:`counters`: callers take the difference around a check."""
        return self.checker.clock.snapshot()

    # ----- files -------------------------------------------------------------------------------
    def update_file(self, path: str, text: str) -> FileUpdate:
        """:meth:`set_file`, naming the functions whose text changed, appeared or went since the
        last ``update_file`` of ``path`` (texts set in between by :meth:`set_file` included)."""
        known = self._updated.get(path)
        old = known.functions if known is not None else {}
        self.set_file(path, text)
        items = self.db.get(file_items, path)
        self._updated[path] = items
        new = items.functions
        changed = sorted(n for n, item in new.items() if n in old and old[n].text != item.text)
        added, removed = sorted(new.keys() - old.keys()), sorted(old.keys() - new.keys())
        return FileUpdate(path, tuple(changed), tuple(added), tuple(removed))

    def set_file(self, path: str, text: str) -> None:
        """Set a file's text.  Nothing is extracted here: models are derived when asked for, and
        only those whose text or context changed are rebuilt (the file is read again piece by
        piece, only the pieces whose text changed: :mod:`extractors.items`).  Called from another
        thread while a check runs, this cancels that check at its next function (the check raises
        ``Cancelled`` and returns nothing) and waits for it to stop before the new text is in."""
        self.db.set(SOURCE, path, text)  # no write at all when the text is the same
        if path not in self.files.paths:
            self.db.set(PROJECT_FILES, (), frozenset(self.files.paths | {path}))
        self.files.paths.add(path)
        if self._compile is not None:
            self._set_flags(path)

    def remove_file(self, path: str) -> None:
        self._updated.pop(path, None)
        if path in self.files.paths:
            self.files.paths.discard(path)
            self.db.remove(SOURCE, path)
            self.db.set(PROJECT_FILES, (), frozenset(self.files.paths))
            self.db.remove(FLAGS, path)
        self.db.forget_file(path)  # the definitions of its last parse, and so the trees

    def header_paths(self, paths: Iterable[str] | None = None) -> Iterator[str]:
        """Every file besides the sources that the files (of ``paths``, or all) read: the
        configuration's ``compile_commands.json`` first, then the headers their ``#include`` lines
        look for (next to the file, in the ``-I`` folders, ``-include`` files; see
        :mod:`extractors.includes`), missing ones too.  The edges read them and hand them in with
        :meth:`set_header`.  Lazy, in rounds: the headers handed in while it is iterated are
        followed in the next round (their own includes, the folders a compile database adds), up
        to the include depth bound, so one loop over it hands in the whole include tree."""
        seen: set[str] = set()
        if self.config.compile_commands is not None:
            seen.add(self.config.compile_commands)
            yield self.config.compile_commands
        for _ in range(MAX_DEPTH + 2):
            wanted: set[str] = set()
            for path in self.files.paths if paths is None else self.files.paths.intersection(paths):
                pre: Preprocessed = self.db.get(file_preprocessor, path)
                wanted.update(pre.wanted)
            new = sorted(wanted - seen)
            if not new:
                return
            seen.update(new)
            yield from new

    def unread_headers(self) -> list[str]:
        """The files of :meth:`header_paths` never handed in (one round of them)."""
        return [h for h in self.header_paths() if h not in self._headers]

    def set_header(self, path: str, text: str | None) -> None:
        """A header's text as read by the caller, or None when it cannot be read; for the
        configuration's ``compile_commands.json``, :meth:`set_compile_commands` (file paths
        compared as given: the language server's are absolute)."""
        self._headers.add(path)
        if path == self.config.compile_commands:
            self.set_compile_commands(path, text)
            return
        self.db.set(HEADER, path, text)

    def set_compile_commands(self, path: str, text: str | None, base: str = "") -> None:
        """The text of the compile database ``path`` (None: there is none): each file's flags
        become its ``FLAGS`` input, so a change to one entry re-derives that file alone.  A
        relative file path of the project is taken relative to ``base`` to find its entry (the
        CLI's working folder).  A malformed database counts as none, and
        :attr:`compile_commands_error` says why."""
        self._headers.add(path)
        self._compile_base = base
        self.compile_commands_error = None
        try:
            self._compile = compile_database(text, path) if text is not None else {}
        except CompileCommandsError as e:
            self.compile_commands_error = str(e)
            self._compile = {}
        with self.db.write():
            for file in self.files.paths:
                self._set_flags(file)

    def _set_flags(self, path: str) -> None:
        """A file's entry as its ``FLAGS`` input; a file without one has the input unset (equal to
        no flags for the queries, and unchanged for a file that never had an entry)."""
        entries = self._compile or {}
        flags = entries.get(os.path.normpath(os.path.join(self._compile_base, path)))
        if flags is None:
            self.db.remove(FLAGS, path)
        else:
            self.db.set(FLAGS, path, flags)

    def unmodelled(self, path: str, names: Collection[str] | None = None) -> list[Unmodelled]:
        """The functions of ``path`` that could not be modelled (and so were not checked); of those
        named ``names`` only, when given, without visiting the file's other functions."""
        if path not in self.files:
            return []
        if names is not None:
            return list(notes_of(self.db, path, names))
        notes: tuple[Unmodelled, ...] = self.db.get(file_notes, path)
        return list(notes)

    def function_extents(self, path: str, names: Collection[str] | None = None) -> dict[str, tuple[int, int]]:
        """First and last row of every function definition of ``path`` as parsed now, modelled or
        not (an unmodelled one's note belongs to it as a finding does); of those named ``names``
        only, when given (a file may have thousands)."""
        if path not in self.files:
            return {}
        items = self.db.get(file_items, path).functions
        chosen = items.items() if names is None else ((n, items[n]) for n in names if n in items)
        return {name: (item.row, item.row + item.text.count(b"\n")) for name, item in chosen}

    def function_at(self, path: str, line: int) -> str | None:
        st = self.files.get(path)
        if st is None:
            return None
        for fm in st.model.functions.values():
            if fm.start_row <= line <= fm.last_row:
                return fm.name
        return None

    # ----- memory ------------------------------------------------------------------------------
    def tidy(self) -> int:
        """Forget what the project's files no longer need (:meth:`Database.sweep` from
        :meth:`roots`): the memos of old function texts, the projections and verdicts only they
        used, and content nothing used since the sweep before the last.  Run between checks; it
        sweeps once the memos have grown by a tenth (at least :data:`SWEEP_SLACK`) since the last
        sweep, so memory stays within about that margin of what the files need.  A sweep walks
        the live memos (45 ms on minilua.c's 7,800 lines, 0.3 s on a 52,000-line file, 1.1 s on
        sqlite3.c), and a tenth of them is made again in 10 to 400 edits.  An edit that comes
        during a sweep goes first (:meth:`Database.sweep_or_give_way`) and the next tidy sweeps
        again, unless the memos have grown by twice the margin: then the edit waits for the
        sweep, so that memory stays bounded while edits come faster than a sweep takes.
        Returns how many memos went."""
        held = self.db.memo_count()
        margin = max(SWEEP_SLACK, self._swept_to // 10)
        if held < self._swept_to + margin:
            return 0
        revision = self.db.revision
        roots, since = self.roots(), self._swept_at[0]
        if held < self._swept_to + 2 * margin:
            dropped = self.db.sweep_or_give_way(roots, used_since=since)
            if dropped is None:
                return 0
        else:
            dropped = self.db.sweep(roots, used_since=since)
        self._swept_to, self._swept_at = held - dropped, (self._swept_at[1], revision)
        return dropped

    def roots(self) -> Iterator[tuple[Query[Any, Any], Hashable]]:
        """What a check, a hover or an update reads from outside any query, for every file of the
        project as it is now: what :meth:`tidy` keeps, with all it was made of."""
        everything = tuple(self.files)
        for path in everything:
            yield file_findings, (path, everything)
            yield file_findings, (path, (path,))
            yield projector, (path,)
            yield lock_contracts, (path,)
            for query in (file_items, file_ignores, file_notes, file_model, file_preprocessor):
                yield query, path
        yield projector, everything
        yield lock_contracts, everything

    # ----- building models elsewhere -----------------------------------------------------------
    def model_keys(self, paths: Iterable[str] | None = None) -> list[ModelKey]:
        """Every function definition of the project's files (or of those of ``paths`` it holds),
        as the keys of their models (path, name, text), in file order: what a check builds first."""
        chosen = self.files if paths is None else self.files.keys() & set(paths)
        return [
            (path, name, item.text)
            for path in sorted(chosen)
            for name, item in self.db.get(file_items, path).functions.items()
        ]

    def build_models(self, keys: Iterable[ModelKey]) -> list[BuiltModel]:
        """The models of ``keys`` (of :meth:`model_keys`), built here, each with its path, name
        and model key: what :meth:`hand_models` of a project of the same inputs (a forked copy
        of this one) takes instead of building them."""
        db, out = self.db, []
        with db.snapshot():
            for key in keys:
                before = db.built + db.failed
                model_key, model = model_with_key(db, key)
                if db.built + db.failed != before:
                    db.ahead.add(key)  # built for the check that follows, which does not reuse it
                out.append((key[0], key[1], model_key, model))
        return out

    def hand_models(self, built: Iterable[BuiltModel]) -> None:
        """Take models :meth:`build_models` of a project of the same inputs built.  A model is
        used only where this project would build one under the same model key (a digest of its
        text and context, which is all it is made of), so the results are the same either way."""
        for path, name, key, model in built:
            self.db.hand(path, name, key, model)

    def pieces(self, path: str) -> tuple[Piece, ...]:
        """The pieces ``path``'s text is read in (each parses alone: :mod:`extractors.pieces`)."""
        return self.db.get(file_pieces, path) if path in self.files else ()

    def read_pieces(self, path: str, pieces: Iterable[Piece]) -> list[ReadPiece]:
        """What ``pieces`` of ``path`` hold (their items), read here ahead of the file's items, each
        with whether its reading read the settings: what :meth:`hand_pieces` of a project of the
        same inputs (a forked copy of this one) takes instead of reading them.  The definitions
        parsed on the way are kept for the models of ``path`` as the file's reading would keep
        them."""
        db = self.db
        db.fresh, db.settings_read = db.early_parsed.pop(path, {}), set()
        try:
            with db.snapshot():
                parts = [(piece, db.get(piece_items, piece)) for piece in pieces]
            return [(piece, part, piece in db.settings_read) for piece, part in parts]
        finally:
            db.early_parsed[path], db.fresh, db.settings_read = db.fresh, {}, None

    def hand_pieces(self, read: Iterable[ReadPiece]) -> None:
        """Take what :meth:`read_pieces` of a project of the same inputs read: a piece is its own
        key (its text and the conditionals open where it starts), so its items are the same."""
        for piece, part, read_settings in read:
            self.db.hand_part(piece, part, read_settings)

    def drop_handed_pieces(self) -> None:
        """Forget what :meth:`hand_pieces` handed in and no reading took (it was read under this
        configuration, which may not last)."""
        self.db.handed_parts.clear()

    # ----- the project elsewhere ----------------------------------------------------------------
    def export(self) -> DbState:
        """What this project's database holds (its texts, items, contexts and models, each with
        what it was derived from), for :meth:`adopt` by a project of the same configuration in
        another process (a batch worker), which then parses and builds nothing.  The pieces are
        left out: only an edit reads them again."""
        return self.db.export(leave_out=(file_pieces, file_segments, segment_items, piece_items))

    def adopt(self, state: DbState) -> None:
        """Hold the project :meth:`export` gave, in place of this one's files (the configuration
        must be the one it was exported with): the same files, headers and compile flags, every
        derived value read as it was there, so checks give what they give there, and edits of
        those files invalidate what they would there (the compile database itself is not
        exported: a file added afterwards gets no flags from it)."""
        self.db.adopt(state)
        self.files.paths = set(self.db.keys(SOURCE))
        self._headers = set(self.db.keys(HEADER))
        self._updated = {}

    # ----- checking ----------------------------------------------------------------------------
    def _projector(self, paths: Iterable[str]) -> Projector:
        """The projector over the functions of ``paths``, the same object while none of them
        changed or moved."""
        return self.db.get(projector, tuple(sorted(p for p in set(paths) if p in self.files)))

    def _contracts(self, paths: Iterable[str]) -> LockContracts:
        """The lock contracts of the scope :meth:`_projector` gives for ``paths``."""
        return self.db.get(lock_contracts, tuple(sorted(p for p in set(paths) if p in self.files)))

    def check(
        self,
        paths: Iterable[str] | None = None,
        *,
        interprocedural: bool = True,
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
        early: Collection[str] = (),
    ) -> dict[str, list[Finding]]:
        """Findings per file for ``paths`` (all files if None), reusing unchanged results.

        ``partial(path, findings)`` hears, while a file's check takes long, the findings of the
        functions checked so far (at most once per ``partial_every`` seconds), so that a
        large file shows its first findings in about a second instead of at the end.

        For the files in ``early`` (with ``partial``: those whose findings the caller has not
        shown yet), a first pass runs before the check and ``partial`` hears its findings at once
        when it withheld any: every function whose findings' refutations are known (cached,
        cheap, or done within ``partial_every`` seconds of refuting), never a finding refutation
        removes (:meth:`FunctionChecker.first_findings`). The check's own reports of findings so
        far then include them, so what the caller shows only grows.
        """
        targets = sorted(self.files) if paths is None else sorted(set(paths))
        everything = tuple(self.files)
        counters = self.db.counters()
        out: dict[str, list[Finding]] = {}
        for path in targets:
            if path not in self.files:
                out[path] = []
                continue
            scope = everything if interprocedural else (path,)
            heard = None
            if partial is not None:
                last: list[list[Finding]] = []  # the last report made, placed: the pass's or the check's
                shown: tuple[Finding, ...] = ()
                if path in early:
                    shown = self._first_findings(path, scope, partial_every, self._placing(partial, (), last))
                heard = self._placing(partial, shown, last)
                if shown:
                    heard(path, [])  # the first pass's findings, unless already heard
            before = counters[file_findings.name].executed if file_findings.name in counters else 0
            self.db.partial = heard
            self.db.partial_every = partial_every
            try:
                found = self.db.get(file_findings, (path, scope))
            finally:
                self.db.partial = None
            counters = self.db.counters()
            if counters[file_findings.name].executed == before:
                self.checker.counts["files_reused"] += 1
            out[path] = self._placed(path, found)
        return out

    def function_findings(self, path: str, names: Collection[str]) -> list[Finding]:
        """The findings of the functions ``names`` of ``path`` (those it defines) with the whole
        project in scope, placed and less the suppressed ones: exactly what :meth:`check` finds in
        them, from the same memos, so that a check of the file that follows reuses this work.  The
        language server shows these first after an edit (the edited functions' own findings, in the
        time their check takes), while the rest of the file is checked again."""
        if path not in self.files:
            return []
        found = self.check_functions(f"{path}:{name}" for name in sorted(names))  # ids: FunctionModel.ident
        return self._placed(path, (f for per_function in found.values() for f in per_function))

    def _row_of(self, function: str) -> int:
        path, name = function.rsplit(":", 1)
        item = self.db.get(file_items, path).functions.get(name)
        return item.row if item is not None else 0

    def _placed(self, path: str, found: Iterable[Finding]) -> list[Finding]:
        """Findings on today's rows, less those silenced by a suppression comment, in order."""
        ignores = self.db.get(file_ignores, path)
        placed = (place(f, self._row_of) for f in found)
        at_end = {r.id for r in self.rules if r.report_at == "end"}
        return ordered(f for f in placed if not _silenced(ignores, f, f.rule_id in at_end))

    def _placing(
        self,
        partial: Callable[[str, list[Finding]], None],
        shown: tuple[Finding, ...] = (),
        last: list[list[Finding]] | None = None,
    ) -> Callable[[str, list[Finding]], None]:
        """``partial`` hearing the findings so far placed, with those of a first pass (``shown``,
        all of them findings of the check: see :meth:`check`) kept in; a report equal to the last
        one made (``last``, shared with the first pass's reports) is not made again."""

        last = last if last is not None else []

        def heard(path: str, found: list[Finding]) -> None:
            if shown:
                merged = {(f.rule_id, f.location): f for f in found}
                for f in shown:
                    merged.setdefault((f.rule_id, f.location), f)
                found = list(merged.values())
            placed = self._placed(path, found)
            if last and last[-1] == placed:
                return  # the first pass's findings again: nothing new to show
            last[:] = [placed]
            partial(path, placed)

        return heard

    def _first_findings(
        self,
        path: str,
        scope: tuple[str, ...],
        budget: float,
        report: Callable[[str, list[Finding]], None],
    ) -> tuple[Finding, ...]:
        """The first pass of :meth:`check` for ``path`` (unplaced findings; none when it withheld
        nothing, as the check then finds the same from the memos the pass made); ``report`` hears
        its findings so far on a long pass."""
        with self.db.snapshot():
            proj = self.db.get(projector, scope)  # the projector the check's file_findings reads
            contracts = self.db.get(lock_contracts, scope)
            functions = [fm for fm in proj.scope.functions.values() if fm.file == path]
            check = self.checker.first_findings
            found, withheld = check(path, functions, proj, self.db.check_cancelled, budget, report, contracts)
        if not withheld:
            return ()
        return found

    def call_graph(self) -> list[FunctionNode]:
        """Every modelled function, in the order :meth:`check` checks them (by file, then file
        order), with the project functions it calls: what a batch runner splits work by."""
        proj = self._projector(self.files)
        return [
            FunctionNode(i, fm.file, len(fm.cfg.nodes), proj.callee_ids(fm, i))
            for i, fm in proj.scope.functions.items()
        ]

    def check_functions(self, idents: Iterable[str]) -> dict[str, list[Finding]]:
        """Per function id (of :meth:`call_graph`), its findings with the whole project in scope,
        as :meth:`check` finds them but unplaced and before suppressions; :meth:`assemble` turns
        a file's into what :meth:`check` returns for it.  An unknown id has none."""
        with self.db.snapshot():
            with self.checker.clock(EXTRACTION):  # a worker's first unit builds every model here
                proj = self._projector(self.files)
                contracts = self._contracts(self.files)
            out: dict[str, list[Finding]] = {}
            for ident in idents:
                fm = proj.scope.functions.get(ident)
                if fm is None:
                    out[ident] = []
                    continue
                check = self.checker.check_file
                found = check(fm.file, [fm], proj, None, PARTIAL_EVERY, self.db.check_cancelled, contracts)
                out[ident] = list(found)
            return out

    def bound_checks(self, weight: int) -> None:
        """Let the database hold at most ``weight`` more than it holds now (never more than its
        bound already allows): what is memoised now (the extracted models, the pieces and scope
        they come from) is pinned (:meth:`Database.pin`), and the projections, models and verdicts
        that checks add are evicted beyond it.  For a batch worker, whose texts never change: so
        what only a check of edited texts would read again (value records, values' own bounds)
        is not kept at all."""
        pinned = self.db.pin()
        self.db.max_weight = min(max(0, self.db.max_weight - pinned), weight)
        self.db.projections.across_edits = False
        self.db.checker.records = False

    def forget_projector(self) -> None:
        """Let go of the project's projector, which keeps every projection it built for as long as
        it lives; the next check makes a new one.  Between two batches of :meth:`check_functions`
        this bounds memory by the database's bound plus one batch, where no edit ever replaces the
        projector: what a later batch can reuse is still in the projection store, which is part of
        the database, and found there by its content key."""
        self.db.evict(projector)

    def assemble(self, path: str, per_function: Iterable[Iterable[Finding]]) -> list[Finding]:
        """``check([path])[path]`` from the unplaced findings of each function of ``path``, given in
        :meth:`call_graph` order: the first of equal (rule, location) kept, placed, suppressed."""
        found: dict[tuple[str, Location], Finding] = {}
        for fs in per_function:
            for f in fs:
                found.setdefault((f.rule_id, f.location), f)
        return self._placed(path, found.values())

    def findings_keys(self, paths: Iterable[str]) -> dict[str, str]:
        """Per file of ``paths``, a digest of everything its interprocedural findings depend on when
        the whole project is checked: the file's text and suppressions, each of its functions' keys
        with what they can reach (``Projector.positional_keys``), and the place of every reachable
        function, since witness steps inside a callee carry its lines.  Equal keys, equal findings:
        the batch runner's on-disk cache is keyed by them."""
        proj = self._projector(self.files)
        contracts = self._contracts(self.files)
        out: dict[str, str] = {}
        models: dict[str, dict[str, FunctionModel]] = {}

        def functions_of(path: str) -> dict[str, FunctionModel]:
            got = models.get(path)
            if got is None:
                got = models[path] = self.files[path].model.functions
            return got

        for path in paths:
            st = self.files[path]
            text_digest = hashlib.sha256(st.text.encode("utf-8", "surrogatepass")).hexdigest()
            parts = [RESULT_VERSION, path, text_digest, st.ignores_digest]
            own = sorted(functions_of(path).values(), key=lambda m: m.name)
            parts.extend(positional_key(proj, fm) for fm in own)
            # what the function's callers decide of its lock contracts (none: the key as it was)
            parts.extend(f"held:{fm.ident}:{held}" for fm in own if (held := contracts.key(fm.ident)))
            for g in sorted(proj.reachable_ids(own)):
                file, name = g.rsplit(":", 1)
                now = functions_of(file).get(name)
                parts.append(f"{g}:{now.start_row}:{now.last_row}" if now is not None else g)
            out[path] = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
        return out


def _silenced(ignores: dict[int, frozenset[str]], f: Finding, at_end: bool) -> bool:
    """Whether a suppression comment silences ``f``: on its line, or, for a finding of a rule
    reported where its path ends (lock-not-released at the return), on the line its witness
    starts at in the same file (the lock), where such findings were reported before."""
    if suppressed(ignores, f.location.start_line, f.rule_id):
        return True
    start = f.witness[0].location if at_end and f.witness else None
    return start is not None and start.path == f.location.path and suppressed(ignores, start.start_line, f.rule_id)
