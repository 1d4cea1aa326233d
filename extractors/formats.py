"""printf format strings: which arguments a call reads or writes through (``%s``, ``%n``).

``printf("dropped %s\\n", login)`` reads the string ``login`` points to: after ``free(login)`` that
is a use after free, where ``%d`` or ``%p`` of the same pointer only passes its value.  The library
row of a printf-like function names its format argument (``format``); the CFG builder reads the
literal the call hands there (:attr:`extractors.facts.Call.strings`) with :func:`dereferenced`.
A format that is not a literal (a variable, a macro piece such as ``PRId64``) says nothing: no
argument is taken as dereferenced.
"""

from __future__ import annotations

import re

# one conversion: %[n$][flags][width][.precision][length]conversion (C11 7.21.6.1, POSIX n$)
_CONVERSION = re.compile(
    r"%(?:(\d+)\$)?[-+ #0']*(\*(?:\d+\$)?|\d+)?(?:\.(\*(?:\d+\$)?|\d*))?(?:hh|h|ll|l|j|z|t|L|q)?(.)",
    re.DOTALL,
)
_READ_THROUGH = frozenset("sSn")  # strings read, %n written: the argument is dereferenced
_NO_ARGUMENT = frozenset("%m")  # %% and glibc's %m take no argument
_KNOWN = frozenset("diouxXeEfFgGaAcspnCSm%")


def dereferenced(fmt: str, first: int) -> tuple[int, ...]:
    """The argument positions that the conversions of ``fmt`` dereference, its first value being
    argument ``first``.  Counting stops at a conversion it does not know (what follows could be
    off by one), keeping what it found before; ``*`` widths and precisions take an argument."""
    out: list[int] = []
    at = first
    for m in _CONVERSION.finditer(fmt):
        positional, width, precision, conv = m.group(1), m.group(2), m.group(3), m.group(4)
        if conv not in _KNOWN:
            break
        if conv in _NO_ARGUMENT:
            continue
        for star in (width, precision):
            if star is not None and star.startswith("*") and not positional:
                at += 1
        if positional:
            index = first + int(positional) - 1
        else:
            index, at = at, at + 1
        if conv in _READ_THROUGH:
            out.append(index)
    return tuple(dict.fromkeys(out))
