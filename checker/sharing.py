"""One object per distinct frozenset, as ``sys.intern`` is for strings.

A checked program's models, projections, bounds and κ keys hold many small frozensets of few
distinct values: after the first check of sqlite3.c, 1.23 million frozensets (390 MiB) of 250,000
values, a quarter of them empty, and each costs 200 bytes or more however small (CPython has had
no empty-frozenset singleton since 3.10). The places that make many hand theirs to :func:`shared`
and keep what it returns. Sharing is invisible to every reader: the sets are immutable and compare
by value; only ``is`` could tell, and nothing asks it of a set.

The table is bounded and forgets what no check uses any more: two generations of at most
``GENERATION`` sets each; a set found in the older moves to the newer, and when the newer fills,
the older is dropped. A set held only by the table stays alive for at most two generations, and
the sets in use keep being shared. Best effort across threads: a lookup that races a rotation
only shares less.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

__all__ = ["GENERATION", "shared"]

T = TypeVar("T")

GENERATION = 1 << 17  # sets per generation: sqlite3.c's first check makes ~250,000 distinct ones

_young: dict[frozenset[Any], frozenset[Any]] = {}
_old: dict[frozenset[Any], frozenset[Any]] = {}


def shared(items: frozenset[T]) -> frozenset[T]:
    """The one frozenset equal to ``items`` that the table keeps (``items`` itself the first time)."""
    global _young, _old
    got = _young.get(items)
    if got is None:
        got = _old.get(items, items)
        if len(_young) >= GENERATION:
            _old, _young = _young, {}
        _young[got] = got
    return cast("frozenset[T]", got)
