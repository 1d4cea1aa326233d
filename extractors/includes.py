"""Which headers a file reads, and what it and they define: a preprocessor run over directives only.

A file's ``#if`` branches are decided by what is defined where they stand: the configuration, the
file's compile flags, and the ``#define`` lines of the headers it includes (a ``config.h`` in an
``-I`` folder saying ``#define USE_LOCKS 1``).  This module follows the file's ``#include`` lines
and those of its headers, in order, and keeps the defines as the preprocessor would, tri-state:

- a ``#define``/``#undef`` on a line every enclosing conditional selects defines/undefines the name;
- one under a conditional the defines do not decide makes the name *unknown* (the run may or may
  not pass there), as does anything in a header included there;
- one under a ruled-out branch does nothing, and an ``#include`` there is not followed.

Headers are looked for as the compiler does: ``#include "x.h"`` next to the including file, then
in the ``-iquote`` folders; both forms then in the ``-I`` folders (the command line's, the file's
compile flags', ``[preprocessor] include``), never in system folders that are not listed.  Each
header is read at most once per file (include guards and ``#pragma once`` make that the rule), the
nesting is bounded by :data:`MAX_DEPTH` and the count by :data:`MAX_HEADERS`, so a cycle or a
huge include tree costs a bounded run.  A header's include guard (``#ifndef G`` then ``#define G``
first) is taken as passed: it is its first inclusion.

Pure: the texts come through ``lookup``, which says for a path whether the edges handed it in
(:data:`UNREAD` when not yet: the run goes on as if it were missing, and lists it in ``wanted``
for the edges to read; the run is then repeated with it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from extractors.compile_flags import FileFlags
from extractors.count_macros import dropped, function_like
from extractors.define_guards import Frame, Tokens, agreed_value, name_guard, site_guard, truthy_guard
from extractors.preprocessor import NO_DEFINES, Defines, Directive, Guard, condition, condition_tokens, value_of

MAX_DEPTH = 16  # nested #include levels followed below the file
MAX_HEADERS = 256  # headers read for one file


class Unread:
    """The type of :data:`UNREAD`: a header the edges have not handed in yet."""

    def __repr__(self) -> str:
        return "UNREAD"


UNREAD = Unread()
Lookup = Callable[[str], "tuple[Directive, ...] | None | Unread"]
Elsewhere = Callable[[str], "str | None"]


def _nowhere(name: str) -> None:
    return None


@dataclass(frozen=True)
class Preprocessed:
    """The outcome of a file's run.  ``defines``: what its conditionals are decided by (after the
    last line: a name defined anywhere on the run counts for the whole file); ``consts``: the names
    defined to integers by its headers; ``headers``: those read, in include order (their macros
    count); ``wanted``: every path looked at, read or not (what the edges hand in)."""

    defines: Defines
    consts: tuple[tuple[str, int], ...]
    headers: tuple[str, ...]
    wanted: tuple[str, ...]


@dataclass(frozen=True)
class SearchPath:
    quote: tuple[str, ...] = ()  # after the including file's folder, for "x.h" only
    angle: tuple[str, ...] = ()  # for both forms


def search_path(flags: FileFlags, command_dirs: Sequence[str], config_dirs: Sequence[str]) -> SearchPath:
    """The folders headers are looked for in: the command line's ``-I`` first, then the file's
    compile flags, then the configuration's ``include`` (each list in its own order)."""
    return SearchPath(flags.quote_dirs, tuple(dict.fromkeys([*command_dirs, *flags.include_dirs, *config_dirs])))


def preprocess(
    path: str,
    own: Sequence[Directive],
    forced: Sequence[str],
    search: SearchPath,
    base: Defines,
    lookup: Lookup,
    pinned: Defines = NO_DEFINES,
    elsewhere: Elsewhere = _nowhere,
) -> Preprocessed:
    """The run over file ``path`` whose directives are ``own``, after the ``-include`` headers
    ``forced``, starting from the defines ``base``; the names ``pinned`` defines or undefines
    (the command line's ``-D``/``-U``, the user's last word) keep their state whatever a
    ``#define`` or ``#undef`` says.  ``elsewhere(name)``: where a quoted include found nowhere on
    the search path is, if anywhere (the project's one file of that name: a build's ``-I`` that
    nobody told ctlsp about)."""
    return _walked(_Run(search, base.overlaid(pinned), lookup, pinned, elsewhere), path, own, forced).outcome()


def _walked(run: _Run, path: str, own: Sequence[Directive], forced: Sequence[str]) -> _Run:
    """``run`` over the ``-include`` headers ``forced``, then file ``path``'s directives ``own``."""
    for header in forced:
        found = run.find(header)
        if found is not None:
            run.header(header, found, True, 1)
    run.lines(own, os.path.dirname(path), True, 0, guarded=False)
    return run


