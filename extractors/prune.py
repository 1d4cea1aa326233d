"""Infeasible-path pruning: a bounded product of the CFG with the values of a few flag variables.

``if (flag) p = malloc(n); ... if (flag) free(p);`` has no leaking path, but a plain CFG has one.
The node state holds the values of at most four tracked names, and edges whose condition is
decided by the known values (or by constants such as ``if (0)``, ``while (1)``, ``#define DEBUG
0``, and the project's facts: a global nothing writes, a helper's constant result, see
:mod:`extractors.project_facts`) are dropped.  Tracked, in this order of preference:

- *constants*: locals tested in conditions that are only ever assigned constants;
- *assumed* names: parameters and locals never assigned, tested bare (``if (c)``): unknown, but
  once a branch on ``c`` is taken its truth is known for the rest of the path;
- *assumed tests*: a comparison over such names that the function makes more than once
  (``if (n > 4) ... if (n > 4)``, also as ``n <= 4``): its first outcome decides the later ones;
- *counters*: locals tested in a loop's condition whose constant assignments go straight to the
  loop (``for (i = 0; i < n; i++)``, ``k = 0; while (k < 2)``): the value is known from there to
  its first test, which it decides, so such a loop runs at least once (also against a bound
  known only to be at least 1: ``i < sizeof buf``, ``i < sizeof a / sizeof a[0]``, see
  :data:`extractors.cfg.POSITIVE`); it is forgotten at the test, so only the loop's head is copied.
A ``switch`` on a known value goes to its case (or ``default``) only.

Soundness: a tracked value is forgotten at any node that writes the name without a constant
(``++``, a call or a macro that assigns it: any ``def``/``write`` event), and names whose address
is taken are never tracked; an assumed test is learnt only over names nothing in the function
writes.  If the product would grow beyond a small multiple of the CFG, it falls back to fewer
tracked names, and at last to constants only.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from extractors.cfg import Cfg, CfgNode, CondExpr, evaluate

MAX_FLAGS = 4


@dataclass(frozen=True)
class Graph:
    """The pruned graph: node ``i`` stands for CFG node ``cfg_of[i]``; ``names`` are stable ids."""

    cfg_of: tuple[int, ...]
    names: tuple[str, ...]
    succ: tuple[tuple[tuple[int, bool | None], ...], ...]
    entry: int
    exit: int


def cond_vars(c: CondExpr, out: set[str]) -> None:
    """Add the names condition ``c`` reads to ``out``."""
    if c is None:
        return
    if c[0] == "var":
        out.add(c[1])  # type: ignore[arg-type]
    for x in c[1:]:
        if isinstance(x, tuple):
            cond_vars(x, out)


def flag_candidates(cfg: Cfg, params: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Constant-only locals tested in conditions, and never-assigned names tested bare (``if (c)``).

    The second kind have unknown values, but once a branch on ``c`` is taken its truth is known
    for the rest of the path: ``if (c) x = 1; ... if (c) use(x);`` is then not an uninitialised read.
    """
    c = _candidates(cfg, params)
    return c.consts, c.assumed[: MAX_FLAGS - len(c.consts)]


@dataclass(frozen=True)
class _Candidates:
    consts: list[str]
    assumed: list[str]
    tests: list[str]  # keys of assumed tests (see :func:`_test_key`)
    counters: list[str]


_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _test_key(c: CondExpr) -> tuple[str, bool] | None:
    """A comparison's key and polarity: ``n <= 4`` is ``n > 4`` negated."""
    if c is None or c[0] != "bin" or c[1] not in _NEGATED:
        return None
    op = str(c[1])
    if op in ("!=", ">=", "<="):
        return repr(("bin", _NEGATED[op], *c[2:])), False
    return repr(c), True


