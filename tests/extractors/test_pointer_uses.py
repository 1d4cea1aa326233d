"""What dereferences a pointer: arithmetic on it (``*(buf + len - 1)``, ``p[i]`` through
``(p + 1)[i]``, ``*p++``) reads the block it points to, so it is a use of it."""

from __future__ import annotations

from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n#include <stdio.h>\n"


def found(src: str, rule: str) -> list[tuple[str, int]]:
    return sorted((f.function, f.location.start_line) for f in of_rule(check_src(src), rule))


def test_dereferencing_arithmetic_on_a_freed_pointer_uses_it() -> None:
    src = (
        HEADER
        + """
int last(char *buf, size_t n) { free(buf); return *(buf + n - 1); }  /*L*/
int cast(void *p) { free(p); return *((int *)p + 1); }  /*C*/
int post(char *p) { free(p); return *p++; }  /*P*/
int sub(char *p, int i) { free(p); return (p + 1)[i]; }  /*S*/
int arrow(struct s { int v; } *p) { free(p); return (p + 1)->v; }  /*A*/
long diff(char *p, char *q) { free(p); return p - q; }
"""
    )
    want = [(name, line_of(src, mark)) for name, mark in
            [("arrow", "/*A*/"), ("cast", "/*C*/"), ("last", "/*L*/"), ("post", "/*P*/"), ("sub", "/*S*/")]]
    assert found(src, "use-after-free") == want


def test_arithmetic_on_an_unchecked_allocation_dereferences_it() -> None:
    src = (
        HEADER
        + """
void f(size_t n) { char *p = malloc(n + 1); *(p + n) = 0; free(p); }  /*F*/
void g(size_t n) { char *p = malloc(n + 1); if (!p) return; *(p + n) = 0; free(p); }
"""
    )
    assert found(src, "null-dereference") == [("f", line_of(src, "/*F*/"))]
