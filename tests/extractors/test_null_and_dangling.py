"""known-null-dereference and return-freed-pointer: each bug next to the twins that must stay quiet,
and the guards that keep NULL tests from reading as NULL where they say nothing."""

from __future__ import annotations

import pytest

from extractors.api import Project
from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\nstruct dev { const char *name; int irq; };\n"


def test_dereference_on_the_branch_that_tested_null() -> None:
    src = HEADER + """
int irq(struct dev *d) {
    if (d == NULL) {                          /*T*/
        printf("no irq for %s\\n", d->name);  /*D*/
        return -1;
    }
    return d->irq;
}
"""
    (f,) = of_rule(check_src(src), "known-null-dereference")
    assert f.location.start_line == line_of(src, "/*D*/") and f.cwe == 476
    assert [w.location.start_line for w in f.witness] == [line_of(src, "/*T*/"), line_of(src, "/*D*/")]


def test_dereference_of_a_pointer_set_to_null_on_every_path() -> None:
    src = HEADER + """
int first(struct dev *devs, int n) {
    struct dev *d = NULL;
    if (n > 3)
        n = 3;
    return d->irq;   /*D*/
}
"""
    (f,) = of_rule(check_src(src), "known-null-dereference")
    assert f.location.start_line == line_of(src, "/*D*/")


SEARCH = HEADER + """
int irq_of(struct dev *devs, int n, const char *name) {
    struct dev *found = NULL;                 /*N*/
    for (int i = 0; i < n; i++) {
        if (strcmp(devs[i].name, name) == 0) {
            found = &devs[i];
            break;
        }
    }
    return found->irq;                        /*D*/
}
"""


def test_a_search_loop_that_finds_nothing_leaves_its_result_null() -> None:
    # every path from the NULL point assigns it or dereferences it; the path on which the loop
    # finds nothing dereferences it unassigned (the loop that never ends is no path of a run)
    (f,) = of_rule(check_src(SEARCH), "known-null-dereference")
    assert f.location.start_line == line_of(SEARCH, "/*D*/")
    assert f.witness[0].location.start_line == line_of(SEARCH, "/*N*/")
    tested = SEARCH.replace("    return found->irq;", "    if (!found)\n        return -1;\n    return found->irq;")
    assert of_rule(check_src(tested), "known-null-dereference") == []
    # a dereference a later test guards is not reported: a flag may say whether it was assigned
    flagged = SEARCH.replace("    return found->irq;", "    if (n > 0)\n        return found->irq;\n    return -1;")
    assert of_rule(check_src(flagged), "known-null-dereference") == []


def test_a_pointer_assigned_on_one_branch_only() -> None:
    src = HEADER + """
int irq_or(struct dev *devs, int n) {
    struct dev *d = NULL;
    if (n > 0)
        d = &devs[0];
    return d->irq;   /*D*/
}
"""
    (f,) = of_rule(check_src(src), "known-null-dereference")
    assert f.location.start_line == line_of(src, "/*D*/")
    # the same flag decides both: the solver rules the NULL path out
    guarded = src.replace("    return d->irq;   /*D*/", "    if (n > 0)\n        return d->irq;\n    return 0;")
    assert of_rule(check_src(guarded), "known-null-dereference") == []


ASSERTED = HEADER + """
#include <assert.h>
struct table { int empty; struct dev *first; };
struct dev *first_or(struct table *t, struct dev *fallback) {
    struct dev *d = t->first;
    assert(d != NULL || t->empty);
    if (t->empty)
        d = fallback;
    else
        d->irq = 0;
    return d;
}
"""


def test_a_null_branch_inside_an_assert_is_the_authors_claim_not_a_null_check() -> None:
    # the assert holds that t->first is NULL only when the table is empty; the path condition reads
    # each field anew, so this reads as "tested NULL, then dereferenced" unless an assert's NULL
    # branch is told apart from the code's own test
    assert of_rule(check_src(ASSERTED), "known-null-dereference") == []
    # the code's own test that finds it NULL and goes on: the else branch dereferences it
    logged = ASSERTED.replace(
        "    assert(d != NULL || t->empty);\n", '    if (d == NULL)\n        fprintf(stderr, "no device\\n");\n'
    )
    (f,) = of_rule(check_src(logged), "known-null-dereference")
    assert f.location.start_line == line_of(logged, "d->irq = 0;")


