"""Names a file defines under conditions nothing decides keep those conditions (their guards), so
the conditionals of a function that test them are decided together (``extractors.define_guards``,
``extractors.includes``, ``Assumed`` in ``extractors.preprocessor``)."""

from __future__ import annotations

import re
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from extractors.define_guards import constant
from extractors.includes import Preprocessed, SearchPath, preprocess
from extractors.preprocessor import Defines, Directive, condition_tokens, directives, variants
from tests.extractors.helpers import check_src, line_of, of_rule


def _run(text: str, headers: dict[str, str] | None = None, base: Defines | None = None) -> Preprocessed:
    files = headers or {}

    def lookup(path: str) -> tuple[Directive, ...] | None:
        return directives(files[path].encode()) if path in files else None

    return preprocess("/p/a.c", directives(text.encode()), (), SearchPath(), base or Defines(), lookup)


PAIR = """
#if defined(_WIN32)
#define HEAP_WIN 1
#else
#define HEAP_LIBC 1
#endif
"""


def test_each_of_an_if_else_pair_of_defines_keeps_its_branch_s_condition() -> None:
    guarded = _run(PAIR).defines.guarded
    assert set(guarded) == {"HEAP_WIN", "HEAP_LIBC"}
    assert guarded["HEAP_WIN"][1] == 1
    assert "_WIN32" in guarded["HEAP_WIN"][0] and "!" in guarded["HEAP_LIBC"][0]


def test_what_a_guard_settles_is_defined_or_undefined_not_guarded() -> None:
    text = """
#ifndef LIMIT
#define LIMIT 64
#endif
#ifdef WIDE
#define STEP 1
#else
#define STEP 2
#endif
#ifdef WIDE
#define SAME 7
#else
#define SAME 7
#endif
#if 0
#define NEVER 1
#endif
#if 'A' == '\\301'
#define EBCDIC 1
#else
#define ASCII 1
#endif
"""
    d = _run(text).defines
    assert d.guarded == {}
    assert d.defined == {"LIMIT": 64, "STEP": None, "SAME": 7, "ASCII": 1}
    assert {"NEVER", "EBCDIC"} <= d.undefined


def test_a_guard_is_kept_only_where_it_is_the_whole_truth() -> None:
    text = """
#ifdef X
#define UNDONE 1
#endif
#undef UNDONE
#ifdef B
#define EARLY 1
#endif
#define B 1
#define TWICE 1
#ifdef Y
#define TWICE 2
#endif
#ifdef Z
#define HEADER_TOO 1
#endif
#include "h.h"
#ifdef M
#undef M
#define INSIDE 1
#endif
"""
    d = _run(text, {"/p/h.h": "#ifdef Q\n#define HEADER_TOO 3\n#endif\n"}).defines
    assert d.guarded == {}
    # UNDONE is #undef-ined; EARLY's guard reads B, defined after it; TWICE is defined for sure
    # before; a header may define HEADER_TOO too; INSIDE's guard reads M, which the line before
    # it undefines
    assert "EARLY" not in d.defined and "HEADER_TOO" not in d.defined and "UNDONE" in d.undefined


def test_the_variants_of_a_text_keep_exactly_one_of_a_pair_s_blocks() -> None:
    defines = _run(PAIR).defines
    text = b"int f(void) {\n#ifdef HEAP_WIN\n  win();\n#endif\n#ifdef HEAP_LIBC\n  libc();\n#endif\n}\n"
    kept = [(b"win()" in v, b"libc()" in v) for v in variants(text, defines)]
    assert sorted(kept) == [(False, True), (True, False)]
    # with the names unknown the variants are both and neither
    unknown = [(b"win()" in v, b"libc()" in v) for v in variants(text, Defines())]
    assert sorted(unknown) == [(False, False), (True, True)]


PARSED = (
    PAIR
    + """
#include <stdlib.h>
char *win_alloc(int n);
char *get(int n)
{
    char *p;
#ifdef HEAP_WIN
    p = win_alloc(n);
#endif
#if HEAP_LIBC
    p = malloc(n);
#endif
    return p; /*R*/
}
"""
)


