"""Variadic statement macros (``#define RETURN_ERROR(err, ...)``) are expanded as C expands them:
the named parameters bound to the first arguments, ``__VA_ARGS__`` to the rest."""

from __future__ import annotations

from extractors.api import Project
from extractors.count_macros import expand_call, expansion
from tests.extractors.helpers import line_of

# zstd's error macros: a message through a variadic log macro, then a return
ERRORS = """
#include <stdio.h>
#include <stdlib.h>
#define RAWLOG(l, ...) do { if (l < 2) fprintf(stderr, __VA_ARGS__); } while (0)
#define RETURN_ERROR(err, ...)                                  \\
    do {                                                        \\
        RAWLOG(3, "%s:%d: error", __FILE__, __LINE__);          \\
        RAWLOG(3, ": " __VA_ARGS__);                            \\
        return (size_t)-(err);                                  \\
    } while (0)
#define FORWARD_IF_ERROR(err, ...)                              \\
    do {                                                        \\
        size_t const err_code = (err);                          \\
        if (err_code > 100) {                                   \\
            RAWLOG(3, ": " __VA_ARGS__);                        \\
            return err_code;                                    \\
        }                                                       \\
    } while (0)
struct ctx { int *set; };
size_t step(struct ctx *c);
size_t sized(int k) {
    size_t size;
    if (k == 1) size = 4;
    else if (k == 2) size = 8;
    else RETURN_ERROR(3, "bad k %d", k);
    return size;
}
size_t first(struct ctx *c) {
    if (!c->set) RETURN_ERROR(4);
    return (size_t)c->set[0];
}
size_t stepped(struct ctx *c) {
    int *p = malloc(8);
    FORWARD_IF_ERROR(step(c), "step");
    free(p);
    return 0;
}
"""


def test_a_variadic_error_macro_returns_where_it_is_called() -> None:
    project = Project()
    project.set_file("z.c", ERRORS)
    found = {(f.rule_id, f.location.start_line) for f in project.check()["z.c"]}
    # the unknown kind returns; the NULL set returns; the step's error returns with p allocated
    assert found == {("memory-leak", line_of(ERRORS, "int *p = malloc(8);"))}


def test_variadic_arguments_expand_with_their_commas() -> None:
    macro = (("err", "..."), 'log(err, "x" __VA_ARGS__)')
    assert expansion(macro, ["3", '"%d"', "k"]) == 'log(3, "x" "%d", k)'
    assert expansion(macro, ["3"]) == 'log(3, "x" )'
    assert expansion(macro, []) is None  # the named parameter needs its argument
    data = b'M(3, "a %d", k);'
    got = expand_call(macro, data, 1)
    assert got is not None and got.text == b'log(3, "x" "a %d", k)'
