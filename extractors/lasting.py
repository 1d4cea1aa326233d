"""Stores that outlive the function: fields of the objects parameters point to (``s->pos``),
file-scope variables and ``static`` locals, for rules that say so (``lasting = true``: dead-store).

``s->pos = s->len; s->eof = 0; s->pos = 0;`` loses the first value: nothing reads it before the
second store. Such a field is the caller's (a file-scope or static variable anyone's), so what the
function leaves in it at the end is read (the return counts as a read), and anything that may
reach it unseen reads it too: any call (a callee may hold the same object, or read the variable),
and any dereference of a pointer other than ``s`` (of any pointer, for a variable: it may point to
it). So a store is dead only where the very next thing done to it is another store, with no call,
no such dereference and no return in between.

Each is a value of its own, ``s->pos!`` or ``count!`` (:data:`MARK`), with only those labels
(``write`` at any store, constants too; ``read`` as above), so the other rules keep its usual
projection. A field only of a parameter ``s`` that the function uses only through ``s->f``, as a
call argument or in NULL tests: never reassigned, copied, returned or dereferenced whole (``*s``,
``s[i]``). Nothing declared ``volatile`` (a device register's or a signal flag's stores all count),
nothing whose address the function takes.

Pure: functions of the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tree_sitter import Node as TSNode

from extractors.cfg import Cfg, CfgNode
from extractors.facts import root_of
from extractors.functions import FunctionModel
from extractors.parse import text_of

MARK = "!"  # suffix of a lasting field value: "s->pos!"
_SKIPPED = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*', re.S)
_USED = frozenset({"read", "use", "notnull", "cmp"})  # what a well-behaved parameter sees
# what treats a value as a pointer or a handle (extractors.error_codes reads locals so)
_HANDLED = frozenset({"use", "free", "close", "alloc", "open", "stack", "nonheap", "cmp", "lock", "unlock", "addr"})


def lasting_of(v: str) -> tuple[str, str] | None:
    """(owner, path) of a lasting value: (parameter, field path) for ``p->f!``, ("", name) for a
    variable's ``g!``; else None."""
    if not v.endswith(MARK):
        return None
    path = v[: -len(MARK)]
    if path.isidentifier():
        return "", path
    p, arrow, f = path.partition("->")
    return (p, path) if arrow and p.isidentifier() and f.isidentifier() else None


def _well_behaved(fm: FunctionModel, p: str) -> bool:
    """Whether parameter ``p`` is used only through ``p->f``, as a call argument or in NULL tests."""
    cfg = fm.cfg
    if p in cfg.declared or p in cfg.addr_taken:
        return False
    entry = cfg.nodes[cfg.entry]
    if re.search(r"\bvolatile\b", entry.source):
        return False
    name = re.compile(rf"(?<!->)(?<![\w.]){re.escape(p)}\b")
    for n in cfg.nodes:
        if n.kind in ("entry", "exit"):
            continue
        if any(q == p and a not in _USED for q, a in n.events):
            return False
        code = _SKIPPED.sub(" ", n.source)
        bare = sum(1 for m in name.finditer(code) if not code[m.end() :].lstrip().startswith("->"))
        handed = sum(1 for c in n.calls for a, byaddr in c.args if a == p and not byaddr)
        tested = 1 if n.null_test is not None and n.null_test[0] == p else 0
        if bare > handed + tested:
            return False  # *p, p[i], p + 1, q = p, return p: the object is reached another way
    return True


def lasting_values(fm: FunctionModel, globals_: frozenset[str], volatiles: frozenset[str]) -> list[str]:
    """The lasting values of ``fm``: each field of a well-behaved parameter, file-scope variable
    (of ``globals_``, not of ``volatiles``) and static local that it stores to."""
    cfg = fm.cfg
    stored = {p for n in cfg.nodes for p, a in n.events if a in ("def", "write")}
    params = {p for p in fm.params if _well_behaved(fm, p)}
    out = [path for path in stored if "->" in path and path.partition("->")[0] in params]
    own = set(cfg.declared) | set(fm.params)
    for name in stored:
        if not name.isidentifier() or name in cfg.addr_taken:
            continue
        static = name in cfg.static_locals and not _volatile_local(fm, name)
        if static or (name in globals_ and name not in own and name not in volatiles):
            out.append(name)
    return sorted(path + MARK for path in out if lasting_of(path + MARK) is not None)


