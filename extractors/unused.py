"""Never-read locals and parameters: declared (maybe assigned), and named nowhere else.

Read off the function's text, not its CFG, so that every mention counts as a use whatever the
front end makes of it: ``sizeof x``, ``(void)x``, ``&x``, an argument of a macro, inline ``asm``
operands, another variable's initialiser, code in an ``#if`` branch not taken, code a constant
disables (``if (DEBUG) printf("%d", x)``). The only mentions that are not uses are the
declaration itself and the left side of a plain ``x = ...``; ``x += 1`` and ``x++`` read ``x``
and count as uses (a variable only counted up is left to the ``dead-store`` rule).

Precise where it reports, conservative elsewhere: a name declared twice in one function (two
``for (int i ...)``) is read if either is; a declaration with any attribute
(``__attribute__((unused))``, ``[[maybe_unused]]``, ``cleanup``) or whose text says ``unused``
(``int x UNUSED;``), and ``extern`` declarations, are never reported.
"""

from __future__ import annotations

import re

import tree_sitter
from tree_sitter import Node as TSNode

from extractors.cfg import INCLUDE_LINE, MAX_EXPANSION, misread_statement_macro
from extractors.count_macros import NO_COUNT_MACROS, CountMacros, expand_call, object_like
from extractors.marks import Frame, Mark
from extractors.parse import LANGUAGE, strip_parens, text_of

LOCAL, PARAM = "unused", "unusedparam"

