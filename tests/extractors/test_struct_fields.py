"""Fields of a local ``struct T r;`` declared without a value (extractors.struct_fields): each
field is unset until it is assigned (or ``r`` is, whole), so uninitialised-read reports a field
read before that; and the shapes where a field may not be a plain value stay unchecked."""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src

HEAD = """\
#include <stdio.h>
struct range { int lo, hi; char buf[8]; };
union num { int i; float f; };
typedef struct range range_t;
struct range make(void);
void init(struct range *r);
"""


def _uninit(body: str) -> list[tuple[str, int]]:
    src = HEAD + "int f(int c, const int *xs)\n{\n" + body + "\n}\n"
    first = HEAD.count("\n") + 2  # the body's first row
    return [(f.message, f.location.start_line - first) for f in check_src(src) if f.rule_id == "uninitialised-read"]


def test_a_field_never_assigned_is_read() -> None:
    body = "    struct range r;\n    r.lo = xs[0];\n    return r.hi - r.lo;"
    assert _uninit(body) == [("'r.hi' may be read before it is initialised", 2)]


def test_a_field_assigned_on_one_branch_only() -> None:
    body = "    struct range r;\n    if (c)\n        r.lo = 1;\n    return r.lo;"
    assert _uninit(body) == [("'r.lo' may be read before it is initialised", 3)]


@pytest.mark.parametrize(
    "body",
    [
        "    struct range r;\n    r.lo = xs[0];\n    r.hi = xs[1];\n    return r.hi - r.lo;",
        "    struct range r;\n    r = make();\n    return r.hi;",  # assigned whole
        "    struct range r = {0};\n    return r.hi;",  # initialised
        "    static struct range r;\n    return r.hi;",  # static: zero
        "    struct range r;\n    init(&r);\n    return r.hi;",  # the address goes to a callee
        "    union num n;\n    n.i = c;\n    return (int)n.f;",  # a union's members share storage
        "    range_t r;\n    r.lo = c;\n    return r.hi;",  # a typedef may name a union
        "    struct range r;\n    snprintf(r.buf, 8, \"%d\", c);\n    return r.buf[0];",  # an array field
        "    struct range r;\n    char *p = r.buf;\n    p[0] = 0;\n    return p[0];",
        "    struct range r, s;\n    r.lo = 1;\n    s = r;\n    return s.lo;",  # a copy is not a read of each
        "    struct range r;\n    __asm__ volatile (\"\" : : \"m\" (r) : \"memory\");\n    return r.hi;",
    ],
)
def test_no_finding(body: str) -> None:
    assert _uninit(body) == []


def test_a_local_of_a_typedef_named_with_a_member_is_no_unset_scalar() -> None:
    # Pillow's BcnEncode decode_565: rgb item; item.color[0] = r; ... return item;
    src = (
        "typedef struct { unsigned char color[3]; } rgb;\n"
        "rgb decode(unsigned x)\n{\n    rgb item;\n    item.color[0] = x >> 8;\n"
        "    item.color[1] = x >> 3;\n    item.color[2] = x << 3;\n    return item;\n}\n"
    )
    assert [f for f in check_src(src) if f.rule_id == "uninitialised-read"] == []
    # a typedef'd scalar read before any store is still found
    scalar = "typedef int level;\nint f(int n)\n{\n    level l;\n    if (n > 1)\n        l = n;\n    return l;\n}\n"
    assert [f.rule_id for f in check_src(scalar)] == ["uninitialised-read"]
