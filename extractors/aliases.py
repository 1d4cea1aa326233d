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

from extractors.cfg import Cfg

# what a copy does to the object it holds, shown on the tracked value; assignments to the copy
# (def, write, alloc, null ...) are about the copy variable and only end the aliasing
SHARED_ATOMS = frozenset({"free", "use", "close", "escape", "ret", "cmp", "notnull", "lock", "unlock"})
# events after which a path holds something new
_ASSIGNING = frozenset({"def", "write", "null", "alloc", "open", "stack", "nonheap", "addr"})


def copied(cfg: Cfg, v: str) -> bool:
    """Whether any copy of ``v`` is made at all (cheap: most values are never copied)."""
    return any(src == v for n in cfg.nodes for _, src in n.copies)


def must_aliases(cfg: Cfg, v: str) -> dict[int, frozenset[str]]:
    """Per CFG node (those with any), the locals holding ``v``'s value on every path into it."""
    if not copied(cfg, v):
        return {}
    followed = {
        name
        for name in cfg.declared
        if name != v and name not in cfg.addr_taken and name not in cfg.static_locals
    }
    preds: list[list[int]] = [[] for _ in cfg.nodes]
    for u, succ in enumerate(cfg.succ):
        for w, _ in succ:
            preds[w].append(u)
    out: list[frozenset[str] | None] = [None] * len(cfg.nodes)  # None: not reached yet (top)
    into: list[frozenset[str]] = [frozenset()] * len(cfg.nodes)
    todo = [cfg.entry]
    queued = {cfg.entry}
    while todo:
        n = todo.pop()
        queued.discard(n)
        if n == cfg.entry:
            held: frozenset[str] = frozenset()
        else:
            known = [s for p in preds[n] if (s := out[p]) is not None]
            held = frozenset.intersection(*known) if known else frozenset()
        into[n] = held
        new = _transfer(cfg, n, v, held, followed)
        if new != out[n]:
            out[n] = new
            for w, _ in cfg.succ[n]:
                if w not in queued:
                    queued.add(w)
                    todo.append(w)
    return {n: held for n, held in enumerate(into) if held}


def _transfer(cfg: Cfg, n: int, v: str, held: frozenset[str], followed: set[str]) -> frozenset[str]:
    node = cfg.nodes[n]
    assigned = {p for p, a in node.events if a in _ASSIGNING}
    assigned.update(c.result for c in node.calls if c.result)
    if any(p == v or v.startswith(p + "->") or v.startswith(p + ".") or v == "*" + p for p in assigned):
        return frozenset()
    now = set(held - assigned)
    for target, source in node.copies:
        if target in followed and (source == v or source in held):
            now.add(target)
    return frozenset(now)
