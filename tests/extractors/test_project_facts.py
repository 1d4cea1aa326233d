"""Whole-project facts that rule out paths that cannot run (issue 14): each construct that fooled
the checker (a finding before, none after) next to a twin with a real bug (still found), and what
an edit recomputes, read from the database's counters."""

from __future__ import annotations

from extractors.api import Project
from extractors.queries import file_items, file_view, function_facts, function_model, project_facts

LEAK_ON_FLAG = """\
#include <stdlib.h>
extern int use_cache;
void fill(int n)
{
    char *p = malloc(n);
    if (!p)
        return;
    if (use_cache)
        return;
    free(p);
}
"""

OTHER = "int use_cache = 0;\nint other(int x) { return x + use_cache; }\n"
SETS = "void enable_cache(void) { use_cache = 1; }\n"


def _check(files: dict[str, str]) -> dict[str, list[tuple[str, int]]]:
    p = Project()
    for path, text in files.items():
        p.update_file(path, text)
    return _found(p)


def _found(p: Project) -> dict[str, list[tuple[str, int]]]:
    return {k: [(f.rule_id, f.location.start_line) for f in v] for k, v in p.check().items()}


def _executed(p: Project, query: object) -> int:
    counters = p.db.counters()
    name = query.name  # type: ignore[attr-defined]
    return counters[name].executed if name in counters else 0


def test_a_global_no_file_writes_rules_out_its_branch_and_a_write_elsewhere_keeps_the_bug() -> None:
    assert _check({"main.c": LEAK_ON_FLAG, "other.c": OTHER})["main.c"] == []
    assert _check({"main.c": LEAK_ON_FLAG, "other.c": OTHER + SETS})["main.c"] == [("memory-leak", 4)]


def test_every_kind_of_write_and_an_escaping_address_make_a_global_unknown() -> None:
    for write in (
        "use_cache++;",
        "--use_cache;",
        "use_cache += 2;",
        "(use_cache) = 3;",
        "int *q = &use_cache; *q = 1;",
        "SET(use_cache);",
        '__asm__("" : "=m"(use_cache));',
    ):
        other = OTHER + f"void w(void) {{ {write} }}\n"
        assert _check({"main.c": LEAK_ON_FLAG, "other.c": other})["main.c"] == [("memory-leak", 4)], write
    address = "int use_cache = 0;\nint *handle = &use_cache;\n"
    assert _check({"main.c": LEAK_ON_FLAG, "other.c": address})["main.c"] == [("memory-leak", 4)]
    volatile = "volatile int use_cache = 0;\n"
    assert _check({"main.c": LEAK_ON_FLAG, "other.c": volatile})["main.c"] == [("memory-leak", 4)]
    disagree = {"main.c": LEAK_ON_FLAG, "a.c": "int use_cache = 0;\n", "b.c": "int use_cache = 1;\n"}
    assert _check(disagree)["main.c"] == [("memory-leak", 4)]


def test_a_static_global_is_its_files_own_and_a_local_of_the_same_name_hides_it() -> None:
    src = LEAK_ON_FLAG.replace("extern int use_cache;", "static int use_cache;")
    assert _check({"main.c": src})["main.c"] == []
    # another file's static of the same name is another variable: its value does not count here
    assert _check({"main.c": LEAK_ON_FLAG, "other.c": "static int use_cache = 0;\n"})["main.c"] == [("memory-leak", 4)]
    shadowed = src.replace("void fill(int n)", "void fill(int n, int use_cache)")
    assert _check({"main.c": shadowed})["main.c"] == [("memory-leak", 4)]
    local = src.replace("    char *p = malloc(n);", "    int use_cache = n > 2;\n    char *p = malloc(n);")
    assert _check({"main.c": local})["main.c"] == [("memory-leak", 5)]


