"""Stores of NULL, 0 or -1 that are values (error codes), not resets of a handle.

``free(p); p = NULL;`` and ``close(fd); fd = -1;`` are defensive resets: they are often never read,
and reporting them as dead stores was noise, so the facts leave out ``write`` for such a store.
``err = -1; goto fail;`` where ``fail`` returns another code is the same store of a plain number,
and a dead one: the error code is lost. The facts mark every such store ``reset``; the CFG builder
then makes it a ``write`` where the variable is a plain value in the whole function, and drops the
mark elsewhere, so no ``reset`` leaves the builder.

A plain value is a local whose address is never taken, which no node dereferences, frees, closes,
allocates, opens, compares as a pointer or locks, and which is handed to no call: nothing in the
function treats it as a pointer or a handle whose reset would be defensive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.facts import root_of

if TYPE_CHECKING:  # the CFG builder calls this module
    from extractors.cfg import Cfg

RESET = "reset"  # a store of NULL, 0 or -1 that is no initialiser (extractors.facts)
_HANDLED = frozenset({"use", "free", "close", "alloc", "open", "stack", "nonheap", "cmp", "lock", "unlock", "addr"})


def plain_values(cfg: Cfg) -> frozenset[str]:
    """The locals of ``cfg`` that are plain values (see the module's docstring)."""
    out = set(cfg.declared) - cfg.addr_taken
    for node in cfg.nodes:
        if not out:
            break
        out -= {root_of(p) for p, a in node.events if a in _HANDLED}
        out -= {root_of(p) for c in node.calls for p, _ in c.args if p is not None}
    return frozenset(out)


def resolve_resets(cfg: Cfg) -> None:
    """Make each ``reset`` of a plain value a ``write`` and drop the others."""
    marked = [n for n in cfg.nodes if any(a == RESET for _, a in n.events)]
    if not marked:
        return
    plain = plain_values(cfg)
    for node in marked:
        node.events = tuple(
            dict.fromkeys((p, "write") if a == RESET else (p, a) for p, a in node.events if a != RESET or p in plain)
        )
