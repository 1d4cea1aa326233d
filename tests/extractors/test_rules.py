"""Every rule: a bad example (finding at the right line, witness at the right lines) and good ones,
including the classic false-positive traps."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from extractors.api import Project
from extractors.config import Config
from extractors.rules import catalogue
from server.workspace import load_headers, read_header
from tests.extractors.helpers import check_src, line_of, of_rule

HEADER = "#include <stdlib.h>\n#include <stdio.h>\n#include <pthread.h>\npthread_mutex_t m;\n"


def lines(f: object) -> list[int]:
    return [w.location.start_line for w in f.witness]  # type: ignore[attr-defined]


def test_memory_leak_on_early_return() -> None:
    src = (
        HEADER
        + """
int f(int n) {
    char *p = malloc(n);      /*A*/
    if (!p) return -1;        /*C*/
    if (n > 3) return 1;      /*R*/
    free(p);
    return 0;
}
"""
    )
    (f,) = of_rule(check_src(src), "memory-leak")
    assert f.location.start_line == line_of(src, "/*A*/")
    assert f.function == "f" and f.cwe == 401 and "'p'" in f.message
    assert lines(f)[0] == line_of(src, "/*A*/")
    assert line_of(src, "/*C*/") in lines(f)
    assert f.witness[-1].kind == "end" and f.witness[-1].location.start_line == line_of(src, "/*R*/")
    assert any(w.kind == "branch" and "not NULL" in w.message for w in f.witness)


@pytest.mark.parametrize(
    "body",
    [
        # NULL-checked allocation freed on every path
        "char *p = malloc(n); if (!p) return; p[0] = 1; free(p);",
        # allocation returned to the caller
        "char *p = malloc(n); if (p == NULL) return; g_keep = p;",
        # goto cleanup
        "char *p = malloc(n); char *q = malloc(n); if (!p || !q) goto out; p[0] = q[0] = 0;\n"
        " out: free(q); free(p);",
        # flag-correlated branches
        "int own = 0; char *p = 0; if (n > 2) { p = malloc(n); own = 1; } if (own) free(p);",
        # exit() on the only path that keeps the memory
        "char *p = malloc(n); if (n > 2) exit(1); free(p);",
    ],
)
def test_memory_leak_good(body: str) -> None:
    src = HEADER + "char *g_keep;\nvoid f(int n) {\n" + body + "\n}\n"
    assert of_rule(check_src(src), "memory-leak") == []


def test_memory_leak_returned_allocation_is_not_a_leak_but_leaks_in_caller() -> None:
    src = (
        HEADER
        + """
char *make(int n) { char *r = malloc(n); return r; }
void caller(int n) {
    char *p = make(n);   /*A*/
    if (p) p[0] = 1;
}
"""
    )
    found = of_rule(check_src(src), "memory-leak")
    assert [(f.function, f.location.start_line) for f in found] == [("caller", line_of(src, "/*A*/"))]


def test_memory_leak_free_in_callee_and_in_callee_of_callee() -> None:
    src = (
        HEADER
        + """
void release(char *q) { free(q); }
void outer(char *s) { if (s) release(s); }
void f(int n) { char *p = malloc(n); outer(p); }
void g(int n) { char *p = malloc(n); if (p) p[0] = 1; }  /*G*/
"""
    )
    found = of_rule(check_src(src), "memory-leak")
    assert [(f.function, f.location.start_line) for f in found] == [("g", line_of(src, "/*G*/"))]


def test_every_function_of_a_recursive_cycle_reports_its_own_findings() -> None:
    """The members of a call cycle share their Merkle digest; findings were once kept by it, so the
    second member of a cycle showed the first one's findings instead of its own."""
    leaky = (
        "int {f}(int n)\n{{\n    char *{v} = malloc(8);\n    if (n > 0)\n        return {g}(n - 1);\n"
        "    free({v});\n    return 0;\n}}\n"
    )
    src = HEADER + "int a(int n);\n" + leaky.format(f="b", v="p", g="a") + leaky.format(f="a", v="q", g="b")
    found = of_rule(check_src(src), "memory-leak")
    assert sorted((f.function, f.message) for f in found) == [
        ("a", "memory allocated to 'q' is leaked"),
        ("b", "memory allocated to 'p' is leaked"),
    ]


