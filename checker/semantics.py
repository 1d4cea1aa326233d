"""Semantics conventions for JSON RSMs: the exact one, and the one the published RSMCheck tool uses.

The published verdicts of the RSM benchmarks (Table 1 of seeds 000/002) differ from the exact RSM
semantics on four of six models.  The difference is one convention of the published tool about a
call whose call node is a callee entry that is *also* an exit (an empty Java method such as
``Dataflow.a()``; the papers' RSM definition forbids such nodes, the benchmark files have hundreds):

* ``exact`` (default): entering the callee at that node leaves it at once, so the run continues at
  the box's return node, as the empty method returns.
* ``rsmcheck``: the run stops at the call node.  RSMCheck makes a call node and a return node two
  separate objects even for the same callee node (``Component.add_box`` in ``src/model/rsm.py``),
  and the successors of a call node are those of the callee entry inside the callee
  (``check_until``/``check_always``/``check_next`` in ``src/utils.py``).  An exit has no outgoing
  transitions, so such a call node has none: ``E U`` ends there, ``E G`` treats it as an implicit
  self-loop, and nothing after the call is reachable through it.

:func:`rsmcheck_view` expresses that convention as a model transformation, so every strategy, the
oracles and the witnesses of this package apply unchanged: each edge into such a call node is
redirected to a fresh plain node with the entry's labels and no successors (a sink, which loops
here).  Known remaining difference: on such sinks (and on every other non-exit node without
successors) RSMCheck makes ``E X`` false, this package reads ``E X p`` as ``p``; the benchmark
formulas have no ``E X``.
"""

from __future__ import annotations

from checker.model import RSM, Component, Node, Ref, build_rsm

SEMANTICS = ("exact", "rsmcheck")
DEAD_END_SUFFIX = "#dead-end"


def dead_end_calls(rsm: RSM) -> list[tuple[str, str, str]]:
    """``(component, box, callee node)`` of every call node that is also an exit of its callee.

    These are the only places where the two conventions disagree, so listing them tells at once
    whether a model's verdicts can depend on the choice.
    """
    out: list[tuple[str, str, str]] = []
    for c in rsm.components:
        for b in c.boxes:
            callee = rsm.component(b.component)
            out.extend((c.name, b.name, en) for en in b.call_nodes if callee.node(en).is_exit)
    return out


def _fresh_name(component: Component, box: str, node: str, taken: set[str]) -> str:
    """A node name that says which call it stands for and cannot clash with an existing node."""
    base = f"{box}:{node}{DEAD_END_SUFFIX}"
    name, i = base, 1
    while component.has_node(name) or name in taken:
        i += 1
        name = f"{base}{i}"
    taken.add(name)
    return name


def _cut_dead_end_calls(rsm: RSM, component: Component) -> Component:
    """``component`` with each edge into a dead-end call node sent to a label-equal sink instead.

    The box and its return edges stay: other call nodes of the same box may still return, and an
    unreachable return node changes no verdict.
    """
    sinks: dict[tuple[str, str], Node] = {}
    taken: set[str] = set()
    for b in component.boxes:
        callee = rsm.component(b.component)
        for en in b.call_nodes:
            entry = callee.node(en)
            if entry.is_exit:
                sinks[(b.name, en)] = Node(_fresh_name(component, b.name, en, taken), entry.labels)
    if not sinks:
        return component

    def target(ref: Ref) -> Ref:
        if isinstance(ref, str):
            return ref
        sink = sinks.get(ref)
        return ref if sink is None else sink.name

    edges = tuple((s, target(t)) for s, t in component.edges)
    return Component(component.name, component.nodes + tuple(sinks.values()), component.boxes, edges)


def rsmcheck_view(rsm: RSM) -> RSM:
    """The RSM whose exact semantics is RSMCheck's semantics of ``rsm`` (see the module docstring).

    Models without dead-end calls come back unchanged (the very same object), so choosing the
    convention costs nothing and changes nothing on them.
    """
    if not dead_end_calls(rsm):
        return rsm
    comps = [_cut_dead_end_calls(rsm, c) for c in rsm.components]
    return build_rsm(comps, rsm.initial_component, rsm.initial_node)


def apply_semantics(rsm: RSM, semantics: str) -> RSM:
    """``rsm`` read under the named convention, one of :data:`SEMANTICS`."""
    if semantics == "exact":
        return rsm
    if semantics == "rsmcheck":
        return rsmcheck_view(rsm)
    raise ValueError(f"unknown semantics {semantics!r}; choose one of {', '.join(SEMANTICS)}")
