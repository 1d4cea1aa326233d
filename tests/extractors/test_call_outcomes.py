"""A callee's returns paired with what it stored in its out-parameters (``extractors.call_outcomes``),
and the refutation that reads them: ``line = read_line(path, &err); if (err) return;`` leaves no
NULL ``line`` to dereference and no block to leak on the error branch, while the caller that tests
the wrong code, or a callee that reports no error for some NULL, still has its finding."""

from __future__ import annotations

from extractors.api import Project
from extractors.call_outcomes import NONNULL, FromArgument, call_outcomes
from extractors.functions import FunctionModel
from tests.extractors.helpers import check_src, line_of

CALLEE = """\
#include <stdio.h>
#include <stdlib.h>

static char *read_line(const char *path, int *err)
{
    FILE *f = fopen(path, "r");
    char *line;
    if (f == NULL) {
        *err = 1;
        return NULL;
    }
    line = malloc(128);
    if (line == NULL) {
        fclose(f);
        *err = 2;
        return NULL;
    }
    if (fgets(line, 128, f) == NULL)
        line[0] = '\\0';
    fclose(f);
    *err = 0;
    return line;
}
"""

CHECKED = (
    CALLEE
    + """
int first_char(const char *path)
{
    int err;
    int c;
    char *line = read_line(path, &err); /*A*/
    if (err != 0)
        return -1;
    c = line[0]; /*U*/
    free(line);
    return c;
}
"""
)


def _model(src: str, name: str) -> FunctionModel:
    p = Project()
    p.update_file("t.c", src)
    return p.files["t.c"].model.functions[name]


def _found(src: str) -> list[tuple[str, int]]:
    return sorted((f.rule_id, f.location.start_line) for f in check_src(src))


def test_each_return_comes_with_the_literal_its_paths_stored() -> None:
    got = call_outcomes(_model(CHECKED, "read_line"), [1])
    assert got is not None and got.pointer and got.params == (1,)
    assert set(got.alternatives) == {(0, ((1, 1),)), (0, ((1, 2),)), (NONNULL, ((1, 0),))}


def test_a_store_that_is_no_literal_or_no_store_says_nothing_of_the_value() -> None:
    src = CALLEE.replace("*err = 2;", "*err = errno_of(f);").replace("        *err = 1;\n", "")
    got = call_outcomes(_model(src, "read_line"), [1])
    assert got is not None
    assert set(got.alternatives) == {(0, ((1, None),)), (NONNULL, ((1, 0),))}


def test_the_error_code_rules_out_the_null_dereference_and_the_leak() -> None:
    assert _found(CHECKED) == []


def test_testing_the_wrong_code_still_dereferences_null_and_leaks() -> None:
    wrong = CHECKED.replace("if (err != 0)", "if (err == 0)")
    assert _found(wrong) == [("memory-leak", line_of(wrong, "/*A*/")), ("null-dereference", line_of(wrong, "/*U*/"))]


def test_a_callee_that_returns_null_without_an_error_code_is_still_a_null_dereference() -> None:
    # an empty file: NULL with *err = 0, so "err == 0" does not mean "line is a block"
    quiet = CHECKED.replace(
        "    if (fgets(line, 128, f) == NULL)\n        line[0] = '\\0';\n",
        "    if (fgets(line, 128, f) == NULL) {\n        free(line);\n        fclose(f);\n"
        "        *err = 0;\n        return NULL;\n    }\n",
    )
    assert quiet != CHECKED
    assert _found(quiet) == [("null-dereference", line_of(quiet, "/*U*/"))]


def test_a_result_written_again_in_a_loop_still_leaks_the_first_block() -> None:
    # the second round's call drops the first round's block; its outcomes say nothing of that one
    looped = CHECKED.replace(
        "    char *line = read_line(path, &err); /*A*/\n",
        "    char *line;\n    int round;\n    for (round = 0; round < 2; round++)\n"
        "        line = read_line(path, &err); /*A*/\n",
    )
    assert looped != CHECKED
    assert [rule for rule, at in _found(looped) if at == line_of(looped, "/*A*/")] != []


