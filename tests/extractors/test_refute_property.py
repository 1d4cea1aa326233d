"""Property: on random small programs with integer flags, refutation keeps exactly the findings that
some run has, and the witness shown of each can be replayed.

The programs free one buffer under tests of two integer parameters and a local computed from them;
a small interpreter runs every input in a range that contains a solution of every satisfiable
combination of the tests (constants stay within +-3, so every bound is within +-7), and records
each run's sequence of frees.  A double free is real when some run frees twice, a leak when some
run frees nothing; the double free's witness is replayed by finding a run whose first two frees are
the lines the witness shows, in that order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.api import Finding, Project

VARS = ("a", "b", "x")
OPS = ("<", "<=", ">", ">=", "==", "!=")


@dataclass(frozen=True)
class Cond:
    var: str
    op: str
    k: int

    def c(self) -> str:
        return f"{self.var} {self.op} {self.k}"

    def holds(self, env: Mapping[str, float]) -> bool:
        v = env[self.var]
        return {"<": v < self.k, "<=": v <= self.k, ">": v > self.k, ">=": v >= self.k,
                "==": v == self.k, "!=": v != self.k}[self.op]


@dataclass(frozen=True)
class Stmt:
    kind: str  # "free": if (test) free(p); "set": x = src + k; "setif": if (test) x = k; "step": x += k
    test: Cond | None = None
    src: str = ""
    k: int = 0


conds = st.builds(Cond, st.sampled_from(VARS), st.sampled_from(OPS), st.integers(-3, 3))
stmts = st.one_of(
    st.builds(Stmt, st.just("free"), conds),
    st.builds(Stmt, st.just("set"), st.none(), st.sampled_from(("a", "b")), st.integers(-3, 3)),
    st.builds(Stmt, st.just("setif"), conds, st.just(""), st.integers(-3, 3)),
    st.builds(Stmt, st.just("step"), st.none(), st.just("x"), st.integers(-3, 3)),
)


def program(body: list[Stmt]) -> tuple[str, dict[int, int]]:
    """The C text, and the line of each free statement by its index in ``body``."""
    lines = [
        "#include <stdlib.h>",
        "void f(int a, int b) {",
        "    int x = 0;",
        "    char *p = malloc(8);",
        "    if (!p)",
        "        return;",
    ]
    free_line: dict[int, int] = {}
    for i, s in enumerate(body):
        if s.kind == "free":
            assert s.test is not None
            free_line[i] = len(lines)
            lines.append(f"    if ({s.test.c()}) free(p);")
        elif s.kind == "set":
            sign = "+" if s.k >= 0 else "-"
            lines.append(f"    x = {s.src} {sign} {abs(s.k)};")
        elif s.kind == "step":
            lines.append(f"    x += {s.k};")
        else:
            assert s.test is not None
            lines.append(f"    if ({s.test.c()}) x = {s.k};")
    lines.append("}")
    return "\n".join(lines) + "\n", free_line


def runs(body: list[Stmt], free_line: dict[int, int]) -> list[tuple[int, ...]]:
    """The lines each run frees at, for every input in range."""
    out = []
    for a, b in itertools.product(range(-12, 13), repeat=2):
        env = {"a": a, "b": b, "x": 0}
        freed: list[int] = []
        for i, s in enumerate(body):
            if s.kind == "set":
                env["x"] = env[s.src] + s.k
            elif s.kind == "step":
                env["x"] += s.k
            elif s.test is not None and s.test.holds(env):
                if s.kind == "free":
                    freed.append(free_line[i])
                else:
                    env["x"] = s.k
        out.append(tuple(freed))
    return out


def checked(src: str) -> tuple[list[Finding], list[Finding]]:
    """The double frees and the leaks ctlsp finds in ``src``."""
    p = Project()
    p.update_file("t.c", src)
    found = p.check()["t.c"]
    return [f for f in found if f.rule_id == "double-free"], [f for f in found if f.rule_id == "memory-leak"]


def assert_exactly_the_runs(
    src: str, double: list[Finding], leak: list[Finding], every: Iterable[tuple[int, ...]]
) -> None:
    """A double free reported exactly when some run frees twice, a leak exactly when some run frees
    nothing, and each double free's witness replayed by a run whose first two frees it shows."""
    every = list(every)
    assert bool(double) == any(len(r) >= 2 for r in every), src
    assert bool(leak) == any(not r for r in every), src
    for f in double:
        shown = [w.location.start_line for w in f.witness if "freed here" in w.message]
        assert len(shown) == 2, f.witness
        assert any(r[:2] == tuple(shown) for r in every), (src, shown)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(stmts, min_size=2, max_size=5))
