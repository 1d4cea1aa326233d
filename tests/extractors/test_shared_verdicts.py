"""Verdicts are keyed by what a rule sees of a value's model, not by the names of its function
and value: two functions of the same shape run one set of model checks between them, and report
what each would alone."""

from __future__ import annotations

from extractors.api import Project

BODY = "{{ char *{v} = malloc(8); if (!{v}) return; {v}[0] = 1; free({v}); {v}[1] = 2; }}"


def test_two_functions_of_one_shape_share_their_verdicts() -> None:
    alone = Project()
    alone.update_file("a.c", "#include <stdlib.h>\nvoid f(void) " + BODY.format(v="p") + "\n")
    one = alone.check()["a.c"]
    runs = alone.counters["checks_run"]
    assert runs > 0 and [f.rule_id for f in one] == ["use-after-free"]

    both = Project()
    text = "#include <stdlib.h>\nvoid f(void) " + BODY.format(v="p") + "\nvoid g(void) " + BODY.format(v="q") + "\n"
    both.update_file("a.c", text)
    found = both.check()["a.c"]
    rows = [(f.rule_id, f.location.start_line) for f in found]  # rows count from 0
    assert rows == [("use-after-free", 1), ("use-after-free", 2)]
    assert both.counters["checks_run"] == runs
    assert both.counters["checks_reused"] == runs
