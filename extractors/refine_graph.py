"""Refinement: a function's pruned graph split by what a few tests and assignments make known.

The product of :class:`~extractors.prune.Graph` with a set of *facts*, z3 formulas over the current
values of tracked locals (``v:n > 5``, ``v:x == v:y + 1``).  Facts come only from the nodes the
refutation asks to track (the unsat core of an infeasible witness): a tracked test adds its outcome
on each branch, a tracked assignment ``x = e`` adds ``x == e``, a tracked call with known outcomes
what they say of the locals it assigned (``Effect.post``).  A node that may write a local
(:attr:`Effect.written`, which errs on the side of "may") first *projects* it out of the facts
(:func:`project`): what they say of the other locals through it is kept (``x == a``, ``x > 0``
becomes ``a > 0`` when ``x`` is written again), the rest of what mentions it is dropped.  An edge
out of a test is dropped when the facts of its state contradict the branch (z3 says unsat); a state
then left with no way on (its node has successors, no edge to a kept state remains: the other
branch was already pruned) is removed with the edges into it, rather than left a dead end (which a
model would read as a run that stays there).

Soundness invariant: in every concrete run, at each product state the run reaches, every fact of
that state holds (facts are added only where they are true of the state after the node; a node
that may write locals keeps, of the facts that mention them, only consequences that do not mention
them, which it does not change; a state is entered by the edge that made its facts).  So an edge
is dropped only where no run takes it, and a state only where no run reaches it (a run there takes
one of its node's edges): the product keeps every run of the function.  A check that z3 cannot
decide within its limit keeps both edges.  Each node of the product stands for the same CFG node as
the graph node it splits, so projections, positions and witnesses read it as before.

Cost: facts are simplified and known by their text, so one fact reached two ways is one state
(the product is still cut off at ``limit`` states); the projection substitutes and never asks z3,
so only the checks of tests spend the per-finding budget (:class:`Solving`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import z3

from extractors.path_condition import Effect, Fresh, FunctionSemantics, constants, is_fresh, symbol, uninterpreted
from extractors.prune import Graph


@dataclass(frozen=True)
class Fact:
    """A formula known true, identified by its text (z3 terms do not compare as Python values)."""

    key: str
    vars: frozenset[str]
    formula: z3.BoolRef = field(compare=False, hash=False)

    @staticmethod
    def of(formula: z3.BoolRef) -> Fact:
        """The fact ``formula`` (over tracked locals only), simplified so that one formula written
        two ways is one fact (equal states are merged)."""
        f = z3.simplify(formula)
        assert isinstance(f, z3.BoolRef)
        names = _vars(f)
        assert names is not None  # no unknown value in a fact
        return Fact(f.sexpr(), names, f)


def _solved(f: z3.BoolRef, var: str) -> z3.ExprRef | None:
    """A term ``t`` free of ``var`` with ``f`` equivalent to ``var == t`` (an arithmetic equality
    linear in ``var`` with coefficient 1 or -1), or None."""
    if not z3.is_eq(f):
        return None
    lhs, rhs = f.arg(0), f.arg(1)
    v = _const(f, f"v:{var}")
    if v is None or not (z3.is_arith(lhs) and z3.is_arith(rhs) and z3.is_arith(v)) or lhs.sort() != v.sort():
        return None  # (a comparison made in another sort, ToReal(x) == r, is left alone)
    d = lhs - rhs

    def at(k: int) -> z3.ExprRef:
        return z3.simplify(z3.substitute(d, (v, z3.IntVal(k) if z3.is_int(v) else z3.RealVal(k))))

    rest = at(0)
    one = z3.simplify(at(1) - rest)
    if not _numeral(one, "1", "-1"):
        return None
    c = int(one.as_string())
    if not _numeral(z3.simplify(d - (c * v + rest), som=True), "0"):
        return None  # not linear in var (x * x, x * a)
    t = z3.simplify(-c * rest)
    return t if t.sort() == v.sort() and f"v:{var}" not in constants(t) else None


def _numeral(e: z3.ExprRef, *values: str) -> bool:
    return (z3.is_int_value(e) or z3.is_rational_value(e)) and e.as_string() in values


def _const(e: z3.ExprRef, name: str) -> z3.ExprRef | None:
    """The constant named ``name`` in ``e``, or None."""
    return next((x for x in uninterpreted(e) if x.decl().name() == name), None)


def project(facts: frozenset[Fact], written: frozenset[str]) -> frozenset[Fact]:
    """What ``facts`` say of the locals not ``written``: a formula implied by ``exists written.
    facts`` (so true after a node that writes only those).  Each written local is eliminated in
    turn: when a fact says ``x == t`` with ``t`` free of ``x``, ``t`` is put for ``x`` in the others
    (exact); otherwise the facts that mention ``x`` are dropped (weaker, still implied).  Bounded by
    construction: one substitution per fact and local, no solver call."""
    if not facts or not any(f.vars & written for f in facts):
        return facts
    out = set(facts)
    for var in sorted(written):
        about = sorted((f for f in out if var in f.vars), key=lambda f: f.key)
        if not about:
            continue
        out.difference_update(about)
        for d in about:
            t = _solved(d.formula, var)
            if t is None:
                continue
            v = z3.Const(f"v:{var}", t.sort())
            for f in about:
                if f is not d:
                    g = Fact.of(z3.substitute(f.formula, (v, t)))
                    if not z3.is_true(g.formula):
                        out.add(g)
            break
    return frozenset(out)


@dataclass
class Solving:
    """The per-finding solver budget, in z3's deterministic resource units (``rlimit``, not time:
    a verdict must not depend on how busy the machine is): at most ``rlimit`` per check, ``budget``
    in all, and ``max_checks`` checks. Out of budget, every question answers "maybe" (unknown), and
    an unknown keeps the finding. About two million units are a second of solving."""

    rlimit: int = 2_000_000
    budget: int = 8_000_000
    max_checks: int = 400
    spent: int = 0
    used: int = 0
    unknown: int = 0
    memo: dict[tuple[str, ...], z3.CheckSatResult] = field(default_factory=dict)

    def solver(self) -> tuple[z3.Solver, int] | None:
        """A solver limited to what is left of the budget, counted as one check, with z3's resource
        count before it runs (the count is the context's, cumulative); None when spent."""
        left = min(self.rlimit, self.budget - self.used)
        if self.spent >= self.max_checks or left <= 0:
            return None
        self.spent += 1
        s = z3.Solver()
        s.set("rlimit", left)
        return s, _resources(s)

    def charge(self, s: z3.Solver, start: int) -> None:
        """Count what the check on ``s`` used against the budget."""
        self.used += max(0, _resources(s) - start)

    def check(self, formulas: list[z3.BoolRef]) -> z3.CheckSatResult:
        key = tuple(sorted(f.sexpr() for f in formulas))
        got = self.memo.get(key)
        if got is not None:
            return got
        opened = self.solver()
        if opened is None:
            return z3.unknown
        s, start = opened
        s.add(*formulas)
        got = s.check()
        self.charge(s, start)
        if got == z3.unknown:
            self.unknown += 1
        self.memo[key] = got
        return got


def _resources(s: z3.Solver) -> int:
    stats = s.statistics()
    names = stats.keys()  # a z3 Statistics object, which has no "in"
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in names else 0


class _NodeFacts:
    """A node read over the current values: its effect and the facts it can add."""

    def __init__(self, sem: FunctionSemantics, cid: int, tracked: bool) -> None:
        self.effect: Effect = sem.effect(cid, sem.symbols, Fresh(f"g{cid}_"))
        written = self.effect.written
        self.assigned: list[Fact] = []
        self.branch: Fact | None = None
        self.negated: Fact | None = None
        cond = self.effect.cond
        self.cond_vars = _vars(cond) if cond is not None else None
        # what a test speaks of among the tracked locals (unknown values in it stay free in the checks)
        self.tested = frozenset(n[2:] for n in constants(cond) if n.startswith("v:")) if cond is not None else None
        # a local moved by a known amount (``i++``, ``n -= k``): the facts about it before the node
        # say the same of it after, with ``x - t`` put for ``x`` (exact: the step is invertible)
        self.shifts: dict[str, z3.ExprRef] = {}
        for var in sorted(written):
            v = sem.symbols[var]
            t = _shift(self.effect.env[var], v)
            if t is not None and not ((_vars(t) or frozenset()) & written):
                self.shifts[var] = z3.simplify(v - t)
        if not tracked:
            return
        for var in sorted(written):
            term = self.effect.env[var]
            names = _vars(term)
            if names is not None and not (names & written):
                self.assigned.append(Fact.of(sem.symbols[var] == term))
        # what a callee's outcomes say of the values it left (each a fresh value the node gave a
        # local) is a fact about those locals after the node; one that speaks of anything else
        # (a result only compared, a value from before the node) is not kept
        after = [
            (term, sem.symbols[var])
            for var in sorted(written)
            if z3.is_const(term := self.effect.env[var]) and is_fresh(term.decl().name())
        ]
        for fact in self.effect.post:
            got = z3.substitute(fact, *after) if after else fact
            if _vars(got) is not None:
                self.assigned.append(Fact.of(got))
        if cond is not None and self.cond_vars is not None and self.cond_vars and not (self.cond_vars & written):
            self.branch = Fact.of(cond)
            self.negated = Fact.of(z3.Not(cond))


def _shift(term: z3.ExprRef, v: z3.ExprRef) -> z3.ExprRef | None:
    """``t`` when ``term`` is ``v + t`` with ``t`` free of ``v`` and of unknown values (an
    arithmetic step of ``v``), else None."""
    if not (z3.is_arith(term) and z3.is_arith(v)) or term.sort() != v.sort() or term.eq(v):
        return None
    t = z3.simplify(term - v)
    if _vars(t) is None or str(v.decl().name()) in constants(t):
        return None
    return t


def shifted(facts: frozenset[Fact], shifts: dict[str, z3.ExprRef]) -> frozenset[Fact]:
    """``facts`` after a node that moves each local ``x`` of ``shifts`` by a known step: ``x`` in
    them is replaced by ``shifts[x]`` (its value before, in terms of the value after)."""
    if not shifts or not any(f.vars & shifts.keys() for f in facts):
        return facts
    out = set()
    for f in facts:
        moved = [(symbol(x, t.sort()), t) for x, t in sorted(shifts.items()) if x in f.vars]
        out.add(Fact.of(z3.substitute(f.formula, *moved)) if moved else f)
    return frozenset(out)


def _vars(e: z3.ExprRef) -> frozenset[str] | None:
    """The tracked locals a term speaks of, or None when it also has unknown values in it (a macro
    constant, ``m:NAME``, is one value everywhere: no unknown of one state)."""
    out = set()
    for name in constants(e):
        if name.startswith("m:") and not is_fresh(name):
            continue
        if is_fresh(name) or not name.startswith("v:"):
            return None
        out.add(name[2:])
    return frozenset(out)


def refine(
    graph: Graph,
    sem: FunctionSemantics,
    tracked: frozenset[int],
    solving: Solving,
    limit: int | None = None,
    initial: frozenset[Fact] = frozenset(),
) -> Graph | None:
    """The product of ``graph`` with the facts of the ``tracked`` CFG nodes, starting from the
    ``initial`` facts (true at the entry of every run the product is for: a parameter a caller
    binds to a constant); None when it would grow beyond ``limit`` states (default: four times the
    graph, plus 256).  Facts carried over a write (:func:`project`, and over a counter's step:
    :func:`shifted`) make more states (they live longer; a counter's make one per value); when
    that product is too large, the one without the steps is tried, then the one where a write
    drops what mentions the local (coarser, smaller)."""
    limit = limit if limit is not None else 4 * len(graph.cfg_of) + 256
    read: dict[int, _NodeFacts] = {}  # each node read, and each test decided, once for all products
    decided: dict[tuple[frozenset[Fact], int], tuple[bool, bool]] = {}
    for carry in _CARRIES:
        got = _product(graph, sem, tracked, solving, limit, carry, initial, read, decided)
        if got is not None:
            return got
    return None


_CARRIES = ("steps", "writes", "nothing")  # what facts are carried over, most first
MAX_STEPPED_COPIES = 16  # states of one node a counter's steps may make (a loop unrolled that far)


def widened(sem: FunctionSemantics, tracked: frozenset[int]) -> frozenset[int]:
    """``tracked`` with every node that tests or writes a local the nodes of ``tracked`` speak of:
    what a refinement needs when the witness of the last one fails for the same reasons (the
    core named tests whose locals got their relation elsewhere: ``palette = inpalette``, then
    ``if (palette != NULL)``, a new ``palette``, and ``if (palette != inpalette)``)."""
    reads = [_NodeFacts(sem, c, False) for c in range(len(sem.cfg.nodes))]
    spoken: set[str] = set()
    for c in tracked:
        spoken |= reads[c].effect.written | (reads[c].tested or frozenset())
    return tracked | frozenset(
        c for c, nf in enumerate(reads) if (nf.effect.written | (nf.tested or frozenset())) & spoken
    )


def _product(
    graph: Graph,
    sem: FunctionSemantics,
    tracked: frozenset[int],
    solving: Solving,
    limit: int,
    carry: str,
    initial: frozenset[Fact],
    nodes: dict[int, _NodeFacts],
    decided: dict[tuple[frozenset[Fact], int], tuple[bool, bool]],
) -> Graph | None:
    def read(c: int) -> _NodeFacts:
        got = nodes.get(c)
        if got is None:
            got = nodes[c] = _NodeFacts(sem, c, c in tracked)
        return got

    cfg = sem.cfg
    State = tuple[int, frozenset[Fact]]
    start: State = (graph.entry, initial)
    ids: dict[State, int] = {start: 0}
    states: list[State] = [start]
    succ: list[list[tuple[int, bool | None]]] = [[]]
    exit_id: int | None = None
    queue = deque([0])
    made = [0] * len(graph.cfg_of)  # states made of each graph node
    while queue:
        k = queue.popleft()
        i, facts = states[k]
        c = graph.cfg_of[i]
        nf = read(c)
        eff = nf.effect
        may = (True, True)
        if facts and eff.cond is not None and cfg.nodes[c].kind == "cond" and nf.tested:
            relevant = _closure(facts, nf.tested)
            if relevant:
                key = (relevant, c)
                got = decided.get(key)
                if got is None:
                    base = [f.formula for f in relevant] + eff.side
                    got = (
                        solving.check([*base, eff.cond]) != z3.unsat,
                        solving.check([*base, z3.Not(eff.cond)]) != z3.unsat,
                    )
                    decided[key] = got
                may = got
        if carry == "steps":
            kept = project(shifted(facts, nf.shifts), eff.written - nf.shifts.keys())
        elif carry == "writes":
            kept = project(facts, eff.written)
        else:
            kept = frozenset(f for f in facts if not (f.vars & eff.written))
        kept |= frozenset(nf.assigned)
        for j, br in graph.succ[i]:
            if (br is True and not may[0]) or (br is False and not may[1]):
                continue
            after = kept
            if nf.branch is not None and nf.negated is not None and br is not None:
                after = kept | {nf.branch if br else nf.negated}
            if j == graph.exit:
                if exit_id is None:
                    exit_id = len(states)
                    states.append((j, frozenset()))
                    succ.append([])
                t = exit_id
            else:
                state = (j, after)
                t = ids.get(state, -1)
                if t < 0:
                    t = ids[state] = len(states)
                    states.append(state)
                    succ.append([])
                    queue.append(t)
                    if len(states) > limit:
                        return None
                    made[j] += 1
                    if carry == "steps" and made[j] > MAX_STEPPED_COPIES:
                        return None  # a counter running long: the coarser products are cheaper
            if (t, br) not in succ[k]:
                succ[k].append((t, br))
    if exit_id is None:
        exit_id = len(states)
        states.append((graph.exit, frozenset()))
        succ.append([])
    live = _live(succ, [bool(graph.succ[i]) for i, _ in states])
    if not live[0]:
        return None  # no run at all: the facts contradict each other (cannot be, but conclude nothing)
    renum: dict[int, int] = {}
    for k in range(len(states)):
        if live[k] or k == exit_id:
            renum[k] = len(renum)
    copies: dict[int, int] = {}
    names = []
    for k in renum:
        i = states[k][0]
        n = copies.get(i, 0)
        copies[i] = n + 1
        names.append(graph.names[i] if n == 0 else f"{graph.names[i]}~{n}")
    return Graph(
        tuple(graph.cfg_of[states[k][0]] for k in renum),
        tuple(names),
        tuple(tuple((renum[t], br) for t, br in succ[k] if t in renum) for k in renum),
        0,
        renum[exit_id],
    )


def _live(succ: list[list[tuple[int, bool | None]]], continues: list[bool]) -> list[bool]:
    """The states some run can pass: all but those that must continue (``continues``: their graph
    node has successors) and have no edge left to a live state.  A run at such a state would take
    one of its node's edges, and the product keeps every edge a run can take: no run reaches it."""
    pred: list[list[int]] = [[] for _ in succ]
    for k, out in enumerate(succ):
        for t, _ in out:
            pred[t].append(k)
    left = [len({t for t, _ in out}) for out in succ]
    live = [True] * len(succ)
    queue = deque(k for k in range(len(succ)) if continues[k] and left[k] == 0)
    while queue:
        k = queue.popleft()
        if not live[k]:
            continue
        live[k] = False
        for p in set(pred[k]):
            left[p] -= 1
            if continues[p] and left[p] == 0 and live[p]:
                queue.append(p)
    return live


def _closure(facts: frozenset[Fact], start: frozenset[str]) -> frozenset[Fact]:
    """The facts connected to the locals ``start`` through shared locals (the others cannot help
    decide a test on them)."""
    wanted = set(start)
    chosen: set[Fact] = set()
    grew = True
    while grew:
        grew = False
        for f in facts:
            if f not in chosen and f.vars & wanted:
                chosen.add(f)
                wanted |= f.vars
                grew = True
    return frozenset(chosen)
