"""Witness refutation (extractors/refute.py): findings on paths that cannot run are removed, the
twin with a real bug is still found, and what the solver cannot read keeps the finding."""

from __future__ import annotations

import z3

from checker.ctl import parse
from extractors.api import Finding, Project
from extractors.call_outcomes import CallOutcomes, FromArgument
from extractors.calls import BUILTIN
from extractors.path_condition import Fresh, FunctionSemantics
from extractors.refine_graph import Fact, project, shifted
from extractors.refute import existential_part
from extractors.witness_condition import condition
from tests.extractors.helpers import cfg_of, line_of, node_id


def findings(src: str, refute: bool = True) -> list[Finding]:
    p = Project()
    p.checker.refute = refute
    p.update_file("t.c", src)
    return p.check()["t.c"]


def found(src: str, rule: str, refute: bool = True) -> set[int]:
    return {f.location.start_line for f in findings(src, refute) if f.rule_id == rule}


# correlated integer tests: n > 5 and n < 3 never both hold (no flag prune.py knows of)
CORRELATED = """
#include <stdlib.h>
int consume(char *buf, int n);
int pack(int n) {
    char *buf = malloc(64);
    if (!buf)
        return -1;
    consume(buf, n);
    if (n > 5)
        free(buf);
    if (n < 3)
        free(buf); /*B*/
    return 0;
}
"""
CORRELATED_BAD = CORRELATED.replace("n < 3", "n > 7")


def test_correlated_tests_refuted_and_real_twin_kept() -> None:
    line = line_of(CORRELATED, "/*B*/")
    assert found(CORRELATED, "double-free", refute=False) == {line}  # before: a false double free
    assert found(CORRELATED, "double-free") == set()
    assert found(CORRELATED_BAD, "double-free") == {line}  # n == 8 frees twice


# SSA: m is len + 1, so len <= 4 gives m <= 5 < 7: the buffer is always freed
SSA = """
#include <stdlib.h>
int frame(int len) {
    int m = len + 1;
    char *b = malloc(8); /*A*/
    if (!b)
        return 0;
    if (len > 4)
        free(b);
    if (m < 7)
        free(b); /*B*/
    return 1;
}
"""
SSA_LEAK = SSA.replace("m < 7", "m < 5")  # len == 4: neither branch frees


def test_assignment_through_ssa() -> None:
    alloc, second = line_of(SSA, "/*A*/"), line_of(SSA, "/*B*/")
    assert found(SSA, "memory-leak", refute=False) == {alloc}
    assert found(SSA, "memory-leak") == set()
    assert found(SSA, "double-free") == {second}  # len == 5 frees twice: real, and kept
    assert found(SSA_LEAK, "memory-leak") == {alloc}


# an uninitialised read guarded by a test implied by the one that assigned, across a loop
UNINIT = """
int sink(int);
int pick(int n) {
    int x;
    if (n > 0)
        x = 1;
    for (int i = 0; i < 10; i++)
        sink(i);
    if (n >= 1)
        return x; /*R*/
    return 0;
}
"""
UNINIT_BAD = UNINIT.replace("n >= 1", "n >= 0")  # n == 0 reads x unset


def test_uninitialised_read_across_a_loop() -> None:
    line = line_of(UNINIT, "/*R*/")
    assert found(UNINIT, "uninitialised-read", refute=False) == {line}
    assert found(UNINIT, "uninitialised-read") == set()
    assert found(UNINIT_BAD, "uninitialised-read") == {line}


# NULL-ness: q is r (not NULL) exactly when k == 3
NULLNESS = """
#include <stdlib.h>
int hand(int k) {
    char *q = NULL;
    char *r = malloc(4);
    if (!r)
        return 0;
    if (k == 3)
        q = r;
    if (q != NULL)
        free(r);
    if (k == 3)
        return 1;
    free(r); /*F*/
    return 0;
}
"""
NULLNESS_BAD = NULLNESS.replace("if (k == 3)\n        return 1;", "if (k == 4)\n        return 1;")


def test_pointer_nullness() -> None:
    line = line_of(NULLNESS, "/*F*/")
    assert found(NULLNESS, "double-free", refute=False) == {line}
    assert found(NULLNESS, "double-free") == set()
    assert found(NULLNESS_BAD, "double-free") == {line}



