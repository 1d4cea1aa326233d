"""unreachable-code, unused-variable and the opt-in unused-parameter: each case as a bad/fixed twin."""

from __future__ import annotations

import pytest

from extractors.config import config_from_text
from extractors.rules import catalogue
from tests.extractors.helpers import check_src, line_of, of_rule

H = "#include <stdlib.h>\n#include <stdio.h>\n#define DEBUG 0\n"

UNREACHABLE = [  # (name, bad, fixed): bad has exactly one finding, on the line holding HERE
    ("after_return", "int f(int x) { return x;\n foo(); /*HERE*/\n}", "int f(int x) { foo(); return x; }"),
    (
        "after_goto",
        "int f(int x) { if (x) { goto out;\n foo(); /*HERE*/\n } out: return 0; }",
        "int f(int x) { if (x) { foo(); goto out; } out: return 0; }",
    ),
    (
        "after_break",
        "void f(int n) { while (n--) { break;\n foo(); /*HERE*/\n } }",
        "void f(int n) { while (n--) { foo(); break; } }",
    ),
    (
        "after_continue",
        "void f(int n) { while (n--) { continue;\n foo(); /*HERE*/\n } }",
        "void f(int n) { while (n--) { if (n) continue; foo(); } }",
    ),
    (
        "after_exit",
        "void f(int x) { if (x) { exit(1);\n foo(); /*HERE*/\n } }",
        "void f(int x) { if (x) { foo(); exit(1); } }",
    ),
    (
        "after_abort_region_once",
        "void f(void) { abort();\n foo(); /*HERE*/\n bar(); baz(); }",
        "void f(void) { foo(); bar(); baz(); abort(); }",
    ),
    (
        "break_after_return_in_case",
        "int f(int c) { switch (c) { case 1: return 1;\n foo(); /*HERE*/\n break; } return 0; }",
        "int f(int c) { switch (c) { case 1: return 1; break; default: break; } return 0; }",
    ),
    (
        "constant_disabled",
        "int f(void) { return 1;\n if (DEBUG) foo(); /*HERE*/\n return 0; }",
        "int f(void) { if (DEBUG) foo(); if (0) bar(); while (0) { baz(); } return 0; }",
    ),
    (
        "if_zero_preprocessor",
        "int f(void) { return 1;\n foo(); /*HERE*/\n }",
        "int f(void) {\n#if 0\n return 1;\n#endif\n foo(); return 0; }",
    ),
    (
        "do_while_zero_macro",
        "int f(int x) { return x;\n do { foo(); } while (0); /*HERE*/\n }",
        "int f(int x) { do { if (x) return -1; foo(); return x; } while (0); }",
    ),
    (
        "label_reached_by_goto",
        "int f(int x) { return x;\n foo(); /*HERE*/\n out: return 0; }",
        "int f(int x) { if (x) goto out; return 1; out: foo(); return 0; }",
    ),
    (
        "defensive_return_after_noreturn",
        "void *f(void) { exit(1);\n foo(); /*HERE*/\n return NULL; }",
        "void *f(void) { exit(1); return NULL; }",
    ),
    (
        "defensive_return_after_switch",
        "int f(int c) { if (c) return 1; else return 2;\n foo(); /*HERE*/\n return 0; }",
        "int f(int c) { switch (c) { case 1: return 1; default: return 2; } return 0; }",
    ),
    (
        "for_update_not_reported",
        "int f(int n) { for (int i = 0; i < n; i++) { return i;\n foo(); /*HERE*/\n } return 0; }",
        "int f(int n) { for (int i = 0; i < n; i++) { return i; } return 0; }",
    ),
]


def _line_of_here(src: str) -> int:
    return next(i for i, line in enumerate(src.split("\n")) if "HERE" in line)


@pytest.mark.parametrize(("name", "bad", "fixed"), UNREACHABLE, ids=[c[0] for c in UNREACHABLE])
def test_unreachable_code(name: str, bad: str, fixed: str) -> None:
    found = of_rule(check_src(H + bad), "unreachable-code")
    assert [f.location.start_line for f in found] == [_line_of_here(H + bad)], name
    assert of_rule(check_src(H + fixed), "unreachable-code") == [], name


