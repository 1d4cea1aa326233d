"""Macros are read as one build defines them (the one a compiler makes when told nothing more:
:func:`extractors.includes.build_macros`), not as whichever definition comes last in the text; an
argument that build compiles out is gone, reads, stores and returns alike; and a macro name alone
before a block (sqlite's ``SEH_TRY {``) does not end the function at that block."""

from __future__ import annotations

import pytest

from extractors.config import config_from_text
from extractors.includes import SearchPath, build_macros
from extractors.preprocessor import NO_DEFINES, Defines, directives, statement_macro_spans
from tests.extractors.helpers import check_src, line_of, of_rule

SIMULATE = """\
#if defined(TEST_IO)
# define SimulateIOError(CODE) if (pending-- == 1) { CODE; }
#else
# define SimulateIOError(CODE)
#endif
"""


def _built(text: str, defines: Defines = NO_DEFINES) -> dict[str, str | None]:
    return dict(build_macros("a.c", directives(text.encode()), (), SearchPath(), defines, lambda _: None))


def test_the_build_with_nothing_defined_chooses_the_definition() -> None:
    assert _built(SIMULATE) == {"SimulateIOError": "SimulateIOError(CODE)"}
    chosen = _built(SIMULATE, Defines({"TEST_IO": 1}))["SimulateIOError"]
    assert chosen is not None and chosen.startswith("SimulateIOError(CODE) if")


def test_a_macro_defined_once_for_sure_is_read_as_written_unless_it_drops_an_argument() -> None:
    assert _built("#define ONE(x) x\n#define TWO(x) (x)\n#define GONE(x)\n") == {"GONE": "GONE(x)"}


def test_a_macro_only_a_build_that_is_not_made_defines_is_left_to_the_text() -> None:
    # code under ``#ifdef OMIT_AUTH`` is modelled too, and reads its own definitions
    assert _built("#ifdef OMIT_AUTH\n# define auth_check(a, b) 0\n#endif\n") == {}


def test_the_target_compiler_predefines_decide_and_the_user_overrides_them() -> None:
    text = "#ifdef __GNUC__\n# define LIKELY(x) __builtin_expect(x, 1)\n#else\n# define LIKELY(x) (x)\n#endif\n"
    assert _built(text) == {"LIKELY": "LIKELY(x) __builtin_expect(x, 1)"}
    assert _built(text, Defines({}, frozenset({"__GNUC__"}))) == {"LIKELY": "LIKELY(x) (x)"}


def test_a_condition_no_build_can_evaluate_leaves_the_text_as_it_is() -> None:
    text = "#if HAS(threads)\n# define LOCK(m) lock(m)\n#else\n# define LOCK(m)\n#endif\n"
    assert _built(text) == {}


def test_a_later_define_for_sure_is_the_definition() -> None:
    text = "#define M(x) x = 0\n#undef M\n#define M(x) (void)(x)\n"
    assert _built(text) == {"M": "M(x) (void)(x)"}
    assert _built("#define M(x) x = 0\n#undef M\n") == {}


SYNC = SIMULATE + """\
int fsync_file(int fd);
int sync_file(int fd)
{
    int rc;
    rc = fsync_file(fd);
    SimulateIOError(rc = 1);
    if (rc)
        return 1;
    return 0;
}
"""


def test_a_store_in_an_argument_the_build_compiles_out_kills_no_store() -> None:
    assert of_rule(check_src(SYNC), "dead-store") == []


def test_with_the_test_build_defined_the_store_is_conditional() -> None:
    config = config_from_text('[preprocessor]\ndefines = ["TEST_IO"]\n', "ctlsp.toml")
    assert of_rule(check_src(SYNC, config), "dead-store") == []


def test_a_store_the_build_compiles_out_is_no_read_either() -> None:
    src = SYNC.replace("    if (rc)", "    rc = fsync_file(fd + 1);\n    if (rc)")
    found = of_rule(check_src(src), "dead-store")
    assert [f.location.start_line for f in found] == [line_of(src, "rc = fsync_file(fd);")]


