"""Statement macros named for returning (``Py_RETURN_NONE;``) end the path (extractors.cfg): the
cleanup under the next label is not run after them, so a local that only the paths through the
label set is not read unset there. Conditional ones (``RETURN_IF_ERROR(rc);``) go on."""

from __future__ import annotations

import pytest
from tree_sitter import Node

from extractors.cfg import returning_macro
from extractors.parse import parse_c
from tests.extractors.helpers import cfg_of, check_src

FALLS_INTO_CLEANUP = """\
typedef struct obj obj;
obj *next(obj *it);
void drop(obj *o);
obj *walk(obj *it)
{
    obj *item;
    while (next(it) != 0) {
        item = next(it);
        if (item == 0)
            goto error;
        drop(item);
    }
    %s;
error:
    drop(item);
    return 0;
}
"""


@pytest.mark.parametrize("stmt", ["Py_RETURN_NONE", "Py_RETURN_RICHCOMPARE(1, 2, 3)", "RETURN(0)"])
def test_a_returning_macro_ends_the_path(stmt: str) -> None:
    assert [f.rule_id for f in check_src(FALLS_INTO_CLEANUP % stmt)] == []


@pytest.mark.parametrize("stmt", ["RETURN_IF_ERROR(it)", "CHECK_AND_RETURN(it)", "Py_DECREF(it)", "RETURNS"])
def test_other_statements_go_on(stmt: str) -> None:
    assert "uninitialised-read" in [f.rule_id for f in check_src(FALLS_INTO_CLEANUP % stmt)]


def test_the_macro_is_a_return_node() -> None:
    cfg = cfg_of("int f(void) { Py_RETURN_NONE; }")
    assert [n.kind for n in cfg.nodes if n.text == "Py_RETURN_NONE;"] == ["return"]


def test_names() -> None:
    def expression(text: str) -> Node:
        tree = parse_c(f"void f(void) {{ {text}; }}")
        body = tree.root_node.children[0].child_by_field_name("body")
        assert body is not None
        return body.named_children[0].named_children[0]

    assert returning_macro(expression("Py_RETURN_TRUE"))
    assert not returning_macro(expression("RETURN_ON_ERR(x)"))
    assert not returning_macro(expression("xreturn(x)"))
