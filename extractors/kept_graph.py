"""Contracting a function's graph to the nodes a projection keeps, reusing what all share.

A projection keeps the nodes labelled for its value plus the function's skeleton (loop heads,
labels, returns, entry, exit, one sink) and links each kept node to the kept nodes it reaches
through the others.  Walking the whole function for every value made huge functions quadratic
(sqlite3VdbeExec: 866 values x 8,470 nodes).  :func:`base_of` contracts the skeleton once; a value
then differs from it only around a few *dirty* nodes (kept for the value, split by a NULL test or
a call, or given back their own edges), and :func:`contract` re-walks only the nodes that reach a
dirty one through nodes the skeleton does not keep.  Everything else is read from the base.

Invariant: ``contract(succ, kept, base_of(base_succ, base_kept))`` equals ``contract_all(succ,
kept)``, target order included, when the nodes not kept form a DAG.  When they do not (the walk
through a cycle depends on where it starts), the base is not used.  ``succ`` of a projection must
share the lists it did not change with the base (a changed list is a new list object).

Pure: successor lists and flags in, targets out.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import is_not, ne, or_

from checker.graphs import through_passable

Targets = dict[int, Sequence[int]]


@dataclass(frozen=True)
class Base:
    """The skeleton's contraction: per node a kept node can walk to, the kept nodes it resolves to
    (itself if kept), and per kept node its targets; ``reach`` is None when the unkept nodes
    that kept nodes lead to have a cycle."""

    succ: Sequence[list[int]]
    kept: Sequence[bool]
    preds: tuple[tuple[int, ...], ...]
    reach: tuple[tuple[int, ...] | None, ...] | None  # per node; None where no kept node leads
    targets: dict[int, tuple[int, ...]]


def base_of(succ: Sequence[list[int]], kept: Sequence[bool]) -> Base:
    n = len(succ)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, out in enumerate(succ):
        for j in out:
            preds[j].append(i)
    memo: dict[int, tuple[int, ...]] = {}
    starts = [j for i in compress(range(n), kept) for j in succ[i]]  # what a kept node walks
    if any(_resolve(j, succ, kept, memo, (), _NONE) is None for j in starts):
        return Base(succ, kept, tuple(map(tuple, preds)), None, {})
    reach = tuple((j,) if kept[j] else memo.get(j) for j in range(n))
    targets = {i: _union(succ[i], lambda j: reach[j] or ()) for i in compress(range(n), kept)}
    return Base(succ, kept, tuple(map(tuple, preds)), reach, targets)


def contract(succ: Sequence[list[int]], kept: Sequence[bool], base: Base | None = None) -> Targets:
    """For each kept node, the kept nodes it reaches through nodes not kept, in a fixed order."""
    if base is None or base.reach is None:
        return contract_all(succ, kept)
    n, bsucc, bkept = len(base.succ), base.succ, base.kept
    # nodes past n are new (split off by the projection): only the base's own can be dirty
    dirty = list(compress(range(n), map(or_, map(is_not, succ, bsucc), map(ne, kept, bkept))))
    stale = set(dirty)  # nodes whose walk may differ from the base's
    again: set[int] = set()  # kept nodes of the base with a dirty successor
    todo = list(dirty)
    while todo:
        d = todo.pop()
        for p in base.preds[d]:
            if bkept[p]:
                again.add(p)
            elif p not in stale:
                stale.add(p)
                todo.append(p)
    reach = base.reach
    memo: dict[int, tuple[int, ...]] = {}

    def resolved(j: int) -> tuple[int, ...]:
        if kept[j]:
            return (j,)
        got = reach[j] if j < n and j not in stale else None
        if got is None:
            got = memo.get(j) or _resolve(j, succ, kept, memo, reach, stale)
        if got is None:
            raise _Cyclic
        return got

    try:
        result: Targets = {}
        for i in compress(range(len(kept)), kept):
            if i < n and i not in stale and i not in again:
                result[i] = base.targets[i]
            else:
                result[i] = _union(succ[i], resolved)
        return result
    except _Cyclic:
        return contract_all(succ, kept)


def contract_all(succ: Sequence[list[int]], kept: Sequence[bool]) -> Targets:
    """:func:`contract` without a base: every walk from scratch (the reference it must equal)."""
    resolved = through_passable(succ.__getitem__, lambda j: not kept[j])
    return {i: _union(succ[i], resolved) for i in compress(range(len(kept)), kept)}


class _Cyclic(Exception):
    pass


_NONE: frozenset[int] = frozenset()


def _union(out: Sequence[int], resolved: Callable[[int], tuple[int, ...]]) -> tuple[int, ...]:
    got: dict[int, None] = {}
    for j in out:
        for t in resolved(j):
            got[t] = None
    return tuple(got)


def _resolve(
    start: int,
    succ: Sequence[list[int]],
    kept: Sequence[bool],
    memo: dict[int, tuple[int, ...]],
    reach: Sequence[tuple[int, ...] | None],
    stale: Container[int],
) -> tuple[int, ...] | None:
    """The kept nodes ``start`` (not kept) reaches through nodes not kept, memoised; a node of
    ``reach`` not in ``stale`` is answered by its entry there (when it has one) without walking it.
    None on a cycle of nodes not kept, where :func:`checker.graphs.through_passable`'s answer
    depends on where the walk started."""
    if kept[start]:
        return (start,)
    n = len(reach)
    active: set[int] = set()
    stack = [start]
    while stack:
        x = stack[-1]
        if x in memo:
            stack.pop()
            continue
        active.add(x)
        pending = []
        for y in succ[x]:
            if kept[y] or y in memo or (y < n and y not in stale and reach[y] is not None):
                continue
            if y in active:
                return None
            pending.append(y)
        if pending:
            stack.extend(pending)
            continue
        out: dict[int, None] = {}
        for y in succ[x]:
            if kept[y]:
                out[y] = None
                continue
            got = memo.get(y)
            # not kept and not walked: answered by ``reach`` (the first loop let it through)
            for z in got if got is not None else reach[y] or ():
                out[z] = None
        memo[x] = tuple(out)
        active.discard(x)
        stack.pop()
    return memo[start]
