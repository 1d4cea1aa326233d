"""Dead ends of a function's graph folded into one, so that projections do not carry them all.

A *sink* is a node whose only successor is itself: a failed ``assert`` or a call that never returns
(``abort``, ``exit``).  Real code has many (sqlite3VdbeExec: 1,111 of 8,470 nodes), and every
projection of the function used to keep each of them, since a self-loop cannot be contracted away.

Folding is sound for every CTL formula: all sinks that carry no label of the tracked value are
bisimilar (no label, one successor, themselves), so edges into any of them may go to one
representative.  No witness passes through such a sink (a witness ends at a labelled node or at
``end``, and a sink reaches neither), so the representative's place is never shown.  A sink that
does carry a label, a call box or a split for the tracked value is *unfolded* for that projection:
it is kept with its own edges.

Pure: successor lists in, successor lists out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Folded:
    """``succ`` with every sink but ``rep`` folded into ``rep``; ``raw`` the unfolded lists;
    ``folded`` the sinks that lost their predecessors (``rep`` excluded); ``preds`` per folded sink,
    the nodes whose lists named it."""

    succ: tuple[list[int], ...]
    raw: tuple[list[int], ...]
    rep: int | None
    folded: frozenset[int]
    preds: dict[int, tuple[int, ...]]


    @functools.cached_property
    def sinks(self) -> frozenset[int]:
        """Every sink, the representative included."""
        return self.folded if self.rep is None else self.folded | {self.rep}

    def redirect(self, unfolded: Iterable[int]) -> Callable[[int], int]:
        """Where an edge into a node goes once ``unfolded`` have their own edges back (see
        :func:`unfold`): a sink still folded goes to the representative, anything else to
        itself.  For edges a projection adds from the unfolded lists (``raw``)."""
        still = self.folded.difference(unfolded)
        rep = self.rep
        if not still or rep is None:
            return _same
        return lambda j: rep if j in still else j


def fold_sinks(succ: Sequence[list[int]]) -> Folded:
    raw = tuple(succ)
    sinks = [i for i, out in enumerate(raw) if out and all(j == i for j in out)]
    if len(sinks) < 2:
        return Folded(raw, raw, sinks[0] if sinks else None, frozenset(), {})
    rep, folded = sinks[0], frozenset(sinks[1:])
    preds: dict[int, list[int]] = {}
    out: list[list[int]] = []
    for i, nxt in enumerate(raw):
        if i in folded or not any(j in folded for j in nxt):
            out.append(nxt)
            continue
        for j in nxt:
            if j in folded:
                preds.setdefault(j, []).append(i)
        out.append(_redirect(nxt, folded, rep))
    return Folded(tuple(out), raw, rep, folded, {s: tuple(ps) for s, ps in preds.items()})


def unfold(fold: Folded, succ: list[list[int]], sinks: Iterable[int]) -> None:
    """Give ``sinks`` (folded ones; others are ignored) their own edges back in ``succ``, a copy
    of ``fold.succ`` for one projection."""
    back = {s for s in sinks if s in fold.folded}
    if not back or fold.rep is None:
        return
    still = fold.folded - back
    for p in sorted({p for s in back for p in fold.preds.get(s, ())}):
        succ[p] = _redirect(fold.raw[p], still, fold.rep)


def _redirect(nxt: list[int], folded: frozenset[int], rep: int) -> list[int]:
    """``nxt`` with folded sinks replaced by ``rep``, each target once, in order."""
    return list(dict.fromkeys(rep if j in folded else j for j in nxt))


def _same(j: int) -> int:
    return j
