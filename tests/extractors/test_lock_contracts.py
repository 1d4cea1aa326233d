"""unlock-without-lock through a callee whose other callers hold the lock (issue #13,
extractors/lock_contracts.py): reported at the call of the caller that holds nothing, never in
the helper, in an unlock wrapper, or in a function whose own callers hold the lock."""

from __future__ import annotations

from checker.querydb import Database
from extractors.api import Project
from extractors.calls import BUILTIN
from extractors.lock_contracts import LockContracts, lock_contracts
from extractors.projection import ProjectionStore, Projector, make_scope

from .helpers import check_src, line_of, of_rule

HEADER = """#include <pthread.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int jobs;
"""

FINISH = """
/* called with mu held; drops it */
static void finish_locked(void) { jobs--; pthread_mutex_unlock(&mu); }
void done_locked(void) { pthread_mutex_lock(&mu); jobs++; finish_locked(); }
"""


def unlock_findings(src: str) -> list[tuple[str, int]]:
    return [(f.function, f.location.start_line) for f in of_rule(check_src(src), "unlock-without-lock")]


def test_caller_without_the_lock_is_reported_at_its_call() -> None:
    src = HEADER + FINISH + "void done(void) {\n    jobs++;\n    finish_locked(); /*BAD*/\n}\n"
    (f,) = of_rule(check_src(src), "unlock-without-lock")
    assert (f.function, f.location.start_line) == ("done", line_of(src, "/*BAD*/"))
    # the witness is the call stack: the call in done, then the unlock inside finish_locked
    assert f.witness[0].location.start_line == line_of(src, "/*BAD*/")
    assert "pthread_mutex_unlock" in f.witness[-1].message


def test_caller_that_locks_first_is_silent() -> None:
    src = HEADER + FINISH + "void done(void) { pthread_mutex_lock(&mu); finish_locked(); }\n"
    assert unlock_findings(src) == []


def test_helper_whose_callers_all_lock_is_silent() -> None:
    src = HEADER + FINISH + "void other(void) { pthread_mutex_lock(&mu); finish_locked(); }\n"
    assert unlock_findings(src) == []


def test_lock_and_unlock_wrappers_are_silent() -> None:
    """The API pattern: api_unlock releases by its own call without locking; its users pair it
    with api_lock. Neither the wrappers nor the users are reported."""
    src = (
        HEADER
        + """
void api_lock(void) { pthread_mutex_lock(&mu); }
void api_unlock(void) { pthread_mutex_unlock(&mu); }
void user(void) { api_lock(); jobs++; api_unlock(); }
void user2(int c) { api_lock(); if (c) jobs--; api_unlock(); }
"""
    )
    assert unlock_findings(src) == []


def test_two_levels_reported_at_the_call_of_the_middle_function() -> None:
    src = (
        HEADER
        + FINISH
        + """
static void mid(void) { jobs += 2; finish_locked(); }
void mid_locked(void) { pthread_mutex_lock(&mu); mid(); }
void top(void) {
    jobs++;
    mid(); /*BAD*/
}
"""
    )
    assert unlock_findings(src) == [("top", line_of(src, "/*BAD*/"))]


def test_function_whose_caller_holds_the_lock_is_silent() -> None:
    src = (
        HEADER
        + FINISH
        + """
static void done(void) { jobs++; finish_locked(); }
void outer(void) { pthread_mutex_lock(&mu); done(); }
"""
    )
    assert unlock_findings(src) == []


def test_held_through_a_frame_that_does_not_name_the_lock() -> None:
    """outer locks and calls relay, which calls done: done is called with the lock held."""
    src = (
        HEADER
        + FINISH
        + """
static void done(void) { jobs++; finish_locked(); }
static void relay(void) { done(); }
void outer(void) { pthread_mutex_lock(&mu); relay(); }
"""
    )
    assert unlock_findings(src) == []


def test_a_lock_released_before_the_call_is_no_evidence() -> None:
    """other unlocks before calling finish_locked: no caller holds the lock there, so nothing
    says finish_locked's callers must (and other's own double unlock is the old rule's)."""
    src = (
        HEADER
        + """
static void finish(void) { jobs--; pthread_mutex_unlock(&mu); }
void other(void) { pthread_mutex_lock(&mu); jobs++; pthread_mutex_unlock(&mu); jobs--; }
void done(void) { finish(); }
"""
    )
    assert unlock_findings(src) == []