# The flag `found` makes the pruned graph copy the first loop's head; the witness's model keeps
# one copy and contracts the other, which the witness passes: when the kept nodes leave a step no
# way, the path condition lets it pass a node the model keeps in some copy only (regex's
# do_best_fuzzy_match, best_text_pos)
COPIED_HEAD = """
struct G;
struct G *save(struct G *g);
int better(int i);
int probe(int i);
void use(long v);
int find(int n) {
    int found = 0;
    long pos;
    struct G *best = 0;
    int i = 0;
    while (i < n) {
        if (probe(i) < 0)
            break;
        found = 1;
        i++;
    }
    if (found) {
        for (i = 0; i < n; i++) {
            if (better(i)) {
                best = save(best);
                if (!best)
                    return -1;
                pos = i;
            }
        }
        if (best) {
            use(pos); /*R*/
            return 1;
        }
    }
    return 0;
}
"""
COPIED_HEAD_BAD = COPIED_HEAD.replace("pos = i;", "if (i > 2)\n                    pos = i;")


def test_witness_passing_a_copy_the_model_contracted() -> None:
    line = line_of(COPIED_HEAD, "/*R*/")
    assert found(COPIED_HEAD, "uninitialised-read", refute=False) == {line}
    assert found(COPIED_HEAD, "uninitialised-read") == set()
    assert found(COPIED_HEAD_BAD, "uninitialised-read") == {line_of(COPIED_HEAD_BAD, "/*R*/")}

def test_unknown_values_stay_unconstrained() -> None:
    """A global, a call's result, unsigned arithmetic and a macro that may assign are not read as
    anything: the same shapes as above keep their findings."""
    for old, new in (
        ("int m = len + 1;", "int m = g_len + 1;"),
        ("int m = len + 1;", "int m = next(len);"),
        ("int m = len + 1;", "int m = len + 1; RESET(m);"),
    ):
        src = "extern int g_len; int next(int);\n" + SSA.replace(old, new)
        assert found(src, "memory-leak") == {line_of(src, "/*A*/")}, new
    old = "int frame(int len) {\n    int m = len + 1;"
    unsigned = SSA.replace(old, "int frame(unsigned len) {\n    unsigned m = len + 1;")
    assert found(unsigned, "memory-leak") == {line_of(unsigned, "/*A*/")}  # len == UINT_MAX wraps to m == 0


def test_shadowed_local_is_not_tracked() -> None:
    src = CORRELATED.replace("    if (n < 3)", "    { int n = 0; consume(buf, n); }\n    if (n < 3)")
    sem = FunctionSemantics(cfg_of(src, "pack"), ("n",), BUILTIN)
    assert "n" not in sem.kinds
    assert found(src, "double-free") == {line_of(src, "/*B*/")}


def test_finding_shows_the_surviving_witness() -> None:
    """When the first witness cannot run but the rule still holds, the witness shown is one of the
    refined model, and it passes the test that makes the bug possible."""
    src = """
#include <stdlib.h>
int twice(int n) {
    char *p = malloc(4);
    if (!p)
        return 0;
    if (n > 5)
        free(p);
    if (n < 3)
        free(p);
    if (n > 8)
        free(p); /*C*/
    return 0;
}
"""
    fs = [f for f in findings(src) if f.rule_id == "double-free"]
    assert [f.location.start_line for f in fs] == [line_of(src, "/*C*/")]
    freed = [w.location.start_line for w in fs[0].witness if "freed" in w.message]
    assert freed == [line_of(src, "/*C*/") - 4, line_of(src, "/*C*/")]  # the n > 5 free, then n > 8


def test_path_condition_reads_ssa_and_tests() -> None:
    src = "int f(int n) { int x = n + 1; if (x > 3) return 1; return 0; }"
    cfg = cfg_of(src)
    sem = FunctionSemantics(cfg, ("n",), BUILTIN)
    decl, test = node_id(cfg, "int x = n + 1;"), node_id(cfg, "x > 3")
    fresh = Fresh("t")
    env = sem.initial(fresh)
    after = sem.effect(decl, env, fresh).env
    cond = sem.effect(test, after, fresh).cond
    assert cond is not None
    s = z3.Solver()
    s.add(cond, env["n"] < 3)
    assert s.check() == z3.unsat
    # the whole path: entry, the declaration, the test taken, a return that needs n >= 3
    ret = node_id(cfg, "return 1;")
    c = condition(sem, [(cfg.entry, None), (test, True), (ret, None)])
    s = z3.Solver()
    s.add(*c.constraints)
    assert s.check() == z3.sat