def test_a_parsed_function_runs_one_block_of_a_pair_never_both_nor_none() -> None:
    findings = check_src(PARSED)
    assert of_rule(findings, "uninitialised-read") == [] and of_rule(findings, "dead-store") == []
    # two names nothing ties together: a build may define neither, and p is read unset
    loose = PARSED.replace("#else\n#define HEAP_LIBC 1\n", "#endif\n#ifdef __unix__\n#define HEAP_LIBC 1\n")
    (bad,) = of_rule(check_src(loose), "uninitialised-read")
    assert bad.location.start_line == line_of(loose, "/*R*/")


# ----- constant: against Python's own evaluation of the same formula ----------------------------

_TESTS = ["defined A", "defined B", "X > 1"]


@st.composite
def _formula(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        return draw(st.sampled_from(_TESTS))
    op = draw(st.sampled_from(["&&", "||", "!"]))
    if op == "!":
        return f"!({draw(_formula(depth + 1))})"
    return f"({draw(_formula(depth + 1))}) {op} ({draw(_formula(depth + 1))})"


def _python(formula: str, values: dict[str, bool]) -> bool:
    text = formula
    for test, value in values.items():
        text = text.replace(test, str(value))
    text = re.sub(r"!\(", " not (", text).replace("&&", " and ").replace("||", " or ")
    return bool(eval(text))  # the formula is made of the three tests, parentheses and operators only


@given(_formula())
def test_a_guard_is_constant_exactly_when_every_assignment_of_its_tests_agrees(formula: str) -> None:
    tokens = condition_tokens("if", formula)
    assert tokens is not None
    outcomes = {_python(formula, dict(zip(_TESTS, vs, strict=True))) for vs in product((False, True), repeat=3)}
    want = outcomes.pop() if len(outcomes) == 1 else None
    assert constant(tokens) is want


VALUES = """
#if defined(__RTP__) || defined(_WRS_KERNEL)
#define OS_VX 1
#define HOMEGROWN 1
#else
#define OS_VX 0
#endif
#ifndef AMALGAMATION
#define CORE 1
#define AMALGAMATION 1
#ifdef USE_B
#define B_ON 1
#endif
#endif
"""


def test_a_name_defined_to_different_numbers_reads_as_the_test_that_chose_them() -> None:
    d = _run(VALUES).defines
    assert d.defined["OS_VX"] is None and "OS_VX" in d.guarded
    text = b"f() {\n#if OS_VX\n  vx();\n#endif\n#ifndef HOMEGROWN\n  posix();\n#endif\n}\n"
    kept = sorted((b"vx()" in v, b"posix()" in v) for v in variants(text, d))
    assert kept == [(False, True), (True, False)]


def test_a_block_that_defines_the_name_it_tests_for_runs_when_the_name_is_unknown() -> None:
    """An amalgamation's ``#ifndef SQLITE_AMALGAMATION  ...  #define SQLITE_AMALGAMATION``: the
    lines inside run for sure, so what they define is defined and guards inside are kept."""
    d = _run(VALUES).defines
    assert d.defined["CORE"] == 1 and d.defined["AMALGAMATION"] == 1
    assert "B_ON" in d.guarded
    # told that the name is defined, the block does not run
    told = _run(VALUES, base=Defines({"AMALGAMATION": 1}))
    assert "CORE" not in told.defines.defined and "B_ON" not in told.defines.guarded


def test_a_long_chain_of_guards_is_read_to_a_bounded_depth() -> None:
    """``#ifdef G0  #define G1  #endif  #ifdef G1  #define G2 ...``: each guard reads the name
    before; deciding the last one reads through at most MAX_GUARD_DEPTH of them, never overflows."""
    text = "".join(f"#ifdef G{i}\n#define G{i + 1} 1\n#endif\n" for i in range(3000))
    d = _run(text).defines
    assert len(d.guarded) == 3000
    body = b"f() {\n#ifdef G3000\n  deep();\n#endif\n#ifdef G1\n  near();\n#endif\n}\n"
    kept = sorted((b"deep()" in v, b"near()" in v) for v in variants(body, d))
    assert kept == [(False, False), (True, True)]  # both undecided: a choice, picked first or last
