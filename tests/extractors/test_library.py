"""The library as data: the shipped rows are valid, a user's [library.NAME] rows extend them, and
every slip in either names its file and line."""

from __future__ import annotations

import pytest

from extractors.calls import BUILTIN, call_table
from extractors.config import Config, ConfigError, config_from_text
from extractors.library import ARG_ATOMS, LIBRARY_FILE, CallSpec, builtin_library, library_from_text
from tests.extractors.helpers import check_src, line_of, of_rule


def test_shipped_rows_are_valid_and_read_once() -> None:
    rows = library_from_text(LIBRARY_FILE.read_text(encoding="utf-8"))
    assert rows == dict(builtin_library()) == dict(BUILTIN)
    assert builtin_library() is builtin_library()  # cached: no TOML parsed per check
    for name, spec in rows.items():
        assert all(atom in ARG_ATOMS for _, atom in spec.args), name
        assert not any(a == "use" and (i in spec.null_ok or i == -1 and spec.null_ok) for i, a in spec.args), name


def test_shipped_facts() -> None:
    assert BUILTIN["free"] == CallSpec(args=((0, "free"),), null_ok=(0,))
    assert BUILTIN["exit"].noreturn and BUILTIN["setuid"].must_check
    assert BUILTIN["snprintf"].args == ((2, "use"),)  # snprintf(NULL, 0, ...) measures
    assert BUILTIN["printf"].args == ((-1, "read"),)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('a = { returns = "alloc" }\nb = { returns = "heap" }\n', 2, "b.returns must be one of"),
        ('a = { args = ["use", "frees"] }\n', 1, "a.args[1]: unknown 'frees'"),
        ("\n[a]\nnoreturn = 1\n", 3, "a.noreturn must be true or false"),
        ("a = { sizes = [1] }\n", 1, "unknown key 'sizes'"),
        ('a = { args = ["use"], null_ok = [0] }\n', 1, "both dereferenced"),
        ('a = { null_ok = ["x"] }\n', 1, "argument positions"),
        ('"a b" = { }\n', 0, "not a C function name"),
        ("a = 1\n", 1, "must be a table"),
    ],
)
def test_library_file_slips_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as e:
        library_from_text(text, "lib.toml")
    assert e.value.line == line and words in e.value.message and e.value.path == "lib.toml"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[library.my_open]\nreturns = "opened"\n', 2, "library.my_open.returns"),
        ("[library]\nmy_free = { args = [0] }\n", 2, "library.my_free.args must be a list of strings"),
        ("[library.my_fn]\nmust_chek = true\n", 2, "unknown key 'must_chek' for library.my_fn"),
        ("[library]\nx = 1\n", 2, "'library.x' must be a table"),
        ("library = 3\n", 1, "'library' must be a table"),
        ("[library.strlen]\nnull_ok = [0]\n", 2, "both dereferenced"),  # over the built-in row
    ],
)
def test_config_library_slips_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ConfigError) as e:
        config_from_text(text)
    assert e.value.line == line and words in e.value.message


def test_user_rows_extend_the_builtin_ones() -> None:
    cfg = config_from_text(
        '[library.pool_get]\nreturns = "alloc"\n\n[library.fopen]\nmust_check = false\n\n'
        '[library]\npool_put = { args = ["", "free"] }\n'
    )
    table = call_table(cfg)
    assert table["pool_get"] == CallSpec(returns="alloc")
    assert table["pool_put"] == CallSpec(args=((1, "free"),))
    fopen = CallSpec(returns="open", args=((0, "use"), (1, "use")))
    assert table["fopen"] == fopen and BUILTIN["fopen"].must_check  # the row kept its result and args
    assert cfg.digest() != Config().digest()


def test_user_row_wins_over_extract_lists() -> None:
    cfg = config_from_text('[extract]\nallocators = ["mk"]\n\n[library.mk]\nnonnull = true\n')
    assert call_table(cfg)["mk"] == CallSpec(returns="alloc", nonnull=True)