def _written(node: CfgNode) -> set[str]:
    """Plain names a node may change: its flag sets, and any ``def``/``write`` event on a name."""
    out = {n for n, _ in node.flag_sets}
    out.update(p for p, a in node.events if a in ("def", "write") and p.isidentifier())
    return out


def _candidates(cfg: Cfg, params: tuple[str, ...]) -> _Candidates:
    tested: set[str] = set()
    bare: set[str] = set()
    nested: set[str] = set()
    looped: set[str] = set()
    tests: dict[str, int] = {}
    heads = {t for n in cfg.nodes if n.kind == "join" for t, _ in cfg.succ[n.id]}
    for n in cfg.nodes:
        if n.kind == "cond":
            cond_vars(n.cond, tested)
            if n.id in heads:
                cond_vars(n.cond, looped)
            if n.cond is not None and n.cond[0] == "var":
                bare.add(str(n.cond[1]))
            elif n.cond is not None:
                cond_vars(n.cond, nested)
                if (key := _test_key(n.cond)) is not None:
                    tests[key[0]] = tests.get(key[0], 0) + 1
        elif n.kind == "switch":
            cond_vars(n.cond, tested)
            nested.update(p for p, _ in n.events)
    ok: dict[str, bool] = {}
    some: set[str] = set()  # assigned a constant somewhere
    written: set[str] = set()
    for n in cfg.nodes:
        for name, value in n.flag_sets:
            good = value is not None or (n.kind == "decl" and cfg.declared.get(name, False))
            ok[name] = ok.get(name, True) and good
            if value is not None:
                some.add(name)
        written |= _written(n)
    local = [v for v in sorted(tested) if v in cfg.declared and v not in cfg.addr_taken]
    consts = [v for v in local if ok.get(v)][:MAX_FLAGS]
    assumed = [
        v
        for v in sorted(bare - nested)
        if v not in ok and v not in written and v not in cfg.addr_taken and (v in cfg.declared or v in params)
    ]
    unwritten = {
        v for v in tested if v not in written and v not in cfg.addr_taken and (v in cfg.declared or v in params)
    }
    learnt = []
    for n in cfg.nodes:
        key = _test_key(n.cond) if n.kind == "cond" else None
        if key is not None and tests.get(key[0], 0) > 1 and key[0] not in learnt:
            names: set[str] = set()
            cond_vars(n.cond, names)
            if names and names <= unwritten:
                learnt.append(key[0])
    preds: dict[int, int] = {}
    for out in cfg.succ:
        for t, _ in out:
            preds[t] = preds.get(t, 0) + 1
    counters = [v for v in local if v in looped and v in some and not ok.get(v) and _enters_loop(cfg, v, preds)]
    return _Candidates(consts, assumed, learnt, counters)


def _enters_loop(cfg: Cfg, v: str, preds: dict[int, int]) -> bool:
    """Whether every constant assignment of ``v`` goes straight to the head of a loop that tests
    it (``for (i = 0; i < n; ...)``, ``k = 0; while (k < 2)``), or through statements that only
    it leads to and that leave ``v`` alone (``i = 0; lock(f); while (i < n ...)``): with ``v``
    forgotten at its first test, only the head and its test are copied, never a statement (a copy
    of a store would be checked on its own, and a store read on later iterations only would look
    dead); a statement only the assignment leads to is reached in the one state it leaves.
    ``preds``: how many edges enter each node."""
    for n in cfg.nodes:
        if not any(name == v and value is not None for name, value in n.flag_sets):
            continue
        head = _head_after(cfg, n.id, v, preds)
        if head is None:
            return False
        tests: set[str] = set()
        for t, _ in cfg.succ[head]:
            if cfg.nodes[t].kind == "cond":
                cond_vars(cfg.nodes[t].cond, tests)
        if v not in tests:
            return False
    return True


