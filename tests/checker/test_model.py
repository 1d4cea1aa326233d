"""Model rules enforced by ``build_rsm`` and the content digests the knowledge base is keyed by."""

from __future__ import annotations

import pytest

from checker.model import Box, Component, ModelError, Node, build_rsm
from tests.checker.models import comp, rsm


def _two() -> tuple[Component, Component]:
    return (
        comp("main", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2", {"f": "F"}),
        comp("F", "f0:entry:q f1:exit", "f0>f1"),
    )


@pytest.mark.parametrize(
    ("components", "init", "message"),
    [
        ([comp("A", "a:entry", "a>b.x", {"b": "Nope"})], ("A", "a"), "unknown component 'Nope'"),
        ([comp("A", "a:entry b:exit", "a>c")], ("A", "a"), "'c' is not a node"),
        ([comp("A", "a:entry b:exit", "b>a")], ("A", "a"), "edge leaves exit 'b'"),
        ([comp("A", "a:entry b:exit", "a>x.b")], ("A", "a"), "unknown box 'x'"),
        ([comp("A", "a:entry b:exit", "a>b")], ("B", "a"), "initial component 'B' does not exist"),
        ([comp("A", "a:entry b:exit", "a>b")], ("A", "b"), "not an entry"),
        ([comp("A", "a:entry b:exit", "a>b"), comp("A", "c:entry")], ("A", "a"), "duplicate component"),
        ([*_two()[:1], comp("F", "f0:entry:q f1:exit", "f0>f1")], ("main", "m0"), None),
    ],
)
def test_build_rsm_rules(components: list[Component], init: tuple[str, str], message: str | None) -> None:
    if message is None:
        build_rsm(components, *init)
        return
    with pytest.raises(ModelError, match=message):
        build_rsm(components, *init)


def test_box_edges_must_use_callee_entries_and_exits() -> None:
    f = comp("F", "f0:entry f1:exit", "f0>f1")
    with pytest.raises(ModelError, match="not a call node"):
        build_rsm([comp("A", "a:entry z:exit", "a>b.f1", {"b": "F"}), f], "A", "a")
    with pytest.raises(ModelError, match="not a return node"):
        build_rsm([comp("A", "a:entry z:exit", "b.f0>z", {"b": "F"}), f], "A", "a")
    with pytest.raises(ModelError, match="not an entry"):
        build_rsm([Component("A", (Node("a", is_entry=True),), (Box("b", "F", ("f1",), ()),)), f], "A", "a")


def test_duplicate_node_is_rejected() -> None:
    with pytest.raises(ModelError, match="duplicate node 'a'"):
        Component("A", (Node("a"), Node("a")))


def test_boxes_without_lists_expose_all_entries_and_exits() -> None:
    m = rsm(
        comp("A", "a:entry z:exit", "a>b.f0 b.f2>z", {"b": "F"}),
        comp("F", "f0:entry f1:entry f2:exit f3:exit"),
    )
    box = m.component("A").box_map["b"]
    assert box.call_nodes == ("f0", "f1") and box.return_nodes == ("f2", "f3")


def test_digest_equal_for_equal_content_and_differs_on_any_change() -> None:
    a, _ = _two()
    same = comp("main", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2", {"f": "F"})
    assert a is not same and a.digest == same.digest
    variants = [
        comp("main", "m0:entry:q m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2", {"f": "F"}),  # label
        comp("main", "m0:entry:p m1:exit m2:exit", "m0>f.f0 f.f1>m1", {"f": "F"}),  # exit flag + edge
        comp("main", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2 m1>m1", {"f": "F"}),  # edge
        comp("main", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2", {"f": "G"}),  # callee
        comp("main", "m0:entry:p m1 m3:exit", "m0>f.f0 f.f1>m1 m1>m3", {"f": "F"}),  # node name
        comp("main2", "m0:entry:p m1 m2:exit", "m0>f.f0 f.f1>m1 m1>m2", {"f": "F"}),  # name
    ]
    digests = {v.digest for v in variants}
    assert a.digest not in digests and len(digests) == len(variants)


def test_deep_digests_follow_callers_only() -> None:
    base = rsm(
        comp("main", "m0:entry m1:exit", "m0>f.f0 f.f1>m1 m0>g.g0 g.g1>m1", {"f": "F", "g": "G"}),
        comp("F", "f0:entry f1:exit", "f0>h.h0 h.h1>f1", {"h": "H"}),
        comp("G", "g0:entry g1:exit", "g0>g1"),
        comp("H", "h0:entry h1:exit", "h0>h1"),
    )
    edited = rsm(
        base.component("main"),
        base.component("F"),
        base.component("G"),
        comp("H", "h0:entry:changed h1:exit", "h0>h1"),
    )
    before, after = base.deep_digests, edited.deep_digests
    assert before["G"] == after["G"]
    for name in ("H", "F", "main"):
        assert before[name] != after[name], name
    assert base.component("F").digest == edited.component("F").digest


def test_deep_digests_of_a_recursive_cycle_are_shared_and_change_together() -> None:
    m = rsm(
        comp("A", "a0:entry a1:exit", "a0>b.b0 b.b1>a1", {"b": "B"}),
        comp("B", "b0:entry b1:exit", "b0>a.a0 a.a1>b1 b0>b1", {"a": "A"}),
        comp("C", "c0:entry c1:exit", "c0>c1"),
    )
    d = m.deep_digests
    assert d["A"] == d["B"] != d["C"]
    edited = rsm(
        m.component("A"),
        comp("B", "b0:entry:x b1:exit", "b0>a.a0 a.a1>b1 b0>b1", {"a": "A"}),
        m.component("C"),
    )
    assert edited.deep_digests["A"] != d["A"] and edited.deep_digests["C"] == d["C"]


def test_without_boxes_leads_each_call_straight_to_where_its_returns_lead() -> None:
    """Two calls in a row and a call with two exits: what led into the first call leads to every
    node the returns reach; nodes and labels stay, boxes go, and a component without boxes is kept."""
    main = comp(
        "main",
        "m0:entry:p m1 m2:q m3:exit",
        "m0>a.g0 a.g1>b.g0 b.g1>m1 b.g2>m2 m1>m3 m2>m3",
        {"a": "G", "b": "G"},
    )
    g = comp("G", "g0:entry g1:exit g2:exit", "g0>g1 g0>g2")
    built = rsm(main, g).component("main")
    flat = built.without_boxes
    assert flat.boxes == () and flat.nodes == built.nodes
    assert sorted(flat.edges) == [("m0", "m1"), ("m0", "m2"), ("m1", "m3"), ("m2", "m3")]
    assert g.without_boxes is g


def test_components_are_memo_keys_by_content_not_identity() -> None:
    """The compiled-component memo is keyed by the components themselves: an equal component built
    again (another object) finds the same entry, and a different one does not."""
    from checker.compiled import Compiled, compile_shared
    from checker.model import RSM, Component, Node

    def build(label: str) -> RSM:
        comp = Component("f", (Node("en", frozenset({label}), True, False), Node("ex", frozenset(), False, True)),
                         (), (("en", "ex"),))
        return RSM((comp,), "f", "en")

    a, b, c = build("p"), build("p"), build("q")
    assert a.component("f") is not b.component("f")
    assert hash(a.component("f")) == hash(b.component("f"))
    shared: dict[tuple[Component, ...], Compiled] = {}
    assert compile_shared(a.component("f"), a, shared) is compile_shared(b.component("f"), b, shared)
    assert compile_shared(c.component("f"), c, shared) is not compile_shared(a.component("f"), a, shared)
    assert len(shared) == 2
    assert compile_shared(a.component("f"), a) is not compile_shared(b.component("f"), b)  # none kept
