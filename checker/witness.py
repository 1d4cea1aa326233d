"""Witness paths: configurations (call stack, instance, position) that prove an existential formula.

A path is read off the labelled instances: EU by breadth-first search through states where the
left operand is known true to one where the right one is; EG as a lasso that closes on an
(instance, position) pair seen before at the same or a shallower stack depth, never having
returned below that depth in between, so the loop can be repeated (pumping recursion if the
stack grew); EX by one step.  Nested existential formulas are followed from the state where the
outer path ends.  Entering a box is shown as the callee's entry with the call pushed on the stack.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from checker.compiled import CALL
from checker.engine import Engine, Instance
from checker.formulas import AND, EGOP, EUOP, EXOP, OR
from checker.model import Ref
from checker.ternary import TT

Frame = tuple[Instance, int]
State = tuple[tuple[Frame, ...], Instance, int]

_MAX_STATES = 300_000
_MAX_LASSO = 20_000


@dataclass(frozen=True)
class Step:
    component: str
    node: Ref
    stack: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Witness:
    steps: tuple[Step, ...]
    loop_start: int | None = None


class NoWitness(Exception):
    """The labelling at hand is too partial to read a path off it."""


def successors(state: State) -> list[State]:
    stack, inst, p = state
    comp = inst.comp
    if comp.is_exit[p]:
        if not stack:
            return [state]
        caller, bi = stack[-1]
        r = caller.comp.ret_pos[bi].get(comp.refs[p])
        if r is None:
            return [state]
        return [_enter(stack[:-1], caller, s) for s in caller.comp.succ[r]]
    return [_enter(stack, inst, s) for s in comp.succ[p]]


def _enter(stack: tuple[Frame, ...], inst: Instance, s: int) -> State:
    if inst.comp.kind[s] == CALL:
        bi, en = inst.comp.call_at[s]
        callee = inst.boxmap[bi]
        return ((*stack, (inst, bi)), callee, callee.comp.entry_pos[en])
    return (stack, inst, s)


def _val(state: State, f: int) -> int:
    return state[1].vals[f][state[2]]


def find_witness(engine: Engine, f: int) -> Witness:
    root = engine.root
    start: State = ((), root, root.comp.entry_pos[engine.rsm.initial_node])
    path, loop = _witness(engine, start, f)
    return Witness(tuple(_step(s) for s in path), loop)


def _step(state: State) -> Step:
    stack, inst, p = state
    return Step(inst.comp.name, inst.comp.refs[p],
                tuple((fr.comp.name, fr.comp.box_names[bi]) for fr, bi in stack))


def _witness(engine: Engine, state: State, f: int) -> tuple[list[State], int | None]:
    t = engine.table
    if _val(state, f) != TT:
        raise NoWitness(f"formula {t.formulas[f]} is not known true here")
    op, args = t.ops[f], t.args[f]
    if op == OR:
        child = args[0] if _val(state, args[0]) == TT else args[1]
        return _witness(engine, state, child)
    if op == AND:
        for c in args:
            path, loop = _witness(engine, state, c)
            if len(path) > 1 or loop is not None:
                return path, loop
        return [state], None
    if op == EXOP:
        for s in successors(state):
            if _val(s, args[0]) == TT:
                rest, loop = _witness(engine, s, args[0])
                return [state, *rest], None if loop is None else loop + 1
        raise NoWitness("no successor known to satisfy the EX operand")
    if op == EUOP:
        prefix = _until_path(state, args[0], args[1])
        rest, loop = _witness(engine, prefix[-1], args[1])
        return prefix[:-1] + rest, None if loop is None else loop + len(prefix) - 1
    if op == EGOP:
        return _lasso(state, f)
    return [state], None


def _until_path(start: State, left: int, right: int) -> list[State]:
    """A shortest-ish E[left U right] path, found without enumerating call stacks.

    Searching (stack, instance, position) states directly does not terminate in reasonable time
    on recursive programs, so calls are crossed with *summaries* (entry -> exit paths inside a
    callee instance through left-states, Alur et al.'s RSM reachability).  Values depend on the
    stack only through the instance, so once the search has descended into a call and will never
    return from it, a state is identified by (instance, position) alone.
    """
    summaries = _summaries(start[1], left, right)
    base_stack, inst0, p0 = start
    Key = tuple[object, ...]
    parent: dict[Key, tuple[Key | None, State, list[State]]] = {}
    first: Key = ("b", len(base_stack), inst0, p0)
    parent[first] = (None, start, [start])
    queue: deque[Key] = deque([first])
    while queue:
        key = queue.popleft()
        _, state, _ = parent[key]
        stack, inst, p = state
        if inst.vals[right][p] == TT:
            return _rebuild(parent, key)
        if inst.vals[left][p] != TT:
            continue
        desc = key[0] == "d"
        moves: list[tuple[State, list[State]]] = []
        comp = inst.comp
        if comp.is_exit[p]:
            if desc or not stack:
                continue
            caller, bi = stack[-1]
            r = caller.comp.ret_pos[bi].get(comp.refs[p])
            if r is None:
                continue
            for s in caller.comp.succ[r]:
                moves.extend(_local_moves(stack[:-1], caller, s, summaries))
        else:
            for s in comp.succ[p]:
                moves.extend(_local_moves(stack, inst, s, summaries))
        for nxt, segment in moves:
            nstack, ninst, np_ = nxt
            pushed = len(nstack) > len(base_stack) or desc
            nkey: Key = ("d", ninst, np_) if pushed else ("b", len(nstack), ninst, np_)
            if nkey not in parent:
                parent[nkey] = (key, nxt, segment)
                queue.append(nkey)
    raise NoWitness("no path to the until goal through known states")


def _local_moves(stack: tuple[Frame, ...], inst: Instance, s: int,
                 summaries: dict[tuple[Instance, int], dict[int, list[int]]]) -> list[tuple[State, list[State]]]:
    """Moves to local position ``s``: into a call (descending), or across it by a summary."""
    call = inst.comp.call_at.get(s)
    if call is None:
        st: State = (stack, inst, s)
        return [(st, [st])]
    bi, en = call
    callee = inst.boxmap[bi]
    entry = callee.comp.entry_pos[en]
    inner_stack = (*stack, (inst, bi))
    enter: State = (inner_stack, callee, entry)
    out: list[tuple[State, list[State]]] = [(enter, [enter])]
    for ex in summaries.get((callee, entry), {}):
        r = inst.comp.ret_pos[bi].get(callee.comp.refs[ex])
        if r is None:
            continue
        segment = _expand(inner_stack, callee, entry, ex, summaries)
        out.append(((stack, inst, r), segment))  # the return position stands for the callee exit
    return out


def _summaries(root: Instance, left: int, right: int) -> dict[tuple[Instance, int], dict[int, list[int]]]:
    """For each (instance, entry), the exits reachable through left-states that are not goals.

    Each summary keeps the local position path that first established it; that path only uses
    summaries established in earlier rounds, so expanding them always terminates.
    """
    insts = [root]
    seen = {root}
    for inst in insts:
        for c in inst.boxmap:
            if c not in seen:
                seen.add(c)
                insts.append(c)
    known: dict[tuple[Instance, int], dict[int, list[int]]] = {}
    changed = True
    while changed:
        changed = False
        snapshot = {k: dict(v) for k, v in known.items()}
        for inst in insts:
            lv, rv = inst.vals[left], inst.vals[right]
            comp = inst.comp
            for entry in comp.entry_pos.values():
                if lv[entry] != TT or rv[entry] == TT:
                    continue
                found = known.setdefault((inst, entry), {})
                prev: dict[int, int | None] = {entry: None}
                todo = [entry]
                while todo:
                    p = todo.pop()
                    if comp.is_exit[p]:
                        if p not in found:
                            path = [p]
                            while (q := prev[path[-1]]) is not None:
                                path.append(q)
                            found[p] = path[::-1]
                            changed = True
                        continue
                    for s in comp.succ[p]:
                        targets = [s]
                        call = comp.call_at.get(s)
                        if call is not None:
                            bi, en = call
                            callee = inst.boxmap[bi]
                            sums = snapshot.get((callee, callee.comp.entry_pos[en]), {})
                            targets = [r for ex in sums
                                       if (r := comp.ret_pos[bi].get(callee.comp.refs[ex])) is not None]
                            for r in targets:
                                if r not in prev and lv[r] == TT and rv[r] != TT:
                                    prev[r] = s
                                    todo.append(r)
                            if s not in prev:
                                prev[s] = p
                            continue
                        if s not in prev and lv[s] == TT and rv[s] != TT:
                            prev[s] = p
                            todo.append(s)
    return known


def _expand(stack: tuple[Frame, ...], inst: Instance, entry: int, ex: int,
            summaries: dict[tuple[Instance, int], dict[int, list[int]]]) -> list[State]:
    """The concrete states of a summary path entry -> exit inside ``inst`` (stack already pushed)."""
    path = summaries[(inst, entry)][ex]
    out: list[State] = []
    comp = inst.comp
    i = 0
    while i < len(path):
        p = path[i]
        call = comp.call_at.get(p)
        if call is not None:
            bi, en = call
            callee = inst.boxmap[bi]
            r = path[i + 1]
            cex = callee.comp.exit_pos[comp.refs[r][1]]
            out.extend(_expand((*stack, (inst, bi)), callee, callee.comp.entry_pos[en], cex, summaries))
            i += 2
            continue
        out.append((stack, inst, p))
        i += 1
    return out


def _rebuild(parent: dict[tuple[object, ...], tuple[tuple[object, ...] | None, State, list[State]]],
             key: tuple[object, ...]) -> list[State]:
    chunks: list[list[State]] = []
    k: tuple[object, ...] | None = key
    while k is not None:
        pk, _, segment = parent[k]
        chunks.append(segment)
        k = pk
    out: list[State] = []
    for seg in reversed(chunks):
        out.extend(seg)
    return out


def _lasso(start: State, f: int) -> tuple[list[State], int | None]:
    path = [start]
    seen: dict[tuple[Instance, int], list[int]] = {(start[1], start[2]): [0]}
    # for each stack depth, the last path index whose incoming transition went that low (returns pop)
    last_low: dict[int, int] = {len(start[0]): 0}
    at: dict[State, int] = {start: 0}
    for _ in range(_MAX_LASSO):
        cur = path[-1]
        options = [s for s in successors(cur) if _val(s, f) == TT]
        if not options:
            raise NoWitness("EG state without a successor known to satisfy EG")
        returning = bool(cur[0]) and cur[1].comp.is_exit[cur[2]]
        options.sort(key=lambda s: (s not in at, (s[1], s[2]) not in seen, len(s[0]) < len(cur[0])))
        nxt = options[0]
        d = len(nxt[0])
        step_low = min(d, len(cur[0]) - 1) if returning else d
        if nxt in at:
            return path, at[nxt]
        for k in seen.get((nxt[1], nxt[2]), ()):
            dk = len(path[k][0])
            if dk <= d and step_low >= dk and all(i <= k for v, i in last_low.items() if v < dk):
                return path, k
        path.append(nxt)
        last_low[step_low] = len(path) - 1
        at[nxt] = len(path) - 1
        seen.setdefault((nxt[1], nxt[2]), []).append(len(path) - 1)
    raise NoWitness("EG lasso search too long")
