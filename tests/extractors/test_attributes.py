"""Must-check functions read off declarations: the attribute, [[nodiscard]], and macros for them."""

from __future__ import annotations

from extractors.attributes import ATTRIBUTES, NORETURN_ATTRIBUTES, declared_with, markers


def declared(text: str, known: frozenset[str] = frozenset()) -> frozenset[str]:
    return declared_with(text, markers(text, known))


def test_attribute_after_and_before_the_declarator() -> None:
    text = """
int arena_reserve(void *arena, size_t n) __attribute__((warn_unused_result));
__attribute__((__warn_unused_result__)) static int grow(struct buf *b);
[[nodiscard]] int parse(const char *s);
int plain(void);
int defined(int x) __attribute__((warn_unused_result)) { return x; }
"""
    assert declared(text) == {"arena_reserve", "grow", "parse", "defined"}


def test_macros_spell_the_attribute_through_other_macros_and_headers() -> None:
    header = (
        "#define ATTR_WUR __attribute__ ((__warn_unused_result__))\n"
        "#define MUST_CHECK ATTR_WUR\n"
        "/* int commented(void) MUST_CHECK; */\n"
    )
    marks = markers(header)
    assert {"ATTR_WUR", "MUST_CHECK"} <= marks
    user = 'extern "C" {\nMUST_CHECK int kv_commit(struct kv *kv);\nint (*hook)(void) MUST_CHECK;\n}\n'
    assert declared_with(user, marks) == {"kv_commit"}
    assert declared_with(user, markers(user)) == set()  # without the header, no marker


def test_text_without_markers_declares_nothing() -> None:
    assert markers("int f(void);") == ATTRIBUTES
    assert declared("int f(void);\nstatic int g(int x) { return x; }\n") == set()
    assert declared("int f(void) { if (x) { y(); } }\nint g(void) __attribute__((warn_unused_result));\n") == {"g"}


def test_a_must_check_project_function_is_still_a_box() -> None:
    from tests.extractors.helpers import check_src, of_rule

    src = """
#include <stdlib.h>
#define WUR __attribute__((warn_unused_result))
WUR int release(char *p);
int release(char *p) { free(p); return 0; }
void twice(char *p) { release(p); (void)release(p); }
int once(char *p) { return release(p); }
"""
    found = check_src(src)
    assert [f.function for f in of_rule(found, "unchecked-return")] == ["twice"]
    assert [f.function for f in of_rule(found, "double-free")] == ["twice"]  # through the callee's box


def test_noreturn_through_a_macro_of_another_header() -> None:
    words = NORETURN_ATTRIBUTES
    defs = "#if defined(__GNUC__)\n#define LJ_NORET __attribute__((noreturn))\n#else\n#define LJ_NORET\n#endif\n"
    marks = markers(defs + "#define LJ_FUNC_NORET extern LJ_NORET\n", words=words)
    assert {"LJ_NORET", "LJ_FUNC_NORET"} <= marks and "warn_unused_result" not in marks
    text = "LJ_FUNC_NORET void lj_err_caller(lua_State *L, int em);\nstatic LJ_NORET void die(int c) { exit(c); }\n"
    assert declared_with(text, marks) == {"lj_err_caller", "die"}
    assert declared_with("_Noreturn void stop(void);\n", markers("", words=words)) == {"stop"}


def test_a_header_noreturn_function_ends_the_callers_path() -> None:
    from extractors.api import Project

    p = Project(None)
    p.set_header("/p/err.h", "#define NORET __attribute__((noreturn))\nNORET void fail(int code);\n")
    src = (
        '#include "err.h"\n#include <stdio.h>\n'
        "int flush(FILE *f) { if (f == NULL) fail(2); clearerr(f); return fflush(f); }\n"
    )
    p.update_file("/p/a.c", src)
    for _ in range(3):  # the include run asks for the headers it reads
        for h in p.unread_headers():
            p.set_header(h, None)
    assert p.check()["/p/a.c"] == []
