"""Branch hints: ``__builtin_expect(e, c)`` and the macros that wrap it branch as ``e`` does."""

from __future__ import annotations

import pytest

from extractors.api import Project
from extractors.count_macros import count_macros, counting, function_like, hint
from tests.extractors.helpers import line_of


@pytest.mark.parametrize(
    "define",
    [
        "unlikely(x) __builtin_expect(!!(x), 0)",
        "likely(x) (__builtin_expect((x), 1))",
        "LIKELY(c) __builtin_expect_with_probability(!!(c), 1, 0.9)",
        "PREDICT_FALSE(x) (__builtin_expect(x, 0))",
        "ID(x) (x)",
    ],
)
def test_a_hint_has_its_arguments_truth(define: str) -> None:
    macro = function_like(define)
    assert macro is not None and hint(macro)
    # a file's hints reach the CFG builder with its count macros
    name = define.split("(")[0]
    assert name in counting(count_macros(f"#define {define}\n"))


@pytest.mark.parametrize(
    "define",
    [
        "ALWAYS(X) (1)",  # a constant: no hint
        "NOT(x) __builtin_expect(!(x), 0)",  # the truth negated
        "PLUS(x) (x) + (1)",  # parentheses that do not hold the whole body
        "EXPECT(x, c) __builtin_expect(!!(x), c)",  # two parameters: not one argument's truth
        "COUNT(x) __builtin_expect(x + 1, 0)",
        "PICK(x) __builtin_expect(!!(y), 0)",  # another name
    ],
)
def test_what_is_no_hint(define: str) -> None:
    macro = function_like(define)
    assert macro is not None and not hint(macro)


def test_a_hint_in_one_build_and_no_hint_in_another_is_none() -> None:
    # SQLite's: a constant in a coverage build, an assertion in a debug one, the argument in a release
    sqlite = """
#if defined(SQLITE_COVERAGE_TEST)
# define ALWAYS(X)      (1)
#elif !defined(NDEBUG)
# define ALWAYS(X)      ((X)?1:(assert(0),0))
#else
# define ALWAYS(X)      (X)
#endif
"""
    assert "ALWAYS" not in counting(count_macros(sqlite))
    # zstd's: a hint with GCC, the argument elsewhere: a hint in both
    zstd = """
#if defined(__GNUC__)
#define LIKELY(x) (__builtin_expect((x), 1))
#else
#define LIKELY(x) (x)
#endif
"""
    assert "LIKELY" in counting(count_macros(zstd))


ASSERTED = """
#include <string.h>
#if !defined(NDEBUG) && !defined(DEBUG)
# define NDEBUG 1
#endif
#if defined(COVERAGE_TEST)
# define ALWAYS(X)      (1)
#elif !defined(NDEBUG)
# define ALWAYS(X)      ((X)?1:(assert(0),0))
#else
# define ALWAYS(X)      (X)
#endif
#define unlikely(X) __builtin_expect((X), 0)
struct chunk { struct chunk *next; char data[64]; };
void copy_at(struct chunk *first, long at, char *out, int n) {
    struct chunk *c;
    long off = 0;
    for (c = first; ALWAYS(c) && off + 64 <= at; c = c->next)
        off += 64;
    memcpy(out, c->data, n);
}
"""


def test_a_build_that_asserts_the_hint_keeps_it_no_hint() -> None:
    # read as (X), the loop would end with c NULL, which the author's debug build asserts away (the
    # file's own NDEBUG picks the release build's definition, as SQLite's does)
    project = Project()
    project.set_file("a.c", ASSERTED)
    assert [f for f in project.check()["a.c"] if f.rule_id == "known-null-dereference"] == []
    # a hint that is a hint in every build (a branch hint) makes the loop's exit test c's
    hinted = ASSERTED.replace("ALWAYS(c) &&", "unlikely(c != 0) &&")
    project.set_file("a.c", hinted)
    assert [f.location.start_line for f in project.check()["a.c"] if f.rule_id == "known-null-dereference"] == [
        line_of(hinted, "memcpy(out, c->data, n);")
    ]