def _head_after(cfg: Cfg, at: int, v: str, preds: dict[int, int]) -> int | None:
    """The loop head (a ``join``) node ``at`` leads to through one chain of plain statements,
    each with one way in and one way out and none writing ``v``; None when there is none."""
    for _ in range(MAX_LEAD):
        if len(cfg.succ[at]) != 1:
            return None
        at = cfg.succ[at][0][0]
        node = cfg.nodes[at]
        if node.kind == "join":
            return at
        if node.kind not in ("stmt", "decl") or preds.get(at, 0) != 1 or v in _written(node):
            return None
    return None


MAX_LEAD = 16  # statements between a counter's start and its loop, at most


def prune(cfg: Cfg, consts: dict[str, int], params: tuple[str, ...] = ()) -> Graph:
    limit = 4 * len(cfg.nodes) + 256
    c = _candidates(cfg, params)
    room = MAX_FLAGS - len(c.consts)
    assumed, tests = c.assumed[:room], c.tests[: max(0, room - len(c.assumed))]
    learn = assumed + tests
    counters = c.counters[: max(0, room - len(learn))]
    attempts: tuple[tuple[list[str], set[str]], ...] = (
        (c.consts + learn + counters, set(learn)),  # the counters are the flags no other list has
        (c.consts + learn, set(learn)),
        (c.consts + assumed, set(assumed)),
        (c.consts, set()),
    )
    tried: set[tuple[str, ...]] = set()
    names: dict[int, _Names] = {}  # per node, shared by the attempts
    for flags, learning in attempts:
        if flags and tuple(flags) not in tried:
            tried.add(tuple(flags))
            g = _product(cfg, consts, flags, learning, limit, frozenset(counters) & frozenset(flags), names)
            if g is not None:
                return g
    g = _product(cfg, consts, [], set(), None, node_names=names)
    assert g is not None  # without flags there is one state per CFG node
    return g


def _switch_targets(cfg: Cfg, node: CfgNode, value: int, env: dict[str, int]) -> set[int]:
    """Where a ``switch`` on ``value`` can go: the matching case; else the cases whose value is
    unknown and the ``default`` (or past the switch when there is none)."""
    match: list[int] = []
    unknown: set[int] = set()
    other: set[int] = set()
    default: int | None = None
    for t, _ in cfg.succ[node.id]:
        case = cfg.nodes[t]
        if case.kind != "case":
            other.add(t)
        elif case.cond == ("default",):
            default = t
        else:
            v = evaluate(case.cond, env) if case.cond is not None else None
            if v == value:
                match.append(t)
            elif v is None:
                unknown.add(t)
    if match:
        return {match[0]}
    return unknown | ({default} if default is not None else other)


@dataclass(frozen=True)
class _Step:
    """What the product needs of one CFG node, the same in every state it is reached in: the
    constants its test reads (``known``) and the positions of the flags it reads (``reads``),
    the learnt test it is (``learnt``, with its ``polarity``), and the positions of the flags it
    forgets (``cleared``: written), sets (``sets``) and then forgets again (``tested``: a
    counter it tests)."""

    test: bool
    switch: bool
    known: dict[str, int]
    reads: tuple[tuple[str, int], ...]
    learnt: int | None
    polarity: bool
    cleared: tuple[int, ...]
    sets: tuple[tuple[int, int | None], ...]
    tested: tuple[int, ...]


@dataclass(frozen=True)
class _Names:
    """What one CFG node reads and writes, whatever the flags: the names its test reads
    (``reads``, a switch's cases' included), those of its own condition (``tested``), the names it
    may write (``written``) and the key of the test it is (``key``: see :func:`_test_key`)."""

    reads: frozenset[str]
    tested: frozenset[str]
    written: frozenset[str]
    key: tuple[str, bool] | None


