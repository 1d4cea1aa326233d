"""Block macros: a function-like macro whose whole body is one statement (``do { ... } while (0)``,
``{ ... }``) runs that statement where it is called as one, whatever its arguments are.  cffi
1.17.1's ``_read_raw_data(type)`` / ``_write_raw_data(type)`` take a type name (``long double``,
``unsigned char``, ``unsigned PY_LONG_LONG``: tree-sitter reads such a call as a type, not an
expression) and test a local of the caller by name (``if (size == sizeof(type))``), then
``return`` from the caller.  Read as an opaque call, the caller's ``size`` looked never read, and a
function made only of such calls and a final ``Py_FatalError`` looked like it never returns, so
its callers' next statements looked unreachable.  The call is read through its expansion
(:mod:`extractors.count_macros`), the type substituted as text like any argument."""

from __future__ import annotations

import pytest

from extractors.api import Project
from extractors.count_macros import count_macros, counting, expand_call, statement_macro
from extractors.items import _ending_calls, file_items
from extractors.parse import parse_c
from tests.extractors.helpers import check_src, line_of, of_rule

MACROS = """\
#include <string.h>
#define _read_raw_data(type)                    \\
    do {                                        \\
        if (size == sizeof(type)) {             \\
            type r;                             \\
            memcpy(&r, target, sizeof(type));   \\
            return r;                           \\
        }                                       \\
    } while(0)
#define _write_raw_data(type)                   \\
    do {                                        \\
        if (size == sizeof(type)) {             \\
            type r = (type)source;              \\
            memcpy(target, &r, sizeof(type));   \\
            return;                             \\
        }                                       \\
    } while(0)
#define _copy_raw_data(type)                    \\
    do {                                        \\
        type r = (type)source;                  \\
        memcpy(target, &r, sizeof(type));       \\
    } while(0)
"""

TYPES = ["float", "long double", "unsigned char", "unsigned PY_LONG_LONG", "char *", "struct item *"]


def test_block_bodied_macros_are_expanded_as_statements() -> None:
    found = counting(
        count_macros(
            MACROS
            + "#define BLOCK(a) { use(a); }\n"
            + "#define EXPR(a) (sizeof(a) + 1)\n"  # an expression: read as a count, not a statement
            + "#define TWO(a) use(a); use(a)\n"  # no statement of its own: a parameter is none
            + "#define STR(a) do { puts(#a); } while (0)\n"  # stringising: expanded with the literal
        )
    )
    assert {n for n, m in found.items() if statement_macro(m)} == {
        "STR",
        "_read_raw_data",
        "_write_raw_data",
        "_copy_raw_data",
        "BLOCK",
    }


@pytest.mark.parametrize("type_name", TYPES)
def test_a_local_read_only_inside_a_type_macro_is_read(type_name: str) -> None:
    """cffi's read_raw_longdouble_data / write_raw_longdouble_data: ``size`` is read by the
    expansion's ``if (size == sizeof(type))`` (fixed twin); a ``size`` the expansion does not read
    stays unused (bad twin)."""
    src = (
        MACROS
        + f"""\
static long double read_one(char *target)
{{
    int size = sizeof({type_name});
    _read_raw_data({type_name});
    Py_FatalError("read_one: bad size");
    return 0;
}}
static void write_one(char *target, long double source)
{{
    int size = sizeof({type_name});
    _write_raw_data({type_name});
}}
static void copy_one(char *target, long double source)
{{
    int size = sizeof({type_name}); /*UNUSED*/
    _copy_raw_data({type_name});
}}
"""
    )
    unused = of_rule(check_src(src), "unused-variable")
    assert [(f.function, f.location.start_line) for f in unused] == [("copy_one", line_of(src, "/*UNUSED*/"))]


WRITERS = (
    MACROS
    + """\
static void write_integer(char *target, unsigned long long source, int size)
{
    _write_raw_data(unsigned char);
    _write_raw_data(unsigned short);
    _write_raw_data(unsigned int);
    _write_raw_data(unsigned long);
    _write_raw_data(unsigned PY_LONG_LONG);
    Py_FatalError("write_integer: bad integer size");
}
static void write_float(char *target, double source, int size)
{
    _write_raw_data(float);
    _write_raw_data(double);
    Py_FatalError("write_float: bad float size");
}
static void copy_fatal(char *target, double source, int size)
{
    _copy_raw_data(float);
    Py_FatalError("copy_fatal: always");
}
int convert(char *data, unsigned long long value, double d, int size)
{
    if (size > 8) {
        write_integer(data, value, size);
        data[8] = 0; /*INT*/
        return 8;
    }
    if (size > 4) {
        write_float(data, d, size);
        data[4] = 0; /*FLOAT*/
        return 4;
    }
    copy_fatal(data, d, size);
    data[0] = 0; /*NEVER*/
    return 0;
}
"""
)


