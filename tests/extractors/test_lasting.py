"""Dead stores to the fields of objects a caller hands in (extractors.lasting): ``s->pos = a;``
overwritten before anything can read it is lost, but the return, a call or another pointer's
dereference may read it, and a NULL store into a handle is a reset, not a value."""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src

HEAD = """\
#include <stdlib.h>
struct stream { int pos; int len; char *buf; struct stream *next; };
void touch(struct stream *s);
"""


def _dead(params: str, body: str) -> list[tuple[str, int]]:
    src = HEAD + f"void f({params})\n{{\n{body}\n}}\n"
    first = HEAD.count("\n") + 2  # the body's first row
    return [(f.message, f.location.start_line - first) for f in check_src(src) if f.rule_id == "dead-store"]


@pytest.mark.parametrize(
    "body",
    [
        "    s->pos = s->len;\n    s->len = 0;\n    s->pos = 0;",
        "    s->pos = n;\n    if (n)\n        s->pos = 1;\n    else\n        s->pos = 2;",
        "    s->pos = 0;\n    s->pos = n;",  # a 0 into a plain value is a value
    ],
)
def test_a_store_overwritten_before_anything_reads_it(body: str) -> None:
    assert _dead("struct stream *s, int n", body) == [("value assigned to 's->pos' is never read", 0)]


@pytest.mark.parametrize(
    "body",
    [
        "    s->pos = n;",  # the caller reads it
        "    s->pos = n;\n    touch(s);\n    s->pos = 0;",  # a callee may read it
        "    s->pos = n;\n    n = t->pos;\n    s->pos = 0;",  # t may be s
        "    s->pos = n;\n    if (s->pos > 1)\n        n = 2;\n    s->pos = n;",
        "    free(s->buf);\n    s->buf = NULL;\n    s->buf = t->buf;",  # a handle's reset
        "    s->pos = n;\n    s = s->next;\n    s->pos = 0;",  # another object
        "    struct stream *c = s;\n    s->pos = n;\n    n = c->pos;\n    s->pos = 0;",  # a copy reads it
        "    s->pos = n;\n    struct stream w = *s;\n    s->pos = w.len;",
        "    s->pos = n;\n    exit(1);",
    ],
)
def test_no_finding(body: str) -> None:
    assert _dead("struct stream *s, struct stream *t, int n", body) == []


def test_a_volatile_object_keeps_every_store() -> None:
    assert _dead("volatile struct stream *s, int n", "    s->pos = n;\n    s->pos = 0;") == []


GLOBALS = """\
#include <stdlib.h>
static int retries;
volatile int flag;
int *shared;
char *g_buf;
int work(void);
"""


def _dead_global(body: str) -> list[tuple[str, int]]:
    src = GLOBALS + f"void g(int n, const int *p, char *q)\n{{\n{body}\n}}\n"
    first = GLOBALS.count("\n") + 2
    return [(f.message, f.location.start_line - first) for f in check_src(src) if f.rule_id == "dead-store"]


@pytest.mark.parametrize(
    ("body", "name"),
    [
        ("    retries = 0;\n    n = n + 1;\n    retries = n;", "retries"),
        ("    static int calls;\n    calls = n;\n    calls = 2;", "calls"),
    ],
)
def test_a_variable_stored_twice_before_anything_reads_it(body: str, name: str) -> None:
    found = _dead_global(body)
    assert found == [(f"value assigned to '{name}' is never read", 0 if name == "retries" else 1)]


@pytest.mark.parametrize(
    "body",
    [
        "    retries = n;",  # the next call reads it
        "    retries = n;\n    n = work();\n    retries = n;",  # a callee may read it
        "    retries = n;\n    n = *p;\n    retries = n;",  # p may point to it
        "    flag = 1;\n    flag = 0;",  # volatile: every store counts
        "    static volatile int seen;\n    seen = 1;\n    seen = 0;",
        "    free(g_buf);\n    g_buf = NULL;\n    g_buf = q;",  # a handle's reset
        "    int retries = n;\n    if (retries > 2)\n        retries = 2;\n    free(q + retries);",  # a local's rules
    ],
)
def test_no_finding_for_variables(body: str) -> None:
    assert _dead_global(body) == []
