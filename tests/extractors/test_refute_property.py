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
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.api import Project

VARS = ("a", "b", "x")
OPS = ("<", "<=", ">", ">=", "==", "!=")


@dataclass(frozen=True)
class Cond:
    var: str
    op: str
    k: int

    def c(self) -> str:
        return f"{self.var} {self.op} {self.k}"

    def holds(self, env: dict[str, int]) -> bool:
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


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(stmts, min_size=2, max_size=5))
def test_reported_findings_are_exactly_the_feasible_ones(body: list[Stmt]) -> None:
    src, free_line = program(body)
    p = Project()
    p.update_file("t.c", src)
    found = p.check()["t.c"]
    every = runs(body, free_line)
    double = [f for f in found if f.rule_id == "double-free"]
    leak = [f for f in found if f.rule_id == "memory-leak"]
    assert bool(double) == any(len(r) >= 2 for r in every), src
    assert bool(leak) == any(not r for r in every), src
    for f in double:
        shown = [w.location.start_line for w in f.witness if "freed here" in w.message]
        assert len(shown) == 2, f.witness
        assert any(r[:2] == tuple(shown) for r in every), (src, shown)
    for f in leak:
        # replayed: it frees nothing and reaches the return, as the runs that free nothing do
        assert not any("freed here" in w.message for w in f.witness), f.witness
        assert f.witness[-1].kind == "end" and any(not r for r in every), (src, f.witness)