UNUSED = [  # (name, bad, fixed): bad has one finding, on the declaration
    ("never_used", "int f(int a) { int n; return a; }", "int f(int a) { int n = a; return n; }"),
    ("assigned_only", "int f(int a) { int n; n = a; return a; }", "int f(int a) { int n; n = a; return n; }"),
    ("sizeof", "int f(void) { int n; return 0; }", "int f(void) { int n; return (int)sizeof n; }"),
    ("void_cast", "void f(void) { int n = 1; }", "void f(void) { int n = 1; (void)n; }"),
    ("address", "void f(void) { int n; }", "void f(void) { int n; g(&n); }"),
    (
        "macro_argument",
        "void f(void) { int n = 2; }",
        '#define SHOW(x) printf("%d", x)\nvoid f(void) { int n = 2; SHOW(n); }',
    ),
    ("inline_asm", "void f(void) { int n; }", 'void f(void) { int n; __asm__("mov %0, 1" : "=r"(n)); }'),
    (
        "initialiser",
        "int f(int a) { int n = a; int m = 2; return m; }",
        "int f(int a) { int n = a; int m = n; return m; }",
    ),
    ("debug_branch", "void f(int a) { int n = a; }", 'void f(int a) { int n = a; if (DEBUG) printf("%d", n); }'),
    ("if_zero", "void f(int a) { int n = a; }", 'void f(int a) { int n = a;\n#if 0\n printf("%d", n);\n#endif\n}'),
    ("attribute", "void f(void) { int n; }", "void f(void) { int n __attribute__((unused)); }"),
    ("maybe_unused", "void f(void) { int n; }", "void f(void) { [[maybe_unused]] int n; }"),
    (
        "value_of_assignment",
        "int f(int *p) { int n; n = *p; return 0; }",
        "int f(int *p) { int n; while ((n = *p++) > 0) {} return 0; }",
    ),
    (
        "member_not_a_use",
        "struct s { int n; };\nint f(struct s *p) { int n; return p->n; }",
        "struct s { int n; };\nint f(struct s *p) { int n = p->n; return n; }",
    ),
]


@pytest.mark.parametrize(("name", "bad", "fixed"), UNUSED, ids=[c[0] for c in UNUSED])
def test_unused_variable(name: str, bad: str, fixed: str) -> None:
    found = of_rule(check_src(H + bad), "unused-variable")
    assert [f.message for f in found] == ["'n' is declared but never read"], name
    assert of_rule(check_src(H + fixed), "unused-variable") == [], name


def test_unused_parameter_is_opt_in() -> None:
    src = H + "int area(int w, int h, int scale) { return w * h; }\n"
    assert "unused-parameter" not in {r.id for r in catalogue()}
    assert of_rule(check_src(src), "unused-parameter") == []
    on = config_from_text("[rules.unused-parameter]\nenabled = true\n", "ctlsp.toml")
    assert [f.message for f in of_rule(check_src(src, on), "unused-parameter")] == ["parameter 'scale' is never read"]
    fixed = (
        H + "int area(int w, int h, int scale) { return w * h * scale; }\nint cb(void *ctx) { (void)ctx; return 0; }\n"
    )
    assert of_rule(check_src(fixed, on), "unused-parameter") == []


def test_a_rule_table_without_enabled_keeps_the_default() -> None:
    """``severity`` alone neither enables an opt-in rule nor disables a default one."""
    cfg = config_from_text(
        '[rules.unused-parameter]\nseverity = "error"\n[rules.dead-store]\nseverity = "error"\n', "x"
    )
    ids = {r.id for r in catalogue(cfg)}
    assert "unused-parameter" not in ids and "dead-store" in ids


def test_suppression_comment_silences_them() -> None:
    src = H + (
        "int f(void) { return 1;\n foo(); // ctlsp-ignore[unreachable-code]\n}\n"
        "void g(void) { int n; // ctlsp-ignore[unused-variable]\n}\n"
    )
    found = check_src(src)
    assert of_rule(found, "unreachable-code") == [] and of_rule(found, "unused-variable") == []


FREES = """#include <stdlib.h>
struct buf { char *data; char *spare; };
void reset(struct buf *b) {
    char *old = NULL;
    b->data = NULL;
    free(old);                    /*N*/
}
int load(struct buf *b, int n) {
    char *a = NULL, *c = NULL;
    a = malloc(n);
    if (a == NULL)
        goto out;
    c = malloc(n);
    if (c == NULL)
        goto out;
    b->data = a;
    b->spare = c;
    return 0;
out:
    free(c);
    free(a);
    return -1;
}
"""


def test_free_of_null_is_opt_in_and_spares_the_cleanup_idiom() -> None:
    """A free that can only free NULL is reported once the rule is on; the cleanup label that frees
    pointers some paths assigned (``load``'s ``out:``) is not, though an early ``goto`` reaches it
    with ``c`` still NULL."""
    assert "free-of-null" not in {r.id for r in catalogue()}
    assert of_rule(check_src(FREES), "free-of-null") == []
    on = config_from_text("[rules.free-of-null]\nenabled = true\n", "ctlsp.toml")
    (f,) = of_rule(check_src(FREES, on), "free-of-null")
    assert f.function == "reset" and f.location.start_line == line_of(FREES, "/*N*/")
    fixed = FREES.replace("char *old = NULL;\n    b->data = NULL;", "char *old = b->data;\n    b->data = NULL;")
    assert of_rule(check_src(fixed, on), "free-of-null") == []


def test_free_of_null_spares_a_loop_that_frees_the_last_block_before_the_next() -> None:
    """The first round frees NULL, every later one the block stored after it; a field filled by a
    call handed its object is out of the rule's reach (plain locals only)."""
    src = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct x { char *a; };
void fill(struct x *x);
void keep_last(FILE *f) {
    char line[80];
    char *last = NULL;
    while (fgets(line, sizeof line, f)) {
        free(last);
        last = strdup(line);
    }
    free(last);
}
void filled(struct x *x) { x->a = NULL; fill(x); free(x->a); }
"""
    on = config_from_text("[rules.free-of-null]\nenabled = true\n", "ctlsp.toml")
    assert of_rule(check_src(src, on), "free-of-null") == []
