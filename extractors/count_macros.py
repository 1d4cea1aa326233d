"""Function-like macros whose value may be a size or an element count: ``ARRAY_SIZE``.

``#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))`` is how C code spells an array's element
count, and ``for (i = 0; i < ARRAY_SIZE(tab); i++)`` how it walks the array.  The CFG builder
knows that ``sizeof tab / sizeof tab[0]`` is at least 1 (``cfg.POSITIVE``: the loop runs at least
once, so what it assigns is set after it); through the macro the bound is a call it knows nothing
of, and the loop may run zero times, which gives a false uninitialised read after it.

This module reads the candidates from a text (:func:`count_macros`, per file and per header, as
:mod:`extractors.macro_calls` reads renames) and expands a call of one (:func:`expansion`): the
builder reads the expansion as it reads the written expression, and takes only a ``POSITIVE``
outcome from it, so a macro whose value may be 0 (``#define COUNT(n) (n)``) leaves the bound as
unknown as before.  Expansion is C's: each parameter token of the body replaced by the argument's
text (no parentheses added), so ``ARRAY_SIZE(p)`` of a pointer ``p`` is read exactly as the
written ``sizeof(p) / sizeof((p)[0])`` is.

Invariant: a candidate's body has no ``#`` (stringising and pasting are not expanded here) and
applies ``sizeof`` (a value at least 1 needs one) or calls a candidate that does (:func:`counting`,
over all the definitions a file sees); keeping only those keeps the set, which keys the file's
models (``queries.function_context``), small and unchanged by the file's other macros.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# a macro's parameters and body, as the definition writes them (the body's whitespace trimmed)
CountMacro = tuple[tuple[str, ...], str]
CountMacros = Mapping[str, CountMacro]
NO_COUNT_MACROS: CountMacros = {}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
# function-like only: "(" right after the name (``#define N (x)`` is object-like)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)(.*)$", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_]\w*\Z")
_WORD = re.compile(r"[A-Za-z_]\w*")
_SIZEOF = re.compile(r"\bsizeof\b")
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")  # a name a body calls


def count_macros(text: str) -> dict[str, CountMacro]:
    """The function-like macros of ``text`` whose body may be a size or a count: it applies
    ``sizeof``, or calls a macro (``#define countof(a) ARRAY_SIZE(a)``, which :func:`counting`
    keeps only when that one is a candidate).  A later definition of a name wins, also when it is
    none of these."""
    flat = _COMMENT.sub(" ", text.replace("\\\r\n", " ").replace("\\\n", " "))
    out: dict[str, CountMacro] = {}
    for m in _DEFINE.finditer(flat):
        name, params, body = m.group(1), m.group(2), m.group(3).strip()
        names = tuple(p.strip() for p in params.split(",")) if params.strip() else ()
        shaped = _SIZEOF.search(body) is not None or _CALLED.search(body) is not None
        if shaped and "#" not in body and all(_NAME.match(n) for n in names):
            out[name] = (names, body)
        else:
            out.pop(name, None)
    return out


def counting(found: Mapping[str, CountMacro]) -> dict[str, CountMacro]:
    """Of the candidates a file sees (its headers' and its own :func:`count_macros`), those whose
    body applies ``sizeof`` or calls one that is kept: the others can never expand to a count."""
    kept = {n: m for n, m in found.items() if _SIZEOF.search(m[1])}
    while True:
        more = {
            n: m
            for n, m in found.items()
            if n not in kept and any(c in kept for c in _CALLED.findall(m[1]))
        }
        if not more:
            return kept
        kept.update(more)


def expansion(macro: CountMacro, args: Sequence[str]) -> str | None:
    """The text a call of ``macro`` with the argument texts ``args`` expands to (None when the
    count of arguments is not the macro's)."""
    params, body = macro
    if len(args) != len(params):
        return None
    given = dict(zip(params, args, strict=False))
    return _WORD.sub(lambda w: given.get(w.group(0), w.group(0)), body)


def count_macros_key(macros: CountMacros) -> str:
    """What names ``macros`` in a digest: empty when there are none, so a file without any keeps
    the key it had."""
    return repr(sorted(macros.items())) if macros else ""
