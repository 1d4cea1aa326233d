"""The one span in which a file's new text differs from its old one, so that an edit of a big file
crosses the pipe to the checker process as that span instead of the whole text.

A keystroke in a 270k-line file changes a few characters; sending the file's 9.5 MB each time costs
tens of milliseconds of pickling, piping and decoding per keystroke on both sides.  The server
knows the text it last announced, the checker process keeps the text it last received, and the pipe
keeps messages in order, so a :class:`Splice` of the old text is enough to rebuild the new one.

Invariant: ``splice(old, changed_span(old, new)) == new`` for every pair of strings, and the span is
the shortest such one: its start is the length of the common prefix, its end leaves the longest
common suffix that does not overlap that prefix.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Splice", "changed_span", "splice"]

# Texts are compared a block at a time: one C-level comparison of two slices per block, then a
# bisection inside the first block that differs, instead of a Python step per character.
_BLOCK = 1 << 16


@dataclass(frozen=True)
class Splice:
    """``old[start:end]`` replaced by ``inserted``; ``old_length``: ``len(old)``, which the receiver
    checks against the text it holds."""

    start: int
    end: int
    inserted: str
    old_length: int


def changed_span(old: str, new: str) -> Splice:
    """The shortest splice that turns ``old`` into ``new`` (see the module's invariant)."""
    limit = min(len(old), len(new))
    start = _common_prefix(old, new, limit)
    tail = _common_suffix(old, new, limit - start)
    return Splice(start, len(old) - tail, new[start : len(new) - tail], len(old))


def splice(old: str, change: Splice) -> str:
    """``old`` with ``change`` made; ValueError when ``old`` is not the text it was made from (by
    length, the one check that costs nothing)."""
    if len(old) != change.old_length or not 0 <= change.start <= change.end <= len(old):
        raise ValueError(f"a splice of a {change.old_length}-character text cannot apply to one of {len(old)}")
    return "".join((old[: change.start], change.inserted, old[change.end :]))


def _common_prefix(a: str, b: str, limit: int) -> int:
    """The length of the longest common prefix of ``a`` and ``b``, at most ``limit``."""
    i = 0
    while i < limit:
        j = min(limit, i + _BLOCK)
        if a[i:j] != b[i:j]:
            return _first_difference(a, b, i, j)
        i = j
    return limit


def _first_difference(a: str, b: str, lo: int, hi: int) -> int:
    """The first offset in ``[lo, hi)`` where ``a`` and ``b`` differ, given that they differ there."""
    while hi - lo > 1:  # a[lo:hi] != b[lo:hi]
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common suffix of ``a`` and ``b``, at most ``limit``."""
    la, lb = len(a), len(b)
    n = 0
    while n < limit:
        m = min(limit, n + _BLOCK)
        if a[la - m : la - n] != b[lb - m : lb - n]:
            lo, hi = n, m  # the suffixes of lengths n agree, of length m do not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
                    lo = mid
                else:
                    hi = mid
            return lo
        n = m
    return limit
