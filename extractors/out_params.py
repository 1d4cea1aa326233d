"""What a project function leaves in ``*p`` for a caller that handed it ``&x``, per returned constant.

``int first_word(const char *s, char **out)`` allocates into ``*out`` and returns 0, or returns -1
and leaves ``*out`` alone; its caller writes ``if (first_word(line, &word) != 0) return -1;``. The
box into ``first_word@*out`` shows the store, but a box returns to every successor of the call, so
the caller's model would also hold the path where the callee returned -1 and the caller went on as
if ``word`` were set (an uninitialised read that cannot happen), and the path where it returned 0
with ``word`` allocated and the caller returned -1 (a leak that cannot happen). So the callee is
summarised by its returns: each return's constant (when it is one) with what the paths reaching it
last did to ``*p`` (``none``: no store, ``alloc``: a fresh block from an allocator, ``other``: any
other store). The caller's projection labels each branch of its test of the call's result with
what every return consistent with that branch agrees on (:func:`labels_after`).

A summary is given only when the callee's text shows every way it can touch ``*p``: ``p`` is read
only as the target of ``*p = v`` or in a NULL test of ``p`` (and, for refutation's outcomes, as
``*p`` in a test without calls: ``if (*len == 0)``), never copied, passed to a call or indexed, so a
return with no store on its paths really leaves ``x`` as it was. A block is
fresh when the stored local is assigned once, from an allocator, and is otherwise only read,
dereferenced, tested or handed to library calls that neither free nor keep it.

Pure: a function of the callee's model and how the scope reads calls (the table, the allocators).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from extractors.calls import CallSpec
from extractors.cfg import CfgNode, CondExpr, evaluate
from extractors.contents import FILL
from extractors.facts import Call, root_of
from extractors.functions import FunctionModel
from extractors.macro_calls import plain_name

NONE, ALLOC, OTHER = "none", "alloc", "other"

# per return: the constant it returns (None: not a constant, or the fall off the end) and what the
# paths reaching it last did to *p
Summary = tuple[tuple[int | None, frozenset[str]], ...]

_KEEPING = frozenset({"free", "escape", "close", "def", "addr"})  # library atoms that end freshness


COMPOUND = r"(?:[-+*/%&|^]|<<|>>)=(?!=)"  # a compound assignment's operator (``-=``, ``<<=``)

Allocates = Callable[[Call], bool]  # whether a call returns a fresh block (library row or project allocator)
_SKIPPED = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*', re.S)


def out_summary(
    g: FunctionModel, k: int, table: Mapping[str, CallSpec], allocates: Allocates, *, reads: bool = False
) -> Summary | None:
    """The returns of ``g`` with what each leaves in ``*params[k]``; None when ``g`` may touch
    ``*params[k]`` in a way its text does not show as a store (see the module's doc). ``table``:
    the library rows calls are read with; ``reads``: ``*p`` may also be read in a test without
    calls (``if (*len == 0)``), which leaves it as it was (refutation's outcomes read such tests;
    the caller's model keeps treating such a callee as one it boxes into)."""
    if k >= len(g.params):
        return None
    p = g.params[k]
    cfg = g.cfg
    if p in cfg.declared or p in cfg.addr_taken:
        return None
    stored = "*" + p
    kinds: dict[int, str] = {}
    occurrence = re.compile(rf"(?<!->)(?<![\w.]){re.escape(p)}\b")
    store = re.compile(rf"\*\s*{re.escape(p)}\s*=(?!=)")
    update = re.compile(rf"\*\s*{re.escape(p)}\s*{COMPOUND}")
    compared = re.compile(rf"(?<![\w)\]])\*\s*{re.escape(p)}\b(?!\s*(?:=[^=]|\+\+|--|\[|->|\.))")
    for n in cfg.nodes:
        if n.kind in ("entry", "exit"):
            continue
        test = reads and n.kind == "cond" and not n.calls  # a test may read *p (``if (*len == 0)``)
        for path, atom in n.events:
            if test and path == stored and atom == "read":
                continue
            if root_of(path) == p and (path != p or atom not in ("read", "use")):
                return None  # p reassigned, copied, handed on, or a field of *p reached
            if path == stored and atom not in ("def", "null"):
                return None
        if any(a == p or (a is not None and root_of(a) == p) for c in n.calls for a, _ in c.args):
            return None
        code = _SKIPPED.sub(" ", n.source)
        found = len(occurrence.findall(code))
        stores = len(store.findall(code))
        tested = n.null_test is not None and n.null_test[0] == p
        read = len(compared.findall(code)) if test else 0
        # ``*p -= v`` reads *p and stores a value not known: only refutation reads *p
        updates = len(update.findall(code)) if reads and not n.calls else 0
        if stores and (stored, "def") not in n.events:
            return None
        if found != stores + (1 if tested else 0) + read + updates:
            return None  # a use of p the summary cannot read (p[i] = v, *p += v, x = *p, sizeof)
        if stores or updates:
            kinds[n.id] = ALLOC if stores == 1 and not updates and _fresh_store(g, n, p, table, allocates) else OTHER
    if not kinds:
        return None  # never stores: a stub (one preprocessor variant of several), not an out-parameter
    return _returns(g, kinds)


def _returns(g: FunctionModel, kinds: dict[int, str]) -> Summary:
    """Forward over the pruned graph: the last store kind on the paths into each return."""
    graph, nodes = g.graph, g.cfg.nodes
    state: dict[int, frozenset[str]] = {graph.entry: frozenset({NONE})}
    todo = [graph.entry]
    while todo:
        i = todo.pop()
        c = graph.cfg_of[i]
        out = frozenset({kinds[c]}) if c in kinds else state[i]
        for j, _ in graph.succ[i]:
            now = state.get(j, frozenset()) | out
            if now != state.get(j):
                state[j] = now
                todo.append(j)
    got: dict[int | None, frozenset[str]] = {}
    ends: list[tuple[int | None, frozenset[str]]] = []
    for i, c in enumerate(graph.cfg_of):
        if i == graph.exit or i not in state or graph.exit not in (j for j, _ in graph.succ[i]):
            continue
        node = nodes[c]
        value = _constant(node.cond) if node.kind == "return" else None
        here = frozenset({kinds[c]}) if c in kinds else state[i]
        ends.append((value, here))
    for value, here in ends:
        got[value] = got.get(value, frozenset()) | here
    return tuple(sorted(got.items(), key=lambda item: (item[0] is None, item[0] or 0)))


def _constant(cond: CondExpr) -> int | None:
    if cond is not None and cond[0] == "lit" and isinstance(cond[1], int):
        return cond[1]
    return None


def _fresh_store(g: FunctionModel, n: CfgNode, p: str, table: Mapping[str, CallSpec], allocates: Allocates) -> bool:
    """Whether store node ``n`` (``*p = v;``) stores a fresh block: ``v`` an allocator's call, or a
    local assigned only once, from one, and never freed, kept or copied elsewhere."""
    m = re.fullmatch(rf"\s*\*\s*{re.escape(p)}\s*=\s*(.+?)\s*;?\s*", n.source, re.S)
    if m is None:
        return False
    rhs = m.group(1)
    called = re.fullmatch(r"(\w+)\s*\(.*\)", rhs, re.S)
    if called is not None:
        # a macro's call is named NAME~digest in the model (macro_call_name); the text has NAME
        return len(n.calls) == 1 and plain_name(n.calls[0].name or "") == called.group(1) and allocates(n.calls[0])
    if re.fullmatch(r"\w+", rhs) is None:
        return False
    return _fresh_local(g, n, rhs, table, allocates)


def _fresh_local(g: FunctionModel, at: CfgNode, w: str, table: Mapping[str, CallSpec], allocates: Allocates) -> bool:
    cfg = g.cfg
    if w not in cfg.declared or w in cfg.addr_taken or w in cfg.static_locals or w in g.params:
        return False
    allocations = 0
    for n in cfg.nodes:
        for path, atom in n.events:
            if path != w:
                continue  # w->f: what the block holds, not which block w is
            if atom in ("def", "write"):
                if not any(c.result == w and allocates(c) for c in n.calls):
                    return False
            elif atom in ("escape", "ret"):
                if n is not at:
                    return False  # returned, stored or copied elsewhere: not only *p holds it
            elif atom not in ("decl", "read", "use", "notnull", "cmp", FILL):  # w[i] = v: same block
                return False
        allocations += sum(1 for c in n.calls if c.result == w)
        for c in n.calls:
            if c.result != w and any(a == w for a, _ in c.args) and not _borrows(c, w, table):
                return False
    return allocations == 1


def _borrows(c: Call, w: str, table: Mapping[str, CallSpec]) -> bool:
    """Whether library call ``c`` only reads or dereferences ``w`` (``memcpy(w, s, n)``)."""
    row = table.get(c.name) if c.name else None
    if row is None:
        return False
    for k, (a, byaddr) in enumerate(c.args):
        if a != w:
            continue
        if byaddr:
            return False
        atoms = {atom for i, atom in row.args if i in (k, -1)}
        if atoms & _KEEPING or k in row.kept_on_failure:
            return False
    return True


def labels_after(
    summary: Summary, cond: CondExpr, result: str, branches: Iterable[bool | None]
) -> dict[bool | None, frozenset[str]]:
    """Per branch out of the caller's test ``cond`` of the call's result (None: no test of it),
    what ``x`` holds after the call on it: ``def`` when some return consistent with the branch
    may have stored (or none is: the branch cannot be taken), with ``alloc`` when every
    consistent return stored a fresh block.  ``result`` names the result in ``cond``: ``f()``
    for a test of the call itself, the local that holds it for a test of that local."""
    out: dict[bool | None, frozenset[str]] = {}
    for br in branches:
        consistent = [kinds for value, kinds in summary if _consistent(cond, result, value, br)]
        labels: set[str] = set()
        if not consistent or any(kinds - {NONE} for kinds in consistent):
            labels.add("def")
        if consistent and all(kinds == {ALLOC} for kinds in consistent):
            # whether the callee may hand over NULL with success is its contract, which its
            # caller knows and this summary does not: the block counts, its NULL does not
            labels |= {"alloc", "notnull"}
        out[br] = frozenset(labels)
    return out


def _consistent(cond: CondExpr, result: str, value: int | None, br: bool | None) -> bool:
    if br is None or value is None or cond is None:
        return True
    got = evaluate(cond, {result: value})
    return got is None or bool(got) == br