def test_double_free_direct_and_through_callee() -> None:
    src = (
        HEADER
        + """
void release(char *q) { free(q); }     /*Q*/
void f(int n) {
    char *p = malloc(n);
    release(p);                      /*1*/
    free(p);                         /*2*/
}
"""
    )
    (f,) = of_rule(check_src(src), "double-free")
    assert f.location.start_line == line_of(src, "/*2*/")
    steps = [(w.location.start_line, w.kind, w.stack) for w in f.witness]
    assert (line_of(src, "/*1*/"), "call", ()) in steps
    assert (line_of(src, "/*Q*/"), "event", ("f",)) in steps
    assert steps[-1][0] == line_of(src, "/*2*/")


def test_double_free_good_when_reassigned_or_branches_exclusive() -> None:
    src = (
        HEADER
        + """
void f(char *p, int c) { free(p); p = NULL; free(p); }
void g(char *p, int c) { if (c) free(p); else free(p); }
void h(int n) { for (int i = 0; i < n; i++) { char *p = malloc(4); free(p); } }
"""
    )
    assert of_rule(check_src(src), "double-free") == []


def test_use_after_free() -> None:
    src = (
        HEADER
        + """
struct s { int v; };
int f(struct s *p) {
    free(p);          /*F*/
    return p->v;      /*U*/
}
int g(struct s *p) { int v = p->v; free(p); return v; }
"""
    )
    (f,) = of_rule(check_src(src), "use-after-free")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*U*/")
    assert lines(f) == [line_of(src, "/*F*/"), line_of(src, "/*U*/")]


def test_use_after_free_in_callee_that_dereferences() -> None:
    src = (
        HEADER
        + """
int peek(int *q) { return *q; }     /*P*/
int f(int *p) { free(p); return peek(p); }   /*C*/
"""
    )
    (f,) = of_rule(check_src(src), "use-after-free")
    assert f.location.start_line == line_of(src, "/*C*/")
    assert any(w.location.start_line == line_of(src, "/*P*/") and w.stack == ("f",) for w in f.witness)


def test_null_dereference_of_unchecked_allocation() -> None:
    src = (
        HEADER
        + """
void f(void) {
    int *p = malloc(sizeof *p);   /*A*/
    *p = 1;                       /*D*/
    free(p);
}
"""
    )
    (f,) = of_rule(check_src(src), "null-dereference")
    assert f.location.start_line == line_of(src, "/*D*/") and f.cwe == 476
    assert lines(f) == [line_of(src, "/*A*/"), line_of(src, "/*D*/")]


@pytest.mark.parametrize(
    "body",
    [
        "int *p = malloc(4); if (!p) return; *p = 1; free(p);",
        "int *p = malloc(4); if (p && *p) free(p); else free(p);",
        "int *p = malloc(4); int v = p ? *p : 0; free(p); (void)v;",
        "int *p = malloc(4); assert(p); *p = 1; free(p);",
        "int *p; if ((p = malloc(4)) == NULL) return; *p = 2; free(p);",
    ],
)
def test_null_dereference_good(body: str) -> None:
    src = HEADER + "void f(void) {\n" + body + "\n}\n"
    assert of_rule(check_src(src), "null-dereference") == []


def test_uninitialised_read() -> None:
    src = (
        HEADER
        + """
int f(int c) {
    int x;          /*D*/
    if (c) x = 1;
    return x;       /*R*/
}
int g(int c) { int x; if (c) x = 1; else x = 2; return x; }
int h(void) { int x; init(&x); return x; }
"""
    )
    (f,) = of_rule(check_src(src), "uninitialised-read")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*R*/")
    assert lines(f) == [line_of(src, "/*D*/"), line_of(src, "/*R*/")]


VOIDED = """#include <stdlib.h>
#include <string.h>
char *real_path(const char *path) {
    char *tmp;
#if defined(HAVE_REALPATH)
    tmp = realpath(path, NULL);
    if (tmp == NULL)
        return NULL;
    return tmp;
#else
    (void)tmp;                      /*V*/
    return strdup(path);
#endif
}
int status(int fail) {
    int rc;
    if (fail)
        rc = -1;
    (void)rc;
    return rc;                      /*R*/
}
int kept(int a) {
    int rc = a * 2;
    (void)rc;
    return a;
}
"""