@pytest.mark.parametrize(
    "body",
    [
        # reassigned before the dereference
        "if (d == NULL) { d = malloc(sizeof *d); if (!d) return -1; } return d->irq;",
        # the NULL branch leaves
        "if (d == NULL) return -1; return d->irq;",
        "if (!d) exit(1); return d->irq;",
        # only some paths from the NULL point dereference: a flag may say which (not reported)
        "int ok = d != NULL; if (ok) return d->irq; return 0;",
        # guarded dereferences and calls
        "return d && d->irq > 0 ? d->irq : 0;",
        "return (d && strcmp(d->name, \"x\") == 0) ? 1 : 0;",
        "return d == NULL || d->irq == 0;",
    ],
)
def test_known_null_good(body: str) -> None:
    src = HEADER + "int f(struct dev *d) {\n" + body + "\n}\n"
    assert of_rule(check_src(src), "known-null-dereference") == []


def test_a_callees_defensive_null_test_says_nothing_about_its_caller() -> None:
    src = HEADER + """
static int name_len(const struct dev *d) {
    if (d == NULL)
        return 0;
    return (int)strlen(d->name);
}
int show(struct dev *d) {
    int n = name_len(d);
    return n + d->irq;
}
"""
    assert of_rule(check_src(src), "known-null-dereference") == []


def test_a_guarded_call_is_no_dereference_of_a_null_allocation() -> None:
    src = HEADER + """
static int width(const char *s) { return (int)strlen(s); }
int f(int n) {
    char *p = malloc(n);
    int a = p ? width(p) : 0;
    int b = (p && strcmp(p, "x") == 0);
    free(p);
    return a + b;
}
"""
    found = check_src(src)
    assert of_rule(found, "null-dereference") == [] and of_rule(found, "known-null-dereference") == []


def test_a_size_or_descriptor_argument_is_not_dereferenced() -> None:
    src = HEADER + """
#include <unistd.h>
void f(char *dst, const char *src, long n, int fd) {
    char *p = malloc(16);
    if (n < 0)
        memcpy(dst, src, n);
    if (fd < 0)
        (void)write(fd, dst, 1);
    free(p);
}
"""
    assert of_rule(check_src(src), "known-null-dereference") == []


def test_returning_or_handing_out_a_freed_pointer() -> None:
    src = HEADER + """
char *norm(const char *s) {
    char *out = strdup(s);
    if (out == NULL)
        return NULL;
    if (*out == 0) {
        free(out);
        return out;      /*R*/
    }
    return out;
}
int take(char **slot, size_t n) {
    char *b = malloc(n);
    if (b == NULL)
        return -1;
    if (n > 10) {
        free(b);
        *slot = b;       /*S*/
        return -1;
    }
    *slot = b;
    return 0;
}
"""
    got = sorted(f.location.start_line for f in of_rule(check_src(src), "return-freed-pointer"))
    assert got == [line_of(src, "/*R*/"), line_of(src, "/*S*/")]


@pytest.mark.parametrize(
    "body",
    [
        "char *p = malloc(8); free(p); p = NULL; return p;",
        "char *p = malloc(8); if (!p) return NULL; return p;",
        "char *p = malloc(8); free(p); p = malloc(4); return p;",
    ],
)
def test_return_freed_pointer_good(body: str) -> None:
    src = HEADER + "char *f(void) {\n" + body + "\n}\n"
    assert of_rule(check_src(src), "return-freed-pointer") == []


def test_the_address_of_a_local_outlives_the_function() -> None:
    src = HEADER + """
struct req { const char *method; };
static int *last;
const char *describe(int code) {
    char text[32];
    snprintf(text, sizeof text, "e%d", code);
    return text;                 /*R*/
}
void remember(int v) {
    int copy = v;
    last = &copy;                /*G*/
}
void parse(struct req *r) {
    char m[8];
    m[0] = 0;
    r->method = m;               /*F*/
}
"""
    got = sorted(f.location.start_line for f in of_rule(check_src(src), "return-local-address"))
    assert got == sorted([line_of(src, "/*R*/"), line_of(src, "/*G*/"), line_of(src, "/*F*/")])


