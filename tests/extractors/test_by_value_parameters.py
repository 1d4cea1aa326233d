"""A callee's changes to its by-value parameter stay in the callee (extractors.by_value).

``buf++`` or ``p = other()`` in ``g(char *p)`` change only g's copy: the caller's pointer still
holds the start of its block, so its later ``free`` is neither a free of a moved pointer nor a
second free of what g frees through the reassigned ``p``. What g does to the block before the
reassignment (``free(p)``, ``*p``) still reaches the caller, and g's own misuse of the moved
pointer is still g's finding. Each case is a twin: the false finding gone, the real one kept."""

from __future__ import annotations

from extractors.api import Project
from tests.extractors.helpers import check_src, line_of

SUMMING = """\
#include <stdlib.h>

static unsigned sum(const unsigned char *buf, unsigned len)
{
    unsigned s = 0;
    while (len--) {
        s += *buf;
        buf++;
    }
    return s;
}

unsigned total(unsigned len)
{
    unsigned char *buf = malloc(len);
    unsigned s;
    if (buf == NULL)
        return 0;
    s = sum(buf, len);
    free(buf); /*F*/
    return s;
}
"""

# zlib's crc32_little, as K&R definitions spell it
SUMMING_KR = """\
#include <stdlib.h>

static unsigned sum(buf, len)
    const unsigned char *buf;
    unsigned len;
{
    unsigned s = 0;
    while (len--) {
        s += *buf++;
    }
    return s;
}

unsigned total(len)
    unsigned len;
{
    unsigned char *buf = malloc(len);
    unsigned s;
    if (buf == NULL)
        return 0;
    s = sum(buf, len);
    free(buf);
    return s;
}
"""

REPLACING = """\
#include <stdlib.h>

char *fresh(void);

static void swap_out(char *p)
{
    p = fresh();
    free(p);
}

void caller(void)
{
    char *q = malloc(4);
    if (q == NULL)
        return;
    swap_out(q);
    free(q); /*F*/
}
"""


def _found(src: str) -> list[tuple[str, int]]:
    return sorted((f.rule_id, f.location.start_line) for f in check_src(src))


def test_a_callee_moving_its_parameter_does_not_move_the_callers_pointer() -> None:
    assert _found(SUMMING) == []
    assert _found(SUMMING_KR) == []


def test_a_callee_that_frees_its_parameter_is_still_a_double_free_in_the_caller() -> None:
    freeing = SUMMING.replace("    return s;\n}\n\nunsigned", "    free((void *)buf);\n    return s;\n}\n\nunsigned")
    freeing = freeing.replace("        buf++;\n", "")
    assert freeing.count("free(") == 2
    assert _found(freeing) == [("double-free", line_of(freeing, "/*F*/"))]


def test_a_callee_freeing_its_moved_parameter_is_the_callees_finding() -> None:
    # after the loop buf has moved only when len was not 0: otherwise the block is freed twice
    end = "    return s;\n}\n\nunsigned"
    moved = SUMMING.replace(end, "    free((void *)buf); /*M*/\n" + end)
    assert _found(moved) == [("double-free", line_of(moved, "/*F*/")), ("free-non-heap", line_of(moved, "/*M*/"))]
    always = moved.replace("    while (len--) {", "    buf++;\n    while (len--) {")
    assert _found(always) == [("free-non-heap", line_of(always, "/*M*/"))]


def test_what_a_callee_frees_through_a_reassigned_parameter_is_not_the_callers_block() -> None:
    assert _found(REPLACING) == []


def test_a_free_before_the_reassignment_still_reaches_the_caller() -> None:
    first = REPLACING.replace("    p = fresh();\n    free(p);\n", "    free(p);\n    p = fresh();\n    free(p);\n")
    assert _found(first) == [("double-free", line_of(first, "/*F*/"))]


def test_a_dereference_before_the_reassignment_is_still_a_use_after_free() -> None:
    src = """\
#include <stdlib.h>

static int first(char *p)
{
    int n = *p;
    p = NULL;
    return n;
}

int caller(void)
{
    char *q = malloc(4);
    if (q == NULL)
        return 0;
    free(q);
    return first(q); /*U*/
}
"""
    assert _found(src) == [("use-after-free", line_of(src, "/*U*/"))]


def test_an_edit_that_stops_the_reassignment_brings_the_callers_finding_back() -> None:
    p = Project()
    p.update_file("t.c", REPLACING)
    assert p.check()["t.c"] == []
    p.update_file("t.c", REPLACING.replace("    p = fresh();\n", "    (void)fresh();\n"))
    got = sorted((f.rule_id, f.location.start_line) for f in p.check()["t.c"])
    assert got == [("double-free", line_of(REPLACING, "/*F*/"))]


LIST = """\
#include <stdlib.h>

struct node {
    struct node *next;
    int value;
};

static void free_all(struct node *p)
{
    while (p != NULL) {
        struct node *next = p->next;
        free(p);
        p = next;
    }
}

int last(struct node *list)
{
    free_all(list);
    return list->value; /*U*/
}
"""


def test_a_list_walk_that_frees_the_head_first_still_frees_the_callers_pointer() -> None:
    assert _found(LIST) == [("use-after-free", line_of(LIST, "/*U*/"))]
    late = "    free_all(list);\n    return list->value; /*U*/\n"
    fixed = LIST.replace(late, "    int v = list->value;\n    free_all(list);\n    return v;\n")
    assert _found(fixed) == []


MOVING_USE = """\
#include <stdlib.h>

static int parse(const char *p)
{
    p += 4;
    return p[0];
}

int header(void)
{
    char *b = malloc(8);
    if (b == NULL)
        return -1;
    b[4] = 1;
    free(b);
    return parse(b); /*F*/
}
"""


def test_a_callee_reading_through_its_moved_parameter_is_a_use_after_free_in_the_caller() -> None:
    # p += 4 keeps p inside the caller's block: the read of p[0] is a read of the freed block
    for move in ("p += 4;", "p++;", "++p;", "p = p + 4;", "p -= -4;"):
        src = MOVING_USE.replace("p += 4;", move)
        assert _found(src) == [("use-after-free", line_of(src, "/*F*/"))], move


def test_a_replaced_parameter_read_afterwards_is_not_the_callers_block() -> None:
    # p = other() (or p = p->next-like replacements) hands the caller nothing read afterwards
    declared = "const char *other(void);\n\nstatic int parse"
    src = MOVING_USE.replace("static int parse", declared)
    assert _found(src.replace("p += 4;", "p = other();")) == []


def test_a_callee_moving_then_freeing_and_reading_frees_nothing_of_the_callers() -> None:
    # the moved copy keeps reads but not the free of the moved pointer (g's own free-non-heap)
    src = MOVING_USE.replace("    return p[0];\n", "    free((void *)p); /*M*/\n    return 0;\n")
    src = src.replace("    free(b);\n    return parse(b); /*F*/\n", "    parse(b);\n    free(b);\n    return 0;\n")
    assert _found(src) == [("free-non-heap", line_of(src, "/*M*/"))]


def test_which_nodes_only_move_the_parameter() -> None:
    from extractors.by_value import _is_move

    for text in ("p++;", "--p;", "s += *p++;", "p += n;", "p -= 2;", "p = p + n * 4;", "*p++ = c;", "q->p = 0, p++;"):
        assert _is_move(text, "p"), text
    for text in ("p = other();", "p = p->next;", "p = p[1];", "p++, p = q;", "reset(&p), p++;", "p = q + 1;"):
        assert not _is_move(text, "p"), text
