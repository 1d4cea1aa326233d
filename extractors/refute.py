"""Witness refutation: a finding whose witness cannot run is checked again on a refined model.

Before a finding is reported, its witness becomes a path condition over the checked function's
scalar locals (:mod:`witness_condition`) and z3 decides it:

- satisfiable: the witness can run; it is reported, and it is the one shown;
- unknown (z3's resource limit, or code the condition cannot be built for): the finding is kept;
- unsatisfiable: the tests and assignments of the unsat core are *tracked* in a product of the
  function's graph (:mod:`refine_graph`), which drops the edges the facts they make known rule
  out (facts about a local written again are carried over to the others through it); the
  function is projected again on that graph and the rule checked again.  Up to ``MAX_ROUNDS``
  rounds (each adds the core of the new witness); the finding is dropped only when the rule no
  longer holds.

Why dropping is sound: the refined graph keeps every run of the function (``refine_graph``'s
invariant), so a formula true of some run is true of the refined model when it is *existential*
(made false only by removing paths).  A rule's formula may have universal parts (``A X A``, which
removing paths makes easier); the rule is dropped only when its existential weakening
(:func:`existential_part`: universal parts under even negations read as true, existential parts
under odd ones as false; implied by the formula) is false on the refined model.  When only the
formula itself fails there, the original finding is kept.

First, a rule ``E F φ`` with a universal part in φ (a dead store) is dropped when φ fails at another
reachable copy of the trigger's statement (:mod:`every_copy`): the claim is about the statement.

A round whose new witness fails for reasons already tracked (its core adds nothing) widens the
tracked set once to every node that tests or writes a local those nodes speak of, so that a
relation made elsewhere (``palette = inpalette``) is carried to the test that needs it.  A witness
that enters a project function called with integer literals or addresses (``path_new(n, xy, 0)``,
``nat_new(&b, 4)``), or passes over a call that hands one an address, is checked once more with
those calls going to copies of the callees refined from ``param == literal`` and ``param != 0``
(:func:`bound_calls`): branches the arguments rule out are gone, and the finding is dropped when
the rule's existential part fails there.  When a refined model fails the rule while its existential
part holds, that part's witness leads the next round (a guide, never reported).

Calls of project functions with known outcomes (:mod:`call_outcomes`: per return, the constant or
not-NULL result with the literals stored in ``*p``) relate their result and the caller's ``x`` in
``&x`` in the path condition.  A rule about NULL tests (a leak, a NULL dereference) whose witness
holds only because the path condition does not know which of NULL and not NULL the result was
(``line = read_line(path, &err); if (err) return;``) is then refuted once more on the function with
that NULL-ness made a branch after the call (:func:`with_null_test`), so the witness says which it
took and its path condition speaks of it.

Bounded cost: refutation runs only on findings; its verdict is cached (in the verdict cache) by the
witness's content: the rule, the function's key (its text and context), the value and the digest
of the model the witness was read off; z3 runs with a deterministic resource limit (``rlimit``)
per check and per finding and a number of checks per finding (:class:`Solving`), the finding kept
when they run out.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import cast

import z3

from checker import check
from checker.compiled import CompiledMemo
from checker.contraction import contract, contractible
from checker.ctl import AF, AG, AU, AW, AX, EF, EG, EU, EW, EX, And, Atom, FalseF, Formula, Implies, Not, Or, TrueF
from checker.model import RSM
from checker.witness import Step
from extractors.call_outcomes import WRITES, CallOutcomes, call_outcomes
from extractors.calls import BUILTIN
from extractors.every_copy import live_copy
from extractors.facts import Call
from extractors.findings import Finding
from extractors.functions import FunctionModel
from extractors.out_params import out_summary
from extractors.path_condition import FunctionSemantics, symbol
from extractors.phase_clock import REFUTATION, PhaseClock
from extractors.projection import Projector, Scope, function_id
from extractors.prune import Graph
from extractors.refine_graph import Fact, Solving, refine, widened
from extractors.report import WITNESS_LABELS, Reporter
from extractors.rule_view import rule_rsm
from extractors.rules import Rule
from extractors.witness_condition import Unrealisable, Waypoint, condition

MAX_ROUNDS = 4
MAX_BOUND_CALLS = 64  # call nodes one refutation specialises to their arguments (bound_calls)
MAX_BOUND_NODES = 256  # graph nodes of a callee bound_calls specialises at most
VERSION = "g3"  # the verdicts changed (g3: untested pointer parameters are not NULL): older ones are not reused


def with_null_test(fm: FunctionModel, var: str, at: int, atom: str) -> FunctionModel:
    """``fm`` with a test ``var == NULL`` after CFG node ``at`` (in its CFG and in every copy the
    pruned graph has of the node) whose one branch passes a node labelled ``atom`` for ``var``:
    ``isnull`` on the NULL branch, ``notnull`` on the other; the other branch goes straight on.

    The test decides nothing (every run of ``fm`` is a run of the result, through the branch the
    value takes), and the label only says what the branch knows, so on a run where ``var`` is the
    value ``at`` gave it the result is labelled as ``fm`` is, except for a leak of NULL (``isnull``)
    or a dereference of a pointer that is not NULL (``notnull``): not bugs.  So when ``at`` is the
    only node that writes ``var`` and is on no loop (no other value of ``var`` crosses the test),
    a rule's existential part that fails on the result fails on every run that is a real bug.  The
    test is not labelled itself (it is no test the program makes), so a witness passes it only by
    the branch the labelled node is not on: a branch the path condition then reads."""
    cfg, graph = fm.cfg, fm.graph
    nodes, succ = list(cfg.nodes), [list(out) for out in cfg.succ]
    source, labelled = f"{var} == NULL", atom == "isnull"
    t, m = len(nodes), len(nodes) + 1
    base = cfg.nodes[at]
    nodes.append(
        replace(
            base,
            id=t,
            kind="cond",
            text=source,
            events=(),
            calls=(),
            flag_sets=(),
            null_test=None,
            cond=None,
            copies=(),
            source=source,
            takes=(),
            indicator=(),
            error_test=None,
        )
    )
    nodes.append(replace(nodes[t], id=m, kind="stmt", text=f"{var} ({atom})", events=((var, atom),), source=""))
    after = [j for j, _ in succ[at]]
    branches: list[tuple[int, bool | None]] = [(m, labelled), *((j, not labelled) for j in after)]
    succ.append(branches)
    succ.append([(j, None) for j in after])
    succ[at] = [(t, None)]
    cfg_of, names = list(graph.cfg_of), list(graph.names)
    gsucc = [list(out) for out in graph.succ]
    for i in range(len(graph.cfg_of)):
        if graph.cfg_of[i] != at or i == graph.exit:
            continue
        gt, gm = len(cfg_of), len(cfg_of) + 1
        cfg_of += [t, m]
        names += [f"{names[i]}~test", f"{names[i]}~{atom}"]
        gafter = [j for j, _ in gsucc[i]]
        gbranches: list[tuple[int, bool | None]] = [(gm, labelled), *((j, not labelled) for j in gafter)]
        gsucc.append(gbranches)
        gsucc.append([(j, None) for j in gafter])
        gsucc[i] = [(gt, None)]
    tested = replace(cfg, nodes=nodes, succ=succ)
    pruned = Graph(tuple(cfg_of), tuple(names), tuple(tuple(out) for out in gsucc), graph.entry, graph.exit)
    return replace(fm, cfg=tested, graph=pruned, key=f"{fm.key}|null-tested|{var}|{at}|{atom}")


def _assumed_atom(rule: Rule) -> str | None:
    """The label :func:`with_null_test` puts on a branch for ``rule``: ``notnull`` for a rule about
    a value that may be NULL when used (a bug needs it NULL), ``isnull`` for one about a block
    reaching the end (a bug needs it not NULL); None for the others."""
    if {"maynull", "notnull", "use"} <= rule.atoms:
        return "notnull"
    if {"isnull", "end"} <= rule.atoms and "notnull" not in rule.atoms:
        return "isnull"
    return None


def _on_loop(graph: Graph, cid: int) -> bool:
    """Whether a copy of CFG node ``cid`` in ``graph`` reaches itself."""
    for start in (i for i, c in enumerate(graph.cfg_of) if c == cid):
        seen, todo = set(), [j for j, _ in graph.succ[start]]
        while todo:
            i = todo.pop()
            if i == start:
                return True
            if i not in seen:
                seen.add(i)
                todo.extend(j for j, _ in graph.succ[i])
    return False


@cache
def existential_part(f: Formula, positive: bool = True) -> Formula:
    """A formula implied by ``f`` that removing paths from a model can only make false: universal
    operators under an even number of negations become true, existential ones under an odd number
    false (the rest is kept)."""
    if isinstance(f, Atom | TrueF | FalseF):
        return f
    if isinstance(f, Not):
        return Not(existential_part(f.arg, not positive))
    if isinstance(f, And | Or):
        return type(f)(existential_part(f.left, positive), existential_part(f.right, positive))
    if isinstance(f, Implies):
        return Or(Not(existential_part(f.left, not positive)), existential_part(f.right, positive))
    if isinstance(f, EX | EF | EG):
        return type(f)(existential_part(f.arg, positive)) if positive else FalseF()
    if isinstance(f, EU | EW):
        if not positive:
            return FalseF()
        return type(f)(existential_part(f.left, positive), existential_part(f.right, positive))
    if isinstance(f, AX | AF | AG):
        return TrueF() if positive else type(f)(existential_part(f.arg, positive))
    if isinstance(f, AU | AW):
        return TrueF() if positive else type(f)(existential_part(f.left, positive), existential_part(f.right, positive))
    return TrueF() if positive else FalseF()  # Iff and anything else: no claim


def waypoints(proj: Projector, root: str, fm: FunctionModel, steps: Sequence[Step]) -> list[Waypoint] | None:
    """The CFG nodes of the checked function a witness passes, in order (see
    :mod:`witness_condition`); None when a step cannot be placed."""
    ident = function_id(fm)
    out: list[Waypoint] = [(fm.cfg.entry, None)]

    def add(cid: int, br: bool | None) -> None:
        last, lbr = out[-1]
        if last == cid and (lbr is None or br is None or lbr == br):
            out[-1] = (cid, br if br is not None else lbr)
        else:
            out.append((cid, br))

    for s in steps:
        frames = [f for f in s.stack if not f[0].endswith("!root")]
        if s.component.endswith("!root"):
            if s.node == "end":
                add(fm.cfg.exit, None)
            continue
        if frames:
            caller, box = frames[0]
            meta = proj.meta.get(caller, {}).get(box)
            if caller != root or meta is None or meta.function != ident:
                return None
            add(meta.cfg_id, None)
            continue
        if s.component != root or not isinstance(s.node, str):
            return None
        meta = proj.meta.get(root, {}).get(s.node)
        if meta is None or meta.function != ident:
            return None
        add(meta.cfg_id, meta.branch if meta.kind == "branch" else None)
    return out


_SEMANTICS: dict[tuple[str, str, str], FunctionSemantics] = {}


def outcomes_of(proj: Projector, fm: FunctionModel) -> dict[str, CallOutcomes]:
    """The outcomes (:mod:`extractors.call_outcomes`) of the project functions ``fm`` calls with
    an address argument, by the name the calls use, over the parameters :mod:`out_params`
    summarises."""
    sc, out = proj.scope, {}
    names = {c.name for n in fm.cfg.nodes for c in n.calls if c.name and any(b for _, b in c.args)}
    for name in sorted(names):
        g = sc.resolve(fm, name) if name not in sc.table else None
        if g is None:
            continue
        ks = _out_parameters(g)
        key = (g.key, ks)
        if key not in _OUTCOMES:
            if len(_OUTCOMES) > 1024:
                _OUTCOMES.clear()
            _OUTCOMES[key] = call_outcomes(g, ks) if ks else None
        got = _OUTCOMES[key]
        if got is not None:
            out[name] = got
    return out


_OUTCOMES: dict[tuple[str, tuple[int, ...]], CallOutcomes | None] = {}  # by the callee's key: its text


def _no_allocs(call: Call) -> bool:
    """Which calls allocate does not matter to whether a parameter is an out-parameter."""
    return False


def _out_parameters(g: FunctionModel) -> tuple[int, ...]:
    """The parameters of ``g`` that :mod:`out_params` summarises for refutation (``reads``: its
    tests of ``*p`` too); a function of ``g``'s text, so kept by its key as ``_OUTCOMES`` is (the
    call table only tells a fresh store from another, not whether ``*p`` is summarised)."""
    got = _OUT_PARAMETERS.get(g.key)
    if got is None:
        if len(_OUT_PARAMETERS) > 1024:
            _OUT_PARAMETERS.clear()
        got = _OUT_PARAMETERS[g.key] = tuple(
            k for k in range(len(g.params)) if out_summary(g, k, BUILTIN, _no_allocs, reads=True) is not None
        )
    return got


_OUT_PARAMETERS: dict[str, tuple[int, ...]] = {}


def outcomes_digest(outcomes: dict[str, CallOutcomes]) -> str:
    return hashlib.sha256(repr(sorted(outcomes.items())).encode()).hexdigest()[:16] if outcomes else ""


def semantics(proj: Projector, fm: FunctionModel) -> FunctionSemantics:
    """The node semantics of a function, kept by its key, the call table and its callees'
    outcomes (a few, on findings)."""
    outcomes = outcomes_of(proj, fm)
    key = (fm.key, proj.table_digest, outcomes_digest(outcomes))
    got = _SEMANTICS.get(key)
    if got is None:
        if len(_SEMANTICS) > 256:
            _SEMANTICS.clear()
        got = _SEMANTICS[key] = FunctionSemantics(fm.cfg, fm.params, proj.scope.table, outcomes)
    return got


def bound_calls(
    proj: Projector, fm: FunctionModel, calls: Sequence[int], solving: Solving
) -> tuple[FunctionModel, list[tuple[FunctionModel, FunctionModel]]] | None:
    """``fm`` with its call nodes ``calls`` calling copies of their project callees specialised to
    the integer literals and addresses the calls pass (``path_new(n, xy, 0)``: a copy of
    ``path_new`` whose graph is refined from ``duplicate == 0`` at its entry, so that its ``if
    (duplicate)`` branch is gone; ``&b`` makes its parameter not NULL), and those copies, each with
    the function it copies; None when no copy differs from its function.  One copy per callee and
    binding; callees of more than :data:`MAX_BOUND_NODES` graph nodes are left as they are.

    Sound for a refutation: a copy keeps every run of its function that starts with those
    arguments (:func:`refine`'s invariant), and only those calls go to it, under a name of its own."""
    sem = semantics(proj, fm)
    nodes = list(fm.cfg.nodes)
    added: list[tuple[FunctionModel, FunctionModel]] = []
    made: dict[tuple[str, str], FunctionModel | None] = {}  # one copy per callee and binding
    for cid in calls:
        renamed: dict[str, str] = {}
        for name, given in sorted(sem.bound_arguments(cid).items()):
            g = proj.scope.resolve(fm, name) if name not in proj.scope.table else None
            if g is None or g is fm or len(g.graph.cfg_of) > MAX_BOUND_NODES:
                continue  # a big callee's product costs more than the few tests it may decide
            binding = ",".join(f"{k}{op}{v}" for k, (op, v) in sorted(given.items()))
            if (g.key, binding) not in made:
                gsem = semantics(proj, g)
                facts = frozenset(
                    Fact.of(_bound_fact(symbol(g.params[k], gsem.sort(g.params[k])), op, v))
                    for k, (op, v) in given.items()
                    if k < len(g.params) and g.params[k] in gsem.kinds
                )
                graph = refine(g.graph, gsem, frozenset(), solving, initial=facts) if facts else None
                copy = None
                if graph is not None and not _same_shape(graph, g.graph):
                    copy = replace(g, name=f"{g.name}__bound_{cid}", graph=graph, key=f"{g.key}|bound|{binding}")
                    added.append((copy, g))
                made[(g.key, binding)] = copy
            copy = made[(g.key, binding)]
            if copy is not None:
                renamed[name] = copy.name
        if renamed:
            n = nodes[cid]
            nodes[cid] = replace(n, calls=tuple(replace(c, name=renamed.get(c.name or "", c.name)) for c in n.calls))
    if not added:
        return None
    cfg = replace(fm.cfg, nodes=nodes)
    marks = ";".join(f.name for f, _ in added)
    return replace(fm, cfg=cfg, key=f"{fm.key}|bound|{marks}"), added


def _bound_fact(param: z3.ExprRef, op: str, value: int) -> z3.BoolRef:
    return cast(z3.BoolRef, param == value if op == "==" else param != value)


def _same_shape(a: Graph, b: Graph) -> bool:
    return len(a.cfg_of) == len(b.cfg_of) and sum(map(len, a.succ)) == sum(map(len, b.succ))


def feasible(
    sem: FunctionSemantics,
    points: Sequence[Waypoint],
    blocked: frozenset[int],
    solving: Solving,
    fallback: Callable[[], frozenset[int]] | None = None,
) -> tuple[str, frozenset[int]]:
    """"sat", "unsat" (with the CFG nodes of the core) or "unknown"; when no CFG path passes the
    waypoints avoiding ``blocked``, the condition avoids what ``fallback`` gives instead (when
    given; asked only then)."""
    try:
        cond = condition(sem, points, blocked)
    except Unrealisable:
        if fallback is None:
            return "unknown", frozenset()
        try:
            cond = condition(sem, points, fallback())
        except Unrealisable:
            return "unknown", frozenset()
    opened = solving.solver()
    if opened is None:
        return "unknown", frozenset()
    s, start = opened
    s.add(*cond.constraints)
    got = s.check(*[z3.Bool(n) for n in cond.selectors])
    solving.charge(s, start)
    if got == z3.sat:
        return "sat", frozenset()
    if got == z3.unsat:
        core = {cond.selectors[str(b)][1] for b in s.unsat_core() if str(b) in cond.selectors}
        return "unsat", frozenset(core)
    return "unknown", frozenset()


@dataclass
class Attempt:
    """A model the rule was checked on and the witness read off it."""

    proj: Projector
    fm: FunctionModel
    rsm: RSM
    model: RSM  # the contraction of ``rsm`` the witness was read off
    steps: tuple[Step, ...]
    # the witness is of the rule's existential part only (the rule fails on this model while that
    # part holds): it guides further rounds towards a model where the part fails, but a finding is
    # never reported with it
    guide: bool = False

    def blocked(self, root: str, copied: bool = True) -> frozenset[int]:
        """The CFG nodes of the checked function that the witness's model keeps (so a step between
        two others never passes one). The pruned graph copies nodes (a loop head per flag
        valuation), and the model may keep one copy and contract another, which a step then
        passes unlisted: ``copied=False`` leaves out the nodes not kept in every copy."""
        meta = self.proj.meta.get(root, {})
        comp = self.model.component(root)
        if copied:
            names = [n.name for n in comp.nodes] + [b.name for b in comp.boxes]
            return frozenset(m.cfg_id for name in names if (m := meta.get(name)) is not None)
        kept: Counter[int] = Counter(
            m.cfg_id for n in comp.nodes if (m := meta.get(n.name)) is not None and m.kind != "branch"
        )
        copies = Counter(self.fm.graph.cfg_of)
        return frozenset(c for c, k in kept.items() if k >= copies[c])


class Undecided(Exception):
    """A finding whose refutation verdict is not cached, asked for without deciding one."""

class Refuter:
    """Refutes findings for one :class:`~extractors.checking.FunctionChecker` (its verdict cache and
    counters: ``refuted`` findings dropped, ``refutation_kept`` kept after an infeasible witness,
    ``witness_refined`` reported with a witness of a refined model).  Its seconds, the projections
    and checks of refined models included, go to the checker's ``clock`` as the refutation phase."""

    def __init__(
        self,
        cache: MutableMapping[str, bytes],
        counts: dict[str, int],
        rlimit: int = 2_000_000,
        clock: PhaseClock | None = None,
        shared: CompiledMemo | None = None,
    ) -> None:
        self.cache = cache
        self.counts = counts
        self.shared = shared  # compiled components of the owner's checks (checker.compiled)
        self.rlimit = rlimit
        self.clock = clock if clock is not None else PhaseClock()
        for name in ("refuted", "refutation_kept", "witness_refined"):
            counts.setdefault(name, 0)

    def finding(
        self,
        proj: Projector,
        reporter: Reporter,
        rule: Rule,
        fm: FunctionModel,
        var: str,
        rsm: RSM,
        model: RSM,
        steps: tuple[Step, ...],
        decide: bool = True,
    ) -> Finding | None:
        """The finding of ``rule`` on ``var`` with witness ``steps`` (read off ``model``, the
        contraction of ``rsm``), or None when refutation removes it.  With ``decide`` False only a
        verdict already cached is used, and :class:`Undecided` is raised where the solver would run."""
        with self.clock(REFUTATION):
            digest = model.deep_digests_seeing(rule.atoms)[model.initial_component]
            callees = outcomes_digest(outcomes_of(proj, fm))
            raw = f"{VERSION}|{rule.formula}|{fm.key}|{var}|{digest}|{proj.table_digest}|{callees}"
            key = "refute|" + hashlib.sha256(raw.encode()).hexdigest()[:32]
            first = Attempt(proj, fm, rsm, model, steps)
            known = self.cache.get(key)
            verdict: dict[str, object] | None = None
            if known is not None:
                try:
                    verdict = json.loads(known)
                except ValueError:
                    verdict = None
            if not isinstance(verdict, dict) or verdict.get("verdict") not in ("keep", "drop", "refined"):
                if not decide:
                    raise Undecided(key)
                verdict = self._decide(first, rule, var)
                self.cache[key] = json.dumps(verdict).encode()
            if verdict["verdict"] == "drop":
                self.counts["refuted"] += 1
                return None
            if verdict["verdict"] == "refined":
                tracked = verdict.get("tracked")
                if isinstance(tracked, list):
                    again = self._refined(first, rule, var, frozenset(int(t) for t in tracked), self._solving())
                    if isinstance(again, Attempt):
                        self.counts["witness_refined"] += 1
                        return self._report(again, rule, var)
            return reporter.finding(rule, fm, var, rsm, steps)

    def _solving(self) -> Solving:
        return Solving(rlimit=self.rlimit)

    def _decide(self, first: Attempt, rule: Rule, var: str) -> dict[str, object]:
        f = rule.parsed
        universal = isinstance(f, EF) and existential_part(f.arg) != f.arg
        if universal and live_copy(first.proj, f, first.fm, first.rsm, first.steps):
            return {"verdict": "drop"}  # the statement is fine at another copy (extractors.every_copy)
        solving = self._solving()
        verdict = self._rounds(first, rule, var, solving)
        if verdict["verdict"] != "drop" and self._bound(first, rule, var, solving) == "drop":
            return {"verdict": "drop"}
        if verdict["verdict"] != "drop" and _assumed_atom(rule) is not None:
            # the NULL-ness of a result the callee's outcomes tie to what it stored: test it after
            # the call, so that the witness says which it is, and refute again on that model
            assumed = self._assumed(first, rule, var)
            if assumed == "drop" or (
                isinstance(assumed, Attempt) and self._rounds(assumed, rule, var, solving)["verdict"] == "drop"
            ):
                return {"verdict": "drop"}
        return verdict

    def _bound(self, first: Attempt, rule: Rule, var: str, solving: Solving) -> str | None:
        """"drop" when the rule's existential part fails once the project functions the witness
        enters are specialised to the integer literals the checked function passes them
        (:func:`bound_calls`); None when nothing is concluded or nothing is specialised."""
        root = first.proj.component(first.fm, var)
        if root is None:
            return None
        meta = first.proj.meta.get(root, {})
        entered = sorted(
            {m.cfg_id for s in first.steps for f in s.stack[1:2] if f[0] == root and (m := meta.get(f[1])) is not None}
        )
        # and the calls the path may pass over unlisted between two steps (a second ``nat_new(&b,
        # 4)`` after ``nat_free(b)``): every call that hands a project function an address
        table = first.proj.scope.table
        passed = [
            n.id
            for n in first.fm.cfg.nodes
            if n.id not in entered
            and any(c.name is not None and c.name not in table and any(a for _, a in c.args) for c in n.calls)
        ]
        bound = bound_calls(first.proj, first.fm, [*entered, *passed][:MAX_BOUND_CALLS], solving)
        if bound is None:
            return None
        caller, callees = bound
        got = self._checked(first, caller, rule, var, callees)
        return "drop" if got == "drop" else None

    def _assumed(self, first: Attempt, rule: Rule, var: str) -> Attempt | str | None:
        """The rule checked on ``first``'s function with the NULL-ness of ``var`` made a branch
        (:func:`with_null_test`) after the one node that writes it, a call of a pointer function
        with known outcomes not on a loop; None when there is no such node or nothing is
        concluded.  A local whose address is taken may get its value through the address, which
        is no node's write: the one-write premise cannot be known for it."""
        fm = first.fm
        if var in fm.cfg.frame_addressed:
            return None
        writes = [
            n.id
            for n in fm.cfg.nodes
            if any(p == var and a in WRITES for p, a in n.events) or any(c.result == var for c in n.calls)
        ]
        if len(writes) != 1 or var in fm.params:
            return None
        node = fm.cfg.nodes[writes[0]]
        results = [c for c in node.calls if c.result == var] if node.kind in ("stmt", "decl") else []
        call = results[0] if len(results) == 1 else None
        known = outcomes_of(first.proj, fm).get(call.name or "") if call is not None else None
        if known is None or not known.pointer or all(returned is None for returned, _ in known.alternatives):
            return None
        if _on_loop(fm.graph, node.id):
            return None
        atom = _assumed_atom(rule)
        if atom is None:
            return None
        return self._checked(first, with_null_test(fm, var, node.id, atom), rule, var)

    def _rounds(self, first: Attempt, rule: Rule, var: str, solving: Solving) -> dict[str, object]:
        """The refutation rounds from ``first``'s witness (see the module's doc)."""
        sem = semantics(first.proj, first.fm)
        if not sem.kinds:
            return {"verdict": "keep"}  # no local whose value a path condition could speak of
        tracked: frozenset[int] = frozenset()
        current = first
        widening = False
        for _ in range(MAX_ROUNDS):
            root = current.proj.component(current.fm, var)
            points = waypoints(current.proj, root, current.fm, current.steps) if root is not None else None
            if root is None or points is None:
                break
            # the copies a step passes unlisted only where the nodes the model keeps leave no way
            result, core = feasible(
                sem, points, current.blocked(root), solving, partial(current.blocked, root, copied=False)
            )
            if result == "sat":
                if current is first or current.guide:
                    break  # the first witness, or one of the existential part only: keep the finding
                return {"verdict": "refined", "tracked": sorted(tracked)}
            if result != "unsat":
                break
            if core <= tracked:
                # the refined witness fails for the same reasons: track, once, every node that
                # tests or writes the locals those nodes speak of
                wider = widened(sem, tracked)
                if widening or wider == tracked:
                    break
                widening, core = True, wider
            tracked |= core
            got = self._refined(first, rule, var, tracked, solving)
            if got == "drop":
                return {"verdict": "drop"}
            if not isinstance(got, Attempt):
                break
            current = got
        self.counts["refutation_kept"] += 1
        return {"verdict": "keep"}

    def _refined(
        self, first: Attempt, rule: Rule, var: str, tracked: frozenset[int], solving: Solving
    ) -> Attempt | str | None:
        """The rule checked on the function's graph refined by ``tracked``: "drop" when its
        existential part fails there, None when nothing is concluded, else the new witness."""
        fm = first.fm
        sem = semantics(first.proj, fm)
        assumed = frozenset(Fact.of(f) for f in sem.assumed(sem.symbols))
        graph = refine(fm.graph, sem, tracked, solving, initial=assumed)
        if graph is None:
            return None
        refined = replace(fm, graph=graph, key=f"{fm.key}|refined|{','.join(map(str, sorted(tracked)))}")
        return self._checked(first, refined, rule, var)

    def _checked(
        self,
        first: Attempt,
        refined: FunctionModel,
        rule: Rule,
        var: str,
        added: Sequence[tuple[FunctionModel, FunctionModel]] = (),
    ) -> Attempt | str | None:
        """The rule checked on ``refined`` in place of ``first``'s function, with the functions of
        ``added`` (each a copy of a function, then the function) in scope too, each an allocator
        when its function is: "drop" when the rule's existential part fails there, None when
        nothing is concluded, else the new witness."""
        old = first.proj.scope
        functions = {**old.functions, function_id(refined): refined}
        allocators, nonnull = set(old.allocators), set(old.nonnull_allocators)
        for copy, of in added:
            functions[function_id(copy)] = copy
            if function_id(of) in old.allocators:
                allocators.add(function_id(copy))
            if function_id(of) in old.nonnull_allocators:
                nonnull.add(function_id(copy))
        scope = Scope(
            functions,
            old.table,
            frozenset(allocators),
            old.globals,
            volatiles=old.volatiles,
            nonnull_allocators=frozenset(nonnull),
        )
        # the check's store: it is keyed by content (a refined function has a key of its own), so
        # the projections of the functions the refinement leaves alone are found there, and the
        # call graph's Merkle walk is not repeated from scratch for every attempt
        proj = Projector(scope, store=first.proj.store)
        cname = proj.component(refined, var)
        if cname is None:
            return None
        rsm = rule_rsm(proj, rule, cname)
        part = existential_part(rule.parsed)
        if not check(rsm, part, strategy="lazy", shared=self.shared).holds:
            return "drop"
        model = contract(rsm, rule.atoms | WITNESS_LABELS) if contractible(rule.parsed) else rsm
        res = check(model, rule.parsed, strategy="lazy", witness=True, shared=self.shared)
        if res.holds and res.witness:
            return Attempt(proj, refined, rsm, model, tuple(res.witness))
        # the rule fails here though its existential part holds: that part's witness leads the
        # next round (a path the refinement has not ruled out yet)
        guide = check(model, part, strategy="lazy", witness=True, shared=self.shared)
        if not guide.holds or not guide.witness:
            return None
        return Attempt(proj, refined, rsm, model, tuple(guide.witness), guide=True)

    def _report(self, attempt: Attempt, rule: Rule, var: str) -> Finding:
        shown = Reporter(attempt.proj, attempt.proj.scope.functions)
        return shown.finding(rule, attempt.fm, var, attempt.rsm, attempt.steps)
