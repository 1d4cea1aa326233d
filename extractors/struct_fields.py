"""Fields of a local struct declared without a value (``struct range r; r.lo = ...; r.hi``), tracked
as locals of their own by the rules that say so (``parts = true``: uninitialised-read).

The declaration ``struct T r;`` carries the event ``(r, FIELDS)`` (extractors.facts): each field
``r.f`` starts unset there (``decl``), gets a value where it is assigned (``r.f = v``, an event of
its own) or where ``r`` is assigned whole (``r = s``: a node that defines ``r`` and no field of
it), and is read where it is named (``r.f + 1``). A read of ``r`` whole (``s = r``) is not counted
as a read of each field: such a rule then misses a copy of an unset field but never reports one.

Only where a field is surely a plain value: its struct is spelled ``struct T`` (a union's members
share storage, and a typedef may name one), ``r``'s address is never taken (no callee or pointer
reaches it), no inline assembly names ``r`` (its operands are written through), and ``r.f`` is
never dereferenced, subscripted, handed to a call, copied elsewhere than into a return, or named
with a deeper path (``r.f.g``, ``r.f[i]``): an array field is used so, and its name alone is no
read of what it holds.

Pure: functions of the model.
"""

from __future__ import annotations

import re

from extractors.cfg import CfgNode
from extractors.facts import root_of
from extractors.functions import FunctionModel

FIELDS = "fields"  # event of ``struct T r;``: the fields of r start unset here
_ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b")
# what a tracked field may have done to it: read, stored (a value, NULL, an address), compared
_PLAIN = frozenset({"read", "def", "write", "null", "nonheap", "stack", "cmp", "notnull"})


def field_of(v: str) -> str | None:
    """The struct local ``r`` of a path ``r.f`` (one plain field), else None."""
    r, dot, f = v.partition(".")
    return r if dot and r.isidentifier() and f.isidentifier() else None


def part_labels(node: CfgNode, v: str) -> frozenset[str]:
    """What ``node`` does to field path ``v`` through its struct: declares it unset (``decl``)
    or assigns the whole struct (``def``)."""
    r = field_of(v)
    if r is None:
        return frozenset()
    out: set[str] = set()
    whole = False
    for p, atom in node.events:
        if p == r:
            if atom == FIELDS:
                out.add("decl")
            elif atom == "def":
                whole = True
        elif atom in ("def", "write") and root_of(p) == r and p.startswith(r + "."):
            return frozenset(out)  # r.g = v defines r (the event) but not r.f
    if whole:
        out.add("def")
    return frozenset(out)


def tracked_field(fm: FunctionModel, v: str) -> bool:
    """Whether field path ``v`` is a plain value of a local struct declared without one (see the
    module's doc)."""
    r = field_of(v)
    cfg = fm.cfg
    if r is None or r not in cfg.declared or r in fm.params or r in cfg.addr_taken or r in cfg.static_locals:
        return False
    declared = False
    deeper = (v + ".", v + "->", v + "[")
    for n in cfg.nodes:
        if _ASM.search(n.source) and any(root_of(p) == r for p, _ in n.events):
            return False  # inline assembly that names r may write any of it
        for p, atom in n.events:
            if p == r and atom == FIELDS:
                declared = True
            elif (p == v and atom not in _PLAIN and not (atom in ("escape", "ret") and n.kind == "return")) or (
                p.startswith(deeper)
            ):
                return False  # dereferenced, handed on or copied, or named deeper: maybe no plain value
        for c in n.calls:
            if any(a is not None and (a == v or a.startswith(deeper)) for a, _ in c.args):
                return False
        if any(source == v for _, source in n.copies):
            return False
    return declared