def test_existential_part_of_rules() -> None:
    f = parse("E F (write & A X A (~read U end))")
    assert str(existential_part(f)) == str(parse("E F (write & true)"))
    g = parse("E F (lock & ~(A X A (~unlock U end)))")
    assert str(existential_part(g)) == str(g)  # its universal part is under a negation: existential
    h = parse("~(E F free)")
    assert str(existential_part(h)) == str(parse("~false"))


# x is written again: what the first test said of it (x > 0, x == a) is kept as a > 0
REASSIGNED = """
#include <stdlib.h>
void f(int a, int b) {
    int x = 0;
    char *p = malloc(8); /*A*/
    if (!p)
        return;
    x = a + 0;
    if (x > 0) free(p);
    x = a + 0;
    if (a < 2) free(p);
}
"""
REASSIGNED_LEAK = REASSIGNED.replace("a < 2", "a < 0")  # a == 0 frees nothing


def test_facts_survive_a_reassignment() -> None:
    alloc = line_of(REASSIGNED, "/*A*/")
    assert found(REASSIGNED, "memory-leak", refute=False) == {alloc}
    assert found(REASSIGNED, "memory-leak") == set()
    assert found(REASSIGNED_LEAK, "memory-leak") == {alloc}


# prune.py already knows the second a < 0 repeats the first; the refinement then leaves the copy
# of it reached with a > 0 no way on: that copy is removed, not kept as a dead end
DEAD_END = """
#include <stdlib.h>
void f(int a, int b) {
    int x = 0;
    char *p = malloc(8);
    if (!p)
        return;
    if (a < 0) x = 0;
    if (a > 0) free(p);
    if (a < 0) free(p); /*B*/
}
"""
DEAD_END_BAD = DEAD_END.replace("if (a > 0) free(p);", "if (a > -2) free(p);")  # a == -1 frees twice


def test_state_left_without_successors_is_removed() -> None:
    second = line_of(DEAD_END, "/*B*/")
    assert found(DEAD_END, "double-free", refute=False) == {second}
    assert found(DEAD_END, "double-free") == set()
    assert found(DEAD_END_BAD, "double-free") == {second}


def test_project_substitutes_and_drops() -> None:
    a, b, x = z3.Ints("v:a v:b v:x")
    facts = frozenset({Fact.of(x == a + 1), Fact.of(x > 3), Fact.of(b < 2)})
    got = project(facts, frozenset({"x"}))
    s = z3.Solver()  # the projection is exactly a + 1 > 3 and b < 2
    s.add(z3.Not(z3.And(*[f.formula for f in got]) == z3.And(a > 2, b < 2)))
    assert s.check() == z3.unsat
    assert all("x" not in f.vars for f in got)
    # no equality to put in for x: what mentions it is dropped
    assert project(frozenset({Fact.of(x > a), Fact.of(b < 2)}), frozenset({"x"})) == {Fact.of(b < 2)}
    # x * x == a does not define x; a == -1 + x does
    assert project(frozenset({Fact.of(x * x == a), Fact.of(x > 0)}), frozenset({"x"})) == frozenset()
    got = project(frozenset({Fact.of(a == x - 1), Fact.of(x < 0)}), frozenset({"x"}))
    assert got == {Fact.of(a + 1 < 0)}


def test_shifted_moves_facts_with_a_counter_step() -> None:
    i, n = z3.Ints("v:i v:n")
    facts = frozenset({Fact.of(i == 2), Fact.of(n > i)})
    got = shifted(facts, {"i": i - 1})  # after i++, the old i is the new i - 1
    assert got == {Fact.of(i - 1 == 2), Fact.of(n > i - 1)}
    assert shifted(facts, {}) == facts
    assert shifted(frozenset({Fact.of(n > 0)}), {"i": i - 1}) == {Fact.of(n > 0)}


