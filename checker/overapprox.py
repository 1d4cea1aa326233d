"""A cheap bound on a verdict: where a formula may hold, on the model's supergraph.

The *supergraph* of an RSM forgets the call stack: it has one node per component node; a call
position is its callee's entry and a return position its callee's exit, so a callee's exit leads to
the successors of every return point any box gives it; every exit and every node without successors
also steps to itself (the top-level exit and dead ends stay where they are). Every run of the RSM
projects onto a path of the supergraph through nodes with the same labels, so an existential
formula that holds somewhere on a run holds on the path's node; the converse fails (a path may
return to the wrong caller).

Each subformula is bounded from both sides: ``may`` (over-approximation) and ``must`` (under-).
Atoms and ``true`` are exact, ``not`` swaps the bounds, ``and``/``or`` combine them; ``E X``,
``E U`` and ``E G`` get their ``may`` from the supergraph's paths, and their ``must`` is what the
labels alone decide (``E (a U b)`` holds where ``b`` must; the others: nowhere). So when the initial
node is not in ``may``, the formula is false and the stack-aware check need not run. Most of a
C front end's rule checks are of that kind (``E F (NULL & E X E (... U use))`` with no path from
the NULL to a use): the bound costs one pass over the model per subformula, the check builds a
component instance per calling context.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from checker.ctl import EG, EU, EX, And, Atom, Formula, Not, Or, TrueF, fold, normalize
from checker.model import RSM, Component

Bounds = tuple[int, int]  # (may, must), node sets as bit masks over the supergraph's nodes


class _Local:
    """One component's share of any supergraph: its nodes' labels, its edges between its own nodes
    by position, and its edges that touch a box (resolved per model, where the callee is known)."""

    def __init__(self, comp: Component) -> None:
        index = {n.name: i for i, n in enumerate(comp.nodes)}
        self.labels = [n.labels for n in comp.nodes]
        self.plain: list[tuple[int, int]] = []
        self.via_box: list[tuple[str | tuple[str, str], str | tuple[str, str]]] = []
        for s, t in comp.edges:
            if isinstance(s, str) and isinstance(t, str):
                self.plain.append((index[s], index[t]))
            else:
                self.via_box.append((s, t))
        succ = {i for i, _ in self.plain} | {index[s] for s, _ in self.via_box if isinstance(s, str)}
        # exits and nodes with no successors step to themselves
        self.loops = [i for i, n in enumerate(comp.nodes) if n.is_exit or (i not in succ and not n.is_exit)]
        self.index = index


def _local(comp: Component) -> _Local:
    got = comp._derived.get("supergraph")
    if got is None:
        got = comp._derived["supergraph"] = _Local(comp)
    assert isinstance(got, _Local)
    return got


class _Supergraph:
    """The model's nodes numbered, their labels, and the supergraph's edges both ways."""

    def __init__(self, rsm: RSM) -> None:
        offset: dict[str, int] = {}
        locals_: list[tuple[Component, _Local]] = []
        labels: list[frozenset[str]] = []
        for c in rsm.components:
            loc = _local(c)
            offset[c.name] = len(labels)
            locals_.append((c, loc))
            labels.extend(loc.labels)
        succ: list[list[int]] = [[] for _ in labels]
        preds: list[list[int]] = [[] for _ in labels]
        self.complete = True
        for c, loc in locals_:
            o = offset[c.name]
            for i, j in loc.plain:
                succ[o + i].append(o + j)
                preds[o + j].append(o + i)
            for i in loc.loops:
                succ[o + i].append(o + i)
                preds[o + i].append(o + i)
            for s, t in loc.via_box:
                x, y = self._position(rsm, c, loc, offset, s), self._position(rsm, c, loc, offset, t)
                if x is None or y is None:
                    self.complete = False  # a box into a component the model lacks
                    continue
                succ[x].append(y)
                preds[y].append(x)
        self.index = offset
        self.labels = labels
        self.succ = [list(dict.fromkeys(ss)) for ss in succ]
        self.preds = [list(dict.fromkeys(ps)) for ps in preds]
        self.everything = (1 << len(labels)) - 1
        self._atoms: dict[str, int] = {}

    @staticmethod
    def _position(rsm: RSM, comp: Component, loc: _Local, offset: dict[str, int],
                  ref: str | tuple[str, str]) -> int | None:
        """A caller's position as a supergraph node: its own node, or the callee's entry or exit."""
        if isinstance(ref, str):
            return offset[comp.name] + loc.index[ref]
        box = comp.box_map.get(ref[0])
        if box is None or box.component not in offset:
            return None
        i = _local(rsm.component(box.component)).index.get(ref[1])
        return None if i is None else offset[box.component] + i

    def atom(self, name: str) -> int:
        got = self._atoms.get(name)
        if got is None:
            got = self._atoms[name] = sum(1 << i for i, lab in enumerate(self.labels) if name in lab)
        return got

    def some_successor_in(self, target: int) -> int:
        """Nodes with a successor in ``target``."""
        out = 0
        for j in _members(target):
            for i in self.preds[j]:
                out |= 1 << i
        return out

    def until(self, left: int, right: int) -> int:
        """Nodes from which a path through ``left`` nodes reaches a ``right`` node."""
        found = right
        stack = list(_members(right))
        while stack:
            j = stack.pop()
            for i in self.preds[j]:
                bit = 1 << i
                if left & bit and not found & bit:
                    found |= bit
                    stack.append(i)
        return found

    def globally(self, arg: int) -> int:
        """Nodes from which a path stays in ``arg`` nodes for ever (the greatest such set)."""
        members = arg
        count = {i: sum(1 for j in self.succ[i] if members >> j & 1) for i in _members(members)}
        stack = [i for i, c in count.items() if c == 0]
        while stack:
            i = stack.pop()
            members &= ~(1 << i)
            for p in self.preds[i]:
                if members >> p & 1:
                    count[p] -= 1
                    if count[p] == 0:
                        stack.append(p)
        return members

    def every_successor_in(self, target: int) -> int:
        """Nodes all of whose successors are in ``target`` (every node has one)."""
        out = 0
        for i, ss in enumerate(self.succ):
            if all(target >> j & 1 for j in ss):
                out |= 1 << i
        return out

    def inevitably(self, left: int, right: int) -> int:
        """Nodes from which every path stays in ``left`` nodes until it reaches a ``right`` node."""
        found = right
        left &= ~right
        missing = {i: len(self.succ[i]) for i in _members(left)}
        stack = list(_members(right))
        while stack:
            j = stack.pop()
            for i in self.preds[j]:
                if i in missing:
                    missing[i] -= 1
                    if missing[i] == 0:
                        del missing[i]
                        found |= 1 << i
                        stack.append(i)
        return found

    def always(self, arg: int) -> int:
        """Nodes from which every path stays in ``arg`` nodes for ever (the greatest such set)."""
        members = arg
        stack = [i for i in _members(arg) if any(not members >> j & 1 for j in self.succ[i])]
        while stack:
            i = stack.pop()
            if not members >> i & 1:
                continue
            members &= ~(1 << i)
            stack.extend(p for p in self.preds[i] if members >> p & 1)
        return members


def _members(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append(i)
        mask ^= low
    return out


def may_hold(rsm: RSM, formula: Formula) -> bool:
    """False only if ``formula`` is false at the initial node of ``rsm`` (empty call stack)."""
    graph = _graph(rsm)
    if not graph.complete or rsm.initial_component not in graph.index:
        return True
    first = _local(rsm.component(rsm.initial_component)).index.get(rsm.initial_node)
    if first is None:
        return True
    may, _ = fold(_normal(formula), lambda f, rec: _bounds(graph, f, rec))
    return bool(may >> (graph.index[rsm.initial_component] + first) & 1)


def node_bounds(rsm: RSM, formula: Formula) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """The nodes (component, node) where ``formula`` may hold under some call stack, and those where
    it holds under every one (for tests: the initial node's membership is :func:`may_hold`)."""
    graph = _graph(rsm)
    assert graph.complete, "a box calls a component the model lacks"
    may, must = fold(_normal(formula), lambda f, rec: _bounds(graph, f, rec))
    names = [(c.name, n.name) for c in rsm.components for n in c.nodes]
    return frozenset(names[i] for i in _members(may)), frozenset(names[i] for i in _members(must))


def _graph(rsm: RSM) -> _Supergraph:
    graph = rsm.memo.get("supergraph")
    if graph is None:
        graph = rsm.memo["supergraph"] = _Supergraph(rsm)
    assert isinstance(graph, _Supergraph)
    return graph


@lru_cache(maxsize=1024)
def _normal(formula: Formula) -> Formula:
    return normalize(formula)


def _bounds(g: _Supergraph, f: Formula, rec: Callable[[Formula], Bounds]) -> Bounds:
    match f:
        case TrueF():
            return g.everything, g.everything
        case Atom(name=a):
            m = g.atom(a)
            return m, m
        case Not(arg=a):
            may, must = rec(a)
            return g.everything & ~must, g.everything & ~may
        case Or(left=a, right=b):
            (ma, sa), (mb, sb) = rec(a), rec(b)
            return ma | mb, sa | sb
        case And(left=a, right=b):
            (ma, sa), (mb, sb) = rec(a), rec(b)
            return ma & mb, sa & sb
        case EX(arg=a):
            may, must = rec(a)
            return g.some_successor_in(may), g.every_successor_in(must)
        case EU(left=a, right=b):
            (ma, sa), (mb, sb) = rec(a), rec(b)
            return g.until(ma, mb), g.inevitably(sa, sb)
        case EG(arg=a):
            may, must = rec(a)
            return g.globally(may), g.always(must)
    return g.everything, 0  # not in normal form: anything may hold