def test_reported_findings_are_exactly_the_feasible_ones(body: list[Stmt]) -> None:
    src, free_line = program(body)
    every = runs(body, free_line)
    double, leak = checked(src)
    assert_exactly_the_runs(src, double, leak, every)
    for f in leak:
        # replayed: it frees nothing and reaches the return, as the runs that free nothing do
        assert not any("freed here" in w.message for w in f.witness), f.witness
        assert f.witness[-1].kind == "end" and any(not r for r in every), (src, f.witness)


# ----- the same through fields: tests of s->a and s->b, and calls that may change them --------------

FIELDS = ("a", "b")
field_conds = st.builds(Cond, st.sampled_from(FIELDS), st.sampled_from(OPS), st.integers(-3, 3))
field_stmts = st.one_of(
    st.builds(Stmt, st.just("free"), field_conds),
    st.builds(Stmt, st.just("touch")),  # touch(s): an unknown function, which may set both fields
    st.builds(Stmt, st.just("len")),  # n += strlen(name): a call that stores nothing
)
# a field's type is not known to the path condition, so a field may be a float: the runs' fields
# take every half in range (between two integers a test tells apart) as well
FIELD_RANGE = [k / 2 for k in range(-10, 11)]


def field_program(body: list[Stmt]) -> tuple[str, dict[int, int]]:
    lines = [
        "#include <stdlib.h>",
        "#include <string.h>",
        "struct st { int a; int b; };",
        "void touch(struct st *s);",
        "int f(struct st *s, const char *name) {",
        "    int n = 0;",
        "    char *p = malloc(8);",
        "    if (!p)",
        "        return 0;",
    ]
    free_line: dict[int, int] = {}
    for i, s in enumerate(body):
        if s.kind == "free":
            assert s.test is not None
            free_line[i] = len(lines)
            lines.append(f"    if (s->{s.test.c()}) free(p);")
        elif s.kind == "touch":
            lines.append("    touch(s);")
        else:
            lines.append("    n += strlen(name);")
    lines += ["    return n;", "}"]
    return "\n".join(lines) + "\n", free_line


def field_runs(body: list[Stmt], free_line: dict[int, int]) -> set[tuple[int, ...]]:
    """The lines the runs free at: the fields start at any value in range, and each touch(s) may
    give them any other."""
    start = itertools.product(FIELD_RANGE, repeat=2)
    states: set[tuple[tuple[int, ...], float, float]] = {((), a, b) for a, b in start}
    for i, s in enumerate(body):
        if s.kind == "touch":
            states = {(freed, a, b) for freed, _, _ in states for a, b in itertools.product(FIELD_RANGE, repeat=2)}
        elif s.kind == "free":
            assert s.test is not None
            test = s.test
            states = {
                ((*freed, free_line[i]) if test.holds({"a": a, "b": b}) else freed, a, b) for freed, a, b in states
            }
    return {freed for freed, _, _ in states}


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(field_stmts, min_size=2, max_size=5))
def test_fields_read_twice_with_nothing_between_are_one_value(body: list[Stmt]) -> None:
    """A field read by two tests holds one value unless a call that may store to it (an unknown
    function, not strlen nor free) runs between: the findings are exactly those some run has,
    where the tests compare with literals that are not negative."""
    src, free_line = field_program(body)
    every = field_runs(body, free_line)
    double, leak = checked(src)
    if not all(s.test is None or s.test.k >= 0 for s in body):
        # a negative literal decides nothing of a field whose type is not known (an unsigned one's
        # s->a < 0 is false): what runs is still reported, but a finding may stay that none has
        assert bool(double) >= any(len(r) >= 2 for r in every), src
        assert bool(leak) >= any(not r for r in every), src
        return
    assert_exactly_the_runs(src, double, leak, every)
