"""Unreachable code: statements of a block that no path from the function's entry reaches.

Reachability is read off the CFG before pruning (``Cfg.succ`` from ``Cfg.entry``): the builder
gives a statement after ``return``, ``goto``, ``break``/``continue`` or a noreturn call (``exit``,
``abort``, the configured ``noreturn``) a node with no predecessor, and a call that does not
return a self-loop. Pruning by constants is *not* applied, so code a constant disables
(``if (DEBUG)``, ``if (0)``) stays reachable: that is the user's choice, not a bug. ``#if 0``
code has no node at all and is never reported either.

The tree says what a *statement* is, so that a region is reported once, at its first statement,
and only statements of a block count: a statement is unreachable when it has CFG nodes and none of
them is reached (a node belongs to the statement whose source range holds it). Parts of a
reachable statement are not reported: the update of a ``for`` whose body always leaves, the
``while (0)`` of a ``do { ...; return; } while (0)`` macro body. Nor is a statement without nodes
(``break;`` after a ``return`` in a ``case``), nor a region made only of defensive exits: returns
of a plain value, ``break``/``continue``, a library exit (``exit(1);`` after a helper that
exits), and ``if``s among them (``exit(1); return NULL;``,
``return 0;`` after a ``switch`` whose every case returns), which programmers write for compilers
that cannot see that the code before them never completes (clang keeps them out of
``-Wunreachable-code`` too), and the author's marks that control never gets there
(``assert(0);``, ``assert(!"unreachable");``, ``__builtin_unreachable();``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from tree_sitter import Node as TSNode

from extractors.calls import NORETURN
from extractors.cfg import Cfg
from extractors.marks import Frame, Mark, Span
from extractors.parse import text_of

ATOM = "unreached"

_BLOCKS = ("compound_statement", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef")
_SKIP = frozenset({"comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include"})


def reached(cfg: Cfg) -> set[int]:
    """The CFG nodes some path from the entry reaches."""
    seen = {cfg.entry}
    stack = [cfg.entry]
    while stack:
        for t, _ in cfg.succ[stack.pop()]:
            if t not in seen:
                seen.add(t)
                stack.append(t)
    return seen


class _Nodes:
    """The CFG's statement nodes sorted by start, to find those inside a source range fast."""

    def __init__(self, cfg: Cfg) -> None:
        live = reached(cfg)
        inner = sorted(
            ((n.row, n.col), (n.end_row, n.end_col), n.id in live, (n.id, None) in cfg.succ[n.id])
            for n in cfg.nodes
            if n.id not in (cfg.entry, cfg.exit)
        )
        self.starts = [s for s, _, _, _ in inner]
        self.rest = [(e, r, stuck) for _, e, r, stuck in inner]

    def _in(self, span: Span) -> list[tuple[tuple[int, int], bool, bool]]:
        lo = bisect_left(self.starts, (span[0], span[1]))
        hi = bisect_right(self.starts, (span[2], span[3]))
        return [x for x in self.rest[lo:hi] if x[0] <= (span[2], span[3])]

    def inside(self, span: Span) -> list[bool]:
        """Whether each node inside ``span`` is reached."""
        return [r for _, r, _ in self._in(span)]

    def stops(self, span: Span) -> bool:
        """Whether a node inside ``span`` never completes (a call that does not return is a
        self-loop of the builder)."""
        return any(stuck for _, _, stuck in self._in(span))


def unreached(fn: TSNode, cfg: Cfg, frame: Frame) -> list[Mark]:
    """One mark per unreachable region of definition ``fn`` (whose CFG is ``cfg``), at its first
    statement; ``cause`` is the statement before the region in its block, which never completes."""
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    nodes = _Nodes(cfg)
    out: list[Mark] = []
    pending = [list(_statements(body))]
    while pending:
        block = pending.pop()
        region: list[TSNode] = []
        before: TSNode | None = None
        for s in [*block, None]:
            states = nodes.inside(frame.span(s)) if s is not None else [True]
            if not states:
                if not region and s is not None and s.type in _JUMPS:
                    before = s  # break and continue have no node, but they end control too
                continue  # no node (break, continue, an empty statement, an unread #if branch)
            if not any(states):
                region.append(s)  # type: ignore[arg-type]
                continue
            if region and before is not None and _reportable(region, before, nodes, frame):
                out.append(Mark(ATOM, "", frame.span(region[0]), frame.step(region[0])[1], frame.step(before)))
            region = []
            if s is not None:
                before = s
                pending += [list(b) for b in _inner_blocks(s)]
    return sorted(out, key=lambda m: m.at)


_JUMPS = ("return_statement", "goto_statement", "break_statement", "continue_statement")
_ENDS = (*_JUMPS, "if_statement", "compound_statement", "labeled_statement", "preproc_if", "preproc_ifdef")
_MACRO = re.compile(r"[A-Z][A-Z0-9_]*")


