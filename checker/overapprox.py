"""A cheap bound on a verdict: where a formula may hold, on the model's supergraph.

The *supergraph* of an RSM forgets the call stack: it has one node per component node; a call
position is its callee's entry and a return position its callee's exit, so a callee's exit leads to
the successors of every return point any box gives it; every exit and every node without successors
also steps to itself (the top-level exit and dead ends stay where they are). Every run of the RSM
projects onto a path of the supergraph through nodes with the same labels, and every successor of
a state projects onto a successor of its node; the converse fails (a path may return to the wrong
caller).

Each subformula is bounded from both sides, on nodes: ``may`` holds it at some configuration of the
node, ``must`` at all. Atoms and ``true`` are exact, ``not`` swaps the bounds, ``and``/``or``
combine them. ``E X``, ``E U`` and ``E G`` take ``may`` from the supergraph's paths through ``may``
nodes, and ``must`` from its universal counterparts on ``must`` nodes (``A X``, ``A U``, ``A G``:
every state has a successor, and each of them is among its node's successors). So when the initial
node is not in ``may``, the formula is false and the stack-aware check need not run. Most of a C
front end's rule checks are of that kind (``E F (NULL & E X E (... U use))`` with no path from the
NULL to a use): the bound costs a few passes over the model, the check builds a component instance
per calling context.

Node sets are ``bytes`` of 0 and 1, one per node: ``and``/``or``/``not`` run on them as integers.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress

from checker.ctl import Formula, normalize
from checker.formulas import AND, ATOM, EGOP, EUOP, EXOP, NOT, OR, TRUE_OP, FormulaTable, flatten
from checker.model import RSM, Component, kept

Ref = str | tuple[str, str]


class _Local:
    """One component's share of any supergraph: its nodes' labels, its edges between its own nodes
    by position, and its edges that touch a box (resolved per model, where the callee is known)."""

    def __init__(self, comp: Component) -> None:
        index = {n.name: i for i, n in enumerate(comp.nodes)}
        self.labels = [n.labels for n in comp.nodes]
        succ: list[list[int]] = [[] for _ in comp.nodes]
        self.via_box: list[tuple[Ref, Ref]] = []
        for s, t in comp.edges:
            if isinstance(s, str) and isinstance(t, str):
                succ[index[s]].append(index[t])
            else:
                self.via_box.append((s, t))
        leaving = {index[s] for s, _ in self.via_box if isinstance(s, str)}
        for i, n in enumerate(comp.nodes):
            if n.is_exit or not (succ[i] or i in leaving):  # exits and dead ends stay
                succ[i].append(i)
        self.succ = succ
        self.index = index


class _Supergraph:
    """The model's nodes numbered, their labels, and the supergraph's edges both ways (an edge
    may be listed twice; every pass counts it the same way both ways).  Made for one bound and
    dropped, never kept on the model: it is as big as the model, and what an edit asks again is
    :func:`may_hold`'s answer, which is kept."""

    def __init__(self, rsm: RSM) -> None:
        offset: dict[str, int] = {}
        parts: list[tuple[Component, _Local]] = []
        labels: list[frozenset[str]] = []
        self.locals: dict[str, _Local] = {}
        for c in rsm.components:
            loc = self.locals[c.name] = _Local(c)
            offset[c.name] = len(labels)
            parts.append((c, loc))
            labels.extend(loc.labels)
        succ: list[list[int]] = []
        for c, loc in parts:
            o = offset[c.name]
            succ.extend([o + j for j in ss] for ss in loc.succ)
        self.complete = True
        for c, loc in parts:
            for s, t in loc.via_box:
                x, y = self._position(c, offset, s), self._position(c, offset, t)
                if x is None or y is None:
                    self.complete = False  # a box into a component the model lacks
                    continue
                succ[x].append(y)
        preds: list[list[int]] = [[] for _ in labels]
        for i, ss in enumerate(succ):
            for j in ss:
                preds[j].append(i)
        self.n = len(labels)
        self.offset = offset
        self.labels = labels
        self.succ = succ
        self.preds = preds
        self.everything = b"\x01" * self.n
        self._ones = int.from_bytes(self.everything, "little")
        self._atoms: dict[str, bytes] = {}

    def _position(self, comp: Component, offset: dict[str, int], ref: Ref) -> int | None:
        """A caller's position as a supergraph node: its own node, or the callee's entry or exit."""
        if isinstance(ref, str):
            return offset[comp.name] + self.locals[comp.name].index[ref]
        box = comp.box_map.get(ref[0])
        if box is None or box.component not in offset:
            return None
        i = self.locals[box.component].index.get(ref[1])
        return None if i is None else offset[box.component] + i

    def atom(self, name: str) -> bytes:
        got = self._atoms.get(name)
        if got is None:
            got = self._atoms[name] = bytes(name in lab for lab in self.labels)
        return got

    def complement(self, x: bytes | None) -> bytes:
        return (int.from_bytes(_given(x), "little") ^ self._ones).to_bytes(self.n, "little")

    def some_successor_in(self, target: bytes) -> bytes:
        """Nodes with a successor in ``target``."""
        out = bytearray(self.n)
        preds = self.preds
        for j in compress(range(self.n), target):
            for i in preds[j]:
                out[i] = 1
        return bytes(out)

    def every_successor_in(self, target: bytes) -> bytes:
        """Nodes all of whose successors are in ``target`` (every node has one): those without a
        successor outside it."""
        if not any(target):
            return target
        return self.complement(self.some_successor_in(self.complement(target)))

    def until(self, left: bytes, right: bytes) -> bytes:
        """Nodes from which a path through ``left`` nodes reaches a ``right`` node."""
        found = bytearray(right)
        preds = self.preds
        stack = list(compress(range(self.n), right))
        while stack:
            for i in preds[stack.pop()]:
                if left[i] and not found[i]:
                    found[i] = 1
                    stack.append(i)
        return bytes(found)

    def inevitably(self, left: bytes, right: bytes) -> bytes:
        """Nodes from which every path stays in ``left`` nodes until it reaches a ``right`` node."""
        found = bytearray(right)
        missing = [len(ss) for ss in self.succ]
        preds = self.preds
        stack = list(compress(range(self.n), right))
        while stack:
            for i in preds[stack.pop()]:
                if left[i] and not found[i]:
                    missing[i] -= 1
                    if missing[i] == 0:
                        found[i] = 1
                        stack.append(i)
        return bytes(found)

    def globally(self, arg: bytes) -> bytes:
        """Nodes from which a path stays in ``arg`` nodes for ever (the greatest such set)."""
        members = bytearray(arg)
        count = [sum(members[j] for j in ss) for ss in self.succ]
        preds = self.preds
        stack = [i for i in compress(range(self.n), arg) if count[i] == 0]
        while stack:
            i = stack.pop()
            members[i] = 0
            for p in preds[i]:
                if members[p]:
                    count[p] -= 1
                    if count[p] == 0:
                        stack.append(p)
        return bytes(members)

    def always(self, arg: bytes) -> bytes:
        """Nodes from which every path stays in ``arg`` nodes for ever (the greatest such set)."""
        members = bytearray(arg)
        preds = self.preds
        stack = [i for i in compress(range(self.n), arg) if not all(arg[j] for j in self.succ[i])]
        while stack:
            i = stack.pop()
            if members[i]:
                members[i] = 0
                stack.extend(p for p in preds[i] if members[p])
        return bytes(members)