@pytest.mark.parametrize(
    "body",
    [
        # restored before the return, as lua's error handlers do with L->errorJmp
        "struct jmp j; j.prev = s->jmp; s->jmp = &j; work(s); s->jmp = j.prev; return 0;",
        # a static local lives on
        "static char buf[16]; s->name = buf; return 0;",
        # stored in a local, or through a pointer local that may point at the frame itself
        "char buf[16]; char *p = buf; struct state *t = s; t->name = buf; p[0] = 0; return 0;",
        # a field of a local struct
        "struct jmp j; struct jmp k; k.prev = &j; return 0;",
        # an array's element value, not its address
        "int a[2] = {1, 2}; s->n = a[0]; return 0;",
    ],
)
def test_return_local_address_good(body: str) -> None:
    src = HEADER + (
        "struct jmp { struct jmp *prev; };\n"
        "struct state { struct jmp *jmp; const char *name; int n; };\n"
        "void work(struct state *s);\n"
        "int f(struct state *s) {\n" + body + "\n}\n"
    )
    assert of_rule(check_src(src), "return-local-address") == []


WIDGET = """#include <stdio.h>
struct widget { const char *label; int width; };
void set_label(struct widget *w, const char *label) { w->label = label; }
"""
FORM = """#include <stdio.h>
#include <stdlib.h>
struct widget { const char *label; int width; };
void set_label(struct widget *w, const char *label);
void label_row(struct widget *w, int row) {
    char text[32];
    snprintf(text, sizeof text, "row %d", row);
    set_label(w, text);           /*P*/
}
void scratch(int row) {
    char text[32];
    struct widget *w = malloc(sizeof *w);
    if (w == NULL)
        return;
    snprintf(text, sizeof text, "row %d", row);
    set_label(w, text);
    free(w);
}
void relabel(struct widget *w, int row) {
    char text[32];
    snprintf(text, sizeof text, "row %d", row);
    set_label(w, text);
    set_label(w, "none");
}
"""


PARSER = """#include <stddef.h>
struct db;
struct parse { struct db *db; struct parse *outer; int rc; };
struct db { struct parse *cur; };
void parse_init(struct parse *p, struct db *db) { p->outer = db->cur; db->cur = p; p->db = db; }
void parse_reset(struct parse *p) { struct db *db = p->db; db->cur = p->outer; }
int parse_run(struct parse *p);
int run(struct db *db) {
    struct parse p;
    int rc;
    parse_init(&p, db);        /*I*/
    rc = parse_run(&p);
    parse_reset(&p);
    return rc;
}
"""


def test_a_local_parked_by_one_call_and_handed_to_a_later_one_may_be_unparked() -> None:
    """sqlite's ``sqlite3ParseObjectInit(&sParse, db)`` parks ``&sParse`` in ``db->pParse`` and
    ``sqlite3ParseObjectReset(&sParse)`` puts the outer one back through ``sParse.db``: a later call
    handed the parked local may restore the field."""
    assert of_rule(check_src(PARSER), "return-local-address") == []
    kept = PARSER.replace("    parse_reset(&p);\n", "")
    (f,) = of_rule(check_src(kept), "return-local-address")
    assert f.location.start_line == line_of(kept, "/*I*/")


def test_a_callee_that_stores_a_locals_address_into_the_callers_object() -> None:
    """``set_label(w, text)`` of another file parks ``text``'s address in ``w->label``: the caller's
    object holds it when the caller returns (not a scratch object of its own, nor after a second
    call that stores a literal); an edit that makes the callee copy the text ends the finding."""
    p = Project()
    p.update_file("widget.c", WIDGET)
    p.update_file("form.c", FORM)
    (f,) = of_rule(p.check()["form.c"], "return-local-address")
    assert f.function == "label_row" and f.location.start_line == line_of(FORM, "/*P*/")
    assert "w->label" in f.message
    p.update_file("widget.c", WIDGET.replace("w->label = label;", "w->label = strdup(label);"))
    assert of_rule(p.check()["form.c"], "return-local-address") == []


