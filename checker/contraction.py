"""Contraction of the nodes a formula cannot see: smaller models, and results that survive edits.

A node none of whose labels is in ``keep`` (a superset of the formula's atoms) is *blank* for the
formula. Removing a blank node and routing its predecessors to its successors keeps every verdict
exactly when each subformula a temporal operator reads is *transparent* at blank nodes: its value
there equals "some successor has it". Then a predecessor that asked the blank node asks its
successors instead and gets the same answer. Transparency is decided syntactically on the normal
form (``kind``):

- at a blank node an atom is false (``F``): a constant *there*, not at its successors; ``true`` is
  true everywhere (``1``, and its negation ``0``);
- ``E X g`` is transparent (``E``) by definition; a predecessor's ``E X g`` survives the contraction
  when ``g`` is transparent too;
- ``E (a U b)`` is transparent when ``a`` is true at blank nodes and ``b`` false there or
  transparent; ``E G c`` when ``c`` is true at blank nodes (blank cycles are never contracted, so
  infinite paths stay);
- negation swaps ``E`` (some successor) and ``A`` (every successor); ``or`` keeps ``E``, ``and``
  keeps ``A``, and a constant absorbs or is neutral; but a constant only of blank nodes is no
  neutral for the successors: ``~a & E F a`` is ``E F a`` at a blank node, not "some successor has
  ``~a & E F a``" (a successor may have ``a``), so such a combination is *none* (``N``): its value
  at blank nodes may be anything, which only a temporal operator reading it cannot accept. Such a
  read, or any other shape, makes the formula checked on the whole model.

The rules of the C front end (``E F (x & E X E (~y U z))`` and the dead-store ``A X A (...)``) are
all contractible: a statement that does nothing the rule looks at is invisible to it, so an edit
that adds or removes such statements leaves the rule's model, and its cached result, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from checker.ctl import EG, EU, EX, And, Atom, Formula, Not, Or, TrueF, fold, normalize
from checker.graphs import strongly_connected, through_passable
from checker.model import RSM, Component, Ref
from checker.sharing import EDGES, shared

_CONST_T, _CONST_F, _SOME, _ALL, _NONE = "T", "F", "E", "A", "N"  # at blank nodes
_TRUE, _FALSE = "1", "0"  # everywhere
_NEGATE = {_CONST_T: _CONST_F, _CONST_F: _CONST_T, _SOME: _ALL, _ALL: _SOME, _TRUE: _FALSE, _FALSE: _TRUE, _NONE: _NONE}


class _Opaque(Exception):
    """A subformula whose value at a blank node is not determined by the successors."""


def _kind(f: Formula) -> str:
    return fold(f, _kind_step)


def _kind_step(f: Formula, kind: Callable[[Formula], str]) -> str:
    match f:
        case TrueF():
            return _TRUE
        case Atom():
            return _CONST_F
        case Not(arg=a):
            return _NEGATE[kind(a)]
        case Or(left=a, right=b):
            return _combine(kind(a), kind(b), absorbing=(_TRUE, _CONST_T), neutral=(_FALSE, _CONST_F), kept=_SOME)
        case And(left=a, right=b):
            return _combine(kind(a), kind(b), absorbing=(_FALSE, _CONST_F), neutral=(_TRUE, _CONST_T), kept=_ALL)
        case EX(arg=a):
            if kind(a) != _SOME:
                raise _Opaque
            return _SOME
        case EU(left=a, right=b):
            kb = kind(b)
            if kind(a) not in (_TRUE, _CONST_T) or kb not in (_FALSE, _CONST_F, _SOME, _TRUE):
                raise _Opaque
            return _TRUE if kb == _TRUE else _SOME
        case EG(arg=a):
            if kind(a) not in (_TRUE, _CONST_T):
                raise _Opaque
            return _SOME
    raise _Opaque


def _combine(x: str, y: str, *, absorbing: tuple[str, str], neutral: tuple[str, str], kept: str) -> str:
    """``and``/``or`` of kinds ``x`` and ``y``: ``absorbing`` and ``neutral`` are the constants
    everywhere, then at blank nodes only, of that connective."""
    everywhere, blank = absorbing
    if everywhere in (x, y):
        return everywhere
    if blank in (x, y):
        return blank
    if x == neutral[0]:
        return y
    if y == neutral[0]:
        return x
    if x in neutral and y in neutral:
        return neutral[1]
    if x == y == kept:
        return kept
    return _NONE  # a blank node's own constant, or E with A: its value there is no successor's


@lru_cache(maxsize=1024)
def contractible(formula: Formula) -> bool:
    """Whether nodes without the formula's atoms may be contracted without changing its verdict."""
    try:
        _kind(normalize(formula))
    except _Opaque:
        return False
    return True


def contract(rsm: RSM, keep: frozenset[str]) -> RSM:
    """``rsm`` without its blank nodes (cached per model and ``keep``); see the module docstring.

    Entries, exits, nodes on blank cycles and blank dead ends stay, so that the runs that never
    leave blank nodes keep their meaning.
    """
    key = ("contracted", keep)
    got = rsm.memo.get(key)
    if got is None:
        comps = tuple(_contract_component(c, keep) for c in rsm.components)
        got = rsm if all(a is b for a, b in zip(comps, rsm.components, strict=True)) else RSM(
            comps, rsm.initial_component, rsm.initial_node
        )
        rsm.memo[key] = got
    return got  # type: ignore[return-value]


def _contract_component(comp: Component, keep: frozenset[str]) -> Component:
    cache = comp._contracted
    got = cache.get(keep)
    if got is not None:
        return got
    succ: dict[Ref, list[Ref]] = {}
    for s, t in comp.edges:
        succ.setdefault(s, []).append(t)
    blank = {
        n.name
        for n in comp.nodes
        if not n.is_entry and not n.is_exit and not (n.labels & keep) and succ.get(n.name)
    }
    if blank:
        for scc in strongly_connected(sorted(blank), lambda v: [t for t in succ.get(v, ()) if t in blank]):
            if len(scc) > 1 or scc[0] in succ.get(scc[0], ()):
                blank.difference_update(scc)
    if not blank:
        cache[keep] = comp
        return comp
    through = through_passable(lambda r: succ.get(r, ()), lambda r: isinstance(r, str) and r in blank)

    edges: dict[tuple[Ref, Ref], None] = {}
    for s, ts in succ.items():
        if isinstance(s, str) and s in blank:
            continue
        for t in ts:
            for u in through(t):
                edges[(s, u)] = None
    got = Component(
        comp.name,
        tuple(n for n in comp.nodes if n.name not in blank),
        comp.boxes,
        tuple(shared(e, EDGES) for e in edges),
    )
    cache[keep] = got
    return got
