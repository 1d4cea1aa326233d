"""Which of a file's functions never return (``FileScope.noreturn``): their callers' paths end at
each call, as at ``exit``.  A function counts when one of its ways cannot complete: a call to one
that never returns before any ``return``, an ``if``/``else`` whose two branches end so, through
each other to a fixpoint; anything that may leave the path (a ``return`` first, a ``goto``, a
macro of the file whose body returns) keeps it returning."""

from __future__ import annotations

from extractors.api import Project
from extractors.items import file_items

SRC = """\
#include <stdlib.h>
#include <setjmp.h>
void log_it(const char *m);
extern jmp_buf env;
#define DIE(code) exit(code)
#define THROW() longjmp(env, 1)
#define BAIL(x) do { if (x) return; } while (0)
void dead_return(void) { log_it("x"); exit(1); return; }
void returns_first(int x) { if (x) return; exit(1); }
int chained(void) { return dead_return(), 0; }
int tail_call(void) { log_it("y"); return raise_both(2); }
int raise_both(int x) { if (x) THROW(); else abort(); return 0; }
void one_branch(int x) { if (x) abort(); }
void after_switch(int x) { switch (x) { case 1: log_it("one"); break; } abort(); }
void loop_returns(int x) { while (x) { if (x > 2) return; x--; } abort(); }
void jumps(void) { goto out; out: abort(); }
void by_macro(void) { DIE(1); }
void hidden_return(int x) { BAIL(x); abort(); }
void calls_unknown_macro(void) { CLEANUP(); abort(); }
void chain(int n) {
    if (n == 0) log_it("0");
    else if (n == 1) abort();
    else if (n == 2) by_macro();
    else exit(3);
}
void full_chain(int n) {
    if (n == 0) abort();
    else if (n == 1) by_macro();
    else exit(3);
}
"""


def _noreturn(src: str) -> frozenset[str]:
    p = Project()
    p.update_file("n.c", src)
    return p.db.get(file_items, "n.c").scope.noreturn


def test_ways_that_never_return() -> None:
    got = _noreturn(SRC)
    assert {"dead_return", "raise_both", "tail_call", "after_switch", "by_macro", "full_chain"} <= got
    assert not {
        "returns_first",
        "chained",  # a comma expression is no call statement
        "one_branch",
        "loop_returns",
        "jumps",
        "hidden_return",
        "calls_unknown_macro",  # a capitalised call no define of the file explains may return
        "chain",
    } & got


def test_a_caller_path_ends_at_a_helper_that_never_returns() -> None:
    """The fixpoint goes through callers: an edit that lets the innermost helper return frees
    them all again."""
    src = SRC + "void outer(void) { tail_call(); }\n"
    assert "outer" in _noreturn(src)
    edited = src.replace("if (x) THROW(); else abort();", "if (x) THROW();")
    assert not {"raise_both", "tail_call", "outer"} & _noreturn(edited)


def test_a_helper_that_starts_to_return_rebuilds_its_callers_only() -> None:
    """Whether a helper never returns is part of the models of the functions that call it, and of
    no other: an edit that lets ``die`` return rebuilds ``die`` and its caller, not the 30 others."""
    others = "".join(f"int g{i}(int x)\n{{\n    return x + {i};\n}}\n" for i in range(30))
    text = (
        "#include <stdlib.h>\n"
        "void die(const char *m)\n{\n    (void)m;\n    exit(1);\n}\n"
        "int use(int *p)\n{\n    if (!p)\n        die(\"no p\");\n    return *p;\n}\n" + others
    )
    p = Project()
    p.update_file("a.c", text)
    assert [f.rule_id for f in p.check()["a.c"] if "null" in f.rule_id] == []
    built = p.db.built
    returning = text.replace("    exit(1);\n", "    (void)0;\n")
    p.update_file("a.c", returning)
    found = p.check()["a.c"]
    assert p.db.built - built == 2  # die's model and use's
    fresh = Project()
    fresh.update_file("a.c", returning)
    assert found == fresh.check()["a.c"]
    assert [f.rule_id for f in found if "null" in f.rule_id] != []


def test_a_helper_called_through_a_statement_macro_still_ends_the_path() -> None:
    src = """\
#include <stdlib.h>
void fatal(const char *m)
{
    (void)m;
    exit(1);
}
#define CHECK(x) do { if (!(x)) fatal("bad"); } while (0)
int use(int *p)
{
    CHECK(p != NULL);
    return *p;
}
"""
    p = Project()
    p.update_file("a.c", src)
    assert [f.rule_id for f in p.check()["a.c"] if "null" in f.rule_id] == []
