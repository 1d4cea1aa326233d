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
        "NEVER(X) (X)",  # its argument here, an assertion in another build (SQLite's)
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