HELPER_CALLER = """\
#include <stdlib.h>
int cache_enabled(void);
void fill(int n)
{
    char *p = malloc(n);
    if (!p)
        return;
    if (cache_enabled())
        return;
    free(p);
}
void keep(int n)
{
    char *p = malloc(n);
    int on;
    if (!p)
        return;
    on = cache_enabled();
    if (on)
        return;
    free(p);
}
"""


def test_a_helper_with_a_constant_result_decides_its_callers_tests() -> None:
    constant = "int cache_enabled(void)\n{\n    log_once();\n    return 0;\n}\n"
    assert _check({"main.c": HELPER_CALLER, "helper.c": constant})["main.c"] == []
    varies = 'int cache_enabled(void)\n{\n    if (getenv("CACHE"))\n        return 1;\n    return 0;\n}\n'
    assert _check({"main.c": HELPER_CALLER, "helper.c": varies})["main.c"] == [
        ("memory-leak", 4),
        ("memory-leak", 13),
    ]


def test_a_helper_that_may_fall_off_its_end_or_hide_a_return_in_a_macro_is_not_constant() -> None:
    for body in (
        "int cache_enabled(void) { if (probe()) return 0; }\n",  # falls off the end on a path
        "int cache_enabled(void) { CHECK(probe()); return 0; }\n",  # a capitalised macro
        "#define bail(x) if (x) return 1\nint cache_enabled(void) { bail(probe()); return 0; }\n",
        "int cache_enabled(void) { return 0; }\nint cache_enabled(void) { return 1; }\n",
    ):
        found = _check({"main.c": HELPER_CALLER, "helper.c": body})["main.c"]
        assert found == [("memory-leak", 4), ("memory-leak", 13)], body


RUN_ONCE = """\
int last_of(const int *v, int n)
{
    int i, last;
    for (i = 0; i < 4; i++)
        last = v[i];
    return last + n;
}
"""


def test_a_loop_whose_first_test_a_counter_decides_runs_at_least_once() -> None:
    assert _check({"a.c": RUN_ONCE})["a.c"] == []
    may_skip = RUN_ONCE.replace("i < 4", "i < n")
    assert _check({"a.c": may_skip})["a.c"] == [("uninitialised-read", 5)]
    while_loop = "int f(int n)\n{\n    int k = 0, x;\n    while (k < 2) {\n        x = k;\n        k++;\n    }\n"
    while_loop += "    return x;\n}\n"
    assert _check({"a.c": while_loop})["a.c"] == []
    starts_past = while_loop.replace("int k = 0", "int k = 2")
    assert _check({"a.c": starts_past})["a.c"] == [("uninitialised-read", 7)]


FIRST_ROUND = """\
int sum_after_first(const int *v, int n)
{
    int i, total = 0;
    for (i = 0; i < n; ++i) {
        int x = v[i] * 2;
        if (i != 0)
            total += x;
    }
    return total;
}
"""


def test_a_counter_is_known_up_to_its_first_test_only_so_no_store_of_the_first_round_looks_dead() -> None:
    # brotli's BuildAndStoreBlockSplitCode: in the first round ``x`` is not read, in the others it is
    assert _check({"a.c": FIRST_ROUND})["a.c"] == []


CONSTANT_SWITCH = """\
#define MODE 1
int pick(int n)
{
    int x;
    switch (MODE) {
    case 1:
        x = n;
        break;
    case 2:
        x = -n;
        break;
    default:
        break;
    }
    return x;
}
"""


def test_a_switch_on_a_constant_goes_to_its_case_only() -> None:
    assert _check({"a.c": CONSTANT_SWITCH})["a.c"] == []
    to_default = CONSTANT_SWITCH.replace("#define MODE 1", "#define MODE 3")
    assert _check({"a.c": to_default})["a.c"] == [("uninitialised-read", 14)]
    static_mode = CONSTANT_SWITCH.replace("#define MODE 1", "static int mode = 2;").replace("MODE", "mode")
    assert _check({"a.c": static_mode})["a.c"] == []
    written = static_mode + "void set_mode(int m) { mode = m; }\n"
    assert _check({"a.c": written})["a.c"] == [("uninitialised-read", 14)]


