"""A function known only by a prototype whose parameter is ``const T *`` borrows its argument
(extractors.prototypes): the caller's block does not escape into it, so the caller's leak is found;
a prototype that may keep the pointer (``char *``, ``const char **``) still lets it escape."""

from __future__ import annotations

import pytest

from extractors.api import Project
from extractors.parse import parse_c
from extractors.prototypes import prototype_facts

CALLER = """\
#include <stdlib.h>
{proto}
int report(int n)
{{
    char *msg = malloc(n);
    if (msg == NULL)
        return -1;
    msg[0] = 0;
    return log_line(0, {arg});
}}
"""


def _leaks(files: dict[str, str]) -> list[tuple[str, int]]:
    p = Project()
    for path, text in files.items():
        p.update_file(path, text)
    return [(f.rule_id, f.location.start_line) for f in p.check()["main.c"] if f.rule_id == "memory-leak"]


@pytest.mark.parametrize(
    "proto",
    [
        "int log_line(int level, const char *msg);",
        "extern int log_line(int, char const *);",
        "int log_line(int level, const char *fmt, ...);",
    ],
)
@pytest.mark.parametrize("arg", ["msg", "(const char *)msg"])
def test_a_const_pointer_parameter_of_a_prototype_does_not_take_the_block(proto: str, arg: str) -> None:
    assert _leaks({"main.c": CALLER.format(proto=proto, arg=arg)}) == [("memory-leak", 4)]


@pytest.mark.parametrize(
    "proto",
    [
        "int log_line(int level, char *msg);",  # may keep (and free) it
        "int log_line(int level, const char **msg);",  # one level more: may store into *msg
        "int log_line(const char *level, char *msg);",  # the const one is another argument
        "",  # no prototype: unknown
    ],
)
def test_a_prototype_that_may_keep_the_pointer_lets_it_escape(proto: str) -> None:
    assert _leaks({"main.c": CALLER.format(proto=proto, arg="msg")}) == []


def test_the_prototype_may_be_in_another_file_of_the_project() -> None:
    files = {"main.c": CALLER.format(proto="", arg="msg"), "log.h": "int log_line(int, const char *);\n"}
    assert _leaks(files) == [("memory-leak", 4)]


def test_a_project_definition_wins_over_the_prototype() -> None:
    keeps = "static char *kept;\nint log_line(int level, const char *msg) { kept = (char *)msg; return level; }\n"
    src = CALLER.format(proto="int log_line(int level, const char *msg);", arg="msg") + keeps
    assert _leaks({"main.c": src}) == []


def test_masks_read_one_pointer_level_of_const_data() -> None:
    tree = parse_c(
        b"int f(const char *a, char *const b, const char **c, const int d, char const *e);\n"
        b"char *g(int, ...);\nint (*fp)(const char *);\n"
    )
    facts = [x for n in tree.root_node.named_children for x in prototype_facts(n)]
    assert facts == [("f(const)", 0b10001)]
