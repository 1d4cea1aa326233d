"""What a caller sees of its value through a callee that reassigns the parameter holding it.

C passes arguments by value: in ``g(char *p)``, ``p = other()``, ``p++`` or ``p += n`` change
only g's copy of the pointer. From there on ``p`` no longer names the caller's block (or names a
position inside it that the caller's own pointer does not hold), so what g does through ``p``
afterwards is g's business: ``p++; free(p)`` is g's free of a moved pointer (g's own finding), not
a free of the caller's block that would make the caller's later ``free(buf)`` a double free, and
``buf++`` in a loop is no move of the caller's ``buf`` that makes its later ``free(buf)`` a free of
a non-heap pointer (zlib's ``crc32_little``).

The projection ``g@k`` of g on its parameter ``k`` is what g's own check reads, every event on
``p`` included. A box of a caller goes instead to the *handed* view ``g@k^`` (:func:`handed_view`):
the same component, except that a node giving ``p`` a new value (:func:`reassigning_nodes`)
loses the labels that speak of the new value (``def``, ``nonheap``, ``alloc`` ...) and leads into
an unlabelled copy of the rest of g, where g's paths (returns, loops, dead ends) are kept but no
event on ``p``, and no call ``p`` is handed to, is shown. Events on the old value at that node
(``p = p->next`` dereferences it, ``p = realloc(p, n)`` frees it) stay.

What is done to the pointed-to object before the reassignment (``free(p)``, ``*p = v``) still
reaches the caller. Copies of ``p`` (``q = p``) stop being followed when ``p`` is reassigned
(:mod:`extractors.aliases`), so nothing they do afterwards was shown before either. Only a plain
parameter is handled: a field path of one (``p->f``) keeps every event, as before.

Invariant: the handed view shows a subset of the labels of ``g@k``, each at a node of the same
CFG node, and has the same ways to g's exit; it equals ``g@k`` (renamed) when no node reassigns the
parameter, and is then not made at all (the box goes to ``g@k``).

In-object moves are not replacements. After ``p++``, ``p--``, ``p += n``, ``p -= n`` or
``p = p + n`` (:func:`moving_nodes`) ``p`` still points into the caller's block, so what g reads or
dereferences through it is done to the caller's block: ``free(b); parse(b)`` with
``parse(char *p) { p += 4; return p[0]; }`` is a use after free in the caller. Such a node leads
instead into a *moved* copy of the rest of g that keeps every label except those about the pointer
itself as a block's handle (:data:`MOVED_AWAY`: ``free``, ``nonheap``, ``cmp``, ``def`` ...), which
would make the caller's ``free(buf)`` a free-non-heap (zlib's ``crc32_little``) or g's ``free`` of
its moved pointer a double free in the caller. A replacement met in the moved copy leads on into
the unlabelled copy. The moved copy is call-free like the unlabelled one: what a callee g hands the
moved pointer to does is not shown (a known gap, never a false finding).

Pure: a component and its node metadata in, a component and metadata out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from checker.model import Box, Component, Node, Ref
from checker.sharing import shared
from extractors.functions import FunctionModel

if TYPE_CHECKING:
    from extractors.projection import NodeMeta

HANDED = "^"  # suffix of the handed view's component name (and of its copied nodes' names)
# labels of a reassigning node that speak of the value it stores, not of the caller's object
NEW_VALUE = frozenset({"def", "write", "null", "alloc", "open", "stack", "nonheap", "addr", "maynull", "reset"})
# labels a moved copy drops: the new value's, and those about the pointer as a block's handle. Every
# def of the parameter is at a reassigning node, so none is left in a moved copy: the caller's
# ``free(b)`` then ``use`` through the moved pointer is no longer interrupted (use-after-free), and
# the free-non-heap rule (``nonheap & E X E (~((def & ~nonheap) | cmp) U free)``) sees neither the
# moved pointer's ``nonheap`` nor its ``free`` nor its comparisons.
MOVED_AWAY = NEW_VALUE | {"free", "close", "cmp"}
# structural labels a copied node keeps (returns and the exit stay visible to witnesses and rules)
_KEPT = frozenset({"$return", "exit"})


def reassigning_nodes(fm: FunctionModel, v: str) -> frozenset[int]:
    """The CFG nodes of ``fm`` that give ``v`` a new value, when ``v`` is one of its parameters
    (not shadowed by a local): an assignment, ``v++``, ``v += n``, ``&v`` handed on. Empty for any
    other value."""
    if v not in fm.params or v in fm.cfg.declared:
        return shared(frozenset())
    return shared(frozenset(n.id for n in fm.cfg.nodes if (v, "def") in n.events))


_TOKEN = re.compile(r"\w+|\+\+|--|->|[-+*/%&|^<>!=]=|<<=|>>=|\S")
_MOVE_OPS = frozenset({"++", "--"})
_MOVE_ASSIGN = frozenset({"+=", "-="})
_ASSIGN = frozenset({"=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})


def _is_move(text: str, v: str) -> bool:
    """Whether ``text`` gives ``v`` a new value only by moving it inside the object it points to:
    at least one ``v++``, ``--v``, ``v += n``, ``v -= n`` or ``v = v + n`` / ``v = v - n``, and
    no other assignment to ``v`` nor ``&v`` (through which a callee may replace it). A field
    (``s.v``, ``s->v``) and a store through ``v`` (``*v = x``) are not ``v``. Text it cannot read
    (a macro that assigns, say) is no move, so the node cuts everything, as before."""
    toks = _TOKEN.findall(text)
    moves = 0
    for i, t in enumerate(toks):
        if t != v:
            continue
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if prev in (".", "->"):
            continue
        if prev in _MOVE_OPS or nxt in _MOVE_OPS or nxt in _MOVE_ASSIGN:
            moves += 1
        elif nxt == "=" and prev != "*":
            if toks[i + 2 : i + 3] == [v] and toks[i + 3 : i + 4] in (["+"], ["-"]):
                moves += 1
            else:
                return False
        elif nxt in _ASSIGN and prev != "*" or prev == "&":
            return False
    return moves > 0


def moving_nodes(fm: FunctionModel, v: str) -> frozenset[int]:
    """The :func:`reassigning_nodes` of ``fm`` that only move ``v`` inside its object
    (:func:`_is_move`): after them ``v`` still points into the caller's block."""
    return frozenset(i for i in reassigning_nodes(fm, v) if _is_move(fm.cfg.nodes[i].source or fm.cfg.nodes[i].text, v))


