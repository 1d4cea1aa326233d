"""Infeasible-path pruning: a bounded product of the CFG with the values of a few flag variables.

``if (flag) p = malloc(n); ... if (flag) free(p);`` has no leaking path, but a plain CFG has one.
Locals that are only ever assigned constants (at most four of them) and are tested in conditions
are tracked as part of the node state, and edges whose condition is decided by the known values
(or by constants such as ``if (0)``, ``while (1)``, ``#define DEBUG 0``) are dropped.  If the
product would grow beyond a small multiple of the CFG, it falls back to constants only.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from extractors.cfg import Cfg, CondExpr, evaluate

MAX_FLAGS = 4


@dataclass(frozen=True)
class Graph:
    """The pruned graph: node ``i`` stands for CFG node ``cfg_of[i]``; ``names`` are stable ids."""

    cfg_of: tuple[int, ...]
    names: tuple[str, ...]
    succ: tuple[tuple[tuple[int, bool | None], ...], ...]
    entry: int
    exit: int


def _vars(c: CondExpr, out: set[str]) -> None:
    if c is None:
        return
    if c[0] == "var":
        out.add(c[1])  # type: ignore[arg-type]
    for x in c[1:]:
        if isinstance(x, tuple):
            _vars(x, out)


def flag_candidates(cfg: Cfg, params: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Constant-only locals tested in conditions, and never-assigned names tested bare (``if (c)``).

    The second kind have unknown values, but once a branch on ``c`` is taken its truth is known
    for the rest of the path: ``if (c) x = 1; ... if (c) use(x);`` is then not an uninitialised read.
    """
    tested: set[str] = set()
    bare: set[str] = set()
    nested: set[str] = set()
    for n in cfg.nodes:
        if n.kind == "cond":
            _vars(n.cond, tested)
            if n.cond is not None and n.cond[0] == "var":
                bare.add(str(n.cond[1]))
            elif n.cond is not None:
                _vars(n.cond, nested)
        elif n.kind == "switch":
            nested.update(p for p, _ in n.events)
    ok: dict[str, bool] = {}
    for n in cfg.nodes:
        for name, value in n.flag_sets:
            good = value is not None or (n.kind == "decl" and cfg.declared.get(name, False))
            ok[name] = ok.get(name, True) and good
    consts = [v for v in sorted(tested) if ok.get(v) and v in cfg.declared and v not in cfg.addr_taken]
    assumed = [
        v
        for v in sorted(bare - nested)
        if v not in ok and v not in cfg.addr_taken and (v in cfg.declared or v in params)
    ]
    consts = consts[:MAX_FLAGS]
    return consts, assumed[: MAX_FLAGS - len(consts)]


def prune(cfg: Cfg, consts: dict[str, int], params: tuple[str, ...] = ()) -> Graph:
    limit = 4 * len(cfg.nodes) + 256
    fixed, assumed = flag_candidates(cfg, params)
    for flags, learn in ((fixed + assumed, set(assumed)), (fixed, set())):
        if flags:
            g = _product(cfg, consts, flags, learn, limit)
            if g is not None:
                return g
    g = _product(cfg, consts, [], set(), None)
    assert g is not None  # without flags there is one state per CFG node
    return g


def _product(
    cfg: Cfg, consts: dict[str, int], flags: list[str], learn: set[str], limit: int | None
) -> Graph | None:
    index = {f: i for i, f in enumerate(flags)}
    start: tuple[int, tuple[int | None, ...]] = (cfg.entry, (None,) * len(flags))
    ids: dict[tuple[int, tuple[int | None, ...]], int] = {start: 0}
    states = [start]
    succ: list[list[tuple[int, bool | None]]] = [[]]
    exit_id: int | None = None
    queue = deque([0])
    while queue:
        i = queue.popleft()
        c, vals = states[i]
        node = cfg.nodes[c]
        decided: int | None = None
        if node.kind == "cond" and node.cond is not None:
            env = dict(consts)
            for f, v in zip(flags, vals, strict=True):
                if v is not None:
                    env[f] = v
                else:
                    env.pop(f, None)
            decided = evaluate(node.cond, env)
        after: list[int | None] = list(vals)
        for name, value in node.flag_sets:
            if name in index:
                after[index[name]] = value
        nv = tuple(after)
        learnt = str(node.cond[1]) if node.kind == "cond" and node.cond and node.cond[0] == "var" else None
        if learnt not in learn:
            learnt = None
        for t, br in cfg.succ[c]:
            if decided is not None and br is not None and br != bool(decided):
                continue
            ev = nv
            if learnt is not None and br is not None and nv[index[learnt]] is None:
                k = index[learnt]
                ev = nv[:k] + (1 if br else 0,) + nv[k + 1 :]
            if t == cfg.exit:
                if exit_id is None:
                    exit_id = len(states)
                    ids[(t, ())] = exit_id
                    states.append((t, ()))
                    succ.append([])
                j = exit_id
            else:
                key = (t, ev)
                j = ids.get(key, -1)
                if j < 0:
                    j = len(states)
                    ids[key] = j
                    states.append(key)
                    succ.append([])
                    queue.append(j)
                    if limit is not None and len(states) > limit:
                        return None
            if (j, br) not in succ[i]:
                succ[i].append((j, br))
    if exit_id is None:
        exit_id = len(states)
        states.append((cfg.exit, ()))
        succ.append([])
    seen: dict[int, int] = {}
    names = []
    for c, _ in states:
        k = seen.get(c, 0)
        seen[c] = k + 1
        names.append(f"n{c}" if k == 0 else f"n{c}_{k}")
    return Graph(tuple(c for c, _ in states), tuple(names), tuple(tuple(s) for s in succ), 0, exit_id)
