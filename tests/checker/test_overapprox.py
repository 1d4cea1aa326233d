"""The supergraph bound against the brute-force oracle: a formula that holds at a configuration
may hold at its node, and one that must hold at a node holds at every configuration there."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from checker import check
from checker.api import _prepare, _run
from checker.ctl import Formula, normalize, parse, subformulas
from checker.model import RSM, Box, Component, Node, build_rsm
from checker.overapprox import may_hold, node_bounds
from checker.ternary import TT
from tests.checker.gen import formulas, rsms
from tests.checker.oracle import Labeller, build_graph


def _assert_bounds_hold(model: RSM, f: Formula) -> None:
    labeller = Labeller(build_graph(model, max_states=3000))
    states = labeller.g.states
    # the verdict's bound computes only the sides it needs, and must read the same
    assert may_hold(model, f) is ((model.initial_component, model.initial_node) in node_bounds(model, f)[0])
    for g in subformulas(normalize(f)):
        may, must = node_bounds(model, g)
        surely, possibly = labeller.sets(g)
        for i, (_, comp, node) in enumerate(states):
            if i in surely:
                assert (comp, node) in may, f"{g} holds at {states[i]} outside its bound"
            if (comp, node) in must:
                assert i in possibly, f"{g} fails at {states[i]} though it must hold at its node"


@pytest.mark.slow
@settings(max_examples=600)
@given(rsms(recursive=False), formulas())
def test_bounds_contain_the_exact_labelling(model: RSM, f: Formula) -> None:
    _assert_bounds_hold(model, f)


@pytest.mark.slow
@settings(max_examples=400)
@given(rsms(recursive=True), formulas())
def test_bounds_contain_the_decided_labelling_of_recursive_models(model: RSM, f: Formula) -> None:
    _assert_bounds_hold(model, f)


@pytest.mark.slow
@settings(max_examples=150)
@given(rsms(recursive=True), formulas())
def test_a_formula_the_bound_rules_out_is_false(model: RSM, f: Formula) -> None:
    if not may_hold(model, f):
        engine = _run(model, _prepare(f)[1], "exhaustive", None, None)
        assert engine.root_value() != TT, f"{f} holds on {model.to_json()}"


def _caller_and_callee() -> RSM:
    """``main`` calls ``g`` twice; only after the second call does it reach ``use``, and only
    before the first does it set ``null``."""
    g = Component("g", (Node("ge", frozenset(), is_entry=True), Node("gx", frozenset(), is_exit=True)),
                  (), (("ge", "gx"),))
    nodes = (
        Node("m0", frozenset(), is_entry=True),
        Node("m1", frozenset({"null"})),
        Node("m2", frozenset({"def"})),
        Node("m3", frozenset({"use"})),
        Node("m4", frozenset(), is_exit=True),
    )
    main = Component(
        "main", nodes, (Box("b1", "g"), Box("b2", "g")),
        (("m0", "m1"), ("m1", ("b1", "ge")), (("b1", "gx"), "m4"), ("m0", "m2"), ("m2", ("b2", "ge")),
         (("b2", "gx"), "m3"), ("m3", "m4")),
    )
    return build_rsm([main, g], "main", "m0")


def test_the_bound_rules_out_a_use_no_path_reaches() -> None:
    model = _caller_and_callee()
    assert not may_hold(model, parse("E F (def & E X E F null)"))
    assert check(model, parse("E F (def & E X E F null)")).stats.get("bounded") == 1


def test_a_path_back_to_the_wrong_caller_keeps_the_check() -> None:
    """On the supergraph ``g``'s exit leads to both return points, so ``null`` seems to reach
    ``use``: the bound cannot rule it out, and the stack-aware check says false."""
    model = _caller_and_callee()
    f = parse("E F (null & E X E (~def U use))")
    assert may_hold(model, f)
    result = check(model, f)
    assert not result.holds and "bounded" not in result.stats


def _straight(skip_use: bool) -> RSM:
    nodes = (
        Node("m0", frozenset(), is_entry=True),
        Node("m1", frozenset({"def"})),
        Node("m2", frozenset({"use"})),
        Node("m3", frozenset(), is_exit=True),
    )
    edges = (("m0", "m1"), ("m1", "m2"), ("m2", "m3"), *((("m1", "m3"),) if skip_use else ()))
    return build_rsm([Component("main", nodes, (), edges)], "main", "m0")


def test_an_inevitable_use_bounds_a_universal_formula() -> None:
    """``A X A F use`` must hold where every supergraph path reaches ``use``: its negation is
    ruled out there, and not where a branch skips the use."""
    f = parse("E F (def & ~A X A F use)")
    assert not may_hold(_straight(skip_use=False), f)
    assert may_hold(_straight(skip_use=True), f)
    assert check(_straight(skip_use=True), f).holds
