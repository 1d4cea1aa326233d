"""The first pass of a check for a file not shown yet (``Project.check(early=...)``): the language
server shows findings before witness refutation has run on all of them (issue #14), but never one
that refutation removes.

A finding is in the first pass when its refutation is known: its verdict is in the cache, it is
cheap (no value the solver could speak of), or it fits in the pass's refutation budget
(``partial_every`` seconds); a function with any other finding is left out of the pass whole. The
check that follows reports exactly what a plain check reports, and its reports of findings so far
keep the first pass's in, so that what the editor shows only grows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.api import Finding, Project
from tests.extractors.test_refute import CORRELATED, CORRELATED_BAD
from tests.sampling import fast_sample

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

HEAD = "#include <stdlib.h>\nint consume(char *buf, int n);\nchar *g;\n"
REFUTED = CORRELATED.split("int consume(char *buf, int n);\n")[1]  # pack: a false double free z3 rules out
KEPT = CORRELATED_BAD.split("int consume(char *buf, int n);\n")[1].replace("pack(", "pack_bad(")  # z3 keeps it
CHEAP = "void twice(void)\n{\n    free(g);\n    free(g);\n}\n"  # no local: nothing for the solver
# the solver's findings first: a check that refutes as it goes shows pack_bad's before twice's
SOURCE = HEAD + KEPT + REFUTED + CHEAP


def shown(found: list[Finding]) -> list[tuple[str, str, int]]:
    return [(f.rule_id, f.function, f.location.start_line) for f in found]


def checked(
    src: str, budget: float, cache: dict[str, bytes] | None = None
) -> tuple[list[list[Finding]], list[Finding]]:
    """What ``partial`` heard, in order, and the check's findings, for ``src`` opened in a project."""
    p = Project(cache=cache) if cache is not None else Project()
    p.update_file("a.c", src)
    heard: list[list[Finding]] = []
    found = p.check(["a.c"], partial=lambda _path, f: heard.append(f), partial_every=budget, early=["a.c"])
    return heard, found["a.c"]


def plain(src: str) -> list[Finding]:
    p = Project()
    p.update_file("a.c", src)
    return p.check()["a.c"]


def test_the_first_findings_are_the_known_ones_and_the_rest_follow() -> None:
    heard, found = checked(SOURCE, budget=0.0)
    twice, pack_bad = ("double-free", "twice", 28), ("double-free", "pack_bad", 11)
    assert shown(found) == [pack_bad, twice] and found == plain(SOURCE)
    # first the cheap one, at once; pack_bad's refutation needs the solver, so it waits for the
    # check (which reports it, with twice's kept in); pack's false double free is never heard
    assert [shown(h) for h in heard] == [[twice], [pack_bad, twice]]


def test_verdicts_in_the_cache_are_known() -> None:
    """A second project with the first one's verdict cache (the CLI's disk cache, a new session):
    pack_bad's verdict is known, a new function's is not."""
    cache: dict[str, bytes] = {}
    checked(SOURCE, budget=0.0, cache=cache)
    leak = (
        "int leak(int n)\n{\n    char *p = malloc(n);\n    if (n > 2)\n        return n;\n"
        "    free(p);\n    return 0;\n}\n"
    )
    heard, found = checked(SOURCE + leak, budget=0.0, cache=cache)
    assert found == plain(SOURCE + leak)
    # pack_bad's cached verdict makes it the pass's first report (budget 0: one per growth)
    assert [shown(h) for h in heard][:2] == [
        [("double-free", "pack_bad", 11)],
        [("double-free", "pack_bad", 11), ("double-free", "twice", 28)],
    ]
    assert ("memory-leak", "leak") in {(f.rule_id, f.function) for f in found}


def test_a_long_first_pass_reports_as_it_goes() -> None:
    """A pass over many functions reports its findings so far once they grow and ``partial_every``
    has passed, as the check's own reports do, instead of all at its end: the first report holds
    the first function's finding only."""
    many = "".join(CHEAP.replace("twice", f"twice{i}") for i in range(40))
    heard, found = checked(HEAD + many, budget=0.0)
    assert found == plain(HEAD + many) and len(found) == 40
    assert [len(h) for h in heard[:3]] == [1, 2, 3]


def test_within_its_budget_the_first_pass_refutes_and_then_shows_nothing_early() -> None:
    """Every refutation fits in a generous budget: nothing is withheld, so the check's result is
    the pass's and nothing is heard before it (partial results are for long checks only)."""
    heard, found = checked(SOURCE, budget=600.0)
    assert heard == [] and found == plain(SOURCE)


@pytest.mark.parametrize(
    "case", fast_sample(sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*/*.c")))
)
def test_on_the_corpus_the_first_findings_are_findings_of_the_check(case: str) -> None:
    """Each report heard only grows and holds findings of the check only, and the check finds what a
    plain check finds (memos the first pass made are the plain check's)."""
    src = (CORPUS / case).read_text()
    heard, found = checked(src, budget=0.0)
    assert found == plain(src)
    final = set(shown(found))
    before: set[tuple[str, str, int]] = set()
    for report in heard:
        now = set(shown(report))
        assert before <= now <= final
        before = now
