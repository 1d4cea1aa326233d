"""A project function that frees its parameter, or decides from the object itself not to, takes the
caller's block (extractors.releases): handing a fresh block to it is no leak, while a function
that skips the free for a reason the object does not hold leaves the block the caller's."""

from __future__ import annotations

import pytest

from extractors.api import Project

CALLER = """\
#include <stdlib.h>
struct obj {{ int refcount; int owner; char *data; }};
{release}
int work(int n)
{{
    struct obj *o = calloc(1, sizeof(*o));
    if (!o)
        return -1;
    o->refcount = 1;
    if (n > 3) {{
        drop(o, n);
        return -1;
    }}
    free(o);
    return 0;
}}
"""

RELEASING = [
    # a reference count: the last reference frees
    "void drop(struct obj *o, int n) { if (!o) return; if (--o->refcount > 0) return; free(o->data); free(o); }",
    # always frees
    "void drop(struct obj *o, int n) { if (o == NULL) return; free(o->data); free(o); }",
    # an owner flag in the object
    "void drop(struct obj *o, int n) { if (o->owner) return; free(o); }",
]

KEEPING = [
    # the free depends on an argument, not on the object
    "void drop(struct obj *o, int n) { if (n > 5) free(o); }",
    # frees only on an error of its own
    "void drop(struct obj *o, int n) { if (n > 9) { free(o); return; } n++; }",
    # frees something else
    "void drop(struct obj *o, int n) { free(o->data); }",
]


ALLOC = CALLER.splitlines().index("    struct obj *o = calloc(1, sizeof(*o));")  # rows count from 0


def _leaks(src: str) -> list[int]:
    p = Project()
    p.update_file("t.c", src)
    return [f.location.start_line for f in p.check()["t.c"] if f.rule_id == "memory-leak"]


@pytest.mark.parametrize("release", RELEASING)
def test_a_block_handed_to_a_release_is_not_leaked(release: str) -> None:
    assert _leaks(CALLER.format(release=release)) == []


@pytest.mark.parametrize("release", KEEPING)
def test_a_block_the_callee_may_keep_for_no_reason_of_its_own_still_leaks(release: str) -> None:
    assert _leaks(CALLER.format(release=release)) == [ALLOC]


def test_editing_the_release_updates_its_callers() -> None:
    p = Project()
    for release, leaks in ((RELEASING[0], []), (KEEPING[0], [ALLOC]), (RELEASING[0], [])):
        p.update_file("t.c", CALLER.format(release=release))
        assert [f.location.start_line for f in p.check()["t.c"] if f.rule_id == "memory-leak"] == leaks
