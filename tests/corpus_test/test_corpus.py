"""ctlsp on the detection corpus (``tests/corpus/``): every marked bug found, nothing else reported.

One test per case: ``ctlsp check --format json`` on the bad twin must report exactly its ``BUG(rule)``
lines, and on the fixed twin nothing.  Cases listed in ``tests/corpus/expected_misses.toml`` are strict
expected failures: when ctlsp learns the check and the case passes, the test fails until its line is
removed from the manifest.  The scorer's own tests (below the corpus test) run it on made-up reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus_test.ctlsp_runner import ctlsp_reports
from tests.corpus_test.scoring import (
    EXISTING_RULES,
    Case,
    CorpusError,
    Mark,
    Report,
    discover,
    read_expected_misses,
    score_case,
    tally,
)

CASES = discover()
MISSES = read_expected_misses(cases=CASES)


def _param(case: Case) -> object:
    reason = MISSES.get(case.id)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case: Case) -> None:
    score = score_case(case, ctlsp_reports(case.bad), ctlsp_reports(case.fixed))
    assert score.ok, score.explain()


def test_corpus_covers_every_rule_with_cases_ctlsp_passes() -> None:
    """Each of ctlsp's rules has cases, and at least one of them is not an expected miss."""
    for rule in EXISTING_RULES:
        ids = [c.id for c in CASES if c.rule == rule]
        assert ids, f"no case for {rule}"
        assert any(i not in MISSES for i in ids), f"every case of {rule} is an expected miss"


# ----- the scorer on made-up reports (no tool runs) ----------------------------------------------
def _corpus(tmp: Path, bad: str, fixed: str = "int f(void) { return 0; }\n") -> Case:
    case_dir = tmp / "double-free" / "one"
    case_dir.mkdir(parents=True)
    (case_dir / "bad.c").write_text(bad)
    (case_dir / "fixed.c").write_text(fixed)
    [case] = discover(tmp)
    return case


BAD = "void f(char *p) {\n    free(p);\n    free(p); /* BUG(double-free) */\n}\n"


def test_exact_scoring_counts_found_missed_and_false(tmp_path: Path) -> None:
    case = _corpus(tmp_path, BAD)
    assert case.marks() == {Mark("bad.c", 3, "double-free")}
    hit = Report("bad.c", 3, "double-free")
    assert score_case(case, [hit], []).ok
    wrong_line = score_case(case, [Report("bad.c", 2, "double-free")], [])
    assert wrong_line.missed == [Mark("bad.c", 3, "double-free")]
    assert wrong_line.false_bad == [Report("bad.c", 2, "double-free")]
    on_fixed = score_case(case, [hit], [Report("fixed.c", 1, "dead-store")])
    assert not on_fixed.ok and on_fixed.false_fixed == [Report("fixed.c", 1, "dead-store")]
    counts = tally([wrong_line, on_fixed])
    assert (counts["double-free"].found, counts["double-free"].missed, counts["double-free"].false) == (1, 1, 1)
    assert counts["dead-store"].false == 1


def test_unit_scoring_takes_any_line_of_the_rule_once(tmp_path: Path) -> None:
    case = _corpus(tmp_path, BAD)
    elsewhere = Report("bad.c", 2, "double-free")
    s = score_case(case, [elsewhere, Report("bad.c", 1, "double-free")], [], how="unit")
    assert s.found == [Mark("bad.c", 3, "double-free")]
    assert s.false_bad == [Report("bad.c", 1, "double-free")]  # the second report matches no marker left


def test_malformed_corpora_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="marker in the fixed twin"):
        _corpus(tmp_path / "a", BAD, BAD)
    with pytest.raises(CorpusError, match="no BUG"):
        _corpus(tmp_path / "b", "int f(void) { return 0; }\n")
    with pytest.raises(CorpusError, match="unknown rule"):
        _corpus(tmp_path / "c", BAD + "int g(void) { return 0; } /* BUG(no-such-rule) */\n")
    manifest = tmp_path / "m.toml"
    manifest.write_text('[[miss]]\ncase = "double-free/none"\nreason = "x"\n')
    with pytest.raises(CorpusError, match="no such case"):
        read_expected_misses(manifest, [])
