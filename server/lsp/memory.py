"""Garbage-collector policy of the server: keep collector pauses out of the edit path.

The session keeps a large, long-lived heap (knowledge base, projections, result cache); CPython's
full collections walk all of it, and on a 1,000-line file they took up to 100 ms in the middle of a
check, the largest part of the slowest edits. After each check everything it left is frozen, so
later collections see only what is new; a cycle that is garbage then, or becomes garbage after it
was frozen, is reclaimed by a full collection when the server has been idle for a while.

The young generations are frozen without being collected first: walking them is a pause of the
size of everything the check kept (20-150 ms after an edit of sqlite3.c), and the edit that
follows the check waits for it, while a check of an edit leaves next to no cyclic garbage (none in
16 of 20 edits of sqlite3.c, at most a few hundred objects in the others).
"""

from __future__ import annotations

import gc

IDLE_SECONDS = 20.0


class MemoryPolicy:
    """Called on the checker process's check thread only (the server asks for both steps there), so
    it needs no lock."""

    def __init__(self) -> None:
        self.checks_since_full = 0
        self.full_collections = 0

    def after_check(self) -> None:
        """Freeze what the check left out of later collections (see the module's doc)."""
        gc.freeze()
        self.checks_since_full += 1

    def when_idle(self) -> int:
        """A full collection (with the frozen objects); returns the number of objects freed."""
        if self.checks_since_full == 0:
            return 0
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.checks_since_full = 0
        self.full_collections += 1
        return freed