def _volatile_local(fm: FunctionModel, name: str) -> bool:
    """Whether a declaration in ``fm`` of local ``name`` says ``volatile``."""
    named = re.compile(rf"\b{re.escape(name)}\b")
    return any(
        n.kind == "decl" and re.search(r"\bvolatile\b", n.source) is not None and named.search(n.source) is not None
        for n in fm.cfg.nodes
    )


def volatile_globals(n: TSNode) -> frozenset[str]:
    """The names a file-scope declaration ``n`` declares ``volatile`` (its type or a pointer's
    target: either way a store through the name is a device's or another thread's business)."""
    if n.type != "declaration" or re.search(r"\bvolatile\b", text_of(n)) is None:
        return frozenset()
    out = set()
    for d in n.children_by_field_name("declarator"):
        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        while inner is not None and inner.type != "identifier":
            inner = inner.child_by_field_name("declarator")
        if inner is not None:
            out.add(text_of(inner))
    return frozenset(out)


def lasting_always(cfg: Cfg) -> tuple[int, ...]:
    """The CFG nodes every lasting value of a function is labelled at: every call, every
    dereference, every return and the exit (those of :func:`lasting_nodes` whatever the field)."""
    return tuple(
        n.id
        for n in cfg.nodes
        if n.calls or n.kind == "return" or n.id == cfg.exit or any(a == "use" for _, a in n.events)
    )


def lasting_nodes(fm: FunctionModel, path: str, always: Iterable[int], mentioning: Iterable[int]) -> list[int]:
    """The CFG nodes a lasting value of ``path`` is labelled at, in order: those naming its root
    (found among ``mentioning``, a superset of them), and ``always`` (:func:`lasting_always`)."""
    root, nodes = root_of(path), fm.cfg.nodes
    own = (c for c in mentioning if any(root_of(q) == root for q, _ in nodes[c].events))
    return sorted(set(always).union(own))


def _plain(fm: FunctionModel, path: str) -> bool:
    """Whether field ``path`` is a plain value in ``fm`` (as extractors.error_codes decides for
    locals): nothing dereferences, frees, closes, allocates into, compares as a pointer or locks
    it, and no call is handed it. Then a store of NULL, 0 or -1 into it is a value, not the
    defensive reset of a handle (``free(s->buf); s->buf = NULL;``), which is no dead store."""
    for n in fm.cfg.nodes:
        if any(q == path and a in _HANDLED for q, a in n.events):
            return False
        if any(a == path for c in n.calls for a, _ in c.args):
            return False
    return True


def _stores_a_part(node: CfgNode, path: str) -> bool:
    """Whether ``node`` stores a field or element of ``path`` (``key.size = 0``), which also
    labels ``path`` itself ``def`` (it is partly defined now): the other parts keep what they
    held, so that is no store of the whole value that could overwrite an earlier one."""
    parts = (path + ".", path + "->", path + "[")
    return any(q.startswith(parts) and a in ("def", "write", "null") for q, a in node.events)


LASTING_LABELS = frozenset({"write", "read"})  # all lasting_labels can give


def lasting_labels(fm: FunctionModel, node: CfgNode, p: str, path: str) -> frozenset[str]:
    """``write`` where the field is stored (a NULL, 0 or -1 only when it is a plain value),
    ``read`` where it, or anything that may reach it unseen, is read (see the module's doc)."""
    labels: set[str] = set()
    if (path, "write") in node.events or (
        (path, "def") in node.events and not _stores_a_part(node, path) and _plain(fm, path)
    ):
        labels.add("write")
    if (
        node.calls
        or node.kind == "return"
        or node.id == fm.cfg.exit
        or any(a == "read" and (q == path or q.startswith((path + "->", path + "."))) for q, a in node.events)
        or any(a == "use" and root_of(q) != p for q, a in node.events)
    ):
        labels.add("read")
    return frozenset(labels)
