"""Graph helpers shared by the model (call-graph SCCs) and the reduction (divergence, relevance)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from checker.sharing import shared

T = TypeVar("T", bound=Hashable)


def strongly_connected(nodes: Iterable[T], succ: Callable[[T], Iterable[T]]) -> list[list[T]]:
    """Tarjan's strongly connected components, successors' components first.

    Iterative, because call chains and control-flow paths of real programs are deeper than
    Python's recursion limit.
    """
    index: dict[T, int] = {}
    low: dict[T, int] = {}
    on_stack: set[T] = set()
    stack: list[T] = []
    out: list[list[T]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[T, Iterable[T]]] = [(root, iter(succ(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ(w))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                scc = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    scc.append(w)
                    if w == v:
                        break
                out.append(scc)
    return out


def closure(seeds: Iterable[T], step: Callable[[T], Iterable[T]]) -> set[T]:
    """Everything reachable from ``seeds`` by ``step``, the seeds included."""
    seen = set(seeds)
    todo = list(seen)
    while todo:
        for nxt in step(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def through_passable(
    succ: Callable[[T], Iterable[T]], passable: Callable[[T], bool]
) -> Callable[[T], tuple[T, ...]]:
    """A memoised map from a node to the non-passable nodes it reaches through passable ones only
    (itself if it is not passable). Meant for passable nodes that form a DAG; on a passable cycle
    the walk does not loop (a node being resolved adds nothing to its own result). Iterative.

    Contracting nodes out of a graph is this map applied to every successor of a kept node.
    """
    memo: dict[T, tuple[T, ...]] = {}
    active: set[T] = set()

    def resolve(start: T) -> tuple[T, ...]:
        if not passable(start):
            return (start,)
        stack = [start]
        while stack:
            x = stack[-1]
            if x in memo:
                stack.pop()
                continue
            active.add(x)
            pending = [y for y in succ(x) if passable(y) and y not in memo and y not in active]
            if pending:
                stack.extend(pending)
                continue
            out: dict[T, None] = {}
            for y in succ(x):
                for z in memo.get(y, ()) if passable(y) else (y,):
                    out[z] = None
            memo[x] = tuple(out)
            active.discard(x)
            stack.pop()
        return memo[start]

    return resolve


U = TypeVar("U", bound=Hashable)


def reach_union(
    start: T,
    succ: Callable[[T], Iterable[T]],
    local: Callable[[T], frozenset[U] | None],
    memo: dict[T, frozenset[U] | None],
) -> frozenset[U] | None:
    """The union of ``local`` over every node reachable from ``start`` (itself included), or None
    when any of them gives None.

    Kept per node in ``memo``, a strongly connected component at a time: the many starts that
    share most of what they reach (every value projected through one recursive cycle) pay for
    what they share once, where a walk per start paid for it every time.
    """
    if start in memo:
        return memo[start]
    for scc in strongly_connected([start], lambda n: [m for m in succ(n) if m not in memo]):
        members = set(scc)
        acc: set[U] = set()
        result: frozenset[U] | None = None
        complete = True
        for n in scc:
            for part in (local(n), *(memo[m] for m in succ(n) if m not in members)):
                if part is None:
                    complete = False
                    break
                acc |= part
            if not complete:
                break
        if complete:
            result = shared(frozenset(acc))  # many starts reach the same things
        for n in scc:
            memo[n] = result
    return memo[start]