# a callee's branch that the literal the caller passes rules out: the keep branch frees, the
# other one (mode 1) hands the block back to the caller, which then loses it
BOUND_MODE = """
#include <stdlib.h>
static int release(char *buf, int mode) {
    if (mode == 1)
        return 1;
    free(buf);
    return 0;
}
int use(int n) {
    char *buf = malloc(n); /*A*/
    if (!buf)
        return -1;
    return release(buf, 0);
}
"""
BOUND_MODE_BAD = BOUND_MODE.replace("release(buf, 0)", "release(buf, 1)")
# the callee overwrites the parameter before testing it (with a global some function writes): the
# literal decides nothing
BOUND_MODE_WRITTEN = BOUND_MODE.replace("    if (mode == 1)", "    mode = mode + n_calls;\n    if (mode == 1)").replace(
    "static int release", "int n_calls;\nvoid counted(void) { n_calls++; }\nstatic int release"
)


def test_callee_specialised_to_a_literal_argument() -> None:
    alloc = line_of(BOUND_MODE, "/*A*/")
    assert found(BOUND_MODE, "memory-leak", refute=False) == {alloc}
    assert found(BOUND_MODE, "memory-leak") == set()
    assert found(BOUND_MODE_BAD, "memory-leak") == {alloc}
    assert found(BOUND_MODE_WRITTEN, "memory-leak") == {line_of(BOUND_MODE_WRITTEN, "/*A*/")}


# pycryptodome's tests: the callee's ``out == NULL`` early return is no path of a call given ``&c``
ADDRESS_OUT = """
#include <stdlib.h>
#include <string.h>
int to_hex(char **out, unsigned v) {
    if (NULL == out)
        return -1;
    *out = calloc(16, 1);
    if (*out != NULL)
        (*out)[0] = (char)('0' + v % 10);
    return 0;
}
size_t twice(unsigned a, unsigned b) {
    char *c;
    size_t n;
    to_hex(&c, a);
    n = c ? strlen(c) : 0;
    free(c);
    to_hex(&c, b);
    n += c ? strlen(c) : 0;
    free(c); /*F*/
    return n;
}
"""


def test_an_address_argument_is_not_null_in_the_callee() -> None:
    second = line_of(ADDRESS_OUT, "/*F*/")
    assert found(ADDRESS_OUT, "double-free", refute=False) == {second}
    assert found(ADDRESS_OUT, "double-free") == set()
    assert found(ADDRESS_OUT.replace("    to_hex(&c, b);\n", ""), "double-free") == {second - 1}


# pycryptodome's test_nat.c: the callee's size test reads a macro; given 4, it passes
NAT_AGAIN = """
#include <stdlib.h>
#define NAT_MAX_WORDS 64
typedef struct { size_t nw; unsigned long w[1]; } Nat;
int nat_new(Nat **out, size_t nw) {
    if (NULL == out)
        return 1;
    if (nw == 0 || nw > NAT_MAX_WORDS)
        return 2;
    *out = calloc(1, sizeof(Nat) + nw * sizeof(unsigned long));
    if (NULL == *out)
        return 3;
    return 0;
}
void nat_free(Nat *x) {
    if (NULL == x)
        return;
    free(x);
}
void again(void) {
    Nat *b;
    if (nat_new(&b, 2) != 0)
        return;
    b->w[0] = 1;
    nat_free(b);
    nat_new(&b, 4);
    b->nw = 7; /*U*/
    nat_free(b);
}
"""


def test_a_macro_constant_in_the_callee_is_its_value() -> None:
    use = line_of(NAT_AGAIN, "/*U*/")
    assert found(NAT_AGAIN, "use-after-free", refute=False) == {use}
    assert found(NAT_AGAIN, "use-after-free") == set()
    # 100 words are too many: the call returns before it sets ``b``, which is still the freed block
    assert found(NAT_AGAIN.replace("nat_new(&b, 4)", "nat_new(&b, 100)"), "use-after-free") == {use}


# Pillow's Resample.c: a statement macro defined in the file, whose body assigns other names,
# leaves the argument it only passes on as it was
KNOWN_MACRO = """
#include <stdlib.h>
int work(int *b, int n);
static int coeffs(int n, int **boundsp)
{
    int *bounds;
    if (n > 4096)
        return 0;
    bounds = malloc(n * sizeof(int));
    if (!bounds)
        return 0;
    *boundsp = bounds;
    return n;
}
int run(int n)
{
    int *bounds;
    int ksize = 0;
    int error = 0;
#define PASS(fn, k, b) error = fn(b, k); if (error) goto end;
    ksize = coeffs(n, &bounds);
    if (!ksize) /*A*/
        return -1;
    PASS(work, ksize, bounds)
end:
    if (ksize)
        free(bounds);
    return error;
}
"""