def may_hold(rsm: RSM, formula: Formula) -> bool:
    """False only if ``formula`` is false at the initial node of ``rsm`` (empty call stack); kept
    per model (an edit asks again about the models of the functions it did not change)."""
    return kept(rsm.memo, ("may_hold", formula), lambda: _may_hold(rsm, formula), bool)


def _may_hold(rsm: RSM, formula: Formula) -> bool:
    graph = _Supergraph(rsm)
    if not graph.complete or rsm.initial_component not in graph.offset:
        return True
    first = graph.locals[rsm.initial_component].index.get(rsm.initial_node)
    if first is None:
        return True
    may, _ = _bounds(graph, _plan(formula), sides=(True, False))
    assert may is not None
    return bool(may[graph.offset[rsm.initial_component] + first])


def node_bounds(rsm: RSM, formula: Formula) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """The nodes (component, node) where ``formula`` may hold under some call stack, and those where
    it holds under every one: the bound at every node, as :func:`may_hold` reads it at one."""
    graph = _Supergraph(rsm)
    assert graph.complete, "a box calls a component the model lacks"
    may, must = _bounds(graph, _plan(formula), sides=(True, True))
    assert may is not None and must is not None
    names = [(c.name, n.name) for c in rsm.components for n in c.nodes]
    return frozenset(compress(names, may)), frozenset(compress(names, must))


