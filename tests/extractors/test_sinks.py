"""Sinks (failed asserts, calls that never return) folded into one per projection."""

from __future__ import annotations

import pytest

from checker.model import Component
from extractors import kept_graph
from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.projection import Projector, make_scope
from extractors.sinks import fold_sinks, unfold
from tests.extractors.helpers import check_src, line_of, of_rule


def test_edges_into_any_sink_go_to_the_first_one() -> None:
    #   0 -> 1, 2, 3;  1, 2, 3 loop on themselves; 0 -> 4 -> 2
    succ = [[1, 2, 3, 4], [1], [2], [3], [2]]
    fold = fold_sinks(succ)
    assert fold.rep == 1 and fold.folded == {2, 3}
    assert fold.succ[0] == [1, 4] and fold.succ[4] == [1]
    assert fold.preds == {2: (0, 4), 3: (0,)}
    mine = list(fold.succ)
    unfold(fold, mine, [3])  # sink 3 is labelled for this projection: its edges come back
    assert mine[0] == [1, 3, 4] and mine[4] == [1]
    assert fold.succ[0] == [1, 4]  # the shared lists are not touched


def test_one_sink_is_not_folded() -> None:
    fold = fold_sinks([[1], [1]])
    assert fold.rep == 1 and not fold.folded and fold.succ == ([1], [1])


ASSERTS = """
void f(char *p, int a) {
    assert(a > 0);
    assert(a < 100);
    assert(p != 0);
    p[0] = 1;
    free(p);
    if (a > 50) exit(p[1]); /*UAF*/
    assert(a != 7);
}
"""


def _projection(src: str, function: str, value: str) -> Component:
    p = Project()
    p.update_file("t.c", src)
    st = p.files["t.c"].model
    pj = Projector(make_scope(list(st.functions.values()), BUILTIN, st.globals))
    name = pj.component(function, value)
    assert name is not None
    return pj.rsm(name).component(name)


def test_a_projection_keeps_one_unlabelled_sink() -> None:
    comp = _projection(ASSERTS, "f", "a")
    loops = [n.name for n in comp.nodes if (n.name, n.name) in comp.edges]
    assert len(loops) == 1  # four failed asserts and an exit(), one dead end


def test_a_sink_labelled_for_the_value_keeps_its_place() -> None:
    found = of_rule(check_src(ASSERTS), "use-after-free")
    assert [f.location.start_line for f in found] == [line_of(ASSERTS, "/*UAF*/")]


def test_a_redirect_sends_edges_into_sinks_still_folded_to_the_first_one() -> None:
    fold = fold_sinks([[1, 2, 3, 4], [1], [2], [3], [2]])
    to = fold.redirect([3])  # 3 is unfolded for this projection, 2 is not
    assert [to(j) for j in range(5)] == [0, 1, 1, 3, 4]
    assert fold_sinks([[1], [1]]).redirect([])(1) == 1


NULL_INTO_ABORT = """
void g(char *p, int a) {
    assert(a > 0);
    if (p == 0)
        abort();
    if (a > 9)
        exit(1);
    p[0] = 1;
}
"""


def test_a_null_branch_into_a_folded_sink_goes_to_the_representative(monkeypatch: pytest.MonkeyPatch) -> None:
    """The branches a NULL test is split into are made from the function's unfolded edges: one
    into a folded sink must go to the representative, or the projection's walk meets a sink
    it does not keep and contracts the whole function again from scratch."""

    def from_scratch(*args: object) -> None:
        raise AssertionError("contracted from scratch")

    monkeypatch.setattr(kept_graph, "contract_all", from_scratch)
    comp = _projection(NULL_INTO_ABORT, "g", "p")
    loops = [n.name for n in comp.nodes if (n.name, n.name) in comp.edges]
    assert len(loops) == 1  # the failed assert, abort() and exit(1): one dead end
    null_branch = [n.name for n in comp.nodes if "isnull" in n.labels]
    assert len(null_branch) == 1 and [e for e in comp.edges if e[0] == null_branch[0]] == [(null_branch[0], loops[0])]
