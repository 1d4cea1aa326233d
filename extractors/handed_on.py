"""Values checked through the one local they are copied into: ``struct log *log = logd;``.

A projection follows a value's object through its copies (:mod:`extractors.aliases`), so when a
function's first act with a parameter is to copy it into a local that then does everything with
it, the parameter's projection and the local's show the same events (the local's adds only its
own assignment, before any of them). Checking the value rules on both doubles the work of every
check of the function and finds each bug twice. The value is then checked once, on the local:
the name the code uses at the events, and so the name the message shows.

The conditions make the local's projection show every event the value's does:
- the value is a local or parameter of the function (a global's projection also shows the calls
  that may touch it), copied into exactly one local, and mentioned nowhere but in those copies,
  where it is only read;
- the local holds the value (is a must-copy of it) at every node that mentions the local, except
  where the copy is made: it is never given another object while it is used.

Pure: a function of the function's CFG (through the projector's per-function tables).
"""

from __future__ import annotations

from extractors.functions import FunctionModel
from extractors.projection import Projector, locals_of

# what a value's copy into a local does to the value itself
_COPYING_LABELS = frozenset({"read", "escape"})


def handed_on(proj: Projector, fm: FunctionModel) -> frozenset[str]:
    """The values of ``fm`` whose value rules are checked on the one local they are copied into."""
    nodes = fm.cfg.nodes
    into: dict[str, set[str]] = {}
    copying: dict[tuple[str, str], set[int]] = {}
    for n in nodes:
        for dst, src in n.copies:
            into.setdefault(src, set()).add(dst)
            copying.setdefault((dst, src), set()).add(n.id)
    if not into:
        return frozenset()
    mine = locals_of(fm)
    index = proj.index(fm)
    out: set[str] = set()
    for v, targets in into.items():
        if len(targets) != 1 or v not in mine:
            continue
        (w,) = targets
        made = copying[(w, v)]
        if any(cid not in made for cid in index.get(v, ())):
            continue  # the value is used on its own too
        if not all(_only_copied(*proj.node_labels(fm, cid, v, False)) for cid in made):
            continue
        held = proj.copies(fm, v)
        if all(cid in made or w in held.get(cid, ()) for cid in index.get(w, ())):
            out.add(v)
    return frozenset(out)


def _only_copied(labels: frozenset[str], boxes: tuple[tuple[str, str], ...]) -> bool:
    """Whether a node copying the value does nothing else with it (no other event, no call)."""
    return labels <= _COPYING_LABELS and not boxes
