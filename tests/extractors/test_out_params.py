"""Callees that store into ``*param`` for a caller's ``&x`` (extractors.out_params): summarised per
returned constant, so the caller's test of the result says what ``x`` holds on each branch. A leak
of the block a callee allocated into ``x``, an uninitialised read of an ``x`` the callee did not
set on the branch taken; next to each, the twin where the caller does it right, and the shapes
the summary must refuse (so that nothing is claimed it cannot read)."""

from __future__ import annotations

import pytest

from extractors.api import Project
from extractors.out_params import ALLOC, NONE, OTHER, out_summary
from tests.extractors.helpers import cfg_of

WORD = """\
#include <stdlib.h>
#include <string.h>
static int first_word(const char *s, char **out)
{{
    size_t n = strcspn(s, " ");
    {body}
}}
int starts_with_cmd(const char *line)
{{
    char *word;
    {caller}
}}
"""

ALLOCATES = """char *w = malloc(n + 1);
    if (w == NULL)
        return -1;
    memcpy(w, s, n);
    w[n] = '\\0';
    *out = w;
    return 0;"""

LEAKS = """if (first_word(line, &word) != 0)
        return -1;
    return strcmp(word, "cmd") == 0;"""

FREES = """if (first_word(line, &word) != 0)
        return -1;
    int is_cmd = strcmp(word, "cmd") == 0;
    free(word);
    return is_cmd;"""


def _line(text: str, needle: str) -> int:
    """0-based row of the last line holding ``needle`` (the caller comes after the callee)."""
    return max(i for i, line in enumerate(text.splitlines()) if needle in line)


def _found(text: str, path: str = "main.c") -> list[tuple[str, int]]:
    p = Project()
    p.update_file(path, text)
    return sorted((f.rule_id, f.location.start_line) for f in p.check()[path])


def test_block_allocated_into_out_param_leaks_when_never_freed() -> None:
    bad = WORD.format(body=ALLOCATES, caller=LEAKS)
    assert _found(bad) == [("memory-leak", _line(bad, "&word"))]
    assert _found(WORD.format(body=ALLOCATES, caller=FREES)) == []


@pytest.mark.parametrize(
    "caller",
    [
        # the failure branch of the test returns: the callee stored nothing there
        "if (first_word(line, &word))\n        return -1;\n    free(word);\n    return 0;",
        "if (first_word(line, &word) == 0) {\n        free(word);\n        return 1;\n    }\n    return 0;",
        "if (first_word(line, &word) < 0)\n        return -1;\n    free(word);\n    return 0;",
    ],
)
def test_the_failure_branch_holds_no_block(caller: str) -> None:
    assert _found(WORD.format(body=ALLOCATES, caller=caller)) == []


def test_result_kept_in_a_local_and_tested_next_tells_the_branches_apart() -> None:
    """``rc = f(&x); if (rc) ...``: the test right after the call reads the result through the
    local, so its branches say what the callee stored as a test of the call itself would."""
    caller = "int rc = first_word(line, &word);\n    if (rc != 0)\n        return -1;\n    free(word);\n    return 0;"
    assert _found(WORD.format(body=ALLOCATES, caller=caller)) == []
    leaks = WORD.format(body=ALLOCATES, caller=caller.replace("    free(word);\n", ""))
    assert _found(leaks) == [("memory-leak", _line(leaks, "if (rc != 0)"))]  # where the block is known
    # a statement between the call and the test: the branches are not told apart, no block claimed
    apart = caller.replace("    if (rc", "    line++;\n    if (rc").replace("    free(word);\n", "")
    assert _found(WORD.format(body=ALLOCATES, caller=apart)) == []