def test_a_macro_the_file_defines_writes_only_what_its_body_assigns() -> None:
    alloc = line_of(KNOWN_MACRO, "/*A*/")
    assert found(KNOWN_MACRO, "memory-leak", refute=False) == {alloc}
    assert found(KNOWN_MACRO, "memory-leak") == set()
    assigning = KNOWN_MACRO.replace("error = fn(b, k);", "error = fn(b, k); k = 0;")
    assert found(assigning, "memory-leak") == {alloc}


# SQLite's xConnect methods: a rule whose universal part fails on the refined model while its
# existential part still holds there, through a path the first round did not speak of (the
# allocation's failure sets rc to a constant that the second test rules out)
RC_GUARD = """
#include <string.h>
#include <assert.h>
#define SQLITE_OK 0
#define SQLITE_NOMEM 7
void *sqlite3_malloc64(unsigned long long);
int declare(void);
typedef struct T { int a; } T;
int conn(T **pp) {
  T *pTab = 0;
  int rc = SQLITE_OK;
  rc = declare();
  if( rc==SQLITE_OK ){
    pTab = (T *)sqlite3_malloc64(sizeof(T));
    if( pTab==0 ) rc = SQLITE_NOMEM;
  }
  assert( rc==SQLITE_OK || pTab==0 );
  if( rc==SQLITE_OK ){
    memset(pTab, 0, sizeof(T)); /*U*/
    pTab->a = 1;
  }
  *pp = pTab;
  return rc;
}
"""
SOME_PATH_NULL = """
[[rules.custom]]
id = "null-then-use"
message = "'{var}' may be NULL when it is dereferenced"
formula = '''E F ((null & E X E (~(def | notnull | exit) U use))
    | ((null | isnull) & E X E (~(def | notnull | exit) U use) & A X A (~(def | notnull | exit) U use)))'''
"""


def test_a_witness_of_the_existential_part_leads_the_next_round() -> None:
    from extractors.config import config_from_text

    def custom(src: str, refute: bool) -> set[int]:
        p = Project(config_from_text(SOME_PATH_NULL, "ctlsp.toml"))
        p.checker.refute = refute
        p.update_file("t.c", src)
        return {f.location.start_line for f in p.check()["t.c"] if f.rule_id == "null-then-use"}

    use = line_of(RC_GUARD, "/*U*/")
    assert custom(RC_GUARD, refute=False) == {use}
    assert custom(RC_GUARD, refute=True) == set()
    # the failure's code is 0 too: the path runs
    assert custom(RC_GUARD.replace("rc = SQLITE_NOMEM;", "rc = SQLITE_OK;"), refute=True) == {use}


# libuv's io_uring setup: the ring pointer starts as MAP_FAILED (a macro of a header the file does
# not read), and the cleanup unmaps it with the length only when it was mapped
MAPPED = """
#include <sys/mman.h>
#include <stddef.h>
int ring(int fd, int features) {
    char *sq;
    size_t len;
    sq = MAP_FAILED;
    if (!(features & 4))
        goto fail;
    len = 4096;
    sq = mmap(0, len, PROT_READ, MAP_SHARED, fd, 0);
    if (sq == MAP_FAILED)
        goto fail;
    return sq[0];
fail:
    if (sq != MAP_FAILED)
        munmap(sq, len);
    return -1;
}
"""


def test_a_macro_constant_is_one_value_wherever_it_is_named() -> None:
    assert found(MAPPED, "uninitialised-read") == set()
    assert found(MAPPED, "uninitialised-read", refute=False) == {line_of(MAPPED, "munmap(sq, len);")}
    # the cleanup that unmaps whatever the pointer holds reads the unset length
    unguarded = MAPPED.replace("    if (sq != MAP_FAILED)\n        munmap", "    munmap")
    assert found(unguarded, "uninitialised-read") == {line_of(unguarded, "munmap(sq, len);")}
    # another macro is another value: nothing is known of sq against it
    other = MAPPED.replace("    sq = MAP_FAILED;\n", "    sq = RING_UNSET;\n")
    assert found(other, "uninitialised-read") == {line_of(other, "munmap(sq, len);")}


