"""A function that allocates a block, parks it somewhere that outlives its frame (a global cache,
thread-local storage, an opaque registry) and returns it hands its caller a borrowed pointer, not
a fresh block: the caller does not leak it by not freeing it.  A plain allocating wrapper still
hands over ownership, so its callers' leaks are still found.

Real cases: cffi's ``get_cffi_tls`` (``pthread_setspecific`` / ``TlsSetValue``) and pyppmd's
Windows ``pthread_self`` (``TlsSetValue``): every caller was reported leaking the thread's record.
"""

from __future__ import annotations

import pytest

from tests.extractors.helpers import check_src, line_of, of_rule

PRELUDE = """\
#include <stdlib.h>
typedef unsigned int pthread_key_t;
int pthread_setspecific(pthread_key_t key, const void *value);
void *pthread_getspecific(pthread_key_t key);
void TlsSetValue(int slot, void *value);
struct rec { int err; };
static pthread_key_t key;
static struct rec *cache;
"""

CALLER = """
void save(int e) {
    struct rec *t = get();   /*A*/
    if (t != NULL)
        t->err = e;
}
"""

# The block is returned and also kept elsewhere: the caller borrows it.
KEPT = {
    "global cache": """\
static struct rec *get(void) {
    struct rec *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    cache = p;
    return p;
}""",
    "static local cache": """\
static struct rec *get(void) {
    static struct rec *mine;
    struct rec *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    mine = p;
    return p;
}""",
    "opaque keeper": """\
static struct rec *get(void) {
    struct rec *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    TlsSetValue(1, p);
    return p;
}""",
    "pthread_setspecific (a const void * it keeps)": """\
static struct rec *make(void) {
    void *p = calloc(1, sizeof(struct rec));
    if (p == NULL)
        return NULL;
    if (pthread_setspecific(key, p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}
static struct rec *get(void) {
    void *p = pthread_getspecific(key);
    if (p == NULL)
        p = make();
    return (struct rec *)p;
}""",
}

# Twins: the same shapes without the keeper hand the caller a fresh block it leaks.
FRESH = {
    "plain wrapper": """\
static struct rec *get(void) {
    struct rec *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    return p;
}""",
    "copied into a local only": """\
static struct rec *get(void) {
    struct rec *q;
    struct rec *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    q = p;
    q->err = 0;
    return p;
}""",
    "handed to a function that only reads it": """\
int check_rec(const struct rec *r);
static struct rec *get(void) {
    struct rec *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    check_rec(p);
    return p;
}""",
}


@pytest.mark.parametrize("body", KEPT.values(), ids=list(KEPT))
def test_a_block_kept_elsewhere_and_returned_is_not_the_callers_to_free(body: str) -> None:
    src = PRELUDE + body + CALLER
    assert of_rule(check_src(src), "memory-leak") == []


@pytest.mark.parametrize("body", FRESH.values(), ids=list(FRESH))
def test_a_block_only_returned_is_the_callers_and_leaks_there(body: str) -> None:
    src = PRELUDE + body + CALLER
    found = of_rule(check_src(src), "memory-leak")
    assert [(f.function, f.location.start_line) for f in found] == [("save", line_of(src, "/*A*/"))]


def test_pthread_setspecific_keeps_its_value() -> None:
    """Its prototype says ``const void *``, which alone reads as borrowed: the row says it keeps it.
    The twin hands the block to a ``const void *`` function that only reads it: still a leak."""
    body = "void set(void) {{\n    void *p = malloc(8);   /*B*/\n    if ({call}(key, p) != 0)\n        free(p);\n}}\n"
    kept = PRELUDE + body.format(call="pthread_setspecific")
    assert of_rule(check_src(kept), "memory-leak") == []
    dropped = PRELUDE + "int look(pthread_key_t key, const void *v);\n" + body.format(call="look")
    found = of_rule(check_src(dropped), "memory-leak")
    assert [f.location.start_line for f in found] == [line_of(dropped, "/*B*/")]


REUSE = """\
#include <stdlib.h>
struct image { int w, h; };
/* out when the caller gives one (after checking its size), else a fresh image */
static struct image *image_for(struct image *out, int w, int h)
{
    if (out) {
        if (out->w != w || out->h != h)
            return NULL;
    } else {
        out = malloc(sizeof *out);
        if (!out)
            return NULL;
        out->w = w;
        out->h = h;
    }
    return out;
}
int redraw(struct image *screen)
{
    struct image *im = image_for(screen, 640, 480);   /*A*/
    if (!im)
        return -1;
    im->w = 640;
    return 0;
}
"""


def test_a_function_that_may_return_the_object_it_was_handed_is_no_allocator() -> None:
    # Pillow's ImagingNew2Dirty(mode, imOut, imIn): the result may be the caller's own image
    assert of_rule(check_src(REUSE), "memory-leak") == []
    # a plain allocating wrapper, which assigns the parameter on every way to its return, still is
    given = "    if (out) {\n        if (out->w != w || out->h != h)\n            return NULL;\n    } else {\n"
    fresh = REUSE.replace(given, "    {\n")
    assert [f.location.start_line for f in of_rule(check_src(fresh), "memory-leak")] == [line_of(fresh, "/*A*/")]
