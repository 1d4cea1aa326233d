"""Property: a Project that is edited again and again finds exactly what a fresh one finds.

The incremental path reuses projections across edits (validated against what they asked about their
callees), keys results by the model as the rule's atoms see it, and names kept nodes by rank. Each of
those is an early cutoff that is only right if nothing it skips could have changed, so the oracle
here is a from-scratch Project on the same text: same findings, same witnesses, same components.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import extractors.checking as checking
from checker import check
from checker.model import RSM
from checker.overapprox import may_hold
from extractors.api import Project

FUNCS = 4
STMTS = [
    "free(p);",
    "p[0] = 1;",
    "if (!p) return 0;",
    "p = malloc(8);",
    "n = n + 1;",
    "(void)0;",
    "g = p;",
    "g[0] = 2;",
    "free(g);",
    "q = p;",
    "int t; t = n;",
]


def calls(k: int) -> list[str]:
    return [f"f{j}(p, n);" for j in range(FUNCS) if j != k] + [f"f{k}(q, n - 1);", f"f{(k + 1) % FUNCS}(g, n);"]


def body_of(k: int):  # type: ignore[no-untyped-def]
    stmt = st.sampled_from(STMTS + calls(k))
    guarded = st.tuples(stmt, st.booleans()).map(lambda sb: f"if (n > 2) {{ {sb[0]} }}" if sb[1] else sb[0])
    return st.lists(guarded, min_size=0, max_size=5)


def render(bodies: list[list[str]]) -> str:
    out = ["#include <stdlib.h>", "char *g;"]
    out += [f"int f{k}(char *p, int n);" for k in range(FUNCS)]
    for k, body in enumerate(bodies):
        out += [f"int f{k}(char *p, int n)", "{", "    char *q = 0;"]
        out += [f"    {s}" for s in body]
        out += ["    return n;", "}", ""]
    return "\n".join(out)


def snapshot(project: Project) -> list[tuple[object, ...]]:
    found = project.check(["t.c"], interprocedural=False)["t.c"]
    return [(f.rule_id, f.location, f.message, tuple((w.location, w.message) for w in f.witness)) for f in found]


def same_as_fresh(incremental: Project, text: str) -> tuple[Any, Any]:
    """Assert that the edited project finds what a fresh one of ``text`` finds, with the same deep
    and positional keys; the two projectors."""
    fresh = Project()
    fresh.update_file("t.c", text)
    assert snapshot(incremental) == snapshot(fresh)
    inc_proj = incremental._projector(incremental.files)
    new_proj = fresh._projector(fresh.files)
    assert (inc_proj.deep_keys, inc_proj.positional_keys) == (new_proj.deep_keys, new_proj.positional_keys)
    return inc_proj, new_proj


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_edited_project_matches_fresh_project(data: st.DataObject) -> None:
    bodies = [data.draw(body_of(k)) for k in range(FUNCS)]
    incremental = Project()
    incremental.update_file("t.c", render(bodies))
    snapshot(incremental)
    for _ in range(data.draw(st.integers(1, 5))):
        k = data.draw(st.integers(0, FUNCS - 1))
        bodies[k] = data.draw(body_of(k))
        text = render(bodies)
        incremental.update_file("t.c", text)
        inc_proj, new_proj = same_as_fresh(incremental, text)
        # the edited project may have projected more (to confirm that values no rule applies to
        # stay so); what both projected must be the same
        both = inc_proj.comps.keys() & new_proj.comps.keys()
        assert {n: c and c.digest for n, c in inc_proj.comps.items() if n in both} == {
            n: c and c.digest for n, c in new_proj.comps.items() if n in both
        }


def test_unrelated_edit_reuses_callers_projection_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statements inserted in a callee that do not touch its parameter keep the callee's projection
    on that parameter (equal content, ranked node names), so the caller's model is unchanged and
    none of its rules re-run."""
    callee = "void helper(char *p, int n)\n{\n    int x = n;\n    if (n)\n        free(p);\n    x = x + 1;\n}\n"
    caller = "int user(int n)\n{\n    char *p = malloc(8);\n    helper(p, n);\n    free(p);\n    return 0;\n}\n"
    project = Project()
    project.update_file("t.c", "#include <stdlib.h>\n" + callee + caller)
    before = project.check(["t.c"], interprocedural=False)["t.c"]
    assert "double-free" in {f.rule_id for f in before}
    comp_before = project._projector(project.files).comps["t.c:helper@0"]
    checked: list[str] = []
    bounded: list[str] = []

    def spy(rsm: RSM, *args: Any, **kwargs: Any) -> Any:
        checked.append(rsm.initial_component)
        return check(rsm, *args, **kwargs)

    def bound_spy(rsm: RSM, *args: Any) -> bool:
        bounded.append(rsm.initial_component)
        return may_hold(rsm, *args)

    monkeypatch.setattr(checking, "check", spy)
    monkeypatch.setattr(checking, "may_hold", bound_spy)
    edited = callee.replace("    x = x + 1;\n", "    x = x + 1;\n    x = x * 2;\n    (void)x;\n")
    project.update_file("t.c", "#include <stdlib.h>\n" + edited + caller)
    after = project.check(["t.c"], interprocedural=False)["t.c"]
    assert [f.message for f in after if f.function == "user"] == [f.message for f in before if f.function == "user"]
    assert project._projector(project.files).comps["t.c:helper@0"] == comp_before
    # the edited value's rules are looked at again (the bound, then the model checks it leaves)
    assert any("helper@x" in root for root in bounded), bounded
    assert all("helper@x" in root for root in checked), checked


