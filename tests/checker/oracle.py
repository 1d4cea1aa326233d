"""Brute-force CTL oracle: explicit labelling of the unfolded configuration graph of an RSM.

It exists to judge the real checker, so it shares nothing with it but the model and the formula
syntax: it unfolds configurations ``(stack, component, node)`` by the operational rules (loc, call,
return, loop), then labels the finite graph with textbook explicit CTL (EX by predecessors, EU by
backward search, EG as a greatest fixpoint).  Call nodes are not states of their own: a call
``(σ, (b, en))`` is the state ``(σ·b, en)`` it stands for, and return nodes are skipped.

Recursive RSMs have infinitely many configurations, so the unfolding stops at a stack-depth bound.
Configurations just beyond the bound are *truncated*: their labels are known but their futures are
not.  The labelling is therefore three-valued and sound: every formula gets a set of states where it
surely holds and a set where it possibly holds, and the verdict is ``None`` when the initial state is
in between.  For non-recursive RSMs the bound covers the longest call chain, nothing is truncated,
and the verdict is exact.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from checker.ctl import (
    AF,
    AG,
    AU,
    AW,
    AX,
    EF,
    EG,
    EU,
    EW,
    EX,
    And,
    Atom,
    FalseF,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    TrueF,
    parse,
)
from checker.model import RSM, Ref

Frame = tuple[str, str]  # (caller component, box)
Config = tuple[tuple[Frame, ...], str, str]  # (stack, component, node)


def initial_config(rsm: RSM) -> Config:
    return ((), rsm.initial_component, rsm.initial_node)


def _enter(rsm: RSM, stack: tuple[Frame, ...], comp: str, ref: Ref) -> Config:
    if isinstance(ref, str):
        return (stack, comp, ref)
    box, node = ref
    return (stack + ((comp, box),), rsm.component(comp).box_map[box].component, node)


class Moves:
    """The transition relation of the configuration graph, with local edges indexed once."""

    def __init__(self, rsm: RSM) -> None:
        self.rsm = rsm
        self.local: dict[str, dict[Ref, list[Ref]]] = {}
        for c in rsm.components:
            m: dict[Ref, list[Ref]] = {}
            for s, t in c.edges:
                m.setdefault(s, []).append(t)
            self.local[c.name] = m

    def successors(self, config: Config) -> list[Config]:
        """The configurations one step after ``config`` (itself if nothing else: a sink loops)."""
        stack, comp, node = config
        if self.rsm.component(comp).node(node).is_exit:
            if not stack:
                return [config]
            caller, box = stack[-1]
            targets = self.local[caller].get((box, node), [])
            out = [_enter(self.rsm, stack[:-1], caller, t) for t in targets]
        else:
            out = [_enter(self.rsm, stack, comp, t) for t in self.local[comp].get(node, [])]
        return list(dict.fromkeys(out)) or [config]


def successors(rsm: RSM, config: Config) -> list[Config]:
    return Moves(rsm).successors(config)


def normalize_ref(rsm: RSM, stack: tuple[Frame, ...], comp: str, ref: Ref) -> Config:
    """The configuration a reference denotes: a call or return node is the callee entry/exit."""
    return _enter(rsm, stack, comp, ref)


def call_depth(rsm: RSM) -> int | None:
    """Longest chain of nested calls from the initial component, or ``None`` if it can recurse."""
    memo: dict[str, int] = {}
    active: set[str] = set()

    def depth(c: str) -> int | None:
        if c in memo:
            return memo[c]
        if c in active:
            return None
        active.add(c)
        best = 0
        for callee in rsm.component(c).callees:
            d = depth(callee)
            if d is None:
                return None
            best = max(best, d + 1)
        active.discard(c)
        memo[c] = best
        return best

    return depth(rsm.initial_component)


@dataclass
class Graph:
    """The unfolded configurations up to a stack depth; ``truncated`` states have no known future."""

    rsm: RSM
    depth: int
    states: list[Config]
    index: dict[Config, int]
    succ: list[list[int]]
    truncated: frozenset[int]

    @property
    def exact(self) -> bool:
        return not self.truncated


def unfold(rsm: RSM, depth: int, max_states: int | None = None) -> Graph | None:
    """Reachable configurations with at most ``depth`` frames; ``None`` past ``max_states``."""
    moves = Moves(rsm)
    init = initial_config(rsm)
    states = [init]
    index = {init: 0}
    succ: list[list[int]] = []
    truncated: set[int] = set()
    i = 0
    while i < len(states):
        cfg = states[i]
        if len(cfg[0]) > depth:
            truncated.add(i)
            succ.append([])
        else:
            row = []
            for nxt in moves.successors(cfg):
                j = index.get(nxt)
                if j is None:
                    j = len(states)
                    index[nxt] = j
                    states.append(nxt)
                    if max_states is not None and len(states) > max_states:
                        return None
                row.append(j)
            succ.append(row)
        i += 1
    return Graph(rsm, depth, states, index, succ, frozenset(truncated))


def build_graph(rsm: RSM, max_states: int = 50_000, max_depth: int = 40) -> Graph:
    """Exact graph for non-recursive RSMs; for recursive ones the deepest unfolding that fits."""
    exact_depth = call_depth(rsm)
    if exact_depth is not None:
        g = unfold(rsm, exact_depth)
        assert g is not None and g.exact
        return g
    best = unfold(rsm, 0)
    assert best is not None
    for d in range(1, max_depth + 1):
        g = unfold(rsm, d, max_states)
        if g is None:
            break
        best = g
        if g.exact:  # the reachable part never recurses that deep
            break
    return best


Sets = tuple[frozenset[int], frozenset[int]]  # (surely holds, possibly holds)


class Labeller:
    """Three-valued explicit CTL on a :class:`Graph`, memoised per subformula."""

    def __init__(self, graph: Graph) -> None:
        self.g = graph
        self.n = len(graph.states)
        self.all = frozenset(range(self.n))
        self.pred: list[list[int]] = [[] for _ in range(self.n)]
        for s, row in enumerate(graph.succ):
            for t in row:
                self.pred[t].append(s)
        self.memo: dict[Formula, Sets] = {}

    def labels(self, s: int) -> frozenset[str]:
        _, comp, node = self.g.states[s]
        return self.g.rsm.component(comp).node(node).labels

    def sets(self, f: Formula) -> Sets:
        got = self.memo.get(f)
        if got is None:
            got = self._compute(f)
            assert got[0] <= got[1], f"oracle inconsistency at {f}"
            self.memo[f] = got
        return got

    def value(self, f: Formula, state: int = 0) -> bool | None:
        low, high = self.sets(f)
        if state in low:
            return True
        if state not in high:
            return False
        return None

    def _compute(self, f: Formula) -> Sets:
        match f:
            case TrueF():
                return self.all, self.all
            case FalseF():
                return frozenset(), frozenset()
            case Atom(name=a):
                s = frozenset(i for i in range(self.n) if a in self.labels(i))
                return s, s
            case Not(arg=a):
                lo, hi = self.sets(a)
                return self.all - hi, self.all - lo
            case Or(left=a, right=b):
                (la, ha), (lb, hb) = self.sets(a), self.sets(b)
                return la | lb, ha | hb
            case And(left=a, right=b):
                (la, ha), (lb, hb) = self.sets(a), self.sets(b)
                return la & lb, ha & hb
            case Implies(left=a, right=b):
                return self.sets(Or(Not(a), b))
            case Iff(left=a, right=b):
                return self.sets(Or(And(a, b), And(Not(a), Not(b))))
            case EX(arg=a):
                lo, hi = self.sets(a)
                t = self.g.truncated
                return self._pre(lo) - t, self._pre(hi) | t
            case EU(left=a, right=b):
                (la, ha), (lb, hb) = self.sets(a), self.sets(b)
                t = self.g.truncated
                return self._until(la, lb), self._until(ha, hb | (ha & t))
            case EG(arg=a):
                lo, hi = self.sets(a)
                t = self.g.truncated
                return self._globally(lo - t, frozenset()), self._globally(hi, hi & t)
            case EF(arg=a):
                return self.sets(EU(TrueF(), a))
            case EW(left=a, right=b):
                return self.sets(Or(EU(a, b), EG(a)))
            case AX(arg=a):
                return self.sets(Not(EX(Not(a))))
            case AF(arg=a):
                return self.sets(Not(EG(Not(a))))
            case AG(arg=a):
                return self.sets(Not(EF(Not(a))))
            case AU(left=a, right=b):
                return self.sets(And(Not(EU(Not(b), And(Not(a), Not(b)))), Not(EG(Not(b)))))
            case AW(left=a, right=b):
                return self.sets(Not(EU(Not(b), And(Not(a), Not(b)))))
        raise TypeError(f"oracle: unsupported formula {f!r}")

    def _pre(self, target: Iterable[int]) -> frozenset[int]:
        return frozenset(p for t in target for p in self.pred[t])

    def _until(self, left: frozenset[int], right: frozenset[int]) -> frozenset[int]:
        """Least fixpoint: backward search from ``right`` through ``left`` states."""
        seen = set(right)
        queue = deque(right)
        while queue:
            t = queue.popleft()
            for p in self.pred[t]:
                if p not in seen and p in left:
                    seen.add(p)
                    queue.append(p)
        return frozenset(seen)

    def _globally(self, inside: frozenset[int], free: frozenset[int]) -> frozenset[int]:
        """Greatest fixpoint: states of ``inside`` with a successor that stays; ``free`` needs none."""
        count = {s: sum(1 for t in self.g.succ[s] if t in inside) for s in inside}
        alive = set(inside)
        queue = deque(s for s in inside if count[s] == 0 and s not in free)
        while queue:
            s = queue.popleft()
            if s not in alive:
                continue
            alive.discard(s)
            for p in self.pred[s]:
                if p in alive:
                    count[p] -= 1
                    if count[p] == 0 and p not in free:
                        queue.append(p)
        return frozenset(alive)


def oracle_check(rsm: RSM, formula: Formula | str, max_states: int = 50_000) -> bool | None:
    """The verdict at the initial configuration, or ``None`` if the bounded unfolding cannot tell."""
    f = parse(formula) if isinstance(formula, str) else formula
    return Labeller(build_graph(rsm, max_states)).value(f)


class UseDefOracle:
    """Exact ``A G (premise --> E F goal)`` for propositional premise/goal, recursion included.

    The benchmark formulas all have this shape, and their models are recursive and large, so the
    bounded unfolding cannot decide them.  Reachability on a pushdown system is exact with
    summaries: which exits each entry reaches and whether it reaches ``goal`` without returning.
    A configuration's ``E F goal`` then depends only on its node and on the set of the current
    frame's exits after which the callers reach ``goal``; those (component, exit set) instances are
    finitely many and are explored from the initial configuration.  Atoms are sets: a node
    satisfies ``premise`` (``goal``) if it carries one of them.
    """

    def __init__(self, rsm: RSM) -> None:
        self.rsm = rsm
        self.moves = Moves(rsm)
        self.summary: dict[tuple[str, str], frozenset[str]] = {}
        self._summarised = False

    def _succ(self, comp: str, ref: Ref, summary: dict[tuple[str, str], frozenset[str]]) -> list[Ref]:
        local = self.moves.local[comp]
        if isinstance(ref, str):
            return [] if self.rsm.component(comp).node(ref).is_exit else local.get(ref, [])
        box, entry = ref
        callee = self.rsm.component(comp).box_map[box].component
        return [t for ex in summary.get((callee, entry), frozenset()) for t in local.get((box, ex), [])]

    def _summaries(self) -> None:
        """Exits each entry reaches without returning; formula-independent, so computed once."""
        if self._summarised:
            return
        self._summarised = True
        changed = True
        while changed:
            changed = False
            for c in self.rsm.components:
                for en in c.entries:
                    seen: set[Ref] = {en}
                    todo: list[Ref] = [en]
                    exits = set()
                    while todo:
                        r = todo.pop()
                        if isinstance(r, str) and c.node(r).is_exit:
                            exits.add(r)
                        for t in self._succ(c.name, r, self.summary):
                            if t not in seen:
                                seen.add(t)
                                todo.append(t)
                    if frozenset(exits) != self.summary.get((c.name, en), frozenset()):
                        self.summary[(c.name, en)] = frozenset(exits)
                        changed = True

    def _labels(self, comp: str, ref: Ref) -> frozenset[str]:
        if isinstance(ref, str):
            return self.rsm.component(comp).node(ref).labels
        callee = self.rsm.component(comp).box_map[ref[0]].component
        return self.rsm.component(callee).node(ref[1]).labels

    def _refs(self, comp: str) -> list[Ref]:
        c = self.rsm.component(comp)
        refs: list[Ref] = [n.name for n in c.nodes]
        refs += [(b.name, en) for b in c.boxes for en in b.call_nodes]
        return refs

    def check(self, premise: frozenset[str], goal: frozenset[str]) -> tuple[bool, tuple[str, str] | None]:
        """The verdict, and for a false one a reachable (component, node) whose premise is never answered."""
        self._summaries()
        deep: set[tuple[str, str]] = set()  # (component, entry) reaching goal without returning
        changed = True
        while changed:
            changed = False
            for c in self.rsm.components:
                good = self._backward(c.name, goal, frozenset(), deep)
                for en in c.entries:
                    if en in good and (c.name, en) not in deep:
                        deep.add((c.name, en))
                        changed = True
        instances: dict[tuple[str, frozenset[str]], set[str]] = {}
        todo: list[tuple[str, frozenset[str], str]] = [
            (self.rsm.initial_component, frozenset(), self.rsm.initial_node)
        ]
        while todo:
            comp, ctx, entry = todo.pop()
            seen_entries = instances.setdefault((comp, ctx), set())
            if entry in seen_entries:
                continue
            seen_entries.add(entry)
            good = self._backward(comp, goal, ctx, deep)
            seen: set[Ref] = {entry}
            stack: list[Ref] = [entry]
            while stack:
                r = stack.pop()
                if self._labels(comp, r) & premise and r not in good:
                    return False, (comp, r if isinstance(r, str) else r[1])
                if not isinstance(r, str):
                    box = self.rsm.component(comp).box_map[r[0]]
                    callee = self.rsm.component(box.component)
                    local = self.moves.local[comp]
                    sub = frozenset(
                        ex for ex in callee.exits if any(t in good for t in local.get((box.name, ex), []))
                    )
                    todo.append((callee.name, sub, r[1]))
                for t in self._succ(comp, r, self.summary):
                    if t not in seen:
                        seen.add(t)
                        stack.append(t)
        return True, None

    def _backward(
        self, comp: str, goal: frozenset[str], ctx: frozenset[str], deep: set[tuple[str, str]]
    ) -> set[Ref]:
        """Refs of ``comp`` from which ``goal`` is reachable when the exits in ``ctx`` lead to it."""
        pred: dict[Ref, list[Ref]] = {}
        good: set[Ref] = set()
        c = self.rsm.component(comp)
        for r in self._refs(comp):
            for t in self._succ(comp, r, self.summary):
                pred.setdefault(t, []).append(r)
            if (
                self._labels(comp, r) & goal
                or (isinstance(r, str) and r in ctx)
                or not isinstance(r, str)
                and (c.box_map[r[0]].component, r[1]) in deep
            ):
                good.add(r)
        todo = list(good)
        while todo:
            t = todo.pop()
            for p in pred.get(t, []):
                if p not in good:
                    good.add(p)
                    todo.append(p)
        return good
