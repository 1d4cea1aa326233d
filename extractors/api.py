"""Public API of the C front end: a :class:`Project` of C files, checked by CTL model checking.

Everything else in ctlsp (the ``ctlsp check`` CLI, the language server) codes against this module
only; it is kept stable.

    from extractors.api import Project, parse_c, Finding, Location, WitnessStep
    from extractors.api import Config, ConfigError, config_from_text, Rule, catalogue

    project = Project(config_from_text(text, "ctlsp.toml"), kb=None, cache=None)  # files: server.workspace
    upd = project.update_file("a.c", text)            # FileUpdate(changed, added, removed) function names
    upd = project.update_file("a.c", text, tree)      # tree: parse_c(text, old_tree) done by the caller
    project.remove_file("a.c")
    findings = project.check()                        # {path: [Finding, ...]} for every file
    findings = project.check(["a.c"], interprocedural=False)   # boxes only into the same file (typing)
    project.function_at("a.c", 12)                    # name of the function spanning 0-based line 12
    project.counters                                  # functions_extracted, functions_reused,
                                                      # checks_run, checks_reused, models_built,
                                                      # files_reused, functions_check_reused (monotone)

How it works: each C function becomes a CFG (``extractors.cfg``), pruned by known flag values
(``extractors.prune``); for every access path ``v`` a function does something to, the function is
projected onto ``v`` (``extractors.projection``) as component ``f@v``.  Its nodes carry the canonical
propositions of ``v`` only:

    alloc    v receives fresh memory (malloc & co, [extract] allocators, inferred project allocators)
    open     v receives a handle (fopen, open, socket, [extract] resources)
    free     v is freed;  close: v's handle is released;  lock / unlock: v (a lock object) changes
    use      v is dereferenced (*v, v->f, v[i], or passed to a function that dereferences it)
    read     v's value is read;  write: v is assigned (not counting NULL/constant initialisers)
    def      v gets a new value in any way (assignment, &v, allocation)
    decl     v is declared without an initialiser
    escape   v is returned, stored elsewhere, assigned to another variable or passed to unknown code
    isnull / notnull   the branch just taken established v == NULL / v != NULL (also fd < 0)
    discard  (value "$ret") the result of a [extract] must_check function is ignored
    end      (root component only) the checked function has returned

A call that passes ``v`` (or a prefix of the path) to project function ``g`` as parameter ``i`` is a
box into ``g@i`` (``g@i->buf`` for field paths): the same component for every caller, so knowledge
about it is reused.  Each enabled rule (``extractors.rules``, ``rules.toml``) is an existential CTL
formula checked with ``checker.check(..., strategy="kb", kb=project.kb, witness=True)`` (``"lazy"``
without the knowledge base for one-shot runs); its witness
becomes the finding's :class:`WitnessStep` path (kinds: event, branch, call, end).

Reuse: function models are keyed by a hash of the function text, file constants and configuration
(an unchanged function is never re-extracted); a function's findings are kept while it, its position
and every function it can reach are unchanged; check results are keyed by the rule formula and the
deep digest of the checked RSM (content of all components it can reach), and stored in ``cache``
(a ``MutableMapping[str, bytes]``, e.g. disk-backed) or in memory.  The knowledge base ``kb`` keeps
what the checker learnt per component across checks.

Findings are deterministic, sorted by location, and carry a ``fingerprint`` made of the rule id,
function, variable and event text (no line numbers), so baselines survive edits.  Comments
``// ctlsp-ignore[rule-id, ...]`` or ``/* ctlsp-ignore */`` on the finding's line or the line
before silence it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import NamedTuple, cast

import tree_sitter

from checker import KnowledgeBase, check
from checker.bounded import drop_oldest
from checker.canonical import canonical
from checker.contraction import contract, contractible
from checker.model import RSM, ModelError
from checker.querydb import Cancelled, Database, derived
from checker.witness import Step
from extractors.calls import CallSpec, call_table
from extractors.config import Config, ConfigError, config_from_text
from extractors.facts import root_of
from extractors.findings import NOT_CHECKED, Finding, Location, Unmodelled, WitnessStep
from extractors.functions import FunctionModel, function_name, top_level_functions
from extractors.parse import parse_c
from extractors.projection import DISCARD, ProjectionStore, Projector, function_id, locals_of, make_scope
from extractors.queries import (
    HEADER,
    SETTINGS,
    SOURCE,
    FileState,
    FrontDb,
    Settings,
    Source,
    file_ignores,
    file_items,
    file_model,
    file_scope,
    header_path,
)
from extractors.report import WITNESS_LABELS, Reporter
from extractors.rules import Rule, catalogue
from extractors.suppress import suppressed

__all__ = [
    "Cancelled",
    "NOT_CHECKED",
    "Config",
    "ConfigError",
    "FileUpdate",
    "Finding",
    "Location",
    "Project",
    "Rule",
    "Unmodelled",
    "WitnessStep",
    "PARTIAL_EVERY",
    "catalogue",
    "config_from_text",
    "function_name",
    "parse_c",
    "top_level_functions",
]

_RESULT_VERSION = "r4"
PARTIAL_EVERY = 1.0  # seconds between partial results of a long file check


@dataclass(frozen=True)
class FileUpdate:
    path: str
    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


class _ProjectDb(FrontDb):
    """The project's database: the front end's queries, and checks that run on the project's
    projection and verdict stores (pure memos keyed by content, moving onto queries in turn)."""

    def __init__(self, project: Project, max_weight: int) -> None:
        super().__init__(max_weight)
        self.project = project
        self.partial: Callable[[str, list[Finding]], None] | None = None  # progress, not an input
        self.partial_every = PARTIAL_EVERY


@dataclass(frozen=True, eq=False)
class _ScopeContent:
    """The models and context a projector is made of; ``signature`` names them (every function's
    key and row, every file's globals and macros)."""

    signature: str
    models: tuple[FunctionModel, ...]
    globals: frozenset[str]
    macros: tuple[tuple[str, CallSpec], ...]


def _same_signature(a: _ScopeContent, b: _ScopeContent) -> bool:
    return a.signature == b.signature


@derived("scope_content", eq=_same_signature)
def scope_content(db: Database, paths: tuple[str, ...]) -> _ScopeContent:
    parts: list[str] = []
    models: list[FunctionModel] = []
    globals_: set[str] = set()
    macros: dict[str, CallSpec] = {}
    for p in paths:
        model = db.get(file_model, p).model
        for name, fm in sorted(model.functions.items()):
            parts.append(f"{p}|{name}|{fm.key}|{fm.start_row}")
        parts.append("globals:" + ",".join(sorted(model.globals)))
        parts.append("macros:" + repr(sorted(model.macros.items())))
        models.extend(model.functions.values())
        globals_ |= model.globals
        for m, spec in model.macros.items():
            macros.setdefault(m, spec)
    signature = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return _ScopeContent(signature, tuple(models), frozenset(globals_), tuple(macros.items()))


_PROJECTOR_WEIGHT = 20_000  # a projector memoises a whole scope: a handful stay alive


@derived("projector", weight=lambda _p: _PROJECTOR_WEIGHT)
def projector(db: Database, paths: tuple[str, ...]) -> Projector:
    """The projections of the functions of ``paths``; recomputed only when a function of them
    changed or moved, or their globals or macros changed (the scope's signature)."""
    content = db.get(scope_content, paths)
    project = cast(_ProjectDb, db).project
    table = dict(project.table)
    for m, spec in content.macros:
        table.setdefault(m, spec)
    store = project._projections
    scope = make_scope(list(content.models), table, content.globals, store)
    return Projector(scope, signature=content.signature, store=store)


@derived("file_findings")
def file_findings(db: Database, key: tuple[str, tuple[str, ...]]) -> tuple[Finding, ...]:
    """The findings of one file checked with the functions of a scope (the whole project, or the
    file alone while typing), after suppressions."""
    path, paths = key
    proj = db.get(projector, paths)
    ignores = db.get(file_ignores, path)
    project = cast(_ProjectDb, db).project
    functions = [proj.scope.functions[i] for i in proj.scope.by_file.get(path, {}).values()]
    functions.sort(key=lambda m: m.start_row)
    return project._check_file(path, functions, ignores, proj)


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


class Project:
    def __init__(
        self,
        config: Config | None = None,
        *,
        kb: KnowledgeBase | None = None,
        cache: MutableMapping[str, bytes] | None = None,
        strategy: str = "kb",
        max_weight: int = 200_000,
    ) -> None:
        """``strategy="lazy"`` skips the knowledge base: a one-shot run (the CLI) never reuses it
        across edits, and recording it cost up to a third of the model checking."""
        self.config = config or Config()
        self.table = call_table(self.config)
        self.rules: list[Rule] = catalogue(self.config)
        self.kb = kb if kb is not None else KnowledgeBase()
        self.strategy = strategy
        self.cache: MutableMapping[str, bytes] = cache if cache is not None else {}
        self._counts: dict[str, int] = {
            "checks_run": 0,
            "checks_reused": 0,
            "models_built": 0,
            "files_reused": 0,
            "functions_check_reused": 0,
            "values_reused": 0,
            "values_quiet": 0,
            "model_errors": 0,
        }
        self._fn_results: dict[str, list[Finding]] = {}
        self._projections = ProjectionStore()
        # per value: the projections it read, the functions asked about a global, their stamp, findings
        self._value_results: dict[tuple[str, str, str], _ValueRecord] = {}
        self.db = _ProjectDb(self, max_weight)
        self.db.set(SETTINGS, (), Settings(self.config.digest(), self.table))
        self.files = _Files(self.db)
        self.errors = self.db.errors  # the last internal errors behind model_errors and extract_errors
        self._headers: set[str] = set()

    @property
    def counters(self) -> dict[str, int]:
        """What the project did so far (monotone): functions extracted, reused and unreadable,
        checks run and reused, and so on."""
        db = self.db
        extracted = {"functions_extracted": db.built, "functions_reused": db.reused, "extract_errors": db.failed}
        return {**extracted, **self._counts}

    # ----- files -------------------------------------------------------------------------------
    def update_file(self, path: str, text: str, tree: tree_sitter.Tree | None = None) -> FileUpdate:
        """:meth:`set_file`, naming the functions whose text changed, appeared or went."""
        old = self.db.get(file_items, path).functions if path in self.files else {}
        self.set_file(path, text, tree)
        new = self.db.get(file_items, path).functions
        changed = sorted(n for n, item in new.items() if n in old and old[n].text != item.text)
        added, removed = sorted(new.keys() - old.keys()), sorted(old.keys() - new.keys())
        return FileUpdate(path, tuple(changed), tuple(added), tuple(removed))

    def set_file(self, path: str, text: str, tree: tree_sitter.Tree | None = None) -> None:
        """Set a file's text (``tree``: its parse, if the caller has one).  Nothing is extracted
        here: models are derived when asked for, and only those whose text or context changed are
        rebuilt.  Called from another thread while a check runs, this cancels that check at its
        next function (the check raises ``Cancelled`` and returns nothing) and waits for it to
        stop before the new text is in."""
        self.db.set(SOURCE, path, Source(text, tree))
        self.files.paths.add(path)

    def remove_file(self, path: str) -> None:
        if path in self.files.paths:
            self.files.paths.discard(path)
            self.db.remove(SOURCE, path)

    def header_paths(self, paths: Iterable[str] | None = None) -> list[str]:
        """Every local header (``#include "x.h"``, next to the including file) the files (of
        ``paths``, or all) include: the edges read them and hand them in with :meth:`set_header`,
        since their macros count."""
        out: set[str] = set()
        for path in self.files.paths if paths is None else self.files.paths.intersection(paths):
            out.update(header_path(path, inc) for inc in self.db.get(file_scope, path).includes)
        return sorted(out)

    def unread_headers(self) -> list[str]:
        """The headers of :meth:`header_paths` never handed in."""
        return [h for h in self.header_paths() if h not in self._headers]

    def set_header(self, path: str, text: str | None) -> None:
        """A header's text as read by the caller, or None when it cannot be read."""
        self._headers.add(path)
        self.db.set(HEADER, path, text)

    def unmodelled(self, path: str) -> list[Unmodelled]:
        """The functions of ``path`` that could not be modelled (and so were not checked)."""
        st = self.files.get(path)
        return list(st.unmodelled) if st is not None else []

    def function_at(self, path: str, line: int) -> str | None:
        st = self.files.get(path)
        if st is None:
            return None
        for fm in st.model.functions.values():
            if fm.start_row <= line <= fm.last_row:
                return fm.name
        return None

    # ----- checking ----------------------------------------------------------------------------
    def _projector(self, paths: Iterable[str]) -> Projector:
        """The projector over the functions of ``paths``, the same object while none of them
        changed or moved."""
        return self.db.get(projector, tuple(sorted(p for p in set(paths) if p in self.files)))

    def check(
        self,
        paths: Iterable[str] | None = None,
        *,
        interprocedural: bool = True,
        partial: Callable[[str, list[Finding]], None] | None = None,
        partial_every: float = PARTIAL_EVERY,
    ) -> dict[str, list[Finding]]:
        """Findings per file for ``paths`` (all files if None), reusing unchanged results.

        ``partial(path, findings)`` hears, while a file's check takes long, the findings of the
        functions checked so far (at most once per ``partial_every`` seconds), so that a
        large file shows its first findings in about a second instead of at the end.
        """
        targets = sorted(self.files) if paths is None else sorted(set(paths))
        everything = tuple(self.files)
        counters = self.db.counters()
        out: dict[str, list[Finding]] = {}
        for path in targets:
            if path not in self.files:
                out[path] = []
                continue
            before = counters[file_findings.name].executed if file_findings.name in counters else 0
            self.db.partial, self.db.partial_every = partial, partial_every
            try:
                found = self.db.get(file_findings, (path, everything if interprocedural else (path,)))
            finally:
                self.db.partial = None
            counters = self.db.counters()
            if counters[file_findings.name].executed == before:
                self._counts["files_reused"] += 1
            out[path] = list(found)
        return out

    def _check_file(
        self,
        path: str,
        functions: list[FunctionModel],
        ignores: dict[int, frozenset[str]],
        projector: Projector,
    ) -> tuple[Finding, ...]:
        findings: dict[tuple[str, Location], Finding] = {}
        partial, every = self.db.partial, self.db.partial_every
        next_partial = time.perf_counter() + every
        shown = 0  # findings only grow during a check: a report that adds none is not sent
        for fm in functions:
            self.db.check_cancelled()
            if partial is not None and len(findings) > shown and time.perf_counter() >= next_partial:
                partial(path, _ordered(findings.values()))
                shown = len(findings)
                next_partial = time.perf_counter() + every
            proj = projector
            key = self._function_key(proj, fm)
            found = self._fn_results.get(key)
            if found is None:
                found = self._check_function(proj, fm)
                self._fn_results[key] = found
                drop_oldest(self._fn_results, 50_000)
            else:
                self._counts["functions_check_reused"] += 1
            for f in found:
                if not suppressed(ignores, f.location.start_line, f.rule_id):
                    findings.setdefault((f.rule_id, f.location), f)
        return tuple(_ordered(findings.values()))

    def findings_keys(self, paths: Iterable[str]) -> dict[str, str]:
        """Per file of ``paths``, a digest of everything its interprocedural findings depend on when
        the whole project is checked: the file's text and suppressions, each of its functions' keys
        with what they can reach (``Projector.positional_keys``), and the place of every reachable
        function, since witness steps inside a callee carry its lines.  Equal keys, equal findings:
        the batch runner's on-disk cache is keyed by them."""
        proj = self._projector(self.files)
        out: dict[str, str] = {}
        for path in paths:
            st = self.files[path]
            text_digest = hashlib.sha256(st.text.encode("utf-8", "surrogatepass")).hexdigest()
            parts = [_RESULT_VERSION, path, text_digest, st.ignores_digest]
            for fm in sorted(st.model.functions.values(), key=lambda m: m.name):
                parts.append(self._function_key(proj, fm))
                parts.extend(sorted(f"{g.file}:{g.name}:{g.start_row}:{g.last_row}" for g in proj.reachable(fm)))
            out[path] = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
        return out

    def _function_key(self, proj: Projector, fm: FunctionModel) -> str:
        """Everything one function's findings depend on: its model, position, and what it can call
        (with the callees' positions, which its witnesses show); see ``Projector.positional_keys``."""
        return proj.positional_keys[function_id(fm)]

    def _check_function(self, proj: Projector, fm: FunctionModel) -> list[Finding]:
        reporter = Reporter(proj, proj.scope.functions)
        out: list[Finding] = []
        for var in proj.values(fm):
            key = (function_id(fm), var, proj.scope_digest)
            known = self._value_results.get(key)
            renewal = known.renewal(proj) if known is not None else None
            if known is not None and renewal is not None and not renewal.changed:
                self._counts["values_reused"] += 1
                out.extend(known.findings)
                if renewal.reads is not known.reads:
                    self._value_results[key] = known.renewed(renewal.reads)
                continue
            rules = [r for r in self.rules if _in_scope(r, fm, var)]
            try:
                quiet = None
                if known is not None and renewal is not None:
                    quiet = self._still_quiet(proj, rules, known, renewal)
                if quiet is not None:
                    self._counts["values_quiet"] += 1
                    self._value_results[key] = quiet
                    continue
                found = self._check_value(proj, reporter, fm, var, rules)
                out.extend(found)
                quiet_atoms = None if found else _quiet_atoms(proj, fm, var, rules)
                made_of = proj.dependencies(fm, var)
                if made_of is None and not rules:
                    made_of = frozenset({(function_id(fm), var)}), frozenset()  # nothing was projected
                record = None
                if made_of is not None:
                    record = _ValueRecord.of(proj, *made_of, found, quiet_atoms)
                if record is not None:
                    self._value_results[key] = record
                    drop_oldest(self._value_results, 200_000)
            except (ModelError, RecursionError, ValueError, KeyError, IndexError, AssertionError) as e:
                # an internal limit or defect must not cost the user the other findings: skip the value,
                # count it, and keep the reason for whoever looks at the counters
                self._counts["model_errors"] += 1
                self.errors.append(f"{fm.file}:{fm.name}:{var}: {type(e).__name__}: {e}")
                del self.errors[:-20]
        return out

    def _still_quiet(
        self, proj: Projector, rules: list[Rule], known: _ValueRecord, renewal: Renewal
    ) -> _ValueRecord | None:
        """A value that no rule applied to, kept without projecting it again: the projections it read
        that changed can only add the atoms of their own new reach (an unchanged projection differs
        at most by boxes into those), and only their own labels while their calls go only to
        projections read before (:meth:`Projector.own_labels_and_targets`), so while no rule in scope (``rules``)
        applies to the old atoms and those together, it still has no findings. A new record, which
        remembers that wider set; None when a rule may apply now (the value is checked).
        ``renewal``: see :meth:`_ValueRecord.renewal`."""
        if known.quiet is None:
            return None
        groups, changed = dict(renewal.reads), renewal.changed
        present = set(known.quiet)
        mentioned = {ident for ident, _ in known.mentioned}
        wanted: dict[str, frozenset[str]] = {}
        read: set[tuple[str, str]] | None = None
        for ident in changed if rules else ():
            now, vs = groups[ident].model, groups[ident].values
            for v in vs:
                step = proj.own_labels_and_targets(now, v)
                if step is not None:
                    if read is None:
                        read = {(i, w) for i, g in known.reads.items() for w in g[1]}
                    if step[1] <= read:
                        present |= step[0]  # what it reaches was read, and what of it changed is here
                        continue
                reach = proj.reach_summary(now, v)
                if reach is None:
                    return None
                present |= reach.atoms
                mentioned |= reach.mentioned
                for i, values in reach.reads.items():
                    wanted[i] = wanted.get(i, frozenset()) | values
        wider = frozenset(present)
        if any(r.applies(wider) for r in rules):
            return None
        functions = proj.scope.functions
        for ident, values in wanted.items():
            g = groups.get(ident)
            model = functions.get(ident)
            if model is None:
                return None
            if g is not None and g.model is model and values.issubset(g.values):
                continue
            vs = tuple(sorted(values.union(g.values) if g is not None else values))
            groups[ident] = Group(model, vs, tuple(proj.stamps((ident, v) for v in vs)))
        return _ValueRecord.made(proj, groups, mentioned, [], wider)

    def _check_value(
        self, proj: Projector, reporter: Reporter, fm: FunctionModel, var: str, rules: list[Rule]
    ) -> list[Finding]:
        """The findings of the rules in scope for the value (``rules``)."""
        if not rules:
            return []
        cname = proj.component(fm, var)
        if cname is None:
            return []
        present = proj.atoms(cname)
        rules = [r for r in rules if r.applies(present)]
        if not rules:
            return []
        self._counts["models_built"] += 1
        out: list[Finding] = []
        for rule in rules:
            rsm = proj.local_rsm(cname) if rule.local else proj.rsm(cname)
            if not self._holds(rule, canonical(rsm, rule.parsed)):
                continue
            # the path is read off the model with the nodes the witness shows, which the verdict's
            # canonical view may have merged or renamed
            model = contract(rsm, rule.atoms | WITNESS_LABELS) if contractible(rule.parsed) else rsm
            out.append(reporter.finding(rule, fm, var, rsm, self._witness(rule, model)))
        return out

    def _holds(self, rule: Rule, view: RSM) -> bool:
        """The rule's verdict on its canonical view, cached by formula and the view's digest: an edit
        that changes nothing the rule can tell apart (a renamed node, one use more in a row of uses)
        finds it again, in this function and in every caller."""
        digest = view.deep_digests_seeing(rule.atoms)[view.initial_component]
        key = f"{_RESULT_VERSION}|{rule.formula}|{digest}"
        raw = self.cache.get(key)
        if raw is not None:
            try:
                holds = json.loads(raw)["holds"]
            except (ValueError, KeyError, TypeError):
                pass  # a damaged cache entry is recomputed
            else:
                if isinstance(holds, bool):
                    self._counts["checks_reused"] += 1
                    return holds
        self._counts["checks_run"] += 1
        if self.strategy == "kb":
            res = check(view, rule.parsed, strategy="kb", kb=self.kb)
        else:
            res = check(view, rule.parsed, strategy=self.strategy)
        self.cache[key] = json.dumps({"holds": res.holds}).encode()
        return res.holds

    def _witness(self, rule: Rule, model: RSM) -> tuple[Step, ...]:
        """The bug path of a rule that holds, cached by formula and the digest of the very model it
        names nodes of. Read by a check without κ, so that it never depends on what was checked
        before (bugs are rare: this is seldom run)."""
        digest = model.deep_digests_seeing(rule.atoms)[model.initial_component]
        key = f"{_RESULT_VERSION}|witness|{rule.formula}|{digest}"
        raw = self.cache.get(key)
        if raw is not None:
            try:
                return tuple(
                    Step(c, n if isinstance(n, str) else (n[0], n[1]), tuple((a, b) for a, b in st))
                    for c, n, st in json.loads(raw)["steps"]
                )
            except (ValueError, KeyError, TypeError, IndexError):
                pass
        res = check(model, rule.parsed, strategy="lazy", witness=True)
        if not res.holds:
            raise AssertionError(f"{rule.id}: the canonical view and the model disagree")
        found: tuple[Step, ...] = res.witness or ()
        payload = {"steps": [[s.component, s.node, [list(f) for f in s.stack]] for s in found]}
        self.cache[key] = json.dumps(payload).encode()
        return found


class Group(NamedTuple):
    """What a value's findings read of one function."""

    model: FunctionModel
    values: tuple[str, ...]  # whose projections were read
    stamps: tuple[str | None, ...]  # their content stamps then


class Renewal(NamedTuple):
    reads: dict[str, Group]  # the reads over the current models
    changed: list[str]  # the functions whose stamps changed (none: the findings still hold)


@dataclass(frozen=True)
class _ValueRecord:
    """A value's findings with what they were made of: per function id, the model that was read and
    the :meth:`Projector.content_stamp` of each projection of it that was read; and the whole
    reach of the functions asked about a global.

    Still right while every function read is the same model, or its projections that were read
    keep their stamps (an edit elsewhere in it), and every function asked about a global keeps its
    reach. ``models`` makes the first test one set inclusion, and the second one only for the
    functions whose model changed."""

    reads: dict[str, Group]
    mentioned: tuple[tuple[str, str], ...]
    findings: list[Finding]
    quiet: frozenset[str] | None = None  # atoms of its reach, when no rule in scope applies to them
    models: frozenset[tuple[str, int]] = frozenset()  # (function id, id of the model read)

    @staticmethod
    def of(
        proj: Projector,
        reads: frozenset[tuple[str, str]],
        mentioned: frozenset[str],
        findings: list[Finding],
        quiet: frozenset[str] | None = None,
    ) -> _ValueRecord | None:
        """None when a function asked about a global is on a recursive cycle (it has no deep key):
        such a value is always checked again."""
        functions = proj.scope.functions
        ordered = sorted(reads)
        stamps = proj.stamps(ordered)
        groups: dict[str, Group] = {}
        start = 0
        for end in range(1, len(ordered) + 1):
            if end < len(ordered) and ordered[end][0] == ordered[start][0]:
                continue
            ident = ordered[start][0]
            fm = functions.get(ident)
            if fm is None:
                return None
            groups[ident] = Group(fm, tuple(v for _, v in ordered[start:end]), tuple(stamps[start:end]))
            start = end
        return _ValueRecord.made(proj, groups, mentioned, findings, quiet)

    @staticmethod
    def made(
        proj: Projector,
        groups: dict[str, Group],
        mentioned: Iterable[str],
        findings: list[Finding],
        quiet: frozenset[str] | None,
    ) -> _ValueRecord | None:
        deep = proj.deep_keys
        marks = []
        for ident in sorted(mentioned):
            reach = deep.get(ident)
            if reach is None:
                return None
            marks.append((ident, reach))
        return _ValueRecord(groups, tuple(marks), findings, quiet, _model_ids(groups))

    def mentions_hold(self, proj: Projector) -> bool:
        deep = proj.deep_keys
        return all(deep.get(ident) == reach for ident, reach in self.mentioned)

    def renewal(self, proj: Projector) -> Renewal | None:
        """The reads renewed to the models of ``proj`` with the stamps read of them there, and the
        functions whose stamps changed (the record is still right when there are none); None
        when it cannot be kept: a function read is gone, or one asked about a global reaches
        other functions now. The reads themselves when every model read is still current."""
        if not self.mentions_hold(proj):
            return None
        if self.models <= proj.model_ids:
            return Renewal(self.reads, [])
        functions, groups, changed = proj.scope.functions, dict(self.reads), []
        for ident, _ in self.models - proj.model_ids:
            now = functions.get(ident)
            if now is None:
                return None
            vs, stamps = groups[ident].values, groups[ident].stamps
            fresh = tuple(proj.stamps((ident, v) for v in vs))
            groups[ident] = Group(now, vs, fresh)
            if fresh != stamps:
                changed.append(ident)
        return Renewal(groups, changed)

    def renewed(self, groups: dict[str, Group]) -> _ValueRecord:
        """This record over the models its renewal found with the same stamps, so that the next
        edit finds it current at once."""
        return _ValueRecord(groups, self.mentioned, self.findings, self.quiet, _model_ids(groups))


def _model_ids(groups: dict[str, Group]) -> frozenset[tuple[str, int]]:
    return frozenset((ident, id(g.model)) for ident, g in groups.items())


def _quiet_atoms(proj: Projector, fm: FunctionModel, var: str, rules: list[Rule]) -> frozenset[str] | None:
    """The atoms of a value's projection when none of the rules in scope (``rules``) applies to
    them (then it has no findings, whatever the verdicts would be), else None."""
    if not rules:
        return frozenset()
    cname = proj.component(fm, var)
    present = proj.atoms(cname) if cname is not None else frozenset()
    return None if any(r.applies(present) for r in rules) else present


def _ordered(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.location, f.rule_id, f.message))


def _in_scope(rule: Rule, fm: FunctionModel, var: str) -> bool:
    if rule.scope == "return":
        return var.startswith(DISCARD)
    if var.startswith(DISCARD):
        return False
    if rule.scope == "local":
        return root_of(var) == var and var in locals_of(fm)
    if rule.scope == "local-scalar":
        return (
            fm.cfg.declared.get(var) is not None
            and var not in fm.cfg.addr_taken
            and var not in fm.cfg.static_locals
            and root_of(var) == var
        )
    return True