def _reportable(region: list[TSNode], before: TSNode, nodes: _Nodes, frame: Frame) -> bool:
    """Whether an unreachable region is reported (see the module): not when it is only defensive
    exits, when the statement before it is a loop or a ``switch`` (a macro of the file can hide a
    ``break`` out of it: Lua's ``checkvalres``), or when the tree is unsure (a parse error, a
    statement-like macro, which may expand to ``case`` labels: brotli's ``CASE_(5)``)."""
    head = region[0]
    if all(_defensive(r) for r in region) or head.has_error or before.has_error:
        return False
    if before.type not in _ENDS and not nodes.stops(frame.span(before)):
        return False
    text = text_of(head).rstrip()
    if not text.endswith((";", "}")):
        return False
    call = head.named_children[0] if head.type == "expression_statement" and head.named_children else None
    if call is not None and call.type == "call_expression":
        name = call.child_by_field_name("function")
        if name is not None and _MACRO.fullmatch(text_of(name)):
            return False
    return True


def _statements(block: TSNode) -> Iterator[TSNode]:
    """The statements of a block (a case's statements after its label)."""
    if block.type == "case_statement":
        value = block.child_by_field_name("value")
        for c in block.named_children:
            if (value is None or c.id != value.id) and c.type not in _SKIP:
                yield c
        return
    if block.type not in _BLOCKS:
        yield block  # a lone statement as a branch or a loop's body
        return
    own = {x.id for f in ("condition", "name", "alternative") if (x := block.child_by_field_name(f)) is not None}
    for c in block.named_children:
        if c.type not in _SKIP and c.type != "preproc_arg" and c.id not in own:
            yield c


def _inner_blocks(s: TSNode) -> Iterator[Iterator[TSNode]]:
    """The blocks nested in a reachable statement, each as its statements."""
    t = s.type
    if t == "compound_statement" or t.startswith("preproc_"):
        yield _statements(s)
        alt = s.child_by_field_name("alternative")
        if t.startswith("preproc_") and alt is not None:
            yield _statements(alt)
        return
    if t == "if_statement":
        yield _statements(s.child_by_field_name("consequence") or s)
        alt = s.child_by_field_name("alternative")
        for c in alt.named_children if alt is not None else ():
            if c.type not in _SKIP:
                yield _statements(c)
        return
    if t in ("while_statement", "do_statement", "for_statement"):
        body = s.child_by_field_name("body")
        if body is not None:
            yield _statements(body)
        return
    if t == "switch_statement":
        body = s.child_by_field_name("body")
        for c in body.named_children if body is not None else ():
            if c.type == "case_statement":  # statements before the first case: likely a macro's cases
                yield _statements(c)
        return
    if t == "labeled_statement":
        label = s.child_by_field_name("label")
        yield (c for c in s.named_children if (label is None or c.id != label.id) and c.type not in _SKIP)
        return
    if t == "case_statement":
        yield _statements(s)


def _defensive(s: TSNode) -> bool:
    """A statement that only leaves: ``return`` of a value without calls or assignments, ``break``,
    ``continue``, ``;``, and blocks and ``if``s made of those (see the module)."""
    t = s.type
    if t in ("break_statement", "continue_statement", "comment"):
        return True
    if t == "expression_statement":
        inner = [c for c in s.named_children if c.type != "comment"]
        if len(inner) == 1 and inner[0].type == "call_expression":  # error("x"); exit(1);
            name = inner[0].child_by_field_name("function")
            return name is not None and (text_of(name) in NORETURN or _marks_unreachable(inner[0]))
        return not inner
    if t == "return_statement":
        return not _effects(s)
    if t == "compound_statement":
        return all(_defensive(c) for c in s.named_children)
    if t == "if_statement":
        cond = s.child_by_field_name("condition")
        alt = s.child_by_field_name("alternative")
        branches = [s.child_by_field_name("consequence"), *(alt.named_children if alt is not None else ())]
        return (cond is None or not _effects(cond)) and all(b is None or _defensive(b) for b in branches)
    return False


_UNREACHABLE = frozenset({"__builtin_unreachable", "unreachable", "__assume"})
_FALSE = re.compile(r'\(\s*(?:0|false|FALSE|!\s*"(?:[^"\\]|\\.)*"|0\s*&&\s*"(?:[^"\\]|\\.)*")\s*\)')


def _marks_unreachable(call: TSNode) -> bool:
    """``assert(0)``, ``assert(!"not reached")``, ``assert(0 && "why")``, ``__builtin_unreachable()``:
    the author's own mark that control never gets here (SQLite's ``/*NOTREACHED*/ assert(0);``)."""
    name = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if name is None or args is None:
        return False
    called = text_of(name)
    if called in _UNREACHABLE:
        return True
    return called.lower().endswith("assert") and _FALSE.fullmatch(text_of(args)) is not None


def _effects(n: TSNode) -> bool:
    """Whether an expression may do something: a call, an assignment or an increment in it."""
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type in ("call_expression", "assignment_expression", "update_expression"):
            return True
        stack.extend(x.named_children)
    return False
