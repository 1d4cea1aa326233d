"""Knowledge-base reuse across checks: edits invalidate exactly the changed parts, verdicts stay right."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import KnowledgeBase, check
from checker.ctl import Formula
from checker.model import RSM, Node, build_rsm
from tests.checker.gen import ATOMS, formulas, rsms
from tests.checker.models import comp, rsm

FORMULAS = ["E F q", "A G ( p --> A F q )", "E G ~ q", "E X E X q", "A ( ~ q U p )"]


def _program(h_label: str) -> RSM:
    return rsm(
        comp("main", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>g.g0 g.g1>m2", {"f": "F", "g": "G"}),
        comp("F", "f0:entry f1:exit:p", "f0>h.h0 h.h1>f1 f0>f1", {"h": "H"}),
        comp("G", "g0:entry:q g1:exit", "g0>g1"),
        comp("H", f"h0:entry:{h_label} h1:exit", "h0>h1"),
    )


def test_edit_reuses_unchanged_components_and_keeps_verdicts() -> None:
    kb = KnowledgeBase()
    before, after = _program("r"), _program("q")
    for f in FORMULAS:
        check(before, f, "kb", kb=kb)
    hits_before = kb.hits
    for f in FORMULAS:
        reused = check(after, f, "kb", kb=kb)
        assert reused.holds is check(after, f, "lazy").holds, f
    assert kb.hits > hits_before, "nothing known about the unchanged components G was reused"


def test_recheck_of_same_model_is_answered_from_knowledge() -> None:
    kb = KnowledgeBase()
    model = _program("r")
    first = check(model, "A G ( p --> A F q )", "kb", kb=kb)
    second = check(model, "A G ( p --> A F q )", "kb", kb=kb)
    assert first.holds is second.holds
    assert second.stats["kb_hits"] > 0


def test_recursive_cycle_with_differently_sized_components() -> None:
    """Smallest case found by hypothesis: A and B share one deep digest (one recursive cycle)."""
    m = rsm(
        comp("A", "a0:entry a1 a2", "a0>x.b0 a0>a1 a1>a1 a2>a1", {"x": "B"}),
        comp("B", "b0:entry b1:exit", "b0>b1", {"y": "A"}),
    )
    assert check(m, "~ a", "kb").holds is check(m, "~ a", "lazy").holds is True


@st.composite
def edits(draw: st.DrawFn, model: RSM) -> RSM:
    """The model with one node's labels replaced in one component."""
    c = draw(st.sampled_from(model.components))
    i = draw(st.integers(0, len(c.nodes) - 1))
    labels = frozenset(draw(st.sets(st.sampled_from(ATOMS))))
    nodes = tuple(
        replace(n, labels=labels) if j == i else Node(n.name, n.labels, n.is_entry, n.is_exit)
        for j, n in enumerate(c.nodes)
    )
    comps = [replace(c, nodes=nodes, _index={}) if x is c else x for x in model.components]
    return build_rsm(comps, model.initial_component, model.initial_node)


@pytest.mark.slow
@settings(max_examples=300)
@given(st.data(), rsms(recursive=False), st.lists(formulas(), min_size=1, max_size=3))
def test_random_edits_with_shared_knowledge_match_fresh_checks(
    data: st.DataObject, model: RSM, fs: list[Formula]
) -> None:
    kb = KnowledgeBase()
    for f in fs:
        assert check(model, f, "kb", kb=kb).holds is check(model, f, "lazy").holds
    edited = data.draw(edits(model))
    for f in fs:
        assert check(edited, f, "kb", kb=kb).holds is check(edited, f, "lazy").holds, f
