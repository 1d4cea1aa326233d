"""Preprocessor conditionals: which branch is active under the known defines, and position-keeping
variants of a text with one branch of each conditional kept.

Why variants: tree-sitter parses ``#if``/``#else`` inside a function only when each branch is whole
statements.  A conditional that splits a brace pair (``#ifdef X  if (a) {  #else  if (b) {  #endif``)
or sits inside an expression leaves an ERROR node, and at top level the error can swallow the rest
of the file.  A *variant* keeps one branch of every conditional and blanks the directives and the
other branches with spaces, byte for byte, so rows, columns and offsets of what is kept are those of
the original text.  Variant 0 keeps the first branch of every conditional, variant 1 the last one
(the ``#else``); a conditional the defines decide keeps its active branch in both, and so does one
that the variant's earlier picks decide (:class:`Assumed`: after ``#ifdef X`` kept, ``#ifndef X``
is not).  A function modelled from several variants is their choice: the code runs one of them.

Defines are tri-state: a name listed as defined (``-D``, ``[preprocessor] defines``, a file's own
``#define NAME value``), listed as undefined (``-U``, ``[preprocessor] undefines``), or unknown (a
header ctlsp did not read may define it).  A condition over an unknown name is undecided and both
branches stay.  *Closed* defines (:data:`TARGET`) are the one build a compiler makes when told
nothing more: an unknown name is undefined, as the C preprocessor reads it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b", re.MULTILINE)
_TOKEN = re.compile(
    r"\s*(?:(0[xX][0-9a-fA-F]+|\d+|'(?:\\.|[^'\\\n])+')[uUlL]*|([A-Za-z_]\w*)"
    r"|(&&|\|\||==|!=|<=|>=|<<|>>|[!~()<>+\-*/%&|^]))"
)


Guard = tuple[tuple[str, ...], "int | None"]  # the condition a name is defined under, its value then


@dataclass(frozen=True)
class Defines:
    """What the configuration says of macro names: ``defined`` maps a name to its value (None when
    it is defined without an integer value), ``undefined`` names those known not to be defined.
    ``guarded``: names a file defines only under conditions nothing decides, each with that
    condition (as :func:`condition_tokens` spells it) and its value there; unknown to
    :func:`condition`, and read through the condition by :class:`Assumed`, so that ``#ifdef A``
    and ``#ifdef B`` of an ``#if X  #define A  #else  #define B`` pair exclude each other.  A
    name also in ``defined`` (defined whatever the tests, to numbers that differ) has the
    condition under which its value is not 0, for ``#if A`` alone."""

    defined: Mapping[str, int | None] = field(default_factory=dict)
    undefined: frozenset[str] = frozenset()
    closed: bool = False  # a name neither defined nor undefined is undefined, not unknown
    guarded: Mapping[str, Guard] = field(default_factory=dict)

    def with_file(self, consts: Mapping[str, int]) -> Defines:
        """These defines, and a file's own ``#define NAME number`` lines that they leave unknown
        (what these say of a name, defined, undefined or guarded, wins)."""
        if not consts:
            return self
        kept = {n: v for n, v in consts.items() if n not in self.undefined and n not in self.guarded}
        return Defines({**kept, **self.defined}, self.undefined, self.closed, self.guarded)

    def overlaid(self, top: Defines) -> Defines:
        """These defines with ``top``'s on top: what ``top`` defines or undefines wins."""
        if not top.defined and not top.undefined:
            return self
        defined = {n: v for n, v in self.defined.items() if n not in top.undefined}
        defined.update(top.defined)
        guarded = {n: g for n, g in self.guarded.items() if n not in top.defined and n not in top.undefined}
        undefined = self.undefined.difference(top.defined) | top.undefined
        return Defines(defined, undefined, self.closed, guarded)

    def key(self) -> str:
        """A stable text naming these defines, for digests."""
        return repr((sorted(self.defined.items()), sorted(self.undefined), self.closed, sorted(self.guarded.items())))

    def closed_world(self) -> Defines:
        """These defines, on top of what :data:`TARGET` predefines, with every other name undefined."""
        target = {n: v for n, v in TARGET.items() if n not in self.undefined}
        return Defines({**target, **self.defined}, self.undefined, True)


NO_DEFINES = Defines()

# What gcc predefines on x86-64 Linux (``gcc -dM -E - </dev/null``, the names code tests): the
# target the closed-world build (:meth:`Defines.closed_world`) is made for.  Only those a condition
# reads for a platform, a compiler, a word size or a byte order.
TARGET: Mapping[str, int | None] = {
    "__GNUC__": 12,
    "__GNUC_MINOR__": 2,
    "__GNUC_PATCHLEVEL__": 0,
    "__STDC__": 1,
    "__STDC_VERSION__": 201710,
    "__STDC_HOSTED__": 1,
    "__linux__": 1,
    "__linux": 1,
    "__gnu_linux__": 1,
    "__unix__": 1,
    "__unix": 1,
    "__ELF__": 1,
    "__x86_64__": 1,
    "__x86_64": 1,
    "__amd64__": 1,
    "__LP64__": 1,
    "_LP64": 1,
    "__CHAR_BIT__": 8,
    "__SIZEOF_SHORT__": 2,
    "__SIZEOF_INT__": 4,
    "__SIZEOF_LONG__": 8,
    "__SIZEOF_LONG_LONG__": 8,
    "__SIZEOF_POINTER__": 8,
    "__SIZEOF_SIZE_T__": 8,
    "__ORDER_LITTLE_ENDIAN__": 1234,
    "__ORDER_BIG_ENDIAN__": 4321,
    "__ORDER_PDP_ENDIAN__": 3412,
    "__BYTE_ORDER__": 1234,
}


