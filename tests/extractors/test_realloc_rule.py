"""memory-leak-realloc: ``p = realloc(p, n)`` loses the old block when realloc fails and the
function returns from the failure; a copy of ``p`` or a failure that ends the program does not."""

from __future__ import annotations

import pytest

from extractors.config import ConfigError, config_from_text
from extractors.library import library_from_text
from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n"


def lost(src: str) -> list[tuple[str, int]]:
    return [(f.function, f.location.start_line) for f in of_rule(check_src(src), "memory-leak-realloc")]


def test_storing_realloc_over_its_argument_is_reported_where_the_failure_returns() -> None:
    src = (
        HEADER
        + """
struct b { char *d; };
int tested(char *p, size_t n) { p = realloc(p, n); if (!p) return -1; p[0] = 0; free(p); return 0; }  /*T*/
void field(struct b *b, size_t n) { b->d = realloc(b->d, n); }  /*F*/
int array(int *a, size_t n) { a = reallocarray(a, n, sizeof *a); if (!a) return -1; free(a); return 0; }  /*A*/
"""
    )
    assert sorted(lost(src)) == [
        ("array", line_of(src, "/*A*/")),
        ("field", line_of(src, "/*F*/")),
        ("tested", line_of(src, "/*T*/")),
    ]


def test_a_kept_result_a_copy_or_a_failure_that_ends_the_program_is_no_loss() -> None:
    src = (
        HEADER
        + """
int tmp(char **pp, size_t n) { char *t = realloc(*pp, n); if (!t) { free(*pp); return -1; } *pp = t; return 0; }
int copy(char *p, size_t n) { char *old = p; p = realloc(p, n); if (!p) { free(old); return -1; } free(p); return 0; }
char *dies(char *p, size_t n) { p = realloc(p, n); if (p == NULL) abort(); return p; }
char *other(char *p, char *q, size_t n) { p = realloc(q, n); return p; }
"""
    )
    assert lost(src) == []


def test_a_callees_realloc_is_the_callees_finding() -> None:
    src = (
        HEADER
        + """
static int grow(char *p, size_t n) { p = realloc(p, n); if (!p) return -1; free(p); return 0; }  /*G*/
int caller(char *q) { return grow(q, 8); }
"""
    )
    assert lost(src) == [("grow", line_of(src, "/*G*/"))]


def test_kept_on_failure_is_a_library_key() -> None:
    cfg = config_from_text("[library.pool_grow]\nreturns = \"alloc\"\nargs = [\"escape\"]\nkept_on_failure = [0]\n")
    src = HEADER + "int f(char *p) { p = pool_grow(p); if (!p) return -1; return 0; }  /*P*/\n"
    assert [f.function for f in of_rule(check_src(src, cfg), "memory-leak-realloc")] == ["f"]
    with pytest.raises(ConfigError, match="kept_on_failure"):
        library_from_text("f = { kept_on_failure = [-1] }\n")


def test_only_a_copy_made_before_the_call_keeps_the_block() -> None:
    """``next_out = p`` after the realloc copies the new block, not the old one."""
    src = (
        HEADER
        + """
struct z { char *next_out; };
int after(char *p, size_t n, struct z *z) { p = realloc(p, n); z->next_out = p; return 0; }  /*A*/
int before(char *p, size_t n, struct z *z) { z->next_out = p; p = realloc(p, n); return 0; }
int looped(char *p, size_t n, struct z *z) {
    for (int i = 0; i < 3; i++) { p = realloc(p, n); z->next_out = p; }
    return 0;
}
"""
    )
    assert lost(src) == [("after", line_of(src, "/*A*/"))]


def test_a_copy_of_the_struct_holding_the_pointer_keeps_the_block() -> None:
    """Pillow's ``memory_get_block``: ``block = arena->pool[i]`` copies the struct, so on failure
    ``arena->pool[i].ptr`` still holds the old block (and is freed there)."""
    src = (
        HEADER
        + """
struct blk { char *ptr; int size; };
struct arena { struct blk pool[8]; int n; };
struct blk pooled(struct arena *a, int size) {
    struct blk block = a->pool[a->n];
    block.ptr = realloc(block.ptr, size);
    if (!block.ptr) { free(a->pool[a->n].ptr); return block; }
    return block;
}
int copied(char *q, size_t n) { char *p = q; p = realloc(p, n); if (!p) { free(q); return -1; } free(p); return 0; }
struct blk saved(struct blk block, int size) {
    struct blk old = block;
    block.ptr = realloc(block.ptr, size);
    if (!block.ptr) { free(old.ptr); return block; }
    return block;
}
struct blk fresh(int size) {
    struct blk block = {NULL, 0};
    block.ptr = malloc(8);
    block.ptr = realloc(block.ptr, size);  /*F*/
    if (!block.ptr) return block;
    return block;
}
int in_place(struct arena *a, int size) {
    struct blk *b = &a->pool[a->n];
    b->ptr = realloc(b->ptr, size);  /*P*/
    return b->ptr != NULL;
}
"""
    )
    assert sorted(lost(src)) == [("fresh", line_of(src, "/*F*/")), ("in_place", line_of(src, "/*P*/"))]