# libuv's sendfile: the Linux build tries copy_file_range first, the SunOS build always sends, so
# each build assigns r before it is read; the builds declare their own locals in blocks that the
# conditionals around them choose, so the function's CFG holds each build from the entry
BUILDS = """
#include <sys/types.h>
ssize_t try_range(int in, int out, off_t *off, size_t len);
ssize_t send_it(int out, int in, off_t *off, size_t len);
ssize_t emulate(int out, int in, size_t len);
ssize_t copy(int in, int out, off_t start, size_t len) {
#if defined(__linux__) || defined(__sun)
  {
    int try_send;
    ssize_t r;
    off_t off = start;
    try_send = 1;
#ifdef __linux__
    r = try_range(in, out, &off, len);
    try_send = r == -1;
#endif
    if (try_send)
      r = send_it(out, in, &off, len);
    return r; /*R*/
  }
#elif defined(__APPLE__) \\
    || defined(__FreeBSD__)
  {
    ssize_t r;
    off_t off = start;
#if defined(__FreeBSD__)
    r = try_range(in, out, &off, len);
    if (r >= 0)
      return r;
#endif
    r = send_it(out, in, &off, len);
    return r;
  }
#else
  return emulate(out, in, len);
#endif
}
"""


def test_a_local_declared_once_in_each_build_is_tracked() -> None:
    assert found(BUILDS, "uninitialised-read") == set()
    # a build in which it may stay unset is still found
    unset = BUILDS.replace("    try_send = 1;\n", "    try_send = len > 0;\n")
    assert found(unset, "uninitialised-read") == {line_of(unset, "/*R*/")}
    assert found(BUILDS, "uninitialised-read", refute=False) == {line_of(BUILDS, "/*R*/")}


# c-ares' ares_buf: the fetch returns NULL exactly when it leaves no bytes in *len (it sets it to 0
# first, and tests it after storing the length), and a pointer it tested not NULL, moved, otherwise
FETCH = """
#include <stddef.h>
struct buf { const unsigned char *data; size_t data_len; size_t offset; };
static const unsigned char *buf_fetch(const struct buf *buf, size_t *len)
{
    if (len != NULL)
        *len = 0;
    if (buf == NULL || len == NULL || buf->data == NULL)
        return NULL;
    *len = buf->data_len - buf->offset;
    if (*len == 0)
        return NULL;
    return buf->data + buf->offset;
}
int fetch_be16(struct buf *buf, unsigned short *u16)
{
    size_t remaining_len;
    const unsigned char *ptr = buf_fetch(buf, &remaining_len);
    if (buf == NULL || u16 == NULL || remaining_len < sizeof(*u16))
        return -1;
    *u16 = (unsigned short)(ptr[0] << 8 | ptr[1]); /*D*/
    return 0;
}
"""


def test_a_callee_that_returns_null_exactly_when_it_leaves_no_length() -> None:
    deref = line_of(FETCH, "/*D*/")
    assert found(FETCH, "null-dereference", refute=False) == {deref}
    assert found(FETCH, "null-dereference") == set()
    # without the length test the NULL result is dereferenced
    unchecked = FETCH.replace(" || remaining_len < sizeof(*u16)", "")
    assert found(unchecked, "null-dereference") == {line_of(unchecked, "/*D*/")}
    # a caller that may hand NULL for the length gets the callee's NULL path without a store
    maybe = FETCH.replace("buf_fetch(buf, &remaining_len)", "buf_fetch(buf, u16 ? &remaining_len : NULL)")
    assert found(maybe, "null-dereference") == {line_of(maybe, "/*D*/")}
    # an unsigned length that is not 0 is more than the 0 left: the test returns
    wanted = FETCH.replace("remaining_len < sizeof(*u16)", "want == 0 || remaining_len < want").replace(
        "unsigned short *u16)", "unsigned short *u16, size_t want)"
    )
    assert found(wanted, "null-dereference") == set()


