"""The model as one formula sees it, in one canonical form: what a verdict is checked on and keyed by.

An edit to a callee usually changes nothing a caller's verdict depends on, yet it changes the
callee's model: a removed ``fsync(log->fd)`` shortens a chain of eleven uses of ``log`` to ten, and
removing any kept node renames the ones after it. Keyed by the model itself, every caller's result
was then checked again. The view below keeps the verdict and forgets such differences:

1. blank nodes are contracted (:mod:`checker.contraction`) when the formula allows it, and so are
   calls into callees that carry none of its atoms (a call removed from such a callee changes
   nothing);
2. *stutter chains* are merged: a node ``v`` whose only predecessor ``u`` has ``v`` as its only
   successor and the same labels is removed, ``u`` taking ``v``'s successors, when the formula is
   *stutter-safe* at those labels (``stutter_safe``); neither may be an entry or an exit;
3. labels are cut to the formula's atoms, internal nodes are named by position and boxes by order,
   so the names the front end gave (``k11``, ``k11#0``) leave no trace.

Stutter safety is decided per label set on the normal form, by what a merge can change: a subformula
is *same* when its value at ``u`` equals its value at ``v`` and no value changes (``EU``/``EG`` of
same operands: a path through ``u, v`` and the path through ``u`` alone see the same values), a
*constant* when the labels decide it, *local* when only its value at ``u`` may change (``E X g`` of
a same or constant ``g``: ``u`` now looks past ``v``), and *broken* when values elsewhere may change.
Constants absorb a local operand in ``and``/``or`` (``free & E X ...`` is false at a node without
``free``, whatever ``E X`` says) and in ``E (a U b)`` where ``b`` holds; a temporal operator that
reads a local operand at ``u`` is broken, since ``u``'s predecessors would see the change, and
nothing absorbs a broken operand. A formula whose top is not broken keeps its value at every entry,
so the verdict stays. For the double-free rule a chain of frees is never merged; a chain of uses is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from checker.contraction import contract, contractible
from checker.ctl import EG, EU, EX, And, Atom, Formula, Not, Or, TrueF, atoms, fold, normalize
from checker.model import RSM, Box, Component, Node, Ref
from checker.reduction import reduce_for_atoms
from checker.sharing import EDGES, shared

_CONST_T, _CONST_F, _SAME, _LOCAL, _BROKEN = "T", "F", "S", "L", "B"
_RANK = {_SAME: 0, _LOCAL: 1, _BROKEN: 2}


def _kind(f: Formula, labels: frozenset[str]) -> str:
    return fold(f, lambda g, kind: _kind_step(g, labels, kind))


def _kind_step(f: Formula, labels: frozenset[str], kind: Callable[[Formula], str]) -> str:
    match f:
        case TrueF():
            return _CONST_T
        case Atom(name=a):
            return _CONST_T if a in labels else _CONST_F
        case Not(arg=a):
            k = kind(a)
            return {_CONST_T: _CONST_F, _CONST_F: _CONST_T}.get(k, k)
        case Or(left=a, right=b):
            return _combine(kind(a), kind(b), absorbing=_CONST_T)
        case And(left=a, right=b):
            return _combine(kind(a), kind(b), absorbing=_CONST_F)
        case EX(arg=a):
            return _LOCAL if _RANK.get(kind(a), 0) == 0 else _BROKEN
        case EU(left=a, right=b):
            ka, kb = kind(a), kind(b)
            if _BROKEN in (ka, kb):
                return _BROKEN
            if kb == _CONST_T:
                return _CONST_T
            if ka == _CONST_F:
                return kb if kb != _LOCAL else _BROKEN
            return _SAME if _RANK.get(ka, 0) == 0 and _RANK.get(kb, 0) == 0 else _BROKEN
        case EG(arg=a):
            k = kind(a)
            if k == _CONST_F:
                return _CONST_F
            return _SAME if _RANK.get(k, 0) == 0 else _BROKEN
    return _BROKEN


def _combine(x: str, y: str, *, absorbing: str) -> str:
    if _BROKEN in (x, y):
        return _BROKEN
    if absorbing in (x, y):
        return absorbing
    consts = (_CONST_T, _CONST_F)
    if x in consts and y in consts:
        return x if x != absorbing else y  # both the neutral constant
    worst = max(_RANK.get(x, 0), _RANK.get(y, 0))
    return next(k for k, r in _RANK.items() if r == worst)


def stutter_safe(formula: Formula, labels: frozenset[str]) -> bool:
    """Whether merging a chain of nodes labelled ``labels`` keeps the formula's value at entries."""
    return _lens(formula).safe(labels)


