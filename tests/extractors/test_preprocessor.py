"""Preprocessor conditionals: a choice of their branches, decided by known defines, and parsed per
variant when they split a brace pair or an expression (``extractors.preprocessor``)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from extractors.config import ConfigError, config_from_text
from extractors.preprocessor import Defines, condition, variants
from tests.extractors.helpers import check_src, line_of, of_rule

D = Defines({"ON": 1, "LEVEL": 3, "OFF": 0}, frozenset({"GONE"}))


@pytest.mark.parametrize(
    ("kind", "text", "want"),
    [
        ("ifdef", "ON", True),
        ("ifndef", "ON", False),
        ("ifdef", "GONE", False),
        ("ifdef", "MAYBE", None),
        ("if", "defined(ON) && !defined(GONE)", True),
        ("if", "defined MAYBE", None),
        ("if", "MAYBE && OFF", False),  # one side decides
        ("if", "MAYBE || LEVEL > 2", True),
        ("if", "MAYBE || OFF", None),
        ("if", "(LEVEL + 1) * 2 == 8 /* comment */", True),
        ("if", "GONE", False),  # an undefined name reads as 0
        ("if", "VERSION(2)", None),  # a function-like macro is not expanded
        ("if", "1 / OFF", None),
        ("elif", "LEVEL >= 4", False),
        ("if", "'A' == '\\301'", False),  # character constants: sqlite's EBCDIC test
        ("if", "'\\n' == 10 && 'A' == 65 && '\\x41' == 'A'", True),
        ("if", "'\\377' < 0", True),  # a plain char is signed on x86-64
        ("if", "'ab' == 1", None),  # a multi-character constant's value is the compiler's
    ],
)
def test_a_condition_is_decided_only_by_what_the_defines_say(kind: str, text: str, want: bool | None) -> None:
    assert condition(kind, text, D) is want


_LINE = st.sampled_from(
    ["#if A", "#ifdef B", "#ifndef C", "#elif D", "#else", "#endif", "x = 1;", "  y(2);", "#define E \\", "}", "{"]
)


@given(st.lists(_LINE, max_size=30))
def test_variants_keep_every_position_and_every_line_they_keep(lines: list[str]) -> None:
    text = "\n".join(lines).encode()
    for v in variants(text):
        assert len(v) == len(text)
        assert [m.start() for m in re.finditer(b"\n", v)] == [m.start() for m in re.finditer(b"\n", text)]
        continued = False  # a line after a backslash belongs to the #define before it
        for kept, line in zip(v.split(b"\n"), text.split(b"\n"), strict=True):
            assert kept.strip() in (b"", line.strip())
            if not continued:
                assert not kept.lstrip().startswith((b"#if", b"#el", b"#endif"))
            continued = line.endswith(b"\\")


ELSE_BAD = """
int use(int);
int f(int n) {
    int x;
#ifdef FAST
    x = 1;
#elif defined(SLOW)
    x = 2;
#else
    n = 3;
#endif
    return use(x); /*R*/
}
"""


def test_an_else_branch_is_one_of_the_choices_not_a_skip() -> None:
    good = ELSE_BAD.replace("n = 3;", "x = n;")
    assert of_rule(check_src(good), "uninitialised-read") == []
    (bad,) = of_rule(check_src(ELSE_BAD), "uninitialised-read")
    assert bad.location.start_line == line_of(ELSE_BAD, "/*R*/")


def test_known_defines_keep_only_the_active_branch() -> None:
    on = config_from_text('[preprocessor]\ndefines = ["FAST"]\n')
    slow = config_from_text('[preprocessor]\ndefines = ["SLOW=1"]\nundefines = ["FAST"]\n')
    off = config_from_text('[preprocessor]\nundefines = ["FAST", "SLOW"]\n')
    assert of_rule(check_src(ELSE_BAD, on), "uninitialised-read") == []
    assert of_rule(check_src(ELSE_BAD, slow), "uninitialised-read") == []
    assert len(of_rule(check_src(ELSE_BAD, off), "uninitialised-read")) == 1


def test_a_file_define_decides_its_conditionals() -> None:
    src = "#define USE_CHECK 1\n" + """