def test_partial_results_grow_to_the_full_result() -> None:
    """A long check reports the findings of the functions done so far; each report is a prefix of
    the next (functions are checked top to bottom) and the last one leads up to the full result."""
    leaky = "void leak_{k}(int n)\n{{\n    char *p = malloc(n);\n    if (n)\n        p[0] = 1;\n}}\n"
    text = "#include <stdlib.h>\n" + "\n".join(leaky.format(k=k) for k in range(6))
    project = Project()
    project.update_file("t.c", text)
    reports: list[list[str]] = []
    full = project.check(
        ["t.c"],
        interprocedural=False,
        partial=lambda _p, fs: reports.append([f.function for f in fs]),
        partial_every=0.0,
    )
    final = [f.function for f in full["t.c"]]
    assert len(reports) == 5  # before each function but the first (nothing to show before it)
    assert all(a == b[: len(a)] for a, b in zip(reports, reports[1:] + [final], strict=True))
    assert sorted(set(final)) == [f"leak_{k}" for k in range(6)]
    quiet: list[object] = []
    fresh = Project()
    fresh.update_file("t.c", text)
    assert fresh.check(["t.c"], partial=lambda *a: quiet.append(a), partial_every=3600.0)["t.c"]
    assert quiet == []  # a check shorter than the interval reports only its result


def test_partial_results_are_sent_only_when_they_grew() -> None:
    """Functions without findings between the leaky ones add nothing: no report repeats the last."""
    leaky = "void leak_{k}(int n)\n{{\n    char *p = malloc(n);\n    if (n)\n        p[0] = 1;\n}}\n"
    clean = "int clean_{k}(int n)\n{{\n    return n + {k};\n}}\n"
    text = "#include <stdlib.h>\n" + "\n".join(leaky.format(k=k) + clean.format(k=k) * 3 for k in range(4))
    project = Project()
    project.update_file("t.c", text)
    sizes: list[int] = []
    project.check(["t.c"], interprocedural=False, partial=lambda _p, fs: sizes.append(len(fs)), partial_every=0.0)
    assert sizes == [2, 4, 6, 8], sizes  # once after each leaky function, never after a clean one


def test_knowledge_from_cycle_resolution_is_not_reused_after_an_edit() -> None:
    """Found by the property above: with f1 calling back into f0, the check of f0@g ends with a
    cycle resolution that makes 'no double free after f3 returns' false at f3's exit; stored as a
    fact about f3@0, it hid the double free that f1's new body creates after the edit."""
    before = [["f2(p, n);", "f1(g, n);"], ["free(p);", "f0(p, n);"], ["f3(g, n);", "f3(g, n);"], ["p = malloc(8);"]]
    after = [before[0], ["free(p);", "free(p);"], before[2], before[3]]
    incremental = Project()
    incremental.update_file("t.c", render(before))
    snapshot(incremental)
    incremental.update_file("t.c", render(after))
    fresh = Project()
    fresh.update_file("t.c", render(after))
    assert "'g' may be freed twice" in [f[2] for f in snapshot(fresh)]
    assert snapshot(incremental) == snapshot(fresh)