def test_a_finding_whose_refutation_runs_out_of_budget_is_kept() -> None:
    """With the per-finding budget (z3's deterministic resource limit) spent before the path
    condition is decided, the solver answers unknown, and an unknown keeps the finding: refutation
    only removes what it proves cannot run."""
    p = Project()
    p.checker.refuter.rlimit = 1
    p.update_file("t.c", CORRELATED)
    kept = {f.location.start_line for f in p.check()["t.c"] if f.rule_id == "double-free"}
    assert kept == {line_of(CORRELATED, "/*B*/")}
    assert p.checker.counts["refuted"] == 0


# SQLite's memsys3 dump: the log goes to stdout or to a file it opens, and the file is closed on
# the else of ``out == stdout``, which a stream fopen just opened never is
STREAMS = """
#include <stdio.h>
void dump(const char *name, int n) {
    FILE *out;
    if (name == 0) {
        out = stdout;
    } else {
        out = fopen(name, "w");
        if (out == 0)
            return;
    }
    fprintf(out, "%d\\n", n);
    if (out == stdout)
        fflush(stdout);
    else
        fclose(out);
}
"""


def test_a_fresh_stream_is_no_standard_stream() -> None:
    opened = line_of(STREAMS, 'out = fopen(name, "w");')
    assert found(STREAMS, "resource-leak") == set()
    assert found(STREAMS, "resource-leak", refute=False) == {opened}
    # closed only when it is stdout: the file opened is never closed
    swapped = STREAMS.replace("if (out == stdout)", "if (out != stdout)")
    assert found(swapped, "resource-leak") == {opened}
    # a stream another function hands back may be stdout
    handed = STREAMS.replace('out = fopen(name, "w");', "out = log_stream(name);")
    assert found(handed, "resource-leak") == set()
    # in a function that stores to stdout (glibc allows it) the streams are unknown values: what
    # stdout holds at the test is not followed, so the path through it is not refuted
    assigned = STREAMS.replace("    fprintf(out,", "    if (n < 0)\n        stdout = stderr;\n    fprintf(out,")
    assert found(assigned, "resource-leak") == {opened}


def test_only_untested_pointer_parameters_are_assumed_not_null() -> None:
    """A pointer parameter the function never tests is a caller's valid object (its dereference is
    no finding either); one it tests, copies into a local, compares or hands to a test's call may
    be NULL. The assumption is made of those handed to a callee that may return them, the one
    reading that asks about it."""
    body = "int f(struct s *p, struct s *q, char *r, char *t, char *u, char *w) {\n    int n = p->n;\n{tests}"
    tests = (
        "    if (!q) return 0;\n    char *c = r;\n    if (c == 0) return 1;\n"
        "    if (valid(t)) return 2;\n    n += u[0] + w[0];\n"
        "    int k;\n    char *x = same(p, &k), *y = same(q, &k), *z = same(r, &k);\n"
        "    char *a = same(t, &k), *b = same(u, &k);\n"
        "    return n + *x + *y + *z + *a + *b;\n}\n"
    )
    src = "struct s { int n; };\nint valid(char *);\n" + SAME + body.replace("{tests}", tests)
    outcomes = {"same": CallOutcomes("p", (1,), ((FromArgument(0), ((1, 1),)),))}  # as call_outcomes reads SAME
    sem = FunctionSemantics(cfg_of(src, "f"), ("p", "q", "r", "t", "u", "w"), BUILTIN, outcomes)
    assert [str(c) for c in sem.assumed(sem.symbols)] == ["v:p != 0", "v:u != 0"]


SAME = "static void *same(void *v, int *n) { *n = 1; return v; }\n"


def test_the_address_of_a_pointed_to_field_leaves_the_pointer_tracked() -> None:
    """``&p->n`` points into ``*p``: no store through it changes ``p``, so ``p`` stays a tracked
    local; ``&s.n`` and ``&x`` point into the frame's own storage, which may then change unseen."""
    src = (
        "struct s { int n; };\nvoid bump(int *);\n"
        "int f(struct s *p) {\n    struct s s;\n    int x = 0;\n    bump(&p->n);\n    bump(&s.n);\n"
        "    bump(&x);\n    return x + s.n;\n}\n"
    )
    cfg = cfg_of(src, "f")
    assert cfg.addr_taken == {"p", "s", "x"}
    assert cfg.frame_addressed == {"s", "x"}
    assert "p" in FunctionSemantics(cfg, ("p",), BUILTIN).kinds
