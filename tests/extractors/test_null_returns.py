"""A project function that may return NULL to a caller with valid arguments is a may-NULL source
at its call sites (extractors.null_returns): its result dereferenced without a test is reported,
as for ``malloc``; a test, a callee that answers only a NULL argument with NULL, and the other
shapes the module leaves out stay quiet."""

from __future__ import annotations

import pytest

from extractors.api import Project

FIND = """\
struct opt {{ const char *name; int value; }};
int same(const char *a, const char *b);
static struct opt *find_opt(struct opt *opts, int n, const char *name)
{{
    {guard}
    for (int i = 0; i < n; i++)
        if (same(opts[i].name, name))
            return &opts[i];
    {tail}
}}
"""

CALLER = """\
int opt_value(struct opt *opts, int n, const char *name)
{{
    {body}
}}
"""

DEREF = "struct opt *o = find_opt(opts, n, name);\n    return o->value;"


def _nulls(files: dict[str, str], path: str = "main.c") -> list[int]:
    p = Project()
    for name, text in files.items():
        p.update_file(name, text)
    return [f.location.start_line for f in p.check()[path] if f.rule_id == "null-dereference"]


def _one(body: str, tail: str = "return NULL;", guard: str = "") -> list[int]:
    return _nulls({"main.c": FIND.format(guard=guard, tail=tail) + CALLER.format(body=body)})


@pytest.mark.parametrize(
    "body",
    [
        DEREF,
        "struct opt *o = (struct opt *)find_opt(opts, n, name);\n    return o->value;",  # a cast
        "struct opt *o = find_opt(opts, n, name);\n    struct opt *q = o;\n    return q->value;",  # a copy
        "struct opt *o;\n    o = find_opt(opts, n, name);\n    return (*o).value;",
    ],
)
def test_an_unchecked_result_of_a_lookup_that_can_miss_is_reported(body: str) -> None:
    assert _one(body) != []


@pytest.mark.parametrize(
    "body",
    [
        "struct opt *o = find_opt(opts, n, name);\n    if (!o)\n        return -1;\n    return o->value;",
        "struct opt *o = find_opt(opts, n, name);\n    return o != NULL ? o->value : -1;",
        "struct opt *o = find_opt(opts, n, name);\n    return o ? 1 : 0;",  # not dereferenced
    ],
)
def test_a_tested_or_undereferenced_result_is_quiet(body: str) -> None:
    assert _one(body) == []


@pytest.mark.parametrize(
    "guard, tail",
    [
        ("if (opts == NULL) return NULL;", "return &opts[0];"),  # NULL only for a NULL argument
        ("if (!name || !opts) return NULL;", "return opts;"),
        ("", "lua_assert(0);\n    return NULL;"),  # the author says it is not reached
        ("struct opt *d = other(name);\n    if (d == NULL) return NULL;", "return d;"),  # passes on a failure
        ("", "return &opts[0];"),  # never NULL
    ],
)
def test_a_callee_that_returns_null_only_for_a_null_argument_or_a_failure_does_not_flood(guard: str, tail: str) -> None:
    assert _one(DEREF, tail=tail, guard=guard) == []


def test_the_result_replacing_the_argument_is_read_by_the_callee_first() -> None:
    src = """\
static const char *skip(const char *s) { if (*s != ' ') return NULL; return s + 1; }
int f(const char *s) { s = skip(s); if (s == NULL) return 0; return *s; }
"""
    assert _nulls({"main.c": src}) == []


def test_a_lookup_in_another_file_is_its_exported_contract_and_stays_quiet() -> None:
    lib = FIND.format(guard="", tail="return NULL;").replace("static ", "")
    main = "struct opt { const char *name; int value; };\nstruct opt *find_opt(struct opt *, int, const char *);\n"
    assert _nulls({"lib.c": lib, "main.c": main + CALLER.format(body=DEREF)}) == []


def test_editing_the_callee_updates_its_callers() -> None:
    p = Project()
    caller = CALLER.format(body=DEREF)
    p.update_file("main.c", FIND.format(guard="", tail="return &opts[0];") + caller)
    assert [f.rule_id for f in p.check()["main.c"]] == []
    p.update_file("main.c", FIND.format(guard="", tail="return NULL;") + caller)
    assert [f.rule_id for f in p.check()["main.c"]] == ["null-dereference"]
    p.update_file("main.c", FIND.format(guard="", tail="return &opts[0];") + caller)
    assert [f.rule_id for f in p.check()["main.c"]] == []


KIND = """\
enum {{ T_LIST = 1, T_TABLE = 2 }};
struct node {{ int type; int count; unsigned char *cells; }};
static unsigned char *table_cells(struct node *n)
{{
    {guard}
    return n->cells;
}}
int first_cell(struct node *n)
{{
    unsigned char *cells = table_cells(n);
    return cells[0];
}}
"""


@pytest.mark.parametrize(
    "guard",
    [
        "if (!n || n->type != T_TABLE)\n        return NULL;",  # cmark's get_table_alignments
        "if (n == NULL || n->type != T_TABLE)\n        return 0;",
        "if (!n)\n        return NULL;\n    if (n->type != T_TABLE)\n        return NULL;",
        "if (!n || !(n->type == T_TABLE))\n        return NULL;",
    ],
)
def test_null_for_an_argument_of_another_kind_is_part_of_the_null_guard(guard: str) -> None:
    # a caller that passes a table never sees it, as with the NULL argument the same guard answers
    assert _nulls({"main.c": KIND.format(guard=guard)}) == []


@pytest.mark.parametrize(
    "guard",
    [
        "if (!n || n->type == T_LIST)\n        return NULL;",  # only lists are refused
        "if (n->type != T_TABLE)\n        return NULL;",  # no NULL guard: a test of its own
        "if (!n)\n        return NULL;\n    n->count++;\n    if (n->type != T_TABLE)\n        return NULL;",
    ],
)
def test_other_tests_of_the_argument_still_return_null_to_the_caller(guard: str) -> None:
    assert _nulls({"main.c": KIND.format(guard=guard)}) != []
