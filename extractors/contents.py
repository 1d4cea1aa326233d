"""What a local buffer holds: the elements of a local array declared without a value
(``int runs[16];``) and the contents of a block fresh from an allocator whose row says ``uninit``
(``int *count = malloc(...)``, not ``calloc``), tracked as one value ``b[]`` per buffer ``b`` by the
rules that say so (``parts = true``: uninitialised-read).

One value for every element (which element is which is not followed), so a store to any element
sets them all, and what the buffer holds counts as read only where an element is read
(``b[i]``, ``*b``, ``b->f`` not stored to), and not where a ``?:``, ``&&`` or ``||`` inside a
statement may skip it (conditions are split into nodes, expressions are not). Wherever the
buffer may be written unseen, it counts as set: where ``b`` itself flows anywhere (``p = b``,
``b + 4``, ``return b``) or is named in a node with a call (``memcpy(b, ...)``, ``fgets(b, ...)``,
``strcpy(b[i], ...)``: a callee may fill it), or under ``sizeof``. So a read is reported only
where no store of any element, and no way out of the function's sight, comes before it.

The events: ``(b, "contents")`` at an array's declaration without a value, ``(b, "fill")`` at a
store ``b[i] = v`` and ``(b->f, "fill")`` at a store ``b->f[i] = v`` (extractors.facts). Only
buffers whose address is never taken (``&b``, ``&b[i]``), that are not parameters or ``static``.

Pure: functions of the model and the call table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from extractors.calls import CallSpec
from extractors.cfg import CfgNode
from extractors.functions import FunctionModel

CONTENTS = "contents"  # event: a local array declared without a value
FILL = "fill"  # event: a store into an element (a[i] = v)
SUFFIX = "[]"
_GUARDED = re.compile(r"\?|&&|\|\|")
_SKIPPED = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*', re.S)


def contents_of(v: str) -> str | None:
    """The buffer ``b`` of value ``b[]``, else None."""
    b = v[: -len(SUFFIX)] if v.endswith(SUFFIX) else ""
    return b if b.isidentifier() else None


def _fresh(node: CfgNode, b: str, table: Mapping[str, CallSpec]) -> bool:
    """Whether ``node`` gives ``b`` a buffer whose contents are unset."""
    if (b, CONTENTS) in node.events:
        return True
    return any(
        c.result == b and c.name is not None and (s := table.get(c.name)) is not None and s.uninit for c in node.calls
    )


def contents_labels(node: CfgNode, b: str, table: Mapping[str, CallSpec]) -> frozenset[str]:
    """What ``node`` does to what buffer ``b`` holds (see the module's doc)."""
    if (b, CONTENTS) in node.events:
        return frozenset({"decl"})
    labels: set[str] = set()
    fresh = _fresh(node, b, table)
    if fresh:
        labels.add("decl")
    code = _SKIPPED.sub(" ", node.source)
    named = list(re.finditer(rf"(?<!->)(?<![\w.]){re.escape(b)}\b", code))
    if not named:
        return frozenset(labels)
    if fresh or node.calls or "sizeof" in code:
        return frozenset(labels | {"def"})  # a callee may fill it; sizeof reads nothing
    through = 0  # occurrences that reach an element: b[i], b->f, *b
    for m in named:
        after, before = code[m.end() :].lstrip(), code[: m.start()].rstrip()
        if (after.startswith(("[", "->")) or before.endswith("*")) and not _address_of(before):
            through += 1  # (&b[i] is no read of the element: b flows on)
    tested = node.null_test is not None and node.null_test[0] == b
    if through < len(named) and not tested:
        return frozenset(labels | {"def"})  # b itself flows on: the buffer may be written unseen
    stores = (b, FILL) in node.events or ("*" + b, "def") in node.events
    stores = stores or any(p.startswith(b + "->") and a in ("def", FILL) for p, a in node.events)
    if stores:
        labels.add("def")
        # b->f = b->g reads; b->f[i] = v reads b->f only to find where the element is
        if any(p.startswith(b + "->") and a == "read" and (p, FILL) not in node.events for p, a in node.events):
            labels.add("read")
    elif through and (node.kind == "cond" or not _GUARDED.search(code)):
        labels.add("read")  # unless a ?:, && or || inside the statement may skip the read
    return frozenset(labels)


def _address_of(before: str) -> bool:
    """Whether the code ``before`` a name ends with a unary ``&`` (``p = &b[i]``, ``f(&b[0])``), not
    ``&&`` nor a binary ``&`` after an operand (``x & b[i]``)."""
    if not before.endswith("&") or before.endswith("&&"):
        return False
    prev = before[:-1].rstrip()
    return not prev or not (prev[-1].isalnum() or prev[-1] in "_)]")


def filling_loops(fm: FunctionModel, b: str, table: Mapping[str, CallSpec]) -> frozenset[int]:
    """The loop tests (CFG nodes) whose body sets what ``b`` holds on every way round: the loop is
    taken to run at least once, so leaving it by its test counts as a store too. A loop that fills
    a buffer and a later loop that reads it are bounded alike (``for (i = 0; i < n; i++)``); that
    neither runs is the same condition twice, which no path feasibility the model keeps can see.
    A body that may go round without a store (``if (x[i] > 0) a[i] = x[i];``) keeps the way out
    unset, and so does one left by ``break``."""
    cfg = fm.cfg
    sets = {n.id for n in cfg.nodes if contents_labels(n, b, table) & {"def", "decl"}}
    # a while or for loop's test: the condition a loop's head (a join) goes to first
    heads = sorted({t for n in cfg.nodes if n.kind == "join" for t, _ in cfg.succ[n.id] if cfg.nodes[t].kind == "cond"})
    filling: set[int] = set()
    changed = True
    while changed:
        changed = False
        for h in heads:
            if h in filling:
                continue
            starts = [t for t, br in cfg.succ[h] if br]
            if _round(cfg.succ, starts, h, sets, filling) is False:
                filling.add(h)
                changed = True
    return frozenset(filling)


def _round(
    succ: list[list[tuple[int, bool | None]]], starts: list[int], h: int, sets: set[int], filling: set[int]
) -> bool | None:
    """From ``starts`` back to ``h``: None when no way leads back (no loop), True when one does
    without passing a store, False when every one passes one."""
    if not _reaches(succ, starts, h, frozenset(), frozenset()):
        return None
    return _reaches(succ, starts, h, frozenset(sets), frozenset(filling))


def _reaches(
    succ: list[list[tuple[int, bool | None]]], starts: list[int], h: int, stops: frozenset[int], heads: frozenset[int]
) -> bool:
    seen: set[int] = set()
    todo = [t for t in starts if t not in stops]
    while todo:
        i = todo.pop()
        if i == h:
            return True
        if i in seen:
            continue
        seen.add(i)
        for j, br in succ[i]:
            if j in stops or (i in heads and br is False):
                continue  # a store, or the way out of a loop that stores on every round
            todo.append(j)
    return False


def tracked_contents(fm: FunctionModel, v: str, table: Mapping[str, CallSpec]) -> bool:
    """Whether ``v`` is ``b[]`` of a local buffer whose contents start unset somewhere (see the
    module's doc)."""
    b = contents_of(v)
    cfg = fm.cfg
    if b is None or b not in cfg.declared or b in fm.params or b in cfg.addr_taken or b in cfg.static_locals:
        return False
    return any(_fresh(n, b, table) for n in cfg.nodes)


def contents_values(fm: FunctionModel, table: Mapping[str, CallSpec]) -> list[str]:
    """The ``b[]`` values of ``fm``'s buffers that :func:`tracked_contents` holds for, in one pass
    over the nodes (a function of thousands of nodes declares hundreds of locals)."""
    cfg = fm.cfg
    locals_ = set(cfg.declared) - set(fm.params) - cfg.addr_taken - cfg.static_locals
    fresh: set[str] = set()
    for n in cfg.nodes:
        fresh.update(b for b, event in n.events if event == CONTENTS and b in locals_)
        for c in n.calls:
            if c.result in locals_ and c.name is not None and (spec := table.get(c.name)) is not None and spec.uninit:
                fresh.add(c.result)
    return [b + SUFFIX for b in sorted(fresh) if b.isidentifier()]
