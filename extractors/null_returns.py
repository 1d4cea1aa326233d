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

Pure: a function of the model.
"""

from __future__ import annotations

import re

from extractors.facts import RETURNED, root_of
from extractors.functions import FunctionModel

_ASSERT_FALSE = re.compile(r"\b\w*assert\w*\s*\(\s*(?:0|false|FALSE|NULL|!\s*\"[^\"]*\")\s*\)")


def returns_null(fm: FunctionModel) -> bool:
    """Whether some path from the entry that takes no parameter's NULL branch returns NULL."""
    g, nodes = fm.graph, fm.cfg.nodes
    params = set(fm.params) - set(fm.cfg.declared)
    if not any((RETURNED, "null") in n.events for n in nodes):
        return False
    seen = {g.entry}
    todo = [g.entry]
    while todo:
        i = todo.pop()
        node = nodes[g.cfg_of[i]]
        if _ASSERT_FALSE.search(node.source or node.text) or any(c.result for c in node.calls):
            continue
        if node.kind == "return" and (RETURNED, "null") in node.events:
            return True
        nt = node.null_test
        defensive = nt is not None and root_of(nt[0]) in params
        for j, br in g.succ[i]:
            if defensive and nt is not None and br is not None and br == nt[1]:
                continue  # the parameter is NULL on this branch
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return False