def test_returns_inside_type_macros_let_the_function_return() -> None:
    """cffi's write_raw_integer_data returns from the ``_write_raw_data`` whose size matches and
    calls ``Py_FatalError`` only for an unknown size: its callers go on (fixed twin); a function
    whose macros never return (``_copy_raw_data``) still never returns (bad twin)."""
    found = of_rule(check_src(WRITERS), "unreachable-code")
    assert [(f.function, f.location.start_line) for f in found] == [("convert", line_of(WRITERS, "/*NEVER*/"))]


def test_a_statement_that_calls_a_returning_macro_may_return() -> None:
    """The ways a function never returns (``_ending_calls``) are none when a statement calls a
    macro with a type argument (a ``macro_type_specifier`` to tree-sitter), which may return; the
    file drops the ways of a function that calls one of its macros whose body returns."""
    tree = parse_c(WRITERS)
    data = WRITERS.encode()
    fns = {
        n.child_by_field_name("declarator").child_by_field_name("declarator").text.decode(): n  # type: ignore[union-attr]
        for n in tree.root_node.named_children
        if n.type == "function_definition"
    }
    assert _ending_calls(fns["write_integer"], data) is None
    float_ways = _ending_calls(fns["write_float"], data)
    assert float_ways is not None and frozenset({"Py_FatalError"}) in float_ways[0]
    copy_ways = _ending_calls(fns["copy_fatal"], data)
    assert copy_ways is not None and frozenset({"Py_FatalError"}) in copy_ways[0]
    p = Project()
    p.update_file("w.c", WRITERS)
    noreturn = p.db.get(file_items, "w.c").scope.noreturn
    assert "copy_fatal" in noreturn and not {"write_integer", "write_float"} & noreturn


def test_a_mention_through_a_macro_of_a_macro_is_read() -> None:
    """``_read_any(long double)`` calls ``_read_raw_data``, whose body reads ``size``: the mention
    is followed through the chain; ``_read_none``, which reads nothing, leaves ``size`` unused."""
    src = (
        MACROS
        + """\
#define _read_any(type) _read_raw_data(type)
#define _read_none(type) _copy_raw_data(type)
static long double read_any(char *target, long double source)
{
    int size = sizeof(long double);
    _read_any(long double);
    return 0;
}
static long double read_none(char *target, long double source)
{
    int size = sizeof(long double); /*UNUSED*/
    _read_none(long double);
    return 0;
}
"""
    )
    unused = of_rule(check_src(src), "unused-variable")
    assert [(f.function, f.location.start_line) for f in unused] == [("read_none", line_of(src, "/*UNUSED*/"))]


# Pillow's RankFilter.c: a block macro that pastes its argument into names (``Rank##type``) and
# jumps to a label of the caller on failure; the label is reached through the expansion
PASTING = """\
#include <stdlib.h>
typedef unsigned char UINT8;
typedef int INT32;
UINT8 RankUINT8(UINT8 *buf, int n, int rank);
INT32 RankINT32(INT32 *buf, int n, int rank);
#define RANK_BODY(type)                          \\
    do {                                         \\
        type *buf = malloc(n * sizeof(type));    \\
        if (!buf) {                              \\
            goto nomemory;                       \\
        }                                        \\
        out[0] = Rank##type(buf, n, rank);       \\
        free(buf);                               \\
    } while (0)
int rank_filter(int *out, int wide, int n, int rank)
{
    if (wide) {
        RANK_BODY(INT32);
    } else {
        RANK_BODY(UINT8);
    }
    return 0;
nomemory: /*N*/
    out[0] = -1;
    return -1;
}
"""


def test_a_block_macro_that_pastes_tokens_is_read_through() -> None:
    assert count_macros(PASTING)["RANK_BODY"][0] == ("type",)
    found = check_src(PASTING)
    assert of_rule(found, "unreachable-code") == []
    unjumped = PASTING.replace("goto nomemory;", "return -2;")
    assert [f.location.start_line for f in of_rule(check_src(unjumped), "unreachable-code")] == [
        line_of(unjumped, "/*N*/")
    ]
    # ``#x`` makes a string of the argument's text, which holds no code of the call's
    show = count_macros("#define SHOW(x) do { puts(#x); } while (0)\n")["SHOW"]
    got = expand_call(show, b"SHOW(a + b);", 4)
    assert got is not None and got.text == b'do { puts("a + b"); } while (0)' and got.pieces == ()


def test_an_iteration_macro_before_its_block_sets_its_cursor() -> None:
    """psutil's netbsd/socks.c: ``SLIST_FOREACH(k, &kihead, kifs) {`` (from <sys/queue.h>, which
    ctlsp does not read) sets ``k``; after a declaration tree-sitter reads it as a call missing its
    ``;`` and a block, after a statement as a nested definition: a loop either way, whose ``continue``
    goes round."""
    src = """#include <sys/queue.h>
struct kif { int pid; int fd; SLIST_ENTRY(kif) link; };
SLIST_HEAD(kifhead, kif) kihead;
int count(int pid)
{
    int n = 0;
    int fd;
    struct kif *k;
    SLIST_FOREACH(k, &kihead, link) {
        if (k->pid != pid)
            continue;
        fd = k->fd;
        n += fd;
    }
    n = n + 1;
    list_for_each_entry(k, &kihead, link) {
        n += k->fd;
    }
    return n;
}
"""
    assert check_src(src) == []
    # the cursor is set, the other names are not: fd read after the loop, which may not run
    reads = src.replace("    return n;", "    return n + fd; /*R*/")
    found = of_rule(check_src(reads), "uninitialised-read")
    assert [(f.message, f.location.start_line) for f in found] == [
        ("'fd' may be read before it is initialised", line_of(reads, "/*R*/"))
    ]