def handed_name(name: str) -> str:
    """The name of the handed view of component ``name``."""
    return name + HANDED


def handed_view(
    comp: Component, meta: dict[str, NodeMeta], cut: frozenset[int], moves: frozenset[int] = frozenset()
) -> tuple[Component, dict[str, NodeMeta]]:
    """The component a caller's box goes to: ``comp`` with each node of a CFG node in ``cut``
    stripped of :data:`NEW_VALUE` and led, after its own calls, into a call-free copy of what
    follows it: a moved copy (labels less :data:`MOVED_AWAY`) when the node is in ``moves`` (a
    subset of ``cut``), else an unlabelled one; nodes no longer reachable from the entry are
    dropped. A moved copy of a node in ``cut`` but not in ``moves`` leads into unlabelled copies."""
    name = handed_name(comp.name)
    out: dict[Ref, list[Ref]] = {}
    for s, t in comp.edges:
        out.setdefault(s, []).append(t)
    exits = set(comp.exits)
    boxes_of: dict[str, list[str]] = {}
    for b in comp.boxes:
        boxes_of.setdefault(b.name.rpartition("#")[0], []).append(b.name)
    cutting = {
        n.name for n in comp.nodes if (m := meta.get(n.name)) is not None and m.kind != "branch" and m.cfg_id in cut
    }
    if not cutting:
        return replace(comp, name=name), meta

    # a box's calls are ((box, ENTRY) in, (box, EXIT) out): skip from its entry to its exit's edges
    box_exit = {b.name: b.return_nodes for b in comp.boxes}

    def skip(src: Ref) -> list[str]:
        got: dict[str, None] = {}
        todo: list[Ref] = list(out.get(src, ()))
        seen: set[Ref] = set()
        while todo:
            t = todo.pop()
            if isinstance(t, str):
                got[t] = None
            elif t not in seen:
                seen.add(t)
                for r in box_exit[t[0]]:
                    todo.extend(out.get((t[0], r), ()))
        return list(got)

    replacing = {n for n in cutting if (m := meta.get(n)) is not None and m.cfg_id not in moves}
    # (node, moved) -> its copy: unlabelled (moved False) or moved; an exit is its own
    copies: dict[tuple[str, bool], str] = {}
    todo: list[tuple[str, bool]] = []

    def copy_of(n: str, moved: bool) -> str:
        if n in exits:
            return n
        got = copies.get((n, moved))
        if got is None:
            got = copies[(n, moved)] = n + (HANDED + HANDED if moved else HANDED)
            todo.append((n, moved))
        return got

    ends: dict[Ref, bool] = {}  # where each cutting node's step ends (after its last call) -> moved
    for n in cutting:
        calls = sorted(boxes_of.get(n, ()), key=lambda b: int(b.rpartition("#")[2]))
        if calls:
            ends.update(((calls[-1], r), n not in replacing) for r in box_exit[calls[-1]])
        else:
            ends[n] = n not in replacing
    edges: list[tuple[Ref, Ref]] = []
    for s, t in comp.edges:
        edges.append((s, copy_of(t, ends[s])) if s in ends and isinstance(t, str) else (s, t))
    while todo:
        n, moved = todo.pop()
        onward = moved and n not in replacing  # a replacement in the moved copy cuts everything
        for t in skip(n):
            edges.append((copies[(n, moved)], copy_of(t, onward)))
    nodes: list[Node] = []
    new_meta = dict(meta)
    for node in comp.nodes:
        nodes.append(replace(node, labels=shared(node.labels - NEW_VALUE)) if node.name in cutting else node)
        if node.name in cutting and (m := meta.get(node.name)) is not None:
            new_meta[node.name] = replace(m, labels=m.labels - NEW_VALUE)
    for (original, moved), c in copies.items():
        labels = comp.node(original).labels - MOVED_AWAY if moved else comp.node(original).labels & _KEPT
        nodes.append(Node(c, shared(labels)))
        if (m := meta.get(original)) is not None:
            new_meta[c] = replace(m, labels=m.labels - MOVED_AWAY if moved else frozenset())
    return _reachable(Component(name, tuple(nodes), comp.boxes, tuple(edges)), new_meta)


