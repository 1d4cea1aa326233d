"""Components compiled to dense integer positions, the form the algorithms work on.

Positions are the component's nodes, then per box its call nodes and return nodes.  A call node
stands for the callee entry (its value is the callee instance's entry value); a return node is a
local position labelled like the callee exit it returns from.  Non-exit nodes and return nodes
without successors get a self-loop: a run that cannot move stays where it is, which gives EX, EG
and EU one consistent meaning on such dead ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Protocol

from checker.model import RSM, Component, Ref

NORMAL, CALL, RETURN = 0, 1, 2


@dataclass(frozen=True, eq=False)
class Compiled:
    name: str
    n: int
    refs: tuple[Ref, ...]
    labels: tuple[frozenset[str], ...]
    kind: tuple[int, ...]
    is_exit: tuple[bool, ...]
    succ: tuple[tuple[int, ...], ...]
    pred: tuple[tuple[int, ...], ...]
    entry_pos: dict[str, int]
    exit_pos: dict[str, int]
    box_names: tuple[str, ...]
    box_callee: tuple[str, ...]
    calls: tuple[tuple[int, int, str], ...]  # (position, box index, callee entry)
    ret_pos: tuple[dict[Ref, int], ...]  # per box: callee exit -> return position
    leaves: tuple[int, ...]  # call positions and exits: values come from elsewhere
    inner: tuple[int, ...]  # every other position: values are deduced locally
    pos_of: dict[Ref, int]
    call_at: dict[int, tuple[int, str]]  # call position -> (box index, callee entry)
    returns: tuple[int, ...]  # every return position, where a caller learns its callees' contexts
    is_leaf: tuple[bool, ...]  # per position: whether it is in ``leaves``
    exits_out: tuple[tuple[tuple[str, int | None], ...], ...]  # per box: (callee exit, return position)
    entry_values: Callable[[list[int]], object]  # the values at the entries, compared as one object
    return_values: Callable[[list[int]], object]  # the values at the return positions, likewise


def _picker(positions: tuple[int, ...]) -> Callable[[list[int]], object]:
    """``itemgetter`` over positions (C speed on the hot path of deduction); () for none."""
    if not positions:
        return lambda _values: ()
    return itemgetter(*positions)


CompiledKey = tuple[Component, ...]


class CompiledMemo(Protocol):
    """Where compiled components are kept across models: the owner's bounded store (a project's
    query database), read and written by the checking thread only."""

    def get(self, key: CompiledKey) -> Compiled | None: ...

    def __setitem__(self, key: CompiledKey, value: Compiled) -> None: ...


def compile_shared(comp: Component, rsm: RSM, shared: CompiledMemo | None = None) -> Compiled:
    """``compile_component``, reused through ``shared`` for equal components calling equal callees.

    A compiled component depends on nothing else, and after an edit most components of a changed
    model are those of the model before it. Keyed by the components themselves (equal and hashed
    by content; the hash is computed once per component, and equal objects compare by identity
    first), so an entry is right for as long as it exists.  Without ``shared`` each model compiles
    its own (the engine still compiles each component of a model once).
    """
    if shared is None:
        return compile_component(comp, rsm)
    key = (comp, *(rsm.component(b.component) for b in comp.boxes))
    hit = shared.get(key)
    if hit is not None:
        return hit
    compiled = compile_component(comp, rsm)
    shared[key] = compiled
    return compiled


def compile_component(comp: Component, rsm: RSM) -> Compiled:
    refs: list[Ref] = []
    labels: list[frozenset[str]] = []
    kind: list[int] = []
    is_exit: list[bool] = []
    entry_pos: dict[str, int] = {}
    exit_pos: dict[str, int] = {}
    for i, node in enumerate(comp.nodes):
        refs.append(node.name)
        labels.append(node.labels)
        is_exit.append(node.is_exit)
        if node.is_entry:
            entry_pos[node.name] = i
        if node.is_exit:
            exit_pos[node.name] = i
    kind += [NORMAL] * len(refs)
    calls: list[tuple[int, int, str]] = []
    ret_pos: list[dict[Ref, int]] = []
    for bi, box in enumerate(comp.boxes):
        callee = rsm.component(box.component)
        for en in box.call_nodes:
            calls.append((len(refs), bi, en))
            refs.append((box.name, en))
            labels.append(callee.node(en).labels)
            kind.append(CALL)
            is_exit.append(False)
        rp: dict[Ref, int] = {}
        for ex in box.return_nodes:
            rp[ex] = len(refs)
            refs.append((box.name, ex))
            labels.append(callee.node(ex).labels)
            kind.append(RETURN)
            is_exit.append(False)
        ret_pos.append(rp)
    pos_of = dict(zip(refs, range(len(refs)), strict=True))
    succ: list[list[int]] = [[] for _ in refs]
    for s, t in comp.edges:
        si, ti = pos_of[s], pos_of[t]
        if ti not in succ[si]:
            succ[si].append(ti)
    for i in range(len(refs)):
        if not succ[i] and kind[i] != CALL and not is_exit[i]:
            succ[i].append(i)
    pred: list[list[int]] = [[] for _ in refs]
    for i, ss in enumerate(succ):
        for j in ss:
            pred[j].append(i)
    leaves = tuple(i for i in range(len(refs)) if kind[i] == CALL or is_exit[i])
    inner = tuple(i for i in range(len(refs)) if not (kind[i] == CALL or is_exit[i]))
    return Compiled(
        name=comp.name,
        n=len(refs),
        refs=tuple(refs),
        labels=tuple(labels),
        kind=tuple(kind),
        is_exit=tuple(is_exit),
        succ=tuple(tuple(s) for s in succ),
        pred=tuple(tuple(p) for p in pred),
        entry_pos=entry_pos,
        exit_pos=exit_pos,
        box_names=tuple(b.name for b in comp.boxes),
        box_callee=tuple(b.component for b in comp.boxes),
        calls=tuple(calls),
        ret_pos=tuple(ret_pos),
        leaves=leaves,
        inner=inner,
        pos_of=pos_of,
        call_at={p: (bi, en) for p, bi, en in calls},
        returns=tuple(i for i in range(len(refs)) if kind[i] == RETURN),
        is_leaf=tuple(kind[i] == CALL or is_exit[i] for i in range(len(refs))),
        exits_out=tuple(
            tuple((ex, ret_pos[bi].get(ex)) for ex in rsm.component(box.component).exits)
            for bi, box in enumerate(comp.boxes)
        ),
        entry_values=_picker(tuple(i for i, n in enumerate(comp.nodes) if n.is_entry)),
        return_values=_picker(tuple(i for i in range(len(refs)) if kind[i] == RETURN)),
    )