BuildMacros = tuple[tuple[str, str], ...]


def build_macros(
    path: str,
    own: Sequence[Directive],
    forced: Sequence[str],
    search: SearchPath,
    base: Defines,
    lookup: Lookup,
    pinned: Defines = NO_DEFINES,
    elsewhere: Elsewhere = _nowhere,
) -> BuildMacros:
    """The macros of the one build a compiler makes of ``path`` when told nothing more than
    ``base`` and ``pinned`` (:meth:`Defines.closed_world`: gcc's predefines on x86-64 Linux, every
    other unknown name undefined): each name the file or a header it reads defines for sure in
    that build, with the text after ``#define`` that build ends with; of the names defined on one
    line only, those whose definition drops an argument (the others read as the text has them).

    Why: ``#ifdef SQLITE_TEST  #define SimulateIOError(X) if (...) { X; }  #else  #define
    SimulateIOError(X)  #endif`` defines the macro twice, and reading whichever comes last is
    reading an arbitrary build; a macro call is one text per build, so the definitions are all
    one consistent build's (a store one macro compiles out is not read by another that the same
    build keeps).  A name that build leaves undefined (defined only where it does not pass:
    code under ``#ifdef SQLITE_ENABLE_FTS5`` is still modelled, with its own macros) or that a
    condition even the closed world cannot evaluate may define is left out: its definition stays
    as the file's text says.  Assertions are read as a build that checks them has them: a macro
    named for asserting that this build compiles out, and that another build's definition reads
    the first argument of (Lua's ``lua_assert(c) assert(c)``, zlib's ``Assert(cond, msg) {if
    (!(cond)) z_error(msg);}``), is the standard ``assert`` of that argument, so a path the code
    asserts away (``default: lua_assert(0); return 0;``) is no path, as in the build it is tested
    in; with no such definition it is left out (lz4's ``#ifndef assert  #define assert(c)
    ((void)0)``: the other build's is ``<assert.h>``'s)."""
    closed = base.overlaid(pinned).closed_world()
    run = _walked(_Run(search, closed, lookup, pinned, elsewhere, record=True), path, own, forced)
    out: dict[str, str] = {}
    for name, define in run.chosen.items():
        if define is None or name in run.unsure:
            continue
        macro = function_like(define)
        if len(run.written.get(name, ())) < 2 and (macro is None or not dropped(macro)):
            continue  # its one definition, as the text has it
        if macro is not None and macro[0] and dropped(macro) and "assert" in name.lower():
            written = (function_like(d) for d in run.written.get(name, ()))
            if not any(m is not None and 0 not in dropped(m) for m in written):
                continue  # ``#ifndef assert  #define assert(c) ((void)0)``: <assert.h>'s, as written
            define = f"{name}({', '.join(macro[0])}) assert({macro[0][0]})"
        out[name] = define
    return tuple(sorted(out.items()))


_INCLUDE = re.compile(r'"([^"]+)"|<([^>]+)>')
_DEFINE = re.compile(r"([A-Za-z_]\w*)(\()?\s*(.*)", re.DOTALL)
_GUARD = re.compile(r"!\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?")


