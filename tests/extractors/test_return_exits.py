"""One exit per returned constant (extractors.return_exits): a caller that tests a callee's result
follows, on each branch, only the callee's paths that return a value the branch allows.

zlib's ``gz_init`` frees its buffer and returns -1, or keeps it and returns 0; its callers return
on -1 and use the buffer after. Twins: the false finding gone where the caller tests the result,
the real one kept where it does not, or tests it the wrong way round."""

from __future__ import annotations

from extractors.api import Project
from tests.extractors.helpers import check_src, line_of

INIT = """\
#include <stdlib.h>

struct state {
    unsigned char *in;
    unsigned char *out;
    unsigned size;
};

static int init(struct state *s)
{
    s->in = malloc(64);
    if (s->in == NULL)
        return -1;
    s->out = malloc(64);
    if (s->out == NULL) {
        free(s->in);
        return -1;
    }
    s->size = 64;
    return 0;
}

int put(struct state *s, int c)
{
    if (init(s) == -1)
        return -1;
    s->in[0] = (unsigned char)c; /*U*/
    return 0;
}
"""


def _found(src: str) -> list[tuple[str, int]]:
    return sorted((f.rule_id, f.location.start_line) for f in check_src(src))


def test_a_caller_returning_on_the_failure_code_never_follows_the_freeing_path() -> None:
    assert _found(INIT) == []
    assert _found(INIT.replace("if (init(s) == -1)", "if (init(s) != 0)")) == []
    assert _found(INIT.replace("if (init(s) == -1)", "if (init(s) < 0)")) == []


def test_a_caller_that_ignores_the_result_still_uses_the_freed_buffer() -> None:
    unchecked = INIT.replace("    if (init(s) == -1)\n        return -1;\n", "    (void)init(s);\n")
    assert _found(unchecked) == [("use-after-free", line_of(unchecked, "/*U*/"))]


def test_a_caller_testing_the_wrong_value_still_uses_the_freed_buffer() -> None:
    wrong = INIT.replace("if (init(s) == -1)", "if (init(s) == 0)")
    assert _found(wrong) == [("use-after-free", line_of(wrong, "/*U*/"))]


CODES = """\
#include <stdio.h>
#include <stdlib.h>

#define OK 0
#define ERR (-1)

static int flush_and_free(FILE *in, char *buf)
{
    if (fgetc(in) < 0)
        return ERR;
    free(buf);
    return OK;
}

void run(FILE *in)
{
    char *buf = malloc(16);
    if (buf == NULL)
        return;
    if (flush_and_free(in, buf) == OK)
        return;
    free(buf); /*F*/
}
"""


def test_named_codes_the_callee_returns_decide_the_callers_test_of_them() -> None:
    assert _found(CODES) == []
    swapped = CODES.replace("== OK)", "== ERR)")  # returns with buf kept, frees it when freed
    leaked = line_of(swapped, "char *buf = malloc(16);")
    assert _found(swapped) == [("double-free", line_of(swapped, "/*F*/")), ("memory-leak", leaked)]


def test_codes_of_a_header_not_read_decide_only_a_test_of_the_same_name() -> None:
    # OK and ERR unknown: a return of OK decides "== OK" (no double free), a return of ERR decides
    # nothing (ERR may be OK as far as the text shows: the leak on "== OK" after ERR is kept)
    unknown = CODES.replace("#define OK 0\n#define ERR (-1)\n", "")
    assert _found(unknown) == [("memory-leak", line_of(unknown, "char *buf = malloc(16);"))]
    ignored = unknown.replace("if (flush_and_free(in, buf) == OK)", "if (flush_and_free(in, buf) != 7)")
    assert ("double-free", line_of(ignored, "/*F*/")) in _found(ignored)


def test_an_edit_of_the_returned_code_reaches_the_caller() -> None:
    p = Project()
    p.update_file("t.c", INIT)
    assert p.check()["t.c"] == []
    edited = INIT.replace("        free(s->in);\n        return -1;", "        free(s->in);\n        return 0;")
    p.update_file("t.c", edited)
    got = sorted((f.rule_id, f.location.start_line) for f in p.check()["t.c"])
    assert got == [("use-after-free", line_of(edited, "/*U*/"))]


def test_an_edit_of_the_callers_test_reaches_its_model() -> None:
    p = Project()
    p.update_file("t.c", INIT)
    assert p.check()["t.c"] == []
    wrong = INIT.replace("if (init(s) == -1)", "if (init(s) == 0)")
    p.update_file("t.c", wrong)
    got = sorted((f.rule_id, f.location.start_line) for f in p.check()["t.c"])
    assert got == [("use-after-free", line_of(wrong, "/*U*/"))]


# ----- a returned literal the result type does not keep decides nothing --------------------------

NARROW = """\
#include <stdbool.h>
#include <stdlib.h>

struct buffer {
    char *data;
};

static bool fill(struct buffer *b, int n)
{
    b->data = malloc(16);
    if (b->data == NULL)
        return 0;
    if (n > 16) {
        free(b->data);
        return 2;
    }
    b->data[0] = (char)n;
    return 1;
}

int first_byte(struct buffer *b, int n)
{
    if (fill(b, n) == 1)
        return b->data[0]; /*U*/
    return -1;
}
"""


def test_a_bool_returning_two_is_true_so_the_callers_test_follows_the_freeing_path() -> None:
    # return 2 in a bool function gives 1: fill(b, n) == 1 holds after the free, a use after free
    assert _found(NARROW) == [("use-after-free", line_of(NARROW, "/*U*/"))]


def test_a_narrow_result_that_cuts_the_literal_decides_nothing() -> None:
    # (unsigned char)257 == 1, (unsigned char)-255 == 1, (short)65537 == 1: each is the success code
    for ty, lit in (("unsigned char", "257"), ("unsigned char", "-255"), ("short", "65537"), ("unsigned", "-1")):
        src = NARROW.replace("static bool fill", f"static {ty} fill").replace("return 2;", f"return {lit};")
        if ty == "unsigned":
            src = src.replace("fill(b, n) == 1", "fill(b, n) == 4294967295u").replace("return 1;\n}", "return 0;\n}")
            src = src.replace("        return 0;\n    if", "        return 1;\n    if")
        assert _found(src) == [("use-after-free", line_of(src, "/*U*/"))], ty


def test_a_literal_the_result_type_keeps_still_decides_the_callers_branch() -> None:
    # the twins: bool returning 0 after the free, int returning 2 or 257, keep the caller clean
    assert _found(NARROW.replace("return 2;", "return 0;")) == []
    for ty, lit in (("int", "2"), ("int", "257"), ("unsigned short", "65535"), ("long", "-1")):
        src = NARROW.replace("static bool fill", f"static {ty} fill").replace("return 2;", f"return {lit};")
        assert _found(src) == [], ty


def test_macros_among_the_result_specifiers_still_read_as_int() -> None:
    # zlib's ``local int gz_init``: -1 is kept by an int, so the caller's test decides as before
    local = "#define local static\n" + INIT.replace("static int init", "local int init")
    assert _found(local) == []
    # while a bool behind the same macro keeps only 0 and 1
    narrow = "#define local static\n" + NARROW.replace("static bool fill", "local bool fill")
    assert _found(narrow) == [("use-after-free", line_of(narrow, "/*U*/"))]