def test_read_on_the_failure_branch_of_a_result_kept_in_a_local() -> None:
    bad = "int rc = parse_port(s, &port);\n    if (rc != 0)\n        return port;\n    return port + 1;"
    good = "int rc = parse_port(s, &port);\n    if (rc != 0)\n        return 80;\n    return port;"
    text = PORT.format(body=PARSES, caller=bad)
    assert _found(text) == [("uninitialised-read", _line(text, "return port;"))]
    assert _found(PORT.format(body=PARSES, caller=good)) == []
    # the test itself reads the local: no branch is told apart
    reads = "int rc = parse_port(s, &port);\n    if (rc != 0 || port < 1024)\n        return 80;\n    return port;"
    assert _found(PORT.format(body=PARSES, caller=reads)) == []


def test_direct_allocation_into_out_param() -> None:
    body = "*out = malloc(n + 1);\n    return 0;"
    bad = WORD.format(body=body, caller="first_word(line, &word);\n    return 0;")
    assert _found(bad) == [("memory-leak", _line(bad, "&word"))]
    assert _found(WORD.format(body=body, caller="first_word(line, &word);\n    free(word);\n    return 0;")) == []


@pytest.mark.parametrize(
    "body",
    [
        # the block is freed again on a path after the store: not only *out holds it
        "char *w = malloc(n + 1);\n    *out = w;\n    if (n == 0) {\n        free(w);\n        return 0;\n    }\n"
        "    return 0;",
        # kept elsewhere too
        "char *w = malloc(n + 1);\n    *out = w;\n    keep(w);\n    return 0;",
        # not a fresh block
        "static char buf[8];\n    buf[0] = (char)n;\n    *out = buf;\n    return 0;",
    ],
)
def test_stores_of_blocks_others_hold_are_no_allocation(body: str) -> None:
    text = "void keep(char *p);\n" + WORD.format(body=body, caller="first_word(line, &word);\n    return 0;")
    assert _found(text) == []


PORT = """\
#include <stdlib.h>
static int parse_port(const char *s, int *port)
{{
    {body}
}}
int port_or_default(const char *s)
{{
    int port;
    {caller}
}}
"""

PARSES = """long v = strtol(s, NULL, 10);
    if (v <= 0 || v > 65535)
        return -1;
    *port = (int)v;
    return 0;"""


def test_read_of_out_param_on_the_branch_where_the_callee_did_not_set_it() -> None:
    bad = "if (parse_port(s, &port) != 0 && s[0] != '\\0')\n        return 80;\n    return port;"
    good = "if (parse_port(s, &port) != 0)\n        return 80;\n    return port;"
    text = PORT.format(body=PARSES, caller=bad)
    assert _found(text) == [("uninitialised-read", _line(text, "return port;"))]
    assert _found(PORT.format(body=PARSES, caller=good)) == []


def test_callee_that_never_sets_its_out_param_is_no_summary() -> None:
    """A body that never stores (often one preprocessor variant of several, a stub) says nothing
    of the other variants: the caller's local stays out of the checks."""
    body = "if (port == NULL)\n        return -1;\n    (void)s;\n    return 0;"
    assert _found(PORT.format(body=body, caller="parse_port(s, &port);\n    return port;")) == []


@pytest.mark.parametrize(
    "body",
    [
        "port[0] = atoi(s);\n    return 0;",  # a store the summary does not read as *port = v
        "*port += 1;\n    return 0;",
        "if (s[0])\n        *port = 1;\n    PORT_ADDR(port);\n    return 0;",  # a macro hides a use
        "fill(port, s);\n    return 0;",  # handed on
        "int *q = port;\n    *q = 1;\n    return 0;",  # copied
        "if (s[0])\n        return -1;\n    *port = 1;\n    return 0;",  # the caller reads the result in a local
    ],
)
def test_callees_the_summary_cannot_read_leave_the_local_unchecked(body: str) -> None:
    caller = "int rc = parse_port(s, &port);\n    if (rc != 0)\n        return 80;\n    return port;"
    text = "void fill(int *p, const char *s);\n" + PORT.format(body=body, caller=caller)
    assert _found(text) == []


