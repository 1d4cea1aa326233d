"""The oracles themselves: textbook explicit-CTL cases, the three-valued bound, and the use-def check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import check
from checker.ctl import parse
from checker.model import RSM
from tests.checker.gen import ATOMS, rsms
from tests.checker.models import comp, rsm
from tests.checker.oracle import Labeller, UseDefOracle, build_graph, call_depth, oracle_check, unfold


def _kripke(nodes: str, edges: str) -> RSM:
    return rsm(comp("K", nodes, edges))


def test_o1_trivial_scc_does_not_satisfy_eg() -> None:
    m = _kripke("s0:entry s1:p", "s0>s1 s1>s1")
    assert oracle_check(m, "E G ~ p") is False
    assert oracle_check(m, "A F p") is True


def test_o2_self_loop_singleton_satisfies_eg() -> None:
    m = _kripke("s0:entry s1:p", "s0>s0 s0>s1 s1>s1")
    assert oracle_check(m, "A F p") is False
    assert oracle_check(m, "E F p") is True


def test_o3_until_marks_predecessors() -> None:
    m = _kripke("s0:entry:q s1:q s2:r", "s0>s1 s1>s2 s2>s2")
    assert oracle_check(m, "E ( q U r )") is True
    assert oracle_check(m, "A ( q U r )") is True
    assert oracle_check(m, "A G q") is False


def test_o4_cycle_without_p_state_loop() -> None:
    m = _kripke("s0:entry s1:p s2", "s0>s1 s1>s2 s2>s0")
    assert oracle_check(m, "E G ~ p") is False
    assert oracle_check(m, "E F A F p") is True


def test_sink_without_successor_loops_and_top_exit_loops() -> None:
    m = _kripke("s0:entry s1:p s2:exit", "s0>s1")
    assert oracle_check(m, "A X A X A G p") is True
    m2 = _kripke("s0:entry s1:exit:p", "s0>s1")
    assert oracle_check(m2, "A X A G p") is True


def test_o6_stack_growing_counterexample_is_unknown_to_the_bound_but_ef_is_decided() -> None:
    m = rsm(
        comp("top", "t0:entry t1:done t2:exit", "t0>r.r0 r.r1>t1 t1>t2", {"r": "R"}),
        comp("R", "r0:entry r1:exit", "r0>rr.r0 rr.r1>r1 r0>r1", {"rr": "R"}),
    )
    assert call_depth(m) is None
    assert oracle_check(m, "E F done") is True
    assert oracle_check(m, "A F done") is None  # only infinite recursion refutes it
    assert check(m, "A F done").holds is False


def test_bound_marks_truncated_states_and_non_recursive_is_exact() -> None:
    rec = rsm(comp("R", "r0:entry r1:exit", "r0>b.r0 b.r1>r1 r0>r1", {"b": "R"}))
    g = unfold(rec, 3)
    assert g is not None and g.truncated and max(len(s[0]) for s in g.states) == 4
    flat = rsm(
        comp("A", "a0:entry a1:exit", "a0>b.f0 b.f1>a1", {"b": "F"}), comp("F", "f0:entry f1:exit", "f0>f1")
    )
    assert call_depth(flat) == 1 and build_graph(flat).exact


atom_sets = st.sets(st.sampled_from(ATOMS), min_size=1).map(frozenset)


def _usedef_text(premise: frozenset[str], goal: frozenset[str]) -> str:
    return f"A G ( ( {' | '.join(sorted(premise))} ) --> E F ( {' | '.join(sorted(goal))} ) )"


@pytest.mark.slow
@settings(max_examples=400)
@given(rsms(recursive=False), atom_sets, atom_sets)
def test_usedef_oracle_matches_explicit_oracle(
    model: RSM, premise: frozenset[str], goal: frozenset[str]
) -> None:
    explicit = Labeller(build_graph(model)).value(parse(_usedef_text(premise, goal)))
    assert UseDefOracle(model).check(premise, goal)[0] is explicit


@pytest.mark.slow
@settings(max_examples=300)
@given(rsms(recursive=True), atom_sets, atom_sets)
def test_usedef_oracle_matches_engine_and_bound_on_recursive(
    model: RSM, premise: frozenset[str], goal: frozenset[str]
) -> None:
    text = _usedef_text(premise, goal)
    exact, _ = UseDefOracle(model).check(premise, goal)
    bounded = oracle_check(model, text, max_states=3000)
    assert bounded in (exact, None)
    assert check(model, text, "lazy").holds is exact
