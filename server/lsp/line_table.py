"""Where each line of an open document starts, patched by edits in time independent of the lines
after them.

A flat list of starts is rewritten from the edit to the end at every keystroke: 270,000 integers
(12 ms) for an edit at the top of sqlite3.c. Here the starts are kept in blocks, each block's
relative to its first line's, so an edit rewrites the blocks it touches and moves the bases of the
ones after it (one integer per block).

Invariants: every block holds at least one line and its first relative start is 0; ``bases[b]`` is
the absolute start of block ``b``'s first line and ``firsts[b]`` its line number; bases and firsts
strictly increase (a line starts after the one before it).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

BLOCK = 1024  # lines per block as built; an edit's blocks are split again past twice that


class LineTable(Sequence[int]):
    """The byte offset of the start of each line, as a sequence (line number -> offset)."""

    def __init__(self, starts: Iterable[int]) -> None:
        self.bases: list[int] = []
        self.firsts: list[int] = []
        self.blocks: list[list[int]] = []
        self._fill(list(starts), 0, 0)
        self._count = sum(len(b) for b in self.blocks)

    def _fill(self, starts: list[int], at_block: int, first_line: int) -> None:
        """Insert ``starts`` (absolute, ascending) as blocks before block ``at_block``, their first
        line being ``first_line``."""
        bases, firsts, blocks = [], [], []
        for i in range(0, len(starts), BLOCK):
            chunk = starts[i : i + BLOCK]
            base = chunk[0]
            bases.append(base)
            firsts.append(first_line + i)
            blocks.append([s - base for s in chunk])
        self.bases[at_block:at_block] = bases
        self.firsts[at_block:at_block] = firsts
        self.blocks[at_block:at_block] = blocks

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("line number out of range")
        b = bisect.bisect_right(self.firsts, index) - 1
        return self.bases[b] + self.blocks[b][index - self.firsts[b]]

    def __iter__(self) -> Iterator[int]:
        for base, block in zip(self.bases, self.blocks, strict=True):
            for s in block:
                yield base + s

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LineTable | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"LineTable({list(self)!r})"

    def bisect_left(self, offset: int) -> int:
        """The first line whose start is at or after ``offset`` (``bisect.bisect_left`` on the
        starts)."""
        b = bisect.bisect_right(self.bases, offset) - 1
        if b < 0:
            return 0
        return self.firsts[b] + bisect.bisect_left(self.blocks[b], offset - self.bases[b])

    def bisect_right(self, offset: int) -> int:
        """The first line whose start is after ``offset`` (``bisect.bisect_right`` on the starts)."""
        b = bisect.bisect_right(self.bases, offset) - 1
        if b < 0:
            return 0
        return self.firsts[b] + bisect.bisect_right(self.blocks[b], offset - self.bases[b])

    def splice(self, keep: int, after: int, new: Sequence[int], delta: int) -> None:
        """Become ``starts[:keep] + new + [s + delta for s in starts[after:]]``, where ``0 < keep <=
        after <= len`` and ``new`` lies between ``starts[keep - 1]`` and ``starts[after] + delta``:
        the starts an edit removed (lines ``keep`` to ``after - 1``), the ones it made, and the
        lines after it moved by the bytes it added."""
        if not 0 < keep <= after <= self._count:
            raise IndexError(f"no lines {keep}..{after} of {self._count}")
        b1 = bisect.bisect_right(self.firsts, keep - 1) - 1  # the block of the line kept before the edit
        b2 = bisect.bisect_right(self.firsts, after) - 1 if after < self._count else len(self.blocks) - 1
        first_line = self.firsts[b1]
        spans = zip(self.bases[b1 : b2 + 1], self.blocks[b1 : b2 + 1], strict=True)
        touched = [base + s for base, block in spans for s in block]
        rel_keep, rel_after = keep - first_line, after - first_line
        rewritten = touched[:rel_keep] + list(new) + [s + delta for s in touched[rel_after:]]
        del self.bases[b1 : b2 + 1], self.firsts[b1 : b2 + 1], self.blocks[b1 : b2 + 1]
        left = len(self.blocks)
        if len(rewritten) <= 2 * BLOCK:
            base = rewritten[0]
            self.bases.insert(b1, base)
            self.firsts.insert(b1, first_line)
            self.blocks.insert(b1, [s - base for s in rewritten])
        else:
            self._fill(rewritten, b1, first_line)
        added = len(new) - (after - keep)
        for b in range(b1 + len(self.blocks) - left, len(self.bases)):
            self.bases[b] += delta
            self.firsts[b] += added
        self._count += added