#include <stdlib.h>
int f(int n) {
    char *p = malloc(n);
#if USE_CHECK
    if (!p) return 0;
#endif
    p[0] = 1;
    free(p);
    return 1;
}
"""
    assert of_rule(check_src(src), "null-dereference") == []
    assert len(of_rule(check_src(src.replace("USE_CHECK 1", "USE_CHECK 0")), "null-dereference")) == 1


SPLIT = """
#include <stdlib.h>
int split(int n) {
    char *p = malloc(4);
    if (!p) return 0;
#ifdef NEW_API
    if (n) { free(p);
#else
    if (n > 1) {
#endif
        return 1; /*LEAK*/
    }
    free(p);
    return 0;
}
int after(void) {
    int *q = malloc(4);
    free(q);
    free(q); /*DF*/
    return 0;
}
"""


def test_a_conditional_splitting_a_brace_pair_is_modelled_per_variant_and_drops_nothing() -> None:
    found = check_src(SPLIT)
    assert [f.location.start_line for f in of_rule(found, "double-free")] == [line_of(SPLIT, "/*DF*/")]
    (leak,) = of_rule(found, "memory-leak")  # the #else variant returns without freeing
    assert leak.location.start_line == line_of(SPLIT, "p = malloc(4)")
    fixed = SPLIT.replace("    if (n > 1) {\n", "    if (n > 1) { free(p);\n")
    assert of_rule(check_src(fixed), "memory-leak") == []
    assert of_rule(check_src(SPLIT, config_from_text('[preprocessor]\ndefines = ["NEW_API"]\n')), "memory-leak") == []


INDEPENDENT = """
#include <stdlib.h>
int mixed(void) {
    char *p = malloc(4);
    if (!p) return 0;
#ifdef FREE_EARLY
    free(p);
    p = 0;
#endif
#ifdef RETURN_EARLY
    return 1; /*LEAK*/
#endif
    free(p);
    return 0;
}
"""


@pytest.mark.parametrize("head", ["int mixed(void)", "API_EXPORT int mixed(void)", "static API_CALL int mixed(void)"])
def test_an_unknown_macro_before_the_type_leaves_the_conditionals_independent(head: str) -> None:
    """A build with RETURN_EARLY and not FREE_EARLY leaks.  The two conditionals are independent
    choices when the function parses; an unknown macro before its return type (SQLITE_PRIVATE)
    makes the parse fail in every variant alike, so the conditionals split nothing and are read
    as written the same way, not as the choice of an all-first and an all-last variant, where
    no variant takes one conditional and not the other and the leak is lost."""
    src = INDEPENDENT.replace("int mixed(void)", head)
    (leak,) = of_rule(check_src(src), "memory-leak")
    assert leak.location.start_line == line_of(src, "p = malloc(4)")
    assert of_rule(check_src(src.replace("return 1; /*LEAK*/", "free(p); return 1;")), "memory-leak") == []


def test_a_conditional_inside_an_expression_is_modelled_per_variant() -> None:
    src = """
int use(int);
int k(int n) {
    int r;
    if (n
#ifdef EXTRA
        && n > 2
#endif
       ) { r = 1; }
    return use(r); /*R*/
}
"""
    (bad,) = of_rule(check_src(src), "uninitialised-read")
    assert bad.location.start_line == line_of(src, "/*R*/")
    assert of_rule(check_src(src.replace("{ r = 1; }", "{ r = 1; } else { r = 2; }")), "uninitialised-read") == []


def test_bad_preprocessor_settings_are_named() -> None:
    with pytest.raises(ConfigError, match="not a macro name"):
        config_from_text('[preprocessor]\ndefines = ["1X"]\n')
    with pytest.raises(ConfigError, match="unknown key preprocessor.includes"):
        config_from_text('[preprocessor]\nincludes = ["x"]\n')
    with pytest.raises(ConfigError, match="preprocessor.include must be a list of folders"):
        config_from_text('[preprocessor]\ninclude = "x"\n')
    with pytest.raises(ConfigError, match="preprocessor.compile_commands must be a file name"):
        config_from_text('[preprocessor]\ncompile_commands = ["a.json"]\n')
    named = config_from_text('[preprocessor]\ncompile_commands = "build/cc.json"\n', "/p/ctlsp.toml")
    assert named.compile_commands == "/p/build/cc.json"
    with pytest.raises(ConfigError, match="must be a list"):
        config_from_text('[preprocessor]\nundefines = "X"\n')
    assert config_from_text('[preprocessor]\ndefines = ["A"]\n').digest() != config_from_text("").digest()


THREADS = """
#include <stdlib.h>
int compute(int n);
int f(int n) {
    char *buf = malloc(10); /*A*/
    int x;
    if (!buf) return -1;
    Py_BEGIN_ALLOW_THREADS
    x = compute(n);
    Py_END_ALLOW_THREADS
    _Py_COMP_DIAG_PUSH
    free(buf);
    _Py_COMP_DIAG_POP
    return x;
}
"""


def test_a_macro_used_as_a_statement_without_semicolon_does_not_swallow_the_next() -> None:
    """Read as written, ``_Py_COMP_DIAG_PUSH free(buf);`` declares ``free``: the free is lost and
    the block leaks; ``Py_END_ALLOW_THREADS`` would make the next assignment a new declaration."""
    assert check_src(THREADS) == []
    (leak,) = of_rule(check_src(THREADS.replace("    free(buf);\n", "    compute(1);\n")), "memory-leak")
    assert leak.location.start_line == line_of(THREADS, "/*A*/")


@pytest.mark.parametrize(
    "text",
    [
        "int f(void) {\n    size_t\n        n = 0;\n    return n;\n}\n",  # a type on its own line
        "int f(int a) {\n    int y = a +\n        B\n        ;\n    return y;\n}\n",  # an operand
        "int f(int a) {\n    if (a)\n        DONE\n    return a;\n}\n",  # after a condition: unknown
        "int f(void) {\n    FOREACH\n    { g(); }\n    return 0;\n}\n",  # a block macro
        "DWORD\nWINAPI f(void) {\n    return 0;\n}\n",  # a return type before the name
    ],
)
def test_lone_names_that_are_not_statements_are_kept(text: str) -> None:
    from extractors.preprocessor import without_statement_macros

    assert without_statement_macros(text.encode()) == text.encode()


SPLIT_BY_MACRO = """
int compress(int *dest, int flag, int n) {
  int *start;
  Py_BEGIN_ALLOW_THREADS

  if (flag)
    {
      start = dest + 4;
    }
  else
    {
      start = dest;
    }

  n = work(start, n);

  Py_END_ALLOW_THREADS
  return n;
}
"""


def test_a_statement_macro_does_not_cut_a_function_short_in_the_file() -> None:
    """Read as written, the file's parse ends ``compress`` after the ``if``: the read of ``start``
    is lost and both assignments look dead (lz4's ``_block.c``)."""
    assert check_src(SPLIT_BY_MACRO) == []
    dead = check_src(SPLIT_BY_MACRO.replace("work(start, n)", "work(dest, n)"))
    lines = {f.location.start_line for f in of_rule(dead, "dead-store")}
    assert lines and lines <= {line_of(SPLIT_BY_MACRO, "start = dest + 4;"), line_of(SPLIT_BY_MACRO, "start = dest;")}


def test_a_text_cut_from_inside_conditionals_closes_them_innermost_first() -> None:
    """A function's text may start inside conditionals opened before it: the first ``#endif`` or
    ``#else`` met belongs to the innermost of them."""
    text = b"a\n#else\nb\n#endif\nc\n#else\nd\n#endif\ne\n"
    first, last = variants(text)
    assert first.split() == [b"a", b"c", b"e"]
    assert last.split() == [b"d", b"e"]  # the outer conditional's #else: a, b and c are its first branch


def test_each_variant_decides_a_condition_one_way_throughout() -> None:
    """A variant is one configuration: a condition it took (or skipped) is taken (skipped) again
    when it comes back, spelt with other spaces, as ``#ifdef``/``#ifndef``, negated or as a part
    of a conjunction; a condition it does not touch stays a free choice."""
    text = b"#ifdef A\na\n#endif\n#ifndef A\nb\n#endif\n#if defined( A ) && A+0 < 3\nc\n#else\nd\n#endif\n"
    first, last = variants(text)
    assert first.split() == [b"a", b"c"]  # A defined: not b; A+0 < 3 is free, the first branch taken
    assert last.split() == [b"b", b"d"]  # A undefined: b, and the conjunction is false
    same = b"#if X > 1\na\n#else\nb\n#endif\n#if !( X>1 )\nc\n#else\nd\n#endif\n#if Y\ne\n#else\nf\n#endif\n"
    first, last = variants(same)
    assert first.split() == [b"a", b"d", b"e"]
    assert last.split() == [b"b", b"c", b"f"]


# PyUnicode_EqualToUTF8AndSize of pythoncapi_compat.h (bitarray 3.12.3): the text does not parse as
# written (an ``else`` cut by ``#endif``), so it is read per variant; ``bytes`` is declared, set and
# released only under the limited API, which the ``#ifndef`` excludes.
VARIANT_MIX = """
#include <string.h>
typedef struct obj obj;
obj *as_bytes(obj *);
const char *as_utf8(obj *, long *);
const char *data_of(obj *);
long size_of(obj *);
int is_ascii(obj *);
void release(obj *);
int equal(obj *u, const char *str, long str_len) {
    long len;
#if defined(LIMITED) && LIMITED+0 < PACK_VERSION(3, 10)
    obj *bytes;
#endif
    const char *utf8;
    int res;
#ifndef LIMITED
    if (is_ascii(u)) {
        utf8 = data_of(u);
        len = 1;
    }
    else
#endif
    {
#if defined(LIMITED) && LIMITED+0 < PACK_VERSION(3, 10)
        bytes = as_bytes(u);
        if (bytes == NULL) {
            res = 0;
            goto done;
        }
        utf8 = data_of(bytes);
        len = size_of(bytes);
#else
        utf8 = as_utf8(u, &len);
        if (utf8 == NULL) {
            res = 0;
            goto done;
        }
#endif
    }
    res = len == str_len && memcmp(utf8, str, (size_t)len) == 0;
#if defined(LIMITED) && LIMITED+0 < PACK_VERSION(3, 10)
    release(bytes); /*R*/
#endif
done:
    return res;
}
"""


def test_a_variant_does_not_take_a_conditional_its_earlier_choice_excludes() -> None:
    assert of_rule(check_src(VARIANT_MIX), "uninitialised-read") == []
    # guarded by another name, the ascii branch may run with the limited API: bytes is not set
    other = VARIANT_MIX.replace("#ifndef LIMITED", "#ifndef OTHER")
    (bad,) = of_rule(check_src(other), "uninitialised-read")
    assert bad.location.start_line == line_of(other, "/*R*/")


# A function that parses as written keeps an undecided conditional's branches as alternatives of
# its CFG; a condition that comes back must take the same branch again.
SAME_CONDITION = """
int get(void);
int use(int);
int f(void) {
    int x;
#if defined(FEATURE) && FEATURE > 1
    x = get();
#else
    get();
#endif
#if defined(FEATURE)  &&  FEATURE > 1
    return use(x); /*R*/
#endif
    return 0;
}
"""


def test_a_repeated_condition_takes_the_same_branch_in_a_parsed_function() -> None:
    assert of_rule(check_src(SAME_CONDITION), "uninitialised-read") == []
    for bug in (
        SAME_CONDITION.replace("#if defined(FEATURE)  &&", "#if defined(OTHER)  &&"),  # another condition
        SAME_CONDITION.replace("    x = get();\n#else\n    get();", "    get();\n#else\n    x = get();"),
    ):
        (bad,) = of_rule(check_src(bug), "uninitialised-read")
        assert bad.location.start_line == line_of(bug, "/*R*/")