def _reachable(comp: Component, meta: dict[str, NodeMeta]) -> tuple[Component, dict[str, NodeMeta]]:
    """``comp`` without the nodes, boxes and edges the entry no longer reaches (the exit stays)."""
    out: dict[Ref, list[Ref]] = {}
    for s, t in comp.edges:
        out.setdefault(s, []).append(t)
    box_exit = {b.name: b.return_nodes for b in comp.boxes}
    seen: set[Ref] = set(comp.entries)
    todo: list[Ref] = list(comp.entries)
    while todo:
        r = todo.pop()
        nxt = list(out.get(r, ()))
        if not isinstance(r, str) and r[1] not in box_exit[r[0]]:
            nxt += [(r[0], x) for x in box_exit[r[0]]]  # a call returns through the callee
        for t in nxt:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    nodes = tuple(n for n in comp.nodes if n.name in seen or n.is_exit)
    boxes: tuple[Box, ...] = tuple(b for b in comp.boxes if any((b.name, e) in seen for e in b.call_nodes))
    kept = {n.name for n in nodes} | {b.name for b in boxes}
    edges = tuple((s, t) for s, t in comp.edges if (s if isinstance(s, str) else s[0]) in kept)
    return Component(comp.name, nodes, boxes, edges), {k: m for k, m in meta.items() if k in kept}
