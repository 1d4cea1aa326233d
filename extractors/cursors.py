"""Local cursors: a copy of a pointer into a local that never leaves the function is no escape.

``for (char *c = copy; *c; c++) *c = toupper(*c);`` walks the block ``copy`` points to through
``c``; at the return both locals die, so a block nobody freed is leaked.  The facts record every
``target = source`` copy as an escape of the source (the target might be returned, stored or freed
later), which hid such leaks.  A *cursor* is a local the function only dereferences, compares and
moves: automatic (not ``static``), its address never taken, and in no node escaping, returned,
stored through an out-parameter, freed, closed, or handed to any call (``f(c)``, ``f(&c[i])``).
A copy into a cursor keeps the block in the function, so its escape event is dropped.

Invariant: only the source's ``escape`` of a node whose copies of it all go to cursors is dropped;
what is done through a copy that still holds the value (a must-alias) is lent to it by
:mod:`extractors.aliases` as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.facts import root_of

if TYPE_CHECKING:  # the CFG builder calls this module
    from extractors.cfg import Cfg

_LEAVES = frozenset({"escape", "ret", "free", "close"})  # what lets a local's pointer outlive the frame


def cursors(cfg: Cfg) -> frozenset[str]:
    """The locals of ``cfg`` that are cursors (see the module's docstring)."""
    out = set(cfg.declared) - cfg.static_locals - cfg.addr_taken
    for node in cfg.nodes:
        if not out:
            break
        out -= {p for p, a in node.events if a in _LEAVES}
        out -= {root_of(p) for c in node.calls for p, _ in c.args if p is not None}
    return frozenset(out)


def drop_cursor_escapes(cfg: Cfg) -> None:
    """Remove the escape of a copy's source where every copy of it in the node goes to a cursor."""
    copying = [n for n in cfg.nodes if n.copies]
    if not copying:
        return
    kept = cursors(cfg)
    if not kept:
        return
    for node in copying:
        into: dict[str, bool] = {}
        for target, source in node.copies:
            into[source] = into.get(source, True) and target in kept
        gone = {source for source, only in into.items() if only}
        if gone:
            node.events = tuple(e for e in node.events if e[1] != "escape" or e[0] not in gone)
