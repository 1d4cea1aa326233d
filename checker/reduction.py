"""Collapse calls that cannot matter to a formula: a cone-of-influence reduction for CTL without EX.

A component is *irrelevant* to a formula when neither it nor anything it can call carries one of
the formula's atoms.  A run through such a callee only stutters (every state agrees on all atoms
with the call node), and CTL without the next-time operator cannot tell stuttering apart, so the box
can be replaced by plain nodes: the call node, its return nodes, an edge from the call node to each
return node whose exit the callee can reach, and a self-loop on the call node when the callee can
run forever without returning (a loop, unbounded recursion, a dead end or an exit this box does not
expose).  The model checker then never builds contexts for the collapsed callees, which are most of
a large program for a formula about one variable.

Which exits a callee entry can reach and whether it can diverge do not depend on the formula, so
they are computed once per model (``rsm.memo``) and every formula only pays for the rebuilt
components that keep an atom.
"""

from __future__ import annotations

from collections import defaultdict

from checker.graphs import closure, strongly_connected
from checker.model import RSM, Box, Component, Node, Ref

Summary = tuple[dict[tuple[str, str], frozenset[str]], frozenset[tuple[str, str]]]


def reduce_for_atoms(rsm: RSM, atoms: frozenset[str]) -> RSM:
    """The RSM with every box into an atom-free callee collapsed (for formulas without EX)."""
    relevant = _relevant(rsm, atoms)
    if len(relevant) == len(rsm.components):
        return rsm
    exits, diverging = summaries(rsm)
    kept = [c for c in rsm.components if c.name in relevant or c.name == rsm.initial_component]
    comps = tuple(_collapse(c, rsm, relevant, exits, diverging) for c in kept)
    return RSM(comps, rsm.initial_component, rsm.initial_node)


def _relevant(rsm: RSM, atoms: frozenset[str]) -> set[str]:
    carriers = (c.name for c in rsm.components if any(n.labels & atoms for n in c.nodes))
    return closure(carriers, _callers(rsm).__getitem__)


def _callers(rsm: RSM) -> defaultdict[str, set[str]]:
    """Who calls each component: the same for every formula, so kept in ``rsm.memo``."""
    got = rsm.memo.get("callers")
    if got is None:
        callers: defaultdict[str, set[str]] = defaultdict(set)
        for c in rsm.components:
            for d in c.callees:
                callers[d].add(c.name)
        got = rsm.memo["callers"] = callers
    return got  # type: ignore[return-value]


def _collapse(comp: Component, rsm: RSM, relevant: set[str],
              exits: dict[tuple[str, str], frozenset[str]], diverging: frozenset[tuple[str, str]]) -> Component:
    gone = [b for b in comp.boxes if b.component not in relevant]
    if not gone:
        return comp
    taken = {n.name for n in comp.nodes}
    # a callee node can be both an entry and an exit: its call and return nodes stay apart
    calls: dict[Ref, str] = {}
    rets: dict[Ref, str] = {}
    nodes = list(comp.nodes)
    edges: list[tuple[Ref, Ref]] = []
    for b in gone:
        callee = rsm.component(b.component)
        for role, names, rename in (("call", b.call_nodes, calls), ("ret", b.return_nodes, rets)):
            for n in names:
                name = _fresh(f"{b.name}|{role}|{n}", taken)
                rename[(b.name, n)] = name
                nodes.append(Node(name, callee.node(n).labels))
        for en in b.call_nodes:
            src = calls[(b.name, en)]
            reach = exits.get((b.component, en), frozenset())
            for x in b.return_nodes:
                if x in reach:
                    edges.append((src, rets[(b.name, x)]))
            if (b.component, en) in diverging or reach - set(b.return_nodes):
                edges.append((src, src))
    edges.extend((rets.get(s, s), calls.get(t, t)) for s, t in comp.edges)
    boxes = tuple(b for b in comp.boxes if b.component in relevant)
    return Component(comp.name, tuple(nodes), boxes, tuple(edges))


def _fresh(name: str, taken: set[str]) -> str:
    out, i = name, 0
    while out in taken:
        i += 1
        out = f"{name}#{i}"
    taken.add(out)
    return out


def summaries(rsm: RSM) -> Summary:
    """Per (component, entry): the exits it can return from, and whether it can run forever."""
    cached = rsm.memo.get("summaries")
    if cached is None:
        cached = _summaries(rsm)
        rsm.memo["summaries"] = cached
    return cached  # type: ignore[return-value]