def test_function_restored_at_another_line_reports_its_new_lines() -> None:
    """Found by the property above: a function edited and then restored to its old text, after
    an edit above it moved it, is rebuilt with a new base line and no shift; results memoised by
    (text, shift) then showed the old lines."""
    bodies = [["free(p);"], [], [], ["free(p);", "if (n > 2) { free(p); }", "p = malloc(8);"]]
    restored = list(bodies[3])
    incremental = Project()
    incremental.update_file("t.c", render(bodies))
    snapshot(incremental)
    for k, body in ((0, []), (3, []), (3, restored)):
        bodies[k] = body
        incremental.update_file("t.c", render(bodies))
        snapshot(incremental)
    fresh = Project()
    fresh.update_file("t.c", render(bodies))
    assert snapshot(fresh) and snapshot(incremental) == snapshot(fresh)


def test_an_edit_of_a_return_the_value_does_not_mention_moves_the_witness_end() -> None:
    """A value's findings are kept while every projection they read keeps its content and the
    places of the nodes its witnesses can name; a return is such a node even where it does not
    mention the value (the leak's witness ends there), so widening it must show the new range."""
    text = (
        '#include <stdio.h>\nint leak(int n)\n{\n    FILE *f = fopen("x", "r");\n'
        "    if (!f)\n        return 0;\n    return n;\n}\n"
    )
    incremental = Project()
    incremental.update_file("t.c", text)
    before = snapshot(incremental)
    assert [rule for rule, *_ in before] == ["resource-leak"], before
    edited = text.replace("return n;", "return n + 1;")
    incremental.update_file("t.c", edited)
    fresh = Project()
    fresh.update_file("t.c", edited)
    assert snapshot(incremental) == snapshot(fresh) != before


def test_a_value_no_rule_applies_to_learns_what_its_callees_start_to_reach() -> None:
    """A value no rule applies to is kept without projecting it again while what changed adds no
    atom that lets a rule apply; the callees the change brings into its reach must then be watched
    too, or a later edit there (``g`` starts freeing twice what ``user`` hands down) goes unseen."""
    lines = [
        "#include <stdlib.h>",
        "void g(char *p) { (void)p; }",
        "void f(char *p) { (void)p; }",
        "int user(char *q) { f(q); return 0; }",
    ]
    incremental = Project()
    steps = [lines, [*lines[:2], "void f(char *p) { g(p); }", lines[3]]]
    steps.append([steps[1][0], "void g(char *p) { free(p); free(p); }", *steps[1][2:]])
    for step in steps:
        text = "\n".join(step) + "\n"
        incremental.update_file("t.c", text)
        got = snapshot(incremental)
    fresh = Project()
    fresh.update_file("t.c", text)
    assert got == snapshot(fresh)
    assert {f.function for f in fresh.check(["t.c"], interprocedural=False)["t.c"]} >= {"g", "user"}
    assert incremental.counters["values_quiet"] > 0


def test_quiet_values_handed_round_a_recursive_cycle_are_kept_without_projecting_it() -> None:
    """An edit that adds a read of a value handed round a recursive cycle keeps every value quiet
    by what the edited function itself does to it, since its calls still go only where they went:
    the changed function is not projected again, which on a cycle validates the whole cycle."""
    text = (
        "int b(int *p, int n);\nint a(int *p, int n) { return n ? b(p, n - 1) : 0; }\n"
        "int b(int *p, int n) { return n ? a(p, n - 1) : 0; }\nint user(int *q) { return a(q, 3); }\n"
    )
    edited = text.replace("{ return n ? b", "{ (void)p; return n ? b")
    incremental = Project()
    incremental.update_file("t.c", text)
    assert snapshot(incremental) == []
    projected, quiet = len(incremental.db.projections.components), incremental.counters["values_quiet"]
    incremental.update_file("t.c", edited)
    assert snapshot(incremental) == []
    assert incremental.counters["values_quiet"] - quiet >= 2  # a's p and user's q
    assert len(incremental.db.projections.components) == projected


