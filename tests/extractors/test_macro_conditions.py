"""Conditions written as a bare macro call: ``if EQ("pcall") {`` where ``#define EQ(s)
(strcmp(s, inst) == 0)`` brings the parentheses (lua's ltests.c).  tree-sitter, which does not
expand macros, read an ``else if`` chain of them as a run of unrelated blocks, so a store in one
arm looked overwritten by the next arm's.  The front end reads such a condition parenthesised
(``extractors.preprocessor.with_macro_conditions``), every position kept."""

from __future__ import annotations

from extractors.preprocessor import with_macro_conditions, without_loop_annotations, without_type_annotations
from tests.extractors.helpers import check_src, line_of, of_rule

RUN = r"""
#include <string.h>
#define EQ(s1) (strcmp(s1, inst) == 0)
static const char *const statcodes[] = {"OK", "YIELD", "ERRRUN"};
const char *next_word(const char **pc);
int protected_call(void *L, int nargs);
int read_number(const char **pc);
void push_string(void *L, const char *s);
void fail(void *L, const char *what);

int run_script(void *L, const char *pc)
{
    int status = 0;
    for (;;) {
        const char *inst = next_word(&pc);
        if EQ("") return 0;
        else if EQ("pcall") {
            int narg = read_number(&pc);
            status = protected_call(L, narg);
        }
        else if EQ("pcallk") {
            int narg = read_number(&pc);
            status = protected_call(L, narg + 1);
        }
        else if EQ("pushstatus") {
            push_string(L, statcodes[status]);
        }
        else fail(L, inst);
    }
}
"""


def test_an_else_if_chain_of_macro_conditions_keeps_its_arms_apart() -> None:
    assert check_src(RUN) == []


def test_a_store_overwritten_in_its_own_arm_is_still_dead() -> None:
    src = RUN.replace(
        "            status = protected_call(L, narg);\n",
        "            status = protected_call(L, narg); /*D*/\n            status = 0;\n",
    )
    found = of_rule(check_src(src), "dead-store")
    assert [f.location.start_line for f in found] == [line_of(src, "/*D*/")]


def test_the_rewrite_keeps_positions_and_leaves_c_alone() -> None:
    text = b'if EQ("x") return 0;\nelse if EQ(")") {\n'
    assert with_macro_conditions(text) == b'if(EQ("x"))return 0;\nelse if(EQ(")")){\n'
    source = RUN.encode()
    rewritten = with_macro_conditions(source)
    assert rewritten != source and len(rewritten) == len(source)
    assert [i for i, c in enumerate(rewritten) if c == 10] == [i for i, c in enumerate(source) if c == 10]
    for same in (
        b"#if X(1) \n",
        b"  # if defined(X) || Y\n",
        b"if (a) b;\n",
        b"while ok(x);\n",
        b'p("if f(x) y");\n',
        b"/* 1 if init()\n   fails */\n",  # a comment; and a line break is never a parenthesis
        b"x = 1; // if f(x) y\n",
        b"if ready(s)\n    go();\n",
    ):
        assert with_macro_conditions(same) is same


def test_a_loop_contract_between_condition_and_block_is_blanked_in_place() -> None:
    text = b"while (n > 0)\n__loop__(\n  invariant(n <= len) /* ) */\n)\n{\n"
    start, end = text.index(b"__loop__"), text.rindex(b")") + 1
    blank = bytes(b if b == 10 else 32 for b in text[start:end])
    assert without_loop_annotations(text) == text[:start] + blank + text[end:]
    text = b'for (i = 0; i < N; i++) __loop__(invariant(s[i] != ")")) {'
    call = b'__loop__(invariant(s[i] != ")"))'
    assert without_loop_annotations(text) == text.replace(call, b" " * len(call))
    for same in (
        b"if (a) f(x);\n",
        b"while (x) g(y)\n  ;\n",
        b"for (;;) {\n",
        b"if (a) return f(b) {\n",  # a keyword is no macro
        b'p("while (x) f(y) {");\n',
        b"/* if (x) f(y) { */\n",
        b"#if defined(A) X(1) {\n",
    ):
        assert without_loop_annotations(same) is same


def test_a_macro_before_a_tag_is_blanked_in_place() -> None:
    text = b"    static CACHE_ALIGNED union u { int m; } a[] = { {1} };\n"
    assert without_type_annotations(text) == text.replace(b"CACHE_ALIGNED", b" " * 13)
    text = b"EXPORT struct s *make(void);\ntypedef PACKED enum e { A } e_t;\n"
    assert without_type_annotations(text) == text.replace(b"EXPORT", b" " * 6).replace(b"PACKED", b" " * 6)
    for same in (
        b"static const struct s x;\n",  # keywords stay
        b"typedef struct s s_t;\n",
        b"__extension__ union { int a; } u;\n",  # the compilers' own
        b"sizeof(struct s) + n_struct;\n",
        b'p("EXPORT struct s");\n',
        b"/* X struct */\n",
        b"#define DECL(t) t struct\n",
        b"#define DECL(t) \\\r\n    static t struct\n",  # a directive's continued line
        b"int x;\n",
    ):
        assert without_type_annotations(same) is same


def test_members_of_a_local_tag_after_a_macro_are_no_locals() -> None:
    src = """
int use(const void *);
int f(void) {
    static ALIGNED union u { int m; double d; } a[] = { {1} };
    int spare;
    return use(a);
}
"""
    found = of_rule(check_src(src), "unused-variable")
    assert [(f.location.start_line, f.message.split("'")[1]) for f in found] == [(line_of(src, "int spare"), "spare")]