def _names(cfg: Cfg, node: CfgNode) -> _Names:
    tested: set[str] = set()
    cond_vars(node.cond, tested)
    reads = set(tested)
    if node.kind == "switch":
        for t, _ in cfg.succ[node.id]:
            if cfg.nodes[t].kind == "case":
                cond_vars(cfg.nodes[t].cond, reads)
    key = None
    if node.kind == "cond" and node.cond is not None:
        key = (str(node.cond[1]), True) if node.cond[0] == "var" else _test_key(node.cond)
    return _Names(frozenset(reads), frozenset(tested), frozenset(_written(node)), key)


def _step(
    node: CfgNode,
    names: _Names,
    consts: dict[str, int],
    index: dict[str, int],
    learn: set[str],
    counters: frozenset[str],
) -> _Step:
    test = node.kind in ("cond", "switch") and node.cond is not None
    known: dict[str, int] = {}
    reads: tuple[tuple[str, int], ...] = ()
    learnt: int | None = None
    polarity = True
    if test:
        # the constants the test can read, less the flags, whose values the state gives:
        # :func:`evaluate` reads nothing else (a file's constants are thousands)
        known = {n: consts[n] for n in names.reads if n in consts and n not in index}
        reads = tuple((f, k) for f, k in index.items() if f in names.reads)
        if learn and names.key is not None and names.key[0] in learn:
            learnt, polarity = index[names.key[0]], names.key[1]
    cleared = tuple(index[n] for n in names.written if n in index) if index else ()
    sets = tuple((index[name], value) for name, value in node.flag_sets if name in index)
    counted = names.tested & counters if node.kind == "cond" else frozenset()
    forgotten = tuple(index[n] for n in sorted(counted))  # known up to its first test only
    return _Step(test, node.kind == "switch", known, reads, learnt, polarity, cleared, sets, forgotten)


def _product(
    cfg: Cfg,
    consts: dict[str, int],
    flags: list[str],
    learn: set[str],
    limit: int | None,
    counters: frozenset[str] = frozenset(),
    node_names: dict[int, _Names] | None = None,
) -> Graph | None:
    index = {f: i for i, f in enumerate(flags)}
    start: tuple[int, tuple[int | None, ...]] = (cfg.entry, (None,) * len(flags))
    ids: dict[tuple[int, tuple[int | None, ...]], int] = {start: 0}
    states = [start]
    succ: list[list[tuple[int, bool | None]]] = [[]]
    exit_id: int | None = None
    steps: dict[int, _Step] = {}
    queue = deque([0])
    while queue:
        i = queue.popleft()
        c, vals = states[i]
        step = steps.get(c)
        if step is None:
            got = node_names.get(c) if node_names is not None else None
            if got is None:
                got = _names(cfg, cfg.nodes[c])
                if node_names is not None:
                    node_names[c] = got
            step = steps[c] = _step(cfg.nodes[c], got, consts, index, learn, counters)
        decided: int | None = None
        targets: set[int] | None = None
        learnt = step.learnt
        if step.test:
            env = step.known
            if step.reads:
                env = dict(env)
                for f, k in step.reads:
                    if vals[k] is not None:
                        env[f] = vals[k]  # type: ignore[assignment]
            decided = evaluate(cfg.nodes[c].cond, env)
            if decided is None and learnt is not None and vals[learnt] is not None:
                decided = int(bool(vals[learnt]) == step.polarity)
            if step.switch:
                targets = _switch_targets(cfg, cfg.nodes[c], decided, env) if decided is not None else None
                decided = None
        nv = vals
        if step.cleared or step.sets or step.tested:
            after = list(vals)
            for k in step.cleared:
                after[k] = None
            for k, value in step.sets:
                after[k] = value
            for k in step.tested:
                after[k] = None
            nv = tuple(after)
        for t, br in cfg.succ[c]:
            if decided is not None and br is not None and br != bool(decided):
                continue
            if targets is not None and t not in targets:
                continue
            ev = nv
            if learnt is not None and br is not None and nv[learnt] is None:
                ev = nv[:learnt] + (1 if br == step.polarity else 0,) + nv[learnt + 1 :]
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