class _Run:
    def __init__(
        self,
        search: SearchPath,
        base: Defines,
        lookup: Lookup,
        pinned: Defines,
        elsewhere: Elsewhere,
        record: bool = False,
    ) -> None:
        self.pinned = pinned.defined.keys() | pinned.undefined
        self.search = search
        self.lookup = lookup
        self.elsewhere = elsewhere
        self.defined: dict[str, int | None] = dict(base.defined)
        self.undefined: set[str] = set(base.undefined)
        self._undefined: frozenset[str] | None = None  # ``undefined`` frozen, until it changes
        self.consts: dict[str, int] = {}
        self.headers: list[str] = []
        self.seen: set[str] = set()
        self.wanted: dict[str, None] = {}
        # with ``record`` (build_macros): the text after ``#define`` of each name's last definition
        # run for sure (None: an #undef), and the names a definition run unsure may define
        self.record = record
        self.closed = base.closed
        self.written: dict[str, list[str]] = {}  # every #define of a name met, in any branch
        self.chosen: dict[str, str | None] = {}
        self.unsure: set[str] = set()
        # the file's own #define lines under conditions the run leaves open: per name, each one's
        # guard, value and the step its conditions were read at (extractors.define_guards); names
        # any other line defines or undefines have no guard; ``changed``: the step at which a name
        # was last (un)defined, a step being one #define or #undef line
        self.sites: dict[str, list[tuple[Tokens, int | None, int]]] = {}
        self.unguarded: set[str] = set()
        self.changed: dict[str, int] = {}
        self.step = 0
        self.ruled_out: set[str] = set()  # names the file defines only in branches ruled out

    def outcome(self) -> Preprocessed:
        defined = dict(self.defined)
        undefined = set(self.undefined)
        guarded: dict[str, Guard] = {}
        for name, made in self._guards().items():
            if made is True:
                defined[name] = agreed_value(v for _, v, _ in self.sites[name])
                truthy = truthy_guard([(g, v) for g, v, _ in self.sites[name]])
                if defined[name] is None and truthy is not None:
                    guarded[name] = (truthy, 1)  # its truth, where its values differ
            elif made is False:
                undefined.add(name)
            else:
                guarded[name] = made
        undefined |= {n for n in self.ruled_out if n not in self.changed and n not in self.pinned}
        return Preprocessed(
            Defines(defined, frozenset(undefined), guarded=guarded),
            tuple(sorted(self.consts.items())),
            tuple(self.headers),
            tuple(self.wanted),
        )

    def _guards(self) -> dict[str, Guard | bool]:
        """What each name the file defines only under undecided conditions is made
        (:func:`extractors.define_guards.name_guard`), when its guard tells the whole truth."""
        out: dict[str, Guard | bool] = {}
        for name, sites in self.sites.items():
            if name in self.unguarded or name in self.defined or name in self.undefined:
                continue
            # a name a guard reads that changes after its conditions were read: they read it before
            if any(self.changed.get(t, -1) > since for g, _, since in sites for t in g if t != name):
                continue
            made = name_guard(name, [(g, v) for g, v, _ in sites])
            if made is not None:
                out[name] = made
        return out

    def now(self) -> Defines:
        """The defines so far (a view of the run's own dict: used at once, never kept)."""
        if self._undefined is None:
            self._undefined = frozenset(self.undefined)
        return Defines(self.defined, self._undefined, self.closed)

    def find(self, path: str) -> tuple[Directive, ...] | None:
        """A header's directives, or None when it is missing or not handed in yet."""
        path = os.path.normpath(path)
        self.wanted[path] = None
        got = self.lookup(path)
        return got if isinstance(got, tuple) else None

    def resolve(self, name: str, quoted: bool, here: str) -> tuple[str, tuple[Directive, ...]] | None:
        dirs = [here, *self.search.quote, *self.search.angle] if quoted else list(self.search.angle)
        for d in dirs:
            path = os.path.normpath(os.path.join(d, name))
            found = self.find(path)
            if found is not None:
                return path, found
        other = self.elsewhere(name) if quoted else None
        if other is not None:
            found = self.find(other)
            if found is not None:
                return other, found
        return None

    def header(self, path: str, lines: tuple[Directive, ...], certain: bool, depth: int) -> None:
        if path in self.seen or len(self.seen) >= MAX_HEADERS:
            return
        self.seen.add(path)
        self.headers.append(path)
        self.lines(lines, os.path.dirname(path), certain, depth, guarded=True)

    def lines(self, lines: Sequence[Directive], here: str, certain: bool, depth: int, guarded: bool) -> None:
        """Run ``lines``; ``certain``: whether the run surely passes where they are included."""
        # per open conditional: (state before it, a branch was selected, a branch may have been)
        stack: list[tuple[bool | None, bool, bool]] = []
        frames: list[Frame] = []  # the file's own lines: per open conditional, its branches so far
        own = depth == 0
        state: bool | None = True if certain else None  # True: passes, None: may pass, False: does not
        guard = guarded and _guard(lines)
        first_time = _self_guards(lines)
        for i, (kind, rest) in enumerate(lines):
            c: bool | None
            if self.record and kind == "define" and (m := _DEFINE.match(rest)) is not None:
                self.written.setdefault(m.group(1), []).append(rest)
            if kind in ("if", "ifdef", "ifndef"):
                c = True if guard and i == 0 else (condition(kind, rest, self.now()) if state is not False else False)
                if c is None and i in first_time:
                    c = True  # ``#ifndef X`` whose block defines X, X unknown: read the first time
                stack.append((state, c is True, c is None))
                state = _within(state, c)
                if own:
                    frames.append([(condition_tokens(kind, rest) if c is None else None, c, self.step)])
            elif kind in ("elif", "elifdef", "elifndef", "else"):
                if not stack:
                    continue
                outer, taken, maybe = stack[-1]
                if taken or outer is False:
                    c = False
                else:
                    c = True if kind == "else" else condition(kind, rest, self.now())
                if own and frames:
                    tokens = () if kind == "else" or c is not None else condition_tokens(kind, rest)
                    frames[-1].append((tokens, c, self.step))
                if c is not False and maybe:
                    c = None
                stack[-1] = (outer, taken or c is True, maybe or c is None)
                state = _within(outer, c)
            elif kind == "endif":
                if stack:
                    state = stack.pop()[0]
                if own and frames:
                    frames.pop()
            elif state is False:
                if own and kind == "define" and (m := _DEFINE.match(rest)) is not None:
                    self.ruled_out.add(m.group(1))
                continue
            elif kind == "define":
                self.define(rest, state is True, site_guard(frames) if own and state is None else None)
            elif kind == "undef":
                self.undefine(rest, state is True)
            elif kind == "include" and depth < MAX_DEPTH:
                m = _INCLUDE.match(rest)
                if m is not None:
                    found = self.resolve(m.group(1) or m.group(2), m.group(1) is not None, here)
                    if found is not None:
                        self.header(found[0], found[1], state is True, depth + 1)

    def define(self, rest: str, certain: bool, site: tuple[Tokens, int] | None = None) -> None:
        """A ``#define`` line the run passes for sure (``certain``) or may pass; ``site``: for
        one of the file's own lines under undecided conditions, their guard and the step they
        were read at (:func:`extractors.define_guards.site_guard`)."""
        m = _DEFINE.match(rest)
        if m is None:
            return
        name = m.group(1)
        if name in self.pinned:
            return
        if self.record:
            if certain:
                self.chosen[name] = rest
            else:
                self.unsure.add(name)
        value = None if m.group(2) or not (certain or site) else value_of(m.group(3), self.now())
        self.step += 1
        self.changed[name] = self.step
        if site is not None:
            self.sites.setdefault(name, []).append((site[0], value, site[1]))
        else:
            self.unguarded.add(name)
        if not certain:
            self.forget(name)
            return
        self.defined[name] = value
        self._forget_undefined(name)
        if value is None:
            self.consts.pop(name, None)
        else:
            self.consts[name] = value

    def undefine(self, rest: str, certain: bool) -> None:
        m = _DEFINE.match(rest)
        if m is None or m.group(1) in self.pinned:
            return
        self.unguarded.add(m.group(1))
        self.step += 1
        self.changed[m.group(1)] = self.step
        if self.record:
            if certain:
                self.chosen[m.group(1)] = None
            else:
                self.unsure.add(m.group(1))
        if not certain:
            self.forget(m.group(1))
            return
        self.defined.pop(m.group(1), None)
        self.consts.pop(m.group(1), None)
        self.undefined.add(m.group(1))
        self._undefined = None

    def forget(self, name: str) -> None:
        """``name`` may or may not be (re)defined here: unknown from now on."""
        self.defined.pop(name, None)
        self._forget_undefined(name)
        self.consts.pop(name, None)

    def _forget_undefined(self, name: str) -> None:
        if name in self.undefined:
            self.undefined.discard(name)
            self._undefined = None


