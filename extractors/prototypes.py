"""Prototypes of functions the project declares but does not define: which arguments they borrow.

``int log_line(const char *msg);`` promises not to write through ``msg``; a library that keeps the
pointer it is handed takes it as ``char *`` (ownership passes with the right to free it, and
``free`` takes a ``void *``).  So a call to a function known only by such a prototype reads its
``const T *`` arguments and keeps none of them: the caller's block does not escape into it, and a
caller that never frees it leaks it.  Without this every pointer handed to an unknown function
escapes, which hides those leaks.

The fact travels with the project's constants (:mod:`extractors.project_facts`) as the pair
``("name(const)", mask)``: bit ``k`` of ``mask`` is set when parameter ``k`` is a pointer to
``const`` (one level: ``const char **`` lets the callee store into ``*pp``; ``char *const`` is a
constant pointer to writable data).  A call resolved to a project definition never reads it (the
definition's own projection says what it does), nor does a call in the library table.

Invariant: a prototype whose parameters cannot all be read (no list, ``...`` is fine, K&R) gives
no fact, and a mask of 0 is no fact.
"""

from __future__ import annotations

from tree_sitter import Node as TSNode

from extractors.parse import text_of

SUFFIX = "(const)"
_MAX_PARAMS = 62  # a mask stays a small int


def key_of(name: str) -> str:
    """The constants' key of ``name``'s borrowed-arguments mask."""
    return name + SUFFIX


def borrowed(consts: dict[str, int], name: str | None) -> frozenset[int]:
    """The argument positions a call of ``name`` only reads, per its prototype (none if unknown)."""
    mask = consts.get(name + SUFFIX, 0) if name is not None else 0
    return frozenset(k for k in range(_MAX_PARAMS) if mask >> k & 1)


def prototype_facts(decl: TSNode) -> list[tuple[str, int]]:
    """``(key_of(name), mask)`` of each function a ``declaration`` declares with at least one
    ``const T *`` parameter (see the module's note)."""
    out: list[tuple[str, int]] = []
    for top in decl.children_by_field_name("declarator"):
        d: TSNode | None = top
        while d is not None and d.type in ("pointer_declarator", "parenthesized_declarator"):
            if d.type == "parenthesized_declarator":
                return out  # a function pointer variable, not a function
            d = d.child_by_field_name("declarator")  # int *f(const char *): returns a pointer
        if d is None or d.type != "function_declarator":
            continue
        name_node = d.child_by_field_name("declarator")
        params = d.child_by_field_name("parameters")
        if name_node is None or name_node.type != "identifier" or params is None:
            continue
        mask = _mask(params)
        if mask:
            out.append((key_of(text_of(name_node)), mask))
    return out


def _mask(params: TSNode) -> int:
    mask = 0
    decls = [p for p in params.named_children if p.type != "comment"]
    for k, p in enumerate(decls[:_MAX_PARAMS]):
        if p.type == "variadic_parameter":
            continue
        if p.type != "parameter_declaration":
            return 0
        if _const_pointee(p):
            mask |= 1 << k
    return mask


def _const_pointee(p: TSNode) -> bool:
    """``const T *x`` / ``T const *x`` / ``const T *`` (abstract): one pointer level, const data."""
    if not any(c.type == "type_qualifier" and text_of(c) == "const" for c in p.children):
        return False
    d = p.child_by_field_name("declarator")
    if d is None or d.type not in ("pointer_declarator", "abstract_pointer_declarator"):
        return False
    inner = d.child_by_field_name("declarator")
    return inner is None or inner.type == "identifier"
