"""A store of -1, 0 or NULL is a dead store when the variable is a plain value (an error code), and
stays unreported as a defensive reset of a pointer or a handle (``close(fd); fd = -1;``)."""

from __future__ import annotations

from extractors.error_codes import RESET, plain_values
from tests.extractors.helpers import cfg_of, check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n#include <unistd.h>\n"


def dead(src: str) -> list[tuple[str, int]]:
    return sorted((f.function, f.location.start_line) for f in of_rule(check_src(src), "dead-store"))


def test_error_code_lost_on_the_way_to_the_cleanup() -> None:
    src = HEADER + """
int init(int **a, size_t n) {
    int err = 0;
    *a = malloc(n);
    if (*a == NULL) {
        err = -1;          /*E*/
        goto fail;
    }
    return err;
fail:
    return -12;
}
int init_ok(int **a, size_t n) {
    int err = 0;
    *a = malloc(n);
    if (*a == NULL) {
        err = -1;
        goto fail;
    }
    return 0;
fail:
    return err;
}
"""
    assert dead(src) == [("init", line_of(src, "/*E*/"))]


def test_defensive_resets_of_pointers_and_handles_stay_silent() -> None:
    src = HEADER + """
void drop(char *p, int fd) {
    free(p);
    p = NULL;
    close(fd);
    fd = -1;
}
int last(int n) {
    char *q = malloc(n);
    if (q == NULL)
        return -1;
    q[0] = 0;
    free(q);
    q = 0;
    return 0;
}
"""
    assert dead(src) == []


def test_plain_values_and_no_reset_left_behind() -> None:
    body = "int e = 0, k = 1; int *q = p; *q = k; e = -1; q = NULL; close(fd); return 0;"
    src = HEADER + "int f(int *p, int fd) { " + body + " }\n"
    cfg = cfg_of(src)
    assert plain_values(cfg) == frozenset({"e", "k"})
    assert all(a != RESET for n in cfg.nodes for _, a in n.events)
    store = next(n for n in cfg.nodes if n.text == "e = -1;")
    assert ("e", "write") in store.events
    assert ("q", "write") not in next(n for n in cfg.nodes if n.text == "q = NULL;").events


def test_an_initial_value_named_in_capitals_is_a_defensive_default() -> None:
    """``WebPMuxError err = WEBP_MUX_OK;`` (Pillow's _webp.c) with the enumerator in a header this
    run does not read: a constant by C's naming convention, so overwriting it on every path is no
    dead store, as with a literal; a value computed from variables still is."""
    src = (
        HEADER
        + """
int set_chunk(int k);
int lower_default;
int assemble(int k) {
    int err = MUX_OK;
    if (k > 0) err = set_chunk(k); else err = set_chunk(-k);
    return err;
}
int negated(int k) {
    int err = -(int)EINVAL_LIKE;
    err = set_chunk(k);
    return err;
}
int computed(int k) {
    int err = set_chunk(0);  /*C*/
    err = set_chunk(k);
    return err;
}
int from_variable(int k) {
    int err = k + lower_default;  /*V*/
    err = set_chunk(k);
    return err;
}
"""
    )
    assert sorted(dead(src)) == [("computed", line_of(src, "/*C*/")), ("from_variable", line_of(src, "/*V*/"))]
