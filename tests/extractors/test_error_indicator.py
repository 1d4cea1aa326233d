"""A caller that learns of a failure from Python's error indicator (``if (PyErr_Occurred())``) right
after the call, of a callee whose every NULL comes with the indicator set, dereferences a result
that is not NULL (extractors.error_indicator, extractors.null_returns' ``RAISED``): cffi's
``fb_build`` after ``fb_fill_type``.  A callee that may also return NULL without setting it, a
caller that does not test it, tests it the wrong way round or after another store, are still
reported."""

from __future__ import annotations

import pytest

from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.config import ConfigError, config_from_text
from extractors.error_indicator import condition_indicator
from extractors.null_returns import ANY, NEVER, RAISED, returns_null
from extractors.parse import parse_c
from tests.extractors.helpers import cfg_of, check_src, of_rule

LOOKUP = """\
typedef struct _object PyObject;
extern PyObject *PyExc_KeyError, *PyExc_TypeError;
struct field {{ const char *name; int offset; }};
struct layout {{ int n; struct field *fields; }};
int load_layout(struct layout *l);

static struct field *find_field(struct layout *l, const char *name)
{{
    if (name[0] == '\\0') {{
        PyErr_SetString(PyExc_TypeError, "empty field name");
        return NULL;
    }}
    if (load_layout(l) < 0)
        return NULL;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->fields[i].name, name) == 0)
            return &l->fields[i];
    {miss}
}}

int field_offset(struct layout *l, const char *name)
{{
    struct field *f = find_field(l, name);
    {test}
    return f->offset;
}}
"""

RAISING_MISS = 'PyErr_Format(PyExc_KeyError, "no field %s", name);\n    return NULL;'
TESTED = "if (PyErr_Occurred())\n        return -1;"


def _nulls(miss: str = RAISING_MISS, test: str = TESTED) -> list[int]:
    found = of_rule(check_src(LOOKUP.format(miss=miss, test=test)), "null-dereference")
    return [f.location.start_line for f in found]


@pytest.mark.parametrize(
    "test",
    [
        TESTED,
        "if (PyErr_Occurred() != NULL)\n        return -1;",
        "if (!PyErr_Occurred()) {} else return -1;",
    ],
)
def test_the_clear_branch_of_the_indicator_says_a_raising_callees_result_is_not_null(test: str) -> None:
    assert _nulls(test=test) == []


@pytest.mark.parametrize(
    "miss",
    [
        "return NULL;",  # a quiet miss: NULL with no exception set
        'PyErr_Format(PyExc_KeyError, "no field %s", name);\n    PyErr_Clear();\n    return NULL;',
    ],
)
def test_a_null_without_the_indicator_set_is_still_reported(miss: str) -> None:
    assert _nulls(miss=miss) != []


@pytest.mark.parametrize(
    "test",
    [
        "",  # no test at all
        "if (!PyErr_Occurred())\n        return -1;",  # the wrong way round
        "f = find_field(l, \"\");\n    (void)0;\n    if (PyErr_Occurred())\n        return -1;",  # not right after
    ],
)
def test_a_caller_that_does_not_test_the_indicator_right_after_the_call_is_still_reported(test: str) -> None:
    assert _nulls(test=test) != []


def test_the_answer_names_whether_every_null_comes_with_the_indicator_set() -> None:
    def answer(miss: str) -> str:
        src = LOOKUP.format(miss=miss, test="")
        p = Project()
        p.update_file("t.c", src)
        return returns_null(p.files["t.c"].model.functions["find_field"])

    assert answer(RAISING_MISS) == RAISED
    assert answer("return NULL;") == ANY
    assert answer("return &l->fields[0];") == RAISED  # the early NULLs all raise
    assert answer("if (PyErr_Occurred()) return NULL;\n    return &l->fields[0];") == RAISED


def test_a_null_passed_on_from_a_failed_error_code_test_counts_as_raised_only_on_its_failure_branch() -> None:
    src = """\
static int *get(int *p)
{
    if (prepare(p) >= 0)
        return NULL;
    return p;
}
"""
    p = Project()
    p.update_file("t.c", src)
    assert returns_null(p.files["t.c"].model.functions["get"]) == ANY  # NULL on success: not raised
    p.update_file("t.c", src.replace(">= 0", "< 0"))
    assert returns_null(p.files["t.c"].model.functions["get"]) == RAISED
    p.update_file("t.c", src.replace("if (prepare(p) >= 0)", "if (ready(p))"))  # a predicate, no error code
    assert returns_null(p.files["t.c"].model.functions["get"]) == ANY
    p.update_file("t.c", "static int *get(int *p) { return p; }\n")
    assert returns_null(p.files["t.c"].model.functions["get"]) == NEVER


@pytest.mark.parametrize(
    "cond, marks",
    [
        ("PyErr_Occurred()", ((True, True), (False, False))),
        ("PyErr_Occurred() == NULL", ((False, True), (True, False))),
        ("!PyErr_Occurred()", ((False, True), (True, False))),
        ("NULL != PyErr_Occurred()", ((True, True), (False, False))),
        ("Occurred()", ()),
        ("x == NULL", ()),
    ],
)
def test_tests_of_the_indicator(cond: str, marks: tuple[tuple[bool, bool], ...]) -> None:
    tree = parse_c(f"int x = {cond};".encode())
    expr = tree.root_node.children[0].child_by_field_name("declarator").child_by_field_name("value")
    assert condition_indicator(expr, BUILTIN) == marks


def test_setting_and_clearing_calls_and_the_test_after_a_call_are_marked() -> None:
    cfg = cfg_of(
        """\
int f(void) {
    p = g();
    if (PyErr_Occurred()) return -1;
    q = g();
    r = 1;
    if (PyErr_Occurred()) return -1;
    PyErr_SetString(PyExc_TypeError, "x");
    PyErr_Clear();
    return 0;
}
"""
    )
    by_text = {n.text: n for n in cfg.nodes}
    assert by_text["p = g();"].error_test is True
    assert by_text["q = g();"].error_test is None  # another statement comes between
    assert by_text['PyErr_SetString(PyExc_TypeError, "x");'].indicator == ((None, True),)
    assert by_text["PyErr_Clear();"].indicator == ((None, False),)


def test_a_users_row_names_its_own_error_indicator_and_a_bad_value_is_an_error() -> None:
    own = LOOKUP.format(miss=RAISING_MISS, test=TESTED).replace("PyErr_", "Err_")
    assert of_rule(check_src(own), "null-dereference") != []  # the library knows no Err_ functions
    rows = (
        '[library.Err_SetString]\nerror_indicator = "set"\n[library.Err_Format]\nerror_indicator = "set"\n'
        '[library.Err_Occurred]\nerror_indicator = "test"\n'
    )
    assert of_rule(check_src(own, config_from_text(rows)), "null-dereference") == []
    with pytest.raises(ConfigError) as e:
        config_from_text('[library.Err_Occurred]\nerror_indicator = "tested"\n')
    assert e.value.line == 2 and "error_indicator must be one of" in e.value.message


def test_editing_the_callee_between_raising_and_quiet_misses_updates_its_caller() -> None:
    p = Project()

    def rules() -> list[str]:
        return [f.rule_id for f in p.check()["t.c"]]

    p.update_file("t.c", LOOKUP.format(miss=RAISING_MISS, test=TESTED))
    assert rules() == []
    p.update_file("t.c", LOOKUP.format(miss="return NULL;", test=TESTED))
    assert rules() == ["null-dereference"]
    p.update_file("t.c", LOOKUP.format(miss=RAISING_MISS, test=TESTED))
    assert rules() == []
