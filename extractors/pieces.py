"""Where a C text can be cut into pieces that tree-sitter reads one at a time, so that an edit
re-reads the one piece it touches instead of the whole file.

A cut goes after the line of a ``}`` that closes a brace pair opened at file scope (a function
body, a struct, an enum, an initialiser), when the rest of that line can end a top-level item
(``;``, a declarator's name, a comment) and the scan is in the first branch of every preprocessor
conditional open there.  So a piece is most often one function with the declarations before it,
and a syntax error (or a construct tree-sitter reads wrong) stays inside the item it is in.
Braces are counted outside comments, string and character literals and directive
lines, and only in the first branch of each conditional (``#if X`` / ``if (a) {`` / ``#else`` /
``if (b) {`` / ``#endif`` opens one pair, as the code does either way); a count that would go
below zero stays at zero (``extern "C" {`` opens a pair too, so nothing inside it is cut off from
it: tree-sitter reads what is inside as a block of it).  Brace pairs that only a macro's expansion
balances make pieces bigger, never wrong: a piece is always a run of whole lines.

A cut also goes before a function definition's header at column 0 met while a brace pair opened
at file scope (not ``extern "C" {``) is still open, and closes that pair: C has no nested
functions, so the pair was left open (a ``{`` just typed, a ``};`` deleted), and the brace spoils
one piece instead of every item after it.  Balanced code has no such line, unless a macro
call written at column 0 inside a body opens a block (``FOREACH(x) {``): that body is then cut
in two, as a syntax error in it would cut it.

Most code of a big file sits inside some conditional (``#ifndef SQLITE_OMIT_AUTOVACUUM``, an
include guard), so cuts fall inside them: a piece carries the directive lines of the conditionals
open where it starts (``opened``), which :func:`readable` puts in front of it, and closes those
still open at its end, so that tree-sitter reads it as it reads the same lines in the whole file.

Invariant (what makes re-cutting cheap and exact): the cuts are a function of the text alone,
found by one left-to-right scan whose whole state at a cut is the list of the conditionals open
there, and whether a place is a cut depends on the bytes before it and at most ``_LOOKAHEAD``
bytes after it (a header's lines).  So wherever the new text has a cut with the same conditionals
open as at the start of an old piece, followed by that piece's bytes, the scan makes that piece
again: :func:`recut` takes the old pieces over where they recur and scans only the text between
(from the last cut at least ``_LOOKAHEAD`` before the change), and gives exactly what :func:`cut`
gives for the new text.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from itertools import accumulate
from typing import NamedTuple

from extractors.common_ends import common_prefix, common_suffix

_TOKEN = re.compile(
    rb"/\*.*?(?:\*/|\Z)"  # a block comment, to its end or the text's
    rb"|//(?:\\\r?\n|[^\n])*"  # a line comment, joined to the next line by a backslash-newline
    rb'|"(?:\\.|[^"\\\n])*"?'  # a string literal (an unterminated one ends with its line)
    rb"|'(?:\\.|[^'\\\n])*'?"  # a character literal
    rb"|\n[ \t]*#[ \t]*([a-z]*)(?:\\\r?\n|/\*.*?(?:\*/|\Z)|[^\n])*"  # a directive line (group 1: its kind)
    rb"|[{}]"
    rb"|\n(?=[A-Za-z_])",  # a line that starts with a name at column 0 (a definition's header?)
    re.S,
)
# a function definition's header at column 0: specifiers and declarator words, the name, ``(``
_HEADER = re.compile(rb"(?:[A-Za-z_]\w*(?:[ \t]+|[ \t]*\*[ \t*]*))*([A-Za-z_]\w*)[ \t]*\(")
_NOT_DECLARATOR = frozenset(
    {b"if", b"else", b"while", b"for", b"do", b"switch", b"case", b"default", b"return", b"goto",
     b"break", b"continue", b"sizeof", b"typedef"}
)
# what opens a pair whose inside is file scope: definitions in it are not a pair left open
_LINKAGE = re.compile(rb'(?:\bextern[ \t]*"[^"\n]*"|\bnamespace(?:[ \t]+[A-Za-z_][\w:]*)?)\s*\Z')
_WORD = re.compile(rb"[A-Za-z_]\w*")
_BODY_NEXT = re.compile(rb"[ \t\r\n]*\{")  # after the parameter list: the body's brace
_SPECIFIERS = re.compile(rb"[A-Za-z_][\w \t*]*\r?")  # a line of words only (GNU style: ``static int``)
_LINE_WITHIN = 256  # bytes a header's line, or a line of specifiers before it, may span
_SPECIFIER_LINES = 4  # lines of specifiers before a header
_PARAMETERS_WITHIN = 4096  # bytes a parameter list may span
# how far past a cut the bytes that decide it may lie: a re-cut starts this much before a change
_LOOKAHEAD = (_SPECIFIER_LINES + 2) * _LINE_WITHIN + _PARAMETERS_WITHIN
_ENDS_ITEM = re.compile(rb"[ \t]*(?:[A-Za-z_]\w*[ \t]*)?(?:;[ \t]*)?(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?\r?")
_OPENS = frozenset({b"if", b"ifdef", b"ifndef"})
_BRANCHES = frozenset({b"elif", b"elifdef", b"elifndef", b"else"})


class Piece(NamedTuple):
    """A run of whole lines of a text, and the directive lines of the conditionals open where it
    starts, outermost first: position-free, so that it keys what is read from it wherever it is."""

    opened: tuple[bytes, ...]
    text: bytes


def readable(text: bytes, opened: tuple[bytes, ...]) -> tuple[bytes, int]:
    """A piece as tree-sitter should read it: after the directive lines that open the conditionals
    open at its start and before the ``#endif`` lines that close those its lines leave open; with
    the number of rows put in front."""
    open_at_end = len(opened) + _balance(text)
    if not opened and open_at_end <= 0:
        return text, 0
    head = b"".join(line + b"\n" for line in opened)
    tail = b"\n#endif" * max(0, open_at_end) + (b"\n" if open_at_end > 0 else b"")
    return head + text + tail, head.count(b"\n")


def cut(data: bytes) -> tuple[Piece, ...]:
    """The pieces of ``data`` in order (one, the whole text, when it has no cut point)."""
    return _pieces(data, 0, (), _scan(data, 0, ()))


def recut(data: bytes, old_data: bytes, old: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """:func:`cut` of ``data``, given the pieces ``old`` of ``old_data``: the pieces before the
    first byte that changed are kept, and so are those after the last one from the first place
    where the scan, started again at the last cut before the change, cuts where ``old_data`` had a
    cut with the same conditionals open (the same text follows, so the same cuts)."""
    if not old:
        return cut(data)
    starts = [0, *accumulate(len(p.text) for p in old)]  # starts[k]: where old[k] begins
    first = common_prefix(old_data, data)
    same_tail = common_suffix(old_data, data, min(len(old_data), len(data)) - first)
    # the first piece the change touches, or one whose start a header after it decides
    k = min(bisect_right(starts, max(0, first - _LOOKAHEAD)) - 1, len(old) - 1)
    moved = len(data) - len(old_data)
    unchanged_from = len(old_data) - same_tail  # old bytes from here on are the new text's end

    def lands(at: int, opened: tuple[bytes, ...]) -> int | None:
        """The old piece that starts at the new text's ``at``, behind which the text is the old."""
        j = bisect_left(starts, at - moved, k + 1, len(old))
        if j < len(old) and starts[j] == at - moved >= unchanged_from and old[j].opened == opened:
            return j
        return None

    out = list(old[:k])
    start, opened = starts[k], old[k].opened
    for end, after in _scan(data, start, opened):
        out.append(Piece(opened, data[start:end]))
        start, opened = end, after
        if (j := lands(end, after)) is not None:
            return (*out, *old[j:])
    if start < len(data) or not out:
        out.append(Piece(opened, data[start:]))
    return tuple(out)


