"""Macros that rename a function: read from the definitions' text, resolved against the call table,
and seen by the rules through calls in the file and through its local headers."""

from __future__ import annotations

from pathlib import Path

from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.config import Config
from extractors.library import CallSpec
from extractors.macro_calls import Rename, plain_name, renames, resolved
from server.workspace import load_headers
from tests.extractors.helpers import check_src, line_of, of_rule


def specs(text: str) -> dict[str, CallSpec]:
    return resolved(renames(text), BUILTIN, {})


def test_object_like_rename_takes_the_row_as_it_is() -> None:
    got = specs("#define XFREE free\n#define OPEN open\n")
    assert got == {"XFREE": BUILTIN["free"], "OPEN": BUILTIN["open"]}


def test_function_like_rename_moves_argument_atoms_to_the_macros_parameters() -> None:
    got = specs(
        "#define OPEN_LOG(path) fopen((path), \"a\")\n"
        "#define OPEN_AT(mode, path) fopen(path, mode)\n"
        "#define NEW(T) ((T *)malloc(sizeof(T)))\n"
        "#define ALLOC(n) malloc(n)\n"
        "#define RELEASE(p) free((void *)(p))\n"
    )
    assert got["OPEN_LOG"].returns == "open" and got["OPEN_LOG"].args == ((0, "use"),)
    assert got["OPEN_LOG"].must_check
    assert set(got["OPEN_AT"].args) == {(1, "use"), (0, "use")}
    assert got["NEW"].returns == "alloc" and got["NEW"].args == ()
    assert got["ALLOC"].returns == "alloc"
    assert got["RELEASE"].args == ((0, "free"),) and got["RELEASE"].null_ok == (0,)


def test_variadic_tails_and_chains() -> None:
    got = specs(
        "#define LOG(...) printf(__VA_ARGS__)\n"
        "#define ELOG(fmt, ...) fprintf(stderr, fmt, __VA_ARGS__)\n"
        "#define KILL XF\n"
        "#define XF(p) XFREE(p)\n"
        "#define XFREE free\n"
        "#define LOOP1 LOOP2\n#define LOOP2 LOOP1\n"
    )
    assert got["LOG"].args == ((-1, "read"),)
    assert got["ELOG"].args == ((0, "use"),)  # fprintf's stream is the macro's own stderr
    assert got["KILL"].args == got["XF"].args == ((0, "free"),)
    assert "LOOP1" not in got and "LOOP2" not in got


def test_what_is_no_rename() -> None:
    text = (
        "#define N (x)\n"  # object-like, with a space: no parameters
        "#define PLUS(a) malloc(a) + 1\n"  # the value is not the call's
        "#define TWO(p) free(p); free(p)\n"
        "#define STMT(p) do { free(p); } while (0)\n"
        "#define SIZE 1024\n"
        "#define free my_free\n"  # a name the table knows keeps its row
        "#define UNKNOWN(p) project_free(p)\n"  # not in the table: nothing to take
    )
    assert set(renames(text)) == {"UNKNOWN", "free"}
    assert specs(text) == {}
    assert renames("#define A(x) f((x), \"),(\")\n") == {"A": Rename("f", (0, None), None, 1)}


def test_a_rename_joins_what_an_assigning_macro_does() -> None:
    assigning = {"TAKE": CallSpec(args=((1, "def"),))}
    got = resolved(renames("#define TAKE(p, out) free(p)\n"), BUILTIN, assigning)
    assert set(got["TAKE"].args) == {(0, "free"), (1, "def")}


HEADER = "#include <stdlib.h>\n#include <stdio.h>\n"


def test_calls_through_renaming_macros_are_the_calls_they_expand_to() -> None:
    src = (
        HEADER
        + """
#define XFREE free
#define NEW(T) ((T *)malloc(sizeof(T)))
#define OPEN_LOG(path) fopen((path), "a")
struct t { int v; };
void twice(char *p) { XFREE(p); XFREE(p); }  /*D*/
int deref(void) { struct t *t = NEW(struct t); t->v = 1; int v = t->v; free(t); return v; }  /*N*/
int leak(const char *path, int n) {
    FILE *f = OPEN_LOG(path);  /*L*/
    if (!f) return -1; if (n) return 1; fclose(f); return 0; }
int fine(const char *path) { FILE *f = OPEN_LOG(path); if (!f) return -1; fclose(f); return 0; }
"""
    )
    found = check_src(src)
    assert [f.location.start_line for f in of_rule(found, "double-free")] == [line_of(src, "/*D*/")]
    assert [f.location.start_line for f in of_rule(found, "null-dereference")] == [line_of(src, "/*N*/")]
    assert [(f.function, f.location.start_line) for f in of_rule(found, "resource-leak")] == [
        ("leak", line_of(src, "/*L*/"))
    ]


