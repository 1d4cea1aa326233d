"""Garbage-collector policy of the server: keep collector pauses out of the edit path.

The session keeps a large, long-lived heap (knowledge base, projections, result cache); CPython's
full collections walk all of it, and on a 1,000-line file they took up to 100 ms in the middle of a
check, the largest part of the slowest edits. After each check the young garbage (the checker's
cyclic instance graphs) is collected and the survivors are frozen, so later collections see only
what is new. Whatever becomes cyclic garbage after it was frozen is reclaimed by a full collection
when the server has been idle for a while.
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
        """Collect what the check left behind, then freeze the rest out of later collections."""
        gc.collect(1)
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
