"""One object per distinct immutable value, as ``sys.intern`` is for strings.

A checked program's models, projections, bounds and κ keys hold many small frozensets of few
distinct values: after the first check of sqlite3.c, 1.23 million frozensets (390 MiB) of 250,000
values, a quarter of them empty, and each costs 200 bytes or more however small (CPython has had
no empty-frozenset singleton since 3.10); and 309,000 answers about callees (``Dep`` tuples) of
54,000 values. The places that make many hand theirs to :func:`shared` and keep what it returns.

Sharing is invisible to every reader: the values are immutable and compare by value; only ``is``
could tell, and nothing asks it of them. Values are shared with equal values of the same type only
(a ``Dep`` is never handed out for an equal plain tuple), and the callers' values hold strings,
ints and tuples of them, whose equal values are the same value (a bool would not be: True == 1).

Each type's table is bounded and forgets what no check uses any more: two generations of at most
``GENERATION`` values each; a value found in the older moves to the newer, and when the newer
fills, the older is dropped. A value held only by the table stays alive for at most two
generations, and the values in use keep being shared. Best effort across threads: a lookup that
races a rotation only shares less.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

__all__ = ["EDGES", "GENERATION", "shared"]

H = TypeVar("H", bound=Hashable)

GENERATION = 1 << 17  # values per generation: sqlite3.c's first check makes ~250,000 distinct sets
EDGES = "edges"  # the table of a model's edges and box ends, (ref, ref) and (box, node) pairs


class _Generations:
    __slots__ = ("young", "old")

    def __init__(self) -> None:
        self.young: dict[Hashable, Hashable] = {}
        self.old: dict[Hashable, Hashable] = {}


_tables: dict[Hashable, _Generations] = {}


def shared(value: H, kind: Hashable = None) -> H:
    """The one value equal to ``value`` (and of its type) that the table keeps: ``value`` itself
    the first time. ``kind`` names a table of its own (by default the value's type's) for values
    of one type made so many that they would crowd the others out of theirs (a view's edges)."""
    key = type(value) if kind is None else kind
    table = _tables.get(key)
    if table is None:
        table = _tables.setdefault(key, _Generations())
    got = table.young.get(value)
    if got is None:
        got = table.old.get(value, value)
        if len(table.young) >= GENERATION:
            table.old, table.young = table.young, {}
        table.young[got] = got
    return got  # type: ignore[return-value]  # equal to value and of its type
