"""The cone-of-influence reduction against the unreduced check and the brute-force oracle.

Formulas here use one atom and no EX, so that many random components carry none of the formula's
atoms and get collapsed, recursive and multi-exit ones (with exits a box does not expose) included.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import check
from checker.ctl import AF, AG, AU, AW, EF, EG, EU, EW, And, Atom, FalseF, Formula, Implies, Not, Or, TrueF
from checker.model import RSM
from checker.reduction import reduce_for_atoms
from tests.checker.conftest import bench_rsm
from tests.checker.gen import rsms
from tests.checker.oracle import Labeller, build_graph


def _stutter_invariant() -> st.SearchStrategy[Formula]:
    leaves: st.SearchStrategy[Formula] = st.sampled_from([Atom("a"), Atom("a"), TrueF(), FalseF()])

    def extend(inner: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            st.builds(lambda op, x: op(x), st.sampled_from((Not, EF, EG, AF, AG)), inner),
            st.builds(lambda op, x, y: op(x, y), st.sampled_from((And, Or, Implies, EU, EW, AU, AW)), inner, inner),
        )

    strat = leaves
    for _ in range(3):
        strat = st.one_of(leaves, extend(strat))
    return strat


@pytest.mark.slow
@settings(max_examples=800)
@given(rsms(recursive=False), _stutter_invariant())
def test_reduced_check_matches_the_oracle(model: RSM, f: Formula) -> None:
    expected = Labeller(build_graph(model)).value(f)
    for strategy in ("lazy", "exhaustive"):
        assert check(model, f, strategy).holds is expected, f"{strategy}: {f} on {model.to_json()}"


@pytest.mark.slow
@settings(max_examples=800)
@given(rsms(recursive=True), _stutter_invariant())
def test_reduced_and_full_checks_agree_on_recursive_models(model: RSM, f: Formula) -> None:
    full = check(model, f, "exhaustive", reduce=False).holds
    assert check(model, f, "lazy").holds is full, f"{f} on {model.to_json()}"
    assert check(model, f, "exhaustive").holds is full, f"{f} on {model.to_json()}"


def test_collapses_every_callee_without_the_atoms() -> None:
    model = bench_rsm("example.rsm")
    reduced = reduce_for_atoms(model, frozenset({"nothing-has-this"}))
    assert [c.name for c in reduced.components] == [model.initial_component]
    assert not reduced.components[0].boxes
    assert reduce_for_atoms(model, frozenset({"blue", "black", "red", "green"})) is model or all(
        c.boxes == model.component(c.name).boxes for c in reduced.components
    )


def test_benchmark_contexts_drop_with_the_same_verdict() -> None:
    from checker.rsm_json import load_ctl, load_rsm
    from tests.checker.conftest import bench_file

    path = bench_file("avroraReg.zip")
    model = load_rsm(path)
    f = load_ctl(path)[0][1]
    full, reduced = check(model, f, reduce=False), check(model, f)
    assert full.holds is reduced.holds is False
    assert reduced.stats["contexts"] * 5 < full.stats["contexts"]


def test_callee_node_that_is_entry_and_exit_keeps_call_and_return_apart() -> None:
    """Entering ``C1`` at ``n`` is already leaving it: the collapsed call steps to the return node,
    which must not inherit the call's summary edges (a self-loop there would invent ``E G ~a``)."""
    from checker.model import Box, Component, Node, build_rsm

    callee = Component("C1", (Node("n", frozenset(), is_entry=True, is_exit=True),))
    caller = Component(
        "C0",
        (Node("e", frozenset({"a"}), is_entry=True), Node("x", frozenset({"a"}), is_exit=True)),
        (Box("b", "C1"),),
        (("e", ("b", "n")), (("b", "n"), "x")),
    )
    model = build_rsm([caller, callee], "C0", "e")
    for f in ("E F E G ~ a", "A G ( ~ a --> A F a )", "E ( a U ~ a )"):
        assert check(model, f).holds is check(model, f, "exhaustive", reduce=False).holds, f
    assert check(model, "E F E G ~ a").holds is False


def test_a_shared_component_is_summarised_again_when_its_callee_changes() -> None:
    """A component's summary is kept on the component for its callees' summaries: the same ``mid``
    over a ``leaf`` that returns and over one that loops for ever collapses differently (a caller
    of the looping one can stay in the call for ever, so ``E G ~ a`` holds there)."""
    from checker.model import Box, Component, Node

    def leaf(loops: bool) -> Component:
        nodes = (Node("e", frozenset(), is_entry=True), Node("x", frozenset(), is_exit=True))
        return Component("leaf", nodes, (), (("e", "e"),) if loops else (("e", "x"),))

    mid = Component(
        "mid",
        (Node("e", frozenset(), is_entry=True), Node("x", frozenset(), is_exit=True)),
        (Box("b", "leaf", ("e",), ("x",)),),
        (("e", ("b", "e")), (("b", "x"), "x")),
    )
    top = Component(
        "top",
        (Node("s", frozenset(), is_entry=True), Node("t", frozenset({"a"}), is_exit=True)),
        (Box("m", "mid", ("e",), ("x",)),),
        (("s", ("m", "e")), (("m", "x"), "t")),
    )
    verdicts = []
    for loops in (False, True):
        model = RSM((top, mid, leaf(loops)), "top", "s")  # the very same top and mid objects
        assert len(reduce_for_atoms(model, frozenset({"a"})).components) == 1
        verdicts.append(check(model, "E G ~ a").holds)
        assert verdicts[-1] is check(model, "E G ~ a", "exhaustive", reduce=False).holds
    assert verdicts == [False, True]
