"""Checking a file's functions against the rules, value by value, reusing what still holds.

For each function and each value it tracks (``Projector.values``), the rules in scope are checked
on the value's projection.  Findings are kept per function (by its positional key: the function,
its row and everything it can reach) and per value (by the content stamps of the projections they
read, so an edit elsewhere in a read function keeps them); verdicts and witnesses go into
``cache`` keyed by the rule and the canonical view's digest, and the knowledge base ``kb`` keeps
what the checker learnt per component.  Pure apart from those memos: equal inputs give equal
findings.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from checker import KnowledgeBase, check
from checker.canonical import canonical
from checker.compiled import Compiled, CompiledKey
from checker.contraction import contract, contractible
from checker.model import RSM, ModelError
from checker.overapprox import may_hold
from checker.querydb import Content, Database
from checker.sharing import shared
from checker.witness import Step
from extractors.contents import tracked_contents
from extractors.facts import root_of
from extractors.findings import Finding, Location
from extractors.functions import FunctionModel
from extractors.handed_on import handed_on
from extractors.lasting import lasting_of
from extractors.lock_contracts import NO_CONTRACTS, LockContracts
from extractors.mark_check import SCOPE as MARK_SCOPE
from extractors.mark_check import mark_findings
from extractors.parking import parked_of
from extractors.phase_clock import MODEL_CHECKING, PROJECTION, PhaseClock
from extractors.projection import DISCARD, Projector, function_id, is_local
from extractors.refute import Refuter, Undecided, semantics
from extractors.report import WITNESS_LABELS, Reporter
from extractors.rule_view import rule_rsm
from extractors.rules import Rule, rules_key
from extractors.struct_fields import tracked_field

RESULT_VERSION = "r32"


class Withheld(Exception):
    """A finding of a first pass (:meth:`FunctionChecker.first_findings`) whose refutation is neither
    in the verdict cache nor cheap nor within the pass's budget: its function is left out of the
    pass, which then stores nothing of it."""


@dataclass
class _FirstPass:
    """What a first pass may refute: verdicts in the cache, and others while ``spent`` is under
    ``budget`` seconds."""

    budget: float
    spent: float = 0.0


_FUNCTION_FINDINGS = Content[str, list[Finding]]("function_findings", weight=lambda found: 1 + len(found))
_RULE_FINDINGS = Content[str, dict[str, list[Finding]]](
    "rule_findings", weight=lambda by_rule: 1 + sum(len(f) for f in by_rule.values())
)
_VALUE_RECORDS = Content[tuple[str, str, str], "_ValueRecord"](
    "value_record", weight=lambda record: 2 + len(record.findings)
)
_COMPILED = Content[CompiledKey, Compiled]("compiled_component", weight=lambda c: 1 + c.n // 8)


class FunctionChecker:
    """Checks functions with reuse; one per project.  What it keeps (findings by the content they
    were found in) is in content tables of the project's database ``db``, under its one bound."""

    def __init__(
        self,
        rules: list[Rule],
        kb: KnowledgeBase,
        cache: MutableMapping[str, bytes],
        strategy: str,
        errors: list[str],
        db: Database,
    ) -> None:
        self.rules = rules
        self.kb = kb
        self.cache = cache
        self.strategy = strategy
        self.errors = errors  # the last internal errors behind counts["model_errors"]
        self.counts: dict[str, int] = {
            "checks_run": 0,
            "checks_reused": 0,
            "checks_bounded": 0,
            "models_built": 0,
            "files_reused": 0,
            "functions_check_reused": 0,
            "values_reused": 0,
            "values_quiet": 0,
            "model_errors": 0,
        }
        # seconds per phase (extractors.phase_clock): a function's check is projection, less the
        # model checks and refutations it asks for, which are timed apart
        self.clock = PhaseClock()
        # witness refutation (extractors.refute): findings whose witnesses cannot run are checked again
        self.refute = True
        self._first: _FirstPass | None = None  # set while a first pass runs (first_findings)
        self._rules_key = rules_key(rules)
        self._fn_results = db.content(_FUNCTION_FINDINGS)  # by positional key and rule set
        self._rule_results = db.content(_RULE_FINDINGS)  # by positional key: per rule key
        # per value: the projections it read, the functions asked about a global, their stamp, findings
        self._value_results = db.content(_VALUE_RECORDS)
        # whether to keep those records, which only a check of edited texts reads: a batch
        # worker's texts never change, and there making them was a twentieth of the check
        self.records = True
        # compiled components by content, across models and edits (checker.compiled.compile_shared)
        self._compiled = db.content(_COMPILED)
        self.refuter = Refuter(cache, self.counts, clock=self.clock, shared=self._compiled)

    def check_file(
        self,
        path: str,
        functions: list[FunctionModel],
        projector: Projector,
        partial: Callable[[str, list[Finding]], None] | None,
        every: float,
        check_cancelled: Callable[[], None],
        contracts: LockContracts = NO_CONTRACTS,
    ) -> tuple[Finding, ...]:
        """The unplaced findings (see :func:`place`) of ``functions`` (of file ``path``), before
        suppressions.  ``check_cancelled`` is called before each function and raises to stop the
        check; ``partial`` hears the findings so far at most every ``every`` seconds; ``contracts``
        are the lock contracts of ``projector``'s scope (:mod:`extractors.lock_contracts`)."""
        findings: dict[tuple[str, Location], Finding] = {}
        next_partial = time.perf_counter() + every
        shown = 0  # findings only grow during a check: a report that adds none is not sent
        for fm in functions:
            check_cancelled()
            if partial is not None and len(findings) > shown and time.perf_counter() >= next_partial:
                partial(path, list(findings.values()))
                shown = len(findings)
                next_partial = time.perf_counter() + every
            with self.clock(PROJECTION):
                found = self._function_findings(projector, fm, contracts)
            for f in found:
                findings.setdefault((f.rule_id, f.location), f)
        return tuple(findings.values())

    def first_findings(
        self,
        path: str,
        functions: list[FunctionModel],
        projector: Projector,
        check_cancelled: Callable[[], None],
        budget: float,
        report: Callable[[str, list[Finding]], None] | None = None,
        contracts: LockContracts = NO_CONTRACTS,
    ) -> tuple[tuple[Finding, ...], bool]:
        """What :meth:`check_file` finds, less the functions with a finding whose refutation is
        not yet known, and whether there were any (``True``: some were withheld).

        The language server shows these first (issue #14: refutation runs after the first
        diagnostics are out), so they must never include a finding the full check drops. A
        finding's refutation is *known* when its verdict is in the cache, when it is cheap (the
        function has no value a path condition could speak of, so the solver is not asked), or,
        while the pass has spent less than ``budget`` seconds refuting, by refuting it now (the
        verdict goes into the cache). Any other finding raises :class:`Withheld` and its whole
        function is left out: a finding of the same function could be hidden by it
        (``shadowed_by``) in the full check. ``report`` hears the findings so far, when they grew,
        at most once per ``budget`` seconds, as the check's own reports do: on a large file the
        first ones come as early as without a pass. Invariant: every finding returned or reported
        is a finding of the full check, since each was decided exactly as the full check decides
        it; and the memos a pass stores are the full check's (a withheld function stores nothing
        but the complete records of values checked before it was stopped)."""
        findings: dict[tuple[str, Location], Finding] = {}
        withheld = False
        self._first = _FirstPass(budget)
        last, reported = time.perf_counter(), 0
        try:
            for fm in functions:
                check_cancelled()
                try:
                    with self.clock(PROJECTION):
                        found = self._function_findings(projector, fm, contracts)
                except Withheld:
                    withheld = True
                    continue
                for f in found:
                    findings.setdefault((f.rule_id, f.location), f)
                now = time.perf_counter()
                if report is not None and len(findings) > reported and now - last >= budget:
                    report(path, list(findings.values()))
                    last, reported = now, len(findings)
        finally:
            self._first = None
        return tuple(findings.values()), withheld

    def _refuted(
        self,
        proj: Projector,
        reporter: Reporter,
        rule: Rule,
        fm: FunctionModel,
        var: str,
        rsm: RSM,
        model: RSM,
        steps: tuple[Step, ...],
    ) -> Finding | None:
        """The finding after witness refutation (None: refuted); in a first pass, :class:`Withheld`
        when its verdict is not known (see :meth:`first_findings`)."""
        first = self._first
        if first is None:
            return self.refuter.finding(proj, reporter, rule, fm, var, rsm, model, steps)
        try:
            return self.refuter.finding(proj, reporter, rule, fm, var, rsm, model, steps, decide=False)
        except Undecided as e:
            if semantics(proj, fm).kinds and first.spent >= first.budget:
                raise Withheld(str(e)) from None
        start = time.perf_counter()
        try:
            return self.refuter.finding(proj, reporter, rule, fm, var, rsm, model, steps)
        finally:
            first.spent += time.perf_counter() - start

    def set_rules(self, rules: list[Rule]) -> None:
        """Check with ``rules`` from now on: what is kept of each rule (by :attr:`Rule.key`) stays,
        so only a rule that is new or changed is checked again."""
        self.rules = rules
        self._rules_key = rules_key(rules)

    def _function_findings(self, proj: Projector, fm: FunctionModel, contracts: LockContracts) -> list[Finding]:
        """A function's findings under the current rules: kept whole under its positional key (with
        what its callers decide of the lock contracts) and the rule set, and per rule (one table
        per function, by :attr:`Rule.key`), so that a changed rule set checks only the rules it
        changed."""
        admitted = contracts.admitted_of(function_id(fm))
        pkey = positional_key(proj, fm)
        if admitted:
            pkey = f"{pkey}|held:{contracts.key(function_id(fm))}"
        whole = f"{pkey}|{self._rules_key}"
        found = self._fn_results.get(whole)
        if found is not None:
            self.counts["functions_check_reused"] += 1
            return found
        kept = self._rule_results.get(pkey) or {}
        missing = [r for r in self.rules if r.key not in kept]
        if missing:
            fresh = self._check_function(proj, fm, missing, admitted)
            kept = dict(kept)
            for r in missing:
                kept[r.key] = [f for f in fresh if f.rule_id == r.id]
            self._rule_results[pkey] = kept
        else:
            self.counts["functions_check_reused"] += 1
        found = _without_shadowed([f for r in self.rules for f in kept[r.key]], self.rules)
        self._fn_results[whole] = found
        return found

    def _check_function(
        self, proj: Projector, fm: FunctionModel, rules_now: list[Rule], admitted: frozenset[str] = frozenset()
    ) -> list[Finding]:
        """The findings of ``rules_now`` (some of the current rules) in ``fm``; ``admitted``: the
        values a rule's ``contract_requires`` may stand for its ``requires`` on
        (:mod:`extractors.lock_contracts`), checked even when the function does not track them
        (a lock its callee's callee releases)."""
        reporter = Reporter(proj, proj.scope.functions)
        out: list[Finding] = []
        ident, scope = function_id(fm), f"{proj.scope_digest}|{rules_key(rules_now)}"
        handed = handed_on(proj, fm)
        tracked = proj.values(fm)
        extra = sorted(admitted.difference(tracked))
        for var in (*tracked, *extra):
            held = var in admitted
            key = (ident, var, f"{scope}|handed-on" if var in handed else scope)
            if held:
                key = (ident, var, f"{key[2]}|held")
            known = self._value_results.get(key)
            renewal = known.renewal(proj) if known is not None else None
            if known is not None and renewal is not None and not renewal.changed:
                self.counts["values_reused"] += 1
                out.extend(known.findings)
                if renewal.reads is not known.reads:
                    self._value_results[key] = known.renewed(renewal.reads)
                continue
            rules = [r for r in rules_now if _in_scope(r, fm, var, proj) and not (var in handed and r.scope == "any")]
            if var in extra:
                rules = [r for r in rules if r.contract_requires]
            try:
                quiet = None
                if known is not None and renewal is not None:
                    quiet = self._still_quiet(proj, rules, known, renewal, fm, var, held)
                if quiet is not None:
                    self.counts["values_quiet"] += 1
                    self._value_results[key] = quiet
                    continue
                found = self._check_value(proj, reporter, fm, var, rules, held)
                out.extend(found)
                if not self.records:
                    continue
                quiet_atoms = None if found else _quiet_atoms(proj, fm, var, rules, held)
                made_of = proj.dependencies(fm, var)
                if made_of is None and quiet_atoms is not None and (read := proj.bound_reads(fm, var)) is not None:
                    made_of = read, frozenset()  # not projected: what its atoms' bound read
                if made_of is None and not rules:
                    made_of = frozenset({(function_id(fm), var)}), frozenset()  # nothing was projected
                record = None
                if made_of is not None:
                    record = _ValueRecord.of(proj, *made_of, found, quiet_atoms)
                if record is not None:
                    self._value_results[key] = record
            except (ModelError, RecursionError, ValueError, KeyError, IndexError, AssertionError) as e:
                # an internal limit or defect must not cost the user the other findings: skip the value,
                # count it, and keep the reason for whoever looks at the counters
                self.counts["model_errors"] += 1
                self.errors.append(f"{fm.file}:{fm.name}:{var}: {type(e).__name__}: {e}")
                del self.errors[:-20]
        marked = [r for r in rules_now if r.scope == MARK_SCOPE]
        if marked and fm.marks:
            out.extend(mark_findings(fm, marked, self._verdict))
        return out

    def _still_quiet(
        self,
        proj: Projector,
        rules: list[Rule],
        known: _ValueRecord,
        renewal: Renewal,
        fm: FunctionModel,
        var: str,
        held: bool = False,
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
        reads, functions = known.reads, proj.scope.functions
        for ident in changed if rules else ():
            now, vs = groups[ident].model, groups[ident].values
            for v in vs:
                step = proj.own_labels_and_targets(now, v)
                if step is not None and all(i in reads and w in reads[i].values for i, w in step[1]):
                    # what it reaches was read, but maybe only in part: a caller's view of a
                    # callee ends where the callee gives the value another (handed_view), so a
                    # box past that point went to a projection whose atoms were never seen
                    seen = set(step[0])
                    for i, w in step[1]:
                        bound = proj.atoms_bound(functions[i], w) if i in functions else None
                        if bound is None:
                            break
                        seen |= bound
                    else:
                        present |= seen
                        continue
                reach = proj.reach_summary(now, v)
                if reach is None:
                    return None
                present |= reach.atoms
                mentioned |= reach.mentioned
                for i, values in reach.reads.items():
                    wanted[i] = wanted.get(i, frozenset()) | values
        wider = frozenset(present)
        if any(_may_apply(r, wider, proj, fm, var, held) for r in rules):
            return None
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
        self,
        proj: Projector,
        reporter: Reporter,
        fm: FunctionModel,
        var: str,
        rules: list[Rule],
        held: bool = False,
    ) -> list[Finding]:
        """The findings of the rules in scope for the value (``rules``); ``held``: the
        value is admitted by the lock contracts (``contract`` of :meth:`Rule.applies`)."""
        if not rules:
            return []
        if _bound_rules_out(proj, fm, var, rules, held) is not None:
            return []  # no rule can apply (nor find its own trigger): the projection is not built
        cname = proj.component(fm, var)
        if cname is None:
            return []
        present = proj.atoms(cname)
        rules = [r for r in rules if _may_apply(r, present, proj, fm, var, held)]
        if not rules:
            return []
        self.counts["models_built"] += 1
        out: list[Finding] = []
        for rule in rules:
            rsm = rule_rsm(proj, rule, cname)
            if not self._verdict(rule, rsm):
                continue
            with self.clock(MODEL_CHECKING):
                # the path is read off the model with the nodes the witness shows, which the
                # verdict's canonical view may have merged or renamed
                model = contract(rsm, rule.atoms | WITNESS_LABELS) if contractible(rule.parsed) else rsm
                steps = self._witness(rule, model)
            found = (
                self._refuted(proj, reporter, rule, fm, var, rsm, model, steps)
                if self.refute
                else reporter.finding(rule, fm, var, rsm, steps)
            )
            if found is not None:
                out.append(found)
        return out

    def _verdict(self, rule: Rule, rsm: RSM) -> bool:
        """:meth:`_holds` on the canonical view of ``rsm``, both timed as model checking; false at
        once where the supergraph bound rules the rule out (most values of real code), which
        needs neither the view nor the verdict cache."""
        with self.clock(MODEL_CHECKING):
            if not may_hold(rsm, rule.parsed):
                self.counts["checks_bounded"] += 1
                return False
            return self._holds(rule, canonical(rsm, rule.parsed))

    def _holds(self, rule: Rule, view: RSM) -> bool:
        """The rule's verdict on its canonical view, cached by formula and the view's digest blind to
        names (:meth:`RSM.unnamed_digest_seeing`): an edit that changes nothing the rule can tell
        apart (a renamed node, one use more in a row of uses) finds it again, in this function and
        in every caller, and so does any value whose view has the same shape."""
        digest = view.unnamed_digest_seeing(rule.atoms)
        key = f"{RESULT_VERSION}|{rule.formula}|{digest}"
        raw = self.cache.get(key)
        if raw is not None:
            try:
                holds = json.loads(raw)["holds"]
            except (ValueError, KeyError, TypeError):
                pass  # a damaged cache entry is recomputed
            else:
                if isinstance(holds, bool):
                    self.counts["checks_reused"] += 1
                    return holds
        self.counts["checks_run"] += 1
        if self.strategy == "kb":
            res = check(view, rule.parsed, strategy="kb", kb=self.kb, shared=self._compiled)
        else:
            res = check(view, rule.parsed, strategy=self.strategy, shared=self._compiled)
        self.cache[key] = json.dumps({"holds": res.holds}).encode()
        return res.holds

    def _witness(self, rule: Rule, model: RSM) -> tuple[Step, ...]:
        """The bug path of a rule that holds, cached by formula and the digest of the very model it
        names nodes of. Read by a check without κ, so that it never depends on what was checked
        before (bugs are rare: this is seldom run)."""
        digest = model.deep_digests_seeing(rule.atoms)[model.initial_component]
        key = f"{RESULT_VERSION}|witness|{rule.formula}|{digest}"
        raw = self.cache.get(key)
        if raw is not None:
            try:
                return tuple(
                    Step(c, n if isinstance(n, str) else (n[0], n[1]), tuple((a, b) for a, b in st))
                    for c, n, st in json.loads(raw)["steps"]
                )
            except (ValueError, KeyError, TypeError, IndexError):
                pass
        res = check(model, rule.parsed, strategy="lazy", witness=True, shared=self._compiled)
        if not res.holds:
            raise AssertionError(f"{rule.id}: the canonical view and the model disagree")
        found: tuple[Step, ...] = res.witness or ()
        payload = {"steps": [[s.component, s.node, [list(f) for f in s.stack]] for s in found]}
        self.cache[key] = json.dumps(payload).encode()
        return found


