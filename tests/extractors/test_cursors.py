"""A copy of a block's pointer into a local cursor that never leaves the function keeps the block
in the function: a leak through it is still a leak; a cursor that escapes lets the block go."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n#include <string.h>\n"


def leaks(src: str) -> list[tuple[str, int]]:
    return sorted((f.function, f.location.start_line) for f in of_rule(check_src(src), "memory-leak"))


def test_a_block_walked_by_a_cursor_and_dropped_leaks() -> None:
    src = (
        HEADER
        + """
int upper(const char *s) {
    char *copy = strdup(s);  /*U*/
    if (copy == NULL) return -1;
    for (char *c = copy; *c; c++) *c = (char)(*c - 32);
    return 0;
}
int peek(int n) { char *p = malloc(n); if (!p) return -1; char *c = p; c[0] = 1; return c[0]; }  /*P*/
"""
    )
    assert leaks(src) == [("peek", line_of(src, "/*P*/")), ("upper", line_of(src, "/*U*/"))]


def test_a_cursor_that_leaves_the_function_takes_the_block_with_it() -> None:
    src = (
        HEADER
        + """
struct s { char *buf; };
char *ret(int n) { char *p = malloc(n); char *c = p; return c; }
void store(struct s *o, int n) { char *p = malloc(n); char *c = p; o->buf = c; }
void out(char **o, int n) { char *p = malloc(n); char *c = p; *o = c; }
void freed(int n) { char *p = malloc(n); char *c = p; free(c); }
void handed(int n) { char *p = malloc(n); char *c = p; keep(c); }
void chained(char **o, int n) { char *p = malloc(n); char *c = p; char *d = c; *o = d; }
char *kept_static(int n) { static char *c; char *p = malloc(n); c = p; return 0; }
"""
    )
    assert leaks(src) == []
