"""One exit per returned constant: a caller's test of a callee's result follows the callee's path.

zlib's ``gz_init`` frees ``state->in`` and returns -1 when a later allocation fails, and returns 0
after keeping it; its callers write ``if (gz_init(state) == -1) return -1;`` and use the buffer
after. With one exit per component the caller's model joins the freeing path to the success
branch, a use after free no run has. So a function whose returns give more than one kind of
value (:func:`exit_values`: different literals, or a literal and something else) has one exit
node per literal, ``n1=-1``, next to ``n1`` for every other return (and the end of a ``void``
body); each return leads to the exit of its value. A caller's box returns through each exit, and
when the node the call is in tests the result (``g(...) == -1``, ``!g(...)``, the node's
``cond``), an exit leads only to the branches the value allows (:func:`allows`).

Sound for existential rules: every run of the callee ends at the exit of the value it returned, and
a caller's branch the value rules out is no branch that run takes; ``n1`` allows every branch.
That needs the value the caller sees to be the one written: ``return 2`` in a ``bool`` function
gives 1, ``return 300`` in an ``unsigned char`` one 44, ``return -1`` in an ``unsigned short`` one
65535. So a returned constant gets an exit of its own only when the declared result type keeps it
exactly (:func:`kept`, by :func:`extractors.call_outcomes.result_kind` and ``keeps``); any other
return leads to ``n1``, which decides nothing.

Pure: a function's text in, exit names and a decision per branch out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from extractors.call_outcomes import keeps, result_kind
from extractors.cfg import CondExpr, evaluate
from extractors.functions import FunctionModel

EXIT = "n1"
Returned = int | str  # a literal, or the name of a constant (a macro or enumerator: ``Z_OK``)
_NAME = re.compile(r"\s*return\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*;?\s*")


def exit_values(fm: FunctionModel, globals_: frozenset[str]) -> tuple[Returned, ...]:
    """The returned values that get an exit of their own in ``fm``'s components: those its returns
    give (:func:`returned_value`), when its returns give more than one kind of value (else none:
    one exit says as much)."""
    graph = fm.graph
    kinds: set[Returned | None] = set()
    for i, c in enumerate(graph.cfg_of):
        if i == graph.exit or not any(j == graph.exit for j, _ in graph.succ[i]):
            continue
        kinds.add(returned_value(fm, c, globals_))
    if len(kinds) < 2:
        return ()
    return tuple(sorted((v for v in kinds if v is not None), key=lambda v: (isinstance(v, str), str(v))))


def returned_value(fm: FunctionModel, cid: int, globals_: frozenset[str]) -> Returned | None:
    """What CFG node ``cid`` returns when it is a ``return`` of a constant: the literal the CFG
    reads (named constants it knows folded), else the name of a constant it does not know (no
    parameter, local or variable of the file: a macro or an enumerator, the same value wherever its
    callers name it); None for anything else."""
    node = fm.cfg.nodes[cid]
    if node.kind != "return":
        return None
    kind = declared_kind(fm)
    cond = node.cond
    if cond is not None and cond[0] == "lit" and isinstance(cond[1], int):
        return cond[1] if kept(kind, cond[1]) else None
    m = _NAME.fullmatch(node.source or node.text)
    if m is not None and m.group(1) != "NULL" and constant_name(fm, m.group(1), globals_) and kept(kind, None):
        return m.group(1)
    return None


_BASIC = frozenset({"int", "long", "short", "signed", "unsigned", "char"})
_OTHER_TYPE = frozenset({"bool", "_Bool", "float", "double", "void", "struct", "union", "enum"})


def declared_kind(fm: FunctionModel) -> str | None:
    """:func:`extractors.call_outcomes.result_kind` of ``fm``, reading past macros among the
    specifiers when a basic integer type is written: zlib's ``local int`` and ``ZEXTERN int
    ZEXPORT`` are ``int``. A typedef name never combines with ``int``, so an unknown word next to
    one is a storage class, qualifier or calling convention (a macro that expands to ``unsigned``
    or ``long`` itself would be misread; none is known)."""
    kind = result_kind(fm)
    words = fm.result.split()
    if kind != "?" or not _BASIC.intersection(words) or _OTHER_TYPE.intersection(words):
        return kind
    return result_kind(replace(fm, result=" ".join(w for w in words if w in _BASIC)))


def kept(kind: str | None, value: int | None) -> bool:
    """Whether a function whose result is of ``kind`` (:func:`extractors.call_outcomes.result_kind`)
    returns literal ``value`` unchanged, so its callers' tests may read it as written; ``value``
    None: a constant of unknown value. An undecided kind (None) keeps nothing; ``?`` (a typedef,
    an enum, ``bool``, which may be ``_Bool`` underneath) keeps only 0 and 1, which every scalar
    type does; an unknown value is kept only by an ``int`` at least 32 bits wide (the widths C's
    error codes and enumerators are written for), never by a narrow type that may cut it."""
    if kind is None:
        return False
    if value is None:
        return kind in ("s32", "u32", "s64", "u64")
    if kind == "?":
        return value in (0, 1)
    return keeps(kind, value)


def named_values(fm: FunctionModel, globals_: frozenset[str]) -> dict[str, int]:
    """The constants ``fm`` returns by name whose value it knows (``return Z_OK;`` read as 0): a
    caller's test that names them (``g(...) == Z_OK``) is read with these values."""
    out: dict[str, int] = {}
    for node in fm.cfg.nodes:
        m = _NAME.fullmatch(node.source or node.text) if node.kind == "return" else None
        cond = node.cond
        known = m is not None and cond is not None and cond[0] == "lit" and isinstance(cond[1], int)
        if m is not None and cond is not None and known and constant_name(fm, m.group(1), globals_):
            out[m.group(1)] = int(str(cond[1]))
    return out


