"""Refinement: a function's pruned graph split by what a few tests and assignments make known.

The product of :class:`~extractors.prune.Graph` with a set of *facts*, z3 formulas over the current
values of tracked locals (``v:n > 5``, ``v:x == v:y + 1``).  Facts come only from the nodes the
refutation asks to track (the unsat core of an infeasible witness): a tracked test adds its outcome
on each branch, a tracked assignment ``x = e`` adds ``x == e``.  A node that may write a local
(:attr:`Effect.written`, which errs on the side of "may") drops every fact that mentions it.  An
edge out of a test is dropped when the facts of its state contradict the branch (z3 says unsat).

Soundness invariant: in every concrete run, at each product state the run reaches, every fact of
that state holds (facts are added only where they are true of the state after the node, and
dropped as soon as a node may change what they speak of; a state is entered by the edge that made
its facts).  So an edge is dropped only where no run takes it: the product keeps every run of the
function.  A check that z3 cannot decide within its limit keeps both edges.  Each node of the
product stands for the same CFG node as the graph node it splits, so projections, positions and
witnesses read it as before.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import z3

from extractors.path_condition import Effect, Fresh, FunctionSemantics, constants, is_fresh, symbol
from extractors.prune import Graph


@dataclass(frozen=True)
class Fact:
    """A formula known true, identified by its text (z3 terms do not compare as Python values)."""

    key: str
    vars: frozenset[str]
    formula: z3.BoolRef = field(compare=False, hash=False)


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
        env = {v: symbol(v, sem.sort(v)) for v in sem.kinds}
        self.effect: Effect = sem.effect(cid, env, Fresh(f"g{cid}_"))
        written = self.effect.written
        self.assigned: list[Fact] = []
        self.branch: Fact | None = None
        cond = self.effect.cond
        self.cond_vars = _vars(cond) if cond is not None else None
        # what a test speaks of among the tracked locals (unknown values in it stay free in the checks)
        self.tested = frozenset(n[2:] for n in constants(cond) if n.startswith("v:")) if cond is not None else None
        if not tracked:
            return
        for var in sorted(written):
            term = self.effect.env[var]
            names = _vars(term)
            if names is not None and not (names & written):
                f = symbol(var, sem.sort(var)) == term
                self.assigned.append(Fact(f.sexpr(), names | {var}, f))
        if cond is not None and self.cond_vars is not None and self.cond_vars and not (self.cond_vars & written):
            self.branch = Fact(cond.sexpr(), self.cond_vars, cond)


def _vars(e: z3.ExprRef) -> frozenset[str] | None:
    """The tracked locals a term speaks of, or None when it also has unknown values in it."""
    out = set()
    for name in constants(e):
        if is_fresh(name) or not name.startswith("v:"):
            return None
        out.add(name[2:])
    return frozenset(out)


def refine(
    graph: Graph, sem: FunctionSemantics, tracked: frozenset[int], solving: Solving, limit: int | None = None
) -> Graph | None:
    """The product of ``graph`` with the facts of the ``tracked`` CFG nodes; None when it would grow
    beyond ``limit`` states (default: four times the graph, plus 256)."""
    limit = limit if limit is not None else 4 * len(graph.cfg_of) + 256
    nodes: dict[int, _NodeFacts] = {}

    def read(c: int) -> _NodeFacts:
        got = nodes.get(c)
        if got is None:
            got = nodes[c] = _NodeFacts(sem, c, c in tracked)
        return got

    cfg = sem.cfg
    State = tuple[int, frozenset[Fact]]
    start: State = (graph.entry, frozenset())
    ids: dict[State, int] = {start: 0}
    states: list[State] = [start]
    succ: list[list[tuple[int, bool | None]]] = [[]]
    exit_id: int | None = None
    decided: dict[tuple[frozenset[Fact], int], tuple[bool, bool]] = {}
    queue = deque([0])
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
        kept = frozenset(f for f in facts if not (f.vars & eff.written)) | frozenset(nf.assigned)
        for j, br in graph.succ[i]:
            if (br is True and not may[0]) or (br is False and not may[1]):
                continue
            after = kept
            if nf.branch is not None and br is not None:
                b = nf.branch
                after = kept | {b if br else Fact(f"(not {b.key})", b.vars, z3.Not(b.formula))}
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
            if (t, br) not in succ[k]:
                succ[k].append((t, br))
    if exit_id is None:
        exit_id = len(states)
        states.append((graph.exit, frozenset()))
        succ.append([])
    copies: dict[int, int] = {}
    names = []
    for i, _ in states:
        n = copies.get(i, 0)
        copies[i] = n + 1
        names.append(graph.names[i] if n == 0 else f"{graph.names[i]}~{n}")
    return Graph(
        tuple(graph.cfg_of[i] for i, _ in states), tuple(names), tuple(tuple(s) for s in succ), 0, exit_id
    )


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
