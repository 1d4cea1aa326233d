"""Every worked example of the notes, on the oracle first (which validates it) and on every strategy."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from checker import STRATEGIES, check
from checker.ctl import parse
from checker.model import RSM
from tests.checker import models
from tests.checker.conftest import bench_rsm
from tests.checker.oracle import call_depth, oracle_check

T1 = [
    ("E X E G blue", True),
    ("E X E ( blue U black )", True),
    ("A X E ( blue U red )", False),
    ("E X red | E X E ( blue U black )", True),
    ("E G blue", False),
    ("E F black", True),
    ("A F black", False),
    ("E X E X E X black", True),
    ("E X E X black", False),
    ("A G ( blue --> E F black )", False),
    ("E ( red U blue )", True),
    ("E G ( red | blue )", True),
    ("A G ( red --> E F blue )", True),
    ("E F ( black & E G black )", True),
    ("A X A X ( blue | red )", True),
]
T2 = [
    ("E G p", False),
    ("E X E G p", True),
    ("A X ( q | E G p )", True),
    ("A X E ( p U q )", False),
    ("E X q | E X E ( p U r )", True),
    ("E F ( r & E G r )", True),
    ("E G ~ r", True),
    ("A F r", False),
    ("E X E X E X r", True),
    ("E ( ~ r U ( r & E X p ) )", True),
    ("E ( ~ r U ( r & E X r ) )", True),
    ("A G ( r --> E X r )", False),
    ("A G ( r --> E F p )", False),
    ("A G ( ~ r | E G r | E X p )", True),
    ("E F ( p & E X r & E X p )", True),
]
T3 = [
    ("E G a", True),
    ("A F ~ a", False),
    ("E F ~ a", True),
    ("A G a", False),
    ("E ( a U ~ a )", True),
    ("E X E X E X ~ a", True),
    ("E X E X ~ a", False),
    ("A G E F ~ a", False),
    ("E F A G a", True),
    ("A F A G a", False),
    ("E ( a U ( a & E X ~ a ) )", True),
    ("A G ( ~ a --> A F a )", True),
    ("E F ( a & E X ~ a & E X a )", False),
    ("A G ( b --> E F a )", True),
    ("E G ~ a_2", True),
    ("a_1", False),
    ("E ( a_1 U a_4 )", False),
]
T4 = [("E G a", True), ("E ( a U b )", True)]
SEED4 = [
    ("test1", lambda: models.seed4_test1(True), "E G p", True),
    ("test1b", lambda: models.seed4_test1(False), "E G p", False),
    ("test2-goal", lambda: models.seed4_test2(True), "E ( p U q )", True),
    ("test2-nogoal", lambda: models.seed4_test2(False), "E ( p U q )", False),
    ("test2-nogoal-EG", lambda: models.seed4_test2(False), "E G p", True),
    ("test2-nogoal-EF", lambda: models.seed4_test2(False), "E F q", False),
    ("test3-EX3", models.seed4_test3, "E X E X E X q", True),
    ("test3-EX2", models.seed4_test3, "E X E X q", False),
    ("test3-notEX2", models.seed4_test3, "~ E X E X q", True),
    ("test5", models.seed4_test5, "E G p", True),
]
DATAFLOW_SINGLE = (
    "A G ( ( def__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) --> "
    "E F ( use__examples_Dataflow__int_i_ | usedef__examples_Dataflow__int_i_ ) )"
)

Case = tuple[str, Callable[[], RSM], str, bool]
CASES: list[Case] = (
    [(f"T1:{f}", lambda: bench_rsm("example.rsm"), f, e) for f, e in T1]
    + [(f"T2:{f}", models.t2_journal, f, e) for f, e in T2]
    + [(f"T3:{f}", lambda: bench_rsm("test.rsm"), f, e) for f, e in T3]
    + [(f"T4:{f}", lambda: bench_rsm("simple.rsm"), f, e) for f, e in T4]
    + [("T5:dataflow", lambda: bench_rsm("dataflow.zip"), DATAFLOW_SINGLE, False)]
    + [(f"seed4:{name}", build, f, e) for name, build, f, e in SEED4]
)
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize(("name", "build", "formula", "expected"), CASES, ids=IDS)
def test_oracle_agrees_with_notes(name: str, build: Callable[[], RSM], formula: str, expected: bool) -> None:
    model = build()
    got = oracle_check(model, parse(formula))
    if call_depth(model) is None:
        assert got in (expected, None), f"{name}: bounded oracle contradicts the notes"
    else:
        assert got is expected


def test_bounded_oracle_decides_most_recursive_examples() -> None:
    """Sanity check that the three-valued bound is not vacuous on the recursive examples."""
    recursive = [(b(), f, e) for _, b, f, e in CASES if call_depth(b()) is None]
    decided = [oracle_check(m, parse(f)) == e for m, f, e in recursive]
    assert len(recursive) >= 30
    assert sum(decided) >= len(recursive) * 2 // 3


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(("name", "build", "formula", "expected"), CASES, ids=IDS)
def test_engine_agrees_with_notes(
    name: str, build: Callable[[], RSM], formula: str, expected: bool, strategy: str
) -> None:
    assert check(build(), formula, strategy).holds is expected


def test_lazy_never_enters_unneeded_callee() -> None:
    """Seed 004 Test 5: ``EG p`` holds by the entry's self-loop, so the big callee needs no context."""
    lazy = check(models.seed4_test5(), "E G p", "lazy", reduce=False)
    eager = check(models.seed4_test5(), "E G p", "exhaustive", reduce=False)
    assert lazy.holds and eager.holds
    assert lazy.stats["contexts"] == 1
    assert lazy.stats["contexts"] < eager.stats["contexts"]