CORRELATED = """\
int scaled(int n, int k)
{
    int x;
    if (n > 4)
        x = k * 2;
    k++;
    if (n > 4)
        return x;
    return k;
}
"""


def test_a_repeated_test_on_a_value_nothing_writes_takes_its_first_branch() -> None:
    assert _check({"a.c": CORRELATED})["a.c"] == []
    negated = CORRELATED.replace(
        "if (n > 4)\n        return x;", "if (n <= 4)\n        return k;\n    else\n        return x;"
    )
    assert _check({"a.c": negated})["a.c"] == []
    different = CORRELATED.replace("if (n > 4)\n        return x;", "if (n > 3)\n        return x;")
    assert _check({"a.c": different})["a.c"] == [("uninitialised-read", 7)]
    written = CORRELATED.replace("k++;", "n = k;")  # (after n--, refutation knows n <= 3 there)
    assert _check({"a.c": written})["a.c"] == [("uninitialised-read", 7)]


def _many(count: int) -> str:
    return "".join(
        f"int f{i}(int x)\n{{\n    if (use_cache)\n        return x;\n    return x + {i};\n}}\n" for i in range(count)
    )


def test_typing_in_an_unrelated_body_recomputes_no_other_function() -> None:
    p = Project()
    p.update_file("a.c", "extern int use_cache;\n" + _many(20))
    p.update_file("b.c", OTHER + "int g(int y)\n{\n    return y + 1;\n}\n")
    p.check()
    f3 = p.db.get(file_items, "a.c").functions["f3"]
    assert function_facts(p.db, ("a.c", "f3", f3.text)) == frozenset({("use_cache", 0)})
    p.db.reset_counters()
    p.update_file("b.c", OTHER + "int g(int y)\n{\n    return y + 2;\n}\n")
    p.check()
    assert _executed(p, function_model) == 1  # g only
    assert _executed(p, project_facts) == 0  # b.c's facts were recomputed equal: nothing above ran
    p.db.reset_counters()
    p.update_file("a.c", "extern int use_cache;\n" + _many(20).replace("return x + 7;", "return x * 7;"))
    p.check()
    assert _executed(p, function_model) == 1


def test_a_write_in_another_file_brings_the_finding_back_as_a_fresh_project_finds_it() -> None:
    p = Project()
    p.update_file("main.c", LEAK_ON_FLAG)
    p.update_file("other.c", OTHER)
    assert _found(p)["main.c"] == []
    p.db.reset_counters()
    p.update_file("other.c", OTHER + SETS)
    assert _found(p) == _check({"main.c": LEAK_ON_FLAG, "other.c": OTHER + SETS})
    assert _found(p)["main.c"] == [("memory-leak", 4)]
    assert _executed(p, function_model) == 3  # fill and other (which name the fact), enable_cache (new)
    p.update_file("other.c", OTHER)
    assert _found(p)["main.c"] == []
    p.remove_file("other.c")  # the definition went with its file: unknown again
    assert _found(p)["main.c"] == [("memory-leak", 4)]
    assert p.db.get(file_view, "main.c") == frozenset()


def test_a_changed_fact_rebuilds_only_the_functions_that_name_it() -> None:
    unrelated = "".join(f"int u{i}(int x)\n{{\n    return x + {i};\n}}\n" for i in range(6))
    p = Project()
    p.update_file("main.c", LEAK_ON_FLAG + unrelated)
    p.update_file("other.c", OTHER)
    assert _found(p)["main.c"] == []
    built = p.counters["functions_extracted"]
    p.db.reset_counters()
    p.update_file("other.c", OTHER + SETS)
    assert _found(p)["main.c"] == [("memory-leak", 4)]
    # main.c's view changed, so each of its models is looked at again (fill and the six u), but
    # only fill names the fact: the others keep their model key and model; other.c's other and
    # enable_cache (new) are the other two built
    assert _executed(p, function_model) >= 7
    assert p.counters["functions_extracted"] - built == 3