def test_a_node_that_reads_the_local_besides_handing_its_address_is_not_checked() -> None:
    caller = "return parse_port(s, &port) == 0 ? port : 80;"
    assert _found(PORT.format(body=PARSES, caller=caller)) == []


def test_summary_per_returned_constant() -> None:
    text = WORD.format(body=ALLOCATES, caller=LEAKS)
    from extractors.calls import BUILTIN
    from extractors.functions import FunctionModel
    from extractors.prune import prune

    cfg = cfg_of(text, "first_word")
    model = FunctionModel("first_word", "t.c", ("s", "out"), cfg, prune(cfg, {}), "k", 0, 0)
    allocates = lambda c: (spec := BUILTIN.get(c.name or "")) is not None and spec.returns == "alloc"  # noqa: E731
    assert out_summary(model, 1, BUILTIN, allocates) == ((-1, frozenset({NONE})), (0, frozenset({ALLOC})))
    assert out_summary(model, 0, BUILTIN, allocates) is None  # s is handed to strcspn


def test_a_plain_store_is_other() -> None:
    text = PORT.format(body=PARSES, caller="return 0;")
    from extractors.calls import BUILTIN
    from extractors.functions import FunctionModel
    from extractors.prune import prune

    cfg = cfg_of(text, "parse_port")
    model = FunctionModel("parse_port", "t.c", ("s", "port"), cfg, prune(cfg, {}), "k", 0, 0)
    assert out_summary(model, 1, BUILTIN, lambda c: False) == ((-1, frozenset({NONE})), (0, frozenset({OTHER})))


def test_editing_the_callee_rechecks_the_caller() -> None:
    p = Project()
    quiet = PORT.format(body=PARSES, caller="if (parse_port(s, &port) != 0)\n        return 80;\n    return port;")
    p.update_file("main.c", quiet)
    assert p.check()["main.c"] == []
    # now the failure stores and the success does not: the caller reads an unset port after 0
    moved = "if (v <= 0 || v > 65535) {\n        *port = 0;\n        return -1;\n    }\n    return 0;"
    loud = quiet.replace(PARSES, "long v = strtol(s, NULL, 10);\n    " + moved)
    assert loud != quiet
    p.update_file("main.c", loud)
    assert [(f.rule_id, f.location.start_line) for f in p.check()["main.c"]] == [
        ("uninitialised-read", _line(loud, "return port;"))
    ]


POINT = """\
#include <stdlib.h>
#include <assert.h>
typedef struct { int *x; } Point;
int point_new(Point **out)
{
    Point *p;
    if (out == NULL)
        return 1;
    p = malloc(sizeof *p);
    if (p == NULL)
        return 2;
    p->x = calloc(4, sizeof(int));
    if (p->x == NULL) {
        free(p);
        return 2;
    }
    *out = p;
    return 0;
}
void point_free(Point *p)
{
    if (p == NULL)
        return;
    free(p->x);
    free(p);
}
int twice(void)
{
    Point *a;
    int s;
    assert(point_new(&a) == 0);
    a->x[0] = 1;
    point_free(a);
    assert(point_new(&a) == 0);
    s = a->x[0];
    point_free(a);
    return s;
}
"""


def test_a_field_path_names_another_object_once_its_base_is_handed_by_address() -> None:
    """pycryptodome's tests: ``a->x`` after ``point_new(&a)`` is the new point's, not the freed one's."""
    assert [rule for rule, _ in _found(POINT)] == []
    # the second point goes to b: a->x is still the freed point's
    second = "    Point *b;\n    assert(point_new(&b) == 0);\n    s = a"
    bad = POINT.replace("    assert(point_new(&a) == 0);\n    s = a", second)
    bad = bad.replace("    point_free(a);\n    return s;", "    point_free(b);\n    return s;")
    assert ("use-after-free", _line(bad, "s = a->x[0];")) in _found(bad)
