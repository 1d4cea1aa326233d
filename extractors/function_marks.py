"""The marks of one function model (see :mod:`extractors.marks`): unreachable regions and
never-read locals and parameters, agreed across the function's preprocessor variants.

A function read as several variants (its text does not parse as written) gets a mark only where
every variant that has the marked code agrees: code unreachable in one variant but reached in
another is not reported, nor a local one variant reads.
"""

from __future__ import annotations

from tree_sitter import Node as TSNode

from extractors.cfg import Cfg
from extractors.count_macros import NO_COUNT_MACROS, CountMacros
from extractors.marks import Frame, Mark
from extractors.reachability import unreached
from extractors.unused import never_read


def marks_of(
    fns: list[TSNode],
    cfg: Cfg,
    source: bytes,
    base: int,
    lines: list[bytes],
    row_base: int,
    macros: CountMacros = NO_COUNT_MACROS,
) -> tuple[Mark, ...]:
    """The marks of the definitions ``fns`` (the variants of one function, or the one definition)
    whose CFG is ``cfg``; ``source``/``base``/``macros`` as in :func:`extractors.unused.never_read`,
    ``lines``/``row_base`` as in :class:`extractors.marks.Frame`."""
    frame = Frame(lines, row_base)
    dead: set[Mark] | None = None
    unread: set[Mark] | None = None
    for fn in fns:
        # reachability is over the choice of all variants' CFGs: a region another variant
        # reaches has a reached node at its place, so it is not a region here either
        here = set(unreached(fn, cfg, frame))
        dead = here if dead is None else dead | here
        got = set(never_read(fn, source, base, frame, params=True, macros=macros))
        unread = got if unread is None else unread & got
    return tuple(sorted((dead or set()) | (unread or set()), key=lambda m: (m.at, m.atom, m.var)))