Plan = tuple[FormulaTable, dict[tuple[bool, bool], tuple[tuple[bool, bool], ...]]]


@lru_cache(maxsize=1024)
def _plan(formula: Formula) -> Plan:
    """The flat normal form, and per side wanted at the root (may, must), which sides each
    subformula needs: a negation asks its operand for the other side, everything else for the
    same, so a formula's positive part never computes a ``must`` set."""
    table = flatten(normalize(formula))
    plans: dict[tuple[bool, bool], tuple[tuple[bool, bool], ...]] = {}
    for root in ((True, False), (True, True)):
        need = [[False, False] for _ in table.ops]
        need[table.root] = list(root)
        for i in range(table.root, -1, -1):
            for c in table.args[i]:
                flip = table.ops[i] == NOT
                for side in (0, 1):
                    if need[i][side]:
                        need[c][1 - side if flip else side] = True
        plans[root] = tuple((m, s) for m, s in need)
    return table, plans


def _bounds(g: _Supergraph, plan: Plan, sides: tuple[bool, bool]) -> tuple[bytes | None, bytes | None]:
    """``may`` and ``must`` of the formula's root (those ``sides`` asks for), bottom-up."""
    table, plans = plan
    n = g.n
    may: list[bytes | None] = []
    must: list[bytes | None] = []
    for (want_may, want_must), op, args, name in zip(plans[sides], table.ops, table.args, table.atom_names,
                                                     strict=True):
        hi = lo = None
        if op == TRUE_OP:
            hi = lo = g.everything
        elif op == ATOM:
            assert name is not None
            hi = lo = g.atom(name)
        elif op == NOT:
            hi = g.complement(must[args[0]]) if want_may else None
            lo = g.complement(may[args[0]]) if want_must else None
        elif op in (AND, OR):
            a, b = args
            hi = _combine(op, may[a], may[b], n) if want_may else None
            lo = _combine(op, must[a], must[b], n) if want_must else None
        elif op == EXOP:
            hi = g.some_successor_in(_given(may[args[0]])) if want_may else None
            lo = g.every_successor_in(_given(must[args[0]])) if want_must else None
        elif op == EUOP:
            a, b = args
            hi = g.until(_given(may[a]), _given(may[b])) if want_may else None
            lo = g.inevitably(_given(must[a]), _given(must[b])) if want_must else None
        else:
            assert op == EGOP
            hi = g.globally(_given(may[args[0]])) if want_may else None
            lo = g.always(_given(must[args[0]])) if want_must else None
        may.append(hi)
        must.append(lo)
    return may[-1], must[-1]


def _given(x: bytes | None) -> bytes:
    assert x is not None, "a side the plan did not compute"
    return x


def _combine(op: int, x: bytes | None, y: bytes | None, n: int) -> bytes:
    a, b = int.from_bytes(_given(x), "little"), int.from_bytes(_given(y), "little")
    return (a & b if op == AND else a | b).to_bytes(n, "little")
