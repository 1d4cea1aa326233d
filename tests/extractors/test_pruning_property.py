"""Property: with flags and repeated tests of the same parameter, the verdicts are path-exact.

Random programs branch on two unknown parameters and on two flag locals that are only assigned
constants; a concrete run for every parameter value says whether some run frees ``p`` twice or
never.  The pruned model must agree exactly: no finding on a path that cannot run, none missed.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.extractors.helpers import check_src, of_rule

CONDS = ["c", "!c", "d", "f1", "!f1", "f2", "f1 == 1", "f2 != 0"]
Stmt = tuple[str, str, int]  # (kind, condition, constant)

stmt = st.tuples(
    st.sampled_from(["set1", "set2", "free", "free_if"]), st.sampled_from(CONDS), st.integers(0, 1)
)


def render(prog: list[Stmt]) -> str:
    body = []
    for kind, cond, k in prog:
        if kind == "set1":
            body.append(f"    if ({cond}) {{ f1 = {k}; }}")
        elif kind == "set2":
            body.append(f"    f2 = {k};")
        elif kind == "free":
            body.append("    free(p);")
        else:
            body.append(f"    if ({cond}) free(p);")
    return (
        "void f(int c, int d) {\n    char *p = malloc(4);\n    int f1 = 0, f2 = 0;\n"
        + "\n".join(body)
        + "\n}\n"
    )


def evaluate(cond: str, env: dict[str, int]) -> bool:
    if cond.startswith("!"):
        return not env[cond[1:]]
    if " == " in cond:
        name, value = cond.split(" == ")
        return env[name] == int(value)
    if " != " in cond:
        name, value = cond.split(" != ")
        return env[name] != int(value)
    return bool(env[cond])


def frees(prog: list[Stmt], c: int, d: int) -> int:
    env = {"c": c, "d": d, "f1": 0, "f2": 0}
    n = 0
    for kind, cond, k in prog:
        if kind == "set1" and evaluate(cond, env):
            env["f1"] = k
        elif kind == "set2":
            env["f2"] = k
        elif kind == "free" or (kind == "free_if" and evaluate(cond, env)):
            n += 1
    return n


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.lists(stmt, min_size=1, max_size=7))
def test_flag_pruning_is_exact(prog: list[Stmt]) -> None:
    counts = [frees(prog, c, d) for c in (0, 1) for d in (0, 1)]
    found = check_src(render(prog))
    assert bool(of_rule(found, "double-free")) == any(n >= 2 for n in counts)
    assert bool(of_rule(found, "memory-leak")) == any(n == 0 for n in counts)


def test_generator_reaches_both_verdicts() -> None:
    exclusive = [("free_if", "c", 0), ("free_if", "!c", 0)]
    assert not of_rule(check_src(render(exclusive)), "double-free")
    assert not of_rule(check_src(render(exclusive)), "memory-leak")
    flagged = [("set1", "d", 1), ("free_if", "f1 == 1", 0), ("free_if", "d", 0)]
    assert of_rule(check_src(render(flagged)), "double-free")