_BLANKED = re.compile(rb'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)
_MACRO = re.compile(r"[A-Z][A-Z0-9_]+")  # a "name" in capitals is a macro the parse misread (BROTLI_RESTRICT)
_QUIET = re.compile(rb"unused|__attribute__|\[\[", re.IGNORECASE)


def never_read(
    fn: TSNode, source: bytes, base: int, frame: Frame, params: bool, macros: CountMacros = NO_COUNT_MACROS
) -> list[Mark]:
    """Marks on the locals of definition ``fn`` (and its parameters if ``params``) that no mention
    reads. ``source`` is the function's text as written, in which ``fn``'s byte offsets minus
    ``base`` index: the tree may be of a preprocessor variant with branches blanked, the text
    keeps them all, and a mention there counts.  So does a mention in the body of one of
    ``macros`` (the file's count and statement macros) that the function calls, also through each
    other (:func:`_macro_mentions`): the expansion is the function's text to the compiler.  A body
    that ``#include``s a file is not all there: no local of it is marked."""
    body = fn.child_by_field_name("body")
    if body is None or INCLUDE_LINE.search(source[body.start_byte - base : body.end_byte - base]):
        return []
    decls, writes = _declared(body, macros)
    if params:
        decls += _params(fn)
    if not decls:
        return []
    text = _blank(source[body.start_byte - base : body.end_byte - base])
    offset = body.start_byte
    silent = {n.start_byte for n, _ in decls} | writes
    out: list[Mark] = []
    names = {text_of(n) for n, _ in decls}
    mentioned = {name: found - silent for name, found in _mentions(text, names, offset).items()}
    unmentioned = {name for name, found in mentioned.items() if not found}
    if unmentioned and macros:
        unmentioned -= _macro_mentions(text, unmentioned, macros)
    for ident, atom in decls:
        if text_of(ident) in unmentioned:
            out.append(Mark(atom, text_of(ident), frame.span(ident), text_of(ident)))
    return sorted(out, key=lambda m: m.at)


def _blank(text: bytes) -> bytes:
    """Comments, strings and character literals as spaces, offsets kept."""
    return _BLANKED.sub(lambda m: b" " * len(m.group(0)), text)


_SITES = tree_sitter.Query(LANGUAGE, "(declaration) @decl (assignment_expression) @assign")


_WORD = re.compile(rb"(?<![\w$])[A-Za-z_$][\w$]*")


def _mentions(text: bytes, names: set[str], offset: int) -> dict[str, set[int]]:
    """Per name, the offsets (in the tree's bytes) of its mentions as a word, not a member
    (``s.name``, ``p->name``): one pass over the text for all names, with one pattern compiled
    once (a pattern per function's names would be compiled again for nearly every function)."""
    wanted = {n.encode(): n for n in names}
    out: dict[str, set[int]] = {n: set() for n in names}
    for m in _WORD.finditer(text):
        name = wanted.get(m.group(0))
        if name is None:
            continue
        before = text[max(0, m.start() - 80) : m.start()].rstrip()
        if before.endswith(b".") or before.endswith(b"->"):
            continue
        out[name].add(offset + m.start())
    return out


_CALLED = re.compile(rb"(?<![\w$])([A-Za-z_][A-Za-z0-9_]*)\s*\(")  # a name a text calls


def _macro_mentions(text: bytes, names: set[str], macros: CountMacros) -> set[str]:
    """Of ``names``, those the body of a macro of ``macros`` that ``text`` calls mentions as a
    word other than the macro's parameters (which the call's own arguments replace, and those are
    in ``text``): cffi's ``_read_raw_data(long double)`` expands to ``if (size == sizeof(long
    double))``, which reads the caller's ``size``.  The bodies' calls of each other are followed
    :data:`MAX_EXPANSION` deep (a cycle of defines ends)."""
    out: set[str] = set()
    seen: set[str] = set()
    called = {m.decode("ascii") for m in _CALLED.findall(text)}
    # an object-like macro is named, not called (``C16B;`` of ``#define C16B C16S``)
    named = _WORD_STR.findall(text.decode("utf-8", "replace"))
    called |= {w for w in named if (m := macros.get(w)) is not None and object_like(m)}
    for _ in range(MAX_EXPANSION):
        todo = {c for c in called if c in macros and c not in seen}
        if not todo:
            break
        seen |= todo
        called = set()
        for name in todo:
            params, body = macros[name]
            words = set(_WORD_STR.findall(body)) - set(params)
            out |= names & words
            called |= {c for c in words if c in macros}
    if any("##" in macros[c][1] for c in seen):
        out |= names & _pasted_words(text, macros)
    return out


_PASTE_BUDGET = 1 << 16  # bytes of expansions read for pasted names per function


def _pasted_words(text: bytes, macros: CountMacros) -> set[str]:
    """The words of the expansions of the macro calls in ``text``, their arguments put in and
    tokens pasted (keccak's ``THETA(s, a)`` names ``sa0`` ... ``sb4`` through ``p##b##0``), and of
    the calls inside those, :data:`MAX_EXPANSION` deep and within :data:`_PASTE_BUDGET`; asked
    only when one of the macros the text reaches pastes."""
    out: set[str] = set()
    todo, spent = [text], 0
    for _ in range(MAX_EXPANSION):
        more: list[bytes] = []
        for data in todo:
            for m in _CALLED.finditer(data):
                macro = macros.get(m.group(1).decode("ascii"))
                if macro is None or object_like(macro):
                    continue
                got = expand_call(macro, data, m.end() - 1)
                if got is None or spent + len(got.text) > _PASTE_BUDGET:
                    continue
                spent += len(got.text)
                out |= set(_WORD_STR.findall(got.text.decode("utf-8", "replace")))
                more.append(got.text)
        if not more:
            break
        todo = more
    return out


_WORD_STR = re.compile(r"(?<![\w$])(?<!\.)(?<!->)[A-Za-z_$][\w$]*")


def _declared(body: TSNode, macros: CountMacros) -> tuple[list[tuple[TSNode, str]], set[int]]:
    """The locals ``body`` declares (their name nodes) that may be reported, and the offsets of
    the names that plain assignments write; a statement macro of ``macros`` that the parse read
    as a declaration's type declares nothing (:func:`extractors.cfg.misread_statement_macro`)."""
    decls: list[tuple[TSNode, str]] = []
    writes: set[int] = set()
    sites = tree_sitter.QueryCursor(_SITES).captures(body)
    for n in sites.get("decl", ()):
        if not _quiet(n) and not misread_statement_macro(n, macros):
            for d in n.children_by_field_name("declarator"):
                ident = _name(d)
                if ident is not None and not _MACRO.fullmatch(text_of(ident)):
                    decls.append((ident, LOCAL))
    for n in sites.get("assign", ()):
        if _statement_level(n):
            left = strip_parens(n.child_by_field_name("left"))
            if left is not None and left.type == "identifier":
                writes.add(left.start_byte)
    return decls, writes


def _statement_level(n: TSNode) -> bool:
    """A plain ``x = ...`` whose value nobody uses (``while ((x = f()) > 0)`` reads it)."""
    if text_of(n.child_by_field_name("operator")) != "=":
        return False
    up = n.parent
    while up is not None and up.type in ("parenthesized_expression", "comma_expression"):
        up = up.parent
    return up is not None and up.type in ("expression_statement", "for_statement")


def _params(fn: TSNode) -> list[tuple[TSNode, str]]:
    d = fn.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    plist = d.child_by_field_name("parameters") if d is not None else None
    out: list[tuple[TSNode, str]] = []
    for p in plist.named_children if plist is not None else ():
        if p.type == "identifier" and not _MACRO.fullmatch(text_of(p)) and not _quiet_k_and_r(fn, text_of(p)):
            out.append((p, PARAM))  # a K&R parameter: named here, declared before the body
        elif p.type == "parameter_declaration" and not _quiet(p):
            ident = _name(p.child_by_field_name("declarator"))
            if ident is not None and not _MACRO.fullmatch(text_of(ident)):
                out.append((ident, PARAM))
    return out


def _quiet_k_and_r(fn: TSNode, name: str) -> bool:
    """Whether the K&R declaration of parameter ``name`` (between the declarator and the body of
    ``fn``) is one the rule leaves alone (see :func:`_quiet`)."""
    for decl in fn.named_children:
        if decl.type != "declaration":
            continue
        for d in decl.children_by_field_name("declarator"):
            ident = _name(d)
            if ident is not None and text_of(ident) == name:
                return _quiet(decl)
    return False


def _quiet(decl: TSNode) -> bool:
    """A declaration the rule leaves alone: ``extern``, or one with attributes or ``unused``."""
    if decl.has_error or any(c.type == "storage_class_specifier" and text_of(c) == "extern" for c in decl.children):
        return True
    if any(c.type in ("attribute_specifier", "attribute_declaration", "ms_declspec_modifier") for c in decl.children):
        return True
    return _QUIET.search(decl.text or b"") is not None


def _name(d: TSNode | None) -> TSNode | None:
    """The identifier a (possibly initialised, pointer, array) declarator declares; None for a
    function declarator (a prototype inside a body declares no local)."""
    while d is not None and d.type != "identifier":
        if d.type == "function_declarator":
            return None
        if d.type == "parenthesized_declarator":
            d = d.named_children[0] if d.named_children else None
            continue
        d = d.child_by_field_name("declarator")
    return d
