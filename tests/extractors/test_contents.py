"""What local buffers hold (extractors.contents): the elements of a local array declared without a
value and the contents of a fresh ``malloc`` block are unset until some element is stored, so
uninitialised-read reports an element read before that; a buffer that flows anywhere the function
cannot see (a call, a copy, pointer arithmetic) counts as filled there."""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src

HEAD = """\
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct node { int key; struct node *next; };
void fill(int *p, int n);
"""


def _uninit(body: str) -> list[tuple[str, int]]:
    src = HEAD + "int f(int n, const int *xs)\n{\n" + body + "\n}\n"
    first = HEAD.count("\n") + 2  # the body's first row
    return [(f.message, f.location.start_line - first) for f in check_src(src) if f.rule_id == "uninitialised-read"]


@pytest.mark.parametrize(
    ("body", "found"),
    [
        # an element read on a path where none was stored
        ("    int a[4];\n    if (n > 0)\n        a[0] = xs[0];\n    return a[0];", ("'a[]'", 3)),
        ("    int a[4];\n    a[n]++;\n    return 0;", ("'a[]'", 1)),
        # malloc's block: counted before any store
        (
            "    int *c = malloc(4 * sizeof *c);\n    if (!c)\n        return -1;\n    c[n] += 1;\n    free(c);\n"
            "    return 0;",
            ("'c[]'", 3),
        ),
        # a loop that stores on some rounds only
        ("    int a[4];\n    for (int i = 0; i < n; i++)\n        if (xs[i] > 0)\n            a[i] = xs[i];\n"
         "    return a[0];", ("'a[]'", 4)),
        # left by break before the store
        ("    int a[4];\n    for (int i = 0; i < n; i++) {\n        if (xs[i] < 0)\n            break;\n"
         "        a[i] = xs[i];\n    }\n    return a[0];", ("'a[]'", 6)),
        ("    struct node *p = malloc(sizeof *p);\n    if (p == NULL)\n        return -1;\n    n = p->key;\n"
         "    free(p);\n    return n;", ("'p[]'", 3)),
    ],
)
def test_element_read_before_any_store(body: str, found: tuple[str, int]) -> None:
    name, row = found
    assert _uninit(body) == [(f"{name} may be read before it is initialised", row)]


@pytest.mark.parametrize(
    "body",
    [
        "    int a[4] = {0};\n    return a[n];",  # initialised
        "    static int a[4];\n    return a[n];",  # static: zero
        "    int a[4];\n    a[0] = 1;\n    return a[n];",  # one store sets them all
        "    int *c = calloc(4, sizeof *c);\n    if (!c)\n        return -1;\n    n = c[1];\n    free(c);\n"
        "    return n;",
        "    int a[4];\n    fill(a, 4);\n    return a[n];",  # a callee fills it
        "    char b[8];\n    if (!fgets(b, sizeof b, stdin))\n        return -1;\n    return b[0];",
        "    char b[2][8];\n    strcpy(b[0], \"x\");\n    return b[0][0];",
        "    int a[4];\n    int *p = a;\n    *p = 1;\n    return a[0];",  # written through a copy
        "    int a[4];\n    int *p = a + 1;\n    *p = 1;\n    return a[1];",
        "    int a[4];\n    memset(a, 0, sizeof a);\n    return a[n];",
        "    int a[4];\n    fill(&a[0], 4);\n    return a[n];",  # its address is taken
        "    int a[4];\n    return (int)sizeof a[0];",  # sizeof reads nothing
        "    struct node *p = malloc(sizeof *p);\n    if (p == NULL)\n        return -1;\n    p->key = n;\n"
        "    n = p->key;\n    free(p);\n    return n;",
        "    int *c = malloc(4 * sizeof *c);\n    if (!c)\n        return -1;\n    for (int i = 0; i < 4; i++)\n"
        "        c[i] = 0;\n    n = c[3];\n    free(c);\n    return n;",
        # a loop that stores on every round is taken to run: a later loop bounded alike reads it
        "    int a[16];\n    for (int i = 0; i < n; i++)\n        a[i] = xs[i];\n    int s = 0;\n"
        "    for (int i = 0; i < n; i++)\n        s += a[i];\n    return s;",
        "    double e[4];\n    for (int i = 0; i < n; i++) {\n        e[i] = xs[i];\n"
        "        for (int j = 0; j < n; j++)\n            e[j] += 1;\n    }\n    return (int)e[0];",
        # a read under ?: the statement may skip
        "    int a[4];\n    int k = 0;\n    while (k < n) {\n        a[k] = xs[k];\n        k++;\n    }\n"
        "    return n > 0 ? a[0] : 0;",
    ],
)
def test_no_finding(body: str) -> None:
    assert _uninit(body) == []


def test_an_element_whose_address_is_taken_is_reached_unseen() -> None:
    # Pillow's BcnEncode: current_rgba = &block[i + j * 4]; then stores through current_rgba
    body = (
        "    struct node block[16], *cur;\n    int s = 0;\n    for (int i = 0; i < 16; i++) {\n"
        "        cur = &block[i];\n        cur->key = i;\n    }\n"
        "    for (int i = 0; i < 16; i++)\n        s += block[i].key;\n    return s;"
    )
    assert _uninit(body) == []
    # the twin reads an element before any store and takes no address: still found
    assert _uninit("    int a[16];\n    int s = a[3];\n    a[0] = s;\n    return a[0];") != []


def test_stores_into_a_member_array_and_element_addresses_of_a_fresh_block() -> None:
    # Pillow's Quant.c (left->head[i] = ...) and Resample.c (k = &kk[xx * ksize]; k[j] = ...)
    body = (
        "    struct pair { int head[3]; int tail[3]; } *b = malloc(sizeof(*b));\n    if (!b)\n        return -1;\n"
        "    for (int i = 0; i < 3; i++) {\n        b->head[i] = xs[i];\n        b->tail[i] = xs[i] + 1;\n    }\n"
        "    double *kk = malloc(n * 4 * sizeof(double)), *w;\n    if (!kk)\n        return -1;\n"
        "    for (int x = 0; x < n; x++) {\n        w = &kk[x * 4];\n        for (int j = 0; j < 4; j++)\n"
        "            w[j] = 0.25;\n    }\n    int s = b->head[0] + b->tail[2] + (int)kk[0];\n"
        "    free(b);\n    free(kk);\n    return s;"
    )
    assert _uninit(body) == []
    # a read of another member of the fresh block before any store is still found
    bad = (
        "    struct pair { int head[3]; int tail[3]; } *b = malloc(sizeof(*b));\n    if (!b)\n        return -1;\n"
        "    b->head[0] = b->tail[1];\n    int s = b->head[0];\n    free(b);\n    return s;"
    )
    assert _uninit(bad) != []
    # a binary & before an element is a read of it, not its address
    assert _uninit("    int a[4];\n    int s = n & a[1];\n    a[0] = s;\n    return a[0];") != []
