"""What library calls mean for a tracked value: a table from call names to events (data, not code).

The extractor consults only this table, so supporting a new API is one more row: in the shipped
``library.toml`` (see :mod:`extractors.library`) or in the user's ``ctlsp.toml``.  ``returns`` is
the event of the value the call returns; ``args`` maps argument positions (``-1``: every argument)
to the event they undergo.  The table is built once per configuration (``call_table``) and then
only looked up, per call, by the CFG builder and the projections.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from extractors.config import Config
from extractors.library import CallSpec, builtin_library, overlay

__all__ = ["BUILTIN", "NORETURN", "CallSpec", "call_table"]

_ALLOC = CallSpec(returns="alloc")
_FREE = CallSpec(args=((0, "free"),))
_USE_ALL = CallSpec(args=((-1, "use"),))

BUILTIN: Mapping[str, CallSpec] = builtin_library()  # the shipped rows (read once per process)

NORETURN = frozenset(n for n, spec in BUILTIN.items() if spec.noreturn)  # the library's exits


def call_table(config: Config) -> dict[str, CallSpec]:
    """Built-in rows, then the user's ``[extract]`` lists (each replacing a row), then the user's
    ``[library.NAME]`` rows (each overriding the keys it gives of the row it extends)."""
    table = dict(BUILTIN)
    for name in config.allocators:
        table[name] = _ALLOC
    for name in config.nonnull_allocators:
        table[name] = CallSpec(returns="alloc", nonnull=True)
    for name in config.deallocators:
        table[name] = _FREE
    for acquire, release in config.locks:
        table[acquire] = CallSpec(args=((0, "lock"),))
        table[release] = CallSpec(args=((0, "unlock"),))
    for acquire, release in config.resources:
        table[acquire] = CallSpec(returns="open")
        table[release] = CallSpec(args=((0, "close"),))
    for name in config.uses:
        table[name] = _USE_ALL
    for name in config.noreturn:
        table[name] = CallSpec(noreturn=True)
    for name in config.must_check:
        old = table.get(name, CallSpec())
        table[name] = replace(old, must_check=True)
    for name, spec, fields in config.library:
        table[name] = overlay(table.get(name, CallSpec()), spec, fields)
    return table
