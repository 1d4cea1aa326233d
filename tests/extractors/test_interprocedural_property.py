"""Property: moving an operation on a pointer into a helper function never changes the verdicts.

The helper is a box into the helper's projection on its parameter, so a free or a dereference
inside it must count exactly like the same statement written inline.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.extractors.helpers import check_src

OPS = ["free(p);", "p[0] = 1;", "if (!p) return;", "p = malloc(8);", "return;", "p = 0;"]
HELPERS = {"free(p);": "h_free(p);", "p[0] = 1;": "h_use(p);"}
PRELUDE = "#include <stdlib.h>\nvoid h_free(char *q) { free(q); }\nvoid h_use(char *q) { q[0] = 1; }\n"
RULES = {"memory-leak", "double-free", "use-after-free", "null-dereference"}

step = st.tuples(st.sampled_from(OPS), st.booleans(), st.booleans())


def render(steps: list[tuple[str, bool, bool]], helpers: bool) -> str:
    body = []
    for op, guarded, boxed in steps:
        text = HELPERS.get(op, op) if helpers and boxed else op
        body.append(f"    if (c) {{ {text} }}" if guarded else f"    {text}")
    return PRELUDE + "void f(int c) {\n    char *p = malloc(8);\n" + "\n".join(body) + "\n    free(p);\n}\n"


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.lists(step, min_size=1, max_size=6))
def test_helpers_do_not_change_verdicts(steps: list[tuple[str, bool, bool]]) -> None:
    inline = {f.rule_id for f in check_src(render(steps, False)) if f.function == "f" and f.rule_id in RULES}
    boxed = {f.rule_id for f in check_src(render(steps, True)) if f.function == "f" and f.rule_id in RULES}
    assert inline == boxed


def test_property_inputs_do_produce_findings() -> None:
    """Guard against a vacuous property: the generator reaches every rule."""
    assert {f.rule_id for f in check_src(render([("free(p);", False, True)], True))} >= {"double-free"}
    uaf = render([("free(p);", False, True), ("p[0] = 1;", False, True)], True)
    assert "use-after-free" in {f.rule_id for f in check_src(uaf)}
    assert "null-dereference" in {f.rule_id for f in check_src(render([("p[0] = 1;", False, True)], True))}
    assert "memory-leak" in {f.rule_id for f in check_src(render([("return;", True, False)], True))}