def test_a_void_cast_is_no_read_of_an_unset_value() -> None:
    """``(void)tmp`` (libuv's fs.c, in the build without realpath) only silences an unused
    warning: no uninitialised read there, while a real read later still is one; and the value
    ``(void)rc`` names is no dead store."""
    found = check_src(VOIDED)
    assert [(f.function, f.location.start_line) for f in of_rule(found, "uninitialised-read")] == [
        ("status", line_of(VOIDED, "/*R*/"))
    ]
    assert of_rule(found, "dead-store") == []


def test_uninitialised_read_sees_macros_that_assign_their_argument() -> None:
    src = (
        HEADER
        + """
#define set_int(i, d) ((i) = (int)(d))
#define bump(i) (++(i))
#define same(i, d) ((i) == (d))
#define load(s, x) load_block(s, &x, sizeof(x))
#define load_field(s, x) load_block(s, &(x)->f, 4)
#define both(a, x) ((a) && (x))
#define fetch() { if (t) t = 0; i = next_one(); }
#define own() ({ int i = 0; i++; }) /* an expression: read by name, not expanded */
struct box { int f; };
int next_one(void);
void load_block(int s, void *to, unsigned n);
int f(double n) { int k; set_int(k, n); return k; }
int g(double n) { int k; same(k, n); return k; }  /*G*/
int h(void) { int k; bump(k); return k; }         /*H*/
int q(int s) { int k; load(s, k); return k; }
int r(int s) { struct box *b; load_field(s, b); return b->f; }  /*R*/
int t(int a) { int k; both(a, k); return k; }  /*T*/
int u(int s, int y) { int x = y; load(s, x); return 0; }
int v(int t) { int i; fetch(); return i + t; }
int w(void) { int i; own(); return i; }  /*W*/
"""
    )
    findings = check_src(src)
    found = sorted((f.function, f.location.start_line) for f in of_rule(findings, "uninitialised-read"))
    expected = [("g", "/*G*/"), ("h", "/*H*/"), ("r", "/*R*/"), ("t", "/*T*/"), ("w", "/*W*/")]
    assert found == [(name, line_of(src, marker)) for name, marker in expected]
    # a macro handing on the address may only read through it (lua's dumpVar): no dead store either
    assert [f.function for f in of_rule(findings, "dead-store")] == []


def test_comma_operands_are_read_in_order() -> None:
    """``(x = f(), g(x))`` assigns before it reads (lua's traversetable does it in a condition):
    as one node it was both an uninitialised read and a dead store."""
    src = (
        HEADER
        + """
int g(int v);
int f(int c) { int x; if (c && (x = g(c), x > 1)) return x; return 0; }
int h(int c) { int y; y = g(c), c = y; return c; }
int k(int c) { int w; for (c = g(c), w = c; w < 3; w++, c = w) g(c); return w; }
int m(int c) { int z; (void)g(z), z = c; return z; }  /*M*/
"""
    )
    found = check_src(src)
    assert [(f.function, f.location.start_line) for f in of_rule(found, "uninitialised-read")] == [
        ("m", line_of(src, "/*M*/"))
    ]
    assert of_rule(found, "dead-store") == []


def test_a_call_through_a_local_function_pointer_reads_it() -> None:
    src = HEADER + "typedef int (*op)(int);\nop pick(void);\nint f(int a) { op g = pick(); return g(a); }\n"
    assert of_rule(check_src(src), "dead-store") == []


def test_assigning_a_field_of_a_local_struct_initialises_it() -> None:
    """lua's ``Rand64 result; result.h = h; result.l = l; return result;`` (a typedef'd struct)
    read ``result`` at each field store; a store through an uninitialised pointer is still a read."""
    src = (
        HEADER
        + """
typedef struct { int h, l; } pair;
struct node { int v; };
pair pack(int h, int l) { pair r; r.h = h; (r).l = l; return r; }
int poke(void) { struct node *p; p->v = 1; return 0; }  /*P*/
"""
    )
    found = of_rule(check_src(src), "uninitialised-read")
    assert [(f.function, f.location.start_line) for f in found] == [("poke", line_of(src, "/*P*/"))]


