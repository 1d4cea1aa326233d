"""Random RSMs and formulas: every strategy against the brute-force oracle and against each other.

Non-recursive RSMs have a finite configuration graph, so the oracle is exact and every strategy must
match it.  Recursive ones are unfolded to a stack-depth bound; the three-valued oracle is then sound
but may say "unknown", so the strategies must agree with each other and with every decided verdict.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from checker import STRATEGIES, check
from checker.api import _has_existential_top
from checker.ctl import Formula, Not, normalize
from checker.model import RSM
from tests.checker.gen import formulas, rsms
from tests.checker.oracle import Labeller, build_graph
from tests.checker.witness_check import Replay


def _verdicts(model: RSM, f: Formula) -> dict[str, bool]:
    return {s: check(model, f, s).holds for s in STRATEGIES}


@pytest.mark.slow
@settings(max_examples=1200)
@given(rsms(recursive=False), formulas())
def test_non_recursive_matches_oracle(model: RSM, f: Formula) -> None:
    expected = Labeller(build_graph(model)).value(f)
    assert expected is not None
    assert _verdicts(model, f) == dict.fromkeys(STRATEGIES, expected), f"{f} on {model.to_json()}"


@pytest.mark.slow
@settings(max_examples=800)
@given(rsms(recursive=True), formulas())
def test_recursive_lazy_and_exhaustive_agree_with_decided_oracle(model: RSM, f: Formula) -> None:
    lazy, eager = check(model, f, "lazy").holds, check(model, f, "exhaustive").holds
    assert lazy is eager, f"lazy {lazy} but exhaustive {eager} on {f}"
    bounded = Labeller(build_graph(model, max_states=3000)).value(f)
    if bounded is not None:
        assert lazy is bounded, f"{f}: engine {lazy}, sound bounded oracle {bounded}"


@pytest.mark.slow
@settings(max_examples=300)
@given(rsms(recursive=True), formulas())
def test_recursive_knowledge_base_agrees(model: RSM, f: Formula) -> None:
    """Recursive cycles share one deep digest, the case where knowledge keys could collide."""
    assert check(model, f, "kb").holds is check(model, f, "lazy").holds


@pytest.mark.slow
@settings(max_examples=600)
@given(rsms(recursive=False), formulas())
def test_witnesses_replay(model: RSM, f: Formula) -> None:
    result = check(model, f, "lazy", witness=True)
    target = normalize(f) if result.holds else normalize(Not(f))
    if not _has_existential_top(target):
        assert result.witness is None
        return
    assert result.witness is not None, f"no witness for {target}"
    replay = Replay(model, result.witness, result.loop_start)
    replay.check_transitions()
    assert replay.proves(target), f"path {result.witness} does not prove {target}"