def macro_name(text: str) -> str:
    """``text`` stripped, when it is a macro name (``-U``, ``undefines``); ValueError otherwise."""
    name = text.strip()
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError(f"not a macro name: {name!r}")
    return name


def parse_define(text: str) -> tuple[str, int | None]:
    """``NAME`` or ``NAME=VALUE`` as on a compiler's command line (``-DNAME`` means ``NAME=1``);
    ValueError when the name is not an identifier."""
    name, eq, value = text.partition("=")
    name = macro_name(name)
    if not eq:
        return name, 1
    try:
        return name, int(value.strip().rstrip("uUlL"), 0)
    except ValueError:
        return name, None


class _Undecided(Exception):
    pass


def condition(kind: str, rest: str, defines: Defines) -> bool | None:
    """Whether the directive ``#kind rest`` selects its branch: True, False, or None (undecided).
    ``kind`` is ``if``, ``ifdef``, ``ifndef``, ``elif``, ``elifdef`` or ``elifndef``."""
    rest = re.sub(r"/\*.*?\*/|//.*", " ", rest.replace("\\\n", " ")).strip()
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
        m = re.match(r"[A-Za-z_]\w*", rest)
        d = _defined(m.group(0), defines) if m else None
        if d is None:
            return None
        return d if kind in ("ifdef", "elifdef") else not d
    try:
        return _Evaluator(rest, defines).run() != 0
    except _Undecided:
        return None


def _defined(name: str, defines: Defines) -> bool | None:
    if name in defines.defined:
        return True
    if name in defines.undefined or defines.closed:
        return False
    return None


_ARITH = {
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: int(a / b),
    "%": lambda a, b: a - b * int(a / b),
    "<<": lambda a, b: a << b if 0 <= b < 64 else _undecided(),
    ">>": lambda a, b: a >> b if 0 <= b < 64 else _undecided(),
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
}


def _undecided() -> int:
    raise _Undecided


class _Evaluator:
    """``#if`` expressions: integers, names, ``defined``, ``! ~ - + * / % << >> < > <= >= == != & ^ |
    && ||`` and parentheses.  Unknown names and anything else raise :class:`_Undecided`; ``&&`` and ``||`` decide
    when one side does."""

    _PREC = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
             "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

    def __init__(self, text: str, defines: Defines, casts: bool = False) -> None:
        self.casts = casts  # a macro body's C, not an ``#if``: ``(size_t)1 << 14`` casts its operand
        self.tokens: list[str] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise _Undecided
            self.tokens.append(m.group(1) or m.group(2) or m.group(3))
            pos = m.end()
        self.defines = defines
        self.i = 0

    def run(self) -> int:
        v = self.expr(0)
        if v is None or self.i != len(self.tokens):
            raise _Undecided
        return v

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        t = self.peek()
        if t is None:
            raise _Undecided
        self.i += 1
        return t

    def expr(self, min_prec: int) -> int | None:
        """The value, or None when it depends on an unknown name."""
        left = self.unary()
        while (op := self.peek()) in self._PREC and self._PREC[op] > min_prec:
            self.take()
            right = self.expr(self._PREC[op])
            left = self.apply(op, left, right)
        return left

    def apply(self, op: str, a: int | None, b: int | None) -> int | None:
        if op == "&&":
            return 0 if a == 0 or b == 0 else (None if a is None or b is None else 1)
        if op == "||":
            return 1 if (a not in (None, 0)) or (b not in (None, 0)) else (None if a is None or b is None else 0)
        if a is None or b is None:
            return None
        if op in ("/", "%") and b == 0:
            raise _Undecided
        return _ARITH[op](a, b)

    def unary(self) -> int | None:
        t = self.take()
        if t == "!":
            v = self.unary()
            return None if v is None else int(not v)
        if t == "-":
            v = self.unary()
            return None if v is None else -v
        if t == "~":
            v = self.unary()
            return None if v is None else ~v
        if t == "+":
            return self.unary()
        if t == "(":
            if self.casts and (cast := self.cast()) is not None:
                v = self.unary()
                return None if v is None else _converted(v, *cast)
            v = self.expr(0)
            if self.take() != ")":
                raise _Undecided
            return v
        if t == "defined":
            paren = self.peek() == "("
            if paren:
                self.take()
            name = self.take()
            if paren and self.take() != ")":
                raise _Undecided
            d = _defined(name, self.defines)
            return None if d is None else int(d)
        if t[0] == "'":
            return _char_value(t)
        if t[0].isdigit():
            try:
                return int(t, 8) if re.fullmatch(r"0\d+", t) else int(t, 0)
            except ValueError:  # 09
                raise _Undecided from None
        if t[0].isalpha() or t[0] == "_":
            if self.peek() == "(":
                raise _Undecided  # a function-like macro ctlsp does not expand
            value = self.defines.defined.get(t)
            if t in self.defines.undefined or (self.defines.closed and t not in self.defines.defined):
                return 0  # the preprocessor reads an undefined name as 0
            return value
        raise _Undecided


    def cast(self) -> tuple[int, bool] | None:
        """After a ``(``: the width and signedness of the integer type named up to its ``)``, taken;
        None (nothing taken) when no integer type is there."""
        end = self.tokens.index(")", self.i) if ")" in self.tokens[self.i :] else -1
        words = [w for w in self.tokens[self.i : end] if w != "const"] if end > self.i else []
        found = _INTEGER_TYPES.get(" ".join(words))
        if found is not None:
            self.i = end + 1
        return found


