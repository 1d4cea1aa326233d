"""The canonical view (``checker.canonical``) against the oracle and the full check.

Random models get *stuttered* first: random nodes are split into a chain ``n -> n'`` with the same
labels, ``n'`` taking ``n``'s successors, which is what the merge undoes (and what a removed or an
added statement does to a chain of uses). Every formula must keep its verdict on the view: the
oracle on the unfolded model judges non-recursive models, the exhaustive check of the whole model
judges recursive ones.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import check
from checker.canonical import canonical, stutter_safe
from checker.ctl import EF, EU, EX, And, Formula, Not, parse
from checker.model import RSM, Component, Node, Ref, build_rsm
from tests.checker.gen import ATOMS, formulas, rsms
from tests.checker.oracle import Labeller, build_graph
from tests.checker.test_contraction import atom, rule_shapes


def stuttered(model: RSM, picks: list[int]) -> RSM:
    """``model`` with the picked non-exit nodes split into two equally labelled ones in a row."""
    comps = []
    for ci, comp in enumerate(model.components):
        split = {
            n.name
            for k, n in enumerate(comp.nodes)
            if not n.is_exit and (ci * 7 + k) in picks
        }
        nodes = list(comp.nodes)
        for n in comp.nodes:
            if n.name in split:
                nodes.append(Node(n.name + "'", n.labels))
        edges: list[tuple[Ref, Ref]] = []
        for s, t in comp.edges:
            src: Ref = s + "'" if isinstance(s, str) and s in split else s
            edges.append((src, t))
        edges += [(n, n + "'") for n in sorted(split)]
        comps.append(Component(comp.name, tuple(nodes), comp.boxes, tuple(edges)))
    return build_rsm(comps, model.initial_component, model.initial_node)


picks = st.lists(st.integers(0, 34), max_size=20)


@st.composite
def next_shapes(draw: st.DrawFn) -> Formula:
    """Formulas that count steps where a merge would show: ``x & E X y`` and its relatives."""
    x, y, z = draw(atom), draw(atom), draw(atom)
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return EF(And(x, EX(y)))
    if shape == 1:
        return EF(And(x, EX(EX(y))))
    if shape == 2:
        return EU(Not(z), And(x, EX(And(y, Not(z)))))
    if shape == 3:
        return EU(Not(x), EX(y))
    if shape == 4:
        return EF(And(x, EX(EU(Not(y), And(z, EX(x))))))
    return EF(And(x, EX(Not(EX(y)))))


shapes = st.one_of(rule_shapes(), next_shapes(), formulas())


@pytest.mark.slow
@settings(max_examples=800, deadline=None)
@given(rsms(recursive=False), shapes, picks)
def test_canonical_view_keeps_the_verdict(model: RSM, f: Formula, chosen: list[int]) -> None:
    model = stuttered(model, chosen)
    expected = Labeller(build_graph(model)).value(f)
    view = canonical(model, f)
    assert check(view, f, "exhaustive").holds is expected, f"{f} on {model.to_json()}"
    assert check(view, f, "lazy").holds is expected


@st.composite
def lines(draw: st.DrawFn) -> RSM:
    """One component: a row of 3-8 nodes with few labels, plus a few random edges (loops, skips);
    the shape of a function's statements, where chains of equal labels are common."""
    n = draw(st.integers(3, 8))
    labels = [frozenset(draw(st.sets(st.sampled_from(ATOMS[:2]), max_size=1))) for _ in range(n)]
    nodes = tuple(Node(f"m{i}", labels[i], i == 0, i == n - 1) for i in range(n))
    edges = {(f"m{i}", f"m{i + 1}") for i in range(n - 1)}
    for _ in range(draw(st.integers(0, 2))):
        s, t = draw(st.integers(0, n - 2)), draw(st.integers(1, n - 1))
        edges.add((f"m{s}", f"m{t}"))
    return build_rsm([Component("C", nodes, (), tuple(sorted(edges)))], "C", "m0")


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(lines(), st.one_of(rule_shapes(), next_shapes()), picks)
def test_canonical_view_keeps_the_verdict_on_rows_of_statements(model: RSM, f: Formula, chosen: list[int]) -> None:
    model = stuttered(model, chosen)
    expected = Labeller(build_graph(model)).value(f)
    assert check(canonical(model, f), f, "exhaustive").holds is expected, f"{f} on {model.to_json()}"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rsms(recursive=True), st.one_of(rule_shapes(), next_shapes(), formulas(max_depth=2)), picks)