def test_user_rows_reach_the_checks() -> None:
    cfg = config_from_text(
        '[library.pool_get]\nreturns = "alloc"\n[library.pool_put]\nargs = ["", "free"]\n'
        "[library.pool_init]\nmust_check = true\n"
    )
    src = """
void f(void *pool) { char *p = pool_get(8); if (!p) return; p[0] = 1; }   /*L*/
void g(void *pool) { char *p = pool_get(8); if (!p) return; pool_put(pool, p); }
void h(void *pool) { pool_init(pool); }   /*C*/
"""
    found = check_src(src, cfg)
    assert [(f.function, f.location.start_line) for f in of_rule(found, "memory-leak")] == [
        ("f", line_of(src, "/*L*/"))
    ]
    assert [(f.function, f.location.start_line) for f in of_rule(found, "unchecked-return")] == [
        ("h", line_of(src, "/*C*/"))
    ]


def test_checked_by_counts_a_later_check_on_the_same_argument() -> None:
    src = """
#include <stdio.h>
int a(FILE *f, char *b) { fread(b, 1, 4, f); return ferror(f) ? -1 : 0; }
int c(FILE *f, FILE *g, char *b) { fread(b, 1, 4, f); return ferror(g) ? -1 : 0; }   /*C*/
"""
    assert [(f.function, f.location.start_line) for f in of_rule(check_src(src), "unchecked-return")] == [
        ("c", line_of(src, "/*C*/"))
    ]
    with pytest.raises(ConfigError) as e:
        config_from_text('[library.fread]\nchecked_by = "ferror"\n')
    assert e.value.line == 2 and "checked_by must be a list of function names" in e.value.message


THREAD_EXIT = """\
#include <stdlib.h>
#include <setjmp.h>
struct thread { jmp_buf jb; int id; };
struct thread *self_%(fn)s(void)
{
    struct thread *t = malloc(sizeof *t);
    if (t == NULL)
        return NULL;
    if (setjmp(t->jb)) {
        free(t);
        %(fn)s(0);
    }
    return t; /*R*/
}
"""


@pytest.mark.parametrize("fn", ["_endthreadex", "ExitThread", "pthread_exit"])
def test_thread_exits_never_return(fn: str) -> None:
    """Windows' thread and process exits are listed as never returning: the block freed before
    one is not returned."""
    assert of_rule(check_src(THREAD_EXIT % {"fn": fn}), "return-freed-pointer") == []


def test_a_thread_exit_that_returns_leaves_the_freed_block_returned() -> None:
    src = THREAD_EXIT % {"fn": "log_exit"}
    found = of_rule(check_src(src), "return-freed-pointer")
    assert [f.location.start_line for f in found] == [line_of(src, "/*R*/")]


OWNING_OBJECT = """\
#include <stdlib.h>
typedef struct { long refcnt; void *type; } PyObject;
typedef struct { PyObject head; void *c_type; void *weak; } CData;
extern void *CDataOwning_Type;
PyObject *%(init)s(PyObject *op, void *tp);

CData *allocate_owning(size_t size, void *ct, int dont_clear)
{
    CData *cd;
    if (dont_clear)
        cd = malloc(size);
    else
        cd = calloc(size, 1);
    if (%(init)s((PyObject *)cd, &CDataOwning_Type) == NULL)
        return NULL;
    cd->c_type = ct; /*D*/
    cd->weak = NULL;
    return cd;
}
"""


def test_a_call_returning_its_argument_tests_the_argument() -> None:
    """``PyObject_Init(op, tp)`` returns ``op``, or NULL when ``op`` is NULL (``returns_arg``): past
    a not-NULL test of its result the block is not NULL.  A user's function with the same shape
    but no such row may return anything, and the dereference stays reported."""
    assert of_rule(check_src(OWNING_OBJECT % {"init": "PyObject_Init"}), "null-dereference") == []
    src = OWNING_OBJECT % {"init": "my_object_init"}
    assert [f.location.start_line for f in of_rule(check_src(src), "null-dereference")] == [line_of(src, "/*D*/")]
    cfg = config_from_text("[library.my_object_init]\nreturns_arg = 0\nnull_ok = [0]\n")
    assert of_rule(check_src(src, cfg), "null-dereference") == []
    with pytest.raises(ConfigError) as e:
        config_from_text("[library.my_object_init]\nreturns_arg = -1\n")
    assert e.value.line == 2 and "returns_arg must be an argument position" in e.value.message
