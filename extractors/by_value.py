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

Pure: a component and its node metadata in, a component and metadata out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from checker.model import Box, Component, Node, Ref, shared_labels
from extractors.functions import FunctionModel

if TYPE_CHECKING:
    from extractors.projection import NodeMeta

HANDED = "^"  # suffix of the handed view's component name (and of its copied nodes' names)
# labels of a reassigning node that speak of the value it stores, not of the caller's object
NEW_VALUE = frozenset({"def", "write", "null", "alloc", "open", "stack", "nonheap", "addr", "maynull", "reset"})
# structural labels a copied node keeps (returns and the exit stay visible to witnesses and rules)
_KEPT = frozenset({"$return", "exit"})


def reassigning_nodes(fm: FunctionModel, v: str) -> frozenset[int]:
    """The CFG nodes of ``fm`` that give ``v`` a new value, when ``v`` is one of its parameters
    (not shadowed by a local): an assignment, ``v++``, ``v += n``, ``&v`` handed on. Empty for any
    other value."""
    if v not in fm.params or v in fm.cfg.declared:
        return frozenset()
    return frozenset(n.id for n in fm.cfg.nodes if (v, "def") in n.events)


def handed_name(name: str) -> str:
    """The name of the handed view of component ``name``."""
    return name + HANDED


def handed_view(
    comp: Component, meta: dict[str, NodeMeta], cut: frozenset[int]
) -> tuple[Component, dict[str, NodeMeta]]:
    """The component a caller's box goes to: ``comp`` with each node of a CFG node in ``cut``
    stripped of :data:`NEW_VALUE` and led, after its own calls, into an unlabelled, call-free copy
    of what follows it; nodes no longer reachable from the entry are dropped."""
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

    copies: dict[str, str] = {}  # node -> its unlabelled copy (an exit is its own)
    todo: list[str] = []

    def copy_of(n: str) -> str:
        if n in exits:
            return n
        got = copies.get(n)
        if got is None:
            got = copies[n] = n + HANDED
            todo.append(n)
        return got

    ends: set[Ref] = set()  # where each cutting node's step ends: after its last call, if any
    for n in cutting:
        calls = sorted(boxes_of.get(n, ()), key=lambda b: int(b.rpartition("#")[2]))
        if calls:
            ends.update((calls[-1], r) for r in box_exit[calls[-1]])
        else:
            ends.add(n)
    edges: list[tuple[Ref, Ref]] = []
    for s, t in comp.edges:
        edges.append((s, copy_of(t)) if s in ends and isinstance(t, str) else (s, t))
    while todo:
        n = todo.pop()
        for t in skip(n):
            edges.append((copies[n], copy_of(t)))
    nodes: list[Node] = []
    new_meta = dict(meta)
    for node in comp.nodes:
        nodes.append(replace(node, labels=shared_labels(node.labels - NEW_VALUE)) if node.name in cutting else node)
        if node.name in cutting and (m := meta.get(node.name)) is not None:
            new_meta[node.name] = replace(m, labels=m.labels - NEW_VALUE)
    for original, c in copies.items():
        nodes.append(Node(c, shared_labels(comp.node(original).labels & _KEPT)))
        if (m := meta.get(original)) is not None:
            new_meta[c] = replace(m, labels=frozenset())
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
