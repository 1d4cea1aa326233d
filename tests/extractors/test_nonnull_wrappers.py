"""A project allocator that never returns NULL (``if (!p) abort();`` before ``return p;``) hands its
callers a block they need not test, as a ``nonnull_allocators`` entry (``xmalloc``) does: its result
is still theirs to free.

Real case: pyppmd's Windows ``pthread_self`` (``malloc`` then ``if (!t) abort();``): each caller's
``t->...`` was reported as an unchecked dereference.  The twins return NULL, or return the block
on a path that skips the test, and their callers' dereference is still reported.
"""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src, line_of, of_rule

CALLER = """
int use(int n) {
    struct rec *t = make(n);
    int c = t->err;   /*D*/
    free(t);
    return c;
}
"""

PRELUDE = "#include <stdlib.h>\nstruct rec { int err; };\nvoid *lookup(int n);\n"

NEVER_NULL = {
    "abort": "if (!p) abort();",
    "exit": "if (p == NULL) exit(1);",
    "else branch": "if (p != NULL) p->err = 0; else abort();",
}

MAY_BE_NULL = {
    "returns NULL": "if (!p) return NULL;",
    "test on one path only": "if (n > 0 && !p) abort();",
    "no test": "",
}


def source(check: str) -> str:
    return (
        PRELUDE
        + (
            "static struct rec *make(int n) {\n    struct rec *p = malloc(sizeof *p);\n    "
            + check
            + "\n    return p;\n}\n"
        )
        + CALLER
    )


@pytest.mark.parametrize("check", NEVER_NULL.values(), ids=list(NEVER_NULL))
def test_a_wrapper_that_never_returns_null_needs_no_test(check: str) -> None:
    src = source(check)
    assert of_rule(check_src(src), "null-dereference") == []


@pytest.mark.parametrize("check", MAY_BE_NULL.values(), ids=list(MAY_BE_NULL))
def test_a_wrapper_that_may_return_null_does(check: str) -> None:
    src = source(check)
    found = of_rule(check_src(src), "null-dereference")
    assert [f.location.start_line for f in found] == [line_of(src, "/*D*/")]


def test_a_cached_value_returned_unchecked_may_be_null() -> None:
    """The block is tested, but the other value it returns (a lookup's) is not."""
    src = (
        PRELUDE
        + (
            "static struct rec *make(int n) {\n    struct rec *p = lookup(n);\n    if (n > 3) {\n"
            "        p = malloc(sizeof *p);\n        if (!p) abort();\n    }\n    return p;\n}\n"
        )
        + CALLER
    )
    found = of_rule(check_src(src), "null-dereference")
    assert [f.location.start_line for f in found] == [line_of(src, "/*D*/")]


def test_the_blocks_of_a_never_null_wrapper_still_leak() -> None:
    src = source("if (!p) abort();").replace("    free(t);\n", "")
    found = of_rule(check_src(src), "memory-leak")
    assert [f.function for f in found] == ["use"]