def test_a_library_function_a_build_may_redefine_stays_the_library_call() -> None:
    """sqlite3.c's ``#ifdef SQLITE_INLINE_MEMCPY  # define memcpy(D,S,N) {...}`` (a profiling build):
    where nothing defines the switch, ``memcpy`` is the library's, which may fill what it is given;
    where the file defines it for sure, the call reads through the block."""
    src = """#include <string.h>
#ifdef SQLITE_INLINE_MEMCPY
# define memcpy(D,S,N) {char*xxd=(char*)(D);const char*xxs=(const char*)(S);\\
                        int xxn=(N);while(xxn-->0)*(xxd++)=*(xxs++);}
#endif
int use(char *out, int n)
{
    char *parts[4];
    if (n > 1)
        memcpy(out, parts[0], 4); /*R*/
    return 0;
}
"""
    assert of_rule(check_src(src), "uninitialised-read") == []
    always = src.replace("#ifdef SQLITE_INLINE_MEMCPY", "#if 1")
    found = of_rule(check_src(always), "uninitialised-read")
    assert [f.location.start_line for f in found] == [line_of(always, "/*R*/")]


def test_the_next_element_temporary_of_a_safe_walk_is_set_by_the_macro() -> None:
    """libuv's ``RB_FOREACH_SAFE(w, watcher_root, root, tmp) {`` (BSD's tree.h: the temporary is
    the last argument) and Linux's ``list_for_each_entry_safe(pos, n, head, member) {`` (the
    second): the macro sets the temporary before the body runs."""
    src = """#include <sys/tree.h>
struct w { int wd; RB_ENTRY(w) entry; };
RB_HEAD(wroot, w);
void drop(struct w *);
int close_all(struct wroot *root, struct list_head *head)
{
    struct w *x;
    struct w *tmp;
    struct w *pos;
    struct w *n;
    int count = 0;
    RB_FOREACH_SAFE(x, wroot, root, tmp) {
        drop(x);
        count++;
    }
    count = count + 1;
    list_for_each_entry_safe(pos, n, head, entry) {
        drop(pos);
    }
    return count;
}
"""
    assert check_src(src) == []


ITERATION_DEFINED = """#include <stddef.h>
struct node { struct node *next; int v; };
struct head { struct node *first; };
#define node_for_each_safe(pos, n, head) \\
    for (pos = (head)->first, n = pos ? pos->next : NULL; pos; pos = n, n = pos ? pos->next : NULL)
int sum(struct head *h)
{
    struct node *x;
    struct node *n;
    int total = 0;
    node_for_each_safe(x, n, h) {
        total += x->v;
    }
    return total;
}
"""


def test_an_iteration_macro_the_file_defines_runs_its_block_as_the_loop_body() -> None:
    """The expansion ends with a ``for (...)`` header: the block after the call is its body, which
    runs while the cursor is not NULL, not once after the loop with the cursor NULL."""
    assert check_src(ITERATION_DEFINED) == []
    # after the loop the cursor is NULL: a dereference there is found
    after = ITERATION_DEFINED.replace("    return total;", "    return total + x->v; /*D*/")
    (f,) = of_rule(check_src(after), "known-null-dereference")
    assert f.location.start_line == line_of(after, "/*D*/")


def test_case_labels_a_macro_writes_are_cases_of_the_switch_around_it() -> None:
    """libuv's ``uv__fs_work``: ``#define X(type, action) case UV_FS_##type: r = action; break;`` in
    a ``switch`` with ``default: abort();``. The expanded labels are the switch's cases, so the
    code after the loop around it runs."""
    src = """#include <stdlib.h>
#include <errno.h>
enum { T_ACCESS, T_CHMOD };
int access_it(int), chmod_it(int);
struct req { int type; int arg; int result; };
void work(struct req *req)
{
    int r;
    do {
        errno = 0;
#define X(type, action) \\
  case T_ ## type: \\
    r = action; \\
    break;
        switch (req->type) {
        X(ACCESS, access_it(req->arg));
        X(CHMOD, chmod_it(req->arg));
        default: abort();
        }
#undef X
    } while (r == -1 && errno == EINTR);
    if (r == -1)
        req->result = -errno;
    else
        req->result = r;
}
"""
    assert check_src(src) == []
    macros = counting(count_macros("#define X(type, action) case T_ ## type: r = action; break;\n"))
    assert statement_macro(macros["X"])