def test_a_renaming_macro_of_a_local_header_counts(tmp_path: Path) -> None:
    (tmp_path / "mem.h").write_text("#include <stdlib.h>\n#define ALLOC(n) \\\n    malloc(n)\n")
    src = '#include "mem.h"\nint f(int n) { char *p = ALLOC(n); if (!p) return -1; p[0] = 0; return 0; }\n'
    project = Project(Config())
    project.update_file(str(tmp_path / "f.c"), src)
    assert of_rule(project.check()[str(tmp_path / "f.c")], "memory-leak") == []  # the header is unread
    load_headers(project)
    (leak,) = of_rule(project.check()[str(tmp_path / "f.c")], "memory-leak")
    assert leak.function == "f"


def test_a_checking_macro_handed_a_null_test_checks_the_allocation() -> None:
    """lz4's ``RETURN_ERROR_IF(p == NULL, allocation_failed)`` returns when ``p`` is NULL: past it
    ``p`` is not NULL, as after ``assert(p)``; without the check the dereference is reported."""
    src = (
        HEADER
        + """
#define ALLOC(s) malloc(s)
int checked(int n) { char *p = ALLOC(n); RETURN_ERROR_IF(p == NULL, 1); p[0] = 0; free(p); return 0; }
int tested(int n) { char *p = ALLOC(n); CHECK(!p); p[0] = 0; free(p); return 0; }
int unchecked(int n) { char *p = ALLOC(n); LOG(p); p[0] = 0; free(p); return 0; }  /*U*/
"""
    )
    found = of_rule(check_src(src), "null-dereference")
    assert [(f.function, f.location.start_line) for f in found] == [("unchecked", line_of(src, "/*U*/"))]


def test_a_dropped_result_of_a_renaming_macro_is_named_as_written() -> None:
    """A macro's calls carry its definition's digest in the models (``macro_call_name``, so that a
    file's calls meet only its own macros); the finding names the macro as the source does, and its
    fingerprint does not change with the digest (a baseline keeps matching it)."""
    src = "#include <stdlib.h>\n#define ALLOC(n) malloc(n)\nvoid g(int n)\n{\n    ALLOC(n);\n    malloc(n);\n}\n"
    found = of_rule(check_src(src), "unchecked-return")
    assert [(f.message, f.location.start_line) for f in found] == [
        ("return value of ALLOC() is ignored", 4),
        ("return value of malloc() is ignored", 5),
    ]
    other = of_rule(check_src(src.replace("malloc(n)\n", "calloc(n, 1)\n", 1)), "unchecked-return")
    assert [f.fingerprint for f in other] == [f.fingerprint for f in found]  # another digest, same print


def test_two_dropped_results_of_one_macro_keep_two_fingerprints() -> None:
    """The discard values are ``$ret:ALLOC~digest#1`` and ``#2``: only the digest comes off for the
    fingerprint, so two identical statements keep the distinct prints a direct call gets (and had
    before macros were named per file), still the same under another definition's digest."""
    assert plain_name("$ret:ALLOC~0123456789AB#2") == "$ret:ALLOC#2" and plain_name("f#1") == "f#1"
    src = "#include <stdlib.h>\n#define ALLOC(n) malloc(n)\nvoid g(int n)\n{\n    ALLOC(n);\n    ALLOC(n);\n}\n"
    found = of_rule(check_src(src), "unchecked-return")
    assert [f.location.start_line for f in found] == [4, 5]
    assert len({f.fingerprint for f in found}) == 2
    direct = of_rule(check_src(src.replace("    ALLOC(n);", "    malloc(n);")), "unchecked-return")
    assert len({f.fingerprint for f in direct}) == 2
    other = of_rule(check_src(src.replace("malloc(n)\n", "calloc(n, 1)\n", 1)), "unchecked-return")
    assert [f.fingerprint for f in other] == [f.fingerprint for f in found]


def test_a_macro_allocator_stored_into_an_out_param_is_a_fresh_block() -> None:
    """As ``test_out_params.test_direct_allocation_into_out_param``, through a renaming macro."""
    src = """\
#include <stdlib.h>
#include <string.h>
#define XALLOC(n) malloc(n)
static int first_word(const char *s, char **out)
{
    size_t n = strcspn(s, " ");
    *out = XALLOC(n + 1);
    return 0;
}
int starts_with_cmd(const char *line)
{
    char *word;
    first_word(line, &word);  /*L*/
    return 0;
}
"""
    assert [f.location.start_line for f in of_rule(check_src(src), "memory-leak")] == [line_of(src, "/*L*/")]
