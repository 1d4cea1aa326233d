"""Collapse calls that cannot matter to a formula: a cone-of-influence reduction for CTL without EX.

A component is *irrelevant* to a formula when neither it nor anything it can call carries one of
the formula's atoms.  A run through such a callee only stutters (every state agrees on all atoms
with the call node), and CTL without the next-time operator cannot tell stuttering apart, so the box
can be replaced by plain nodes: the call node, its return nodes, an edge from the call node to each
return node whose exit the callee can reach, and a self-loop on the call node when the callee can
run forever without returning (a loop, unbounded recursion, a dead end or an exit this box does not
expose).  The model checker then never builds contexts for the collapsed callees, which are most of
a large program for a formula about one variable.

Which exits a callee entry can reach and whether it can diverge do not depend on the formula, nor
on the callers: they are computed per component from its callees' summaries and kept on it, so the
helpers that thousands of values' models call are summarised once, and every formula only pays for
the rebuilt components that keep an atom.
"""

from __future__ import annotations

from collections import ChainMap, defaultdict
from collections.abc import Mapping

from checker.graphs import closure, strongly_connected
from checker.model import RSM, Box, Component, Node, Ref, kept

Summary = tuple[dict[tuple[str, str], frozenset[str]], frozenset[tuple[str, str]]]


def reduce_for_atoms(rsm: RSM, atoms: frozenset[str]) -> RSM:
    """The RSM with every box into an atom-free callee collapsed (for formulas without EX)."""
    relevant = _relevant(rsm, atoms)
    if len(relevant) == len(rsm.components):
        return rsm
    exits, diverging = summaries(rsm, frozenset(c.name for c in rsm.components if c.name not in relevant))
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


def summaries(rsm: RSM, names: frozenset[str] | None = None) -> Summary:
    """Per (component, entry): the exits it can return from, and whether it can run forever; for
    the components ``names`` (every one when ``None``), which must be closed under calls.

    A component's summary depends only on it and on its callees' summaries, so it is worked out per
    call-graph SCC, callees first, and kept on a non-recursive component per callees' summaries:
    the components of a function a thousand values' models call are summarised once."""
    key = ("summaries", names)
    cached = rsm.memo.get(key)
    if cached is None:
        exits: dict[tuple[str, str], frozenset[str]] = {}
        diverging: set[tuple[str, str]] = set()
        for scc in rsm.call_sccs:  # callees first
            if names is None or scc[0] in names:
                _summarise([rsm.component(n) for n in scc], exits, diverging)
        cached = rsm.memo[key] = (exits, frozenset(diverging))
    return cached  # type: ignore[return-value]


def _summarise(members: list[Component], exits: dict[tuple[str, str], frozenset[str]],
               diverging: set[tuple[str, str]]) -> None:
    """Add the summaries of one call-graph SCC whose callees outside it are summarised."""
    comp = members[0]
    recursive = len(members) > 1 or comp.name in comp.callees
    if recursive:
        own = _scc_summary(members, exits, diverging, recursive)
    else:
        seen = {(b.component, en, tuple(sorted(exits.get((b.component, en), ()))), (b.component, en) in diverging)
                for b in comp.boxes for en in b.call_nodes}
        made = kept(comp._derived, ("summary", tuple(sorted(seen))),
                    lambda: _scc_summary(members, exits, diverging, recursive)[comp.name], tuple)
        own = {comp.name: made}
    for name, (own_exits, own_diverging) in own.items():
        exits.update(((name, en), x) for en, x in own_exits)
        diverging.update((name, en) for en in own_diverging)


OwnSummary = tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]


def _scc_summary(members: list[Component], exits: dict[tuple[str, str], frozenset[str]],
                 diverging: set[tuple[str, str]], recursive: bool) -> dict[str, OwnSummary]:
    """Per member, each entry's reachable exits and the entries that can run forever (read-only
    on the arguments, which hold the callees' summaries); ``recursive``: the SCC calls itself."""
    succs = {c.name: _succ(c) for c in members}
    local: ChainMap[tuple[str, str], frozenset[str]] = ChainMap({}, exits)
    changed = True
    while changed:  # a recursive SCC's exits grow to their fixpoint; other callees are done
        changed = False
        for comp in members:
            for en in comp.entries:
                found = _reachable_exits(comp, en, succs[comp.name], local)
                if found != local.get((comp.name, en), frozenset()):
                    local[(comp.name, en)] = found
                    changed = recursive
    forever = _diverging(members, succs, local, diverging)
    return {
        c.name: (
            tuple((en, local.get((c.name, en), frozenset())) for en in c.entries),
            frozenset(en for en in c.entries if (c.name, en) in forever),
        )
        for c in members
    }


def _succ(comp: Component) -> dict[Ref, list[Ref]]:
    succ: dict[Ref, list[Ref]] = defaultdict(list)
    for s, t in comp.edges:
        succ[s].append(t)
    return succ


def _call_steps(box: Box, en: str, exits: Mapping[tuple[str, str], frozenset[str]]) -> tuple[list[str], bool]:
    """Exits a call can come back from through this box, and whether it can get stuck at an
    exit the box does not expose."""
    reach = exits.get((box.component, en), frozenset())
    return [x for x in box.return_nodes if x in reach], bool(reach - set(box.return_nodes))


# a state inside one component: a node name, or (box, callee node, "call" | "ret")
Local = str | tuple[str, str, str]


def _local_steps(comp: Component, state: Local, succ: dict[Ref, list[Ref]],
                 exits: Mapping[tuple[str, str], frozenset[str]]) -> tuple[list[Local], bool]:
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
                     exits: Mapping[tuple[str, str], frozenset[str]]) -> frozenset[str]:
    def step(r: Local) -> list[Local]:
        return [] if _is_exit(comp, r) else _local_steps(comp, r, succ, exits)[0]

    start: list[Local] = [en]
    return frozenset(r for r in closure(start, step) if isinstance(r, str) and _is_exit(comp, r))


def _is_exit(comp: Component, r: Local) -> bool:
    return isinstance(r, str) and comp.node(r).is_exit


Key = tuple[str, Local]


def _diverging(members: list[Component], succs: dict[str, dict[Ref, list[Ref]]],
               exits: Mapping[tuple[str, str], frozenset[str]],
               callees_diverging: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The members' entries from which some run never returns: those that reach a cycle of the
    graph whose steps are local edges, descents into members, jumps over calls that return and
    calls into a callee outside the SCC that can run forever (a state with nowhere to go stays
    where it is, as in the checker)."""
    inside = {c.name for c in members}
    graph: dict[Key, list[Key]] = {}
    for c in members:
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
                callee = c.box_map[st[0]].component
                if callee in inside:
                    out.append((callee, st[1]))
                if stuck or (callee, st[1]) in callees_diverging:
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
    return {(c, st) for c, st in closure(cyclic, pred.__getitem__) if isinstance(st, str)}