# integer types a macro body casts to, with their width and signedness on LP64 (the platforms ctlsp
# models: extractors.call_outcomes)
_INTEGER_TYPES: dict[str, tuple[int, bool]] = {
    "char": (8, True), "signed char": (8, True), "unsigned char": (8, False),
    "short": (16, True), "short int": (16, True), "unsigned short": (16, False), "unsigned short int": (16, False),
    "int": (32, True), "signed": (32, True), "signed int": (32, True), "unsigned": (32, False),
    "unsigned int": (32, False), "long": (64, True), "long int": (64, True), "unsigned long": (64, False),
    "unsigned long int": (64, False), "long long": (64, True), "unsigned long long": (64, False),
    "size_t": (64, False), "ssize_t": (64, True), "ptrdiff_t": (64, True), "intptr_t": (64, True),
    "uintptr_t": (64, False), "intmax_t": (64, True), "uintmax_t": (64, False),
    **{f"int{b}_t": (b, True) for b in (8, 16, 32, 64)},
    **{f"uint{b}_t": (b, False) for b in (8, 16, 32, 64)},
}  # fmt: skip


def _converted(value: int, bits: int, signed: bool) -> int:
    """``value`` converted to an integer type of ``bits`` bits, as C converts (modulo 2**bits)."""
    v = value & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >> (bits - 1) else v


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63}


def _char_value(literal: str) -> int:
    """The value of a one-character constant (``'A'``, ``'\\n'``, ``'\\301'``, ``'\\x41'``) as gcc
    reads it in an ``#if`` on x86-64: a plain ``char`` is signed, so ``'\\301'`` is -63.  Anything
    else (several characters, an unknown escape) is :class:`_Undecided`."""
    body = literal[1:-1]
    if len(body) == 1:
        value = ord(body)
        if value > 127:
            raise _Undecided  # a multi-byte character: gcc's value depends on the encoding
    elif body.startswith("\\x") and re.fullmatch(r"[0-9a-fA-F]{1,2}", body[2:]):
        value = int(body[2:], 16)
    elif body.startswith("\\") and re.fullmatch(r"[0-7]{1,3}", body[1:]):
        value = int(body[1:], 8) & 0xFF
    elif len(body) == 2 and body[0] == "\\" and body[1] in _ESCAPES:
        value = _ESCAPES[body[1]]
    else:
        raise _Undecided
    return value - 256 if value > 127 else value


_BOOLEANS = {"true": 1, "false": 0}


def value_of(body: str, defines: Defines) -> int | None:
    """The integer a macro body stands for under ``defines`` (``1``, ``(1 << 4)``, ``LEVEL + 1``);
    None when it is not one (a string, a type, a name nothing defines)."""
    body = _COMMENTS.sub(" ", body.replace("\\\n", " ")).strip()
    if not body:
        return None
    try:
        return _Evaluator(body, defines, casts=True).run()
    except _Undecided:
        # ``#define True true``: stdbool's true is ``1`` or ``((_Bool)+1u)`` (a cast, undecided
        # here), C23's a keyword; as a value it is 1 whichever
        return _BOOLEANS.get(body.strip("()").strip())


_COMMENTS = re.compile(r"/\*.*?\*/|//.*|/\*.*")  # the last: one that goes on past the line
_ANY_DIRECTIVE = re.compile(
    rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|define|undef|include)\b", re.MULTILINE
)
Directive = tuple[str, str]  # kind, the rest of its logical line without comments


def directives(data: bytes) -> tuple[Directive, ...]:
    """The conditional, ``#define``, ``#undef`` and ``#include`` lines of ``data`` in order: what
    decides which headers a file reads and what they define (:mod:`extractors.includes`).  A
    backslash-newline joins a line to the next; comments are left out (a directive inside a block
    comment that spans lines still counts: rare, and only ever makes a name unknown or defined).
    A ``#`` line that a backslash-newline joins to the line before is no directive: the splice
    comes first in C, so ``#define A \\`` then ``#define B 1`` defines ``A`` only.  Nor is a ``#``
    line inside a block comment that spans lines."""
    out: list[Directive] = []
    comments = _block_comments(data) if b"/*" in data else None
    for m in _ANY_DIRECTIVE.finditer(data):
        if continues_previous(data, m.start()) or (comments is not None and _inside(comments, m.start())):
            continue
        end = data.find(b"\n", m.end())
        end = len(data) if end < 0 else end
        while end < len(data) and _continued(data, m.start(), end):
            nxt = data.find(b"\n", end + 1)
            end = len(data) if nxt < 0 else nxt
        rest = data[m.end() : end].decode("utf-8", "replace").replace("\\\r\n", " ").replace("\\\n", " ")
        out.append((m.group(1).decode(), _COMMENTS.sub(" ", rest).strip()))
    return tuple(out)


