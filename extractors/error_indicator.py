"""The library's error indicator (Python's exception state): where a function sets, clears or tests
it, and which call results a test of it right after the call speaks for.

CPython's convention: a function that fails sets the error indicator (``PyErr_SetString``) and
returns NULL. A caller may learn of the failure from the indicator instead of the result::

    t = fill_type(fb, ct);
    if (PyErr_Occurred())
        return -1;
    use(t->alignment);

Past the test's clear branch ``t`` is not NULL when every NULL the callee returns comes with the
indicator set (:func:`extractors.null_returns.returns_null` answers ``RAISED``); a callee that may
return NULL without setting it (a lookup that misses quietly) gives no such assurance, and the
dereference is still reported. The call table's ``error_indicator`` rows say which library
functions set (``"set"``), clear (``"clear"``) or test (``"test"``: the result is not NULL exactly
when it is set) the indicator.

The CFG builder marks, per node:

- ``CfgNode.indicator``: what the node leaves the indicator as, per way out: ``((None, True),)``
  after a call that sets it, ``((None, False),)`` after one that clears it, and for a test of it
  (``PyErr_Occurred()``, ``PyErr_Occurred() != NULL``, either negated) the branch on which it is set
  and the other: ``((True, True), (False, False))`` (:func:`condition_indicator`).
- ``CfgNode.error_test`` (:func:`mark_error_tests`): on a node whose call stores a result, when its
  only successor is such a test and it is that test's only predecessor, the branch of the test on
  which the indicator is set. Every run that reaches the test then comes straight from the call
  with the result it stored, so what the test says of the callee's failure it says of that result.

Pure: the CFG and the call table in, marks on the CFG's nodes out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from tree_sitter import Node as TSNode

from extractors.calls import CallSpec
from extractors.facts import RETURNED, call_name, is_null
from extractors.parse import strip_parens, text_of

if TYPE_CHECKING:  # the CFG builder calls this module
    from extractors.cfg import Cfg

# what a node leaves the indicator as, per way out: (branch, or None for every way; set or clear)
Indicator = tuple[tuple[bool | None, bool], ...]


def condition_indicator(expr: TSNode | None, table: Mapping[str, CallSpec]) -> Indicator:
    """The ``indicator`` of a condition node whose condition is ``expr``: set on the branch on
    which ``expr`` says the indicator is set, clear on the other; ``()`` when it tests nothing of
    it."""
    branch = _raised_branch(expr, table)
    return () if branch is None else ((branch, True), (not branch, False))


def _raised_branch(expr: TSNode | None, table: Mapping[str, CallSpec]) -> bool | None:
    e = strip_parens(expr)
    if e is None:
        return None
    if e.type == "call_expression":
        name = call_name(e)
        spec = table.get(name) if name is not None else None
        return True if spec is not None and spec.error_indicator == "test" else None
    if e.type == "unary_expression" and text_of(e.child_by_field_name("operator")) == "!":
        inner = _raised_branch(e.child_by_field_name("argument"), table)
        return None if inner is None else not inner
    if e.type == "binary_expression":
        op = text_of(e.child_by_field_name("operator"))
        left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
        if op in ("==", "!="):
            side = left if is_null(right) else right if is_null(left) else None
            inner = _raised_branch(side, table) if side is not None else None
            return None if inner is None else inner == (op == "!=")
    return None


def mark_error_indicator(cfg: Cfg, table: Mapping[str, CallSpec]) -> None:
    """Mark the nodes that set or clear the indicator (the last such call of a node decides), then
    the calls a test of it directly follows (see the module's docstring). Tests are marked by the
    builder as it makes them (:func:`condition_indicator`)."""
    for node in cfg.nodes:
        if node.indicator:
            continue
        specs = [table.get(c.name) for c in node.calls if c.name is not None]
        effects = [s.error_indicator for s in specs if s is not None and s.error_indicator in ("set", "clear")]
        if effects:
            node.indicator = ((None, effects[-1] == "set"),)
    mark_error_tests(cfg)


def mark_error_tests(cfg: Cfg) -> None:
    """``error_test`` of each node that stores a call's result and leads only into a test of the
    indicator that nothing else leads into."""
    preds = Counter(t for out in cfg.succ for t, _ in out)
    for node in cfg.nodes:
        out = cfg.succ[node.id]
        if len(out) != 1 or out[0][1] is not None:
            continue
        test = cfg.nodes[out[0][0]]
        if test.kind != "cond" or preds[test.id] != 1 or not any(way is not None for way, _ in test.indicator):
            continue
        if any(c.result is not None and c.result != RETURNED for c in node.calls):
            node.error_test = next(way for way, raised in test.indicator if way is not None and raised)