def test_assigning_macros_of_an_included_local_header_count_too(tmp_path: Path) -> None:
    (tmp_path / "get.h").write_text(
        "#define fastget(t, slot) \\\n  (slot = lookup(t), /* a comment tree-sitter chokes on */ \\\n   slot != 0)\n"
    )
    src = (
        '#include "get.h"\n'
        "int lookup(int t);\n"
        "int f(int t) { int slot; if (fastget(t, slot)) return slot; return 0; }\n"
    )
    project = Project(Config())
    project.update_file(str(tmp_path / "f.c"), src)
    header = str(tmp_path / "get.h")
    assert project.check()[str(tmp_path / "f.c")] != []  # the front end reads no header itself ...
    assert load_headers(project) == [header] and load_headers(project) == []  # ... the edge hands it in
    assert of_rule(project.check()[str(tmp_path / "f.c")], "uninitialised-read") == []
    (tmp_path / "get.h").write_text("#define fastget(t, slot) (lookup(t) != 0)\n")
    project.set_header(header, read_header(header))
    assert len(of_rule(project.check()[str(tmp_path / "f.c")], "uninitialised-read")) == 1


def test_dead_store() -> None:
    src = (
        HEADER
        + """
int f(int a) {
    int x = a * 2;   /*S*/
    x = a;
    return x;
}
int g(int a) { int x = a * 2; if (a) x = a; return x; }
int h(int a) { int i; for (i = 0; i < a; i++) { } return i; }
"""
    )
    (f,) = of_rule(check_src(src), "dead-store")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*S*/")


def test_a_prefix_update_whose_value_is_used_is_read_where_it_is_stored() -> None:
    # c-ares' getopt: ``if (*++oli != ':')`` reads the pointer it has just moved
    src = (
        HEADER
        + """
int needs_arg(const char *ostr, int opt) {
    const char *oli = strchr(ostr, opt);
    if (oli == NULL)
        return -1;
    return *++oli == ':';
}
int steps(int n) {
    int i = 0;
    while (n-- > 0)
        ++i;
    ++i;             /*S*/
    return n;
}
"""
    )
    (f,) = of_rule(check_src(src), "dead-store")
    assert f.function == "steps" and f.location.start_line == line_of(src, "/*S*/")


def test_a_callee_writing_its_copy_of_a_local_is_no_dead_store_of_the_local() -> None:
    """Once the projection of ``md`` went into ``check_mode``, whose ``mode++`` then counted as a
    store to ``md`` never read (lua's io_open showed it): a callee gets a copy, so only what the
    function itself does to the local is part of the verdict."""
    src = (
        HEADER
        + """
static int check_mode(const char *mode) { return *mode != 0 && *(mode++) == 'r'; }
int io_open(const char *mode) {
    const char *md = mode;
    return check_mode(md);
}
"""
    )
    assert of_rule(check_src(src), "dead-store") == []


def test_only_rules_about_the_local_itself_are_checked_without_the_callees() -> None:
    """A callee can free or dereference what a local points to, though not the local itself."""
    rules = {r.id: r for r in catalogue()}
    assert rules["dead-store"].local and rules["uninitialised-read"].local
    assert not replace(rules["uninitialised-read"], formula="E F (decl & E X E (~def U use))").local
    assert not replace(rules["dead-store"], formula="E F (write & E X E (~read U free))").local
    assert not replace(rules["dead-store"], scope="any").local


def test_a_local_rules_verdict_is_kept_when_only_a_callee_changes() -> None:
    """The caller's value is projected again (the callee's copy of it changed), but its dead-store
    model is the caller's own, unchanged: no check runs again."""
    caller = "int f(int a) {\n    int x = a * 2;\n    x = a;\n    return helper(x);\n}\n"
    before = HEADER + "int helper(int v) { return v + 1; }\n" + caller
    after = HEADER + "int helper(int v) { v = v * 3; return v + 1; }\n" + caller
    p = Project()
    p.update_file("t.c", before)
    (f,) = of_rule(p.check()["t.c"], "dead-store")
    assert f.function == "f"
    p.update_file("t.c", after)
    runs, models = p.counters["checks_run"], p.counters["models_built"]
    found = of_rule(p.check()["t.c"], "dead-store")
    assert [(g.function, g.location) for g in found] == [("f", f.location)]
    assert p.counters["models_built"] > models  # f's value x was looked at again ...
    checked = p.counters["checks_run"] - runs
    fresh = Project()
    fresh.update_file("t.c", after)
    fresh.check()
    assert checked == 0 < fresh.counters["checks_run"]  # ... but its verdict was known


