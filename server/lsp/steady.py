"""Steady findings while typing: what an edit did not touch stays where it was, moved with the edit.

Half-typed code often does not parse: after ``if (x) {`` the open brace swallows every function
below it, so a check of that text finds nothing there, and the user saw the squiggles of untouched
functions vanish and come back with each keystroke. An edit cannot change the text of a function it
does not overlap, so such a function's findings are kept from the last publication (their lines moved
by the lines the edits added or removed above them) whenever the new parse does not find the function
where its unchanged text now is. Where it does find it, the new check's findings are taken: they are
the findings of the same text, re-derived with whatever the edit changed elsewhere (a callee that now
frees its argument), so a kept finding never hides a newer result for the same text.

A function is *touched* when one of the lines its extent covered carries an edit (whole lines: a
position on an edited line cannot be moved reliably, columns before and after the edit differ). Its
findings are the new check's only: they may drop or be re-derived, as the user changed its code.

Everything here is in the coordinates of the open document: LSP lines, which are the rows of the
text the front end is handed (see ``line_ends``). Only the lines of the edited file move; witness
steps in other files keep theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from lsprotocol import types

from extractors.api import Finding, Location
from server.line_ends import split_lines

Extent = tuple[int, int]  # a function's first and last line


class LineShift:
    """Where each line of an earlier text is after the edits made since, in order: a line no edit
    touched moves by the lines inserted or deleted above it; a line an edit touched has no place
    (None), and neither has any line once the whole text was replaced."""

    def __init__(self) -> None:
        self._edits: list[tuple[int, int, int]] = []  # (first line, last old line, last new line)
        self._replaced = False

    @property
    def empty(self) -> bool:
        return not self._edits and not self._replaced

    @property
    def replaced(self) -> bool:
        """The whole text was replaced: no line of the earlier text has a place."""
        return self._replaced

    def add(self, change: types.TextDocumentContentChangeEvent) -> None:
        """Record one content change (LSP applies a notification's changes in order, each in the
        coordinates the previous left)."""
        if not isinstance(change, types.TextDocumentContentChangePartial):
            self._replaced = True
            return
        start, end = change.range.start.line, change.range.end.line
        first, last = min(start, end), max(start, end)
        self._edits.append((first, last, first + len(split_lines(change.text)) - 1))

    def line(self, number: int) -> int | None:
        if self._replaced:
            return None
        for first, last_old, last_new in self._edits:
            if number > last_old:
                number += last_new - last_old
            elif number >= first:
                return None
        return number

    def extent(self, extent: Extent) -> Extent | None:
        """The extent's place now, or None if an edit touched any of its lines (an edit between
        its first and last line included)."""
        if self._replaced:
            return None
        start, last = extent
        for first, last_old, last_new in self._edits:
            if first <= last and start <= last_old:
                return None
            if start > last_old:  # the edit is above: the whole extent moves
                start += last_new - last_old
                last += last_new - last_old
        return start, last

    def finding(self, finding: Finding) -> Finding | None:
        """The finding with its lines (and its witness steps' lines in the same file) moved, or None
        if any of them is on a touched line."""
        location = self.location(finding.location, finding.location.path)
        if location is None:
            return None
        steps = []
        for step in finding.witness:
            moved = self.location(step.location, finding.location.path)
            if moved is None:
                return None
            steps.append(replace(step, location=moved))
        return replace(finding, location=location, witness=tuple(steps))

    def location(self, location: Location, path: str) -> Location | None:
        if location.path != path or self.empty:
            return location
        start, end = self.line(location.start_line), self.line(location.end_line)
        if start is None or end is None:
            return None
        return replace(location, start_line=start, end_line=end)


@dataclass(frozen=True)
class Shown:
    """What was last published for an open document: its findings and the extent of each function
    of the text they were found in (or, for a kept function, where its text is now)."""

    findings: tuple[Finding, ...] = ()
    extents: Mapping[str, Extent] = field(default_factory=dict)


def settle(
    path: str, shown: Shown | None, shift: LineShift, found: Sequence[Finding], extents: Mapping[str, Extent]
) -> Shown:
    """The findings to publish for ``path`` now: the new check's ``found`` (with ``extents``, its
    parse's functions), plus the shown findings of every function the edits since (``shift``) did
    not touch and the new parse does not find in place. New findings that fall inside such a kept
    function are the half-typed code's artefacts (the function that swallowed it) and are left out."""
    if shown is None:
        return Shown(_in_order(found), dict(extents))
    kept: dict[str, Extent] = {}
    for name, old in shown.extents.items():
        now = shift.extent(old)
        if now is not None and extents.get(name) != now:
            kept[name] = now
    if not kept:
        return Shown(_in_order(found), dict(extents))
    out = [f for f in found if f.function not in kept and not _inside(f, path, kept.values())]
    for old_finding in shown.findings:
        if old_finding.function in kept:
            moved = shift.finding(old_finding)
            if moved is not None and moved not in out:
                out.append(moved)
    merged = {name: extent for name, extent in extents.items() if name not in kept}
    merged.update(kept)
    return Shown(_in_order(out), merged)


def _in_order(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """By place: one order whatever was kept, so that the same findings publish the same list (the
    edited functions' first publication and the check's then are one publication, not two)."""
    return tuple(sorted(findings, key=lambda f: (f.location, f.rule_id, f.message)))


def _inside(finding: Finding, path: str, extents: Iterable[Extent]) -> bool:
    line = finding.location.start_line
    return finding.location.path == path and any(start <= line <= last for start, last in extents)
