"""Column conversions between the three units in play: LSP UTF-16 code units, code points, UTF-8 bytes.

LSP positions count UTF-16 code units, tree-sitter counts bytes and findings count code points; mixing
them up misplaces every diagnostic on a line holding a non-ASCII character, so all conversions live here.
"""

from __future__ import annotations


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def utf16_to_codepoints(line: str, col: int) -> int:
    """Code point index for a UTF-16 column, clamped to the line (LSP says clamp, never fail)."""
    if line.isascii():
        return max(0, min(col, len(line)))
    units = 0
    for index, ch in enumerate(line):
        if units >= col:
            return index
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def codepoints_to_utf16(line: str, col: int) -> int:
    col = max(0, min(col, len(line)))
    return utf16_len(line[:col])


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def utf8_to_codepoints(line: str, col: int) -> int:
    data = line.encode("utf-8", "surrogatepass")
    col = max(0, min(col, len(data)))
    return len(data[:col].decode("utf-8", "ignore"))


class Columns:
    """Column conversion for the position encoding negotiated with the client (UTF-16 unless agreed)."""

    def __init__(self, encoding: str = "utf-16") -> None:
        self.encoding = encoding

    def to_codepoints(self, line: str, col: int) -> int:
        if self.encoding == "utf-32":
            return max(0, min(col, len(line)))
        if self.encoding == "utf-8":
            return utf8_to_codepoints(line, col)
        return utf16_to_codepoints(line, col)

    def from_codepoints(self, line: str, col: int) -> int:
        col = max(0, min(col, len(line)))
        if self.encoding == "utf-32":
            return col
        if self.encoding == "utf-8":
            return utf8_len(line[:col])
        return codepoints_to_utf16(line, col)


UTF16 = Columns()