def _without_shadowed(found: list[Finding], rules: list[Rule]) -> list[Finding]:
    """Less each finding that its rule's ``shadowed_by`` rule also reports on its line: the same
    problem said once (a never-read local's initialiser is an unused variable, not also a dead
    store)."""
    shadows = {r.id: r.shadowed_by for r in rules if r.shadowed_by}
    if not shadows:
        return found
    lines = {(f.rule_id, f.location.start_line) for f in found}
    return [f for f in found if (shadows.get(f.rule_id), f.location.start_line) not in lines]


def place(finding: Finding, row_of: Callable[[str], int]) -> Finding:
    """The finding at the places of today's text: each location of an unplaced finding names a
    function id (``file:name``) for its file and counts rows from that function's first line;
    ``row_of(function id)`` is where that function starts now."""

    def placed(at: Location) -> Location:
        shift = row_of(at.path)
        return Location(at.path.rsplit(":", 1)[0], at.start_line + shift, at.start_col, at.end_line + shift, at.end_col)

    steps = tuple(replace(w, location=placed(w.location)) for w in finding.witness)
    return replace(finding, location=placed(finding.location), witness=steps)


def positional_key(proj: Projector, fm: FunctionModel) -> str:
    """Everything one function's findings depend on: its model, position, and what it can call
    (with the callees' positions, which its witnesses show); see ``Projector.positional_keys``."""
    return proj.positional_keys[function_id(fm)]


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

    Still right while every function read has the same model (by its key: text and context), or
    its projections that were read keep their stamps (an edit elsewhere in it), and every function
    asked about a global keeps its reach. ``models`` makes the first test one set inclusion, and
    the second one only for the functions whose model changed."""

    reads: dict[str, Group]
    mentioned: tuple[tuple[str, str], ...]
    findings: list[Finding]
    quiet: frozenset[str] | None = None  # atoms of its reach, when no rule in scope applies to them
    models: frozenset[tuple[str, str]] = frozenset()  # (function id, key of the model read)

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
        quiet = shared(quiet) if quiet is not None else None
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


def _model_ids(groups: dict[str, Group]) -> frozenset[tuple[str, str]]:
    return shared(frozenset((ident, g.model.key) for ident, g in groups.items()))


def _quiet_atoms(
    proj: Projector, fm: FunctionModel, var: str, rules: list[Rule], held: bool = False
) -> frozenset[str] | None:
    """The atoms of a value's projection when none of the rules in scope (``rules``) applies to
    them (then it has no findings, whatever the verdicts would be), else None."""
    if not rules:
        return frozenset()
    bound = _bound_rules_out(proj, fm, var, rules, held)
    if bound is not None:
        return bound  # a superset of the projection's atoms: its record may wake sooner, never later
    cname = proj.component(fm, var)
    present = proj.atoms(cname) if cname is not None else frozenset()
    return None if _may_any(rules, proj, fm, var, held, present) else present


def _bound_rules_out(
    proj: Projector, fm: FunctionModel, var: str, rules: list[Rule], held: bool
) -> frozenset[str] | None:
    """The bound of the value's atoms (:meth:`Projector.atoms_bound`) when no rule of ``rules``
    may have a finding by it (:func:`_may_any`, monotone in the atoms), else None.  The bound
    holds the value's own atoms (:meth:`Projector.own_atoms`), so where those already let a rule
    apply the search through the callees is not made."""
    own = proj.own_atoms(fm, var)
    if own is not None and _may_any(rules, proj, fm, var, held, own):
        return None
    bound = proj.atoms_bound(fm, var)
    return bound if bound is not None and not _may_any(rules, proj, fm, var, held, bound) else None


def _may_apply(
    rule: Rule, present: frozenset[str], proj: Projector, fm: FunctionModel, var: str, held: bool = False
) -> bool:
    """Whether ``rule`` can have a finding on a value whose reach holds the atoms ``present``: it
    needs them (``requires``, or ``contract_requires`` for a value admitted by the lock contracts:
    ``held``), and a rule with ``own_trigger`` needs one of its triggers in the
    function's own projection too (:meth:`_check_value` checks it only then), which no edit of a
    callee changes; so a value whose callees test it for NULL stays quiet for known NULLs."""
    if not rule.applies(present, held):
        return False
    if not rule.own_trigger:
        return True
    own = proj.own_labels_and_targets(fm, var)
    return own is None or bool(own[0] & rule.own_trigger)


def _may_any(
    rules: list[Rule], proj: Projector, fm: FunctionModel, var: str, held: bool, present: frozenset[str]
) -> bool:
    """Whether some rule of ``rules`` may have a finding on the value (:func:`_may_apply`)."""
    return any(_may_apply(r, present, proj, fm, var, held) for r in rules)


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.location, f.rule_id, f.message))


def _in_scope(rule: Rule, fm: FunctionModel, var: str, proj: Projector) -> bool:
    if lasting_of(var) is not None:
        return rule.lasting  # a field of the caller's object, labelled for dead stores only
    if rule.lasting and root_of(var) in fm.cfg.volatile_locals:
        return False  # a store to a volatile local is an access the program makes: never dead
    if rule.scope == "local-scalar" and fm.cfg.includes:
        return False  # an #include in the body: code the CFG does not hold reads and writes locals
    if parked_of(var) is not None:
        return any("stack" in group for group in rule.requires)  # labelled for that only
    if rule.scope == MARK_SCOPE:
        return False  # checked on the function's marks, not on a value's projection
    if rule.scope == "return":
        return var.startswith(DISCARD)
    if var.startswith(DISCARD):
        return False
    if rule.scope == "local":
        return root_of(var) == var and is_local(fm, var)
    if rule.scope == "local-scalar":
        if rule.parts and (tracked_field(fm, var) or tracked_contents(fm, var, proj.scope.table)):
            return True
        return (
            fm.cfg.declared.get(var) is not None
            # a local whose address only goes to callees summarised per return: what they store
            # is in its own projection (Projector.after_call)
            and (var not in fm.cfg.addr_taken or proj.addresses_summarised(fm, var))
            and var not in fm.cfg.static_locals
            and root_of(var) == var
        )
    return True