# what the scan for block comments steps over: strings, character constants, line comments
_COMMENT_SCAN = re.compile(rb'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def _block_comments(data: bytes) -> tuple[list[int], list[int]]:
    """The starts and ends of the closed block comments of ``data`` that span lines, in order (one
    never closed is an error the rest of the text is read past, as the whole-text scans do)."""
    starts: list[int] = []
    ends: list[int] = []
    for m in _COMMENT_SCAN.finditer(data):
        if data.startswith(b"/*", m.start()) and data.find(b"\n", m.start(), m.end()) >= 0:
            starts.append(m.start())
            ends.append(m.end())
    return starts, ends


def _inside(comments: tuple[list[int], list[int]], at: int) -> bool:
    starts, ends = comments
    k = bisect_right(starts, at) - 1
    return k >= 0 and at < ends[k]


def has_conditionals(data: bytes) -> bool:
    return _DIRECTIVE.search(data) is not None


def variants(data: bytes, defines: Defines = NO_DEFINES, *, implicit_else: bool = True) -> list[bytes]:
    """The distinct position-keeping variants of ``data`` (see the module docstring), variant 0
    first.  A ``#else``/``#elif``/``#endif`` without its ``#if`` (a text cut out of a file) closes a
    conditional opened at the start of the text.  ``implicit_else``: variant 1 of a conditional
    without ``#else`` keeps none of its branches (inside a function: the code may be compiled out);
    off for a whole file, where such a conditional is most often an include guard.

    Invariant: a variant is one configuration.  Each conditional it meets (in a kept branch) is
    decided under what the variant's earlier choices assumed (:class:`Assumed`), so a condition
    that comes back (``#ifndef X`` after ``#if defined(X) && ...``, the same test again) is not
    taken one way and then the other; only a condition they leave open is chosen first or last."""
    lines, groups = _conditionals(data)
    out: list[bytes] = []
    for pick_last in (False, True):
        v = _variant(data, lines, groups, Assumed(defines), pick_last, implicit_else)
        if v not in out:
            out.append(v)
    return out


_Line = tuple[int, int, str | None]  # start, end (newline excluded), directive kind
_Branch = tuple[str, str]  # a branch's directive kind and the rest of its line ("" for else)
_DEFINE = re.compile(rb"[ \t]*#[ \t]*(?:define|undef)[ \t]+([A-Za-z_]\w*)")


def _conditionals(data: bytes) -> tuple[list[_Line], dict[int, list[_Branch]]]:
    """The logical lines with their directives, and each conditional's branch directives by the
    index of its ``#if`` line (negative for those opened before the text, -1 closing first; their
    first branch, whose ``#if`` is not in the text, has kind "")."""
    lines: list[_Line] = []
    branches: dict[int, list[_Branch]] = {}
    stack: list[int] = []
    opened_at_start = 0
    for i, (start, end) in enumerate(_logical_lines(data)):
        d = _directive(data, start, end)
        lines.append((start, end, d[0] if d is not None else None))
        if d is None:
            continue
        kind, rest = d
        if kind in ("if", "ifdef", "ifndef"):
            stack.append(i)
            branches[i] = [(kind, rest)]
        elif kind in ("elif", "elifdef", "elifndef", "else"):
            if not stack:
                opened_at_start += 1
                stack.append(-opened_at_start)
                branches[-opened_at_start] = [("", "")]
            branches[stack[-1]].append((kind, rest))
        elif kind == "endif":
            if not stack:  # closes a conditional opened before the text: its one branch ends here
                opened_at_start += 1
                branches[-opened_at_start] = [("", "")]
            else:
                stack.pop()
    return lines, branches


def _variant(
    data: bytes,
    lines: list[_Line],
    groups: dict[int, list[_Branch]],
    assumed: Assumed,
    pick_last: bool,
    implicit_else: bool,
) -> bytes:
    """``data`` with its directives and the branches not kept blanked: each conditional met in a
    kept branch keeps the branch :func:`_choose` picks among those ``assumed`` leaves possible, and
    what that pick says (its condition true, the earlier ones false) is assumed from there on."""
    out = bytearray(data)
    on_stack: list[tuple[int, int, bool]] = []  # (group, branch index, parent on)
    choice: dict[int, int | None] = {}

    def choose(g: int) -> int | None:
        conds = [True if k == "else" else None if not k else assumed.decide(k, r) for k, r in groups[g]]
        c = _choose(conds, pick_last, implicit_else)
        for b, (k, r) in enumerate(groups[g]):
            if c is not None and b > c:
                break
            if k and k != "else":
                assumed.assume(k, r, b == c)
        return c

    # conditionals opened before the text nest: the first one closed (-1) is the innermost, on top
    on = True
    for g in sorted(g for g in groups if g < 0):
        choice[g] = choose(g) if on else None
        on_stack.append((g, 0, on))
        on = on and choice[g] == 0
    for i, (start, end, kind) in enumerate(lines):
        if kind is None:
            if not on:
                _blank(out, start, end)
            elif (m := _DEFINE.match(data, start, end)) is not None:
                assumed.forget(m.group(1).decode())
            continue
        _blank(out, start, end)
        if kind in ("if", "ifdef", "ifndef"):
            choice[i] = choose(i) if on else None
            on_stack.append((i, 0, on))
            on = on and choice[i] == 0
        elif kind in ("elif", "elifdef", "elifndef", "else") and on_stack:
            g, b, parent = on_stack[-1]
            on_stack[-1] = (g, b + 1, parent)
            on = parent and choice[g] == b + 1
        elif kind == "endif" and on_stack:
            _, _, on = on_stack.pop()
    return bytes(out)


def _choose(conds: list[bool | None], pick_last: bool, implicit_else: bool) -> int | None:
    """The branch kept: the first the defines select, else (none decided true) the first or last of
    those still possible; None when none is kept (every branch ruled out, or the last pick of a
    lone ``#if`` without ``#else`` under ``implicit_else``).  A chain with an ``#elif`` and no
    ``#else`` enumerates the builds it supports: its last pick is its last possible branch."""
    if pick_last and implicit_else and len(conds) == 1 and conds[0] is not True:
        return None
    possible: list[int] = []
    for b, c in enumerate(conds):
        if c is True:
            if not possible:
                return b
            possible.append(b)
            break
        if c is None:
            possible.append(b)
    if not possible:
        return None
    return possible[-1] if pick_last else possible[0]


_Tokens = tuple[str, ...]
# :data:`_TOKEN` and what a condition holds that the evaluator does not read (the commas of a macro's
# arguments, ``?:``): such a condition is still one spelling, only left undecided
_CONDITION_TOKEN = re.compile(_TOKEN.pattern.replace(r"[!~()<>+\-*/%&|^]", r"[!~()<>+\-*/%&|^,?:]"))


def condition_tokens(kind: str, rest: str) -> _Tokens | None:
    """The condition of ``#kind rest`` as tokens, one spelling per meaning as far as spaces,
    comments, ``defined(X)``/``defined X`` and ``#ifdef``/``#ifndef`` go (``#ifndef X`` is ``!
    defined X``); None when it is no expression :class:`_Evaluator` reads (a ``?:``, a string)."""
    rest = _COMMENTS.sub(" ", rest.replace("\\\n", " ")).strip()
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
        m = re.match(r"[A-Za-z_]\w*", rest)
        if m is None:
            return None
        return ("defined", m.group(0)) if kind in ("ifdef", "elifdef") else ("!", "defined", m.group(0))
    tokens: list[str] = []
    pos = 0
    while pos < len(rest):
        m = _CONDITION_TOKEN.match(rest, pos)
        if m is None or m.end() == pos:
            return None
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    out: list[str] = []
    i = 0
    while i < len(tokens):  # defined ( X ) -> defined X
        if tokens[i] == "defined" and tokens[i + 1 : i + 2] == ["("] and tokens[i + 3 : i + 4] == [")"]:
            out += ["defined", tokens[i + 2]]
            i += 4
        else:
            out.append(tokens[i])
            i += 1
    return tuple(out) if out else None


def _closing(tokens: _Tokens, i: int) -> int:
    """The index of the ``)`` matching the ``(`` at ``i`` (len when there is none)."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += {"(": 1, ")": -1}.get(tokens[j], 0)
        if depth == 0:
            return j
    return len(tokens)


def unparen(tokens: _Tokens) -> _Tokens:
    """``tokens`` without the parentheses around the whole."""
    while len(tokens) > 2 and tokens[0] == "(" and _closing(tokens, 0) == len(tokens) - 1:
        tokens = tokens[1:-1]
    return tokens


def split(tokens: _Tokens, op: str) -> list[_Tokens]:
    """``tokens`` cut at ``op`` outside parentheses."""
    parts: list[_Tokens] = []
    depth = start = 0
    for j, t in enumerate(tokens):
        depth += {"(": 1, ")": -1}.get(t, 0)
        if depth == 0 and t == op:
            parts.append(tokens[start:j])
            start = j + 1
    parts.append(tokens[start:])
    return parts


def negated(tokens: _Tokens) -> _Tokens | None:
    """``X`` when ``tokens`` is ``! X`` with ``X`` one operand (a name, ``defined X``, a group)."""
    if len(tokens) < 2 or tokens[0] != "!":
        return None
    rest = tokens[1:]
    whole = (
        len(rest) == 1
        or (len(rest) == 2 and rest[0] == "defined")
        or (rest[0] == "(" and _closing(rest, 0) == len(rest) - 1)
        or negated(rest) is not None
    )
    return rest if whole else None


def parts(tokens: _Tokens) -> set[_Tokens]:
    """The operands a condition combines with ``||``, ``&&`` and ``!``, parentheses dropped: the
    tests whose truth decides it (``defined X``, ``X > 1``, ``V(3, 10) <= X``)."""
    tokens = unparen(tokens)
    for op in ("||", "&&"):
        pieces = split(tokens, op)
        if len(pieces) > 1:
            return set().union(*(parts(p) for p in pieces if p))
    inner = negated(tokens)
    return parts(inner) if inner is not None else {tokens}


MAX_GUARD_DEPTH = 32  # guarded names read through one another (A's guard reads B, ...), at most


class Assumed:
    """What one configuration has assumed of the conditions it decided, on top of ``defines``:
    the truth of each condition and of the parts a truth implies (the conjuncts of a true ``&&``,
    the disjuncts of a false ``||``, the operand of a ``!``), and the names those parts say are
    defined or not (``defined X``, a true bare ``X``).  :meth:`decide` reads a condition through
    these, so the same test (in any spelling :func:`condition_tokens` unifies) or one whose parts
    they decide comes out the same; one they do not decide stays None, a free choice."""

    def __init__(self, defines: Defines) -> None:
        self.defines = defines
        self.known: dict[_Tokens, bool] = {}
        self.defined: set[str] = set()
        self.undefined: set[str] = set()
        self.forgotten: set[str] = set()  # names (re)defined in the text: their guards no longer hold
        self._expanding: set[str] = set()  # guarded names being read through (a guard naming one)
        self._overlay: tuple[tuple[frozenset[str], frozenset[str]], Defines] | None = None  # _defines

    def decide(self, kind: str, rest: str) -> bool | None:
        tokens = condition_tokens(kind, rest)
        if tokens is None:
            return condition(kind, rest, self._defines())
        return self._decide(tokens)

    def assume(self, kind: str, rest: str, value: bool) -> None:
        tokens = condition_tokens(kind, rest)
        if tokens is not None:
            self._assume(tokens, value)

    def part_open(self, tokens: _Tokens) -> bool:
        """Whether nothing assumed (nor the defines) decides ``tokens``."""
        return self._decide(tokens) is None

    def part(self, tokens: _Tokens, value: bool) -> bool:
        """Assume ``tokens`` (a :func:`parts` of a condition) is ``value``; False, assuming nothing,
        when what is assumed already says otherwise (a configuration that cannot be)."""
        if self._decide(tokens) is (not value):
            return False
        self._assume(tokens, value)
        return True

    def forget(self, name: str) -> None:
        """A ``#define``/``#undef`` of ``name``: what was assumed of it no longer holds."""
        self.defined.discard(name)
        self.undefined.discard(name)
        self.forgotten.add(name)
        self.known = {t: v for t, v in self.known.items() if name not in t}

    def leaves(self, tokens: _Tokens) -> set[_Tokens]:
        """The :func:`parts` of a condition, a guarded name's test (``defined A``) replaced by the
        parts of its guard: the tests that decide it, so two conditions over names one ``#if``
        defines one of share the ``#if``'s test."""
        out: set[_Tokens] = set()
        for p in parts(tokens):
            found = self._guard(p)
            if found is None:
                out.add(p)
                continue
            with self._reading(found[0]):
                out |= self.leaves(found[1])
        return out

    @contextmanager
    def _reading(self, name: str) -> Iterator[None]:
        """While a guarded name's guard is read in its place: the guard does not read it again."""
        self._expanding.add(name)
        try:
            yield
        finally:
            self._expanding.discard(name)

    def _guard(self, tokens: _Tokens) -> tuple[str, _Tokens] | None:
        """The guarded name ``tokens`` tests (``defined A``, or ``A`` alone when its value is not
        0) and its guard, when neither the defines nor what is assumed say more of it."""
        guarded = self.defines.guarded
        if not guarded or not 1 <= len(tokens) <= 2:
            return None
        if len(tokens) == 2:
            if tokens[0] != "defined" or tokens[1] in self.defines.defined:
                return None  # defined whatever the tests: guarded for its value's truth only
            name = tokens[1]
        else:
            name = tokens[0]
        g = guarded.get(name)
        if g is None or (len(tokens) == 1 and not g[1]):
            return None
        if name in self.defined or name in self.undefined or name in self.forgotten or name in self._expanding:
            return None
        if len(self._expanding) >= MAX_GUARD_DEPTH:
            return None  # a chain of guards reading guarded names: left undecided past this depth
        return name, g[0]

    def _defines(self) -> Defines:
        """The defines with what is assumed on top; the same object while the assumed names
        stay the same (a function's decisions read it hundreds of times, and each overlay copies
        every define of the file)."""
        if not self.defined and not self.undefined:
            return self.defines
        key = (frozenset(self.defined), frozenset(self.undefined))
        if self._overlay is None or self._overlay[0] != key:
            guarded = self.defines.guarded
            defined = {n: guarded[n][1] if n in guarded else None for n in self.defined}
            self._overlay = (key, self.defines.overlaid(Defines(defined, key[1])))
        return self._overlay[1]

    def _decide(self, tokens: _Tokens) -> bool | None:
        tokens = unparen(tokens)
        if tokens in self.known:
            return self.known[tokens]
        for op, decisive in (("||", True), ("&&", False)):
            parts = split(tokens, op)
            if len(parts) > 1:
                values = [self._decide(p) if p else None for p in parts]
                if decisive in values:
                    return decisive
                return None if None in values else not decisive
        inner = negated(tokens)
        if inner is not None:
            v = self._decide(inner)
            return None if v is None else not v
        found = self._guard(tokens)
        if found is not None:
            with self._reading(found[0]):
                return self._decide(found[1])
        try:
            return _Evaluator(" ".join(tokens), self._defines()).run() != 0
        except _Undecided:
            return None

    def _assume(self, tokens: _Tokens, value: bool) -> None:
        tokens = unparen(tokens)
        if not tokens:
            return
        self.known[tokens] = value
        ors = split(tokens, "||")
        if len(ors) > 1:
            if not value:
                for p in ors:
                    self._assume(p, False)
            return
        ands = split(tokens, "&&")
        if len(ands) > 1:
            if value:
                for p in ands:
                    self._assume(p, True)
            return
        inner = negated(tokens)
        if inner is not None:
            self._assume(inner, not value)
            return
        found = self._guard(tokens)
        if found is not None:
            with self._reading(found[0]):
                self._assume(found[1], value)
            if not value and found[0] not in self.defines.defined:
                self.undefined.add(found[0])  # a guarded name's value is not 0: false means undefined
        if len(tokens) == 2 and tokens[0] == "defined" and _defined(tokens[1], self.defines) is None:
            (self.defined if value else self.undefined).add(tokens[1])
        elif (
            len(tokens) == 1
            and value
            and re.fullmatch(r"[A-Za-z_]\w*", tokens[0])
            and _defined(tokens[0], self.defines) is None
        ):
            self.defined.add(tokens[0])  # a name that reads as non-zero is defined


def _logical_lines(data: bytes) -> list[tuple[int, int]]:
    """(start, end) byte spans of the lines, a backslash-newline joining a line to the next; the end
    excludes the newline."""
    spans = []
    start, n = 0, len(data)
    while start <= n:
        end = data.find(b"\n", start)
        end = n if end < 0 else end
        while end < n and _continued(data, start, end):
            nxt = data.find(b"\n", end + 1)
            end = n if nxt < 0 else nxt
        spans.append((start, end))
        start = end + 1
    return spans


def continues_previous(data: bytes, line_start: int) -> bool:
    """Whether the physical line at ``line_start`` is part of the line before it (that line ends in
    a backslash, before an optional carriage return): C splices such lines before it recognises
    directives, so a ``#`` at its start begins none.  A spliced line's own backslash does not matter
    here: the line before decides alone."""
    if line_start == 0:
        return False
    return _continued(data, data.rfind(b"\n", 0, line_start - 1) + 1, line_start - 1)


def _continued(data: bytes, start: int, end: int) -> bool:
    j = end - 1
    if j >= start and data[j] == 0x0D:
        j -= 1
    return j >= start and data[j] == 0x5C


def _directive(data: bytes, start: int, end: int) -> tuple[str, str] | None:
    m = _DIRECTIVE.match(data, start, end)
    if m is None:
        return None
    return m.group(1).decode(), data[m.end() : end].decode("utf-8", "replace")


_SPACES = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))  # line ends kept