PARAM = """#include <pthread.h>
struct q { pthread_mutex_t mu; int n; };
/* called with q->mu held; drops it */
static void q_finish(struct q *q) { q->n--; pthread_mutex_unlock(&q->mu); }
void q_done_locked(struct q *q) { pthread_mutex_lock(&q->mu); q_finish(q); }
"""


def test_field_of_a_parameter() -> None:
    src = PARAM + "void q_done(struct q *x) {\n    q_finish(x); /*BAD*/\n}\n"
    assert unlock_findings(src) == [("q_done", line_of(src, "/*BAD*/"))]
    fixed = PARAM + "void q_done(struct q *x) { pthread_mutex_lock(&x->mu); q_finish(x); }\n"
    assert unlock_findings(fixed) == []


def test_field_of_a_parameter_held_by_the_caller() -> None:
    src = PARAM + (
        "static void q_done(struct q *x) { q_finish(x); }\n"
        "void q_run(struct q *y) { pthread_mutex_lock(&y->mu); q_done(y); }\n"
    )
    assert unlock_findings(src) == []


def test_a_caller_that_starts_holding_the_lock_silences_it_on_the_next_check() -> None:
    """The finding depends on the function's callers, which its positional key does not cover:
    adding a caller that holds the lock (in another file) takes it away, removing it brings it
    back."""
    p = Project()
    a = HEADER.replace("static pthread_mutex_t", "pthread_mutex_t") + FINISH.replace(
        "static void finish_locked", "void finish_locked"
    ) + "void done(void) { finish_locked(); }\n"
    p.update_file("a.c", a)
    assert [f.function for f in of_rule(p.check()["a.c"], "unlock-without-lock")] == ["done"]
    p.update_file(
        "b.c",
        "#include <pthread.h>\nextern pthread_mutex_t mu;\nvoid done(void);\n"
        "void outer(void) { pthread_mutex_lock(&mu); done(); }\n",
    )
    assert of_rule(p.check()["a.c"], "unlock-without-lock") == []
    p.remove_file("b.c")
    assert [f.function for f in of_rule(p.check()["a.c"], "unlock-without-lock")] == ["done"]


def test_evidence_through_a_lock_wrapper_of_a_lock_wrapper() -> None:
    """The held call's lock is taken two wrappers down (ares_channel_lock calls
    ares_thread_mutex_lock): still a lock, so finish is called with mu held."""
    src = (
        HEADER
        + """
static void raw_lock(void) { pthread_mutex_lock(&mu); }
static void chan_lock(void) { raw_lock(); }
static void finish(void) { jobs--; pthread_mutex_unlock(&mu); }
void done_locked(void) { chan_lock(); finish(); }
void done(void) {
    finish(); /*BAD*/
}
"""
    )
    assert unlock_findings(src) == [("done", line_of(src, "/*BAD*/"))]


# ----- the last run is reused only where an edit cannot change the facts ---------------------------

PLAIN = "int plain(int n) { return n + 1; }\n"
DONE = "void done(void) { jobs++; finish_locked(); }\n"


def contracts(src: str, store: ProjectionStore) -> LockContracts:
    p = Project()
    p.update_file("t.c", src)
    model = p.files["t.c"].model
    scope = make_scope(list(model.functions.values()), BUILTIN, model.globals, store)
    return lock_contracts(Projector(scope, store=store))


def test_an_edit_of_a_function_the_facts_never_read_reuses_them() -> None:
    store = ProjectionStore(Database(10**6))
    first = contracts(HEADER + FINISH + DONE + PLAIN, store)
    assert first.admitted_of("t.c:done") == {"mu"}
    again = contracts(HEADER + FINISH + DONE + "int plain(int n) { n *= 2; return n; }\n", store)
    assert again is first


def test_edits_that_change_the_facts_are_walked_again() -> None:
    edits = [
        DONE.replace("jobs++;", "pthread_mutex_lock(&mu);") + PLAIN,  # a function the facts read
        DONE + PLAIN.replace("return n + 1;", "finish_locked(); return n;"),  # new callees
        DONE + PLAIN.replace("return n + 1;", "pthread_mutex_lock(&mu); done(); return n;"),  # a locker
    ]
    for edit in edits:
        store = ProjectionStore(Database(10**6))
        before = contracts(HEADER + FINISH + DONE + PLAIN, store)
        src = HEADER + FINISH + edit
        got = contracts(src, store)
        assert got == contracts(src, ProjectionStore(Database(10**6))), edit
        assert got != before, edit