class _Lens:
    """What the view needs of one formula, formed once: the view is asked for once per rule and
    value on every edit."""

    def __init__(self, formula: Formula) -> None:
        self.formula = formula
        self.seen = atoms(formula)
        self.contractible = contractible(formula)
        self.normal = normalize(formula)
        self._safe: dict[frozenset[str], bool] = {}

    def safe(self, labels: frozenset[str]) -> bool:
        got = self._safe.get(labels)
        if got is None:
            got = self._safe[labels] = _kind(self.normal, labels) != _BROKEN
        return got


_lenses: dict[Formula, _Lens] = {}


def _lens(formula: Formula) -> _Lens:
    """Keyed by the formula's content (its hash is computed once per formula object)."""
    got = _lenses.get(formula)
    if got is None:
        if len(_lenses) > 1024:
            _lenses.clear()
        got = _lenses[formula] = _Lens(formula)
    return got


def canonical(rsm: RSM, formula: Formula) -> RSM:
    """The verdict-preserving canonical view of ``rsm`` for ``formula`` (cached per model)."""
    lens = _lens(formula)
    key = ("canonical", formula)
    got = rsm.memo.get(key)
    if got is None:
        model = _contracted(rsm, lens.seen) if lens.contractible else rsm
        got = rsm.memo[key] = RSM(
            tuple(_canonical_component(c, lens) for c in model.components),
            model.initial_component,
            model.initial_node,
        )
    assert isinstance(got, RSM)
    return got


def _contracted(rsm: RSM, seen: frozenset[str]) -> RSM:
    """Blank nodes contracted, then calls into callees without the formula's atoms collapsed
    (:mod:`checker.reduction`), and what that leaves blank contracted too. Collapsing is sound here
    even with ``E X``: the collapsed call is a blank node, which the formula cannot see."""
    model = contract(rsm, seen)
    reduced = reduce_for_atoms(model, seen)
    return model if reduced is model else contract(reduced, seen)


def _canonical_component(comp: Component, lens: _Lens) -> Component:
    """Per component object, so an unchanged function's view is built once across edits."""
    got = comp._views.get(lens.formula)
    if got is None:
        got = comp._views[lens.formula] = _build(comp, lens)
    return got


def _build(comp: Component, lens: _Lens) -> Component:
    labels = {n.name: n.labels & lens.seen for n in comp.nodes}
    fixed = {n.name for n in comp.nodes if n.is_entry or n.is_exit}
    succ: dict[Ref, list[Ref]] = {}
    preds: dict[str, int] = {}
    for s, t in comp.edges:
        succ.setdefault(s, []).append(t)
        if isinstance(t, str):
            preds[t] = preds.get(t, 0) + 1
    gone: set[str] = set()
    for node in comp.nodes:
        u = node.name
        if u in fixed or u in gone:
            continue
        while True:
            outs = succ.get(u, [])
            if len(outs) != 1:
                break
            v = outs[0]
            if (
                not isinstance(v, str)
                or v == u
                or v in fixed
                or preds.get(v) != 1
                or labels[v] != labels[u]
                or not lens.safe(labels[u])
            ):
                break
            succ[u] = succ.pop(v, [])
            gone.add(v)
    names: dict[str, str] = {}
    for i, n in enumerate(n for n in comp.nodes if n.name not in gone):
        names[n.name] = n.name if n.name in fixed else _position_name("c", i)
    box_names = {b.name: _position_name("b", j) for j, b in enumerate(comp.boxes)}

    def ref(r: Ref) -> Ref:
        return names[r] if isinstance(r, str) else shared((box_names[r[0]], r[1]), EDGES)

    edges = tuple(
        shared((ref(s), ref(t)), EDGES) for s, ts in succ.items() if not (isinstance(s, str) and s in gone) for t in ts
    )
    return Component(
        comp.name,
        tuple(
            shared(Node(names[n.name], shared(labels[n.name]), n.is_entry, n.is_exit))
            for n in comp.nodes
            if n.name not in gone
        ),
        tuple(Box(box_names[b.name], b.component, b.call_nodes, b.return_nodes) for b in comp.boxes),
        shared(edges),
    )


def _position_name(prefix: str, i: int) -> str:
    """``f"{prefix}{i}"``, one string object per name: views repeat the same position names (and
    edges between them, and nodes, which are shared too), and a big check holds millions.
    ``sys.intern`` rather than a list by position: its table is safe across threads."""
    return sys.intern(f"{prefix}{i}")
