"""Branch hints: ``__builtin_expect(e, c)`` and the macros that wrap it branch as ``e`` does."""

from __future__ import annotations

import pytest

from extractors.count_macros import count_macros, counting, function_like, hint


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
