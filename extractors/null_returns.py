"""Project functions that may return NULL to a caller that handed them valid arguments.

``struct opt *find_opt(...) { for (...) if (match) return &opts[i]; return NULL; }``: a lookup
that fails returns NULL, so a caller that dereferences the result without a test may crash, just
as with ``malloc``.  The projection labels the result of a call to such a function ``maynull``
(the ``null-dereference`` rule's source besides ``alloc`` and ``open``).

What counts, read off the function's pruned graph (so a branch the project's constants rule out
does not count): a ``return`` of a NULL pointer constant that the entry reaches without taking the
NULL branch of a test of a parameter or of a path through one (``if (!s) return NULL;``,
``if (t->root == NULL) return NULL;``).  Those answer a caller's NULL with NULL, and a caller that
passes a valid pointer never sees them: counting them would flood every caller of every defensive
function.  Only the function's own text decides (no callee's answer), so the summary is kept by
the function's key and a caller's projection records the answer it read (a ``Dep``), which an
edit of the callee re-asks.

Paths that store a call's result before the ``return NULL`` do not count: the NULL then passes on
a failure of that call (brotli's ``GetBrotliStorage`` returns NULL when its allocation failed,
which its callers learn from the memory manager's OOM flag), a contract the callee's text does not
show.  This loses lookups that pass on another lookup's miss; a missed finding costs less than a
false one.  A path through an assertion that cannot hold
(``default: lua_assert(0); return 0;``) does not count either: the author says it is not taken.

Which NULLs come with the library's error indicator set (:mod:`extractors.error_indicator`): the
answer is ``RAISED`` when every counted ``return NULL`` is reached with the indicator set (after
``PyErr_SetString``, on the set branch of ``PyErr_Occurred()``, or on the failure branch of a test
of a call's error code, ``if (do_realize(ct) < 0) return NULL;``, which passes on that call's
failure and so whatever it set), ``ANY`` when some is reached without, ``NEVER`` when none is
counted.  A caller that tests the indicator right after the call relies on the convention that
failures set it, and the failure branch of an error-code test is read by the same convention: the
call whose failure is passed on is trusted to have set it (one that failed quietly would let such a
caller dereference NULL unreported; a quiet ``return NULL`` of the function's own is still
``ANY``).  ``RAISED`` is still a may-NULL source: only such a test speaks for the result.

Pure: a function of the model.
"""

from __future__ import annotations

import re

from extractors.cfg import CfgNode, evaluate
from extractors.facts import RETURNED, root_of
from extractors.functions import FunctionModel

_ASSERT_FALSE = re.compile(r"\b\w*assert\w*\s*\(\s*(?:0|false|FALSE|NULL|!\s*\"[^\"]*\")\s*\)")

NEVER, RAISED, ANY = "", "raised", "any"  # the answers of returns_null (NEVER is the false one)
_ORDER = frozenset({"<", "<=", ">", ">="})


def returns_null(fm: FunctionModel) -> str:
    """Whether some path from the entry that takes no parameter's NULL branch returns NULL:
    ``ANY`` when one does with the error indicator not known set, else ``RAISED`` when one does,
    else ``NEVER``."""
    g, nodes = fm.graph, fm.cfg.nodes
    params = set(fm.params) - set(fm.cfg.declared)
    if not any((RETURNED, "null") in n.events for n in nodes):
        return NEVER
    found = NEVER
    start: tuple[int, bool, str | None] = (g.entry, False, None)
    seen = {start}
    todo = [start]
    while todo:
        i, raised, guarded = todo.pop()
        node = nodes[g.cfg_of[i]]
        if _ASSERT_FALSE.search(node.source or node.text) or any(c.result for c in node.calls):
            continue
        if node.kind == "return" and (RETURNED, "null") in node.events:
            if not raised:
                return ANY
            found = RAISED
            continue
        nt = node.null_test
        defensive = nt is not None and root_of(nt[0]) in params
        wrong_kind = _wrong_kind_branch(node, guarded, params | set(fm.cfg.declared)) if guarded else None
        failed = _failure_branch(node)
        for j, br in g.succ[i]:
            if defensive and nt is not None and br is not None and br == nt[1]:
                continue  # the parameter is NULL on this branch
            if wrong_kind is not None and br == wrong_kind:
                continue  # the parameter is of another kind than the function takes
            tested = nt[0] if defensive and nt is not None and br is not None else None
            state = (j, _raised_after(node, br, failed, raised), tested)
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return found


# ``p->type != T_TABLE`` (or ``==``): a test of a parameter's field against a named constant
_KIND_TEST = re.compile(r"^\(?\s*([A-Za-z_]\w*)\s*(?:->|\.)\s*\w+\s*(==|!=)\s*([A-Za-z_]\w*)\s*\)?$")


def _wrong_kind_branch(node: CfgNode, guarded: str, names: set[str]) -> bool | None:
    """The branch of a test of the kind of parameter ``guarded`` right after its NULL test
    (``if (!n || n->type != T_TABLE) return NULL;``) on which the argument is of another kind:
    the same guard as the NULL test, which a caller passing what the function takes never
    fails. None for any other node (``names``: the function's own names, which no constant is)."""
    if node.kind != "cond":
        return None
    m = _KIND_TEST.match(node.text)
    if m is None or m.group(1) != guarded or m.group(3) in names or m.group(3) in ("NULL", "nullptr"):
        return None
    return m.group(2) == "!="


def _raised_after(node: CfgNode, branch: bool | None, failed: bool | None, raised: bool) -> bool:
    """Whether the indicator is set past ``node`` by ``branch`` (it was when ``raised``)."""
    for way, sets in node.indicator:
        if way is None or way == branch:
            return sets
    return True if failed is not None and branch == failed else raised


def _failure_branch(node: CfgNode) -> bool | None:
    """The branch of a condition node that tests a call's result as an error code (``f(x) < 0``,
    ``f(x) == -1``, ``f(x) >= 0``) on which the call failed: the branch a result of -1 takes when
    a result of 0 takes the other; None for any other node."""
    c = node.cond
    if node.kind != "cond" or not node.calls or c is None or c[0] != "bin" or len(c) != 4:
        return None
    op, left, right = c[1], c[2], c[3]
    sides = [s for s in (left, right) if isinstance(s, tuple)]
    calls = [s[1] for s in sides if s[0] == "var" and str(s[1]).endswith("()")]
    literals = [s[1] for s in sides if s[0] == "lit"]
    if len(calls) != 1 or len(literals) != 1:
        return None
    if not ((op in _ORDER and literals[0] in (0, -1)) or (op in ("==", "!=") and literals[0] == -1)):
        return None
    failed, ok = evaluate(c, {str(calls[0]): -1}), evaluate(c, {str(calls[0]): 0})
    if failed is None or ok is None or bool(failed) == bool(ok):
        return None
    return bool(failed)
