"""Sinks (failed asserts, calls that never return) folded into one per projection."""

from __future__ import annotations

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


def test_a_projection_keeps_one_unlabelled_sink() -> None:
    p = Project()
    p.update_file("t.c", ASSERTS)
    st = p.files["t.c"].model
    pj = Projector(make_scope(list(st.functions.values()), BUILTIN, st.globals))
    name = pj.component("f", "a")
    assert name is not None
    comp = pj.rsm(name).component(name)
    loops = [n.name for n in comp.nodes if (n.name, n.name) in comp.edges]
    assert len(loops) == 1  # four failed asserts and an exit(), one dead end


def test_a_sink_labelled_for_the_value_keeps_its_place() -> None:
    found = of_rule(check_src(ASSERTS), "use-after-free")
    assert [f.location.start_line for f in found] == [line_of(ASSERTS, "/*UAF*/")]
