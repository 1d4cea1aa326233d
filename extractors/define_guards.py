"""The condition a file defines a name under, when nothing decides it.

``#if defined(__VXWORKS__)  #define HOMEGROWN 1  #endif``: the preprocessor run
(:mod:`extractors.includes`) cannot tell whether ``HOMEGROWN`` is defined, so the name is unknown
and a function's ``#ifdef HOMEGROWN`` keeps both branches.  Unknown alone loses what the file says:
``#if X  #define A 1  #else  #define B 1  #endif`` defines exactly one of ``A`` and ``B``, and a
function testing ``#ifdef A`` then ``#ifdef B`` runs one of the two blocks, never both nor none.
So each such name keeps its *guard*, the condition of its ``#define`` lines spelled as
:func:`extractors.preprocessor.condition_tokens` spells conditions; :class:`Assumed
<extractors.preprocessor.Assumed>` reads ``defined A`` as the guard, and the two tests become one.

A guard is kept only where it is the whole truth: the name is defined in the file's own lines only,
each time under conditions the run leaves open, never ``#undef``-ined, and no name the guard reads
changes after the guard's conditions were read (``#ifdef M  #undef M  #define A``: A's guard would
read M as it is after the run, not as it was).  A name that keeps no guard stays unknown to the
run, and the file's functions read it as defined when the file gives it a number
(:meth:`Defines.with_file <extractors.preprocessor.Defines.with_file>`).  A guard that holds
whatever its tests are (``#ifndef A  #define A``, a name defined in every branch) makes the name
defined; one that never holds, undefined.  (A ``#ifndef X`` whose block defines ``X``, such as a
``.c`` file's own include guard, is no undecided condition: the run passes it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from typing import cast

from extractors.preprocessor import Guard, negated, split, unparen

Tokens = tuple[str, ...]
# one open conditional of the run: each branch met so far, with its condition's tokens (() for
# ``#else``, None when they cannot be read), what the run decided of it on its own, and the run's
# step (its count of #define and #undef lines) when it did
Frame = list[tuple["Tokens | None", "bool | None", int]]

MAX_TESTS = 10  # the tests a guard combines that :func:`constant` enumerates


def site_guard(frames: Sequence[Frame]) -> tuple[Tokens, int] | None:
    """The condition under which a line inside the open conditionals ``frames`` runs, from the
    tests the run left undecided (each earlier branch of a conditional false, the line's own true),
    and the step of the first of them: a name it reads must not change after that step for the
    condition to mean, read after the run, what it meant where it stood.  None when one of them
    cannot be read."""
    conj: list[Tokens] = []
    since: int | None = None
    for frame in frames:
        *earlier, (tokens, own, step) = frame
        for t, decided, at in earlier:
            if decided is None:
                if t is None:
                    return None
                conj.append(("!", "(", *t, ")"))
                since = at if since is None else min(since, at)
        if own is None:
            if not tokens:
                return None
            conj.append(("(", *tokens, ")"))
            since = step if since is None else min(since, step)
    return (_joined(conj, "&&"), since) if conj and since is not None else None


def name_guard(name: str, sites: Sequence[tuple[Tokens, int | None]]) -> Guard | bool | None:
    """What the ``#define`` lines of ``name`` at ``sites`` (each its guard and value) make of it:
    a :data:`Guard`, True (defined whatever the tests: the value is the sites' one when they agree),
    False (never), or None when the guard reads the name itself and does not settle it."""
    guard = _joined([("(", *g, ")") for g, _ in sites], "||")
    value = agreed_value(v for _, v in sites)
    itself = name in guard
    if len(sites) == 1 and not itself:
        return guard, value  # one branch's tests, each undecided: neither always nor never (but X && !X)
    if itself:  # ``#ifndef A  #define A 1``: defined before, or defined here
        guard = ("defined", name, "||", "(", *guard, ")")
    truth = constant(guard)
    if truth is not None:
        return truth
    return None if itself else (guard, value)


def agreed_value(values: Iterable[int | None]) -> int | None:
    """The value a name's definitions give it when they all give the same, else None."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


def truthy_guard(sites: Sequence[tuple[Tokens, int | None]]) -> Tokens | None:
    """For a name defined whatever the tests but to different numbers (``#if VX  #define OS_VX 1
    #else  #define OS_VX 0``): the condition under which its value is not 0, so that ``#if
    OS_VX`` reads as the test that chose it.  None when a value is not a number, or the condition
    is settled either way."""
    if any(v is None for _, v in sites):
        return None
    nonzero = [("(", *g, ")") for g, v in sites if v]
    guard = _joined(nonzero, "||") if nonzero else None
    return guard if guard is not None and constant(guard) is None else None


def constant(tokens: Tokens) -> bool | None:
    """True when condition ``tokens`` holds whatever each of its tests is, False when it never
    does, None otherwise (or when it combines more than :data:`MAX_TESTS` tests).  The tests are
    taken as free of each other, so a tautology only their meanings make (``X > 2 || X < 3``) is
    not found: such a guard is kept."""
    tests: dict[Tokens, int] = {}
    formula = _formula(tokens, tests)
    if len(tests) > MAX_TESTS:
        return None
    seen: set[bool] = set()
    for values in product((False, True), repeat=len(tests)):
        seen.add(_holds(formula, values))
        if len(seen) > 1:
            return None
    return seen.pop()


# a condition as a tree: ("|", parts), ("&", parts), ("!", part) or ("?", index of its test)
_Formula = tuple[str, object]


def _formula(tokens: Tokens, tests: dict[Tokens, int]) -> _Formula:
    """``tokens`` as a tree over the tests :func:`extractors.preprocessor.parts` finds, each test
    numbered in ``tests``."""
    tokens = unparen(tokens)
    for op, kind in (("||", "|"), ("&&", "&")):
        pieces = split(tokens, op)
        if len(pieces) > 1:
            return kind, tuple(_formula(p, tests) for p in pieces)
    inner = negated(tokens)
    if inner is not None:
        return "!", _formula(inner, tests)
    return "?", tests.setdefault(tokens, len(tests))


def _holds(formula: _Formula, values: tuple[bool, ...]) -> bool:
    kind, arg = formula
    if kind == "?":
        return values[cast(int, arg)]
    if kind == "!":
        return not _holds(cast(_Formula, arg), values)
    parts_ = cast(tuple[_Formula, ...], arg)
    if kind == "|":
        return any(_holds(p, values) for p in parts_)
    return all(_holds(p, values) for p in parts_)


def _joined(items: Sequence[Tokens], op: str) -> Tokens:
    out: list[str] = []
    for i, t in enumerate(items):
        if i:
            out.append(op)
        out.extend(t)
    return tuple(out)
