"""``&x`` handed to a project function (extractors.projection): the callee's ``*param`` is ``x``
(what it frees through a copy of ``*param`` is freed in the caller, a store ``*param = v`` gives
``x`` a new value), and the parameter itself is the address of ``x`` (freeing it frees no heap
block). Each bug next to its fixed twin, through copies, casts and a callee in another file."""

from __future__ import annotations

import pytest

from extractors.api import Project

RELEASE = """\
#include <stdlib.h>
struct ctx {{ int refs; char *scratch; }};
void ctx_release(struct ctx **pc)
{{
    {body}
}}
"""

USE = """\
#include <stdlib.h>
struct ctx {{ int refs; char *scratch; }};
void ctx_release(struct ctx **pc);
int ctx_done(struct ctx *c)
{{
    {call}
    return {after};
}}
"""


def _found(files: dict[str, str], path: str = "main.c") -> list[tuple[str, int]]:
    p = Project()
    for name, text in files.items():
        p.update_file(name, text)
    return [(f.rule_id, f.location.start_line) for f in p.check()[path]]


def _pair(
    body: str, call: str = "ctx_release(&c);", after: str = "c->refs", split: bool = False
) -> list[tuple[str, int]]:
    callee = RELEASE.format(body=body)
    caller = USE.format(call=call, after=after)
    if split:
        return _found({"lib.c": callee, "main.c": caller})
    return _found(
        {"main.c": caller + callee.replace("#include <stdlib.h>\nstruct ctx { int refs; char *scratch; };\n", "")}
    )


FREES = [
    "struct ctx *c = *pc;\n    free(c->scratch);\n    free(c);",
    "struct ctx *c = *pc;\n    struct ctx *d = c;\n    free(d);",  # a copy of the copy
    "struct ctx *c = (struct ctx *)*pc;\n    free(c);",  # a cast
]


@pytest.mark.parametrize("body", FREES)
@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("call", ["ctx_release(&c);", "ctx_release((struct ctx **)&c);"])
def test_a_callee_that_frees_star_param_frees_the_callers_pointer(body: str, split: bool, call: str) -> None:
    assert _pair(body, call=call, split=split) == [("use-after-free", 6)]


@pytest.mark.parametrize(
    "body",
    [
        FREES[0] + "\n    *pc = NULL;",  # the caller's pointer is cleared
        "struct ctx *c = *pc;\n    c->refs--;",  # only used
    ],
)
def test_a_callee_that_clears_or_keeps_the_pointer_is_quiet(body: str) -> None:
    assert _pair(body) == []


def test_a_copy_of_star_param_ends_when_it_is_reassigned() -> None:
    body = "struct ctx *c = *pc;\n    c->refs = 0;\n    c = malloc(sizeof *c);\n    free(c);"
    assert [f for f in _pair(body) if f[0] == "use-after-free"] == []


DESTROY = """\
#include <stdlib.h>
struct stats { long n; };
void stats_destroy(struct stats *s)
{
    free(s);
}
"""

MEAN = """\
#include <stdlib.h>
struct stats {{ long n; }};
void stats_destroy(struct stats *s);
long mean(void)
{{
    {decl}
    {call}
    return 0;
}}
"""


@pytest.mark.parametrize("split", [False, True])
def test_the_address_of_a_local_handed_to_a_callee_that_frees_it_is_no_heap_block(split: bool) -> None:
    caller = MEAN.format(decl="struct stats st = {0};", call="stats_destroy(&st);")
    files = {"lib.c": DESTROY, "main.c": caller} if split else {"main.c": caller + DESTROY.split("};\n", 1)[1]}
    assert _found(files) == [("free-non-heap", 6)]


@pytest.mark.parametrize(
    "decl, call",
    [
        ("struct stats *st = calloc(1, sizeof *st);", "stats_destroy(st);"),  # a heap block
        ("struct stats st = {0};", "(void)st;"),  # not handed on
    ],
)
def test_a_heap_pointer_handed_to_the_same_callee_is_quiet(decl: str, call: str) -> None:
    assert _found({"lib.c": DESTROY, "main.c": MEAN.format(decl=decl, call=call)}) == []


def test_the_address_of_a_pointer_whose_block_the_callee_frees_is_not_freed_itself() -> None:
    callee = "void drop(char **pp) { char *p = *pp; free(p); *pp = NULL; }\n"
    caller = "void use(void) { char *b = malloc(4); if (!b) return; drop(&b); }\n"
    assert _found({"main.c": "#include <stdlib.h>\n" + callee + caller}) == []