def constant_name(fm: FunctionModel, name: str, globals_: frozenset[str]) -> bool:
    """Whether ``name`` in ``fm`` names a constant: neither a parameter, a local nor a variable."""
    return name not in fm.params and name not in fm.cfg.declared and name not in globals_


def exit_name(value: Returned | None) -> str:
    """The exit a return of ``value`` leads to (``n1`` for a value that is no constant)."""
    return EXIT if value is None else f"{EXIT}={value}"


def exit_names(values: tuple[Returned, ...]) -> tuple[str, ...]:
    """Every exit of a component whose values of their own are ``values``."""
    return (EXIT, *(exit_name(v) for v in values))


def value_of(exit: str) -> Returned | None:
    """The value an exit stands for (None for ``n1``)."""
    if not exit.startswith(EXIT + "="):
        return None
    text = exit[len(EXIT) + 1 :]
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def allows(
    cond: CondExpr,
    callee: str,
    value: Returned | None,
    branch: bool | None,
    constant: set[str],
    named: dict[str, int],
) -> bool:
    """Whether a call of ``callee`` that returned ``value`` may leave the caller's node, whose
    test is ``cond``, by ``branch``: the test read with the call's result known (not decided: yes).
    ``constant``: the names the caller's test may read as constants (see :func:`constant_name`),
    ``named``: the values the callee's returns give some of them (:func:`named_values`). A name
    whose value is not known decides only ``callee(...) == NAME`` and ``!=`` of that same name,
    which hold whatever its value."""
    if branch is None or value is None or cond is None:
        return True
    result = ("var", f"{callee}()")
    if isinstance(value, str):
        if value not in constant or cond[0] != "bin" or cond[1] not in ("==", "!=") or len(cond) != 4:
            return True
        if {cond[2], cond[3]} != {result, ("var", value)}:
            return True
        return (cond[1] == "==") == branch
    env = {name: v for name, v in named.items() if name in constant}
    env[result[1]] = value
    got = evaluate(cond, env)
    return got is None or bool(got) == branch
