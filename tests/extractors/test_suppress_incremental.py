"""Suppression comments, deterministic output, stable fingerprints and incremental re-extraction."""

from __future__ import annotations

from extractors.api import Project
from tests.extractors.helpers import check_src, of_rule

LEAKY = "void f(int n) {\n    char *p = malloc(n);\n    if (p) p[0] = 1;\n}\n"


def test_suppression_on_line_or_line_before() -> None:
    assert of_rule(check_src(LEAKY), "memory-leak")
    same_line = LEAKY.replace("malloc(n);", "malloc(n); // ctlsp-ignore[memory-leak]")
    assert of_rule(check_src(same_line), "memory-leak") == []
    before = LEAKY.replace("    char *p", "    /* ctlsp-ignore */\n    char *p")
    assert of_rule(check_src(before), "memory-leak") == []
    other_rule = LEAKY.replace("malloc(n);", "malloc(n); // ctlsp-ignore[double-free]")
    assert of_rule(check_src(other_rule), "memory-leak")
    two_lines_before = LEAKY.replace("    char *p", "    // ctlsp-ignore\n\n    char *p")
    assert of_rule(check_src(two_lines_before), "memory-leak")


def test_findings_sorted_deterministic_and_fingerprints_survive_moves() -> None:
    src = LEAKY + "void g(char *q) { free(q); free(q); }\n"
    a = check_src(src)
    b = check_src(src)
    assert a == b and [f.location for f in a] == sorted(f.location for f in a)
    moved = check_src("/* header */\n\n\n" + src)
    assert [f.fingerprint for f in moved] == [f.fingerprint for f in a]
    assert [f.location.start_line for f in moved] == [f.location.start_line + 3 for f in a]
    assert len({f.fingerprint for f in a}) == len(a)


def test_unchanged_text_reextracts_nothing_and_edit_only_that_function() -> None:
    src = LEAKY + "void g(char *q) { free(q); }\nint h(int x) { return x + 1; }\n"
    p = Project()
    first = p.update_file("a.c", src)
    assert first.added == ("f", "g", "h")
    assert p.counters["functions_extracted"] == 0  # models are derived when asked for
    assert set(p.files["a.c"].model.functions) == {"f", "g", "h"}
    n = p.counters["functions_extracted"]
    assert n == 3
    again = p.update_file("a.c", src)
    assert (again.changed, again.added, again.removed) == ((), (), ())
    p.check()
    assert p.counters["functions_extracted"] == n
    edited = src.replace("return x + 1;", "return x + 2;")
    upd = p.update_file("a.c", edited)
    p.check()
    assert upd.changed == ("h",) and p.counters["functions_extracted"] == n + 1
    upd = p.update_file("a.c", "\n\n" + edited.replace("int h(int x) { return x + 2; }\n", ""))
    assert upd.removed == ("h",)
    assert set(p.files["a.c"].model.functions) == {"f", "g"}
    assert p.counters["functions_extracted"] == n + 1  # f and g moved down two rows: placed, not rebuilt


def test_checks_are_reused_until_inputs_change() -> None:
    p = Project()
    p.update_file("a.c", LEAKY + "void g(char *q) { free(q); }\n")
    first = p.check()
    run = p.counters["checks_run"]
    assert run > 0
    assert p.check() == first and p.counters["checks_run"] == run
    assert p.counters["files_reused"] == 1
    p.update_file("a.c", "\n\n" + LEAKY + "void g(char *q) { free(q); }\n")  # moved, not changed
    moved = p.check()
    # findings are position-free until placed: moving the functions re-checks and re-reads nothing
    assert p.counters["checks_run"] == run and p.counters["files_reused"] == 2
    assert [f.location.start_line for f in moved["a.c"]] == [f.location.start_line + 2 for f in first["a.c"]]
    assert [[w.location.start_line for w in f.witness] for f in moved["a.c"]] == [
        [w.location.start_line + 2 for w in f.witness] for f in first["a.c"]
    ]
    p.update_file("a.c", LEAKY + "void g(char *q) { free(q); free(q); }\n")
    p.check()
    assert p.counters["checks_run"] > run


def test_shared_cache_between_projects() -> None:
    cache: dict[str, bytes] = {}
    p1 = Project(cache=cache)
    p1.update_file("a.c", LEAKY)
    r1 = p1.check()
    p2 = Project(cache=cache)
    p2.update_file("a.c", LEAKY)
    assert p2.check() == r1 and p2.counters["checks_run"] == 0


def test_remove_file_and_function_at() -> None:
    p = Project()
    p.update_file("a.c", LEAKY + "\nvoid g(void) {\n}\n")
    assert (
        p.function_at("a.c", 1) == "f" and p.function_at("a.c", 6) == "g" and p.function_at("a.c", 4) is None
    )
    p.remove_file("a.c")
    assert p.check() == {} and p.function_at("a.c", 1) is None
    assert p.check(["a.c"]) == {"a.c": []}


def test_edit_rechecks_only_the_edited_function_and_its_callers() -> None:
    src = (
        "void release(char *q) { free(q); }\n"
        "void a(int n) { char *p = malloc(n); if (p) release(p); }\n"
        "void b(int n) { char *p = malloc(n); if (p) p[0] = 1; free(p); }\n"
        "int c(int x) { int y = x; return y; }\n"
    )
    p = Project()
    p.update_file("a.c", src)
    p.check(interprocedural=False)
    reused = p.counters["functions_check_reused"]
    p.update_file("a.c", src.replace("free(q);", "if (q) free(q);"))
    found = p.check(interprocedural=False)["a.c"]
    assert found == []
    assert p.counters["functions_check_reused"] == reused + 2  # b and c; release and its caller a re-run


def test_damaged_cache_entries_are_recomputed() -> None:
    cache: dict[str, bytes] = {}
    p1 = Project(cache=cache)
    p1.update_file("a.c", LEAKY)
    expected = p1.check()
    for k in cache:
        cache[k] = b"{not json"
    p2 = Project(cache=cache)
    p2.update_file("a.c", LEAKY)
    assert p2.check() == expected and p2.counters["checks_run"] == p1.counters["checks_run"]
