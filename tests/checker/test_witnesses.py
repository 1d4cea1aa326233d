"""Witness and counterexample paths of the worked examples replayed on the operational semantics."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from checker import STRATEGIES, check
from checker.api import _has_existential_top
from checker.ctl import Not, normalize
from checker.model import RSM
from tests.checker.test_worked_examples import CASES
from tests.checker.witness_check import Replay


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("name", "build", "formula", "expected"), CASES, ids=[c[0] for c in CASES])
def test_worked_example_witness_replays(
    name: str, build: Callable[[], RSM], formula: str, expected: bool, strategy: str
) -> None:
    model = build()
    result = check(model, formula, strategy, witness=True)
    target = normalize(result.formula) if result.holds else normalize(Not(result.formula))
    if not _has_existential_top(target):
        assert result.witness is None
        return
    assert result.witness is not None, f"{name}: no path for {target}"
    assert result.witness_kind == ("witness" if result.holds else "counterexample")
    replay = Replay(model, result.witness, result.loop_start)
    replay.check_transitions()
    assert replay.proves(target), f"{name}: {result.witness} does not prove {target}"


def test_t1_eg_witness_is_the_published_lasso() -> None:
    """Seed 000 §4: EX EG blue is shown as n1, then the blue cycle through the box b."""
    from tests.checker.conftest import bench_rsm

    r = check(bench_rsm("example.rsm"), "E X E G blue", witness=True)
    assert r.witness is not None and r.loop_start is not None
    nodes = [(s.component, s.node, len(s.stack)) for s in r.witness]
    assert nodes[0] == ("a1", "n1", 0)
    cycle = {n for n in nodes[r.loop_start :]}
    assert {("a2", "n6", 1), ("a2", "n7", 1), ("a1", "n2", 0)} == cycle


def test_t3_eg_witness_pumps_recursion() -> None:
    """test.rsm: EG a holds only by infinite recursion, so the lasso closes with a grown stack."""
    from tests.checker.conftest import bench_rsm

    model = bench_rsm("test.rsm")
    r = check(model, "E G a", witness=True)
    assert r.witness is not None and r.loop_start is not None
    Replay(model, r.witness, r.loop_start).check_transitions()
    assert len(r.witness[-1].stack) >= len(r.witness[r.loop_start].stack)