def test_a_callee_seen_only_in_part_before_an_edit_is_read_whole_after_it() -> None:
    """f3's value p was quiet while f2 gave its p another block before handing it to f0 (the view
    of f2 that f3 reads ends there, so f0's free was never among f3's atoms, though f0's
    projection was read); once f2 hands p on untouched, the free reaches f3's p: an edit of f2
    alone must wake f3's record, as a fresh project finds."""

    def text(f0: str, f2: str) -> str:
        return (
            "#include <stdlib.h>\n"
            f"void f0(char *p) {{ {f0} }}\n"
            f"void f2(char *p) {{ {f2} }}\n"
            "void f3(char *p) { f2(p); p[0] = 1; }\n"
        )

    edited = Project()
    for f0, f2 in [("", "p = malloc(8); f0(p);"), ("free(p);", "p = malloc(8); f0(p);"), ("free(p);", "f0(p);")]:
        edited.update_file("t.c", text(f0, f2))
        fresh = Project()
        fresh.update_file("t.c", text(f0, f2))
        assert snapshot(edited) == snapshot(fresh)
    assert any(f[0] == "use-after-free" for f in snapshot(edited))


def _checked_then_walks_counted(chain: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> tuple[Project, list[int]]:
    """A project of ``chain``, checked, and a list that grows by one at every whole Merkle walk
    from now on (of any projector: a fresh project's too)."""
    from extractors.projection import Projector

    incremental = Project()
    incremental.update_file("t.c", render(chain))
    snapshot(incremental)
    full_walks: list[int] = []
    walk = Projector._merkle_walk

    def counted(self: Projector, *args: Any) -> Any:
        full_walks.append(1)
        return walk(self, *args)

    monkeypatch.setattr(Projector, "_merkle_walk", counted)
    return incremental, full_walks


def test_an_edit_that_keeps_every_call_hashes_again_only_what_reaches_the_edited_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chain = [["p = malloc(8);", "f1(p, n);"], ["f2(p, n);"], ["p[0] = 1;"], ["n = n + 1;"]]
    incremental, full_walks = _checked_then_walks_counted(chain, monkeypatch)
    for body in (["p[0] = 1;", "(void)0;"], ["free(p);"], ["p[0] = 1;"]):
        chain[2] = body  # f2, which f1 and so f0 call; f3 is reached by none of them
        text = render(chain)
        incremental.update_file("t.c", text)
        same_as_fresh(incremental, text)
    assert len(full_walks) == 3  # the fresh projects' only: each edit kept the calls


def test_an_edit_that_changes_calls_but_closes_no_cycle_hashes_again_without_a_full_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """f1 calls f2; f4 and f5 call each other (a cycle f0 reaches): f1 dropping its call, calling
    f2 again (a part before its own), then f3 (whose part the first walk put after f1's: the parts
    are ordered again) keep the parts; f3 calling f0 closes a cycle and needs a full walk. Each
    time the keys and findings are a fresh project's."""
    chain = [
        ["p = malloc(8);", "f1(p, n);", "f4(p, n);"],
        ["f2(p, n);"],
        ["p[0] = 1;"],
        ["n = n + 1;"],
        ["if (n) f5(p, n - 1);"],
        ["if (n) f4(p, n - 1);", "free(p);"],
    ]
    incremental, full_walks = _checked_then_walks_counted(chain, monkeypatch)
    # each edit's fresh project walks once; the edited one only for the new cycle
    for body, walks in ((["(void)0;"], 1), (["f2(p, n);"], 2), (["f3(p, n);", "f2(p, n);"], 3)):
        chain[1] = body
        text = render(chain)
        incremental.update_file("t.c", text)
        same_as_fresh(incremental, text)
        assert len(full_walks) == walks
    chain[3] = ["f0(p, n);"]  # f3 -> f0 -> f1 -> f3: a new cycle
    text = render(chain)
    incremental.update_file("t.c", text)
    same_as_fresh(incremental, text)
    assert len(full_walks) == 5