def _succ(comp: Component) -> dict[Ref, list[Ref]]:
    succ: dict[Ref, list[Ref]] = defaultdict(list)
    for s, t in comp.edges:
        succ[s].append(t)
    return succ


def _summaries(rsm: RSM) -> Summary:
    succs = {c.name: _succ(c) for c in rsm.components}
    exits: dict[tuple[str, str], frozenset[str]] = {}
    callers = _callers(rsm)
    work = [c.name for c in reversed(rsm.components)]
    queued = set(work)
    while work:
        name = work.pop()
        queued.discard(name)
        comp = rsm.component(name)
        changed = False
        for en in comp.entries:
            found = _reachable_exits(comp, en, succs[name], exits)
            if found != exits.get((name, en), frozenset()):
                exits[(name, en)] = found
                changed = True
        if changed:
            for caller in callers[name]:
                if caller not in queued:
                    queued.add(caller)
                    work.append(caller)
    return exits, _diverging(rsm, succs, exits)


def _call_steps(box: Box, en: str, exits: dict[tuple[str, str], frozenset[str]]) -> tuple[list[str], bool]:
    """Exits a call can come back from through this box, and whether it can get stuck at an
    exit the box does not expose."""
    reach = exits.get((box.component, en), frozenset())
    return [x for x in box.return_nodes if x in reach], bool(reach - set(box.return_nodes))


# a state inside one component: a node name, or (box, callee node, "call" | "ret")
Local = str | tuple[str, str, str]


def _local_steps(comp: Component, state: Local, succ: dict[Ref, list[Ref]],
                 exits: dict[tuple[str, str], frozenset[str]]) -> tuple[list[Local], bool]:
    """Successors of a state at the same call depth, and whether a call there can get stuck."""
    if isinstance(state, str):
        targets = succ.get(state, ())
    else:
        b, n, role = state
        if role == "call":
            back, stuck = _call_steps(comp.box_map[b], n, exits)
            return [(b, x, "ret") for x in back], stuck
        targets = succ.get((b, n), ())
    return [t if isinstance(t, str) else (t[0], t[1], "call") for t in targets], False


def _reachable_exits(comp: Component, en: str, succ: dict[Ref, list[Ref]],
                     exits: dict[tuple[str, str], frozenset[str]]) -> frozenset[str]:
    def step(r: Local) -> list[Local]:
        return [] if _is_exit(comp, r) else _local_steps(comp, r, succ, exits)[0]

    start: list[Local] = [en]
    return frozenset(r for r in closure(start, step) if isinstance(r, str) and _is_exit(comp, r))


def _is_exit(comp: Component, r: Local) -> bool:
    return isinstance(r, str) and comp.node(r).is_exit


Key = tuple[str, Local]


def _diverging(rsm: RSM, succs: dict[str, dict[Ref, list[Ref]]],
               exits: dict[tuple[str, str], frozenset[str]]) -> frozenset[tuple[str, str]]:
    """Entries from which some run never returns: those that reach a cycle of the graph whose
    steps are local edges, descents into callees and jumps over calls that return (a state with
    nowhere to go stays where it is, as in the checker)."""
    graph: dict[Key, list[Key]] = {}
    for c in rsm.components:
        succ = succs[c.name]
        states: list[Local] = [n.name for n in c.nodes]
        for b in c.boxes:
            states.extend((b.name, n, "call") for n in b.call_nodes)
            states.extend((b.name, x, "ret") for x in b.return_nodes)
        for st in states:
            key = (c.name, st)
            if _is_exit(c, st):
                graph[key] = []
                continue
            nxt, stuck = _local_steps(c, st, succ, exits)
            out: list[Key] = [(c.name, t) for t in nxt]
            if not isinstance(st, str) and st[2] == "call":
                out.append((c.box_map[st[0]].component, st[1]))
                if stuck:
                    out.append(key)
            elif not out:
                out.append(key)
            graph[key] = out
    def step(v: Key) -> list[Key]:
        return graph.get(v, [])

    cyclic = [v for scc in strongly_connected(graph, step) for v in scc if len(scc) > 1 or v in step(v)]
    pred: dict[Key, list[Key]] = defaultdict(list)
    for k, outs in graph.items():
        for t in outs:
            pred[t].append(k)
    seen = closure(cyclic, pred.__getitem__)
    return frozenset((c, st) for c, st in seen if isinstance(st, str))
