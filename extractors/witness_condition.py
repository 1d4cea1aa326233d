"""The path condition of a witness: the CFG paths through its waypoints, in SSA form, for z3.

A witness names a few CFG nodes of the checked function (the steps its projection kept, a branch
step saying which way a test went, the call node of a step inside a callee, the exit).  Between
two waypoints the run may take any CFG path; the condition says "some such path runs":

- the region of a segment is every node on some path from the first waypoint's out-edges to the
  second waypoint; its strongly connected parts are loops, which are *havocked* (every local a
  node of the loop may write gets an unknown value on entry, then each node of the loop is read
  once from there: the state of any iteration is one of those values), and the rest is a DAG whose
  merges are phi values guarded by which edge was taken;
- calls are summarised by their effect on the caller's locals (see :mod:`path_condition`), what a
  callee step of the witness does inside the callee is not constrained.

So every run that visits the waypoints in order satisfies the condition: unsat means no run does.
Each test node's outcome and each node's assignments are guarded by a selector (``c<id>``,
``a<id>``): without its selector a test is a free choice (one branch is still taken, so the phi
values of a merge stay consistent) and an assigned value is unknown.  An unsat core over the
selectors names the tests and assignments that exclude the witness: what the refinement
(:mod:`refine_graph`) then tracks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from checker.graphs import strongly_connected
from extractors.path_condition import Fresh, FunctionSemantics

Waypoint = tuple[int, bool | None]  # CFG node, and the branch taken out of it when the witness says


class Unrealisable(Exception):
    """The waypoints are not a CFG path (or too large a one to encode): nothing is concluded."""


@dataclass
class Condition:
    constraints: list[z3.BoolRef] = field(default_factory=list)
    selectors: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> ("c"|"a", CFG node)


_MAX_VISITS = 20_000


_Edge = tuple[z3.BoolRef, dict[str, z3.ExprRef]]  # taken when the formula holds, with the values then


class _Encoder:
    def __init__(self, sem: FunctionSemantics, blocked: frozenset[int]) -> None:
        self.sem = sem
        self.blocked = blocked
        self.cfg = sem.cfg
        self.fresh = Fresh("w")
        self.out = Condition()
        self.visits = 0
        self._writes: dict[int, frozenset[str]] = {}
        self._pred: list[list[int]] | None = None

    def selector(self, kind: str, cid: int) -> z3.BoolRef:
        name = f"{kind}{cid}"
        self.out.selectors[name] = (kind, cid)
        return z3.Bool(name)

    def arrive(self, cid: int, env: dict[str, z3.ExprRef]) -> tuple[dict[str, z3.ExprRef], z3.BoolRef | None]:
        """Node ``cid`` runs from ``env``: the values after it and its condition."""
        self.visits += 1
        if self.visits > _MAX_VISITS:
            raise Unrealisable("path condition too large")
        eff = self.sem.effect(cid, env, self.fresh)
        self.out.constraints.extend(eff.side)
        for fact in eff.post:  # a callee's outcomes: tracked with the node's assignments
            self.out.constraints.append(z3.Implies(self.selector("a", cid), fact))
        after = dict(eff.env)
        for var in sorted(eff.written):
            term = after[var]
            if z3.is_const(term) and "!" in term.decl().name():
                continue  # already an unknown value
            named = z3.Const(self.fresh.name(var), term.sort())
            self.out.constraints.append(z3.Implies(self.selector("a", cid), named == term))
            after[var] = named
        if eff.cond is None:
            return after, None
        # without its selector the test is an unknown choice: one branch is still taken, either one
        return after, z3.If(self.selector("c", cid), eff.cond, z3.Bool(self.fresh.name("choice")))

    def guard(self, cid: int, cond: z3.BoolRef | None, br: bool | None) -> z3.BoolRef:
        if br is None or cond is None:
            return z3.BoolVal(True)
        return cond if br else z3.Not(cond)

    def writes(self, cid: int) -> frozenset[str]:
        got = self._writes.get(cid)
        if got is None:
            got = self.sem.effect(cid, self.sem.initial(self.fresh), self.fresh).written
            self._writes[cid] = got
        return got

    def merge(self, incoming: list[_Edge]) -> _Edge:
        if len(incoming) == 1:
            return incoming[0]
        reach = z3.Or(*[r for r, _ in incoming])
        env: dict[str, z3.ExprRef] = {}
        for var in self.sem.kinds:
            terms = [e[var] for _, e in incoming]
            if all(t.eq(terms[0]) for t in terms[1:]):
                env[var] = terms[0]
                continue
            phi = z3.Const(self.fresh.name(var), terms[0].sort())
            for r, t in zip((r for r, _ in incoming), terms, strict=True):
                self.out.constraints.append(z3.Implies(r, phi == t))
            env[var] = phi
        return reach, env

    def predecessors(self) -> list[list[int]]:
        if self._pred is None:
            pred: list[list[int]] = [[] for _ in self.cfg.nodes]
            for s, outs in enumerate(self.cfg.succ):
                for t, _ in outs:
                    pred[t].append(s)
            self._pred = pred
        return self._pred

    def segment(
        self, a: int, br_a: bool | None, cond_a: z3.BoolRef | None, env_a: dict[str, z3.ExprRef], b: int
    ) -> tuple[dict[str, z3.ExprRef], z3.BoolRef | None]:
        """Some CFG path leaves ``a`` (by branch ``br_a`` when given) and arrives at ``b`` through
        nodes that are not ``blocked``."""
        succ, blocked = self.cfg.succ, self.blocked
        starts = [(t, br) for t, br in succ[a] if br_a is None or br is None or br == br_a]
        forward: set[int] = set()
        queue = deque(t for t, _ in starts)
        while queue:
            x = queue.popleft()
            if x in forward or (x in blocked and x != b):
                continue
            forward.add(x)
            if x != b:
                queue.extend(t for t, _ in succ[x])
        region: set[int] = set()
        queue = deque([b])
        pred = self.predecessors()
        while queue:
            x = queue.popleft()
            if x not in region and x in forward and (x == b or x not in blocked):
                region.add(x)
                queue.extend(pred[x])
        if b not in region:
            raise Unrealisable(f"no CFG path from node {a} to node {b}")
        inner = [
            [] if n == b or n not in region else [(t, br) for t, br in succ[n] if t in region] for n in range(len(succ))
        ]
        comp = _components(region, inner)
        order = sorted(set(comp.values()), reverse=True)  # Tarjan numbers parts in reverse topological order
        members: dict[int, list[int]] = {}
        for n, k in comp.items():
            members.setdefault(k, []).append(n)
        incoming: dict[int, list[_Edge]] = {}
        for t, br in starts:
            if t in region:
                incoming.setdefault(comp[t], []).append((self.guard(a, cond_a, br), env_a))
        end: tuple[z3.BoolRef, dict[str, z3.ExprRef], z3.BoolRef | None] | None = None
        for k in order:
            if k not in incoming:
                continue
            reach, env_in = self.merge(incoming.pop(k))
            nodes = members[k]
            looping = len(nodes) > 1 or any(t == nodes[0] for t, _ in inner[nodes[0]])
            if looping:
                env_in = dict(env_in)
                for n in nodes:
                    for var in self.writes(n):
                        env_in[var] = z3.Const(self.fresh.name(var), env_in[var].sort())
            for n in nodes:
                env_out, cond = self.arrive(n, env_in)
                if n == b:
                    end = (reach, env_out, cond)
                for t, br in inner[n]:
                    if comp[t] != k:
                        incoming.setdefault(comp[t], []).append((z3.And(reach, self.guard(n, cond, br)), env_out))
        if end is None:
            raise Unrealisable(f"node {b} not reached")
        self.out.constraints.append(end[0])
        return end[1], end[2]


def _components(region: set[int], succ: Sequence[Sequence[tuple[int, bool | None]]]) -> dict[int, int]:
    """The strongly connected parts of the region, numbered in reverse topological order (a
    part's number is larger than those of the parts it reaches)."""
    parts = strongly_connected(sorted(region), lambda v: [t for t, _ in succ[v] if t in region])
    return {v: k for k, part in enumerate(parts) for v in part}


def condition(
    sem: FunctionSemantics, waypoints: Sequence[Waypoint], blocked: frozenset[int] = frozenset()
) -> Condition:
    """The path condition of a run from the first waypoint through the others in order, passing
    no ``blocked`` node in between (the nodes of the witness's model: a path through one would list
    it as a step)."""
    enc = _Encoder(sem, blocked)
    if not waypoints:
        return enc.out
    env = sem.initial(enc.fresh)
    enc.out.constraints.extend(sem.assumed(env))
    first, br = waypoints[0]
    env, cond = enc.arrive(first, env)
    here = first
    for nxt, nbr in waypoints[1:]:
        env, ncond = enc.segment(here, br, cond, env, nxt)
        here, br, cond = nxt, nbr, ncond
    return enc.out
