"""Project functions that release a parameter: they free it, or decide from the object itself not to.

``void ImagingDelete(Imaging im) { if (!im) return; if (--im->refcount > 0) return; ...; free(im); }``
frees its argument unless the object says someone else still holds it (a reference count, an owner
flag) or it is NULL. A caller that hands a fresh block to it has handed the block over: on the
path through the early return the count was above one, so the block is not lost. Without this
summary every caller of a reference-counted release (Pillow's ``ImagingDelete``, GLib's unref
functions) leaked its block on the path where the count stayed positive.

What counts, read off the function's pruned graph: some node frees (or closes) the parameter
itself, and every path from the entry to the exit that frees nothing leaves through a *sparing*
branch of a test that reads the parameter (``im == NULL``, ``im->refcount > 0``): a branch from
which no freeing node is reachable. A path that skips the free for a reason the object does not
hold (``if (flag) free(p);``, ``if (bad) { free(buf); return -1; }``) keeps the caller's block the
caller's, and the caller's leak is still reported.

Only the function's own nodes count (a free inside a further callee does not), so the answer is a
function of the function's model alone, kept by its key like :mod:`extractors.null_returns`. The
caller's projection labels the call ``escape`` (the leak rules stop there; the frees inside the
callee are still seen by the double-free and use-after-free rules through the call's box).

Pure: a function of the model and of what each node does to the parameter.
"""

from __future__ import annotations

from collections.abc import Callable

from checker.graphs import closure
from extractors.facts import root_of
from extractors.functions import FunctionModel

_FREEING = frozenset({"free", "close"})

Labels = Callable[[int], frozenset[str]]  # the labels of the parameter at a CFG node


def releases(fm: FunctionModel, k: int, labels: Labels) -> bool:
    """Whether ``fm`` releases its parameter ``k`` (see the module's doc); ``labels`` gives what each
    CFG node does to the parameter (``Projector.node_labels`` without callees)."""
    if k >= len(fm.params):
        return False
    q = fm.params[k]
    if q in fm.cfg.declared:
        return False  # shadowed by a local: not the argument
    g, nodes = fm.graph, fm.cfg.nodes
    freeing_cfg = {c for c in set(g.cfg_of) if labels(c) & _FREEING}
    if not freeing_cfg:
        return False
    n = len(g.cfg_of)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j, _ in g.succ[i]:
            preds[j].append(i)
    can_free = closure((i for i in range(n) if g.cfg_of[i] in freeing_cfg), preds.__getitem__)

    def onward(i: int) -> list[int]:
        """Where a path that has freed nothing goes on from ``i``: not past a free, and not by a
        branch of a test of the parameter from which no free is reachable (the object chose to
        be kept: a count, an owner, NULL)."""
        c = g.cfg_of[i]
        if c in freeing_cfg:
            return []
        node = nodes[c]
        tests = node.kind == "cond" and any(root_of(p) == q for p, _ in node.events)
        return [j for j, _ in g.succ[i] if not tests or j in can_free]

    return g.exit not in closure([g.entry], onward)  # no way out frees nothing unchosen
