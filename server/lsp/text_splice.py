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

from extractors.common_ends import common_prefix, common_suffix

__all__ = ["Splice", "changed_span", "splice"]


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
    start = common_prefix(old, new)
    tail = common_suffix(old, new, min(len(old), len(new)) - start)
    return Splice(start, len(old) - tail, new[start : len(new) - tail], len(old))


def splice(old: str, change: Splice) -> str:
    """``old`` with ``change`` made; ValueError when ``old`` is not the text it was made from (by
    length, the one check that costs nothing)."""
    if len(old) != change.old_length or not 0 <= change.start <= change.end <= len(old):
        raise ValueError(f"a splice of a {change.old_length}-character text cannot apply to one of {len(old)}")
    return "".join((old[: change.start], change.inserted, old[change.end :]))