def test_resource_leak() -> None:
    src = (
        HEADER
        + """
int f(const char *name) {
    FILE *fp = fopen(name, "r");       /*O*/
    if (!fp) return -1;
    if (fgetc(fp) == EOF) return -1;   /*R*/
    fclose(fp);
    return 0;
}
int g(const char *name) { FILE *fp = fopen(name, "r"); if (!fp) return -1; fclose(fp); return 0; }
int h(const char *name) {
    int ok = 0;
    FILE *fp = fopen(name, "r");
    if (fp == NULL) goto out;
    ok = fgetc(fp);
    fclose(fp);
out:
    return ok;
}
"""
    )
    (f,) = of_rule(check_src(src), "resource-leak")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*O*/") and f.cwe == 775
    assert f.witness[-1].location.start_line == line_of(src, "/*R*/")


def test_double_lock_and_good_lock_pairing() -> None:
    src = (
        HEADER
        + """
void f(void) {
    pthread_mutex_lock(&m);     /*1*/
    pthread_mutex_lock(&m);     /*2*/
    pthread_mutex_unlock(&m);
}
void g(void) {
    pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m); pthread_mutex_unlock(&m);
}
"""
    )
    (f,) = of_rule(check_src(src), "double-lock")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*2*/") and f.cwe == 764
    assert lines(f)[:2] == [line_of(src, "/*1*/"), line_of(src, "/*2*/")]


def test_unlock_without_lock() -> None:
    src = (
        HEADER
        + """
void f(int c) {
    if (c) pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);    /*U*/
}
void g(int c) { if (c) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); } }
void only_unlocks(void) { pthread_mutex_unlock(&m); }
"""
    )
    (f,) = of_rule(check_src(src), "unlock-without-lock")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*U*/")


def test_lock_not_released() -> None:
    src = (
        HEADER
        + """
int f(int c) {
    pthread_mutex_lock(&m);     /*L*/
    if (c) return -1;           /*R*/
    pthread_mutex_unlock(&m);
    return 0;
}
int g(int c) {
    pthread_mutex_lock(&m);
    if (c) { pthread_mutex_unlock(&m); return -1; }
    pthread_mutex_unlock(&m);
    return 0;
}
"""
    )
    (f,) = of_rule(check_src(src), "lock-not-released")
    # reported at the return that leaves with the lock held; the witness starts at the lock
    assert f.function == "f" and f.location.start_line == line_of(src, "/*R*/")
    assert f.witness[0].location.start_line == line_of(src, "/*L*/")
    assert f.witness[-1].location.start_line == line_of(src, "/*R*/")


def test_a_suppression_at_the_lock_still_silences_lock_not_released() -> None:
    """The finding is placed at the return, but a ``ctlsp-ignore`` written at the lock, where it
    was reported before, still silences it; one at an unrelated line does not."""
    src = HEADER + """
int f(int c) {
    pthread_mutex_lock(&m); // ctlsp-ignore[lock-not-released]
    if (c) return -1;
    pthread_mutex_unlock(&m);
    return 0;
}
"""
    assert of_rule(check_src(src), "lock-not-released") == []
    ignore = " // ctlsp-ignore[lock-not-released]"
    moved = src.replace(ignore, "").replace("return 0;", "return 0;" + ignore)
    assert len(of_rule(check_src(moved), "lock-not-released")) == 1


def test_a_lock_wrapper_that_aborts_when_the_lock_fails_is_no_held_lock() -> None:
    # libuv's uv_mutex_lock: the failed lock never returns, so no path releases the lock before
    # returning; its callers are checked with it (a caller that keeps it held is still reported)
    src = (
        HEADER
        + """
#include <stdlib.h>
void my_lock(pthread_mutex_t *mu) {
    if (pthread_mutex_lock(mu))
        abort();
}
void my_unlock(pthread_mutex_t *mu) {
    if (pthread_mutex_unlock(mu))
        abort();
}
int f(int c) {
    my_lock(&m);
    if (c) return -1;      /*R*/
    my_unlock(&m);
    return 0;
}
"""
    )
    (f,) = of_rule(check_src(src), "lock-not-released")
    assert f.function == "f" and f.location.start_line == line_of(src, "/*R*/")


