"""Copies of a tracked value: the locals that hold what it held, on every path to a node.

``q = p; free(p); *q`` is a use after free of the block ``p`` names, though no statement after the
free mentions ``p``. A projection on ``p`` therefore also shows what is done, through such a copy,
to the object ``p`` holds: its free, dereference, close, NULL test, escape, and the calls it is
handed to. The copies are *must*-aliases (held on every path to the node), so that a copy made on
one branch only never lends its events to a path where it holds something else: a false alarm
costs more than a missed one.

A copy stops being one when it is assigned anything else; every copy stops when the tracked path
itself gets a new value (the copies then hold the old object, which is no longer the one the
projection follows). Only plain locals whose address is never taken are followed (nothing else can
assign them behind the function's back); fields, globals and statics are not. Copies of copies are
copies (``r = q`` after ``q = p``).

Pure: a function of the CFG and the value.
"""

from __future__ import annotations

from checker.sharing import shared
from extractors.cfg import Cfg, CfgNode

# what a copy does to the object it holds, shown on the tracked value; assignments to the copy
# (def, write, alloc, null ...) are about the copy variable and only end the aliasing
SHARED_ATOMS = frozenset({"free", "use", "close", "escape", "ret", "cmp", "notnull", "lock", "unlock"})
# events after which a path holds something new
_ASSIGNING = frozenset({"def", "write", "null", "alloc", "open", "stack", "nonheap", "addr"})


def copy_table(cfg: Cfg) -> dict[str, dict[int, frozenset[str]]]:
    """Per copied value ``v``, per CFG node (those with any), the locals holding ``v``'s value on
    every path into it: every value's must-aliases from one pass over the function.

    The state at a node maps each followed local to the values it is a copy of there (a copy of a
    copy is a copy of both); the meet keeps a local's values common to every reached predecessor.
    One pass for all values, where a pass per value made huge functions quadratic.
    """
    if not any(n.copies for n in cfg.nodes):
        return {}
    followed = {name for name in cfg.declared if name not in cfg.addr_taken and name not in cfg.static_locals}
    preds: list[list[int]] = [[] for _ in cfg.nodes]
    for u, succ in enumerate(cfg.succ):
        for w, _ in succ:
            preds[w].append(u)
    out: list[_State | None] = [None] * len(cfg.nodes)  # None: not reached yet (top)
    into: list[_State] = [_NOTHING] * len(cfg.nodes)
    todo = [cfg.entry]
    queued = {cfg.entry}
    while todo:
        n = todo.pop()
        queued.discard(n)
        held = _NOTHING if n == cfg.entry else _meet([s for p in preds[n] if (s := out[p]) is not None])
        into[n] = held
        new = _transfer(cfg.nodes[n], held, followed)
        if new != out[n]:
            out[n] = new
            for w, _ in cfg.succ[n]:
                if w not in queued:
                    queued.add(w)
                    todo.append(w)
    table: dict[str, dict[int, set[str]]] = {}
    for n, held in enumerate(into):
        for local, values in held.items():
            for v in values:
                table.setdefault(v, {}).setdefault(n, set()).add(local)
    return {v: {n: shared(frozenset(locals_)) for n, locals_ in per.items()} for v, per in table.items()}


_State = dict[str, frozenset[str]]  # followed local -> the values it holds a copy of
_NOTHING: _State = {}


def _meet(states: list[_State]) -> _State:
    if not states:
        return _NOTHING
    first, rest = states[0], states[1:]
    if not rest:
        return first
    out: _State = {}
    for local, values in first.items():
        for other in rest:
            got = other.get(local)
            if got is None:
                break
            values = values & got
            if not values:
                break
        else:
            out[local] = values
    return out


def _transfer(node: CfgNode, held: _State, followed: set[str]) -> _State:
    assigned = {p for p, a in node.events if a in _ASSIGNING}
    assigned.update(c.result for c in node.calls if c.result)
    if not assigned and not node.copies:
        return held
    now: dict[str, frozenset[str]] = {}
    for local, values in held.items():
        if local in assigned:
            continue
        kept = frozenset(v for v in values if not _reassigned(v, assigned))
        if kept:
            now[local] = kept
    for target, source in node.copies:
        if target not in followed:
            continue
        gained = {source} | held.get(source, frozenset())
        gained = {v for v in gained if v != target and not _reassigned(v, assigned)}
        if gained:
            now[target] = now.get(target, frozenset()) | gained
    return now


def _reassigned(v: str, assigned: set[str]) -> bool:
    """Whether the path ``v`` itself gets a new value when ``assigned`` are assigned."""
    return any(p == v or v.startswith(p + "->") or v.startswith(p + ".") or v == "*" + p for p in assigned)