def test_a_parked_field_put_back_through_a_copy_of_the_pointer_is_no_finding() -> None:
    """``x = w; ...; x->label = "none"`` puts the field back through a copy: counted as taken back."""
    src = WIDGET + """
void label_once(struct widget *w, int row) {
    struct widget *x = w;
    char text[32];
    snprintf(text, sizeof text, "row %d", row);
    set_label(w, text);
    x->label = "none";
}
"""
    assert of_rule(check_src(src), "return-local-address") == []
    (f,) = of_rule(check_src(src.replace('    x->label = "none";\n', "")), "return-local-address")
    assert f.function == "label_once"


def test_a_callee_that_may_not_leave_its_parameter_parked_parks_nothing() -> None:
    """The callee's store counts only when every way through it leaves the parameter there: not
    when it stores on some paths, nor when it then hands the object to a call (which may clear
    it); and a caller's later call handed a copy of the object may put it back."""
    base = """#include <stdio.h>
struct widget { const char *label; int width; };
void draw(struct widget *w);
void clear_label(struct widget *w);
void reset(struct widget *w);
"""
    some = base + """void maybe(struct widget *w, const char *l, int keep) { if (keep) w->label = l; }
void a(struct widget *w) { char buf[8]; snprintf(buf, sizeof buf, "a"); maybe(w, buf, 0); }
"""
    cleared = base + """void with_label(struct widget *w, const char *l) { w->label = l; draw(w); clear_label(w); }
void b(struct widget *w) { char buf[8]; snprintf(buf, sizeof buf, "b"); with_label(w, buf); }
"""
    copied = base + """void set_label(struct widget *w, const char *l) { w->label = l; }
void c(struct widget *w) {
    struct widget *cur = w;
    char buf[8];
    snprintf(buf, sizeof buf, "c");
    set_label(w, buf);
    reset(cur);
}
"""
    for src in (some, cleared, copied):
        assert of_rule(check_src(src), "return-local-address") == [], src
    (f,) = of_rule(check_src(copied.replace("    reset(cur);\n", "")), "return-local-address")
    assert f.function == "c"


STORED = """#include <string.h>
struct db;
struct parse { struct db *db; struct parse *outer; int rc; };
struct db { struct parse *cur; };
void parse_reset(struct parse *p) { struct db *db = p->db; db->cur = p->outer; }
int parse_run(struct parse *p);
int prepare(struct db *db) {
    struct parse s;
    int rc;
    memset(&s, 0, sizeof s);
    s.outer = db->cur;
    db->cur = &s;                 /*S*/
    s.db = db;
    rc = parse_run(&s);
    parse_reset(&s);
    return rc;
}
"""


def test_a_stored_locals_address_handed_to_a_project_function_may_be_put_back() -> None:
    """sqlite3Prepare's ``db->pParse = &sParse`` is undone by ``sqlite3ParseObjectReset(&sParse)``
    through ``sParse.db``: a project function handed the stored local counts as a store into the
    field; a prototype (``parse_run``) knows nothing of it, so without the reset it is reported."""
    assert of_rule(check_src(STORED), "return-local-address") == []
    kept = STORED.replace("    parse_reset(&s);\n", "")
    (f,) = of_rule(check_src(kept), "return-local-address")
    assert f.function == "prepare" and f.location.start_line == line_of(kept, "/*S*/")


REGISTRY = """#include <stddef.h>
struct handler { const char *name; int (*run)(void); };
static const struct handler *current;
static void install(const struct handler *h) { current = h; }
static void uninstall(void) { current = NULL; }
static int default_run(void) { return 0; }
void register_default(void) {
    struct handler h = { "default", default_run };
    install(&h);                  /*G*/
}
int run_scoped(int (*run)(void)) {
    struct handler h = { "scoped", run };
    int rc;
    install(&h);
    rc = h.run();
    uninstall();
    return rc;
}
"""


