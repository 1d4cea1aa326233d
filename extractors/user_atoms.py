"""Atoms as data: ``[[atoms]]`` of ctlsp.toml, tree-sitter queries that label CFG nodes.

Goanna's GPSL pairs XPath queries over the syntax tree with CTL; ctlsp pairs tree-sitter queries
(py-tree-sitter's Query API on the tree-sitter-c grammar every part of ctlsp parses with) with its
CTL rules, so a user adds an atom without code::

    [[atoms]]
    name  = "begin"
    query = '(call_expression function: (identifier) @f (#eq? @f "begin_tx") arguments: (argument_list . (_) @value))'

The capture convention: each syntax node a match binds to ``@value`` names the tracked value the
atom is about, by its access path (``db``, ``s->conn``; ``&ctx`` names ``ctx``); a capture that
names no path (``a[i]``, ``f()``) is skipped.  The atom holds at the innermost CFG node that has
facts (a statement, declaration, atomic condition, ``return`` or ``switch`` head) whose source
contains the captured node; a match in code the CFG does not model labels nothing.  Other
captures only serve the query's predicates (``#eq?``, ``#match?``, ``#any-of?`` and their
``not-``/``any-`` forms; the others, which py-tree-sitter would silently ignore, are refused).

Invariants: the labels are a function of the function's text and the ``(name, query)`` entries
alone, so :meth:`Config.extraction_digest` (which names the entries) keys the models that carry
them.  They are added as node events ``(path, atom)``, the form built-in facts take, so the value
becomes one the projections track and the atom a label of its node with nothing else to learn.
This module reads no configuration: :mod:`extractors.config` validates entries with
:func:`query_problem`, the CFG builder calls :func:`user_events`.
"""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Node as TSNode
from tree_sitter import Query, QueryCursor, QueryError

from extractors.facts import address_operand, path_of
from extractors.parse import LANGUAGE

__all__ = ["VALUE", "UserAtoms", "query_problem", "user_events"]

UserAtoms = tuple[tuple[str, str], ...]  # (atom name, query text), in the configuration's order
VALUE = "value"  # the capture that names the tracked value
_FILTERS = frozenset(
    {"eq?", "not-eq?", "any-eq?", "any-not-eq?", "match?", "not-match?", "any-match?", "any-not-match?", "any-of?"}
)
# strings and comments first, so that a '#' inside them is not read as a predicate
_PREDICATE = re.compile(r'"(?:[^"\\]|\\.)*"|;[^\n]*|#([A-Za-z_][\w-]*[?!]?)')


@cache
def _compiled(query: str) -> Query:
    """The compiled query (raises :class:`QueryError`); once per process and text."""
    return Query(LANGUAGE, query)


def query_problem(query: str) -> str | None:
    """What is wrong with ``query`` as an atom's query, in one line, or None when it is usable."""
    try:
        q = _compiled(query)
    except QueryError as e:
        return f"invalid tree-sitter query: {e}"
    if q.pattern_count == 0:
        return "the query has no pattern"
    if VALUE not in {q.capture_name(i) for i in range(q.capture_count)}:
        return f"the query captures no @{VALUE}: name the node of the tracked value @{VALUE}"
    for m in _PREDICATE.finditer(query):
        name = m.group(1)
        if name is not None and name not in _FILTERS:
            known = ", ".join(f"#{p}" for p in sorted(_FILTERS))
            return f"predicate #{name} is not supported (supported: {known})"
    return None


def _path(node: TSNode) -> str | None:
    return path_of(node) or path_of(address_operand(node))


def user_events(
    fn: TSNode, atoms: UserAtoms, spans: dict[int, tuple[int, int]]
) -> list[tuple[int, tuple[str, str]]]:
    """``(CFG node, (path, atom))`` for every ``@value`` the atoms' queries bind in definition
    ``fn``; ``spans`` gives the byte range (in ``fn``'s tree) of each CFG node that has facts.
    Queries are validated when the configuration is read, so a failing one here is a bug."""
    out: list[tuple[int, tuple[str, str]]] = []
    for atom, query in atoms:
        for _, captures in QueryCursor(_compiled(query)).matches(fn):
            for node in captures.get(VALUE, ()):
                path = _path(node)
                if path is None:
                    continue
                inside = [
                    (end - start, n)
                    for n, (start, end) in spans.items()
                    if start <= node.start_byte and node.end_byte <= end
                ]
                if inside:
                    out.append((min(inside)[1], (path, atom)))
    return out