def test_a_socket_tested_against_invalid_socket_is_not_held_on_the_failed_branch() -> None:
    # Winsock: socket() fails with INVALID_SOCKET, not -1; closesocket() closes it
    src = """
#include <winsock2.h>
int probe(int domain) {
    SOCKET sock = socket(domain, SOCK_STREAM, 0);
    if (sock == INVALID_SOCKET)
        return -1;
    closesocket(sock);
    return 0;
}
int keep(int domain) {
    SOCKET sock = socket(domain, SOCK_STREAM, 0);   /*O*/
    if (sock == INVALID_SOCKET)
        return -1;
    return 0;
}
"""
    (f,) = of_rule(check_src(src), "resource-leak")
    assert f.function == "keep" and f.location.start_line == line_of(src, "/*O*/")


def test_lock_released_in_helper_function() -> None:
    src = (
        HEADER
        + """
void leave(void) { pthread_mutex_unlock(&m); }
int f(int c) { pthread_mutex_lock(&m); if (c) { leave(); return 1; } leave(); return 0; }
"""
    )
    found = check_src(src)
    assert of_rule(found, "lock-not-released") == []
    assert of_rule(found, "unlock-without-lock") == []


def test_unchecked_return() -> None:
    src = (
        HEADER
        + """
void drop(void) {
    setuid(1000);              /*S*/
}
int ok(void) { if (setuid(1000) != 0) return -1; return 0; }
"""
    )
    (f,) = of_rule(check_src(src), "unchecked-return")
    assert f.function == "drop" and f.location.start_line == line_of(src, "/*S*/") and f.cwe == 252
    assert f.message == "return value of setuid() is ignored"
    two = HEADER + 'void g(void) {\n    chdir("/");  /*C*/\n    setuid(0);  /*U*/\n    (void)setgid(0);\n}\n'
    found = of_rule(check_src(two), "unchecked-return")
    assert [f.location.start_line for f in found] == [line_of(two, "/*C*/"), line_of(two, "/*U*/")]
    assert len({f.fingerprint for f in found}) == 2


def test_constant_conditions_prune_paths() -> None:
    src = (
        HEADER
        + """
#define DEBUG 0
static const int KEEP = 1;
void f(int n) { char *p = malloc(n); if (DEBUG) return; if (KEEP) free(p); }
void g(int n) { char *p = malloc(n); if (0) return; while (1) { free(p); return; } }
"""
    )
    assert of_rule(check_src(src), "memory-leak") == []


def test_every_builtin_rule_has_docs_examples_and_parses() -> None:
    rules = catalogue()
    ids = {r.id for r in rules}
    assert {
        "memory-leak",
        "double-free",
        "use-after-free",
        "null-dereference",
        "uninitialised-read",
        "dead-store",
        "resource-leak",
        "double-lock",
        "unlock-without-lock",
        "lock-not-released",
        "unchecked-return",
    } <= ids
    for r in rules:
        assert r.doc and r.bad_example and r.good_example and r.cwe
        r.parsed  # noqa: B018


@pytest.mark.parametrize("rule", [r for r in catalogue()], ids=lambda r: r.id)
def test_rule_doc_examples_behave(rule: object) -> None:
    """The bad example of each rule's documentation is reported by that rule, the good one is not."""
    r = rule
    bad = HEADER + r.bad_example + "\n"  # type: ignore[attr-defined]
    good = HEADER + r.good_example + "\n"  # type: ignore[attr-defined]
    assert of_rule(check_src(bad), r.id), f"{r.id}: bad example not reported"  # type: ignore[attr-defined]
    assert of_rule(check_src(good), r.id) == [], f"{r.id}: good example reported"  # type: ignore[attr-defined]


def test_cast_to_unknown_typedef_still_takes_the_address() -> None:
    """``(bytepp)&row`` parses as a bitwise and without the typedef; it is still ``&row``."""
    src = HEADER + """
int f(void) {
    char *row = NULL;
    int n;
    read_rows((bytepp)&row, (intp)&n);
    return n + (row != NULL);
}
void g(char *p) { free(p); p = NULL; }
"""
    found = check_src(src)
    assert of_rule(found, "dead-store") == [] and of_rule(found, "uninitialised-read") == []


