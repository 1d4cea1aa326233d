"""Whole-project facts that rule out paths that cannot run: file-scope variables that nothing
writes after their initialiser, and functions that return one constant on every path.

``static int verbose = 0; ... if (verbose) log(p);`` and ``if (feature_enabled()) free(p);`` where
``feature_enabled`` returns 0 in another file: the branch cannot run, but a CFG alone keeps it.
Such names become constants for infeasible-path pruning (:mod:`extractors.prune`): a global by its
name, a helper's result by ``name()`` (which :func:`extractors.facts.const_value` and
:func:`extractors.cfg.cond_expr` read for a call of ``name``).

How it is kept incrementally (the queries live in :mod:`extractors.queries`): each file's
:class:`FileFacts` are read off the parse ``file_items`` already makes (the writes of a function
body are memoised by the body's text, so an edit rescans one body); the project's facts combine all
files' and are backdated when equal; each file's *view* keeps what its functions can see; and a
function reads only the pairs of the view whose names its own text mentions, so typing in one
body rebuilds no other function unless a fact it mentions changed.

Soundness.  A variable is constant only when
- it is defined at file scope as a plain (non-array, non-pointer) object, not ``volatile``, and its
  initialiser is a known integer constant (no initialiser: 0, static storage);
- no file of the project writes its *name* anywhere: an assignment of any kind, ``++``/``--``,
  its address taken (``&x``), or passed bare as an argument (a function-like macro may assign
  it); names inside ``asm`` count as written.  The scan is textual and over-approximates: a local
  or a field with the same name, a comment or a string count as writes, which only loses facts;
- every definition of a non-``static`` name in the project agrees on its value, and ``extern``
  declarations never define one.
A non-``static`` name is read under the assumption that **the checked files are the whole
program**: a file outside the project (a library linked in, a file not handed to ctlsp) could
write it.  A ``static`` one is certain (only its translation unit can name it, and the headers it
includes are scanned as project files when they are in the project).

A prototype of a function with ``const T *`` parameters adds ``("name(const)", mask)``
(:mod:`extractors.prototypes`): the arguments a call of a function known only so borrows.  It is
no constant; it rides along because it has the same life (declared at file scope, combined over
the project, read by the functions whose text names it).

A function returns a constant when every ``return`` in its body returns one known constant (a
literal, or a constant of its file known before it), its body's last statement is a ``return``
(so no path falls off the end), its text has no syntax error, and it calls no capitalised name
nor a function-like macro of its file (either may hide a ``return`` of another value).  The same
whole-program assumption holds for non-``static`` functions; a name defined by several files is
kept only when they agree.  A function-like macro from a header that hides a ``return`` is not
seen: that is this fact's residual assumption.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from tree_sitter import Node as TSNode

from extractors.facts import ConstForm, const_form, const_of
from extractors.parse import text_of
from extractors.prototypes import prototype_facts

_NAME = r"([A-Za-z_]\w*)"
_WRITES = re.compile(
    r"(?:\+\+|--)[\s(]*"
    + _NAME  # ++x, --(x)
    + r"|(?<!&)&(?!&)[\s(]*"
    + _NAME  # &x (also a & x: more writes only lose facts)
    + r"|(?<!\w)"  # a whole token: never the tail of one (``0x0200 --``, ``8_3_names=``)
    + _NAME
    + r"[\s)]*(?:\+\+|--|(?:<<|>>|[-+*/%&|^])?=(?!=))"  # x++, x =, (x) += ...
    # a bare argument (a macro may assign it): after a callee's name or a comma, not after a keyword
    + r"|(?:\b(?!(?:if|while|switch|for|return|sizeof)\b)[A-Za-z_]\w*\s*\(|,)[\s(]*"
    + _NAME
    + r"[\s)]*(?=[,)])"
)
_IDENT = re.compile(rb"[A-Za-z_]\w*")
_ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b")
_RETURN = re.compile(rb"\breturn\b")
_RETURN_VALUE = re.compile(rb"\breturn\b\s*([^;]*);")
_MACRO_NAME = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(", re.MULTILINE)


@dataclass(frozen=True)
class FileFacts:
    """What one file contributes, position-free (equal across edits that change none of it).

    ``variables`` / ``functions``: every file-scope variable / function the file *defines*, as
    (name, constant value or None, static); ``written`` every name the file may write."""

    variables: tuple[tuple[str, int | None, bool], ...]
    functions: tuple[tuple[str, int | None, bool], ...]
    written: frozenset[str]


NO_FACTS = FileFacts((), (), frozenset())


@lru_cache(maxsize=65_536)
def written_in(text: bytes) -> frozenset[str]:
    """The names ``text`` may write (see the module's soundness note); memoised by the text, so an
    edit rescans only the item it changed."""
    s = text.decode("utf-8", "replace")
    out: set[str] = set()
    for m in _WRITES.finditer(s):
        out.update(g for g in m.groups() if g is not None)
    if _ASM.search(s):
        out.update(x.decode() for x in _IDENT.findall(text))
    return frozenset(out)


def _storage(n: TSNode) -> set[str]:
    words = {text_of(c) for c in n.children if c.type in ("storage_class_specifier", "type_qualifier")}
    ty = n.child_by_field_name("type")
    if ty is not None and ty.type != "primitive_type" and "volatile" in text_of(n).split():
        words.add("volatile")
    return words


def declared_variables(n: TSNode) -> list[tuple[str, ConstForm, bool]]:
    """The variables a file-scope ``declaration`` defines (not ``extern`` ones), each with the form
    of its constant value when it can have one (:func:`extractors.facts.const_of` reads it with the
    constants known before the declaration): a plain identifier declarator, not volatile, of a
    scalar or ``enum`` type, initialised by a constant expression or not at all (0)."""
    words = _storage(n)
    if "typedef" in words:
        return []
    static = "static" in words
    borrowing: list[tuple[str, ConstForm, bool]] = [(k, m, static) for k, m in prototype_facts(n)]
    if "extern" in words:
        return borrowing
    ty = n.child_by_field_name("type")
    scalar_type = ty is not None and ty.type in (
        "primitive_type",
        "sized_type_specifier",
        "enum_specifier",
        "type_identifier",
    )
    out: list[tuple[str, ConstForm, bool]] = []
    for d in n.children_by_field_name("declarator"):
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        if inner is None:
            continue
        if inner.type != "identifier":
            name = _declared_name(inner)
            if name is not None:
                out.append((name, None, static))
            continue
        value: ConstForm = 0
        if d.type == "init_declarator":
            value = const_form(d.child_by_field_name("value"))
        if "volatile" in words or not scalar_type:
            value = None
        out.append((text_of(inner), value, static))
    return borrowing + out


def _declared_name(d: TSNode | None) -> str | None:
    while d is not None and d.type != "identifier":
        if d.type == "function_declarator":
            return None  # a function's prototype, not a variable
        if d.type == "parenthesized_declarator":
            d = d.named_children[0] if d.named_children else None
            continue
        d = d.child_by_field_name("declarator")
    return text_of(d) if d is not None else None


def constant_return(fn: TSNode) -> tuple[ConstForm, ...] | None:
    """The forms of the values ``fn`` returns, when it may return a constant on every path that
    returns (see the module's note), else None; :func:`returned_constant` reads them with the
    constants known before ``fn``."""
    body = fn.child_by_field_name("body")
    if body is None or fn.has_error:
        return None
    stmts = [c for c in body.named_children if c.type != "comment"]
    if not stmts or stmts[-1].type != "return_statement" or body.text is None:
        return None
    last = next((c for c in stmts[-1].named_children if c.type != "comment"), None)
    if last is None or const_form(last) is None:
        return None
    values_text = set(_RETURN_VALUE.findall(body.text))
    if len(values_text) != 1:  # cheap first: a body returning one spelling only is walked
        return None
    words = len(_RETURN.findall(body.text))
    forms: set[ConstForm] = set()
    found = 0
    stack = [body]
    while stack:
        x = stack.pop()
        if x.type == "return_statement":
            found += 1
            value = next((c for c in x.named_children if c.type != "comment"), None)
            form = const_form(value) if value is not None else None
            if form is None:
                return None
            forms.add(form)
            continue
        if x.type == "call_expression":
            callee = x.child_by_field_name("function")
            if callee is not None and callee.type == "identifier" and text_of(callee).isupper():
                return None
        stack.extend(x.named_children)
    if found != words:
        return None  # a ``return`` the tree does not show as one (a macro argument, a string)
    return tuple(sorted(forms, key=repr))


def returned_constant(forms: tuple[ConstForm, ...] | None, consts: Mapping[str, int]) -> int | None:
    """The one constant a function whose returns have ``forms`` (:func:`constant_return`) returns."""
    if not forms:
        return None
    values = {const_of(f, consts) for f in forms}
    return values.pop() if len(values) == 1 and None not in values else None


def callees(fn: TSNode) -> frozenset[str]:
    """The names ``fn`` calls directly (checked against the file's function-like macros)."""
    out: set[str] = set()
    stack = [fn]
    while stack:
        x = stack.pop()
        if x.type == "call_expression":
            callee = x.child_by_field_name("function")
            if callee is not None and callee.type == "identifier":
                out.add(text_of(callee))
        stack.extend(x.named_children)
    return frozenset(out)


def macro_names(defines: Iterable[bytes]) -> frozenset[str]:
    return frozenset(m.decode() for d in defines for m in _MACRO_NAME.findall(d))


def is_static(fn: TSNode) -> bool:
    return any(c.type == "storage_class_specifier" and text_of(c) == "static" for c in fn.children)


@dataclass(frozen=True)
class ProjectFacts:
    """The constants of the whole project: non-``static`` names, and each file's ``static`` ones.
    Helper results are keyed ``name()``."""

    shared: frozenset[tuple[str, int]]
    own: Mapping[str, frozenset[tuple[str, int]]]  # file -> its static constants
    hidden: Mapping[str, frozenset[str]]  # file -> names it defines static that are not constant

    def view(self, path: str) -> frozenset[tuple[str, int]]:
        """What the functions of ``path`` see: its static constants over the shared ones, less
        the shared names it hides with a static of its own."""
        own = self.own.get(path, frozenset())
        hidden = self.hidden.get(path, frozenset()) | {n for n, _ in own}
        return own | frozenset((n, v) for n, v in self.shared if n not in hidden)


def combine(files: Mapping[str, FileFacts]) -> ProjectFacts:
    """The project's constants from every file's facts (see the module's soundness note)."""
    written: set[str] = set()
    for f in files.values():
        written |= f.written
    shared: dict[str, int | None] = {}
    own: dict[str, dict[str, int | None]] = {}
    for path, f in files.items():
        entries = list(f.variables) + [(f"{n}()", v, s) for n, v, s in f.functions]
        mine = own.setdefault(path, {})
        for name, value, static in entries:
            if not name.endswith("()") and name in written:
                value = None
            table = mine if static else shared
            if name in table and table[name] != value:
                value = None  # definitions that disagree: separate programs, or a bug
            table[name] = value
    return ProjectFacts(
        frozenset((n, v) for n, v in shared.items() if v is not None),
        {p: frozenset((n, v) for n, v in m.items() if v is not None) for p, m in own.items() if m},
        {p: frozenset(n for n, v in m.items() if v is None) for p, m in own.items() if m},
    )


def mentioned(view: frozenset[tuple[str, int]], text: bytes) -> frozenset[tuple[str, int]]:
    """The pairs of ``view`` whose names ``text`` mentions: what one function's model may read,
    small and comparable, so an unrelated change of the project's facts backdates it."""
    if not view:
        return frozenset()
    by_name = _by_name(view)
    return frozenset(pair for name in identifiers(text) & by_name.keys() for pair in by_name[name])


@lru_cache(maxsize=64)
def _by_name(view: frozenset[tuple[str, int]]) -> dict[str, tuple[tuple[str, int], ...]]:
    """The pairs of ``view`` by the name a text mentions them by (``f`` for ``f()``): every
    function of a file reads the same view, which may hold hundreds of pairs."""
    out: dict[str, list[tuple[str, int]]] = {}
    for pair in view:
        out.setdefault(pair[0].split("(", 1)[0], []).append(pair)
    return {name: tuple(pairs) for name, pairs in out.items()}


@lru_cache(maxsize=16_384)
def identifiers(text: bytes) -> frozenset[str]:
    """The names ``text`` mentions (every identifier-shaped word, keywords too)."""
    return frozenset(x.decode() for x in _IDENT.findall(text))
