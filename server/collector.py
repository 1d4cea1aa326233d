"""The garbage collector's thresholds for a ctlsp process (the CLI's check, the language server).

A check builds and drops millions of small objects (nodes, label sets, formulas' values) while the
models, tables and caches it keeps make a large heap. With CPython's default thresholds the full
collections that walk that heap took a quarter of a cold check of Lua. The young generation is
collected after 20,000 allocations instead of 700 and the older ones less often, as mypy does for
the same reason; reference cycles are still collected, in fewer, later passes. Set by each
command's ``run`` (whichever way it is started), never by the pure core.
"""

from __future__ import annotations

import gc

THRESHOLDS = (20_000, 20, 50)


def tune() -> None:
    gc.set_threshold(*THRESHOLDS)