def _within(outer: bool | None, c: bool | None) -> bool | None:
    if outer is False or c is False:
        return False
    if outer is None or c is None:
        return None
    return True


def _self_guards(lines: Sequence[Directive]) -> set[int]:
    """The indexes of the ``#ifndef X`` (or ``#if !defined(X)``) lines of ``lines`` whose first
    branch defines ``X`` itself, at its own level: include guards (``#ifndef SQLITEINT_H  #define
    SQLITEINT_H`` in an amalgamation, anywhere in a file), and defaults (``#ifndef SQLITE_PRIVATE
    #define SQLITE_PRIVATE static``).  Such a block is written to run when it is first read, and
    a name nothing defines before is undefined there: the run passes it for sure, as a compiler
    told nothing more does, instead of taking every line inside as maybe run."""
    out: set[int] = set()
    # per open conditional: its line, and the name it tests while in its first branch
    open_: list[tuple[int, str | None]] = []
    for i, (kind, rest) in enumerate(lines):
        if kind in ("if", "ifdef", "ifndef"):
            open_.append((i, _untested_name(kind, rest)))
        elif kind in ("elif", "elifdef", "elifndef", "else"):
            if open_:
                open_[-1] = (open_[-1][0], None)
        elif kind == "endif":
            if open_:
                open_.pop()
        elif kind == "define" and open_ and open_[-1][1] is not None:
            m = _DEFINE.match(rest)
            if m is not None and m.group(1) == open_[-1][1]:
                out.add(open_[-1][0])
    return out


def _guard(lines: Sequence[Directive]) -> bool:
    """Whether ``lines`` open with an include guard: ``#ifndef G`` (or ``#if !defined(G)``) and
    ``#define G`` next."""
    if len(lines) < 2 or lines[1][0] != "define":
        return False
    name = _untested_name(*lines[0])
    defined = lines[1][1].split()
    return name is not None and bool(defined) and defined[0] == name


def _untested_name(kind: str, rest: str) -> str | None:
    """The name ``#kind rest`` selects its branch for when it is not defined: ``#ifndef G`` or
    ``#if !defined(G)``; None for another conditional."""
    if kind == "ifndef":
        return rest.split()[0] if rest.split() else None
    if kind == "if" and (m := _GUARD.fullmatch(rest.strip())) is not None:
        return m.group(1)
    return None
