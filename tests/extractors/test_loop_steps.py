"""A witness that goes around a loop says so: a "next iteration" step at the loop's test (or a
``for``'s increment), so that a step back to an earlier line reads as the loop it is."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n"


def test_a_free_in_a_loop_body_shows_the_next_iteration_at_the_loop_test() -> None:
    src = (
        HEADER
        + """
void drain(int n) {
    char *p = malloc(8);
    int i = 0;
    while (i < n) {           /*W*/
        i++;
        free(p);              /*F*/
    }
}
"""
    )
    (f,) = of_rule(check_src(src), "double-free")
    steps = [(w.kind, w.location.start_line) for w in f.witness]
    free_line, loop_line = line_of(src, "/*F*/"), line_of(src, "/*W*/")
    assert steps[-3:] == [("event", free_line), ("loop", loop_line), ("event", free_line)]
    assert next(w for w in f.witness if w.kind == "loop").message == "next iteration of the loop"


def test_a_for_loop_iterates_at_its_increment_and_nested_loops_name_the_outer_one() -> None:
    src = (
        HEADER
        + """
void sweep(int n, int m) {
    char *p = malloc(8);
    for (int i = 0; i < n; i++) {        /*O*/
        for (int j = 0; j < m; j++) {}
        free(p);                          /*F*/
    }
}
"""
    )
    (f,) = of_rule(check_src(src), "double-free")
    loops = [w for w in f.witness if w.kind == "loop"]
    assert len(loops) == 1 and loops[0].location.start_line == line_of(src, "/*O*/")


def test_a_path_that_only_goes_forward_has_no_loop_step() -> None:
    src = (
        HEADER
        + """
void once(int n) {
    char *p = malloc(8);
    for (int i = 0; i < n; i++) {
        if (i == 3) break;
    }
    free(p);
    free(p);
}
"""
    )
    (f,) = of_rule(check_src(src), "double-free")
    assert all(w.kind != "loop" for w in f.witness)
