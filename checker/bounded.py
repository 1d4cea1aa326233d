"""Size bounds for the caches that outlive a check (insertion-ordered dicts, oldest first)."""

from __future__ import annotations

from itertools import islice
from typing import Any


def drop_oldest(table: dict[Any, Any], limit: int) -> None:
    """Above ``limit`` entries, drop the oldest down to seven eighths of it, all at once.

    One at a time was quadratic: a dict leaves a hole where an entry was removed, and finding the
    oldest entry walks over every hole left since the dict last grew, so with a full knowledge base
    each new fact cost a walk over tens of thousands of holes.
    """
    if len(table) > limit:
        for key in list(islice(table, len(table) - limit + limit // 8)):
            del table[key]
