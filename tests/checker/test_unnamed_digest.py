"""``RSM.unnamed_digest_seeing``: what verdicts are keyed by, so it must see everything a formula
over its atoms can tell apart and nothing else.  Models that differ only in the names of their
components share it (and their verdicts); a change of a seen label, an edge or a callee does not.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import check
from checker.ctl import Formula, atoms
from checker.model import RSM, Box, Component, Node, build_rsm
from tests.checker.gen import ATOMS, formulas, rsms


def renamed(model: RSM, prefix: str) -> RSM:
    """``model`` with every component named anew (boxes follow)."""
    name = {c.name: f"{prefix}{c.name}" for c in model.components}
    comps = [
        Component(
            name[c.name], c.nodes, tuple(Box(b.name, name[b.component], b.call_nodes, b.return_nodes) for b in c.boxes),
            c.edges,
        )
        for c in model.components
    ]
    return build_rsm(comps, name[model.initial_component], model.initial_node)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(rsms(recursive=False), formulas(), st.sampled_from(["f.c:g@p|", "other:", "Z"]))
def test_components_named_anew_keep_the_digest_and_the_verdict(model: RSM, formula: Formula, prefix: str) -> None:
    seen = frozenset(atoms(formula))
    again = renamed(model, prefix)
    assert again.unnamed_digest_seeing(seen) == model.unnamed_digest_seeing(seen)
    assert check(again, formula).holds == check(model, formula).holds


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(rsms(recursive=False), st.data())
def test_a_seen_label_changed_anywhere_changes_the_digest(model: RSM, data: st.DataObject) -> None:
    comp = data.draw(st.sampled_from(model.components))
    node = data.draw(st.sampled_from(comp.nodes))
    atom = data.draw(st.sampled_from(ATOMS))
    labels = node.labels ^ {atom}
    nodes = tuple(Node(n.name, labels, n.is_entry, n.is_exit) if n is node else n for n in comp.nodes)
    changed = build_rsm(
        [Component(c.name, nodes, c.boxes, c.edges) if c is comp else c for c in model.components],
        model.initial_component,
        model.initial_node,
    )
    if _reachable(model, comp.name):  # what the initial node cannot reach is no part of a verdict
        assert changed.unnamed_digest_seeing(frozenset({atom})) != model.unnamed_digest_seeing(frozenset({atom}))
    others = frozenset(ATOMS) - {atom}
    assert changed.unnamed_digest_seeing(others) == model.unnamed_digest_seeing(others)


def _reachable(model: RSM, name: str) -> bool:
    """Whether component ``name`` is the initial one or called from one that is, transitively."""
    todo, seen = [model.initial_component], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo.extend(model.by_name[c].callees)
    return name in seen


def test_which_callee_a_box_calls_is_seen_through_its_content() -> None:
    """Two callees of different content: which one each box calls is part of the digest, though
    neither name is."""
    out = Node("o", frozenset(), False, True)
    a = Component("a", (Node("e", frozenset({"x"}), True, False), out), (), (("e", "o"),))
    b = Component("b", (Node("e", frozenset(), True, False), out), (), (("e", "o"),))

    def caller(first: str, second: str) -> RSM:
        main = Component(
            "main",
            (Node("s", frozenset(), True, False), Node("t", frozenset(), False, True)),
            (Box("b0", first), Box("b1", second)),
            (("s", ("b0", "e")), (("b0", "o"), ("b1", "e")), (("b1", "o"), "t")),
        )
        return build_rsm([main, a, b], "main", "s")

    seen = frozenset({"x"})
    assert caller("a", "b").unnamed_digest_seeing(seen) != caller("b", "a").unnamed_digest_seeing(seen)
    assert caller("a", "b").unnamed_digest_seeing(frozenset()) == caller("b", "a").unnamed_digest_seeing(frozenset())


def test_a_recursive_cycle_keeps_its_names() -> None:
    """A cycle's boxes are tied to its members by name, so its digest is named (never shared with
    another cycle's: sound, if less often reused)."""
    def loop(name: str) -> RSM:
        c = Component(
            name,
            (Node("e", frozenset({"x"}), True, False), Node("o", frozenset(), False, True)),
            (Box("b", name),),
            (("e", ("b", "e")), (("b", "o"), "o"), ("e", "o")),
        )
        return build_rsm([c], name, "e")

    seen = frozenset({"x"})
    assert loop("f").unnamed_digest_seeing(seen) == loop("f").unnamed_digest_seeing(seen)
    assert loop("f").unnamed_digest_seeing(seen) != loop("g").unnamed_digest_seeing(seen)