def test_a_read_the_build_compiles_out_is_no_read_and_a_store_it_compiles_out_no_store() -> None:
    # sqlite's ExplainQueryPlan2(V, P) stores V and sqlite3VdbeScanStatusRange(v, V, ...) reads it
    # only where SQLITE_ENABLE_STMT_SCANSTATUS is defined: one build has both or neither
    src = """\
#ifdef SCANSTATUS
# define Explain2(V, P) (V = explain P)
# define ScanRange(v, a) scan_range(v, a)
#else
# define Explain2(V, P) explain P
# define ScanRange(v, a)
#endif
int explain(int v, int n);
void scan_range(int v, int a);
int step(int v);
int run(int v)
{
    int addr;
    int rc;
    Explain2(addr, (v, 1));
    ScanRange(v, addr);
    rc = step(v);
    ScanRange(v, rc);
    return 0;
}
"""
    found = check_src(src)
    assert of_rule(found, "uninitialised-read") == []
    assert [f.location.start_line for f in of_rule(found, "dead-store")] == [line_of(src, "rc = step(v);")]
    config = config_from_text('[preprocessor]\ndefines = ["SCANSTATUS"]\n', "ctlsp.toml")
    assert of_rule(check_src(src, config), "dead-store") == []


def test_a_return_in_an_argument_the_build_compiles_out_does_not_return() -> None:
    src = SIMULATE + """\
int fsync_file(int fd);
int access_file(int fd)
{
    int rc;
    SimulateIOError(return 7;);
    rc = fsync_file(fd);
    rc = fsync_file(fd + 1);
    return rc;
}
"""
    found = of_rule(check_src(src), "dead-store")
    assert [f.location.start_line for f in found] == [line_of(src, "rc = fsync_file(fd);")]


def test_a_statement_that_goes_on_past_the_call_is_read_as_written() -> None:
    src = """\
#include <stdlib.h>
#define NDEBUG 1
#ifndef NDEBUG
# define TESTONLY(X) X
#else
# define TESTONLY(X)
#endif
int f(void)
{
    int i = 0;
    char *p = malloc(4);
    if (!p)
        return 1;
    TESTONLY(i =) free(p);
    return i;
}
int g(int *v)
{
    int rc;
    TESTONLY( rc = ) free(v);
    return rc;
}
"""
    found = check_src(src)
    assert of_rule(found, "memory-leak") == []
    # the build that compiles the store out reads rc uninitialised; sqlite's pager has this shape
    assert [f.location.start_line for f in of_rule(found, "uninitialised-read")] == [line_of(src, "return rc;")]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("int f(void) {\n  int rc;\n  SEH_TRY {\n    rc = g();\n  }\n}\n", [b"SEH_TRY"]),
        ("int f(void) {\n  x = 1;\n  Py_BEGIN_CRITICAL {\n  }\n}\n", [b"Py_BEGIN_CRITICAL"]),
        ("struct S {\n  int a;\n};\n", []),
        ("int f(void) {\n  if (x) {\n  }\n  else {\n  }\n  do {\n  } while (0);\n}\n", []),
        ("int f(void) {\n  x = y +\n  LIMIT {\n}\n", []),  # not after a statement's end
    ],
)
def test_a_macro_name_before_a_block_is_a_statement_macro(text: str, want: list[bytes]) -> None:
    data = text.encode()
    assert [data[a:b] for a, b in statement_macro_spans(data)] == want


def test_a_macro_before_a_block_does_not_end_the_function() -> None:
    src = """\
typedef struct Wal { int n; } Wal;
int wal_read(Wal *w);
int wal_exception(Wal *w);
#ifdef USE_SEH
# define SEH_TRY __try { w->n++;
# define SEH_EXCEPT(X) w->n--; } __except (1) { X }
#else
# define SEH_TRY w->n++;
# define SEH_EXCEPT(X) w->n--;
#endif
int begin_read(Wal *w)
{
    int rc;
    SEH_TRY {
        rc = wal_read(w);
    }
    SEH_EXCEPT( rc = wal_exception(w); )
    return rc;
}
"""
    found = check_src(src)
    assert [f.rule_id for f in found] == []
    bad = src.replace("rc = wal_read(w);", "rc = wal_read(w);\n        rc = 0;")
    assert [f.location.start_line for f in of_rule(check_src(bad), "dead-store")] == [line_of(bad, "rc = wal_read(w);")]


