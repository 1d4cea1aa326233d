"""Half-typed and malformed C never raises: every prefix and random splice of real code checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractors.api import Project

REAL = """#include <stdlib.h>
#define N 4
enum { A, B = 3, C };
struct s { char *buf; int n; };
static int count;
int work(struct s *x, int c) {
    char *p = malloc(N);
    int i, flag = 0;
    if (!p || c < 0) goto fail;
    for (i = 0; i < c; i++) {
        switch (i % 3) { case 0: p[i % N] = 1; break; case 1: flag = 1; default: continue; }
        while (flag && x->n--) { x->buf = p; }
    }
    do { count++; } while (count < B);
    x->buf = c > 2 ? p : NULL;
    if (flag) { free(p); return 1; }
    return 0;
fail:
    free(p);
    exit(1);
}
"""


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=len(REAL)))
def test_every_prefix_checks(cut: int) -> None:
    p = Project()
    p.update_file("x.c", REAL[:cut])
    for f in p.check()["x.c"]:
        assert f.witness and f.location.path == "x.c"
    assert p.counters["model_errors"] == 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(REAL)), st.integers(0, len(REAL)), st.text(max_size=5)), max_size=4)
)
def test_random_splices_check(edits: list[tuple[int, int, str]]) -> None:
    text = REAL
    for a, b, ins in edits:
        a, b = sorted((min(a, len(text)), min(b, len(text))))
        text = text[:a] + ins + text[b:]
    p = Project()
    p.update_file("x.c", text)
    p.check(interprocedural=False)
    p.check()
    assert p.counters["model_errors"] == 0 and p.counters["extract_errors"] == 0


def test_deep_nesting_does_not_blow_the_stack() -> None:
    depth = 300
    body = "if (c) {" * depth + "c--;" + "}" * depth
    p = Project()
    p.update_file("deep.c", f"void f(int c) {{ char *q = malloc(1); {body} free(q); }}")
    assert "f" in p.files["deep.c"].model.functions
    assert p.check()["deep.c"] == []
    p.update_file("deeper.c", "void f(int c) {" + "if (c) {" * 3000 + "}" * 3000 + "}\nvoid g(void) {}\n")
    assert "g" in p.files["deeper.c"].model.functions  # too deep to read: skipped, the rest still works
    assert "f" not in p.files["deeper.c"].model.functions and p.counters["extract_errors"] == 1
    assert "RecursionError" in p.errors[-1]


@pytest.mark.slow
def test_long_else_if_chain_is_modelled() -> None:
    """Generated code has ``else if`` chains thousands long; the CFG walks them as a loop, so the
    function is modelled (its leak found) instead of being skipped at the recursion limit."""
    arms = "\n".join(f"    else if (x == {i}) {{ x = {i + 1}; }}" for i in range(1, 3000))
    head = "#include <stdlib.h>\nint f(int x) {\n    char *p = malloc(8);\n    if (x == 0) { x = 1; }\n"
    text = head + arms + "\n    return x;\n}\n"
    p = Project()
    p.update_file("chain.c", text)
    assert p.counters["extract_errors"] == 0, p.errors
    assert any(f.rule_id == "memory-leak" for f in p.check()["chain.c"])
