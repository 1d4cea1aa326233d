"""Line ends as LSP counts them (``\\n``, ``\\r\\n`` and a lone ``\\r`` each end a line), and the text
the front end reads.

tree-sitter, and so every row the front end reports, counts ``\\n`` only: in a file with old Mac
``\\r`` line ends everything would be on row 0. The front end is therefore handed the text with each
lone ``\\r`` made ``\\n``: one byte for one byte, so byte offsets stay valid, and its rows become the
editor's lines (a ``\\r\\n`` is left alone: tree-sitter reads the ``\\r`` as a blank at the end of
the row, which is where LSP's line ends). Python's ``splitlines`` is no substitute: it also splits
at form feeds and other separators that neither LSP nor tree-sitter counts.

Every reader of C text does this, so that ``ctlsp check``, the headers' macros and the editor agree on
lines: files from disk through ``workspace.read_text``, open buffers through ``lsp/documents``.
"""

from __future__ import annotations

import re

LINE_END = re.compile(rb"\r\n?|\n")
_LINE_END_TEXT = re.compile(r"\r\n?|\n")
_LONE_CR = re.compile(rb"\r(?!\n)")
_LONE_CR_TEXT = re.compile(r"\r(?!\n)")


def line_starts(source: bytes) -> list[int]:
    """Byte offset of the start of every line."""
    return [0, *(m.end() for m in LINE_END.finditer(source))]


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends (a final line end starts an empty last line)."""
    return _LINE_END_TEXT.split(text)


def checked_bytes(source: bytes) -> bytes:
    """``source`` as the front end reads it: each lone ``\\r`` made ``\\n``; ``source`` itself
    (the same object) when it has none, so that callers can tell by identity."""
    if b"\r" not in source:
        return source
    checked = _LONE_CR.sub(b"\n", source)
    return source if checked == source else checked


def checked_text(text: str) -> str:
    """``text`` as the front end reads it: each lone ``\\r`` made ``\\n``."""
    return _LONE_CR_TEXT.sub("\n", text) if "\r" in text else text
