"""Macros that rename a function: a call through one means what the call it expands to means.

``#define XFREE free``, ``#define ALLOC(n) malloc(n)``, ``#define NEW(T) ((T *)malloc(sizeof(T)))``,
``#define OPEN_LOG(path) fopen((path), "a")``: the compiler sees ``free``, ``malloc``, ``fopen``,
so ``XFREE(p)`` frees ``p``, ``ALLOC(n)`` and ``NEW(T)`` return fresh memory, ``OPEN_LOG(path)`` an
open stream.  Without this a call through such a macro is opaque (its pointer arguments escape, its
result is nothing), which hides every leak, double free and NULL dereference behind it.

A *rename* is read from a definition's text alone (:func:`renames`, kept per file and header): an
object-like macro whose body is one name, or a function-like macro whose whole body is one call
(under parentheses and casts, so that the call's value is the macro's).  Each argument of that call
that is a parameter of the macro (under parentheses and casts) is mapped to it; ``__VA_ARGS__``
stands for the variadic tail.  Anything else (a statement body, ``f(x) + 1``, two calls) is no
rename: what the body's value is then is not the callee's.

A rename becomes a call spec only against a call table (:func:`resolved`): the target's row with its
argument positions moved to the macro's parameters.  An argument the macro computes itself (a
literal, ``sizeof(T)``, ``n * 2``) takes no atom; a target the table does not know (a project
function, another unknown macro) gives nothing.  Chains (``#define A B``, ``#define B(p) free(p)``)
resolve through each other up to :data:`MAX_CHAIN` steps, so a cycle ends.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from extractors.library import CallSpec

VARIADIC = "__VA_ARGS__"
MAX_CHAIN = 8  # renames of renames followed at most this deep (a cycle of defines ends)


@dataclass(frozen=True)
class Rename:
    """``target`` is what the macro calls.  ``slots`` is None for an object-like macro (its call's
    arguments are the target's); else, per argument of the target call, the macro parameter it is
    (None: an expression of the macro's own).  ``tail``: (target position of ``__VA_ARGS__``, the
    macro's variadic position) when the macro hands its variadic arguments on."""

    target: str
    slots: tuple[int | None, ...] | None = None
    tail: tuple[int, int] | None = None
    arity: int = 0  # the macro's named parameters

    def positions(self, i: int) -> tuple[int, ...]:
        """The macro's argument positions that are the target's argument ``i`` (-1: every one)."""
        if self.slots is None:
            return (i,)
        if i == -1:
            if self._identity():
                return (-1,)
            return tuple(dict.fromkeys(m for m in self.slots if m is not None))
        out = [m for j, m in enumerate(self.slots) if j == i and m is not None]
        if self.tail is not None and i >= self.tail[0]:
            out.append(self.tail[1] + i - self.tail[0])
        return tuple(out)

    def _identity(self) -> bool:
        """Whether the macro hands on all its arguments in order, so "every argument" stays so."""
        assert self.slots is not None
        if self.slots != tuple(range(len(self.slots))):
            return False
        if self.tail is not None:
            return self.tail == (len(self.slots), len(self.slots))
        return len(self.slots) == self.arity


# ----- which file's macro a call names ----------------------------------------------------------

# Joins a macro's name and the digest of what it means in a call's name: in no C identifier, and not
# "#", "@" or ":", which discard values, component names and function ids are split at.
MACRO_MARK = "~"


def macro_call_name(name: str, spec: CallSpec) -> str:
    """The name a function model gives a call through macro ``name`` read as ``spec``.

    Macros are per file: ``CLEAR(p)`` means the ``#define`` of its own file or of a header that file
    reads, and nothing in a file that has neither (there it is a call of some function ``CLEAR``).
    The projections read every call by name in one call table for the whole scope, so a macro's
    calls carry the digest of what the macro means: files that see one definition share one name
    (and one table row), a file that sees another or none has another name.  Invariant: the name is
    a function of ``(name, spec)`` alone, so a table row under it never disagrees with another file's,
    and a model's calls stay a function of its text and its file's context.  Upper-case hex keeps
    an all-capitals name all capitals (``path_condition`` takes those for macros)."""
    digest = hashlib.sha256(repr(spec).encode()).hexdigest()[:12].upper()
    return f"{name}{MACRO_MARK}{digest}"


def plain_name(name: str) -> str:
    """The name as written in the source: :func:`macro_call_name`'s digest taken off (messages,
    fingerprints, comparisons with the text).  Only the digest goes: a name built on a call's name
    keeps the rest (a discarded result ``$ret:XALLOC~1A2B...#2`` is ``$ret:XALLOC#2``, as it was
    before macros were named per file, so two discards of one macro keep two fingerprints)."""
    return _DIGEST.sub("", name) if MACRO_MARK in name else name


_DIGEST = re.compile(re.escape(MACRO_MARK) + "[0-9A-F]{12}")


def macro_call_names(macros: Mapping[str, CallSpec]) -> dict[str, str]:
    """Each of a file's macros (name to spec) to the name its calls get (:func:`macro_call_name`)."""
    return {m: macro_call_name(m, spec) for m, spec in macros.items()}


def renames(text: str) -> dict[str, Rename]:
    """The renaming macros ``text`` defines (a later definition of a name wins)."""
    flat = _COMMENT.sub(" ", text.replace("\\\r\n", " ").replace("\\\n", " "))
    out: dict[str, Rename] = {}
    for m in _DEFINE.finditer(flat):
        name, params, body = m.group(1), m.group(2), m.group(3).strip()
        found = _object_rename(body) if params is None else _call_rename(params, body)
        if found is not None and found.target != name:
            out[name] = found
    return out


def resolved(
    renamed: Mapping[str, Rename], table: Mapping[str, CallSpec], assigning: Mapping[str, CallSpec]
) -> dict[str, CallSpec]:
    """The call specs of the macros of one file: ``assigning`` (the macros that assign an argument
    or a name, :func:`extractors.functions.macro_specs`) joined with the renames that reach a row
    of ``table`` (or of ``assigning``), each name of ``table`` left out (its row stands)."""
    out = {m: s for m, s in assigning.items() if m not in table}

    def spec(name: str, depth: int) -> CallSpec | None:
        if name in table:
            return table[name]
        got = assigning.get(name)
        r = renamed.get(name)
        if r is not None and depth < MAX_CHAIN and (target := spec(r.target, depth + 1)) is not None:
            moved = moved_spec(r, target)
            got = moved if got is None else replace(moved, args=_union(got.args, moved.args), assigns=got.assigns)
        return got

    for name in renamed:
        if name not in table and (found := spec(name, 0)) is not None:
            out[name] = found
    return out


def moved_spec(r: Rename, target: CallSpec) -> CallSpec:
    """``target``'s row read through macro ``r``: its argument atoms and positions (``null_ok``,
    ``kept_on_failure``) moved to the macro's parameters; its result, ``noreturn``, ``must_check``
    as they are (the macro's value is the call's)."""
    if r.slots is None:
        return target
    args = tuple(dict.fromkeys((k, atom) for i, atom in target.args for k in r.positions(i)))
    null_ok = tuple(dict.fromkeys(k for i in target.null_ok for k in r.positions(i) if k >= 0))
    kept = tuple(dict.fromkeys(k for i in target.kept_on_failure for k in r.positions(i) if k >= 0))
    fmt = _moved_format(r, target.format)
    return replace(target, args=args, null_ok=null_ok, kept_on_failure=kept, format=fmt)


def _moved_format(r: Rename, fmt: int | None) -> int | None:
    """The macro's position of the target's format argument when the values after it follow it
    there too (``#define ELOG(fmt, ...) fprintf(stderr, fmt, __VA_ARGS__)``), or when the target
    call has none after it; else None (the conversions would name the wrong arguments)."""
    if fmt is None:
        return None
    at = r.positions(fmt)
    if len(at) != 1 or at[0] < 0:
        return None
    last = r.slots is not None and r.tail is None and len(r.slots) == fmt + 1
    return at[0] if last or r.positions(fmt + 1) == (at[0] + 1,) else None


def _union(a: tuple[tuple[int, str], ...], b: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
    return tuple(dict.fromkeys(a + b))


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
# name, then "(params)" right after it for a function-like macro (no space: ``#define N (x)`` is
# object-like), then the body to the end of the (flattened) line
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?:\(([^)]*)\))?(.*)$", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_TYPE_WORDS = re.compile(r"[\w\s*]+\Z")  # what a cast's parentheses may hold: (T *), (unsigned char *)


def _object_rename(body: str) -> Rename | None:
    return Rename(body) if _NAME.match(body) else None


@lru_cache(maxsize=65_536)
def _call_rename(params: str, body: str) -> Rename | None:
    """Memoised: a large file has hundreds of macros, read again for each header that includes them."""
    names = [p.strip() for p in params.split(",")] if params.strip() else []
    variadic = bool(names) and names[-1] == "..."
    named = names[:-1] if variadic else names
    if not all(_NAME.match(n) for n in named):
        return None
    call = _strip(body)
    if call is None:
        return None
    parts = _call_parts(call)
    if parts is None:
        return None
    target, args = parts
    slots: list[int | None] = []
    tail: tuple[int, int] | None = None
    for j, a in enumerate(args):
        inner = _strip(a)
        if inner is not None and inner == VARIADIC and variadic and j == len(args) - 1:
            tail = (j, len(named))
        else:
            slots.append(named.index(inner) if inner in named else None)
    return Rename(target, tuple(slots), tail, len(named))


def _strip(text: str) -> str | None:
    """``text`` without the parentheses around all of it and the casts before it (None when they
    do not balance)."""
    s = text.strip()
    for _ in range(64):
        if not s.startswith("("):
            return s
        close = _closing(s, 0)
        if close is None:
            return None
        if close == len(s) - 1:
            s = s[1:-1].strip()
        elif _TYPE_WORDS.match(s[1:close]) and not s[1:close].strip().isdigit():
            rest = s[close + 1 :].strip()
            if not rest or not (rest[0] == "(" or rest[0] == "_" or rest[0].isalpha()):
                return s  # ``(a) + b``: an operator after the parentheses, not a cast
            s = rest
        else:
            return s
    return None


def _call_parts(s: str) -> tuple[str, list[str]] | None:
    """``name(args)`` spanning all of ``s``: the name and each argument's text."""
    m = re.match(r"([A-Za-z_]\w*)\s*\(", s)
    if m is None:
        return None
    open_at = m.end() - 1
    if _closing(s, open_at) != len(s) - 1:
        return None
    inner = s[open_at + 1 : -1]
    args: list[str] = []
    start = 0
    for i, ch, depth in _brackets(inner, 0):
        if ch == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
    if inner.strip() or args:
        args.append(inner[start:])
    return m.group(1), args


def _closing(s: str, at: int) -> int | None:
    """Where the bracket opened at ``s[at]`` closes (string and character literals skipped)."""
    return next((i for i, ch, depth in _brackets(s, at) if depth == 0 and ch in ")]}"), None)


def _brackets(s: str, at: int) -> Iterator[tuple[int, str, int]]:
    """Each character of ``s`` from ``at`` outside string and character literals, with the
    bracket depth after it (an opening bracket counts itself, a closing one no longer)."""
    depth, i = 0, at
    while i < len(s):
        ch = s[i]
        if ch in "\"'":
            i = _after_literal(s, i)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        yield i, ch, depth
        i += 1


def _after_literal(s: str, at: int) -> int:
    quote, i = s[at], at + 1
    while i < len(s) and s[i] != quote:
        i += 2 if s[i] == "\\" else 1
    return i + 1