def _pieces(data: bytes, start: int, opened: tuple[bytes, ...], cuts: Iterable[_Cut]) -> tuple[Piece, ...]:
    out: list[Piece] = []
    for end, after in cuts:
        out.append(Piece(opened, data[start:end]))
        start, opened = end, after
    if start < len(data) or not out:
        out.append(Piece(opened, data[start:]))
    return tuple(out)


_Cut = tuple[int, tuple[bytes, ...]]  # where, and the conditionals open there


def _scan(data: bytes, start: int, opened: tuple[bytes, ...]) -> Iterator[_Cut]:
    """The cut points after ``start`` (0 or a cut, inside the conditionals ``opened``), each with
    the conditionals open there."""
    depth = 0
    last = start  # the last cut: a piece begins after it
    linkage: list[int] = []  # the depths of the open ``extern "C" {`` (and C++ ``namespace``) pairs
    stack: list[bytes] = list(opened)  # the directive lines of the open conditionals
    branches: list[int] = [0] * len(opened)  # the branch the scan is in, of each of them
    counting = True  # in the first branch of every open conditional
    # a directive token starts with the newline before it: scan from the one before ``start``
    # (a cut follows a newline), or from a newline put in front of the whole text
    text, offset = (data, 0) if start > 0 else (b"\n" + data, -1)
    for m in _TOKEN.finditer(text, start - 1 if start > 0 else 0):
        token = m.group()
        if token == b"{":
            if counting:
                depth += 1
                if _LINKAGE.search(data, max(0, m.start() + offset - 64), m.start() + offset):
                    linkage.append(depth)
        elif token == b"}":
            if not counting:
                continue
            depth = max(0, depth - 1)
            while linkage and linkage[-1] > depth:
                linkage.pop()
            if depth:
                continue
            at = m.end() + offset
            line_end = data.find(b"\n", at)
            if line_end < 0 or not _ENDS_ITEM.fullmatch(data, at, line_end):
                continue
            if data[at:line_end].rstrip(b"\r").endswith(b"\\"):
                continue  # a comment the next line continues
            point = line_end + 1
            if point >= len(data):
                continue
            last = point
            yield point, tuple(stack)
        elif token == b"\n":
            header = _header_start(data, m.end() + offset, last) if depth and counting and not linkage else None
            if header is not None:
                depth = 0  # the pair open here is never closed before this definition
                last = header
                yield header, tuple(stack)
        elif token[:1] == b"\n":
            kind = m.group(1)
            if kind in _OPENS:
                stack.append(token[1:])
                branches.append(0)
            elif kind in _BRANCHES and branches:
                branches[-1] += 1
            elif kind == b"endif" and branches:
                stack.pop()
                branches.pop()
            else:
                continue
            counting = not any(branches)