def test_a_callee_that_stores_a_locals_address_into_a_global() -> None:
    """``install(&h)`` stores its parameter in the file's ``current``: the caller's local is still
    there when it returns, unless a later call (``uninstall()``) may have put it back."""
    (f,) = of_rule(check_src(REGISTRY), "return-local-address")
    assert f.function == "register_default" and f.location.start_line == line_of(REGISTRY, "/*G*/")
    assert "current" in f.message
    fixed = REGISTRY.replace("static void install(const struct handler *h) { current = h; }",
                             "static void install(const struct handler *h) { current = h; current = NULL; }")
    assert of_rule(check_src(fixed), "return-local-address") == []


def test_freeing_what_is_not_the_start_of_a_heap_block() -> None:
    src = HEADER + """
static void release(char *s) { free(s); }
static char table[64];
void a(const char *arg) {
    char *name = "anon";
    if (arg)
        name = strdup(arg);
    free(name);                  /*L*/
}
void b(void) {
    char buf[16];
    buf[0] = 0;
    free(buf);                   /*B*/
}
void c(void) {
    char *p = malloc(16);
    if (!p) return;
    p = p + 1;
    release(p);                  /*I*/
}
void d(void) {
    char *t = table;
    int n = 1;
    char *q = (char *)&n;
    free(q);                     /*A*/
    (void)t;
}
"""
    got = sorted(f.location.start_line for f in of_rule(check_src(src), "free-non-heap"))
    assert got == sorted(line_of(src, m) for m in ("/*L*/", "/*B*/", "/*I*/", "/*A*/"))


@pytest.mark.parametrize(
    "body",
    [
        # a header before the block: moved back before the free
        "char *p = malloc(24); if (!p) return; p += 8; p[0] = 1; p -= 8; free(p);",
        # the walking pointer is a copy
        "char *p = malloc(24); char *w = p; if (!p) return; while (*w) w++; free(p);",
        # reassigned from the heap after holding a literal
        "char *s = \"x\"; s = strdup(\"y\"); free(s);",
        # a literal kept apart from the freed branch
        "const char *s = \"x\"; char *h = strdup(s); free(h);",
        # the small-buffer idiom: the heap block is freed only when it is not the stack buffer
        "char small[8]; char *b = small; if (rand() > 4) { b = malloc(64); if (!b) return; }"
        " b[0] = 0; if (b != small) free(b);",
    ],
)
def test_free_non_heap_good(body: str) -> None:
    src = HEADER + "void f(void) {\n" + body + "\n}\n"
    assert of_rule(check_src(src), "free-non-heap") == []


def test_lock_wrappers_act_as_locks_in_their_callers() -> None:
    src = "#include <pthread.h>\n" + """
struct table { pthread_mutex_t mu; int n; };
static pthread_mutex_t reg_mu;
void table_lock(struct table *t) { pthread_mutex_lock(&t->mu); }
void table_unlock(struct table *t) { pthread_mutex_unlock(&t->mu); }
void reg_lock(void) { pthread_mutex_lock(&reg_mu); }
void reg_unlock(void) { pthread_mutex_unlock(&reg_mu); }
int put(struct table *t, int v) {
    table_lock(t);
    if (v < 0)
        return -1;       /*T*/
    t->n = v;
    table_unlock(t);
    return 0;
}
int reg(int v) {
    reg_lock();
    if (v < 0)
        return -1;       /*R*/
    reg_unlock();
    return 0;
}
int put_ok(struct table *t, int v) {
    table_lock(t);
    if (v >= 0)
        t->n = v;
    table_unlock(t);
    return 0;
}
"""
    found = of_rule(check_src(src), "lock-not-released")
    assert sorted((f.function, f.location.start_line) for f in found) == [
        ("put", line_of(src, "/*T*/")),
        ("reg", line_of(src, "/*R*/")),
    ]


def test_a_never_read_local_is_one_finding_not_also_a_dead_store() -> None:
    src = "int f(int a);\nint g(int a) {\n    int x = f(a);   /*X*/\n    return a;\n}\n"
    found = check_src(src)
    assert [(f.rule_id, f.location.start_line) for f in found] == [("unused-variable", line_of(src, "/*X*/"))]


