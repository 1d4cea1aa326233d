"""A value copied into one local is checked once, on the local (extractors.handed_on)."""

from __future__ import annotations

from extractors.api import Project
from extractors.handed_on import handed_on
from tests.extractors.helpers import check_src, line_of, of_rule

COPIED_ONCE = """
#include <stdlib.h>
struct log { int fd; char *path; };
int log_close(struct log *log) { return log->fd; }
int gz_close(void *logd) {
    struct log *log = logd;
    if (log == NULL) {
        log_close(log); /*KN*/
        return -1;
    }
    free(log->path);
    free(log);
    return log->fd; /*UAF*/
}
"""


def _handed(src: str, name: str) -> frozenset[str]:
    p = Project()
    p.update_file("t.c", src)
    p.check()
    proj = p._projector(["t.c"])
    fm = next(f for f in proj.scope.functions.values() if f.name == name)
    return handed_on(proj, fm)


def test_a_parameter_copied_into_one_local_is_checked_on_the_local() -> None:
    assert _handed(COPIED_ONCE, "gz_close") == frozenset({"logd"})


def test_its_bugs_are_still_found_once_and_named_as_the_code_names_them() -> None:
    found = check_src(COPIED_ONCE)
    known_null = of_rule(found, "known-null-dereference")
    assert [f.location.start_line for f in known_null] == [line_of(COPIED_ONCE, "/*KN*/")]
    uaf = of_rule(found, "use-after-free")
    assert [f.location.start_line for f in uaf] == [line_of(COPIED_ONCE, "/*UAF*/")]
    assert all("'log'" in f.message for f in known_null + uaf), [f.message for f in found]


def test_a_value_used_on_its_own_too_is_checked_itself() -> None:
    src = COPIED_ONCE.replace("    free(log);\n", "    free(logd);\n")
    assert _handed(src, "gz_close") == frozenset()
    uaf = of_rule(check_src(src), "use-after-free")
    assert [f.location.start_line for f in uaf] == [line_of(src, "/*UAF*/")]


def test_two_copies_are_seen_together_only_on_the_value() -> None:
    src = """
#include <stdlib.h>
void drop(char *p) {
    char *a = p;
    char *b = p;
    free(a);
    free(b); /*DF*/
}
"""
    assert _handed(src, "drop") == frozenset()
    df = of_rule(check_src(src), "double-free")
    assert [f.location.start_line for f in df] == [line_of(src, "/*DF*/")]


def test_a_local_given_another_object_while_used_keeps_the_value_checked() -> None:
    src = """
#include <stdlib.h>
struct node { struct node *next; int v; };
int last(struct node *head) {
    struct node *n = head;
    n = n->next;
    return n->v;
}
"""
    assert _handed(src, "last") == frozenset()