def _header_start(data: bytes, at: int, floor: int) -> int | None:
    """Where the definition whose header starts the line at ``at`` begins (GNU style: with the
    lines of words before it), when that line is the header of a function definition: a name and
    a parameter list at column 0, then the body's ``{``; None when it is not. Inside a brace pair
    opened at file scope no such line is written (C has no nested functions, and statements and
    labels do not look so), so one means the pair was left open: the definition starts a piece,
    and an unclosed brace (a ``{`` just typed, a ``};`` deleted) spoils one piece, not the rest of
    the file. ``floor``: the last cut, which a piece cannot begin before."""
    header = _HEADER.match(data, at, at + _LINE_WITHIN)
    if header is None:
        return None
    first = _WORD.match(data, at)
    if (first is not None and first.group() in _NOT_DECLARATOR) or header.group(1) in _NOT_DECLARATOR:
        return None
    depth, i, limit = 1, header.end(), min(len(data), header.end() + _PARAMETERS_WITHIN)
    while depth and i < limit:
        c = data[i]
        depth += (c == 0x28) - (c == 0x29)  # ( and )
        if c in b";{}":
            return None  # a statement or an initialiser, not a parameter list
        i += 1
    if depth or not _BODY_NEXT.match(data, i, i + _LINE_WITHIN):
        return None
    for _ in range(_SPECIFIER_LINES):
        line = data.rfind(b"\n", max(floor, at - 1 - _LINE_WITHIN), at - 1) + 1
        if line <= floor or not _SPECIFIERS.fullmatch(data, line, at - 1):
            break
        at = line
    return at if at > floor else None


def _balance(text: bytes) -> int:
    """The conditionals ``text`` opens less those it closes (an ``#endif`` of one opened before
    it counts -1)."""
    balance = 0
    for m in _TOKEN.finditer(b"\n" + text):
        kind = m.group(1)
        if kind in _OPENS:
            balance += 1
        elif kind == b"endif":
            balance -= 1
    return balance