def test_allocation_stored_by_a_callee_escapes() -> None:
    src = HEADER + """
struct list { char *items[8]; int n; };
static struct list all;
void keep(char *item) { all.items[all.n++] = item; }
void f(int n) { char *p = malloc(n); if (!p) return; keep(p); }
void g(int n) { char *p = malloc(n); if (!p) return; all.items[0] = p; }
"""
    assert of_rule(check_src(src), "memory-leak") == []


def test_declared_noreturn_functions_end_paths() -> None:
    src = HEADER + """
_Noreturn void die(const char *msg);
void fatal(int code) __attribute__((noreturn));
void f(int n) { char *p = malloc(n); if (!p) return; if (n > 2) die("x"); else free(p); }
void g(int n) { char *p = malloc(n); if (!p) return; if (n > 2) { fatal(1); } free(p); }
"""
    found = check_src(src)
    assert of_rule(found, "memory-leak") == []
    plain = src.replace("_Noreturn void die", "void die").replace("__attribute__((noreturn))", "")
    assert [f.function for f in of_rule(check_src(plain), "memory-leak")] == ["f"]


def test_descriptors_checked_against_minus_one_or_negative() -> None:
    src = HEADER + """
int a(const char *p) { int fd = open(p, 0); if (fd < 0) return -1; close(fd); return 0; }
int b(const char *p) { int fd = open(p, 0); if (fd == -1) return -1; close(fd); return 0; }
int c(const char *p) { int fd = open(p, 0); /*C*/
    if (fd < 0) return -1; if (*p) return 1; close(fd); return 0; }
"""
    found = of_rule(check_src(src), "resource-leak")
    assert [(f.function, f.location.start_line) for f in found] == [("c", line_of(src, "/*C*/"))]


def test_realloc_and_loop_idioms_are_clean() -> None:
    src = HEADER + """
int grow(int n) {
    char *buf = malloc(16);
    if (!buf) return -1;
    for (int i = 0; i < n; i++) {
        char *nb = realloc(buf, 32 + i);
        if (!nb) { free(buf); return -1; }
        buf = nb;
    }
    free(buf);
    return 0;
}
void drain(void) {
    char *line;
    while ((line = next_line()) != NULL) {
        consume(line);
    }
}
int once(void) {
    int done = 0, n = 0;
    char *p = malloc(4);
    while (!done) { n++; done = 1; }
    if (done) free(p);
    return n;
}
"""
    found = check_src(src)
    assert [f for f in found if f.rule_id in ("memory-leak", "double-free", "use-after-free")] == []


def test_same_condition_tested_twice_is_correlated() -> None:
    src = HEADER + """
int f(int verbose, int *out) {
    int start;
    char *buf = 0;
    if (verbose) { start = 1; buf = malloc(8); }
    if (out) *out = 0;
    if (verbose) { free(buf); return start; }
    if (out) *out = 1;
    return 0;
}
int g(int verbose) {
    int start;
    if (verbose) start = 1;
    verbose = !verbose;
    if (verbose) return start;    /*R*/
    return 0;
}
"""
    found = check_src(src)
    assert [(f.rule_id, f.function, f.location.start_line) for f in found if f.rule_id != "dead-store"] == [
        ("uninitialised-read", "g", line_of(src, "/*R*/"))
    ]


def test_va_start_initialises_its_argument() -> None:
    src = (
        "#include <stdarg.h>\nint sum(int n, ...) {\n    va_list ap;\n    int s = 0;\n"
        "    va_start(ap, n);\n    while (n--) s += va_arg(ap, int);\n    va_end(ap);\n    return s;\n}\n"
    )
    assert of_rule(check_src(src), "uninitialised-read") == []
    assert of_rule(check_src(src.replace("    va_start(ap, n);\n", "")), "uninitialised-read")


def test_cpuid_macros_set_their_register_arguments() -> None:
    src = """#include <cpuid.h>
#include <stdint.h>
uint32_t leaf7_ebx(void)
{
    uint32_t eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return ebx;
}
"""
    assert of_rule(check_src(src), "uninitialised-read") == []
    unset = src.replace("__cpuid_count(7, 0, eax, ebx, ecx, edx)", "__cpuid_count(7, ebx, eax, ecx, ecx, edx)")
    assert [f.message for f in of_rule(check_src(unset), "uninitialised-read")] == [
        "'ebx' may be read before it is initialised"
    ]
