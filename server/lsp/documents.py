"""Open C documents kept as UTF-8 bytes with their line table, edited in place.

The server applies each LSP content change itself so that a keystroke in a 50k-line file costs a
splice of the bytes and a patch of the line table, not a re-read of the text.  The server parses
no C: which functions an edit changed is the front end's answer, in the checker process
(``CheckOutcome.changed_functions``), so the thread that answers requests never holds a parse of
a 270k-line file.

Lines are LSP's (``\\n``, ``\\r\\n`` or a lone ``\\r`` ends one); ``checked_text`` is the text the
front end reads, where each lone ``\\r`` is ``\\n`` (see ``line_ends``), so that its rows are those lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lsprotocol import types

from server.line_ends import LINE_END, checked_bytes, line_starts
from server.lsp.line_table import LineTable
from server.lsp.positions import UTF16, Columns

_ENCODING_ERRORS = "surrogatepass"

Point = tuple[int, int]


def encode(text: str) -> bytes:
    return text.encode("utf-8", _ENCODING_ERRORS)


def decode(data: bytes) -> str:
    return data.decode("utf-8", _ENCODING_ERRORS)


_line_starts = line_starts


def _spliced(data: bytes, start: int, end: int, inserted: bytes) -> bytes:
    """``data[:start] + inserted + data[end:]`` copied once: slices of a view copy nothing, where
    slicing the bytes and adding them copied a 10 MB text more than twice per keystroke."""
    view = memoryview(data)
    return b"".join((view[:start], inserted, view[end:]))


@dataclass
class Document:
    """One open C file: its text (bytes), version and line table.

    ``source`` is the editor's text; ``checked`` the same bytes with each lone ``\\r`` made ``\\n``,
    which ``checked_text`` hands to the checks.
    """

    uri: str
    path: str
    version: int
    source: bytes
    columns: Columns = field(default=UTF16, repr=False)
    checked: bytes = field(init=False, repr=False)
    line_starts: LineTable = field(init=False, repr=False)
    _text: str | None = field(default=None, init=False, repr=False)
    _checked_text: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.checked = checked_bytes(self.source)
        self.line_starts = LineTable(line_starts(self.source))

    @classmethod
    def from_text(cls, uri: str, path: str, version: int, text: str, columns: Columns = UTF16) -> Document:
        return cls(uri, path, version, encode(text), columns)

    @property
    def text(self) -> str:
        """The editor's text."""
        if self._text is None:
            self._text = decode(self.source)
        return self._text

    @property
    def checked_text(self) -> str:
        """The text the checks read: lone ``\\r`` made ``\\n``, rows are LSP lines."""
        if self.checked is self.source:
            return self.text
        if self._checked_text is None:
            self._checked_text = decode(self.checked)
        return self._checked_text

    def line_text(self, line: int) -> str:
        """Text of ``line`` without its line break ('' past the end)."""
        if line < 0 or line >= len(self.line_starts):
            return ""
        start = self.line_starts[line]
        end = self.line_starts[line + 1] - 1 if line + 1 < len(self.line_starts) else len(self.source)
        raw = self.source[start:end]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        return decode(raw)

    def line_end(self, line: int) -> str:
        """The line break ending ``line`` (of the line before, for a last line without one): what a
        line inserted there should end with, so that a ``\\r`` or ``\\r\\n`` file keeps its line ends."""
        for number in (line, line - 1):
            if 0 <= number < len(self.line_starts) - 1:
                start = self.line_starts[number]
                end = self.line_starts[number + 1]
                found = LINE_END.search(self.source, start, end)
                if found is not None:
                    return found.group().decode()
        return "\n"

    def locate(self, position: types.Position) -> tuple[int, Point]:
        """Byte offset and (line, byte column) of an LSP position, clamped into the document."""
        if position.line >= len(self.line_starts):
            end = len(self.source)
            last = len(self.line_starts) - 1
            return end, (last, end - self.line_starts[last])
        line = max(position.line, 0)
        text = self.line_text(line)
        column = self.columns.to_codepoints(text, position.character)
        byte_column = len(encode(text[:column]))
        return self.line_starts[line] + byte_column, (line, byte_column)

    def apply_changes(self, changes: Sequence[types.TextDocumentContentChangeEvent], version: int) -> None:
        """Apply LSP changes in order."""
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangeWholeDocument):
                self.source = encode(change.text)
                self.checked = checked_bytes(self.source)
                self.line_starts = LineTable(line_starts(self.source))
            else:
                self._apply_one(change)
        self.version = version
        self._text = None
        self._checked_text = None

    def _apply_one(self, change: types.TextDocumentContentChangePartial) -> None:
        start, _ = self.locate(change.range.start)
        old_end, _ = self.locate(change.range.end)
        start, old_end = min(start, old_end), max(start, old_end)
        inserted = encode(change.text)
        if self.source[start - 1 : start] == b"\r":
            # A lone \r just before the edit becomes half of a \r\n if the new text starts with \n
            # (or stops being one if a \n after it goes): its line end and its byte in the checked
            # text change with the edit, so the edit starts at it.
            start -= 1
            inserted = b"\r" + inserted
        new_end = start + len(inserted)
        no_lone_cr = self.checked is self.source
        self.source = _spliced(self.source, start, old_end, inserted)
        if no_lone_cr and b"\r" not in inserted:  # still none: a \r\n is never split by an edit
            self.checked = self.source
        else:
            # One byte past the insertion is read too: a \r at its end is lone or not by what follows.
            checked = checked_bytes(self.source[start : new_end + 1])[: len(inserted)]
            self.checked = _spliced(self.checked, start, old_end, checked)
            if self.checked == self.source:  # the last lone \r went: share the bytes again
                self.checked = self.source
        self._update_line_starts(start, old_end, new_end)

    def _update_line_starts(self, start: int, old_end: int, new_end: int) -> None:
        """Patch the line table around an edit (``self.source`` is already the new text) instead of
        rescanning a possibly huge file.

        Whether offset ``s`` starts a line depends on the bytes at ``s - 1`` and ``s`` only, so the
        starts the edit can change are those in ``[start, old_end]`` before it, ``[start, new_end]``
        after it; offset 0 always starts one.
        """
        starts = self.line_starts
        first = max(start, 1)
        keep = starts.bisect_left(first)
        after = starts.bisect_right(old_end)
        delta = new_end - old_end
        # From the byte before ``first`` to the byte after the insertion, which tells a \r\n from a
        # lone \r at its end; a match ending past ``new_end`` starts a line the edit did not change.
        ends = (m.end() for m in LINE_END.finditer(self.source, first - 1, new_end + 1))
        new = [s for s in ends if s <= new_end]
        starts.splice(keep, after, new, delta)