def test_canonical_view_keeps_the_verdict_on_recursive_models(model: RSM, f: Formula, chosen: list[int]) -> None:
    model = stuttered(model, chosen)
    view = canonical(model, f)
    assert check(view, f, "exhaustive").holds is check(model, f, "exhaustive").holds, f"{f} on {model.to_json()}"


def chain(labels: list[set[str]], names: list[str] | None = None) -> RSM:
    names = names or [f"m{i}" for i in range(len(labels))]
    nodes = [Node("s", frozenset(), True, False)]
    nodes += [Node(name, frozenset(lab)) for name, lab in zip(names, labels, strict=True)]
    nodes.append(Node("t", frozenset(), False, True))
    order = [n.name for n in nodes]
    return build_rsm([Component("C", tuple(nodes), (), tuple(zip(order, order[1:], strict=False)))], "C", "s")


USE_AFTER_FREE = parse("E F (free & E X E (~def U use))")
DOUBLE_FREE = parse("E F (free & E X E (~def U free))")


def test_a_chain_of_uses_is_one_node_for_use_after_free() -> None:
    """Ten uses in a row or eleven: the same view, so an edit removing one keeps the callers' results."""
    ten = canonical(chain([{"free"}] + [{"use"}] * 10), USE_AFTER_FREE)
    eleven = canonical(chain([{"free"}] + [{"use"}] * 11), USE_AFTER_FREE)
    assert len(ten.component("C").nodes) == 4
    assert ten.component("C").digest == eleven.component("C").digest


def test_a_chain_of_frees_stays_for_double_free() -> None:
    """Merging two frees would hide the double free: the formula is not stutter-safe there."""
    assert not stutter_safe(DOUBLE_FREE, frozenset({"free"}))
    model = chain([{"free"}, {"free"}])
    view = canonical(model, DOUBLE_FREE)
    assert len(view.component("C").nodes) == 4
    assert check(view, DOUBLE_FREE).holds is check(model, DOUBLE_FREE).holds is True


def test_names_the_front_end_gave_leave_no_trace() -> None:
    a = canonical(chain([{"free"}, set(), {"use"}], ["k1", "k2", "k3"]), USE_AFTER_FREE)
    b = canonical(chain([{"free"}, set(), {"use"}], ["k7", "k9", "k11"]), USE_AFTER_FREE)
    assert a.component("C").digest == b.component("C").digest


def test_views_of_different_models_share_their_nodes_and_edges() -> None:
    """Views name nodes by position, so the views of a big check repeat the same names, nodes and
    edges: each is one object, however many views hold it."""
    a = canonical(chain([{"free"}, {"def"}, {"use"}], ["k1", "k2", "k3"]), USE_AFTER_FREE).component("C")
    longer = chain([{"free"}, {"def"}, {"use"}, {"free"}], ["x1", "x2", "x3", "x4"])
    b = canonical(longer, USE_AFTER_FREE).component("C")
    assert a.edges[1] == b.edges[1] == ("c1", "c2")
    assert all(x is y for x, y in zip(a.edges[:-1], b.edges, strict=False))
    assert all(x is y for x, y in zip(a.nodes[:-1], b.nodes, strict=False))
    assert a.nodes[1].name is b.nodes[1].name


def test_stutter_safety_reads_the_labels() -> None:
    """A next-step subformula is harmless where a constant decides its conjunction, and only there."""
    assert stutter_safe(USE_AFTER_FREE, frozenset({"use"}))
    assert not stutter_safe(USE_AFTER_FREE, frozenset({"free"}))
    assert stutter_safe(parse("E F a"), frozenset({"a"}))
    assert not stutter_safe(parse("E X E X a"), frozenset())
    assert not stutter_safe(parse("E F (b & E X E X a)"), frozenset())  # the outer E X reads u