def _blank(out: bytearray, start: int, end: int) -> None:
    out[start:end] = out[start:end].translate(_SPACES)


# ----- statement-like macros ---------------------------------------------------------------------

_LONE = re.compile(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*(?:/\*.*?\*/[ \t]*|//.*)?\r?$", re.MULTILINE)
# a name alone before the ``{`` of a block, at the start of a line (sqlite's ``SEH_TRY {``)
_BEFORE_BLOCK = re.compile(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*(?=\{)", re.MULTILINE)
_MACRO_NAME = re.compile(r"_?[A-Za-z][a-z0-9]*_[A-Z0-9_]*[A-Z][A-Z0-9_]*|_?[A-Z][A-Z0-9_]+")
# C's keywords (C11's too): never a macro's name nor a variable's
C_KEYWORDS = frozenset({
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
    "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert", "_Thread_local",
})  # fmt: skip
_ENDS_STATEMENT = (b";", b"{", b"}", b":")
_WINDOW = 4096  # bytes looked at around a candidate line
_CONTINUES = re.compile(rb"^[ \t]*(?:[{=(\[.,;?:*/%+\-&|^<>!]|->)")


def without_statement_macros(data: bytes, spans: list[tuple[int, int]] | None = None) -> bytes:
    """``data`` with the :func:`statement_macro_spans` (or ``spans``, found before) blanked, keeping
    every position; ``data`` itself when there are none."""
    spans = statement_macro_spans(data) if spans is None else spans
    if not spans:
        return data
    out = bytearray(data)
    for start, end in spans:
        out[start:end] = b" " * (end - start)
    return bytes(out)


def statement_macro_spans(data: bytes) -> list[tuple[int, int]]:
    """Where object-like macros are used as statements without a semicolon.
    ``Py_BEGIN_ALLOW_THREADS`` on its own line makes tree-sitter read it as the type of a
    declaration of the next statement (``x = f();`` declares a new ``x``; ``free(p);`` declares
    ``free``) or swallow the next statement into an error.  A line counts when it holds one
    macro-like name (upper case, maybe after one lower-case prefix such as ``Py_``) and nothing
    else, follows the end of a statement (or another such line), and the next line does not
    continue an expression or open a block.  So does such a name right before the ``{`` of a
    block on its line (sqlite's ``SEH_TRY {``, which opens a ``__try`` or is one statement as the
    build says): tree-sitter reads it as a type and the block as a broken declaration that ends
    the function at its ``}``; C has no statement that is a name and a block."""
    hits: list[re.Match[bytes]] = []
    lone = list(_LONE.finditer(data))
    blocks = list(_BEFORE_BLOCK.finditer(data)) if b"{" in data else []
    found = sorted([*lone, *blocks], key=lambda m: m.start()) if blocks else lone
    for m in found:
        after_hit = bool(hits) and not data[hits[-1].end() : m.start()].strip()
        if m.re is _BEFORE_BLOCK:
            if _is_block_macro(data, m):
                hits.append(m)
        elif _is_statement_macro(data, m, after_hit):
            hits.append(m)
    return [(m.start(1), m.end(1)) for m in hits]


def _is_block_macro(data: bytes, m: re.Match[bytes]) -> bool:
    return _macro_name(m) and _after_statement(data, m.start())


def _is_statement_macro(data: bytes, m: re.Match[bytes], after_hit: bool) -> bool:
    if not _macro_name(m) or not (after_hit or _after_statement(data, m.start())):
        return False
    after = data[m.end() : m.end() + _WINDOW].lstrip(b"\r\n")
    return _CONTINUES.match(after) is None and not after.lstrip().startswith(b"#define")


def _macro_name(m: re.Match[bytes]) -> bool:
    name = m.group(1).decode()
    return name not in C_KEYWORDS and _MACRO_NAME.fullmatch(name) is not None


def _after_statement(data: bytes, at: int) -> bool:
    """Whether ``data[at]`` follows the end of a statement, a directive's line or a comment."""
    before = data[max(0, at - _WINDOW) : at].rstrip()  # bounded: no copy of the file
    before_line = before[before.rfind(b"\n") + 1 :].strip()
    return before.endswith(_ENDS_STATEMENT) or before_line.startswith(b"#") or before.endswith(b"*/")


# ``if``/``while``/``switch`` then a macro call where C wants a parenthesised condition
_BARE_CONDITION = re.compile(rb"(?<![\w#$])(if|while|switch)([ \t]+)([A-Za-z_]\w*)[ \t]*\(")
_DIRECTIVE_LINE = re.compile(rb"[ \t]*#[ \t]*\Z")
_QUOTE = re.compile(rb'(?<!\\)"')


def with_macro_conditions(data: bytes) -> bytes:
    """``data`` with each condition written as a bare macro call parenthesised, keeping every
    position: ``if EQ("pcall") {`` (lua's ltests.c, where ``EQ(s)`` expands to a parenthesised
    test) reads as ``if(EQ("pcall")){``, the blank after the keyword and the one after the call
    turned into the parentheses.  Without this tree-sitter reads an ``else if`` chain of them as
    a run of unrelated blocks, one after the other.  A call with no blank after it is left as it
    is; ``data`` itself when nothing changes."""
    out: bytearray | None = None
    for m in _BARE_CONDITION.finditer(data):
        if not _in_code(data, m.start()):
            continue
        close = _closing_paren(data, m.end() - 1)
        if close is None or data[close + 1 : close + 2] not in (b" ", b"\t"):
            continue  # a line break stays one: rows are positions too
        if out is None:
            out = bytearray(data)
        out[m.start(2)] = ord("(")
        out[close + 1] = ord(")")
    return bytes(out) if out is not None else data


def with_readable_calls(data: bytes) -> bytes:
    """``data`` with the macro calls around conditions made readable, every position kept: bare
    calls as conditions parenthesised (:func:`with_macro_conditions`), calls between a condition
    and its block blanked (:func:`without_loop_annotations`)."""
    return without_type_annotations(without_loop_annotations(with_macro_conditions(data)))


# a name right before ``struct``/``union``/``enum``: in C only a macro's use can stand there
_BEFORE_TAG = re.compile(rb"(?<![\w#$])([A-Za-z_]\w*)[ \t\r\n]+(?=(?:struct|union|enum)(?![\w$]))")


def without_type_annotations(data: bytes) -> bytes:
    """``data`` with each name written right before ``struct``, ``union`` or ``enum`` blanked,
    keeping every position: ``static CACHE_ALIGNED union u { ... } a[] = { ... };`` reads as
    ``static union u ...``.  No C declaration or expression puts a name (other than a keyword)
    before these keywords, so the name is a macro of a header not read, an attribute or
    qualifier in a build; tree-sitter would read it as a type, the tag's braces as a nested
    function's body and its members as the function's locals, or lose the function.  Names with
    two leading underscores are the compilers' own (``__extension__``) and stay.  ``data`` itself
    when nothing changes."""
    if b"struct" not in data and b"union" not in data and b"enum" not in data:
        return data
    out: bytearray | None = None
    for m in _BEFORE_TAG.finditer(data):
        name = m.group(1)
        if name.decode() in C_KEYWORDS or name.startswith(b"__") or not _in_code(data, m.start()):
            continue
        if _on_directive(data, m.start()):
            continue  # a macro's body (``#define DECL(t) t struct``)
        if out is None:
            out = bytearray(data)
        _blank(out, m.start(1), m.end(1))
    return bytes(out) if out is not None else data


# ``if``/``while``/``for``/``switch`` and the parenthesis opening its condition
_CONTROL = re.compile(rb"(?<![\w#$])(?:if|while|for|switch)[ \t\r\n]*\(")
_ANNOTATION = re.compile(rb"[ \t\r\n]*([A-Za-z_]\w*)[ \t\r\n]*\(")
_BLOCK_NEXT = re.compile(rb"[ \t\r\n]*\{")


def without_loop_annotations(data: bytes) -> bytes:
    """``data`` with each macro call written between a condition and its block blanked, keeping
    every position: ``while (n > 0) __loop__(invariant(n <= len)) {`` (CBMC's loop contracts in
    mlkem-native, empty in a build) reads as ``while (n > 0) {``.  C has no statement that is a
    call followed by a block, so the call can only be a macro that expands to nothing the build
    runs; without this tree-sitter reads the call as the loop's whole body and the block as a
    statement after the loop, which ran once.  ``data`` itself when nothing changes."""
    out: bytearray | None = None
    for m in _CONTROL.finditer(data):
        if not _in_code(data, m.start()):
            continue
        close = _closing_paren(data, m.end() - 1, semicolons=True)
        call = _ANNOTATION.match(data, close + 1) if close is not None else None
        if call is None or call.group(1).decode() in C_KEYWORDS:
            continue
        end = _closing_paren(data, call.end() - 1, semicolons=True)
        if end is None or _BLOCK_NEXT.match(data, end + 1) is None:
            continue
        if out is None:
            out = bytearray(data)
        _blank(out, call.start(1), end + 1)
    return bytes(out) if out is not None else data


def _in_code(data: bytes, at: int) -> bool:
    """Whether ``data[at]`` is C: not on a directive's line (``#if X(1)``), inside a string literal
    or inside a comment."""
    line_start = data.rfind(b"\n", 0, at) + 1
    if _DIRECTIVE_LINE.match(data, line_start, at):
        return False
    return not (len(_QUOTE.findall(data, line_start, at)) % 2 or _in_comment(data, line_start, at))


def _on_directive(data: bytes, at: int) -> bool:
    """Whether ``data[at]`` is on a directive's logical line (its first, or one a backslash
    continues)."""
    start = data.rfind(b"\n", 0, at) + 1
    while continues_previous(data, start):
        start = data.rfind(b"\n", 0, start - 1) + 1
    return data[start:at].lstrip(b" \t").startswith(b"#")


def _in_comment(data: bytes, line_start: int, at: int) -> bool:
    """Whether ``data[at]`` is inside a ``/* */`` comment or after a ``//`` on its line."""
    return data.rfind(b"/*", 0, at) > data.rfind(b"*/", 0, at) or data.find(b"//", line_start, at) >= 0


def _closing_paren(data: bytes, open_at: int, *, semicolons: bool = False) -> int | None:
    """Where the parenthesis opening at ``data[open_at]`` closes (strings, character literals and
    comments skipped), or None at a brace, at a semicolon unless ``semicolons`` (a ``for``'s header), or
    at the end."""
    depth, i, n = 0, open_at, len(data)
    while i < n:
        ch = data[i]
        if ch in (0x22, 0x27):  # a string or character literal
            j = i + 1
            while j < n and data[j] != ch and data[j] != 0x0A:
                j += 2 if data[j] == 0x5C else 1
            i = j + 1
            continue
        if ch == 0x2F and data[i + 1 : i + 2] in (b"*", b"/"):  # a comment
            end = data.find(b"*/", i + 2) + 2 if data[i + 1] == 0x2A else data.find(b"\n", i)
            i = end if end > i else n
            continue
        if ch == 0x28:
            depth += 1
        elif ch == 0x29:
            depth -= 1
            if depth == 0:
                return i
        elif ch in (0x7B, 0x7D) or (ch == 0x3B and not semicolons):  # no condition spans them
            return None
        i += 1
    return None
