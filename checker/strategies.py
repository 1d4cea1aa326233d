"""Drivers that decide which boxes to contextualise and when to resolve cycles.

- ``exhaustive`` (seed 002's eager check): subformula by subformula, bottom-up; contextualise every
  box whose caller knows more, refine, repeat to the joint fixpoint, then resolve that subformula.
- ``lazy`` (seeds 000/002): ternary refinement of the whole formula from the initial context only;
  while the initial node is undecided, GetNextExpansion/FindReason picks one box that can decide
  it.  When it finds none, every contextualisable box is expanded, wave after wave (only boxes of
  instances that learnt something since the last wave are looked at, and the search is not retried
  while the waves go on, as it rarely succeeds between them), and only when none is left are
  dependency cycles resolved.  Falling back to the complete heuristic keeps Theorem 2 of seed 002
  applicable, so the answer is the exhaustive one.
- ``kb``: the lazy driver on top of a knowledge base (seed 004's κ) that outlives the check, so
  that a later check of an edited model starts from everything still known.
"""

from __future__ import annotations

from collections.abc import Iterator

from checker.engine import Engine, Instance
from checker.formulas import AND, EGOP, EUOP, EXISTENTIAL_OPS, EXOP, NOT, OR
from checker.ternary import UNKNOWN

Visit = tuple[Instance, int, int, tuple[tuple[Instance, int], ...]]


def run_exhaustive(engine: Engine) -> None:
    t = engine.table
    for f in range(len(t.ops)):
        engine.enqueue_all(engine.reachable())
        engine.refine(upto=f)
        if t.ops[f] not in EXISTENTIAL_OPS:
            continue
        engine.take_dirty()
        boxes = engine.contextualizable(upto=f)
        while boxes:
            for inst, bi in boxes:
                engine.contextualize(inst, bi, upto=f)
            engine.refine(upto=f)
            boxes = next_wave(engine, upto=f)
        while engine.resolve(only=f) is not None:
            engine.refine(upto=f)


def run_lazy(engine: Engine) -> None:
    engine.refine()
    search = True
    while engine.root_value() == UNKNOWN:
        found = find_reason(engine) if search else None
        if found is not None and engine.contextualize(*found):
            engine.refine()
            continue
        boxes = next_wave(engine)
        search = not boxes
        if boxes:
            for inst, bi in boxes:
                engine.contextualize(inst, bi)
        elif engine.resolve() is None:
            raise AssertionError("no box to expand and nothing to resolve, but the root is unknown")
        engine.refine()


def next_wave(engine: Engine, upto: int | None = None) -> list[tuple[Instance, int]]:
    """The boxes to contextualise next: first among the instances that changed since the last wave,
    and only when those offer none, a scan of the whole live model, so that cycle resolution is
    reached only at a true joint fixpoint (which Theorem 2 of seed 002 needs)."""
    return engine.contextualizable(upto, among=engine.take_dirty()) or engine.contextualizable(upto)


def find_reason(engine: Engine) -> tuple[Instance, int] | None:
    """GetNextExpansion: follow unknown values from the initial node to a box whose caller knows more.

    A depth-first search over (instance, position, subformula) triples whose value is unknown,
    carrying the call stack of the search so that an exit leads back to the box it was entered
    through; triples are visited once (seed 002 keys cycle detection on them, not on stacks).
    """
    t = engine.table
    root = engine.root
    start: Visit = (root, root.comp.entry_pos[engine.rsm.initial_node], t.root, ())
    seen: set[tuple[Instance, int, int]] = set()
    work: list[Iterator[Visit | tuple[Instance, int]]] = [iter([start])]
    while work:
        try:
            item = next(work[-1])
        except StopIteration:
            work.pop()
            continue
        if len(item) == 2:
            return item
        inst, p, f, stack = item
        key = (inst, p, f)
        if key in seen or inst.vals[f][p] != UNKNOWN:
            continue
        seen.add(key)
        work.append(_reasons(engine, inst, p, f, stack))
    return None


def _reasons(engine: Engine, inst: Instance, p: int, f: int,
             stack: tuple[tuple[Instance, int], ...]) -> Iterator[Visit | tuple[Instance, int]]:
    t = engine.table
    comp = inst.comp
    op = t.ops[f]
    args = t.args[f]
    vals = inst.vals
    call = comp.call_at.get(p)
    if call is not None:  # a call node: the answer lies at the callee's entry
        bi, en = call
        callee = inst.boxmap[bi]
        yield (callee, callee.comp.entry_pos[en], f, (*stack, (inst, bi)))
        return
    if op in (NOT, OR, AND):
        for c in args:
            if vals[c][p] == UNKNOWN:
                yield (inst, p, c, stack)
        return
    if op not in EXISTENTIAL_OPS:
        return
    if comp.is_exit[p]:
        for c in args:
            if vals[c][p] == UNKNOWN:
                yield (inst, p, c, stack)
        ex = comp.refs[p]
        frames = [stack[-1]] if stack else [(k, bi) for k, bi in inst.callers if k.boxmap[bi] is inst]
        for caller, bi in frames:
            r = caller.comp.ret_pos[bi].get(ex)
            if r is None or caller.vals[f][r] != UNKNOWN:
                yield (caller, bi)
            else:
                yield (caller, r, f, stack[:-1])
        return
    succ = comp.succ[p]
    if op == EXOP:
        for s in succ:
            if vals[args[0]][s] == UNKNOWN:
                yield (inst, s, args[0], stack)
        return
    if op == EUOP and vals[args[1]][p] == UNKNOWN:
        yield (inst, p, args[1], stack)
    if vals[args[0]][p] == UNKNOWN:
        yield (inst, p, args[0], stack)
    assert op in (EUOP, EGOP)
    for s in succ:
        if vals[f][s] == UNKNOWN:
            yield (inst, s, f, stack)