def test_an_assertion_macro_compiled_out_is_read_as_the_builds_that_check_it() -> None:
    lua = "#if defined(LUAI_ASSERT)\n#define lua_assert(c) assert(c)\n#else\n#define lua_assert(c) ((void)0)\n#endif\n"
    assert _built(lua) == {"lua_assert": "lua_assert(c) assert(c)"}
    zlib = (
        "#ifdef ZLIB_DEBUG\n#define Assert(cond, msg) {if (!(cond)) z_error(msg);}\n"
        "#else\n#define Assert(cond, msg)\n#endif\n"
    )
    assert _built(zlib) == {"Assert": "Assert(cond, msg) assert(cond)"}
    lz4 = "#ifndef assert\n#define assert(condition) ((void)0)\n#endif\n"
    assert _built(lz4) == {}  # <assert.h>'s assert, as written
    assert _built("#define ASSERT_OFF(x)\n") == {}  # no build checks it: as written


def test_a_path_an_assertion_macro_rules_out_is_no_path() -> None:
    src = """\
#include <stdio.h>
#ifdef ZLIB_DEBUG
# define Assert(cond, msg) {if (!(cond)) z_error(msg);}
#else
# define Assert(cond, msg)
#endif
void z_error(char *m);
void gen_header(void)
{
    FILE *header = fopen("trees.h", "w");
    Assert(header != NULL, "Can't open trees.h");
    fprintf(header, "/* generated */\\n");
    fclose(header);
}
"""
    found = check_src(src)
    assert [f.rule_id for f in found if "null" in f.rule_id] == []
    unchecked = src.replace('    Assert(header != NULL, "Can\'t open trees.h");\n', "")
    assert [f.rule_id for f in check_src(unchecked) if "null" in f.rule_id] == ["null-dereference"]


def test_a_macro_call_before_a_block_runs_the_block_any_number_of_times() -> None:
    # lua's ``vmdispatch (GET_OPCODE(i)) {`` and foreach macros: tree-sitter reads a nested
    # function definition; the block's reads and frees are the function's
    src = """\
#include <stdlib.h>
#define vmdispatch(o) switch (o)
#define vmcase(l) case l:
struct node { struct node *next; };
int step(int *pc)
{
    int i;
    int n = 0;
    i = *pc;
    vmdispatch (i & 7) {
        vmcase(1) {
            n++;
            break;
        }
    }
    return n;
}
void drop(struct node *p)
{
    free(p);
    FOR_EACH_NODE (p) {
        p->next = 0;
    }
}
"""
    found = check_src(src)
    assert of_rule(found, "dead-store") == []
    assert [f.location.start_line for f in of_rule(found, "use-after-free")] == [line_of(src, "p->next = 0;")]


def test_nested_macro_blocks_keep_the_reads_after_them() -> None:
    # Lua 5.3's dispatch: a store in one vmcase block is read by the next instruction's RA(i)
    src = """\
typedef struct CI { int *base; } CI;
typedef struct State { int debt; } State;
void step(State *L);
#define RA(i) (base + ((i) >> 4))
void run(State *L, CI *ci, int *code)
{
    int *base = ci->base;
    for (;;) {
        int i = *code++;
        int *ra = RA(i);
        DISPATCH (OPCODE(i)) {
            CASE (ONE) {
                *ra = 1;
                if (L->debt > 0) { step(L); base = ci->base; }
            }
        }
    }
}
"""
    assert of_rule(check_src(src), "dead-store") == []
    dead = src.replace("{ step(L); base = ci->base; }", "{ base = ci->base; step(L); base = ci->base + 1; }")
    found = of_rule(check_src(dead), "dead-store")
    assert [f.location.start_line for f in found] == [line_of(dead, "{ base = ci->base; step(L);")]