def test_a_helper_that_always_exits_ends_the_path() -> None:
    src = HEADER + """
struct item { char *name; };
static void die(const char *m) { fprintf(stderr, "%s\\n", m); exit(1); }
static void fatal(const char *m) { die(m); }
static void warn(const char *m) { fprintf(stderr, "%s\\n", m); }
struct item *make(void) {
    struct item *it = malloc(sizeof *it);
    if (it == NULL)
        fatal("out of memory");
    it->name = NULL;
    return it;
}
struct item *make_badly(void) {
    struct item *it = malloc(sizeof *it);
    if (it == NULL)
        warn("out of memory");
    it->name = NULL;     /*D*/
    return it;
}
"""
    found = of_rule(check_src(src), "known-null-dereference")
    assert [(f.function, f.location.start_line) for f in found] == [("make_badly", line_of(src, "/*D*/"))]


def test_an_exit_after_a_helper_that_exits_is_defensive_not_unreachable() -> None:
    src = HEADER + """
static void fail(const char *m) { fprintf(stderr, "%s\\n", m); exit(1); }
int pick(int c) {
    switch (c) {
    case 1:
        return 10;
    default:
        fail("unknown");
        exit(1);
    }
}
int pick_badly(int c) {
    if (c)
        fail("unknown");
    else
        return 1;
    c = 2;            /*U*/
    return c;
}
"""
    found = of_rule(check_src(src), "unreachable-code")
    assert [(f.function, f.location.start_line) for f in found] == [("pick_badly", line_of(src, "/*U*/"))]


UTIL = """#include <stdio.h>
#include <stdlib.h>
static void die(const char *m) { fprintf(stderr, "%s\\n", m); exit(1); }
void fatal(const char *m) { die(m); }
"""
USER = """#include <stdlib.h>
void fatal(const char *m);
struct item { char *name; };
struct item *make(void) {
    struct item *it = malloc(sizeof *it);
    if (it == NULL)
        fatal("out of memory");
    it->name = NULL;
    return it;
}
"""


def test_a_helper_of_another_file_that_always_exits_ends_the_path() -> None:
    """util.c's ``fatal`` calls its static ``die``, which exits: a call of ``fatal`` in another file
    ends the path there, and stops doing so when an edit makes it return."""
    p = Project()
    p.update_file("util.c", UTIL)
    p.update_file("item.c", USER)
    assert of_rule(p.check()["item.c"], "known-null-dereference") == []
    p.update_file("util.c", UTIL.replace(" exit(1); }", " }"))
    (f,) = of_rule(p.check()["item.c"], "known-null-dereference")
    assert f.location.start_line == line_of(USER, "it->name = NULL;")
    p.update_file("util.c", UTIL)
    assert of_rule(p.check()["item.c"], "known-null-dereference") == []
    # a file that defines its own fatal, which returns, keeps its own
    own = USER.replace("void fatal(const char *m);", "void fatal(const char *m) { (void)m; }")
    p.update_file("item.c", own)
    assert len(of_rule(p.check()["item.c"], "known-null-dereference")) == 1


SLOT = """\
typedef unsigned char u8;
typedef struct MemPage { u8 *aData; int hdr; } MemPage;
struct record { int v[4]; };

u8 *find_slot(MemPage *pPg, int x)
{
    u8 * const aData = pPg->aData;
    int pc = pPg->hdr;
    if (x < 4)
        return &aData[pc];
    return &aData[pc + x];
}

char *label_of(int k)
{
    char buf[32];
    buf[0] = (char)k;
    return &buf[1]; /*A*/
}

int *element_of(int k)
{
    struct record local;
    local.v[0] = k;
    return &local.v[1]; /*F*/
}
"""


def test_an_element_of_what_a_local_pointer_points_to_is_no_local_address() -> None:
    """``&p[i]`` of a local pointer ``p`` (sqlite's pageFindSlot: ``u8 * const aData =
    pPg->aData; return &aData[pc];``) is an address in the page, not in the frame; an element of a
    local array, or of an array member of a local struct, is."""
    found = of_rule(check_src(SLOT), "return-local-address")
    assert sorted((f.function, f.location.start_line) for f in found) == [
        ("element_of", line_of(SLOT, "/*F*/")),
        ("label_of", line_of(SLOT, "/*A*/")),
    ]