MODE = """\
static int parse_mode(const char *s, int *mode)
{
    if (s[0] == 'r') {
        *mode = 1;
        return 0;
    }
    if (s[0] == 'w') {
        *mode = 2;
        return 0;
    }
    return -1;
}

int buffer_size(const char *s)
{
    int mode, size;
    int rc = parse_mode(s, &mode);
    if (rc == 0 && mode == 1)
        size = 4096;
    if (rc == 0 && mode == 2)
        size = 65536;
    if (rc < 0)
        return -1;
    return size; /*R*/
}
"""


def test_a_returned_code_stored_in_a_local_decides_what_the_callee_stored() -> None:
    got = call_outcomes(_model(MODE, "parse_mode"), [1])
    assert got is not None and got.kind == "s32"
    assert set(got.alternatives) == {(0, ((1, 1),)), (0, ((1, 2),)), (-1, ((1, None),))}
    assert _found(MODE) == []


def test_a_mode_the_caller_does_not_handle_or_a_code_it_does_not_test_is_still_read_unset() -> None:
    appended = "    if (s[0] == 'a') {\n        *mode = 3;\n        return 0;\n    }\n    return -1;\n}"
    third = MODE.replace("    return -1;\n}", appended)
    assert third != MODE
    assert _found(third) == [("uninitialised-read", line_of(third, "/*R*/"))]
    wrong_test = MODE.replace("if (rc < 0)", "if (rc > 0)")
    assert _found(wrong_test) == [("uninitialised-read", line_of(wrong_test, "/*R*/"))]


def test_an_unsigned_result_names_no_negative_code() -> None:
    # -1 from an unsigned function is UINT_MAX, which "rc < 0" never is: the read is real
    unsigned = MODE.replace("static int parse_mode", "static unsigned parse_mode").replace("int rc", "unsigned rc")
    got = call_outcomes(_model(unsigned, "parse_mode"), [1])
    assert got is not None and got.kind == "u32" and (None, ((1, None),)) in got.alternatives
    assert _found(unsigned) == [("uninitialised-read", line_of(unsigned, "/*R*/"))]


ALIGN = """\
#include <stddef.h>
typedef unsigned char byte;
typedef struct { unsigned count[16]; unsigned total; } table;

static void *align_up(void *ws, size_t *size, size_t align)
{
    size_t const add = (align - ((size_t)ws & (align - 1))) & (align - 1);
    byte *const aligned = (byte *)ws + add;
    if (*size >= add) {
        *size -= add;
        return aligned;
    }
    *size = 0;
    return NULL;
}

unsigned first(void *ws, size_t size)
{
    table *t = (table *)align_up(ws, &size, 4);
    if (size < sizeof(table))
        return 0;
    t->total = 1; /*U*/
    return t->count[0];
}
"""


def test_a_moved_pointer_argument_and_a_compound_store_are_outcomes() -> None:
    # ``*size -= add`` stores a value not known; ``aligned`` is ``ws`` moved: not NULL when ws is not
    got = call_outcomes(_model(ALIGN, "align_up"), [1])
    assert got is not None and got.pointer
    assert set(got.alternatives) == {(0, ((1, 0),)), (FromArgument(0), ((1, None),))}


def test_a_size_set_to_zero_with_the_null_result_guards_the_pointer() -> None:
    assert _found(ALIGN) == []
    # a NULL workspace the caller expects (it tests ws): align_up(NULL, &size) returns NULL, size kept
    expected = ALIGN.replace("    table *t =", "    if (ws == NULL)\n        missing++;\n    table *t =").replace(
        "unsigned first(", "static int missing;\n\nunsigned first("
    )
    assert _found(expected) == [("null-dereference", line_of(expected, "/*U*/"))]
    # a callee whose NULL leaves the size alone: the size test guards nothing
    kept = ALIGN.replace("    *size = 0;\n    return NULL;", "    return NULL;")
    assert _found(kept) == [("null-dereference", line_of(kept, "/*U*/"))]
    # the result of something other than the argument: nothing is known of its NULL-ness
    other = ALIGN.replace("return aligned;", "return lookup(aligned);").replace(
        "#include <stddef.h>", "#include <stddef.h>\nvoid *lookup(void *);"
    )
    assert _found(other) == [("null-dereference", line_of(other, "/*U*/"))]
