"""Frame and heap addresses in the path condition (``extractors.path_condition``): the address of a
local (an array read as a value, ``&x``) is a constant of its own, distinct from NULL, from every
other local's address and from any non-NULL allocation result.  So the small-buffer idiom (``char
*buf = small; if (need > sizeof small) buf = malloc(need); ... if (buf != small) free(buf);``) has
no leak, while the twin that tests the wrong way, or frees the array, still has its finding, and a
pointer whose value is not known (a parameter) decides nothing."""

from __future__ import annotations

import z3

from extractors.calls import BUILTIN
from extractors.path_condition import Fresh, FunctionSemantics
from tests.extractors.helpers import cfg_of, check_src, line_of, node_id, of_rule

SMALL_BUFFER = """\
#include <stdio.h>
#include <stdlib.h>

int print_path(const char *dir, const char *name, size_t need)
{
    char small[64];
    char *buf = small;
    int rc = 0;
    if (need > sizeof small) {
        buf = malloc(need); /*A*/
        if (buf == NULL)
            return -1;
    }
    if (snprintf(buf, need, "%s/%s", dir, name) < 0)
        rc = -1;
    else
        puts(buf);
    if (buf != small)
        free(buf); /*F*/
    return rc;
}
"""

# the same idiom over a struct: the fallback is ``&local``, the heap copy is freed when it is not
STRUCT_FALLBACK = """\
#include <stdlib.h>
#include <string.h>

struct table { int n; int slots[16]; };

int count(int n)
{
    struct table local;
    struct table *t = &local;
    int got;
    if (n > 16) {
        t = malloc(sizeof *t + (size_t)n * sizeof(int)); /*A*/
        if (!t)
            return -1;
    }
    memset(t, 0, sizeof *t);
    t->n = n;
    got = t->slots[0] + t->n;
    if (t != &local)
        free(t);
    return got;
}
"""


def _lines(src: str, rule: str) -> list[int]:
    return [f.location.start_line for f in of_rule(check_src(src), rule)]


def test_small_buffer_fallback_has_no_leak() -> None:
    assert _lines(SMALL_BUFFER, "memory-leak") == []
    assert _lines(SMALL_BUFFER, "free-non-heap") == []


def test_address_of_a_struct_fallback_has_no_leak() -> None:
    assert _lines(STRUCT_FALLBACK, "memory-leak") == []


def test_freeing_when_the_buffer_is_the_array_leaks_the_block() -> None:
    """``if (buf == small) free(buf)``: the heap block (not ``small``) is never freed."""
    src = SMALL_BUFFER.replace("if (buf != small)", "if (buf == small)")
    assert _lines(src, "memory-leak") == [line_of(src, "/*A*/")]


def test_freeing_the_array_itself_is_reported() -> None:
    """``free(small)``: the array reaches ``free`` (and the block is never freed)."""
    src = SMALL_BUFFER.replace("    if (buf != small)\n        free(buf); /*F*/", "    free(small); /*F*/")
    assert _lines(src, "free-non-heap") == [line_of(src, "/*F*/")]
    assert _lines(src, "memory-leak") == [line_of(src, "/*A*/")]


def test_another_local_array_is_not_the_block() -> None:
    """``buf != small && buf != other``: the block is neither array, so it is still freed."""
    src = SMALL_BUFFER.replace("    char small[64];\n", "    char small[64];\n    char other[8];\n")
    src = src.replace("if (buf != small)", "if (buf != small && buf != other)")
    assert _lines(src, "memory-leak") == []
    wrong = src.replace("buf != other", "buf == other")  # never true of the block: it leaks
    assert _lines(wrong, "memory-leak") == [line_of(wrong, "/*A*/")]


def test_a_parameter_fallback_decides_nothing() -> None:
    """The fallback comes from the caller: its value is not known, so ``buf != dst`` may be false
    after the allocation as far as the path condition knows, and the leak witness stands."""
    src = SMALL_BUFFER.replace(
        "int print_path(const char *dir, const char *name, size_t need)\n{\n"
        "    char small[64];\n    char *buf = small;",
        "int print_path(const char *dir, const char *name, size_t need, char *dst, size_t cap)\n{\n"
        "    char *buf = dst;",
    )
    src = src.replace("need > sizeof small", "need > cap").replace("buf != small", "buf != dst")
    assert "small" not in src
    assert _lines(src, "memory-leak") == [line_of(src, "/*A*/")]


def _decides(src: str, name: str, params: tuple[str, ...], test: str, before: str | None = None) -> set[bool]:
    """The outcomes the path condition allows for test node ``test`` after the node ``before``."""
    cfg = cfg_of(src, name)
    sem = FunctionSemantics(cfg, params, BUILTIN)
    fresh = Fresh("t")
    env = sem.initial(fresh)
    facts: list[z3.BoolRef] = []
    if before is not None:
        eff = sem.effect(node_id(cfg, before), env, fresh)
        env, facts = eff.env, [*eff.side, *eff.post]
    eff = sem.effect(node_id(cfg, test, "cond"), env, fresh)
    assert eff.cond is not None
    out = set()
    for outcome in (True, False):
        s = z3.Solver()
        s.add(*facts, *eff.side, eff.cond if outcome else z3.Not(eff.cond))
        if s.check() == z3.sat:
            out.add(outcome)
    return out


def test_frame_addresses_are_distinct_constants() -> None:
    src = """
void f(int *q) {
    char a[4], b[4];
    int x, y;
    if (a == b) return;
    if (&x == &y) return;
    if (&x == NULL) return;
    if ((char *)&x == a) return;
    if (a == a) return;
    if (q == &x) return;
}
"""
    assert _decides(src, "f", ("q",), "a == b") == {False}
    assert _decides(src, "f", ("q",), "&x == &y") == {False}
    assert _decides(src, "f", ("q",), "&x == NULL") == {False}
    assert _decides(src, "f", ("q",), "(char *)&x == a") == {False}
    assert _decides(src, "f", ("q",), "a == a") == {True}
    assert _decides(src, "f", ("q",), "q == &x") == {True, False}  # a parameter may hold any address


def test_allocation_result_is_no_frame_address() -> None:
    src = """
#include <stdlib.h>
void f(void *r) {
    char a[4];
    char *p = malloc(4);
    char *u = r;
    if (p == a) return;
    if (p == NULL) return;
    if (u == a) return;
}
"""
    assert _decides(src, "f", ("r",), "p == a", "char *p = malloc(4);") == {False}
    assert _decides(src, "f", ("r",), "p == NULL", "char *p = malloc(4);") == {True, False}
    assert _decides(src, "f", ("r",), "u == a", "char *u = r;") == {True, False}


def test_names_without_one_frame_object_have_no_address() -> None:
    """A name declared twice (two objects), a ``static`` local (its address is shared by every call)
    and a part of an object (``&s.f`` may be ``&s``) get no constant: comparisons decide nothing."""
    src = """
struct s { int f; int g; };
void f(int k) {
    static char st[4];
    char *p = st;
    struct s v;
    if (k) { char d[4]; p = d; }
    if (k > 1) { char d[8]; if (p == d) return; }
    if (p == st) return;
    if ((void *)&v.f == (void *)&v) return;
}
"""
    cfg = cfg_of(src, "f")
    sem = FunctionSemantics(cfg, ("k",), BUILTIN)
    assert set(sem.frame) == {"k", "p", "v"}
    assert _decides(src, "f", ("k",), "(void *)&v.f == (void *)&v") == {True, False}
